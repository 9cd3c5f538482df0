/* Occlusion culling (gfx/occlusion) never drops a visible chunk:
 *  - the box test is sound: whenever it calls a box hidden, every point
 *    sampled inside the box projects onto a pixel whose depth is nearer
 *    (random depth images, random boxes, random cameras);
 *  - a hole of one pixel in an occluding wall keeps what lies behind it;
 *  - the compute shader's tiles (gfx/occlusion_gpu) are the CPU
 *    reference's on the same depth, the game's own frames, to one
 *    conversion's rounding;
 *  - through the real game, every biome in every render mode gives the same
 *    picture byte for byte with render.occlusion on and off, from views
 *    around the spawn, while chunks are culled and triangles fall;
 *  - adaptive rings: a view whose reads hide nothing stops reading (but
 *    for a probe now and then), one whose reads hide much reads every
 *    frame, and turning from the first to the second brings the reads
 *    back within a probe's wait (the pictures above are drawn with it on);
 *  - the spawn views of the frame benchmarks stay within the triangle
 *    budget (45,000 at 1280x720). */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glad/gl.h>

#include "app/app.h"
#include "app/app_internal.h"
#include "app/app_render.h"
#include "core/rng.h"
#include "gfx/occlusion.h"
#include "gfx/occlusion_judge.h"
#include "gfx/occlusion_gpu.h"
#include "gfx/shader.h"
#include "ui/cmd.h"

static float frand(rng *s, float lo, float hi) { return lo + (hi - lo) * (float)rng_double(s); }

static void camera_at(camera *c, float aspect, float x, float y, float z, float yaw, float pitch)
{
    memset(c, 0, sizeof *c);
    c->pos[0] = x, c->pos[1] = y, c->pos[2] = z, c->yaw = yaw, c->pitch = pitch;
    c->fov = 70.f, c->aspect = aspect, c->znear = 0.1f, c->zfar = 1000.f;
    camera_update(c);
}

/* The tiles of a depth image in window z, read as the game reads it (in
 * integers, occlusion_depth_z), rounded up: a tile never nearer than a
 * pixel of the image. */
static bool build_from_z(occlusion_tiles *t, const float *depth, int w, int h)
{
    uint32_t *d = malloc(sizeof *d * (size_t)w * (size_t)h);
    assert_non_null(d);
    for (int i = 0; i < w * h; i++) /* a depth buffer holds [0, 1]; the random images stray past 1 */
        d[i] = depth[i] >= 1.f ? UINT32_MAX : depth[i] <= 0.f ? 0 : (uint32_t)ceil((double)depth[i] * 4294967295.0);
    bool ok = occlusion_tiles_build(t, d, w, h);
    free(d);
    return ok;
}

/* Each tile holds exactly the farthest depth of its pixels, whatever the
 * image's size: whole tiles and the narrower ones at the right and top
 * edges, against a pixel-by-pixel maximum. */
static void test_tiles_exact(void **state)
{
    (void)state;
    static const int sizes[][2] = { { 96, 64 }, { 101, 67 }, { 7, 5 }, { 8, 1 }, { 1283, 717 } };
    rng seed = rng_make(777);
    occlusion_tiles t = { 0 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const int w = sizes[s][0], h = sizes[s][1];
        uint32_t *depth = malloc(sizeof *depth * (size_t)w * (size_t)h);
        assert_non_null(depth);
        for (int i = 0; i < w * h; i++)
            depth[i] = rng_double(&seed) < 0.01 ? UINT32_MAX : (uint32_t)(rng_double(&seed) * 4294967295.0);
        assert_true(occlusion_tiles_build(&t, depth, w, h));
        assert_int_equal(t.tw, (w + OCCLUSION_TILE - 1) / OCCLUSION_TILE);
        assert_int_equal(t.th, (h + OCCLUSION_TILE - 1) / OCCLUSION_TILE);
        for (int ty = 0; ty < t.th; ty++)
            for (int tx = 0; tx < t.tw; tx++) {
                uint32_t m = 0;
                for (int y = ty * OCCLUSION_TILE; y < h && y < (ty + 1) * OCCLUSION_TILE; y++)
                    for (int x = tx * OCCLUSION_TILE; x < w && x < (tx + 1) * OCCLUSION_TILE; x++)
                        m = depth[y * w + x] > m ? depth[y * w + x] : m;
                assert_true(t.far[ty * t.tw + tx] == occlusion_depth_z(m));
            }
        free(depth);
    }
    occlusion_tiles_free(&t);
}

