/* The far rings through the real game, headless (app_far, gfx/far): looking
 * along the horizon from a height shows terrain below it to the fogged
 * edge, never sky, standing and flying; an edit made far away is in the
 * far ring after the player leaves; a view.far whose meshes would pass
 * far.memory_mb is refused with the estimate; and the far field is as
 * bright as the near terrain it continues (the same pixels drawn by the
 * near field and by the far ring, mean grey within 4 %, blocks and smooth);
 * and after `stream wait` the frames that follow draw the same picture. */
#include "test_support.h"

#include <cglm/cglm.h>
#include <glad/gl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/app_internal.h"
#include "app/app_stream.h"
#include "core/log.h"
#include "gfx/screenshot.h"
#include "platform/platform.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

#define W 256
#define H 144

static app *open_far(int distance, int far)
{
    app_desc d = { .headless = true, .width = W, .height = H };
    app *a = app_create(&d);
    if (!a) fail_msg("no app: a GL context or the assets are missing");
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "set render.sky 0; set view.distance %d; set view.far %d; set world.stream 1; set player.fly 1; biome hills",
             distance, far);
    assert_int_equal(cmd_exec(cmd), 0);
    assert_non_null(app_stream(a));
    return a;
}

static char g_out[4096];

static void capture(void *user, log_level level, const char *line)
{
    (void)user, (void)level;
    size_t n = strlen(g_out);
    snprintf(g_out + n, sizeof g_out - n, "%s\n", line);
}

/* Runs cmd and returns what it printed (static; until the next call). */
static const char *output_of(const char *cmd, int *rc)
{
    g_out[0] = 0;
    log_set_sink(capture, NULL);
    *rc = cmd_exec(cmd);
    log_reset_sink();
    return g_out;
}

static void run(const char *fmt, ...)
{
    char cmd[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    assert_int_equal(cmd_exec(cmd), 0);
}

static uint8_t *frame(app *a)
{
    assert_int_equal(cmd_exec("frames 1"), 0);
    uint8_t *px = screenshot_read(platform_framebuffer(a->plat), W, H);
    assert_non_null(px);
    return px;
}

/* Sky pixels more than 5 degrees below the horizon (looking `pitch` down
 * from y = 200: the ground there lies within 2.5 km, where the fog is
 * still well short of the sky's colour). */
static int sky_below_horizon(app *a, float pitch)
{
    uint8_t *px = frame(a);
    float t = tanf(a->cv.fov->f * 0.5f * 3.14159265f / 180.f);
    int row = (int)ceilf(H * 0.5f - H * 0.5f * tanf((-5.f - pitch) * 3.14159265f / 180.f) / t);
    int sky = 0;
    for (int y = row < 0 ? 0 : row; y < H; y++)
        for (int x = 0; x < W; x++) sky += test_game_sky(px + 4 * (y * W + x));
    free(px);
    return sky;
}

static void test_no_sky_below_the_horizon(void **state)
{
    (void)state;
    app *a = open_far(192, 4096);
    run("tp 200 200 300; look 60 -8; stream wait");
    const char *modes[] = { "smooth", "enhanced", "blocks" };
    for (int m = 0; m < 3; m++) {
        run("set render.mode %s; stream wait", modes[m]);
        int standing = sky_below_horizon(a, -8.f);
        printf("standing, %s: %d sky pixels below the horizon\n", modes[m], standing);
        assert_int_equal(standing, 0);
    }
    /* a short flight: the rings recentre on the workers behind it */
    int worst = 0, frames = 0;
    for (int i = 0; i < 60; i++, frames++) {
        run("tp %.2f 200 %.2f", 200.0 + i * 3.0, 300.0 - i * 1.5);
        int sky = sky_below_horizon(a, -8.f);
        if (sky > worst) worst = sky;
    }
    printf("flying: at most %d sky pixels below the horizon in %d frames\n", worst, frames);
    assert_true(worst <= 8); /* a lone sparkle at most, as the near field allows */
    app_destroy(a);
}

/* `far at`: the height the far rings draw there (key far_height) or the
 * highest corner of the cell holding it (far_cell_top). */
static double far_height(const char *where, const char *key)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "far at %s", where);
    int rc;
    const char *p = strstr(output_of(cmd, &rc), key);
    assert_int_equal(rc, 0);
    assert_non_null(p);
    return atof(p + strlen(key));
}

