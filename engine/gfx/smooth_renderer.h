/* smooth_renderer: draws the world as surface nets (the smooth render
 * mode): every chunk's levels of detail from mesh_smooth in one arena
 * (gfx/mesh_arena: a level's vertices, then its indices grouped by cell,
 * in one range; uploads through the persistently mapped ring within a
 * frame's budget), or level 0 in the compute passes' own buffers; the
 * level drawn is chosen per chunk by distance each frame. The opaque pass
 * is culled as the blocks mode's (render.gpu_cull): against the depth
 * read back, a multi-draw a chunk, or on the GPU (gfx/gpu_cull), a
 * multi-draw indirect a ring and no read-back. The shared visible set,
 * fog, sun, light and tints as the blocks mode, and triplanar texturing
 * from the atlas by material. GL on the main thread only. */
#ifndef STRATA_SMOOTH_RENDERER_H
#define STRATA_SMOOTH_RENDERER_H

#include <stdbool.h>
#include <stddef.h>

#include "gfx/camera.h"
#include "gfx/render_mode.h"
#include "mesh/mesh_smooth.h"

typedef struct smooth_renderer smooth_renderer;

smooth_renderer *smooth_renderer_create(char *err, size_t errlen);
void smooth_renderer_destroy(smooth_renderer *r);
void smooth_renderer_set_atlas(smooth_renderer *r, unsigned texture);
/* Drops every chunk and sizes the table for a world of cx * cy * cz chunks. */
void smooth_renderer_reset(smooth_renderer *r, int cx, int cy, int cz);
/* Replaces one level of detail of a chunk's mesh (an empty mesh frees its
 * buffers; the chunk then draws nothing at that level). A chunk whose
 * coarse levels were never uploaded draws level 0 at any distance. */
void smooth_renderer_upload_level(smooth_renderer *r, int cx, int cy, int cz, int level, const smooth_mesh *m);
/* Chunks are drawn at mesh_smooth_lod_for(distance, far) (default
 * SMOOTH_LOD_DISTANCE_DEFAULT; 0: level 0 always). */
void smooth_renderer_set_lod_distance(smooth_renderer *r, float far);
/* Which chunk each slot holds (the world's window, world_grid_of): set
 * before uploading chunks by their coordinates after the window moved. */
void smooth_renderer_set_grid(smooth_renderer *r, world_grid g);
/* A whole frame: clear, the shared visible set, draw (tests, benchmarks). */
void smooth_renderer_draw(smooth_renderer *r, const camera *cam, const render_settings *s, render_stats *stats);
/* Draws the chunks of a visible set (the frame is begun by the caller);
 * fog, tints, wireframe and light as the blocks mode. */
void smooth_renderer_draw_view(smooth_renderer *r, const render_view *v, render_stats *stats);
/* The compute-shader path (render.gpu): GL 4.3 and its shaders loaded. */
bool smooth_renderer_gpu_ready(const smooth_renderer *r);
/* Replaces one chunk's mesh with one the compute passes made: the renderer
 * takes its output buffers (m is emptied) and draws them with an indirect
 * draw from its counters, never reading them back. Field, cell and material
 * buffers must be zero (shared scratch stays with the caller). GPU-meshed
 * chunks are not in the triangle counts (those stay on the GPU). */
struct surfnets_gpu_mesh;
void smooth_renderer_upload_gpu(smooth_renderer *r, int cx, int cy, int cz, struct surfnets_gpu_mesh *m);
/* The program the CPU-meshed nets draw with (smooth.vert + smooth.frag,
 * material tiles set, u_model the identity), for others drawing
 * smooth_vertex meshes the same way (gfx/body_draw: a body's nets). 0 with
 * err set on failure. */
unsigned smooth_program_load(char *err, size_t errlen);
/* A vertex array for smooth_vertex buffers (binding 0) as that program reads them. */
unsigned smooth_vertex_array(void);
/* render.gpu_cull (0 read-back, 1 GPU, 2 whichever the frames favour;
 * 0 until set) and the bytes of meshes a frame lands (0: all at once). */
void smooth_renderer_set_cull(smooth_renderer *r, int cull, size_t upload_budget);
/* What the GPU cull counted for the newest frame that has come back; as
 * renderer_gpu_counts. */
struct gpu_cull_counts smooth_renderer_gpu_counts(const smooth_renderer *r, int *verdicts, bool *gpu);
/* Bytes of vertex and index data held on the GPU. */
size_t smooth_renderer_bytes(const smooth_renderer *r);

#endif
