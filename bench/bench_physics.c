/* bench_physics: voxel bodies (issue 21).
 *   physics.detach.oak   cutting through an oak's trunk in the default
 *                        deciduous world (512x128x512), from the cut to the
 *                        crown found loose and made a body */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "physics/detach.h"
#include "worldgen/biomes.h"
#include "worldgen/worldgen.h"

#define DETACH_BENCH_LIMIT 100000

typedef struct oak_state {
    world *w;
    detach d;
    int t[3];   /* the trunk voxel cut */
    uint8_t m;
} oak_state;

/* The oak nearest the centre: a log column standing on ground. */
static bool find_oak(const world *w, int t[3])
{
    long best = -1;
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            int y = world_surface_y(w, x, z);
            for (; y > 1; y--)
                if (world_get(w, x, y, z) == MAT_OAK_LOG && world_get(w, x, y - 1, z) != MAT_OAK_LOG) break;
            if (y <= 1 || world_get(w, x, y, z) != MAT_OAK_LOG || world_get(w, x, y + 2, z) != MAT_OAK_LOG) continue;
            long dx = x - w->sx / 2, dz = z - w->sz / 2, d = dx * dx + dz * dz;
            if (best < 0 || d < best) best = d, t[0] = x, t[1] = y + 1, t[2] = z;
        }
    return best >= 0;
}

static void *oak_setup(void)
{
    biomes_register();
    oak_state *s = calloc(1, sizeof *s);
    s->w = world_create(16, 4, 16);
    if (!s->w || !worldgen_generate(s->w, worldgen_find("deciduous"), 1, bench_jobs()) || !find_oak(s->w, s->t)) {
        bench_skip("no deciduous world or no oak in it");
        world_destroy(s->w);
        free(s);
        return NULL;
    }
    s->m = world_get(s->w, s->t[0], s->t[1], s->t[2]);
    return s;
}

static void oak_run(void *p)
{
    oak_state *s = p;
    world_set(s->w, s->t[0], s->t[1], s->t[2], MAT_AIR);
    const int hi[3] = { s->t[0] + 1, s->t[1] + 1, s->t[2] + 1 };
    size_t n = detach_find(&s->d, s->w, s->t, hi, DETACH_BENCH_LIMIT);
    world_set(s->w, s->t[0], s->t[1], s->t[2], s->m); /* the next run cuts the same tree */
    bench_note("groups", (double)n);
    bench_note("voxels", (double)s->d.vox_count);
    bench_note("visited", (double)s->d.visited);
}

static void oak_teardown(void *p)
{
    oak_state *s = p;
    detach_free(&s->d);
    world_destroy(s->w);
    free(s);
}

static const bench_case physics_cases[] = {
    { "physics.detach.oak", oak_setup, oak_run, oak_teardown, 50 },
};
BENCH_REGISTER(physics_cases)
