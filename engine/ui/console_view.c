#include "ui/console_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/cvar.h"
#include "core/utf8.h"

#define NOTIFY_LINES 4
#define NOTIFY_SECONDS 4.0

void console_view_register_cvars(void)
{
    static const cvar_desc vars[] = {
        { .name = "console.height", .help = "fraction of the screen the console covers", .type = CVAR_FLOAT,
          .flags = CVAR_ARCHIVE, .def = "0.5", .min = 0.1, .max = 1.0 },
        { .name = "console.opacity", .help = "opacity of the console background", .type = CVAR_FLOAT,
          .flags = CVAR_ARCHIVE, .def = "0.85", .min = 0.0, .max = 1.0 },
        { .name = "developer", .help = "1: developer notices (paths chosen, their costs) show in the console too, "
                                       "not only in the log (stderr)", .type = CVAR_BOOL, .flags = CVAR_ARCHIVE,
          .def = "0" },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
}

uint32_t console_view_color(console_color color)
{
    switch (color) {
    case CONSOLE_WARN: return TEXT_RGBA(255, 210, 90, 255);
    case CONSOLE_ERROR: return TEXT_RGBA(255, 105, 100, 255);
    case CONSOLE_OUTPUT: return TEXT_RGBA(235, 235, 235, 255);
    case CONSOLE_ECHO: return TEXT_RGBA(130, 200, 255, 255);
    case CONSOLE_DEV: return TEXT_RGBA(150, 200, 170, 255);
    case CONSOLE_INFO:
    default: return TEXT_RGBA(175, 180, 190, 255);
    }
}

/* Byte offset after `cols` codepoints of s (or its end). */
static size_t skip_cols(const char *s, size_t len, size_t from, int cols)
{
    size_t i = from;
    for (int k = 0; k < cols && i < len; k++) i = utf8_next(s, len, i);
    return i;
}

/* Draws one logical line wrapped to cols, bottom row at *y, moving *y up;
 * rows above `top` are skipped. */
static void draw_wrapped(text_ctx *t, const char *s, int cols, float x, float *y, float top, int line_h, uint32_t col)
{
    size_t len = strlen(s);
    int ncp = (int)utf8_length(s, len);
    int rows = ncp == 0 ? 1 : (ncp + cols - 1) / cols;
    float row_y = *y - (float)(rows - 1) * (float)line_h;
    size_t at = 0;
    for (int r = 0; r < rows; r++, row_y += (float)line_h) {
        size_t end = skip_cols(s, len, at, cols);
        if (row_y >= top) text_draw_n(t, x, row_y, s + at, end - at, col);
        at = end;
    }
    *y -= (float)rows * (float)line_h;
}

int console_view_message_rows(console *c)
{
    if (console_fraction(c) > 0) return 0; /* the open console shows them itself */
    double now = console_time(c);
    console_lock(c);
    int n = 0;
    while (n < NOTIFY_LINES) {
        double when;
        if (!console_line(c, n, NULL, &when) || now - when > NOTIFY_SECONDS) break;
        n++;
    }
    console_unlock(c);
    return n;
}

static void draw_notify(text_ctx *t, console *c, float x, float y0, float width)
{
    int cw = text_char_width(t), lh = text_line_height(t);
    int cols = (int)(width / (float)cw);
    if (cols < 8) return;
    double now = console_time(c);
    int n = console_view_message_rows(c);
    console_lock(c);
    float y = y0 + (float)((n - 1) * lh);
    for (int i = 0; i < n; i++) {
        console_color color;
        double when;
        const char *s = console_line(c, i, &color, &when);
        float fade = (float)((NOTIFY_SECONDS - (now - when)) / 0.5);
        uint32_t rgba = console_view_color(color);
        uint32_t alpha = (uint32_t)(255.f * (fade < 1 ? fade : 1));
        float yy = y;
        /* a one-pixel shadow keeps it readable over bright terrain */
        size_t len = strlen(s), end = skip_cols(s, len, 0, cols);
        text_draw_n(t, x + 1, yy + 1, s, end, alpha * 3 / 4);
        text_draw_n(t, x, yy, s, end, (rgba & 0xFFFFFF00u) | alpha);
        y -= (float)lh;
    }
    console_unlock(c);
}

float console_view_bottom(console *c, int fb_h)
{
    float frac = console_fraction(c);
    if (frac <= 0) return 0;
    float height = floorf((float)fb_h * cvar_float("console.height", 0.5f));
    return floorf(height * (frac - 1)) + height; /* as console_view_draw places it */
}

void console_view_draw(text_ctx *t, console *c, int fb_w, int fb_h)
{
    int cw = text_char_width(t);
    console_view_draw_at(t, c, fb_w, fb_h, (float)cw, (float)(cw / 2), (float)(fb_w - 2 * cw));
}

void console_view_draw_at(text_ctx *t, console *c, int fb_w, int fb_h, float msg_x, float msg_y, float msg_w)
{
    float frac = console_fraction(c);
    if (frac <= 0) {
        draw_notify(t, c, msg_x, msg_y, msg_w);
        return;
    }
    int cw = text_char_width(t), lh = text_line_height(t);
    float height = floorf((float)fb_h * cvar_float("console.height", 0.5f));
    float top = floorf(height * (frac - 1));
    float opacity = cvar_float("console.opacity", 0.85f);
    text_rect(t, 0, top, (float)fb_w, height, TEXT_RGBA(14, 18, 26, (uint32_t)(255.f * opacity)));
    text_rect(t, 0, top + height - 2, (float)fb_w, 2, TEXT_RGBA(90, 150, 220, 255));

    float margin = (float)cw;
    int cols = (int)(((float)fb_w - 2 * margin) / (float)cw);
    if (cols < 4) return;

    /* input line: "] text", scrolled horizontally to keep the cursor in view */
    float input_y = top + height - 2 - (float)lh - (float)(lh / 4);
    const char *in = console_input(c);
    size_t len = strlen(in), cur = console_cursor(c);
    int cur_col = (int)utf8_length(in, cur);
    int room = cols - 2, first = cur_col >= room ? cur_col - room + 1 : 0;
    size_t from = skip_cols(in, len, 0, first);
    size_t to = skip_cols(in, len, from, room);
    uint32_t echo = console_view_color(CONSOLE_ECHO);
    text_draw(t, margin, input_y, "]", echo);
    text_draw_n(t, margin + 2.f * (float)cw, input_y, in + from, to - from, TEXT_RGBA(255, 255, 255, 255));
    if (fmod(console_time(c), 1.0) < 0.6) {
        float cx = margin + (float)(2 + cur_col - first) * (float)cw;
        text_rect(t, cx, input_y + 1, (float)(cw > 8 ? 2 : 1), (float)lh - 2, TEXT_RGBA(255, 255, 255, 220));
    }

    /* scrollback, newest at the bottom */
    float y = input_y - (float)lh - (float)(lh / 4);
    console_lock(c);
    int scroll = console_scroll_offset(c);
    if (scroll > 0) { /* Quake's marker: there is more below */
        char marks[512];
        int n = 0;
        for (int i = 0; i < cols && n + 4 < (int)sizeof marks; i += 4) n += snprintf(marks + n, sizeof marks - (size_t)n, "^   ");
        text_draw(t, margin, y, marks, console_view_color(CONSOLE_WARN));
        y -= (float)lh;
    }
    for (int i = scroll; y + (float)lh > top; i++) {
        console_color color;
        const char *s = console_line(c, i, &color, NULL);
        if (!s) break;
        draw_wrapped(t, s, cols, margin, &y, top, lh, console_view_color(color));
    }
    console_unlock(c);
}
