/* preview: shows which voxels an edit will take by tinting the surface
 * drawn on them. A full-screen pass reads the frame's depth, finds the
 * voxel under each pixel's surface point and tints the pixel when that
 * voxel is in the given set, with a solid outline where the set's tinted
 * area ends; the same in every render mode, since only depth is read. */
#ifndef STRATA_PREVIEW_H
#define STRATA_PREVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gfx/camera.h"

typedef struct preview_renderer preview_renderer;

/* Loads shaders/preview.vert and shaders/preview.frag. NULL with err set. */
preview_renderer *preview_create(char *err, size_t errlen);
void preview_destroy(preview_renderer *p);

/* What a voxel of the box is. The surface of a pixel belongs to the first
 * voxel behind it that is not empty; outside the box, to none of the set. */
#define PREVIEW_EMPTY 0
#define PREVIEW_SOLID 1  /* solid, not in the set */
#define PREVIEW_MARKED 2 /* in the set */

/* The box: world voxels [lo, lo + size), one byte each (PREVIEW_*), x
 * fastest, then z, then y (a shape's layout). A side of 0 marks nothing.
 * False when out of memory (then nothing is drawn). */
bool preview_set_mask(preview_renderer *p, const int lo[3], const int size[3], const uint8_t *v);

/* How the marked surface is drawn. soft: the surface may lie in front of
 * the voxels' faces (smooth and enhanced modes round the corners and
 * steps off), so the first voxel that is not empty up to a voxel behind
 * the surface point is the one it belongs to; else a hair behind it. */
typedef struct preview_style {
    float fill[4];    /* rgba over the marked surface */
    float outline[4]; /* rgba of the outline */
    float outline_px; /* its width in pixels */
    bool soft;
} preview_style;

/* Tints framebuffer (width x height), whose depth buffer holds the world
 * drawn with cam, where the surface lies on marked voxels. Writes no
 * depth; leaves depth test on (GL_LESS) with depth writes, blending off. */
void preview_draw(preview_renderer *p, const camera *cam, const preview_style *st, unsigned framebuffer, int width,
                  int height);

#endif
