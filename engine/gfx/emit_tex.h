/* emit_tex: the emitters' light (light/emit.h) as an R8 3D texture the
 * size of the world's window, holding the volume's column slots as they
 * are (voxel v at texel v mod size): compose.glsl finds a voxel's texel
 * in integers, and a relight uploads only its box. GL, main thread only. */
#ifndef STRATA_EMIT_TEX_H
#define STRATA_EMIT_TEX_H

#include <stdbool.h>
#include <stddef.h>

#include "light/emit.h"

typedef struct emit_tex {
    unsigned tex;
    int sx, sy, sz;
} emit_tex;

/* False (and why in err) when the driver cannot hold it. */
bool emit_tex_create(emit_tex *t, int sx, int sy, int sz, char *err, size_t errlen);
void emit_tex_destroy(emit_tex *t);
/* Uploads box [lo, hi) (global, inside the volume's window) of e, split
 * where it wraps around the texture's edges; the whole window when lo is
 * NULL. */
void emit_tex_upload(emit_tex *t, const emit *e, const int lo[3], const int hi[3]);

#endif
