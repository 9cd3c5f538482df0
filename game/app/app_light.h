/* app_light: snowflake lighting (seed 000, 4.4) as the app's component
 * "light". It owns the light volume of the current world (engine/light) and
 * its texture (gfx/light_tex): a whole-world bake in the background after
 * each new world (not drawn until it lands, progress on screen; headless
 * runs wait for it), a windowed relight after each edit
 * (only that window is uploaded), the light.* cvars and the `light bake` /
 * `light stats` commands. Render modes only sample the texture.
 * On a streamed world the volume follows the world's window: a move clears
 * the columns that left (each frame it looks), a column's arrival (an edit
 * with `generated`) is relit like an edit, and a new window with no column
 * yet is never baked whole: it is lit as its columns arrive. A column is
 * baked once its ring of 8 is there, on a worker from a snapshot of the
 * ring (light_column), and lands on a later frame; an edit of the ring
 * meanwhile bakes it again. */
#ifndef STRATA_APP_LIGHT_H
#define STRATA_APP_LIGHT_H

#include "app_internal.h"

extern const component app_light_component;

/* Whether a streamed column arriving now has its columns' light baked on
 * the workers once their rings are there, their block light with it
 * (app_emit_land_column); else the arrival is relit as an edit (a bake in
 * flight, or light reaching past the ring). The same for every component
 * that hears of the arrival. */
bool app_light_bakes_arrivals(const app *a);
/* Fills s->light (texture, colours) and s->sun for this frame. */
void app_light_settings(app *a, render_settings *s);
/* 0..1 while a bake runs, else -1 (the HUD's progress bar). */
float app_light_progress(const app *a);
/* Waits for the streamed columns baking or waiting to bake and lands them
 * (scripts: `frames`, `stream wait`), so what a script sees does not depend
 * on how fast the workers were. */
void app_light_settle(app *a);
/* While columns in view wait for their light after a new world: the
 * fraction lit (0..1) and a label saying what is left; else -1. */
float app_light_columns_progress(const app *a, const char **label);
/* The chunks to draw this frame: those of `has` (a per chunk slot flag,
 * NULL: every chunk) whose column's light has landed (app_light_land.h),
 * or `has` itself when light is off or light.wait is 0. Owned by the
 * component, valid until the next call. */
const unsigned char *app_light_drawable(const app *a, const unsigned char *has);
/* A new world's whole bake is in flight and none of it is drawn: the
 * bedrock plain lies under all of it meanwhile. */
bool app_light_world_hidden(const app *a);
/* A headless app lands a new world's whole bake at once (scripts see the
 * final picture); on: in the background, as a window does (tests of it). */
void app_light_bake_in_background(app *a, bool on);
/* Lands the streamed columns already baked and starts those waiting, as a
 * frame does, without waiting for any (`stream wait` between its polls). */
void app_light_pump(app *a);

#endif
