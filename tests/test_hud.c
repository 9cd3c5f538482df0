/* The HUD's pictures, measured (headless GL): the frame graph with slow
 * frames is bars under the top with its 16.7 / 33.3 ms lines, not one solid
 * block; the tool strip frames the chosen colour in white, raised, and
 * shows the fill material's own texture from the atlas. */
#include "test_support.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/atlas.h"
#include "gfx/text.h"
#include "platform/platform.h"
#include "ui/hud.h"
#include "voxel/material.h"

#define W 640
#define H 360

static struct platform *g_plat;
static text_ctx *g_text;
static uint8_t g_px[W * H * 4];

static int setup(void **state)
{
    g_plat = test_headless_open(W, H);
    if (!g_plat) return -1;
    char err[512];
    g_text = text_create(&(text_desc){ 0 }, err, sizeof err);
    if (!g_text) {
        print_error("text: %s\n", err);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    text_destroy(g_text);
    platform_destroy(g_plat);
    return 0;
}

/* Clears to mid grey, runs draw inside one text batch, reads the frame
 * back into g_px with the top row first. */
static void render(void (*draw)(void *), void *arg)
{
    glBindFramebuffer(GL_FRAMEBUFFER, platform_framebuffer(g_plat));
    glViewport(0, 0, W, H);
    glClearColor(0.5f, 0.5f, 0.5f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    text_begin(g_text, W, H);
    draw(arg);
    text_end(g_text);
    uint8_t *flip = malloc(sizeof g_px);
    assert_non_null(flip);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, flip);
    for (int y = 0; y < H; y++) memcpy(g_px + (size_t)y * W * 4, flip + (size_t)(H - 1 - y) * W * 4, W * 4);
    free(flip);
}

static const uint8_t *px(int x, int y) { return g_px + ((size_t)y * W + (size_t)x) * 4; }

/* The graph's bar colour for frames over 33.3 ms (hud.c), blended over the
 * graph's dark background: clearly red. */
static bool red_bar(const uint8_t *p) { return p[0] > 150 && p[1] < 110 && p[2] < 110; }

typedef struct graph_case {
    float ms[HUD_FRAME_SAMPLES];
    hud_rect g;
    float scale;
} graph_case;

static void draw_graph(void *arg)
{
    graph_case *c = arg;
    hud_info info = { .frame_ms = c->ms, .frame_count = HUD_FRAME_SAMPLES };
    c->scale = hud_draw_frame_graph(g_text, &info, c->g);
}

/* Rows of the graph where most columns are a red bar. */
static int red_rows(const graph_case *c)
{
    int rows = 0;
    for (int y = (int)c->g.y; y < (int)(c->g.y + c->g.h); y++) {
        int red = 0;
        for (int x = (int)c->g.x; x < (int)(c->g.x + c->g.w); x++) red += red_bar(px(x, y));
        rows += red * 2 > (int)c->g.w;
    }
    return rows;
}

static void test_slow_frames_are_bars_not_a_block(void **state)
{
    graph_case *c = calloc(1, sizeof *c);
    assert_non_null(c);
    for (int i = 0; i < HUD_FRAME_SAMPLES; i++) c->ms[i] = 50.f;
    c->g = (hud_rect){ 40, 100, HUD_FRAME_SAMPLES, 90 };
    render(draw_graph, c);
    int rows = red_rows(c);
    /* 50 ms frames under a scale of whole 60 Hz frames with headroom: the
     * bars fill three quarters of the graph, the rest is background */
    print_message("scale %.1f ms, %d of %d rows red\n", (double)c->scale, rows, (int)c->g.h);
    assert_true(c->scale > 50.f && c->scale < 80.f);
    assert_true(rows > (int)(c->g.h * 0.5f));
    assert_true(rows < (int)(c->g.h * 0.85f));
    /* the two budget lines cross the bars: at 33.3 ms a row that is not red */
    int y33 = (int)lroundf(c->g.y + c->g.h - 33.3f / c->scale * c->g.h), red = 0;
    for (int x = (int)c->g.x; x < (int)(c->g.x + c->g.w); x++) red += red_bar(px(x, y33));
    assert_true(red < (int)c->g.w / 4);

    /* one stall among fast frames clips at the top: the other bars still show */
    for (int i = 0; i < HUD_FRAME_SAMPLES; i++) c->ms[i] = i == 100 ? 1500.f : 20.f;
    render(draw_graph, c);
    assert_true(c->scale < 40.f);
    free(c);
}

typedef struct bar_case {
    hud_toolbar bar;
    hud_rect panel;
} bar_case;

static void draw_bar(void *arg)
{
    bar_case *c = arg;
    c->panel = hud_draw_toolbar(g_text, &c->bar, W, H);
}

/* White pixels in a ring of `width` pixels just outside r. */
static int white_ring(hud_rect r, int width)
{
    int n = 0;
    for (int y = (int)r.y - width; y < (int)(r.y + r.h) + width; y++)
        for (int x = (int)r.x - width; x < (int)(r.x + r.w) + width; x++) {
            bool in = x >= (int)r.x && x < (int)(r.x + r.w) && y >= (int)r.y && y < (int)(r.y + r.h);
            const uint8_t *p = px(x, y);
            n += !in && p[0] > 235 && p[1] > 235 && p[2] > 235;
        }
    return n;
}

static void test_the_strip_marks_the_chosen_colour(void **state)
{
    atlas_image atlas;
    char err[512];
    assert_true(atlas_load(test_source_path("assets/atlas.png"), &atlas, err, sizeof err));
    static const uint8_t palette[6][3] = { { 0 }, { 230, 50, 40 }, { 50, 190, 60 }, { 50, 100, 240 },
                                           { 240, 215, 50 }, { 200, 75, 215 } };
    bar_case c = { .bar = { .tile_size = ATLAS_TILE, .material = "sand", .shape = "ball", .size = 8 } };
    memcpy(c.bar.palette, palette, sizeof palette);
    int sand = material_find("sand");
    assert_true(sand >= 0);
    c.bar.tile = atlas_layer(&atlas, material_table[sand].tile[FACE_FRONT]);
    for (int chosen = 1; chosen <= 5; chosen++) {
        c.bar.color = chosen;
        render(draw_bar, &c);
        int ring[6] = { 0 };
        for (int n = 1; n <= 5; n++) {
            hud_rect r = hud_toolbar_cell(g_text, n, W, H);
            /* the swatch's own colour fills its cell's middle */
            const uint8_t *m = px((int)(r.x + r.w / 2), (int)(r.y + r.h * 0.7f));
            for (int k = 0; k < 3; k++) assert_true(abs((int)m[k] - (int)palette[n][k]) <= 3);
            if (n == chosen) r.y -= fmaxf(2.f, floorf(r.w / 12)); /* raised */
            ring[n] = white_ring(r, 2);
        }
        for (int n = 1; n <= 5; n++) {
            if (n == chosen) assert_true(ring[n] > (int)(hud_toolbar_cell(g_text, n, W, H).w * 4));
            else assert_true(ring[n] < 8);
        }
    }
    /* the material cell shows the tile: its mean colour is the tile's */
    hud_rect icon = hud_toolbar_cell(g_text, 0, W, H);
    double mean[3] = { 0 }, want[3] = { 0 };
    int n = 0;
    for (int y = (int)icon.y + 2; y < (int)(icon.y + icon.h) - 2; y++)
        for (int x = (int)icon.x + 2; x < (int)(icon.x + icon.w) - 2; x++, n++)
            for (int k = 0; k < 3; k++) mean[k] += px(x, y)[k];
    for (int i = 0; i < ATLAS_TILE * ATLAS_TILE; i++)
        for (int k = 0; k < 3; k++) want[k] += c.bar.tile[4 * i + k];
    for (int k = 0; k < 3; k++) {
        mean[k] /= n, want[k] /= ATLAS_TILE * ATLAS_TILE;
        print_message("channel %d: icon %.1f, tile %.1f\n", k, mean[k], want[k]);
        assert_true(fabs(mean[k] - want[k]) < 12.0);
    }
    /* and texture, not a flat square: its pixels vary as the tile's do */
    int differ = 0;
    for (int x = (int)icon.x + 2; x < (int)(icon.x + icon.w) - 3; x++)
        differ += memcmp(px(x, (int)(icon.y + icon.h / 2)), px(x + 1, (int)(icon.y + icon.h / 2)), 3) != 0;
    assert_true(differ > 4);
    atlas_free(&atlas);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slow_frames_are_bars_not_a_block),
        cmocka_unit_test(test_the_strip_marks_the_chosen_colour),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
