/* The console model driven by key events: line editing, history (and its
 * file), completion, paste, the log sink, and a headless render showing
 * that text lands where the console is. */
#include "test_support.h"

#include <GLFW/glfw3.h>
#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/screenshot.h"
#include "gfx/text.h"
#include "platform/platform.h"
#include "ui/bind.h"
#include "ui/cmd.h"
#include "ui/hud.h"
#include "ui/console.h"
#include "ui/console_view.h"
#include "ui/cvar.h"

static const char *g_clip;
static const char *clipboard(void *user) { return g_clip; }

static int setup(void **state)
{
    cmd_register_builtins();
    static const char *const modes[] = { "blocks", "smooth", "enhanced", NULL };
    cvar_register(&(cvar_desc){ .name = "render.mode", .type = CVAR_ENUM, .def = "blocks", .values = modes });
    cvar_register(&(cvar_desc){ .name = "view.fov", .type = CVAR_FLOAT, .def = "70", .min = 30, .max = 120 });
    cvar_register(&(cvar_desc){ .name = "view.distance", .type = CVAR_INT, .def = "8", .min = 2, .max = 32 });
    console *c = console_create(&(console_desc){ .max_history = 5, .clipboard = clipboard });
    assert_non_null(c);
    console_attach_log(c);
    console_set_open(c, true);
    *state = c;
    return 0;
}

static int teardown(void **state)
{
    console_destroy(*state);
    cmd_shutdown();
    cvar_shutdown();
    return 0;
}

static void type(console *c, const char *s)
{
    for (; *s; s++) console_char(c, (unsigned char)*s);
}

static void key(console *c, int k, int mods) { console_key(c, k, mods); }

/* True if any scrollback line contains s (with the given colour when >= 0). */
static bool shows(console *c, const char *s, int color)
{
    for (int i = 0; i < console_line_count(c); i++) {
        console_color col;
        const char *l = console_line(c, i, &col, NULL);
        if (strstr(l, s) && (color < 0 || (int)col == color)) return true;
    }
    return false;
}

static void test_editing(void **state)
{
    console *c = *state;
    type(c, "set view.fov 90");
    key(c, GLFW_KEY_HOME, 0);
    key(c, GLFW_KEY_DELETE, 0);
    assert_string_equal(console_input(c), "et view.fov 90");
    console_char(c, 's');
    key(c, GLFW_KEY_END, 0);
    key(c, GLFW_KEY_LEFT, GLFW_MOD_CONTROL); /* before "90" */
    assert_int_equal(console_cursor(c), 13);
    key(c, GLFW_KEY_LEFT, GLFW_MOD_CONTROL); /* before "view.fov" */
    assert_int_equal(console_cursor(c), 4);
    key(c, GLFW_KEY_RIGHT, GLFW_MOD_CONTROL);
    assert_int_equal(console_cursor(c), 12);
    key(c, GLFW_KEY_BACKSPACE, GLFW_MOD_CONTROL); /* deletes "view.fov" */
    assert_string_equal(console_input(c), "set  90");
    type(c, "view.distance");
    key(c, GLFW_KEY_END, 0);
    key(c, GLFW_KEY_W, GLFW_MOD_CONTROL);
    assert_string_equal(console_input(c), "set view.distance ");
    type(c, "9");
    key(c, GLFW_KEY_ENTER, 0);
    assert_string_equal(console_input(c), "");
    assert_int_equal(cvar_find("view.distance")->i, 9);
    assert_true(shows(c, "] set view.distance 9", CONSOLE_ECHO));
}

static void test_utf8_cursor(void **state)
{
    console *c = *state;
    console_char(c, 'a');
    console_char(c, 0xE9);   /* é: 2 bytes */
    console_char(c, 0x1F600); /* 4 bytes */
    console_char(c, 0x07);   /* control: ignored */
    assert_string_equal(console_input(c), "a\xC3\xA9\xF0\x9F\x98\x80");
    key(c, GLFW_KEY_LEFT, 0);
    assert_int_equal(console_cursor(c), 3);
    key(c, GLFW_KEY_BACKSPACE, 0);
    assert_string_equal(console_input(c), "a\xF0\x9F\x98\x80");
    assert_int_equal(console_cursor(c), 1);
}

