/* app_emit: light in the dark and the sky as the app's components. "emit"
 * owns the block light of emitters (light/emit.h) for the current world and
 * its texture (gfx/emit_tex.h): a whole fill after each new world, a
 * relight of the window after every edit (only that box is uploaded), a
 * streamed column's bytes landed with its light (made on the workers),
 * following the world's window. It holds the
 * cvars of the final colour: light.emit, player.lamp (the headlamp, bound
 * to L), view.brightness; "sky" draws the sky (gfx/sky.h) under
 * render.sky and render.clouds. */
#ifndef STRATA_APP_EMIT_H
#define STRATA_APP_EMIT_H

#include "app_internal.h"
#include "light/emit.h"

extern const component app_emit_component;
extern const component app_sky_component;

/* Fills s->look for this frame, seen from cam (after s->sun is set). */
void app_emit_settings(const app *a, render_settings *s, const camera *cam);
/* The volume of the current world (NULL before one): tests compare it. */
const emit *app_emit_volume(const app *a);
/* Relights every streamed column whose block light still waits for a
 * frame's budget (`stream wait` draws the whole picture next). */
void app_emit_settle(app *a);
/* Column (cx, cz)'s block light, made on a worker with its snowflake
 * light from its ring's snapshot (app_light.c), lands: into the volume
 * and the texture. */
void app_emit_land_column(app *a, const emit_column *c, int cx, int cz);
/* Column (cx, cz)'s block light is made here instead, from the world as it
 * is, within a frame's budget (its job could not make it, or a whole bake
 * dropped it). */
void app_emit_queue_column(app *a, int cx, int cz);

#endif
