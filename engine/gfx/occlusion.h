/* occlusion: chunk occlusion culling against the depth the frame has
 * already drawn (a coarse depth pyramid tested per chunk).
 *
 * The visible set is drawn nearest first. Once the draw reaches a chunk
 * beyond the first ring (render.occlusion_near voxels), the depth buffer
 * drawn so far is read back once and reduced to tiles holding their
 * farthest depth; every later chunk whose geometry box lies behind every
 * tile its screen rectangle touches cannot pass the depth test anywhere and
 * is skipped. Each further ring (twice as far) reads the depth again, so
 * what the middle distance hides is culled too. The test is conservative:
 * the tiles are the real depth of the real picture, the box bounds all of
 * the chunk's triangles, so the picture is the same pixel for pixel
 * (tests/test_occlusion.c) in every render mode and level of detail.
 *
 * The tiles and the box test are pure CPU (testable without GL); only
 * occlusion_read touches GL. */
#ifndef STRATA_OCCLUSION_H
#define STRATA_OCCLUSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gfx/camera.h"

/* Render modes cull a chunk in cells of 2^OCCLUSION_CELL_BITS voxels a
 * side, each with its own box: the part of a near chunk behind the eye,
 * the caves under the near ground, the far side of a hill are left out
 * while the rest of the chunk draws. */
#define OCCLUSION_CELL_BITS 3
#define OCCLUSION_CELLS_AXIS (32 >> OCCLUSION_CELL_BITS)
#define OCCLUSION_CELLS (OCCLUSION_CELLS_AXIS * OCCLUSION_CELLS_AXIS * OCCLUSION_CELLS_AXIS)

/* The cell of a chunk-local position (x fastest, then y, then z); points
 * on or past the chunk's faces belong to the cell at that face. */
static inline int occlusion_cell(float x, float y, float z)
{
    const float p[3] = { x, y, z };
    int c[3];
    for (int k = 0; k < 3; k++) {
        c[k] = p[k] <= 0.f ? 0 : (int)p[k] >> OCCLUSION_CELL_BITS;
        c[k] = c[k] >= OCCLUSION_CELLS_AXIS ? OCCLUSION_CELLS_AXIS - 1 : c[k];
    }
    return c[0] + OCCLUSION_CELLS_AXIS * (c[1] + OCCLUSION_CELLS_AXIS * c[2]);
}

/* The cells of a chunk at `origin` (world units), nearest to `eye` first:
 * drawing a chunk's cells in this order lets early depth reject what its
 * own near cells hide (a leaf wall in front of the crown behind it). */
void occlusion_cell_order(const float eye[3], const float origin[3], int order[OCCLUSION_CELLS]);

/* Pixels per tile side: small enough that a gap between two crowns stays a
 * gap, large enough that a chunk's rectangle spans few tiles. */
#define OCCLUSION_TILE 8

/* The farthest depth (window z, 0 near .. 1 far) in each tile of a w x h
 * depth image, tiles row by row from the bottom (glReadPixels order). */
typedef struct occlusion_tiles {
    int w, h;   /* pixels */
    int tw, th; /* tiles */
    float *far; /* tw * th */
    size_t cap;
} occlusion_tiles;

/* A depth as glReadPixels(GL_DEPTH_COMPONENT, GL_UNSIGNED_INT) gives it
 * (window z scaled to 0 .. 2^32-1) as window z. The read is in integers:
 * llvmpipe converts its 24-bit depth to them in 0.6 as long as to floats
 * (render.frame.desert: 1.4-1.6 ms a read instead of 2.3-2.4), and a
 * tile's maximum converts once instead of every pixel. */
static inline float occlusion_depth_z(uint32_t d) { return (float)((double)d * (1.0 / 4294967295.0)); }

/* Sizes t for a w x h image (its tiles' values left as they were); false
 * when out of memory (the tiles are then empty: nothing is hidden). */
bool occlusion_tiles_size(occlusion_tiles *t, int w, int h);
/* Reduces a w x h depth image (rows from the bottom) to tiles; false when
 * out of memory (the tiles are then empty: nothing is hidden). */
bool occlusion_tiles_build(occlusion_tiles *t, const uint32_t *depth, int w, int h);
void occlusion_tiles_free(occlusion_tiles *t);

