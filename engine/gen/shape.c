#include "gen/shape.h"

#include <stdio.h>
#include <stdlib.h>

bool shape_from_formula(shape *out, const char *formula, int sx, int sy, int sz, char *err, size_t errlen)
{
    if (sx < 1 || sy < 1 || sz < 1 || sx > SHAPE_MAX_SIZE || sy > SHAPE_MAX_SIZE || sz > SHAPE_MAX_SIZE) {
        snprintf(err, errlen, "shape %dx%dx%d is refused: each side must be 1 to %d voxels (the limit)", sx, sy, sz,
                 SHAPE_MAX_SIZE);
        return false;
    }
    expr_program prog;
    if (!expr_compile(formula, EXPR_AUTO, &prog, err, errlen)) return false;
    uint8_t *vox = malloc((size_t)sx * (size_t)sy * (size_t)sz);
    if (!vox) {
        snprintf(err, errlen, "out of memory for a %dx%dx%d shape", sx, sy, sz);
        return false;
    }
    long n = expr_eval_grid(&prog, sx, sy, sz, vox);
    free(out->vox);
    out->sx = sx, out->sy = sy, out->sz = sz;
    out->vox = vox;
    out->count = n;
    out->prog = prog;
    return true;
}

void shape_free(shape *s)
{
    free(s->vox);
    s->vox = NULL;
    s->count = 0;
    s->sx = s->sy = s->sz = 0;
}
