/* menu: the pause menu, its model and its drawing with the text batch.
 * Rows are settings (a cvar, shown only while that cvar exists, so a
 * subsystem that is not there leaves no dead row) or actions (a command
 * line). Keys, clicks and the `menu` commands all act through menu_adjust
 * and menu_activate, so a script does exactly what a player does. */
#ifndef STRATA_MENU_H
#define STRATA_MENU_H

#include <stdbool.h>
#include <stddef.h>

#include "gfx/text.h"

#define MENU_MAX_ROWS 24

typedef struct menu_item {
    const char *label;
    /* a setting: the cvar it shows and changes; NULL: an action */
    const char *cvar;
    /* an action: the command line it runs; a setting: a command given the
     * new value instead of `set` ("biome" makes a world of that kind) */
    const char *command;
    double step; /* number settings: one press of left/right (0: a twentieth of the range) */
    /* a text setting's choices (render.mode): the i-th, NULL past the last */
    const char *(*choice)(int i);
} menu_item;

typedef struct menu menu;

/* `items` is kept (not copied): a static table. Sounds: `sound(user, what)`
 * on a move ("move"), a change ("change") and an action ("select"); NULL
 * for none. */
menu *menu_create(const char *title, const menu_item *items, int count, void (*sound)(void *user, const char *what),
                  void *sound_user);
void menu_destroy(menu *m);

bool menu_is_open(const menu *m);
/* Opening selects the first row; it takes effect at once (no animation):
 * the next frame drawn shows it. */
void menu_set_open(menu *m, bool open);

/* The rows shown now (items whose cvar exists), 0-based. */
int menu_rows(const menu *m);
const menu_item *menu_row(const menu *m, int row);
int menu_selected(const menu *m);
bool menu_select(menu *m, int row);
/* The row's value as shown ("on", "192", "smooth"); "" for an action. */
void menu_value(const menu *m, int row, char *out, size_t len);
/* A setting `steps` presses further (negative: back): numbers by their
 * step within the cvar's range, bools toggle, lists cycle. False (with the
 * reason logged) when it cannot change; actions do not adjust. */
bool menu_adjust(menu *m, int row, int steps);
/* Enter on a row: an action runs its command, a bool or list setting steps
 * once; a number does nothing (left/right change it). */
bool menu_activate(menu *m, int row);

/* A key press or repeat (GLFW codes) while open: up/down choose, left/right
 * change, Enter activates, Esc closes. True when used. */
bool menu_key(menu *m, int key, int action);

/* Where everything is on a framebuffer of fb_w x fb_h for a text cell of
 * cw x lh pixels: the panel, and per row its box and the boxes of the
 * "less" and "more" arrows (w 0 on actions). */
typedef struct menu_box {
    float x, y, w, h;
} menu_box;
typedef struct menu_layout {
    menu_box panel;
    int rows;
    menu_box row[MENU_MAX_ROWS], less[MENU_MAX_ROWS], more[MENU_MAX_ROWS];
    float row_h, value_x; /* the value column's left edge */
} menu_layout;
menu_layout menu_layout_for(const menu *m, int cw, int lh, int fb_w, int fb_h);
/* A click at x, y (framebuffer pixels, top-left origin): on an arrow it
 * adjusts, elsewhere on a row it selects and activates (a number row is
 * only selected). True when it hit a row. */
bool menu_click(menu *m, const menu_layout *L, float x, float y);

/* Dims the game and draws the panel (between text_begin and text_end). */
void menu_draw(text_ctx *t, const menu *m, int fb_w, int fb_h);

#endif
