/* console_view: draws the console model with the text batch. The console
 * drops down from the top over the running game: translucent background,
 * scrollback wrapped to the width and coloured by level, the input line with
 * a blinking cursor. When closed, the last few lines fade out at the top. */
#ifndef STRATA_CONSOLE_VIEW_H
#define STRATA_CONSOLE_VIEW_H

#include "gfx/text.h"
#include "ui/console.h"

/* Registers console.height, console.opacity and developer (archived). Call once. */
void console_view_register_cvars(void);
/* Queues the console into t's batch (between text_begin and text_end).
 * Closed, the recent messages are drawn at the top-left. */
void console_view_draw(text_ctx *t, console *c, int fb_w, int fb_h);
/* The same, with the recent messages in the box the HUD layout gave them
 * (top-left x, y and width; console_view_message_rows lines tall). */
void console_view_draw_at(text_ctx *t, console *c, int fb_w, int fb_h, float msg_x, float msg_y, float msg_w);
/* The bottom edge of the open console in pixels (0 when closed): the HUD
 * lays its panels out below it. */
float console_view_bottom(console *c, int fb_h);
/* How many recent-message lines a closed console shows now (0 when open). */
int console_view_message_rows(console *c);
/* The colour of a line level, shared with the HUD. */
uint32_t console_view_color(console_color color);

#endif