static void test_box_sound_random(void **state)
{
    (void)state;
    enum { W = 96, H = 64 };
    static float depth[W * H];
    occlusion_tiles t = { 0 };
    rng seed = rng_make(12345);
    int hidden = 0, kept = 0;
    for (int round = 0; round < 400; round++) {
        camera cam;
        float x = frand(&seed, -5, 5), y = frand(&seed, -5, 5), z = frand(&seed, -5, 5);
        camera_at(&cam, (float)W / H, x, y, z, frand(&seed, 0, 360), frand(&seed, -60, 60));
        /* a random depth image: blocks of walls at random depths, some sky */
        for (int by = 0; by < H; by += 8)
            for (int bx = 0; bx < W; bx += 8) {
                float d = rng_double(&seed) < 0.2 ? 1.f : frand(&seed, 0.9f, 0.9999f);
                for (int py = by; py < by + 8; py++)
                    for (int px = bx; px < bx + 8; px++) depth[py * W + px] = d + frand(&seed, 0.f, 1e-5f);
            }
        assert_true(build_from_z(&t, depth, W, H));
        for (int b = 0; b < 50; b++) {
            float lo[3], hi[3];
            for (int k = 0; k < 3; k++) {
                lo[k] = frand(&seed, -80, 80);
                hi[k] = lo[k] + frand(&seed, 0.5f, 20);
            }
            if (!occlusion_box_hidden(&t, (const float *)cam.viewproj, lo, hi)) {
                kept++;
                continue;
            }
            hidden++;
            for (int s = 0; s < 200; s++) { /* every point inside lies behind its pixel */
                vec4 p = { frand(&seed, lo[0], hi[0]), frand(&seed, lo[1], hi[1]), frand(&seed, lo[2], hi[2]), 1 }, q;
                glm_mat4_mulv(cam.viewproj, p, q);
                assert_true(q[3] > 0.f);
                float sx = (q[0] / q[3] * 0.5f + 0.5f) * W, sy = (q[1] / q[3] * 0.5f + 0.5f) * H;
                if (sx < 0 || sy < 0 || sx >= W || sy >= H) continue;
                float pz = q[2] / q[3] * 0.5f + 0.5f;
                assert_true(depth[(int)sy * W + (int)sx] < pz);
            }
        }
    }
    occlusion_tiles_free(&t);
    printf("random boxes: %d hidden, %d kept\n", hidden, kept);
    assert_true(hidden > 100 && kept > 100); /* both answers were exercised */
}

static void test_hole_keeps(void **state)
{
    (void)state;
    enum { W = 64, H = 64 };
    static float depth[W * H];
    camera cam;
    camera_at(&cam, 1.f, 0, 0, 0, 30, 10);
    /* a box 50 units straight ahead */
    vec3 f;
    camera_forward(cam.yaw, cam.pitch, f);
    const float c[3] = { f[0] * 50, f[1] * 50, f[2] * 50 };
    const float lo[3] = { c[0] - 1, c[1] - 1, c[2] - 1 }, hi[3] = { c[0] + 1, c[1] + 1, c[2] + 1 };
    vec4 p = { c[0], c[1], c[2], 1 }, q;
    glm_mat4_mulv(cam.viewproj, p, q);
    float zbox = q[2] / q[3] * 0.5f + 0.5f;
    /* a wall nearer than the box over the whole screen: hidden */
    vec4 pw = { f[0] * 10, f[1] * 10, f[2] * 10, 1 };
    glm_mat4_mulv(cam.viewproj, pw, q);
    float zwall = q[2] / q[3] * 0.5f + 0.5f;
    assert_true(zwall < zbox);
    for (int i = 0; i < W * H; i++) depth[i] = zwall;
    occlusion_tiles t = { 0 };
    assert_true(build_from_z(&t, depth, W, H));
    assert_true(occlusion_box_hidden(&t, (const float *)cam.viewproj, lo, hi));
    /* one pixel of sky at the centre, where the box shows: kept */
    depth[(H / 2) * W + W / 2] = 1.f;
    assert_true(build_from_z(&t, depth, W, H));
    assert_false(occlusion_box_hidden(&t, (const float *)cam.viewproj, lo, hi));
    /* a box around the eye reaches the near plane: never hidden */
    for (int i = 0; i < W * H; i++) depth[i] = 0.f;
    assert_true(build_from_z(&t, depth, W, H));
    const float elo[3] = { -1, -1, -1 }, ehi[3] = { 1, 1, 1 };
    assert_false(occlusion_box_hidden(&t, (const float *)cam.viewproj, elo, ehi));
    occlusion_tiles_free(&t);
}