static void test_history_navigation(void **state)
{
    console *c = *state;
    const char *lines[] = { "echo 1", "echo 2", "echo 2", "echo 3" };
    for (int i = 0; i < 4; i++) {
        type(c, lines[i]);
        key(c, GLFW_KEY_ENTER, 0);
    }
    assert_int_equal(console_history_count(c), 3); /* consecutive duplicate dropped */
    type(c, "draft");
    key(c, GLFW_KEY_UP, 0);
    assert_string_equal(console_input(c), "echo 3");
    key(c, GLFW_KEY_UP, 0);
    key(c, GLFW_KEY_UP, 0);
    key(c, GLFW_KEY_UP, 0); /* past the oldest: stays */
    assert_string_equal(console_input(c), "echo 1");
    key(c, GLFW_KEY_DOWN, 0);
    key(c, GLFW_KEY_DOWN, 0);
    key(c, GLFW_KEY_DOWN, 0);
    assert_string_equal(console_input(c), "draft"); /* the unfinished line comes back */
    for (int i = 0; i < 10; i++) {
        char l[32];
        snprintf(l, sizeof l, "echo x%d", i);
        console_set_input(c, l);
        console_submit(c);
    }
    assert_int_equal(console_history_count(c), 5); /* capped, oldest dropped */
    assert_string_equal(console_history_at(c, 0), "echo x5");
}

static void test_history_file_round_trip(void **state)
{
    console *c = *state;
    console_set_input(c, "set view.fov 80");
    console_submit(c);
    console_set_input(c, "echo \"ünïcode\"");
    console_submit(c);
    const char *path = test_binary_path("test_console_history");
    assert_true(console_history_save(c, path));
    /* add hostile lines: garbage bytes and control characters are skipped */
    FILE *f = fopen(path, "ab");
    assert_non_null(f);
    fputs("bad\x01line\n\xff\xfe\n\n", f);
    fputs("echo last\r\n", f);
    fclose(f);

    console *d = console_create(NULL);
    assert_true(console_history_load(d, path));
    assert_int_equal(console_history_count(d), 3);
    assert_string_equal(console_history_at(d, 0), "set view.fov 80");
    assert_string_equal(console_history_at(d, 1), "echo \"ünïcode\"");
    assert_string_equal(console_history_at(d, 2), "echo last");
    assert_true(console_history_load(d, test_binary_path("no_such_history"))); /* first run */
    console_destroy(d);
    remove(path);
}

static void test_complete_unique_ambiguous_values(void **state)
{
    console *c = *state;
    type(c, "cvarl");
    key(c, GLFW_KEY_TAB, 0);
    assert_string_equal(console_input(c), "cvarlist ");

    console_set_input(c, "set view.");
    key(c, GLFW_KEY_TAB, 0);
    assert_string_equal(console_input(c), "set view."); /* no longer prefix: list them */
    assert_true(shows(c, "view.distance", CONSOLE_INFO));
    assert_true(shows(c, "view.fov", CONSOLE_INFO));
    type(c, "f");
    key(c, GLFW_KEY_TAB, 0);
    assert_string_equal(console_input(c), "set view.fov ");

    console_set_input(c, "set render.mode ");
    key(c, GLFW_KEY_TAB, 0);
    assert_true(shows(c, "enhanced", CONSOLE_INFO));
    type(c, "sm");
    key(c, GLFW_KEY_TAB, 0);
    assert_string_equal(console_input(c), "set render.mode smooth ");

    console_set_input(c, "cv");
    key(c, GLFW_KEY_TAB, 0);
    assert_string_equal(console_input(c), "cvarlist "); /* "cvarlist" is the only cv... */

    /* completing in the middle keeps what follows */
    console_set_input(c, "get vi; echo");
    key(c, GLFW_KEY_HOME, 0);
    for (int i = 0; i < 6; i++) key(c, GLFW_KEY_RIGHT, 0);
    key(c, GLFW_KEY_TAB, 0);
    assert_string_equal(console_input(c), "get view.; echo");
}

