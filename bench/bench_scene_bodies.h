/* The falling benches' scene (physics.step.bodies.10, .100), shared with
 * the test that checks it comes to rest (tests/test_bodies_rest.c): count
 * bodies of 50 to 500 voxels of stone and oak, spinning, dropped from 4 to
 * 40 voxels over the 128 x 64 x 128 hills. */
#ifndef STRATA_BENCH_SCENE_BODIES_H
#define STRATA_BENCH_SCENE_BODIES_H

#include <stdlib.h>

#include "core/rng.h"
#include "physics/bodies.h"

/* Adds the scene's bodies to s (seed 42); returns how many it added. */
static inline int bench_scene_bodies(bodies *s, const world *w, int count)
{
    body_density dens;
    body_density_default(&dens);
    rng r = rng_make(42);
    int added = 0;
    for (int i = 0; i < count; i++) {
        int size[3];
        long v;
        do {
            for (int a = 0; a < 3; a++) size[a] = rng_range(&r, 3, 8);
            v = (long)size[0] * size[1] * size[2];
        } while (v < 50 || v > 500);
        uint8_t *g = malloc((size_t)v);
        if (!g) continue;
        for (long k = 0; k < v; k++) g[k] = (uint8_t)(rng_double(&r) < 0.5 ? MAT_STONE : MAT_OAK_LOG);
        float o[3] = { (float)rng_range(&r, 8, 112), 0, (float)rng_range(&r, 8, 112) };
        o[1] = (float)world_surface_y(w, (int)o[0], (int)o[2]) + 4.f + (float)(i % 5) * 9.f;
        body *b = body_from_grid(g, NULL, size, o, &dens);
        free(g);
        if (!b) continue;
        for (int a = 0; a < 3; a++) b->ang[a] = (float)(rng_double(&r) * 4 - 2);
        if (bodies_add(s, b)) added++;
        else body_destroy(b);
    }
    return added;
}

#endif
