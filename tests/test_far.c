/* Far from the origin: at x = z = 10^7 a float steps a whole
 * voxel, so positions are doubles and drawing is camera-relative
 * (gfx/camera.h, core/origin.h). The same scripted edits, the same picture
 * (a falling voxel body in it too) and the same walk there as at the
 * origin, through the real game headless and through player_update on a
 * window created 10^7 voxels out. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/app_bodies.h"
#include "app/app_internal.h"
#include "app/app_stream.h"
#include "gfx/screenshot.h"
#include "platform/platform.h"
#include "play/player.h"
#include "ui/cmd.h"
#include "voxel/chunk.h"
#include "voxel/world.h"

#define W 256
#define H 144
#define FAR 10000000 /* a multiple of ORIGIN_STEP, as the far target is */

/* The scene, relative to the anchor (A, 0, A): the eye and everything built
 * lie in [A, A + 128) on x and z, high above the hills' ground (which is
 * below y = 80) so the background is sky. */
#define BOX 48 /* the box compared: [A + 24, A + 72) x [88, 136) x [A + 8, A + 56) */

static app *open_far(void)
{
    app_desc d = { .headless = true, .width = W, .height = H };
    app *a = app_create(&d);
    if (!a) fail_msg("no app: a GL context or the assets are missing");
    /* physics off: a structure in the air would fall as voxel bodies onto
     * the hills' ground, which is not the same at the two anchors
     * (bodies far out: tests/test_bodies_far.c); a small window
     * (9 x 9 columns) keeps the test fast; smooth meshing on the CPU at
     * both anchors (render.gpu 2 picks by a timing, and the compute
     * shaders' normals differ from the CPU's by a level here and there);
     * no far rings: the terrain they show beyond differs at the two anchors */
    assert_int_equal(cmd_exec("set view.far 0; set view.distance 48; set stream.margin 32; set stream.hysteresis 0; "
                              "set stream.spawn_radius 32; set world.stream 1; set player.fly 1; "
                              "set physics.enable 0; set render.gpu 0; biome hills"),
                     0);
    assert_non_null(app_stream(a));
    return a;
}

/* The box's materials, relative to the anchor. */
static uint8_t *snapshot(const world *w, long anchor)
{
    uint8_t *v = malloc(BOX * BOX * BOX);
    assert_non_null(v);
    for (int y = 0; y < BOX; y++)
        for (int z = 0; z < BOX; z++)
            for (int x = 0; x < BOX; x++)
                v[(y * BOX + z) * BOX + x] = world_get(w, (int)anchor + 24 + x, 88 + y, (int)anchor + 8 + z);
    return v;
}

static long count_changed(const uint8_t *a, const uint8_t *b)
{
    long n = 0;
    for (long i = 0; i < BOX * BOX * BOX; i++) n += a[i] != b[i];
    return n;
}

/* Stands the player at the anchor's eye point (in the air: flying), waits
 * for the window there and builds the structure with fills at explicit
 * coordinates; `steps` receives the box after each scripted edit: the
 * structure, a cut from the view, a fill from the view. */
static void build_at(app *a, long A, uint8_t *steps[4])
{
    test_cmd("tp %ld.5 100 %ld.5; look 90 0; stream wait 48; frames 1", A + 20, A + 30);
    steps[0] = snapshot(a->w, A);
    test_cmd("set tool.size 8; set tool.shape \"x >= 0\"; fill stone %ld.5 100 %ld.5", A + 40, A + 30);
    test_cmd("fill sand %ld 106 %ld", A + 46, A + 26);
    test_cmd("set tool.size 5; fill oak_log %ld.5 112.5 %ld.25", A + 36, A + 34);
    test_cmd("set tool.size 7; set tool.shape \"sr < r\"; fill fir_leaves %ld.5 96.5 %ld.75", A + 50, A + 36);
    steps[1] = snapshot(a->w, A);
    /* the tool where the view puts it (a ray from the eye, the pose turned
     * with the camera): the same voxels relative to the eye */
    test_cmd("set tool.size 6; set tool.shape \"x >= 0\"; look 97 4; cut; frames 1");
    steps[2] = snapshot(a->w, A);
    test_cmd("look 80 -9; fill dirt; frames 1");
    steps[3] = snapshot(a->w, A);
}

/* The structure seen from the same eye, relative to the anchor, looking up
 * (only sky behind it), in blocks and smooth mode, light off and on. */