static void test_paste(void **state)
{
    console *c = *state;
    g_clip = "echo a\r\necho\tb\n\x01\xff";
    key(c, GLFW_KEY_V, GLFW_MOD_CONTROL);
    assert_string_equal(console_input(c), "echo a; echo b");
    char big[5000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    console_paste(c, big);
    assert_int_equal(strlen(console_input(c)), CONSOLE_MAX_INPUT - 1); /* capped, not overflowed */
    console_char(c, 'y');
    assert_int_equal(strlen(console_input(c)), CONSOLE_MAX_INPUT - 1);
    console_submit(c); /* an over-long command is refused with an error */
    assert_true(shows(c, "] echo a; echo bxxx", CONSOLE_ECHO));
    g_clip = NULL;
    key(c, GLFW_KEY_INSERT, GLFW_MOD_SHIFT); /* an empty clipboard is fine */
}

static void test_errors_coloured_and_did_you_mean(void **state)
{
    console *c = *state;
    console_set_input(c, "sett view.fov 90");
    console_submit(c);
    assert_true(shows(c, "unknown command 'sett' — did you mean 'set'?", CONSOLE_ERROR));
    console_set_input(c, "set view.fov 500");
    console_submit(c);
    assert_true(shows(c, "expected float in [30, 120]", CONSOLE_ERROR));
    assert_int_equal((int)cvar_find("view.fov")->f, 70);
    console_set_input(c, "get view.fov");
    console_submit(c);
    assert_true(shows(c, "view.fov=70", CONSOLE_OUTPUT));
    console_set_input(c, "exec /no/such/file.cfg");
    console_submit(c);
    assert_true(shows(c, "No such file", CONSOLE_ERROR));
    console_set_input(c, "echo \"open");
    console_submit(c);
    assert_true(shows(c, "unbalanced quote", CONSOLE_ERROR));
    console_set_input(c, "clear");
    console_submit(c);
    assert_int_equal(console_line_count(c), 0);
}

static void test_toggle_scroll_and_lines(void **state)
{
    console *c = *state;
    console_set_open(c, false);
    assert_false(console_key(c, GLFW_KEY_W, 0)); /* closed: the game gets keys */
    assert_false(console_char(c, 'w'));
    assert_true(console_key(c, GLFW_KEY_GRAVE_ACCENT, 0));
    assert_true(console_is_open(c));
    assert_true(console_char(c, '`')); /* the toggle's own character is not typed */
    assert_string_equal(console_input(c), "");
    /* Shift+grave is '~', text: the console stays open and types it */
    assert_true(console_key(c, GLFW_KEY_GRAVE_ACCENT, GLFW_MOD_SHIFT));
    assert_true(console_is_open(c));
    assert_true(console_char(c, '~'));
    assert_string_equal(console_input(c), "~");
    console_set_input(c, "");
    console_update(c, 0.05);
    assert_true(console_fraction(c) > 0 && console_fraction(c) < 1);
    console_update(c, 1.0);
    assert_true(console_fraction(c) == 1.f);

    console_print(c, CONSOLE_INFO, "one\ntwo\tthree\x02");
    assert_string_equal(console_line(c, 0, NULL, NULL), "two three?");
    assert_string_equal(console_line(c, 1, NULL, NULL), "one");
    for (int i = 0; i < 50; i++) console_print(c, CONSOLE_OUTPUT, "filler");
    key(c, GLFW_KEY_PAGE_UP, 0);
    assert_int_equal(console_scroll_offset(c), 10);
    console_print(c, CONSOLE_OUTPUT, "new"); /* reading old output: the view stays put */
    assert_int_equal(console_scroll_offset(c), 11);
    console_scroll(c, 100000);
    assert_int_equal(console_scroll_offset(c), console_line_count(c) - 1);
    console_scroll(c, -100000);
    assert_int_equal(console_scroll_offset(c), 0);
    key(c, GLFW_KEY_ESCAPE, 0);
    assert_false(console_is_open(c));
}

static void test_scrollback_ring_wraps(void **state)
{
    console *c = console_create(&(console_desc){ .max_lines = 8 });
    char l[32];
    for (int i = 0; i < 20; i++) {
        snprintf(l, sizeof l, "line %d", i);
        console_print(c, CONSOLE_INFO, l);
    }
    assert_int_equal(console_line_count(c), 8);
    assert_string_equal(console_line(c, 0, NULL, NULL), "line 19");
    assert_string_equal(console_line(c, 7, NULL, NULL), "line 12");
    assert_null(console_line(c, 8, NULL, NULL));
    console_destroy(c);
}

/* ---- headless render -------------------------------------------------------- */

#define RW 320
#define RH 200

static void test_render_shows_text(void **state)
{
    console *c = *state;
    char err[1024];
    platform *p = platform_create(&(platform_desc){ .width = RW, .height = RH, .headless = true }, err, sizeof err);
    if (!p) fail_msg("headless context: %s", err);
    text_ctx *t = text_create(&(text_desc){ .pixel_size = 12 }, err, sizeof err);
    if (!t) fail_msg("text: %s", err);
    console_view_register_cvars();
    for (int i = 0; i < 30; i++) console_print(c, i % 3 ? CONSOLE_OUTPUT : CONSOLE_ERROR, "The quick brown fox: 0123456789 — ok");
    console_set_input(c, "set view.fov 90");
    console_update(c, 1.0);

    unsigned fb = platform_framebuffer(p);
    uint8_t *frames[2];
    for (int k = 0; k < 2; k++) {
        glBindFramebuffer(GL_FRAMEBUFFER, fb);
        glViewport(0, 0, RW, RH);
        glClearColor(0.2f, 0.5f, 0.2f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        text_begin(t, RW, RH);
        if (k == 1) console_view_draw(t, c, RW, RH);
        text_end(t);
        assert_int_equal(glGetError(), GL_NO_ERROR);
        frames[k] = screenshot_read(fb, RW, RH);
        if (k == 1 && getenv("STRATA_TEST_DUMP")) /* for eyeballing: STRATA_TEST_DUMP=console.png */
            screenshot_write(getenv("STRATA_TEST_DUMP"), fb, RW, RH, err, sizeof err);
        assert_non_null(frames[k]);
    }
    /* the top half (the console) changed and holds many distinct shades
     * (text on a background); the bottom half is the untouched game */
    int changed_top = 0, changed_bottom = 0, bright = 0;
    for (int y = 0; y < RH; y++)
        for (int x = 0; x < RW; x++) {
            const uint8_t *a = frames[0] + 4 * (y * RW + x), *b = frames[1] + 4 * (y * RW + x);
            bool diff = memcmp(a, b, 3) != 0;
            if (y < RH / 2 - 2) changed_top += diff;
            else if (y > RH / 2 + 2) changed_bottom += diff;
            if (y < RH / 2 && b[0] > 200 && b[1] > 200 && b[2] > 200) bright++; /* white text */
        }
    assert_true(changed_top > (RW * (RH / 2 - 2)) * 9 / 10);
    assert_int_equal(changed_bottom, 0);
    if (bright < 300) fail_msg("only %d bright text pixels", bright);
    free(frames[0]);
    free(frames[1]);
    text_destroy(t);
    platform_destroy(p);
}

static void test_text_cpu_batch(void **state)
{
    char err[1024];
    text_ctx *t = text_create(&(text_desc){ .no_gl = true }, err, sizeof err);
    if (!t) fail_msg("text: %s", err);
    text_begin(t, 1920, 1080);
    assert_int_equal(text_pixel_size(t), 23); /* 1080 / 48 rounded */
    int cw = text_char_width(t);
    float end = text_draw(t, 10, 10, "ab c\xff", 0xFFFFFFFF);
    assert_true(end == 10.f + 5.f * (float)cw); /* malformed byte: one cell */
    assert_int_equal(text_quad_count(t), 4);  /* the space draws nothing */
    text_rect(t, 0, 0, 5, 5, 0xFF0000FF);
    assert_int_equal(text_quad_count(t), 5);
    text_begin(t, 640, 360); /* smaller window: re-baked smaller */
    assert_int_equal(text_pixel_size(t), 12);
    assert_int_equal(text_quad_count(t), 0);
    int aw, ah;
    const unsigned char *atlas = text_atlas(t, &aw, &ah);
    assert_int_equal(atlas[(size_t)aw * (size_t)(ah - 1) + 1], 255); /* the white texel for rectangles */
    text_destroy(t);

    t = text_create(&(text_desc){ .no_gl = true, .font_path = "/nonexistent/font.ttf" }, err, sizeof err);
    assert_non_null(t); /* falls back to the system font */
    text_destroy(t);
}

static void test_hud_overlays(void **state)
{
    char err[1024];
    text_ctx *t = text_create(&(text_desc){ .no_gl = true }, err, sizeof err);
    if (!t) fail_msg("text: %s", err);
    float ms[HUD_FRAME_SAMPLES];
    for (int i = 0; i < HUD_FRAME_SAMPLES; i++) ms[i] = (float)(i % 40);
    hud_info info = { .fps = 60, .frame_ms = ms, .frame_count = 200, .frame_head = 100, .pos = { 1, 2, 3 },
                      .yaw = -90, .biome = "taiga", .seed = 42, .chunks_loaded = 64, .chunks_visible = 20,
                      .triangles = 123456, .render_mode = "blocks", .queue_len = 3 };
    text_begin(t, 1280, 720);
    hud_draw_debug(t, &info, 1280, 720);
    assert_true(text_quad_count(t) > 200); /* text plus one bar per frame */
    text_begin(t, 1280, 720);
    hud_draw_debug(t, &(hud_info){ .yaw = NAN }, 1280, 720); /* empty struct, NaN yaw: still fine */

    bind_set(GLFW_KEY_F1, "biome desert");
    bind_set(GLFW_KEY_F3, "toggle hud.debug");
    text_begin(t, 1280, 720);
    hud_draw_help(t, NULL, 0, 1280, 720);
    int with_two = text_quad_count(t);
    bind_set(GLFW_KEY_F4, "echo a very long command that goes on and on and on and on and on and on and on");
    text_begin(t, 1280, 720);
    hud_draw_help(t, NULL, 0, 1280, 720);
    assert_true(text_quad_count(t) > with_two); /* generated from the bindings */
    int with_three = text_quad_count(t);
    const hud_key_help unbound[] = { { "W A S D", "move" } };
    text_begin(t, 1280, 720);
    hud_draw_help(t, unbound, 1, 1280, 720);
    assert_true(text_quad_count(t) > with_three); /* and the caller's unbound keys */
    text_begin(t, 100, 50);
    hud_draw_help(t, NULL, 0, 100, 50); /* tiny window: nothing overflows */
    text_begin(t, 1280, 720);
    hud_draw_progress(t, 0.37f, "generating world", 1280, 720);
    hud_draw_progress(t, NAN, NULL, 1280, 720);
    assert_true(text_quad_count(t) > 10);
    bind_shutdown();
    text_destroy(t);
}

/* Every quad from start on lies inside one of the panels (1 px of slack
 * for the messages' drop shadow). */
static void quads_inside(text_ctx *t, int start, const hud_rect *panels, int n, int w, int h)
{
    for (int i = start; i < text_quad_count(t); i++) {
        int q[4];
        assert_true(text_quad_rect(t, i, q));
        bool in = false;
        for (int k = 0; k < n && !in; k++) {
            const hud_rect *r = &panels[k];
            in = r->w > 0 && q[0] >= floorf(r->x) - 1 && q[1] >= floorf(r->y) - 1 && q[2] <= ceilf(r->x + r->w) + 1 &&
                 q[3] <= ceilf(r->y + r->h) + 1;
        }
        if (!in) fail_msg("%dx%d: quad %d (%d,%d)-(%d,%d) is outside every panel", w, h, i, q[0], q[1], q[2], q[3]);
        assert_true(q[0] >= 0 && q[1] >= 0 && q[2] <= w && q[3] <= h);
    }
}

static bool overlap(hud_rect a, hud_rect b)
{
    return a.w > 0 && b.w > 0 && a.h > 0 && b.h > 0 && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h &&
           b.y < a.y + a.h;
}

/* Debug panel, messages, help, tool strip and progress bar at every window
 * size from 640x360 up: no panel covers another, all text stays inside its
 * panel, and the help is shown. */
static void test_overlay_layout_never_overlaps(void **state)
{
    console *c = *state;
    char err[1024];
    text_ctx *t = text_create(&(text_desc){ .no_gl = true }, err, sizeof err);
    if (!t) fail_msg("text: %s", err);
    static const char *const cmds[] = { "biome desert", "biome taiga", "biome deciduous", "biome hills", "newseed",
                                        "toggle hud.debug", "toggle hud.help", "screenshot", "+cut", "+fill",
                                        "tool.color 1", "tool.color 2", "tool.color 3", "tool.color 4",
                                        "tool.color 5", "toggle player.fly", "biome formula" };
    for (int i = 0; i < 17; i++) bind_set(GLFW_KEY_A + i, cmds[i]);
    const hud_key_help fixed[] = { { "W A S D", "move (Ctrl sprints)" }, { "SPACE", "jump; fly up" },
                                   { "ESC", "release the mouse (click to take it back)" },
                                   { "GRAVE (`)", "console (TAB completes)" } };
    console_set_open(c, false);
    console_update(c, 1.0);
    for (int i = 0; i < 4; i++)
        console_print(c, CONSOLE_OUTPUT, "a long message that an echoed command printed, longer than the gap");
    float ms[HUD_FRAME_SAMPLES] = { 0 };
    hud_info info = { .fps = 60, .frame_ms = ms, .frame_count = 10, .biome = "deciduous", .seed = 4000000000u,
                      .chunks_loaded = 4096, .chunks_visible = 4096, .triangles = 12345678, .render_mode = "blocks" };
    uint8_t tile[16 * 16 * 4];
    memset(tile, 200, sizeof tile);
    hud_toolbar bar = { .color = 3, .tile = tile, .tile_size = 16, .material = "fir_leaves",
                        .shape = "a formula longer than the strip has room for, clipped", .size = 64 };
    const int sizes[][2] = { { 640, 360 }, { 640, 480 }, { 800, 450 }, { 1024, 576 }, { 1280, 720 },
                             { 1366, 768 }, { 1920, 1080 }, { 2560, 1440 }, { 700, 1000 }, { 3000, 400 } };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        for (int progress = 0; progress < 2; progress++) {
            text_begin(t, w, h);
            int rows = console_view_message_rows(c);
            assert_int_equal(rows, 4);
            hud_layout L = hud_draw_all(t, &info, fixed, 4, true, progress ? 0.5f : -1.f, "generating world", rows, 0, w,
                                        h, &bar);
            console_view_draw_at(t, c, w, h, L.messages.x, L.messages.y, L.messages.w);
            if (L.help.w <= 0) fail_msg("%dx%d: no room for the help panel", w, h);
            assert_true(L.toolbar.w > 0);
            hud_rect p[5] = { L.debug, L.messages, L.help, L.progress, L.toolbar };
            for (int i = 0; i < 5; i++)
                for (int j = i + 1; j < 5; j++)
                    if (overlap(p[i], p[j]))
                        fail_msg("%dx%d: panels %d and %d overlap: (%g,%g %gx%g) (%g,%g %gx%g)", w, h, i, j, p[i].x,
                                 p[i].y, p[i].w, p[i].h, p[j].x, p[j].y, p[j].w, p[j].h);
            quads_inside(t, 0, p, 5, w, h);
        }
    }
    /* the open console covers the top: every panel starts below it */
    console_set_open(c, true);
    console_update(c, 1.0);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        float top = console_view_bottom(c, h);
        assert_true(top >= (float)h * 0.45f);
        text_begin(t, w, h);
        hud_layout L = hud_draw_all(t, &info, fixed, 4, false, 0.5f, "lighting world", 0, top, w, h, NULL);
        hud_rect p[4] = { L.debug, L.messages, L.help, L.progress };
        for (int i = 0; i < 4; i++)
            if (p[i].w > 0 && p[i].h > 0 && p[i].y < top) fail_msg("%dx%d: panel %d under the open console", w, h, i);
        assert_true(L.debug.w > 0);
        quads_inside(t, 0, p, 4, w, h);
    }
    bind_shutdown();
    text_destroy(t);
}