static void test_edit_far_away_shows_in_the_far_ring(void **state)
{
    (void)state;
    app *a = open_far(128, 4096);
    run("tp 1200 100 1200; stream wait");
    run("set tool.size 32; set tool.shape 1; fill stone 1216 110 1216"); /* a block of stone up to y = 126 */
    run("tp 3400 100 1200; stream wait");
    /* 2.2 km out the cells are 128 voxels: the block is a vertex raised to its top */
    double h = far_height("1216 1216", "far_cell_top=");
    /* the same spot on a world without the edit */
    app_destroy(a);
    a = open_far(128, 4096);
    run("tp 3400 100 1200; stream wait");
    double plain = far_height("1216 1216", "far_cell_top=");
    printf("far ring at the edit: %.1f, unedited: %.1f\n", h, plain);
    assert_true(h >= 126.0 && h <= 128.0);
    assert_true(plain < 110.0);
    app_destroy(a);
}

static void test_view_far_over_budget_refused(void **state)
{
    (void)state;
    app *a = open_far(128, 0);
    run("set far.cells 32; set far.memory_mb 3");
    int rc;
    const char *out = output_of("set view.far 65536", &rc);
    printf("%s", out);
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(out, "needs"));
    assert_non_null(strstr(out, "far.memory_mb"));
    assert_true(cvar_find("view.far")->f == 0.f);
    assert_int_equal(cmd_exec("set view.far 4096"), 0);
    app_destroy(a);
}

static double grey(const uint8_t *p) { return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]; }

static bool same(const uint8_t *a, const uint8_t *b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

/* The band from 192 to 320 voxels out: with view.distance 192 the far ring
 * draws it (the picture changes when far.show is off), with 320 the near
 * field does (it does not). The same pixels, near against far. */
static void bright_as_near(const char *mode)
{
    const char *view = "tp 200 200 300; look 60 -25; stream wait";
    app *a = open_far(192, 4096);
    run("set render.mode %s", mode);
    run(view);
    uint8_t *far_on = frame(a);
    run("set far.show 0");
    uint8_t *far_off = frame(a);
    run("set far.show 1; set view.distance 320");
    run(view);
    uint8_t *near_on = frame(a);
    run("set far.show 0");
    uint8_t *near_off = frame(a);
    double sf = 0, sn = 0;
    int n = 0;
    for (int i = 0; i < W * H; i++) {
        const uint8_t *f = far_on + 4 * i;
        if (same(f, far_off + 4 * i) || !same(near_on + 4 * i, near_off + 4 * i)) continue;
        sf += grey(f);
        sn += grey(near_on + 4 * i);
        n++;
    }
    double mf = n ? sf / n : 0, mn = n ? sn / n : 0;
    printf("%s: %d pixels the far ring draws at view.distance 192 and the near field at 320: mean grey %.1f far, "
           "%.1f near (%.2f %%)\n", mode, n, mf, mn, n ? 100.0 * (mf - mn) / mn : 0.0);
    assert_true(n >= W * H / 20);
    assert_true(fabs(mf - mn) <= 0.04 * mn);
    free(far_on);
    free(far_off);
    free(near_on);
    free(near_off);
    app_destroy(a);
}

/* The band from 192 to 320 voxels out: with view.distance 192 the far ring
 * draws it (the picture changes when far.show is off), with 320 the near
 * field does (it does not). The same pixels, near against far. */
static void test_far_as_bright_as_the_near_field(void **state)
{
    (void)state;
    bright_as_near("blocks");
    bright_as_near("smooth");
}

/* Pixels the near field draws (closer than 160 voxels along the view with
 * the far rings hidden) that change when they are shown: the far rings
 * leave out the columns the near field drew, so only where a drawn
 * column's edge meets an undrawn one in front of it may one change. And
 * with them shown, pixels of the plain under the world (y < 1): a ray that
 * passed under ring 0's edge where it stands above the near terrain (the
 * curtain closes that slit). (Depth rows run bottom up, as glReadPixels
 * gives them; the pictures' top down, as screenshot_read does.) */
static void near_field_uncovered(const char *biome, const char *mode, int distance, int cells)
{
    app *a = open_far(distance, 2048);
    run("set far.cells %d; biome %s; set render.mode %s; tp 256 110 256; stream wait; far wait; look 30 -15", cells, biome,
        mode);
    int rc;
    const char *stat = strstr(output_of("far", &rc), "far_cell_min=");
    assert_non_null(stat);
    const int cell = atoi(stat + strlen("far_cell_min="));
    assert_int_equal(cell, distance > 192 && cells < 16 ? 64 : 16);
    run("set far.show 0");
    uint8_t *off = frame(a);
    float *depth = malloc(sizeof(float) * W * H);
    assert_non_null(depth);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, platform_framebuffer(a->plat));
    glReadPixels(0, 0, W, H, GL_DEPTH_COMPONENT, GL_FLOAT, depth);
    run("set far.show 1");
    uint8_t *on = frame(a);
    float *depth_on = malloc(sizeof(float) * W * H);
    assert_non_null(depth_on);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, platform_framebuffer(a->plat));
    glReadPixels(0, 0, W, H, GL_DEPTH_COMPONENT, GL_FLOAT, depth_on);
    mat4 inv;
    glm_mat4_inv(a->cam.viewproj, inv);
    int plain = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float d = depth_on[y * W + x];
            if (d >= 1.f) continue;
            vec4 ndc = { (x + 0.5f) / W * 2 - 1, (y + 0.5f) / H * 2 - 1, d * 2 - 1, 1 }, p;
            glm_mat4_mulv(inv, ndc, p);
            plain += p[1] / p[3] + (float)a->cam.origin[1] < 1.f;
        }
    free(depth_on);
    const float n = a->cam.znear, f = a->cam.zfar;
    int near = 0, changed = 0;
    for (int i = 0; i < W * H; i++) {
        float d = depth[(H - 1 - i / W) * W + i % W];
        float ahead = 2.f * n * f / (f + n - (2.f * d - 1.f) * (f - n)); /* the eye's depth of the pixel */
        if (d >= 1.f || ahead > 160.f) continue;
        near++;
        changed += !same(on + 4 * i, off + 4 * i);
    }
    printf("%s %s, view %d, ring 0's cells %d: %d of %d near-field pixels change when the far rings are shown; %d "
           "pixels of the plain\n",
           biome, mode, distance, cell, changed, near, plain);
    assert_true(near >= W * H / 4);
    assert_true(changed <= near / 100);
    assert_true(plain <= W * H / 1000);
    free(depth);
    free(on);
    free(off);
    app_destroy(a);
}