/* True when every point of the box [lo, hi] (world units) lies behind the
 * depth of every tile its projection can touch under `viewproj`, so no
 * fragment of anything inside it passes a GL_LESS depth test (viewproj: a
 * column-major mat4). A box that
 * reaches the near plane, or tiles not built, are never hidden. */
bool occlusion_box_hidden(const occlusion_tiles *t, const float viewproj[16], const float lo[3], const float hi[3]);

/* The per-frame culler a render mode consults while it draws. */
typedef struct render_occlusion render_occlusion;

typedef struct occlusion_stats {
    int tested; /* parts (cells, or chunks) asked about once a depth was read */
    int hidden; /* of those, hidden behind the depth */
    int reads;  /* depth read-backs this frame */
    int skipped; /* rings whose read was not due this frame (occlusion_set_adaptive) */
    int outside; /* boxes outside the frustum (parts of chunks whose sphere is in it) */
    double read_ms, tiles_ms; /* waiting for and copying the depth; reducing it to tiles (the GPU way: all in read_ms) */
    bool judged_off; /* culling on, but the judge (occlusion_set_judged) read nothing this frame */
} occlusion_stats;

render_occlusion *occlusion_create(void);
void occlusion_destroy(render_occlusion *o);
/* Starts a frame drawn with `cam` into a w x h framebuffer (bound for
 * reading when occlusion_keep reads it). `near` is the first ring's radius
 * (voxels); `rings` how many read-backs at most (0 = culling off). */
void occlusion_begin(render_occlusion *o, const camera *cam, int w, int h, float near, int rings);
/* Whether a chunk (or a part of one) at `dist` (its visible-set distance;
 * calls come nearest first) whose geometry lies in [lo, hi] must be drawn:
 * false when the box is outside the frustum or hidden by the depth drawn
 * so far. NULL o, or culling off: always. */
bool occlusion_keep(render_occlusion *o, float dist, const float lo[3], const float hi[3]);
/* occlusion_keep for the n parts of one chunk at `dist`: part i's box is
 * [lo[i], hi[i]] (chunk-local; lo > hi: no geometry, kept) moved by
 * `origin`. Fills keep[0..n); false when every part with geometry is
 * culled (the chunk draws nothing). */
bool occlusion_keep_parts(render_occlusion *o, float dist, const float origin[3], const float (*lo)[3],
                          const float (*hi)[3], int n, bool *keep);
/* How the depth becomes tiles: 0 read back whole and reduced on the CPU,
 * 1 reduced by a compute shader (gfx/occlusion_gpu) and only the tiles
 * read back, 2 whichever of the two its first reads measured faster here
 * (said once). The shader's way falls back to the CPU's for good, said
 * once, where it cannot run. 0 until set. */
void occlusion_set_gpu(render_occlusion *o, int mode);
/* Whether each ring reads only while its reads pay. A ring whose last
 * read hid under one in 8 of the parts tested against it waits 2, 4, 8,
 * 16, ... then 128 frames before it reads again (the rings a frame
 * apart), or reads at once when its range holds half as many parts
 * again, or half as many (a new view). Its parts are meanwhile tested
 * against an earlier ring's tiles, which hide less but never too much.
 * On until set. */
void occlusion_set_adaptive(render_occlusion *o, bool on);
/* Whether the frames' own times decide if the depth is read at all
 * (gfx/occlusion_judge.h): trials of frames with the reads and without,
 * and the faster kept a while. Frames without reads still leave out the
 * parts outside the frustum. Off until set; a change starts the judge
 * afresh (reads, then its first trial JUDGE_FIRST frames on). */
void occlusion_set_judged(render_occlusion *o, bool on);
/* The judge's last verdict (true: reads pay, or no judge), and how many
 * trials it has judged, `off` of them against the reads (either may be
 * NULL). */
bool occlusion_judge_verdict(const render_occlusion *o, int *verdicts, int *off);
occlusion_stats occlusion_get_stats(const render_occlusion *o);
/* The rings occlusion_begin was asked for this frame (0: culling off,
 * or no culler) and the first one's radius: a mode that culls on the GPU
 * (gfx/gpu_cull) follows them without reading anything back. */
int occlusion_rings_asked(const render_occlusion *o, float *near);

#endif