#define SHOTS 4
static const char *const k_modes[SHOTS] = { "blocks", "blocks", "smooth", "smooth" };

static void pictures_at(app *a, long A, uint8_t *px[SHOTS])
{
    for (int k = 0; k < SHOTS; k++) {
        test_cmd("set render.mode %s; set light.enable %d", k_modes[k], k % 2);
        test_cmd("tp %ld.5 100 %ld.5; look 90 25; stream wait 48; frames 2", A + 20, A + 30);
        px[k] = screenshot_read(platform_framebuffer(a->plat), W, H);
        assert_non_null(px[k]);
        if (getenv("STRATA_TEST_TRACE"))
            test_cmd("screenshot /tmp/far_%s_%d_%s.png", k_modes[k], k % 2, A ? "far" : "origin");
    }
    test_cmd("set render.mode blocks; set light.enable 1");
}

/* A cube of stone filled above the structure, cut loose and falling for
 * three frames, seen from the eye of pictures_at (blocks, light off, no
 * ghost): the body is drawn relative to the render origin from its own
 * integer frame, so 10^7 out it is the same picture. Then physics lets it
 * land and merge (on the hills, away from the compared box) and is off
 * again. `shows`: the pixels it changes. */
static uint8_t *body_picture_at(app *a, long A, long *shows)
{
    test_cmd("set render.mode blocks; set light.enable 0; set physics.enable 1; set tool.visible 0");
    test_cmd("tp %ld.5 100 %ld.5; look 90 25; stream wait 48; frames 1", A + 20, A + 30);
    uint8_t *before = screenshot_read(platform_framebuffer(a->plat), W, H);
    assert_non_null(before);
    test_cmd("set tool.size 5; set tool.shape \"x >= 0\"; fill stone %ld.5 124.5 %ld.5; frames 4", A + 60, A + 30);
    int count, awake;
    long voxels;
    app_bodies_counts(a, &count, &awake, &voxels);
    assert_int_equal(count, 1); /* it is a body, falling */
    uint8_t *px = screenshot_read(platform_framebuffer(a->plat), W, H);
    assert_non_null(px);
    if (getenv("STRATA_TEST_TRACE")) test_cmd("screenshot /tmp/far_body_%s.png", A ? "far" : "origin");
    *shows = 0;
    for (long i = 0; i < (long)W * H; i++) *shows += memcmp(px + 4 * i, before + 4 * i, 3) != 0;
    free(before);
    test_cmd("frames 600; set physics.enable 0; set light.enable 1; set tool.visible 1");
    app_bodies_counts(a, &count, &awake, &voxels);
    assert_int_equal(count, 0); /* it landed and merged */
    return px;
}

static void compare(const uint8_t *p, const uint8_t *q, long *pixels, int *worst, long *object)
{
    *pixels = 0, *worst = 0, *object = 0;
    for (long i = 0; i < (long)W * H; i++) {
        int d = 0;
        for (int c = 0; c < 3; c++) {
            int e = abs((int)p[4 * i + c] - (int)q[4 * i + c]);
            d = e > d ? e : d;
        }
        *pixels += d > 0;
        *worst = d > *worst ? d : *worst;
        /* not the sky's clear colour: the structure is in the picture */
        *object += abs((int)p[4 * i] - 158) > 6 || abs((int)p[4 * i + 2] - 237) > 6;
    }
}

/* One game (one start-up), each anchor visited once: the window moves
 * 10^7 voxels only twice. */