static void test_far_never_covers_the_near_field(void **state)
{
    (void)state;
    near_field_uncovered("taiga", "smooth", 192, 16);
    near_field_uncovered("taiga", "blocks", 192, 16);
    /* ring 0's cells coarser than a column (64) */
    near_field_uncovered("taiga", "smooth", 256, 8);
}

/* After `stream wait` the picture is whole: the frames that follow, the
 * player still, draw the same pixels (waiting for view.distance alone, the
 * outermost columns, meshed only once their neighbours in the margin came,
 * showed the far ring for a few dozen frames: 100 pixels of this view). */
static void settled_after_wait(const char *biome, const char *mode)
{
    app *a = open_far(192, 4096);
    run("biome %s; set render.mode %s; look 100 -8; stream wait", biome, mode);
    uint8_t *first = frame(a);
    run("frames 30");
    uint8_t *later = frame(a);
    int changed = 0;
    for (int i = 0; i < W * H; i++) changed += !same(first + 4 * i, later + 4 * i);
    printf("%s %s: %d pixels change in the 30 frames after stream wait\n", biome, mode, changed);
    assert_int_equal(changed, 0);
    free(first);
    free(later);
    app_destroy(a);
}

static void test_whole_after_stream_wait(void **state)
{
    (void)state;
    settled_after_wait("taiga", "smooth");
    settled_after_wait("taiga", "blocks");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_sky_below_the_horizon),
        cmocka_unit_test(test_edit_far_away_shows_in_the_far_ring),
        cmocka_unit_test(test_view_far_over_budget_refused),
        cmocka_unit_test(test_far_as_bright_as_the_near_field),
        cmocka_unit_test(test_far_never_covers_the_near_field),
        cmocka_unit_test(test_whole_after_stream_wait),
    };
    return test_run_group("far_app", tests, sizeof tests / sizeof tests[0], NULL, NULL);
}
