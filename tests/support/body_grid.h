/* Helpers of the voxel-body tests (test_bodies.c, test_bodies_far.c):
 * boxes of one material in a world, and bodies made of one. */
#ifndef STRATA_TEST_BODY_GRID_H
#define STRATA_TEST_BODY_GRID_H

#include <stdlib.h>
#include <string.h>

#include "physics/body.h"
#include "voxel/world.h"

static inline void fill_box(world *w, int x0, int y0, int z0, int x1, int y1, int z1, uint8_t m)
{
    for (int y = y0; y < y1; y++)
        for (int z = z0; z < z1; z++)
            for (int x = x0; x < x1; x++) world_set(w, x, y, z, m);
}

/* A solid sx * sy * sz box of material m, its grid's corner at origin. */
static inline body *box_body(int sx, int sy, int sz, uint8_t m, const float origin[3])
{
    int size[3] = { sx, sy, sz };
    uint8_t *g = malloc((size_t)sx * sy * sz);
    if (!g) return NULL;
    memset(g, m, (size_t)sx * sy * sz);
    body_density d;
    body_density_default(&d);
    body *b = body_from_grid(g, NULL, size, origin, &d);
    free(g);
    return b;
}

#endif
