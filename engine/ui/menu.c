#include "ui/menu.h"

#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

struct menu {
    const char *title;
    const menu_item *items;
    int count;
    bool open;
    int selected; /* a row, 0 .. menu_rows - 1 */
    void (*sound)(void *user, const char *what);
    void *sound_user;
};

menu *menu_create(const char *title, const menu_item *items, int count, void (*sound)(void *user, const char *what),
                  void *sound_user)
{
    menu *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->title = title ? title : "";
    m->items = items;
    m->count = count < 0 ? 0 : count > MENU_MAX_ROWS ? MENU_MAX_ROWS : count;
    m->sound = sound;
    m->sound_user = sound_user;
    return m;
}

void menu_destroy(menu *m) { free(m); }

static void play(const menu *m, const char *what)
{
    if (m->sound) m->sound(m->sound_user, what);
}

bool menu_is_open(const menu *m) { return m->open; }

void menu_set_open(menu *m, bool open)
{
    if (open && !m->open) m->selected = 0;
    m->open = open;
}

static bool shown(const menu_item *it) { return !it->cvar || cvar_find(it->cvar); }

int menu_rows(const menu *m)
{
    int n = 0;
    for (int i = 0; i < m->count; i++) n += shown(&m->items[i]);
    return n;
}

const menu_item *menu_row(const menu *m, int row)
{
    for (int i = 0; i < m->count && row >= 0; i++)
        if (shown(&m->items[i]) && row-- == 0) return &m->items[i];
    return NULL;
}

int menu_selected(const menu *m)
{
    int n = menu_rows(m);
    return m->selected < n ? m->selected : n - 1; /* a cvar that went away shortens the list */
}

bool menu_select(menu *m, int row)
{
    if (row < 0 || row >= menu_rows(m)) return false;
    m->selected = row;
    return true;
}

void menu_value(const menu *m, int row, char *out, size_t len)
{
    const menu_item *it = menu_row(m, row);
    cvar *c = it && it->cvar ? cvar_find(it->cvar) : NULL;
    if (!c) snprintf(out, len, "%s", "");
    else if (c->d.type == CVAR_BOOL) snprintf(out, len, "%s", c->b ? "on" : "off");
    else snprintf(out, len, "%s", c->str);
}

/* The value `steps` presses from the cvar's, as text the cvar parses. */
static bool next_value(const cvar *c, const menu_item *it, int steps, char *out, size_t len)
{
    switch (c->d.type) {
    case CVAR_BOOL:
        snprintf(out, len, "%d", (steps % 2 != 0) != c->b);
        return true;
    case CVAR_ENUM: {
        int n = 0;
        while (c->d.values && c->d.values[n]) n++;
        if (n == 0) return false;
        int i = ((c->i + steps) % n + n) % n;
        snprintf(out, len, "%s", c->d.values[i]);
        return true;
    }
    case CVAR_INT:
    case CVAR_FLOAT: {
        bool ranged = c->d.min < c->d.max;
        double step = it->step > 0 ? it->step : ranged ? (c->d.max - c->d.min) / 20.0 : 1.0;
        double now = c->d.type == CVAR_INT ? (double)c->i : (double)c->f;
        /* on the step's grid, so 0.12 + 0.01 reads 0.13, not 0.129999 */
        double v = (round(now / step) + steps) * step;
        if (ranged) v = v < c->d.min ? c->d.min : v > c->d.max ? c->d.max : v;
        if (c->d.type == CVAR_INT) snprintf(out, len, "%ld", lround(v));
        else snprintf(out, len, "%.6g", v);
        return true;
    }
    case CVAR_STRING: {
        int n = 0, at = 0;
        for (const char *v; it->choice && (v = it->choice(n)); n++)
            if (strcmp(v, c->str) == 0) at = n;
        if (n == 0) return false; /* free text is typed in the console */
        snprintf(out, len, "%s", it->choice(((at + steps) % n + n) % n));
        return true;
    }
    default:
        return false; /* vectors are typed in the console */
    }
}

