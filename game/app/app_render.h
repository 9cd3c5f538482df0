/* app_render: the world's renderer as the app's component "render". It
 * owns the current render mode (render.mode, the table in
 * gfx/render_mode.h; F8 cycles), builds and uploads the chunks an edit or
 * a new world made dirty, computes the shared visible set and draws it. */
#ifndef STRATA_APP_RENDER_H
#define STRATA_APP_RENDER_H

#include "app_internal.h"

extern const component app_render_component;

/* Draws the world for cam with s (clear, re-mesh dirty chunks, visible set,
 * the mode's draw); fills a->stats. False when there is nothing to draw
 * with (no GL, no world). */
bool app_render_world(app *a, const camera *cam, const render_settings *s);
/* Builds and uploads every dirty chunk now (stats, tests). */
void app_render_mesh_dirty(app *a);
/* The columns the last frame drew from a streamed world (a chunk of each
 * in its visible set, meshed from the generated column): mask[(cz - cz0)
 * * w + (cx - cx0)] = 1 over the w x h columns from (cx0, cz0), the rest
 * 0; returns how many. Nothing for a finite world. The far rings leave
 * these out. */
int app_render_drawn_columns(app *a, unsigned char *mask, int w, int h, int cx0, int cz0);
/* The drawing mode and its instance (NULL before GL or without a world). */
void *app_render_instance(app *a, const render_mode **mode);
/* What occlusion culling did in the last frame (zeros before GL). */
occlusion_stats app_render_occlusion_stats(app *a);
/* The occlusion judge's verdict (occlusion_judge_verdict). */
bool app_render_occlusion_judge(app *a, int *verdicts, int *off);
/* The crosshair, last of all. */
void app_render_crosshair(app *a, const render_settings *s);

#endif
