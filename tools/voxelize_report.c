/* voxelize_report: measures both inside tests on seed 002's broken teapots
 * against the volume the modeller meant, and prints the table of
 * docs/voxelize.md:   voxelize_report [RES]
 * The intended shape is the union of the closed parts (the pot, and with
 * overlaps the spout, handle and knob), each voxelized alone, where every
 * method agrees exactly. */
#include <stdio.h>
#include <stdlib.h>

#include "core/jobs.h"
#include "gen/meshmake.h"
#include "gen/voxelize.h"

static long run(const obj_mesh *m, const voxelize_grid *g, voxelize_method meth, int k, job_pool *pool, uint8_t *out)
{
    voxelize_desc d = { 0 };
    d.method = meth;
    d.directions = k;
    d.seed = 1;
    d.pool = pool;
    char err[256];
    long n = voxelize_mesh(m, g, &d, out, err, sizeof err);
    if (n < 0) fprintf(stderr, "voxelize_report: %s\n", err);
    return n;
}

int main(int argc, char **argv)
{
    int res = argc > 1 ? atoi(argv[1]) : 96;
    if (res < 8 || res > VOXELIZE_MAX_RES) {
        fprintf(stderr, "usage: voxelize_report [RES 8..%d]\n", VOXELIZE_MAX_RES);
        return 2;
    }
    job_pool *pool = job_pool_create(0);
    const struct { const char *name; unsigned damage; } cases[] = {
        { "closed", 0 },
        { "holes", MESHMAKE_HOLES },
        { "gaps", MESHMAKE_GAPS },
        { "flipped", MESHMAKE_FLIPS },
        { "overlapping", MESHMAKE_OVERLAPS },
        { "all four", MESHMAKE_HOLES | MESHMAKE_GAPS | MESHMAKE_FLIPS | MESHMAKE_OVERLAPS },
    };
    const struct { const char *name; voxelize_method m; int k; } methods[] = {
        { "parity 1", VOXELIZE_PARITY, 1 },
        { "parity 5", VOXELIZE_PARITY, 5 },
        { "parity 9", VOXELIZE_PARITY, 9 },
        { "winding", VOXELIZE_WINDING, 1 },
    };
    /* one grid for all: the bounds of the pot with every part */
    obj_mesh full = { 0 };
    meshmake_teapot(&full, 96, MESHMAKE_OVERLAPS, 1);
    voxelize_grid g;
    char err[256];
    if (!voxelize_grid_fit(&full, res, &g, err, sizeof err)) return 1;
    obj_free(&full);
    size_t n = (size_t)g.nx * g.ny * g.nz;
    uint8_t *want = malloc(n), *part = malloc(n), *got = malloc(n);
    printf("grid %dx%dx%d; wrong voxels (%% of the intended volume), volume error %%\n", g.nx, g.ny, g.nz);
    printf("| mesh | intended voxels |");
    for (size_t j = 0; j < sizeof methods / sizeof methods[0]; j++) printf(" %s |", methods[j].name);
    printf("\n|---|---|---|---|---|---|\n");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        obj_mesh body = { 0 };
        meshmake_teapot(&body, 96, 0, 1);
        run(&body, &g, VOXELIZE_PARITY, 1, pool, want);
        obj_free(&body);
        if (cases[c].damage & MESHMAKE_OVERLAPS)
            for (int p = 0; p < 3; p++) {
                obj_mesh pm = { 0 };
                meshmake_teapot_part(&pm, p, 48);
                run(&pm, &g, VOXELIZE_PARITY, 1, pool, part);
                for (size_t i = 0; i < n; i++) want[i] |= part[i];
                obj_free(&pm);
            }
        long intended = 0;
        for (size_t i = 0; i < n; i++) intended += want[i];
        obj_mesh m = { 0 };
        meshmake_teapot(&m, 96, cases[c].damage, 1);
        printf("| %s | %ld |", cases[c].name, intended);
        for (size_t j = 0; j < sizeof methods / sizeof methods[0]; j++) {
            long in = run(&m, &g, methods[j].m, methods[j].k, pool, got), wrong = 0;
            for (size_t i = 0; i < n; i++) wrong += got[i] != want[i];
            printf(" %.2f%%, %+.2f%% |", 100.0 * wrong / intended, 100.0 * (in - intended) / intended);
        }
        printf("\n");
        obj_free(&m);
    }
    free(want);
    free(part);
    free(got);
    job_pool_destroy(pool);
    return 0;
}
