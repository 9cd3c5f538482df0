/* renderer: the "blocks" render mode — draws the block world from per-chunk
 * vertex buffers. One VBO per chunk holds its opaque, cut-out and
 * translucent quads back to back; a shared index buffer turns quads into
 * triangles. The shared visible set (render_mode.h) says which chunks to
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
/* Uploads (replaces) one chunk's mesh. Empty meshes free the buffer. A
 * buffer GL cannot allocate is reported, the chunk left empty; returns
 * false then. */
bool renderer_upload(renderer *r, int cx, int cy, int cz, const chunk_mesh *m);
/* A whole frame: clear, visible set, draw (tests, benchmarks). */
void renderer_draw(renderer *r, const camera *cam, const render_settings *s, render_stats *stats);
/* Draws the chunks of a visible set (the frame is begun by the caller). */
void renderer_draw_view(renderer *r, const render_view *v, render_stats *stats);

#endif