/* ---- through the game ------------------------------------------------- */

/* The depth of the frame just drawn, tiled both ways; returns how many
 * tiles differ by more than a conversion's rounding (the shader reads
 * 24-bit depth as a float, the CPU as 32-bit integers), and adds the
 * tiles to *tiles and those nearer than the far plane to *near. */
static int tiles_both_ways(occlusion_gpu *g, int w, int h, int *tiles, int *near)
{
    occlusion_tiles cpu = { 0 }, gpu = { 0 };
    uint32_t *d = malloc(sizeof *d * (size_t)w * (size_t)h);
    assert_non_null(d);
    GLint fb = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &fb);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, w, h, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, d);
    assert_true(occlusion_tiles_build(&cpu, d, w, h));
    char err[256] = "";
    if (!occlusion_gpu_tiles(g, (unsigned)fb, w, h, &gpu, err, sizeof err)) fail_msg("occlusion_gpu_tiles: %s", err);
    assert_int_equal(gpu.tw, cpu.tw);
    assert_int_equal(gpu.th, cpu.th);
    int differ = 0;
    *tiles += cpu.tw * cpu.th;
    for (int i = 0; i < cpu.tw * cpu.th; i++) {
        if (fabsf(gpu.far[i] - cpu.far[i]) > 2.5e-7f) {
            if (differ < 5) printf("tile %d (%d, %d): gpu %.9f, cpu %.9f\n", i, i % cpu.tw, i / cpu.tw, gpu.far[i], cpu.far[i]);
            differ++;
        }
        *near += cpu.far[i] < 1.f;
    }
    occlusion_tiles_free(&cpu);
    occlusion_tiles_free(&gpu);
    free(d);
    return differ;
}

typedef struct view_sum {
    long tri_off, tri_on;
    int occluded;
} view_sum;

/* The current view with occlusion off and on: the same bytes. */
static void compare_view(app *a, const char *what, view_sum *sum)
{
    int w0, h0, w1, h1;
    cmd_exec("set render.occlusion 0");
    unsigned char *off = test_screenshot_rgb("occlusion_off.png", &w0, &h0);
    long tri_off = a->stats.triangles;
    cmd_exec("set render.occlusion 1");
    unsigned char *on = test_screenshot_rgb("occlusion_on.png", &w1, &h1);
    assert_int_equal(w0, w1);
    assert_int_equal(h0, h1);
    long differ = 0;
    for (long i = 0; i < (long)w0 * h0; i++) differ += memcmp(off + 3 * i, on + 3 * i, 3) != 0;
    if (differ) printf("%s: %ld pixels differ with occlusion culling\n", what, differ);
    assert_int_equal(differ, 0);
    assert_true(a->stats.triangles <= tri_off);
    sum->tri_off += tri_off, sum->tri_on += a->stats.triangles, sum->occluded += a->stats.chunks_occluded;
    free(off);
    free(on);
}

static app *open_app(int w, int h)
{
    app_desc d = { .headless = true, .width = w, .height = h };
    app *a = app_create(&d);
    if (!a) fail_msg("no app: a GL context or the assets are missing");
    /* the culling itself, not whether it pays on this machine (the judge
     * has its own test below) */
    assert_int_equal(cmd_exec("set render.occlusion_judge 0"), 0);
    /* the read-back path (tests/test_gpu_cull.c has the GPU's) */
    assert_int_equal(cmd_exec("set render.gpu_cull 0"), 0);
    return a;
}

