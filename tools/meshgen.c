/* meshgen: writes seed 002's test meshes as OBJ files into a folder, so they
 * can be looked at, imported into the game or voxelized from the console:
 *   meshgen OUTDIR
 * teapot.obj is closed; teapot_holes, teapot_gaps, teapot_flipped,
 * teapot_overlap and teapot_broken (all of them) carry the Utah teapot's
 * defects; sphere, torus, cube and two half-overlapping cubes have exact
 * volumes. The tests build the same meshes in memory (gen/meshmake.h). */
#include <stdio.h>

#include "gen/meshmake.h"

typedef struct meshgen_item {
    const char *name;
    int kind;        /* 0 teapot, 1 sphere, 2 torus, 3 cube, 4 second cube */
    unsigned damage; /* teapots */
} meshgen_item;

static const meshgen_item items[] = {
    { "teapot", 0, 0 },
    { "teapot_holes", 0, MESHMAKE_HOLES },
    { "teapot_gaps", 0, MESHMAKE_GAPS },
    { "teapot_flipped", 0, MESHMAKE_FLIPS },
    { "teapot_overlap", 0, MESHMAKE_OVERLAPS },
    { "teapot_broken", 0, MESHMAKE_HOLES | MESHMAKE_GAPS | MESHMAKE_FLIPS | MESHMAKE_OVERLAPS },
    { "sphere", 1, 0 },
    { "torus", 2, 0 },
    { "cube", 3, 0 },
    { "cube_shifted", 4, 0 },
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: meshgen OUTDIR\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        obj_mesh m = { 0 };
        const float c[3] = { 0, 0, 0 }, lo[3] = { 0, 0, 0 }, hi[3] = { 1, 1, 1 }, lo2[3] = { 0.5f, 0, 0 },
                    hi2[3] = { 1.5f, 1, 1 };
        bool ok;
        switch (items[i].kind) {
        case 0: ok = meshmake_teapot(&m, 120, items[i].damage, 1); break;
        case 1: ok = meshmake_sphere(&m, c, 1.f, 48, 96); break;
        case 2: ok = meshmake_torus(&m, c, 1.f, 0.4f, 96, 48); break;
        case 3: ok = meshmake_cube(&m, lo, hi); break;
        default: ok = meshmake_cube(&m, lo2, hi2); break;
        }
        char path[4096], err[512];
        snprintf(path, sizeof path, "%s/%s.obj", argv[1], items[i].name);
        if (!ok || !obj_save(&m, path, err, sizeof err)) {
            fprintf(stderr, "meshgen: %s\n", ok ? err : "out of memory");
            obj_free(&m);
            return 1;
        }
        printf("%s triangles=%d\n", path, m.nt);
        obj_free(&m);
    }
    return 0;
}