static void test_edits_and_picture_far_match_origin(void **state)
{
    (void)state;
    app *a = open_far();
    uint8_t *near[4], *far[4], *pn[SHOTS], *pf[SHOTS];
    build_at(a, 0, near);
    pictures_at(a, 0, pn);
    long body_px, body_px_far;
    uint8_t *bn = body_picture_at(a, 0, &body_px);
    build_at(a, FAR, far);
    pictures_at(a, FAR, pf);
    uint8_t *bf = body_picture_at(a, FAR, &body_px_far);

    static const char *what[4] = { "the air before", "the filled structure", "a cut from the view",
                                   "a fill from the view" };
    for (int k = 0; k < 4; k++) {
        long changed = k ? count_changed(near[k - 1], near[k]) : 0;
        long differ = count_changed(near[k], far[k]);
        printf("%s: %ld voxels changed at the origin, %ld differ at 10^7\n", what[k], changed, differ);
        assert_int_equal(differ, 0);
        if (k) assert_true(changed > 0); /* each step did something */
    }
    for (int k = 0; k < SHOTS; k++) {
        long pixels, object;
        int worst;
        compare(pn[k], pf[k], &pixels, &worst, &object);
        printf("%s, light %d: %ld of %d pixels differ (at most %d levels); the structure covers %ld\n", k_modes[k],
               k % 2, pixels, W * H, worst, object);
        assert_true(object > 500); /* the structure is in view, not just sky */
        /* The tolerance (docs/streaming.md). Light off: the same picture
         * byte for byte, since the render origin gives the shaders the same
         * floats as at the origin. Light on: snowflake particles are seeded
         * by global coordinates, so the same structure gets other, equally
         * valid particle noise 10^7 out: at most 64 levels on a channel. */
        if (k % 2 == 0)
            assert_int_equal(pixels, 0);
        else
            assert_true(worst <= 64);
    }
    /* the falling body: in view (it changes the picture without it), and
     * the same picture at both anchors, byte for byte */
    long body_differ, object;
    int worst;
    compare(bn, bf, &body_differ, &worst, &object);
    printf("a falling body: %ld pixels show it; %ld of %d pixels differ at 10^7 (at most %d levels)\n", body_px,
           body_differ, W * H, worst);
    assert_true(body_px > 50);
    assert_int_equal(body_px_far, body_px);
    assert_int_equal(body_differ, 0);
    free(bn), free(bf);
    for (int k = 0; k < 4; k++) free(near[k]), free(far[k]);
    for (int k = 0; k < SHOTS; k++) free(pn[k]), free(pf[k]);
    app_destroy(a);
}

/* player_update on the same floor and wall at the origin and 10^7 out:
 * the same inputs move the player by the same deltas (to 1e-6 voxels:
 * doubles round at 2e-9 there, over 600 steps), and it stops at the wall
 * at the same place. */
static void walk(long A, double out[][3], int frames)
{
    const int ocx = (int)(A / CHUNK_SIZE) - 2;
    world *w = world_create_at(ocx, ocx, 4, 2, 4);
    assert_non_null(w);
    for (int z = 0; z < 128; z++)
        for (int x = 0; x < 128; x++) {
            world_set(w, ocx * CHUNK_SIZE + x, 10, ocx * CHUNK_SIZE + z, MAT_STONE);
            /* a wall across x = A + 20, two voxels high */
            if (x == 84) world_set(w, ocx * CHUNK_SIZE + x, 11, ocx * CHUNK_SIZE + z, MAT_STONE);
            if (x == 84) world_set(w, ocx * CHUNK_SIZE + x, 12, ocx * CHUNK_SIZE + z, MAT_STONE);
        }
    player p = { .pos = { A + 0.37, 11.2, A + 40.61 }, .yaw = 70 };
    for (int f = 0; f < frames; f++) {
        player_input in = { .forward = 1, .strafe = f % 90 < 30 ? 0.5f : 0, .jump = f % 100 == 50,
                            .sprint = f > 200 };
        player_look(&p, f % 40 < 20 ? 0.4f : -0.4f, 0);
        player_update(&p, w, &in, 1.f / 60.f);
        for (int a = 0; a < 3; a++) out[f][a] = p.pos[a] - (a == 1 ? 0 : (double)A);
    }
    world_destroy(w);
}

static void test_walk_far_matches_origin(void **state)
{
    (void)state;
    enum { FRAMES = 600 };
    static double near[FRAMES][3], far[FRAMES][3];
    walk(0, near, FRAMES);
    walk(FAR, far, FRAMES);
    double worst = 0;
    for (int f = 0; f < FRAMES; f++)
        for (int a = 0; a < 3; a++) worst = fmax(worst, fabs(near[f][a] - far[f][a]));
    printf("walk: at most %.3g voxels apart over %d frames; stopped at x %.6f (origin) %.6f (10^7)\n", worst, FRAMES,
           near[FRAMES - 1][0], far[FRAMES - 1][0]);
    assert_true(worst < 1e-6);
    /* it walked, and the wall stopped it a skin short of x = 20 */
    assert_true(near[FRAMES - 1][0] > 19.0 && near[FRAMES - 1][0] < 20.0 - 0.29);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_far_matches_origin),
        cmocka_unit_test(test_edits_and_picture_far_match_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
