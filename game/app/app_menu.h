/* app_menu: the pause menu in the running game (engine/ui/menu) as the
 * component "menu": the rows it shows, the `menu` command (Esc is bound to
 * it) that opens it and acts on it from scripts, the pause it holds while
 * open, and view.fullscreen. Paused, the player, the tool and the bodies
 * stand still; the world keeps streaming, lighting and saving. */
#ifndef STRATA_APP_MENU_H
#define STRATA_APP_MENU_H

#include "app_internal.h"

extern const component app_menu_component;

bool app_menu_open(const app *a);
/* A key event while the menu is open: true when the menu used it (then the
 * game must not see it). */
bool app_menu_key(app *a, int key, int action);
/* A button press while open, at the pointer: true when the menu took it. */
bool app_menu_click(app *a);
/* The menu over the frame (between text_begin and text_end). */
void app_menu_draw(app *a, text_ctx *t, int fb_w, int fb_h);

#endif