bool menu_adjust(menu *m, int row, int steps)
{
    const menu_item *it = menu_row(m, row);
    if (!it) {
        log_error("menu: no row %d (there are %d)", row + 1, menu_rows(m));
        return false;
    }
    cvar *c = it->cvar ? cvar_find(it->cvar) : NULL;
    if (!c) {
        log_error("menu: '%s' is an action, not a setting", it->label);
        return false;
    }
    char value[256];
    if (steps == 0 || !next_value(c, it, steps, value, sizeof value)) return false;
    if (strcmp(value, c->str) == 0) return false; /* at the end of its range */
    bool ok;
    if (it->command) {
        char line[512], quoted[300];
        ok = cmd_quote(value, quoted, sizeof quoted);
        if (ok) {
            snprintf(line, sizeof line, "%s %s", it->command, quoted);
            ok = cmd_exec(line) == 0;
        }
    } else {
        ok = cvar_set_by_name(c->d.name, value);
    }
    if (ok) play(m, "change");
    return ok;
}

bool menu_activate(menu *m, int row)
{
    const menu_item *it = menu_row(m, row);
    if (!it) {
        log_error("menu: no row %d (there are %d)", row + 1, menu_rows(m));
        return false;
    }
    if (!it->cvar) {
        play(m, "select");
        return it->command && cmd_exec(it->command) == 0;
    }
    cvar *c = cvar_find(it->cvar);
    if (c && (c->d.type == CVAR_BOOL || c->d.type == CVAR_ENUM || it->choice)) return menu_adjust(m, row, 1);
    return false;
}

bool menu_key(menu *m, int key, int action)
{
    if (!m->open || action == GLFW_RELEASE) return false;
    int n = menu_rows(m), sel = menu_selected(m);
    switch (key) {
    case GLFW_KEY_UP:
    case GLFW_KEY_DOWN:
        if (n > 0) {
            m->selected = ((sel + (key == GLFW_KEY_UP ? -1 : 1)) % n + n) % n;
            play(m, "move");
        }
        return true;
    case GLFW_KEY_LEFT:
    case GLFW_KEY_RIGHT:
        menu_adjust(m, sel, key == GLFW_KEY_LEFT ? -1 : 1);
        return true;
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
    case GLFW_KEY_SPACE:
        if (action == GLFW_PRESS) menu_activate(m, sel);
        return true;
    case GLFW_KEY_ESCAPE:
        if (action == GLFW_PRESS) {
            m->open = false;
            play(m, "select");
        }
        return true;
    default:
        return true; /* the game behind the menu hears nothing */
    }
}

/* ---- layout and drawing -------------------------------------------------- */

#define VALUE_COLS 14 /* "< value >" column, characters */

menu_layout menu_layout_for(const menu *m, int cw, int lh, int fb_w, int fb_h)
{
    menu_layout L = { 0 };
    int n = menu_rows(m), label_cols = (int)strlen(m->title);
    for (int r = 0; r < n; r++) {
        int k = (int)strlen(menu_row(m, r)->label);
        if (k > label_cols) label_cols = k;
    }
    /* rows a little taller than a line when the window has room for it */
    float need = (float)(n + 5) * (float)lh;
    L.row_h = need * 1.3f <= (float)fb_h ? roundf((float)lh * 1.3f) : (float)lh;
    float w = (float)((label_cols + VALUE_COLS + 5) * cw);
    float h = (float)n * L.row_h + 4.f * (float)lh;
    if (w > (float)fb_w) w = (float)fb_w;
    L.panel = (menu_box){ floorf(((float)fb_w - w) / 2), floorf(((float)fb_h - h) / 2), w, h };
    if (L.panel.y < 0) L.panel.y = 0;
    L.rows = n;
    L.value_x = L.panel.x + w - (float)((VALUE_COLS + 1) * cw);
    float y = L.panel.y + 2.f * (float)lh;
    for (int r = 0; r < n; r++, y += L.row_h) {
        L.row[r] = (menu_box){ L.panel.x + (float)cw / 2, y, w - (float)cw, L.row_h };
        if (menu_row(m, r)->cvar) {
            L.less[r] = (menu_box){ L.value_x - (float)cw / 2, y, 2.f * (float)cw, L.row_h };
            L.more[r] = (menu_box){ L.value_x + (float)((VALUE_COLS - 2) * cw) - (float)cw / 2, y, 2.f * (float)cw,
                                    L.row_h };
        }
    }
    return L;
}

