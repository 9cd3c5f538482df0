/* bench_ui: ui.console.frame — the CPU cost of building one frame's text
 * batch for a full console (40 lines x 120 columns of scrollback, input line,
 * background), without GL; ui.console.frame_gl adds the upload and draw call
 * on the headless context. Target: <= 0.5 ms per frame. */
#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "gfx/text.h"
#include "platform/platform.h"
#include "ui/console.h"
#include "ui/console_view.h"
#include "ui/cvar.h"

#define COLS 120
#define ROWS 40

typedef struct ui_bench {
    platform *plat;
    text_ctx *text;
    console *con;
    int w, h;
} ui_bench;

static void *setup_common(bool gl)
{
    ui_bench *b = calloc(1, sizeof *b);
    char err[1024];
    if (gl) {
        b->plat = platform_create(&(platform_desc){ .width = 1280, .height = 800, .headless = true }, err, sizeof err);
        if (!b->plat) {
            bench_skip(err);
            free(b);
            return NULL;
        }
    }
    b->text = text_create(&(text_desc){ .no_gl = !gl, .pixel_size = 16 }, err, sizeof err);
    if (!b->text) {
        bench_skip(err);
        platform_destroy(b->plat);
        free(b);
        return NULL;
    }
    console_view_register_cvars();
    cvar_set(cvar_find("console.height"), "1", NULL, 0);
    /* a framebuffer that holds exactly COLS columns and ROWS scrollback lines */
    int cw = text_char_width(b->text), lh = text_line_height(b->text);
    b->w = (COLS + 2) * cw;
    b->h = (ROWS + 2) * lh + lh / 2 + 2;
    b->con = console_create(NULL);
    char line[COLS + 1];
    for (int i = 0; i < 500; i++) {
        for (int k = 0; k < COLS; k++) line[k] = (char)('!' + (i * 7 + k) % 90);
        line[COLS] = 0;
        console_print(b->con, (console_color)(i % 5), line);
    }
    console_set_input(b->con, "set view.distance 12; set render.mode smooth");
    console_set_open(b->con, true);
    console_update(b->con, 1.0);
    return b;
}

static void *setup_cpu(void) { return setup_common(false); }
static void *setup_gl(void) { return setup_common(true); }

static void run(void *state)
{
    ui_bench *b = state;
    text_begin(b->text, b->w, b->h);
    console_view_draw(b->text, b->con, b->w, b->h);
    if (b->plat) text_end(b->text);
    bench_note("quads", text_quad_count(b->text));
}

static void teardown(void *state)
{
    ui_bench *b = state;
    if (b->plat) glFinish();
    console_destroy(b->con);
    text_destroy(b->text);
    platform_destroy(b->plat);
    free(b);
}

static const bench_case ui_cases[] = {
    { "ui.console.frame", setup_cpu, run, teardown, 200 },
    { "ui.console.frame_gl", setup_gl, run, teardown, 200 },
};
BENCH_REGISTER(ui_cases)
