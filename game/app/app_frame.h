/* app_frame: one frame of the game, shared by the window loop and the
 * 'frames' and 'screenshot' commands: the simulation step, the world drawn
 * by the render component, every component's draw, the crosshair and the
 * overlays. */
#ifndef STRATA_APP_FRAME_H
#define STRATA_APP_FRAME_H

#include "app_internal.h"

/* One simulation step: the player moves (collision on the tool's octree),
 * then every component's on_frame (the tool follows the eye and applies
 * held cut/fill). While the menu is open the game is paused: only the
 * components that do not pause (streaming, light, saves) run. */
void app_step(app *a, const player_input *in, float dt, double now);
/* Draws the world, then the components' draw hooks (the tool's ghost),
 * then the crosshair. */
void app_render(app *a);
/* The tool strip, HUD, help, progress bar, the menu (when open) and the
 * console over the frame (windowed runs). */
void app_draw_overlays(app *a);

#endif
