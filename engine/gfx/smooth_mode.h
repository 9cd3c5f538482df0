/* smooth_mode: the "smooth" render mode (seed 004's surface nets) as an
 * entry of the render-mode table. Its build meshes dirty chunks either on
 * the CPU workers (mesh_smooth, every level of detail; the draw picks one
 * per chunk by render.smooth_lod_distance) or through the four compute passes
 * (surfnets_gpu), as render.gpu says; render.smooth_sharpness shapes the
 * density; render.gpu_cull and render.upload_budget as the blocks mode's.
 * The game registers those cvars; missing ones read as defaults. */
#ifndef STRATA_SMOOTH_MODE_H
#define STRATA_SMOOTH_MODE_H

#include "gfx/render_mode.h"

extern const render_mode smooth_render_mode;

/* The renderer of an instance of the mode (app_render_instance's). */
struct smooth_renderer;
struct smooth_renderer *smooth_mode_renderer(void *instance);

#endif
