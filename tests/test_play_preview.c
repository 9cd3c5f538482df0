/* The tool's preview through the real game (headless): looking at the sky
 * nothing is drawn; looking at the hills the tinted pixels are where the
 * cut then changes the picture (the voxels it removes), in each render
 * mode, and after a fill where the next fill changes it; and the crosshair stands out over bright, mid and dark grounds.
 * Recipe: a finite 256 x 128 x 256 hills world, seed 1, 320 x 180 frames. */
#include "test_support.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/app_internal.h"
#include "gfx/crosshair.h"
#include "platform/platform.h"
#include "ui/cmd.h"

#define W 320
#define H 180
#define N (W * H)

/* The frame as drawn by `frames 1` (RGB, bottom row first). */
static uint8_t *frame(app *a)
{
    assert_int_equal(cmd_exec("frames 1"), 0);
    uint8_t *px = malloc(N * 4);
    assert_non_null(px);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, platform_framebuffer(a->plat));
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    return px;
}

static bool differs(const uint8_t *a, const uint8_t *b, int i, int tol)
{
    for (int c = 0; c < 3; c++)
        if (abs(a[4 * i + c] - b[4 * i + c]) > tol) return true;
    return false;
}

/* Pixels that differ between the frame with `mode` and with the preview off. */
static long preview_pixels(app *a, const char *mode)
{
    char line[64];
    snprintf(line, sizeof line, "set tool.preview %s", mode);
    assert_int_equal(cmd_exec(line), 0);
    uint8_t *on = frame(a);
    assert_int_equal(cmd_exec("set tool.preview off"), 0);
    uint8_t *off = frame(a);
    long n = 0;
    for (int i = 0; i < N; i++) n += differs(on, off, i, 0);
    free(on), free(off);
    assert_int_equal(cmd_exec("set tool.preview tint"), 0);
    return n;
}

/* Looking up at the sky the tool reaches nothing: no preview at all, tinted or wire. */
static void test_sky_shows_nothing(void **state)
{
    app *a = *state;
    assert_int_equal(cmd_exec("set render.mode blocks; tp 128.5 100 128.5; set player.fly 1; look 0 60; frames 2"), 0);
    long tint = preview_pixels(a, "tint"), wire = preview_pixels(a, "wire");
    print_message("sky: %ld tinted, %ld wire preview pixels\n", tint, wire);
    assert_int_equal(tint, 0);
    assert_int_equal(wire, 0);
    assert_int_equal(cmd_exec("set player.fly 0"), 0);
}

/* The frame with the preview (A), without (B), and without after `cut`
 * (C): the tinted pixels (A != B) lie in the area the cut changed
 * (B != C, grown by a pixel for the outline's rounding). */
static void check_preview_is_the_edit(app *a, const char *mode, double at_x, const char *edit, double min_inside)
{
    char line[256];
    snprintf(line, sizeof line,
             "set render.mode %s; set tool.reach 8; set tool.color 1; tp %.1f 90 100.5; look 0 -30; frames 120", mode, at_x);
    assert_int_equal(cmd_exec(line), 0);
    /* a fill's preview follows the fill button: one press (it fills), then the next fill is shown */
    if (strcmp(edit, "fill") == 0) assert_int_equal(cmd_exec("look 0 -10; +fill; -fill; frames 20"), 0);
    uint8_t *pa = frame(a);
    assert_int_equal(cmd_exec("set tool.preview off"), 0);
    uint8_t *pb = frame(a);
    snprintf(line, sizeof line, "%s; frames 20", edit);
    assert_int_equal(cmd_exec(line), 0);
    uint8_t *pc = frame(a);
    assert_int_equal(cmd_exec("set tool.preview tint"), 0);
    long tinted = 0, inside = 0, cut_area = 0;
    double shift = 0; /* how far the tint moves a pixel toward the tool's red */
    for (int i = 0; i < N; i++) cut_area += differs(pb, pc, i, 2);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            if (!differs(pa, pb, i, 0)) continue;
            tinted++;
            shift += (pa[4 * i] - pb[4 * i]) - 0.5 * ((pa[4 * i + 1] - pb[4 * i + 1]) + (pa[4 * i + 2] - pb[4 * i + 2]));
            bool in = false;
            for (int dy = -1; dy <= 1 && !in; dy++)
                for (int dx = -1; dx <= 1 && !in; dx++) {
                    int u = x + dx, v = y + dy;
                    in = u >= 0 && v >= 0 && u < W && v < H && differs(pb, pc, v * W + u, 2);
                }
            inside += in;
        }
    free(pa), free(pb), free(pc);
    double frac = tinted ? (double)inside / (double)tinted : 0;
    print_message("%s %s: %ld tinted pixels, %.1f%% inside the %ld it changed; red shift %.0f\n", mode, edit, tinted,
                  100 * frac, cut_area, tinted ? shift / tinted : 0);
    assert_int_equal(cmd_exec("+cut; -cut"), 0); /* the preview shows cuts again */
    assert_true(tinted > N / 50);                 /* the preview shows */
    assert_true(frac >= min_inside);              /* and it is the cut */
    assert_true(tinted ? shift / tinted > 40 : false); /* clearly in the tool's colour */
}