static void test_same_picture(void **state)
{
    (void)state;
    static const char *biomes[] = { "hills", "desert", "taiga", "deciduous", "formula" };
    static const char *modes[] = { "blocks", "smooth", "enhanced" };
    static const char *looks[] = { "", "look 0 0", "look 100 -8", "look 190 4", "look 280 -35", "look 45 60" };
    app *a = open_app(320, 180);
    /* the CPU smooth path: the compute path's triangles stay on the GPU */
    assert_int_equal(cmd_exec("set render.gpu 0; set tool.visible 0"), 0);
    for (size_t b = 0; b < sizeof biomes / sizeof *biomes; b++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "biome %s", biomes[b]);
        assert_int_equal(cmd_exec(cmd), 0);
        for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
            snprintf(cmd, sizeof cmd, "set render.mode %s", modes[m]);
            assert_int_equal(cmd_exec(cmd), 0);
            view_sum sum = { 0 };
            for (size_t l = 0; l < sizeof looks / sizeof *looks; l++) {
                if (*looks[l]) assert_int_equal(cmd_exec(looks[l]), 0);
                char what[128];
                snprintf(what, sizeof what, "%s %s view %zu", biomes[b], modes[m], l);
                compare_view(a, what, &sum);
            }
            printf("%s %s: triangles %ld -> %ld, %d chunks culled\n", biomes[b], modes[m], sum.tri_off, sum.tri_on,
                   sum.occluded);
            /* culling does something in every biome and mode */
            assert_true(sum.occluded > 0);
            assert_true(sum.tri_on < sum.tri_off);
        }
        assert_int_equal(cmd_exec("set render.mode blocks"), 0);
    }
    app_destroy(a);
}

/* The game's frames, tiled by the shader and by the CPU: the same tiles.
 * 317 x 181 pixels leave a narrower last column and row of tiles. */
static void test_gpu_tiles_match(void **state)
{
    (void)state;
    app *a = open_app(317, 181);
    if (!shader_compute_supported()) {
        app_destroy(a);
        skip();
    }
    char err[256] = "";
    occlusion_gpu *g = occlusion_gpu_create(err, sizeof err);
    if (!g) fail_msg("occlusion_gpu_create: %s", err);
    static const char *views[] = { "biome hills", "look 100 -8", "biome taiga", "look 280 -35", "biome deciduous",
                                   "set render.mode smooth", "look 45 60" };
    int near = 0, tiles = 0;
    for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
        assert_int_equal(cmd_exec(views[v]), 0);
        assert_int_equal(cmd_exec("frames 1"), 0);
        assert_int_equal(tiles_both_ways(g, 317, 181, &tiles, &near), 0);
    }
    /* the views show ground and sky: the tiles hold more than one value */
    printf("%d of %d tiles nearer than the far plane\n", near, tiles);
    assert_true(near > tiles / 4 && near < tiles);
    occlusion_gpu_destroy(g);
    app_destroy(a);
}

/* reads and skipped rings over n frames of the current view */
static void count_reads(app *a, int n, int *reads, int *skipped)
{
    *reads = *skipped = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(cmd_exec("frames 1"), 0);
        occlusion_stats os = app_render_occlusion_stats(a);
        *reads += os.reads, *skipped += os.skipped;
    }
}

static void test_adaptive_rings(void **state)
{
    (void)state;
    app *a = open_app(320, 180);
    int reads, skipped;
    /* the forest from the ground: its rings hide most of what they test */
    assert_int_equal(cmd_exec("biome deciduous; look 100 -8; frames 10"), 0); /* everything meshed */
    count_reads(a, 20, &reads, &skipped);
    printf("forest: %d reads, %d skipped in 20 frames\n", reads, skipped);
    assert_int_equal(skipped, 0);
    const int rings = reads / 20; /* those the view reaches (the world's edge may stop it short of three) */
    assert_true(rings >= 2);
    assert_int_equal(reads, 20 * rings);
    char back[128]; /* the same spot and view again, later */
    snprintf(back, sizeof back, "tp %.3f %.3f %.3f; look 100 -8", a->pl.pos[0], a->pl.pos[1], a->pl.pos[2]);
    /* from high above, looking at the horizon: the reads hide nothing */
    assert_int_equal(cmd_exec("set player.fly 1; tp 64 180 64; look 45 -5; frames 8"), 0);
    count_reads(a, 64, &reads, &skipped);
    printf("above: %d reads, %d skipped in 64 frames\n", reads, skipped);
    assert_true(skipped > 0);
    assert_true(reads > 0 && reads <= 12); /* a few probes */
    assert_int_equal(cmd_exec("set render.occlusion_adaptive 0"), 0);
    count_reads(a, 4, &reads, &skipped);
    assert_int_equal(skipped, 0);
    assert_true(reads >= 4);
    assert_int_equal(cmd_exec("set render.occlusion_adaptive 1"), 0);
    count_reads(a, 64, &reads, &skipped); /* back to waiting */
    /* down into the forest again (its new view: the rings read at once,
     * at the latest within a probe's longest wait), then every frame */
    assert_int_equal(cmd_exec(back), 0);
    int frames = 0;
    for (; frames < 135; frames++) { /* 128 frames, the longest wait, and a frame a ring */
        count_reads(a, 1, &reads, &skipped);
        if (reads > 0 && skipped == 0) break;
    }
    printf("back in the forest: all rings read after %d frames\n", frames + 1);
    assert_true(frames < 135);
    count_reads(a, 10, &reads, &skipped);
    assert_int_equal(skipped, 0);
    assert_true(reads >= 10 * rings);
    app_destroy(a);
}