/* The completion list's columns line up: the help text starts in the same
 * column on every line, whatever the name and value lengths. */
static void test_completion_columns_align(void **state)
{
    console *c = *state;
    cvar_register(&(cvar_desc){ .name = "view.a_rather_long_cvar_name", .help = "HELP-A", .type = CVAR_STRING,
                                .def = "a value that is quite long" });
    cvar_register(&(cvar_desc){ .name = "view.b", .help = "HELP-B", .type = CVAR_INT, .def = "1" });
    cmd_register(&(cmd_desc){ .name = "view.cmd", .help = "HELP-C", .fn = NULL });
    console_set_input(c, "view.");
    console_complete(c);
    int col = -1, seen = 0;
    for (int i = 0; i < 8; i++) {
        const char *s = console_line(c, i, NULL, NULL);
        if (!s) break;
        const char *h = strstr(s, "HELP-");
        if (!h && strncmp(s, "  view.", 7) == 0) h = s + strlen(s); /* no help text: where it would start */
        if (!h) continue;
        int at = (int)(h - s);
        if (col < 0) col = at;
        if (at != col) fail_msg("help column %d in '%s', %d above", at, s, col);
        seen++;
    }
    assert_true(seen >= 5); /* view.distance view.fov and the three above */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_editing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_utf8_cursor, setup, teardown),
        cmocka_unit_test_setup_teardown(test_history_navigation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_history_file_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_complete_unique_ambiguous_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paste, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors_coloured_and_did_you_mean, setup, teardown),
        cmocka_unit_test_setup_teardown(test_toggle_scroll_and_lines, setup, teardown),
        cmocka_unit_test(test_scrollback_ring_wraps),
        cmocka_unit_test(test_text_cpu_batch),
        cmocka_unit_test_setup_teardown(test_hud_overlays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overlay_layout_never_overlaps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_completion_columns_align, setup, teardown),
        cmocka_unit_test_setup_teardown(test_render_shows_text, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
