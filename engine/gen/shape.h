/* shape: a dense voxel object made from a formula (seed 003's primitives,
 * the cutting tool and the formula world). One byte per voxel, 1 solid and
 * 0 empty, laid out like a chunk (x fastest, then z, then y). */
#ifndef STRATA_SHAPE_H
#define STRATA_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/expr.h"

/* Largest side: 256^3 bytes is 16 MiB, and the formula world is the biggest
 * user of shapes; beyond that a typo in a cvar would stall the game. */
#define SHAPE_MAX_SIZE 256

typedef struct shape {
    int sx, sy, sz;
    uint8_t *vox;    /* sx * sy * sz */
    long count;      /* solid voxels */
    expr_program prog;
} shape;

static inline size_t shape_index(const shape *s, int x, int y, int z)
{
    return (size_t)x + (size_t)s->sx * ((size_t)z + (size_t)s->sz * (size_t)y);
}
static inline bool shape_get(const shape *s, int x, int y, int z)
{
    return x >= 0 && y >= 0 && z >= 0 && x < s->sx && y < s->sy && z < s->sz && s->vox[shape_index(s, x, y, z)];
}

/* Builds an sx * sy * sz shape from `formula` (expr_compile, AUTO syntax).
 * On failure (bad formula, size out of 1..SHAPE_MAX_SIZE, out of memory)
 * returns false with the reason in err and leaves `out` untouched, so a
 * caller holding a good shape keeps it. On success frees out's old voxels. */
bool shape_from_formula(shape *out, const char *formula, int sx, int sy, int sz, char *err, size_t errlen);
void shape_free(shape *s);

#endif