/* The judge in the running game: it reads as before for its first
 * frames, then tries blocks of frames without reads (which still cull
 * against the frustum and read nothing), then gives a verdict; `stats`
 * says it. Which way the verdict goes is this machine's timing, tested
 * with made-up times in test_occlusion_judge. */
static void test_judge_in_game(void **state)
{
    (void)state;
    app *a = open_app(320, 180);
    assert_int_equal(cmd_exec("biome deciduous; look 100 -8; frames 10"), 0); /* rings read every frame here */
    assert_int_equal(cmd_exec("set render.occlusion_judge 1"), 0);
    int reads, skipped, off = 0;
    for (int i = 0; i < JUDGE_FIRST; i++) {
        count_reads(a, 1, &reads, &skipped);
        assert_true(reads > 0);
        assert_false(app_render_occlusion_stats(a).judged_off);
    }
    int verdicts = -1;
    app_render_occlusion_judge(a, &verdicts, NULL);
    assert_int_equal(verdicts, 0);
    for (int i = 0; i < JUDGE_TRIAL; i++) {
        count_reads(a, 1, &reads, &skipped);
        const occlusion_stats os = app_render_occlusion_stats(a);
        bool judged_off = os.judged_off;
        assert_int_equal(judged_off, (i / JUDGE_BLOCK) % 2 == 1);
        assert_true(judged_off ? reads == 0 : reads > 0);
        /* without reads, the parts outside the frustum are still left out */
        assert_true(os.outside > 0);
        off += judged_off;
    }
    assert_int_equal(off, JUDGE_TRIAL / 2);
    count_reads(a, 1, &reads, &skipped);
    app_render_occlusion_judge(a, &verdicts, NULL);
    assert_int_equal(verdicts, 1);
    assert_int_equal(cmd_exec("stats"), 0);
    app_destroy(a);
}

/* The triangle budget, on the frame benchmarks' spawn views (bench/bench_frame.c). */
static void test_spawn_budget(void **state)
{
    (void)state;
    static const char *views[] = {
        "biome hills", "biome desert", "biome taiga", "biome deciduous", "biome formula",
        "biome desert; set player.fly 1; tp 256 200 256; look 45 -45; stream wait",
        "biome hills; set render.mode smooth", "biome desert; set render.mode smooth",
        "biome taiga; set render.mode smooth", "biome hills; set render.mode enhanced",
    };
    for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
        app *a = open_app(1280, 720);
        assert_int_equal(cmd_exec("set render.gpu 0"), 0);
        assert_int_equal(cmd_exec(views[v]), 0);
        assert_int_equal(cmd_exec("frames 1"), 0);
        printf("%s: %ld triangles, %d chunks culled\n", views[v], a->stats.triangles, a->stats.chunks_occluded);
        assert_true(a->stats.triangles <= 45000);
        app_destroy(a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiles_exact),
        cmocka_unit_test(test_box_sound_random),
        cmocka_unit_test(test_hole_keeps),
        cmocka_unit_test(test_gpu_tiles_match),
        cmocka_unit_test(test_same_picture),
        cmocka_unit_test(test_adaptive_rings),
        cmocka_unit_test(test_judge_in_game),
        cmocka_unit_test(test_spawn_budget),
    };
    /* STRATA_TEST_FILTER=test_spawn_budget runs one test */
    if (getenv("STRATA_TEST_FILTER")) cmocka_set_test_filter(getenv("STRATA_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
