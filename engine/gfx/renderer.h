/* renderer: the "blocks" render mode — draws the block world from one
 * vertex buffer, the arena (gfx/mesh_arena): each chunk's range holds its
 * opaque, cut-out and translucent quads back to back; a shared index
 * buffer turns quads into triangles. The opaque pass is one multi-draw per
 * chunk culled on the CPU against depth read back (gfx/occlusion), or a
 * few indirect multi-draws culled on the GPU (gfx/gpu_cull). The shared visible set (render_mode.h) says which chunks to
 * draw, nearest first; translucent chunks are drawn last, far to near.
 * GL is used on the main thread only. */
#ifndef STRATA_RENDERER_H
#define STRATA_RENDERER_H

#include <stdbool.h>
#include <stddef.h>

#include "gfx/camera.h"
#include "gfx/render_mode.h"
#include "mesh/mesh_blocks.h"

typedef struct renderer renderer;

/* Levels of detail per chunk: 0 fine, 1 coarse (mesh/mesh_lod.h). */
#define RENDERER_LODS 2
/* Chunks whose centre is farther than this (voxels) draw their coarse
 * level: beyond two chunks, where a voxel covers a few pixels at 720p. */
#define RENDERER_LOD_DISTANCE 64.f

typedef struct renderer_options {
    bool face_ranges;   /* leave out face directions that point away from the eye */
    float lod_distance; /* coarse level beyond (voxels); 0 = always fine */
    size_t budget_bytes; /* chunk buffers together at most this (0 = as much as GL gives); an
                            upload past it is refused like GL_OUT_OF_MEMORY: reported, skipped */
    int gpu_cull;        /* the opaque pass: 0 culled by reading the depth back (gfx/occlusion), 1 on
                            the GPU (gfx/gpu_cull), 2 whichever the frames' times favour */
    size_t upload_budget; /* bytes of meshes a frame lands at most (gfx/mesh_arena; 0: no limit) */
} renderer_options;

renderer_options renderer_default_options(void);
void renderer_set_options(renderer *r, const renderer_options *o);

/* The table entry of this mode (render.mode blocks). Its build meshes on
 * the job pool with greedy merging unless the cvar render.greedy is 0. */
extern const render_mode renderer_blocks_mode;

renderer *renderer_create(char *err, size_t errlen);
void renderer_destroy(renderer *r);
/* The atlas array texture (owned by the caller); render_settings.atlas,
 * when set, wins. */
void renderer_set_atlas(renderer *r, unsigned texture);
/* Drops every chunk buffer and sizes the table for a new world. */
void renderer_reset(renderer *r, int cx, int cy, int cz);
/* Which chunk each slot holds (the world's window, world_grid_of): set
 * before uploading chunks by their coordinates after the window moved.
 * A grid of another size than the reset's is ignored. */
void renderer_set_grid(renderer *r, world_grid g);
/* Uploads (replaces) one chunk's mesh. Empty meshes free the buffer. A
 * buffer GL cannot allocate is reported, the chunk left empty; returns
 * false then. */
bool renderer_upload(renderer *r, int cx, int cy, int cz, const chunk_mesh *m);
/* Uploads one level of detail (0 fine, 1 coarse) of a chunk; the same rules. */
bool renderer_upload_lod(renderer *r, int cx, int cy, int cz, int level, const chunk_mesh *m);
/* A whole frame: clear, visible set, draw (tests, benchmarks). */
void renderer_draw(renderer *r, const camera *cam, const render_settings *s, render_stats *stats);
/* What the GPU cull (gfx/gpu_cull) counted for the newest frame that has
 * come back (zero before the first); verdicts: how many times
 * render.gpu_cull 2 has chosen, and whether the last chose the GPU. */
struct gpu_cull_counts renderer_gpu_counts(const renderer *r, int *verdicts, bool *gpu);
/* The blocks mode's draw culls as `setting` says (render.gpu_cull's
 * values) instead of render.gpu_cull (-1: that again): a mode drawing part
 * of its view through this one (enhanced) chooses once for both. */
void renderer_force_gpu_cull(renderer *r, int setting);
/* Draws the chunks of a visible set (the frame is begun by the caller). */
void renderer_draw_view(renderer *r, const render_view *v, render_stats *stats);

#endif