static bool inside(menu_box b, float x, float y) { return b.w > 0 && x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h; }

bool menu_click(menu *m, const menu_layout *L, float x, float y)
{
    for (int r = 0; r < L->rows && r < menu_rows(m); r++) {
        if (!inside(L->row[r], x, y)) continue;
        m->selected = r;
        if (inside(L->less[r], x, y)) menu_adjust(m, r, -1);
        else if (inside(L->more[r], x, y)) menu_adjust(m, r, 1);
        else menu_activate(m, r);
        return true;
    }
    return false;
}

#define DIM TEXT_RGBA(0, 0, 0, 140)
#define PANEL TEXT_RGBA(14, 18, 26, 235)
#define EDGE TEXT_RGBA(90, 150, 220, 255)
#define CHOSEN TEXT_RGBA(60, 100, 160, 255)
#define LABEL TEXT_RGBA(225, 228, 235, 255)
#define DIMTEXT TEXT_RGBA(150, 160, 175, 255)
#define TITLE TEXT_RGBA(255, 255, 255, 255)

void menu_draw(text_ctx *t, const menu *m, int fb_w, int fb_h)
{
    if (!m->open) return;
    int cw = text_char_width(t), lh = text_line_height(t);
    menu_layout L = menu_layout_for(m, cw, lh, fb_w, fb_h);
    text_rect(t, 0, 0, (float)fb_w, (float)fb_h, DIM);
    menu_box p = L.panel;
    text_rect(t, p.x, p.y, p.w, p.h, PANEL);
    text_rect(t, p.x, p.y, p.w, 2, EDGE);
    float tx = p.x + floorf((p.w - (float)((int)strlen(m->title) * cw)) / 2);
    text_draw(t, tx, p.y + (float)lh / 2, m->title, TITLE);
    int sel = menu_selected(m);
    float pad = floorf((L.row_h - (float)lh) / 2);
    for (int r = 0; r < L.rows; r++) {
        const menu_item *it = menu_row(m, r);
        menu_box b = L.row[r];
        if (r == sel) {
            text_rect(t, b.x, b.y, b.w, b.h, CHOSEN);
            text_rect(t, b.x, b.y, 3, b.h, EDGE);
        }
        float y = b.y + pad;
        text_draw(t, b.x + (float)cw, y, it->label, LABEL);
        if (!it->cvar) continue;
        char v[64];
        menu_value(m, r, v, sizeof v);
        int vcols = (int)strlen(v);
        if (vcols > VALUE_COLS - 4) vcols = VALUE_COLS - 4;
        float vx = L.value_x + (float)cw * (2.f + (float)(VALUE_COLS - 4 - vcols) / 2.f);
        text_draw(t, L.value_x, y, "<", r == sel ? TITLE : DIMTEXT);
        text_draw_n(t, floorf(vx), y, v, (size_t)vcols, TITLE);
        text_draw(t, L.value_x + (float)((VALUE_COLS - 2) * cw), y, ">", r == sel ? TITLE : DIMTEXT);
    }
    /* the arrows are one column each (U+2190..2193) */
    const char *hint = "\u2191\u2193 choose  \u2190\u2192 change  Esc resume";
    int hcols = 32, room = (int)(p.w / (float)cw) - 1;
    if (hcols > room) hint = "Enter  Esc", hcols = 10;
    text_draw(t, p.x + floorf((p.w - (float)(hcols * cw)) / 2), p.y + p.h - 1.5f * (float)lh, hint, DIMTEXT);
}