/* each mode at a place of its own: untouched hills */
static void test_tint_is_the_cut_blocks(void **state) { check_preview_is_the_edit(*state, "blocks", 100.5, "cut", 0.97); }
static void test_tint_is_the_cut_smooth(void **state) { check_preview_is_the_edit(*state, "smooth", 130.5, "cut", 0.90); }
static void test_tint_is_the_cut_enhanced(void **state)
{
    check_preview_is_the_edit(*state, "enhanced", 160.5, "cut", 0.90);
}
/* after a fill the preview is the voxels the next fill adds, where they will show */
static void test_fill_preview_is_the_fill(void **state) { check_preview_is_the_edit(*state, "blocks", 70.5, "fill", 0.97); }

/* The crosshair over flat grounds: white, mid grey, grass, black. In each,
 * some of its pixels differ from the ground by at least 100 in luminance. */
static void test_crosshair_reads_on_any_ground(void **state)
{
    app *a = *state;
    char err[512];
    crosshair *c = crosshair_create(err, sizeof err);
    assert_non_null(c);
    const float grounds[][3] = { { 1, 1, 1 }, { 0.5f, 0.5f, 0.5f }, { 0.35f, 0.6f, 0.2f }, { 0, 0, 0 } };
    render_settings s = { .width = W, .height = H, .framebuffer = platform_framebuffer(a->plat) };
    uint8_t *px = malloc(N * 4);
    assert_non_null(px);
    for (size_t g = 0; g < sizeof grounds / sizeof grounds[0]; g++) {
        glBindFramebuffer(GL_FRAMEBUFFER, s.framebuffer);
        glClearColor(grounds[g][0], grounds[g][1], grounds[g][2], 1);
        glClear(GL_COLOR_BUFFER_BIT);
        crosshair_draw(c, &s);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, s.framebuffer);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        const float bg = 255.f * (0.3f * grounds[g][0] + 0.59f * grounds[g][1] + 0.11f * grounds[g][2]);
        float most = 0;
        for (int y = H / 2 - 16; y < H / 2 + 16; y++)
            for (int x = W / 2 - 16; x < W / 2 + 16; x++) {
                const uint8_t *p = &px[4 * (y * W + x)];
                float d = fabsf(0.3f * p[0] + 0.59f * p[1] + 0.11f * p[2] - bg);
                if (d > most) most = d;
            }
        print_message("ground %.2f %.2f %.2f: the crosshair differs by %.0f\n", grounds[g][0], grounds[g][1],
                      grounds[g][2], most);
        assert_true(most >= 100);
    }
    free(px);
    crosshair_destroy(c);
}

static int setup(void **state)
{
    return test_app_setup(state, W, H,
                          "set world.stream 0; set world.size_x 8; set world.size_y 4; set world.size_z 8; "
                          "set world.seed 1; biome hills; set render.crosshair 0; frames 2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sky_shows_nothing),
        cmocka_unit_test(test_tint_is_the_cut_blocks),
        cmocka_unit_test(test_tint_is_the_cut_smooth),
        cmocka_unit_test(test_tint_is_the_cut_enhanced),
        cmocka_unit_test(test_fill_preview_is_the_fill),
        cmocka_unit_test(test_crosshair_reads_on_any_ground),
    };
    return cmocka_run_group_tests(tests, setup, test_app_teardown);
}
