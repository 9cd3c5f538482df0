/* far: the far rings on the GPU (docs/streaming.md, "The far rings"):
 * one vertex and index buffer a ring (mesh/far_mesh.h builds them on the
 * workers), drawn with one multi-draw a ring of the tiles inside the
 * frustum, camera-relative. A ring leaves out what is drawn nearer: ring
 * k the square of ring k-1, ring 0 the columns the near field drew this
 * frame (a mask of the window's columns), fragment by fragment, so the
 * rings and the near chunks never overlap and never z-fight; where ring 0
 * stands above the near terrain at the drawn columns' edge, a curtain
 * hangs from it there (far_curtain_build), so no ray passes under it. Faces are lit
 * as an open top face of the near terrain is (the sun and sky terms, no
 * light volume), mixing the top and side tiles' mean colours as a voxel
 * staircase of that slope shows them, and fogged to the sky as every pass
 * is (compose.glsl). GL, main thread only. */
#ifndef STRATA_FAR_H
#define STRATA_FAR_H

#include <stdbool.h>
#include <stddef.h>

#include "gfx/camera.h"
#include "gfx/render_mode.h"
#include "mesh/far_mesh.h"

typedef struct far_gfx far_gfx;

far_gfx *far_gfx_create(char *err, size_t errlen);
void far_gfx_destroy(far_gfx *g);
/* Ring slot `ring` takes mesh m of ring r (replacing what it held); false
 * (and a log_warn) when the buffers cannot be had: the slot is then empty. */
bool far_gfx_upload(far_gfx *g, int ring, const far_ring *r, const far_mesh *m);
/* Empties every slot from `from` on. */
void far_gfx_clear(far_gfx *g, int from);

/* What one frame draws over the near field. */
typedef struct far_view {
    int rings;                   /* slots 0 .. rings - 1 */
    const unsigned char *mask;   /* mask_w x mask_h columns, 1 where the near field drew; NULL: none */
    int mask_w, mask_h;
    int mask_cx, mask_cz;        /* the mask's first column (global chunk coordinates) */
    bool smooth;                 /* shaded as the smooth mode's surface, not as a voxel staircase */
    const far_vertex *curtain;   /* the curtain round the near field (far_curtain_build), relative to ring 0 */
    int curtain_n;               /* its vertices */
} far_view;

typedef struct far_draw_stats {
    long triangles, triangles_loaded;
    long curtain_triangles; /* of triangles: the curtain round the near field */
    int tiles_drawn;
} far_draw_stats;

void far_gfx_draw(far_gfx *g, const camera *cam, const render_settings *s, const far_view *v, far_draw_stats *st);
/* GPU bytes the slots hold. */
size_t far_gfx_bytes(const far_gfx *g);

#endif
