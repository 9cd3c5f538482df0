#include "app_menu.h"
#include "app_sound.h"

#include <GLFW/glfw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gfx/render_mode.h"
#include "platform/platform.h"
#include "ui/cmd.h"
#include "ui/menu.h"

typedef struct menu_comp {
    app *a;
    menu *m;
} menu_comp;

static menu_comp *state(const app *a) { return component_state(&a->comps, app_menu_component.name); }

static const char *render_choice(int i) { return i < render_mode_count() ? render_mode_at(i)->name : NULL; }

/* Every row a setting is a cvar (archived, so it persists); rows whose cvar
 * is not registered (no sound subsystem, say) are not shown. */
static const menu_item k_rows[] = {
    { "Resume", NULL, "menu close", 0, NULL },
    { "View distance", "view.distance", NULL, 32, NULL },
    { "Brightness", "view.brightness", NULL, 0.1, NULL },
    { "Field of view", "view.fov", NULL, 5, NULL },
    { "Mouse sensitivity", "input.sensitivity", NULL, 0.01, NULL },
    { "Render mode", "render.mode", NULL, 0, render_choice },
    { "Volume", "sound.volume", NULL, 0.1, NULL },
    { "Fullscreen", "view.fullscreen", NULL, 0, NULL },
    { "Biome", "world.biome", "biome", 0, NULL },
    { "New world", NULL, "newseed", 0, NULL },
    { "Save", NULL, "save", 0, NULL },
    { "Quit", NULL, "quit", 0, NULL },
};

/* The menu's clicks through the sound component: a move or a change
 * clicks, an action or closing selects. */
static void app_menu_click_sound(void *user, const char *what)
{
    menu_comp *s = user;
    app_sound_ui(s->a, strcmp(what, "select") == 0 ? "select" : "click");
}

static void on_fullscreen(cvar *c, void *user)
{
    app *a = user;
    if (a->plat) platform_set_fullscreen(a->plat, c->b);
}

static bool parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static void print_rows(menu *m)
{
    log_out("menu_open=%d", menu_is_open(m));
    log_out("menu_selected=%d", menu_selected(m) + 1);
    for (int r = 0; r < menu_rows(m); r++) {
        char v[128];
        menu_value(m, r, v, sizeof v);
        const menu_item *it = menu_row(m, r);
        log_out("menu.%d=%s%s%s", r + 1, it->label, *v ? ": " : "", v);
    }
}

static bool print_layout(app *a, menu *m)
{
    if (!a->text) {
        log_error("menu layout: no text here (headless runs draw no menu)");
        return false;
    }
    int w, h;
    platform_size(a->plat, &w, &h);
    text_begin(a->text, w, h); /* the font size of this framebuffer */
    menu_layout L = menu_layout_for(m, text_char_width(a->text), text_line_height(a->text), w, h);
    for (int r = 0; r < L.rows; r++) {
        log_out("menu.row.%d=%.0f %.0f %.0f %.0f", r + 1, (double)L.row[r].x, (double)L.row[r].y, (double)L.row[r].w,
                (double)L.row[r].h);
        if (L.more[r].w > 0)
            log_out("menu.more.%d=%.0f %.0f %.0f %.0f", r + 1, (double)L.more[r].x, (double)L.more[r].y,
                    (double)L.more[r].w, (double)L.more[r].h);
    }
    return true;
}

static int c_menu(void *u, int argc, char **argv)
{
    menu_comp *s = u;
    menu *m = s->m;
    const char *verb = argc > 1 ? argv[1] : "toggle";
    long n = 0;
    if (argc <= 2 && (!strcmp(verb, "toggle") || !strcmp(verb, "open") || !strcmp(verb, "close"))) {
        menu_set_open(m, !strcmp(verb, "open") || (!strcmp(verb, "toggle") && !menu_is_open(m)));
        return 0;
    }
    if (argc == 2 && !strcmp(verb, "list")) {
        print_rows(m);
        return 0;
    }
    if (argc == 2 && !strcmp(verb, "layout")) return print_layout(s->a, m) ? 0 : 1;
    bool known = !strcmp(verb, "select") || !strcmp(verb, "adjust") || !strcmp(verb, "activate");
    if (known && !menu_is_open(m)) {
        log_error("menu %s: the menu is closed ('menu open' first)", verb);
        return 1;
    }
    if (argc == 3 && !strcmp(verb, "select")) {
        if (!parse_int(argv[2], 1, menu_rows(m), &n)) {
            log_error("menu select: '%s' is not a row (1 to %d; 'menu list' shows them)", argv[2], menu_rows(m));
            return 1;
        }
        menu_select(m, (int)n - 1);
        return 0;
    }
    if (argc == 3 && !strcmp(verb, "adjust")) {
        if (!parse_int(argv[2], -1000, 1000, &n) || n == 0) {
            log_error("menu adjust: '%s' is not a number of steps (-1000 to 1000, not 0)", argv[2]);
            return 1;
        }
        return menu_adjust(m, menu_selected(m), (int)n) ? 0 : 1;
    }
    if (argc == 2 && !strcmp(verb, "activate")) return menu_activate(m, menu_selected(m)) ? 0 : 1;
    log_error("usage: menu [open|close|toggle|list|layout|select N|adjust STEPS|activate]");
    return 1;
}

static void *menu_init(app *a)
{
    menu_comp *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->a = a;
    s->m = menu_create("Paused", k_rows, (int)(sizeof k_rows / sizeof k_rows[0]), app_menu_click_sound, s);
    if (!s->m) {
        free(s);
        return NULL;
    }
    const cvar_desc fs = { "view.fullscreen", "fill the screen with the game (the menu's Fullscreen)", CVAR_BOOL,
                           CVAR_ARCHIVE, "0", 0, 0, NULL, on_fullscreen, a };
    cvar_register(&fs);
    const cmd_desc cmd = { "menu", "[open|close|list|layout|select N|adjust STEPS|activate]",
                           "the pause menu (Esc): with no argument opens or closes it; the rest act on its rows "
                           "as the keys do",
                           c_menu, s };
    cmd_register(&cmd);
    return s;
}

static void menu_shutdown(void *self, app *a)
{
    menu_comp *s = self;
    if (!s) return;
    const cmd_desc *d = cmd_find("menu");
    if (d && d->user == s) cmd_unregister("menu");
    menu_destroy(s->m);
    free(s);
}

const component app_menu_component = {
    .name = "menu",
    .init = menu_init,
    .shutdown = menu_shutdown,
};

bool app_menu_open(const app *a)
{
    menu_comp *s = state(a);
    return s && menu_is_open(s->m);
}

bool app_menu_key(app *a, int key, int action)
{
    menu_comp *s = state(a);
    return s && menu_key(s->m, key, action);
}

bool app_menu_click(app *a)
{
    menu_comp *s = state(a);
    double x, y;
    if (!s || !menu_is_open(s->m) || !a->text || !platform_cursor_pos(a->plat, &x, &y)) return false;
    int w, h;
    platform_size(a->plat, &w, &h);
    menu_layout L = menu_layout_for(s->m, text_char_width(a->text), text_line_height(a->text), w, h);
    menu_click(s->m, &L, (float)x, (float)y);
    return true; /* a click beside the panel does nothing, but it is the menu's */
}

void app_menu_draw(app *a, text_ctx *t, int fb_w, int fb_h)
{
    menu_comp *s = state(a);
    if (s) menu_draw(t, s->m, fb_w, fb_h);
}
