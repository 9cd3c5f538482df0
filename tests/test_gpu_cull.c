/* The GPU path (gfx/gpu_cull, gfx/mesh_arena) of the blocks, smooth and
 * enhanced modes through the running game:
 *  - culled on the GPU, every view of five biomes gives the same picture
 *    byte for byte as the read-back path with culling off, and as the GPU
 *    path with culling off, while the GPU hides cells in every biome, in
 *    every mode (enhanced: its fragments near, its blocks beyond);
 *  - its opaque pass is at most GPU_CULL_RINGS draw calls with no wait for
 *    the GPU, however many chunks are drawn (the read-back path: a draw
 *    call a chunk and a wait a ring);
 *  - where indirect draws are missing (STRATA_GL_NO_INDIRECT=1) a forced
 *    GPU path falls back to the read-back one, the same picture;
 *  - render.gpu_cull 2 draws its first frames the read-back way, then
 *    times both and chooses;
 *  - meshes past a frame's upload budget wait and land later: the same
 *    picture in the end. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/app_internal.h"
#include "app/app_render.h"
#include "app/app_stream.h"
#include "gfx/gpu_cull.h"
#include "gfx/occlusion_judge.h"
#include "gfx/enhance_view.h"
#include "gfx/renderer.h"
#include "gfx/smooth_mode.h"
#include "gfx/smooth_renderer.h"
#include "ui/cmd.h"

/* the mode a test runs in (test_*_smooth: smooth, else blocks) */
static const char *mode = "blocks";

static app *open_app(int w, int h)
{
    app_desc d = { .headless = true, .width = w, .height = h };
    app *a = app_create(&d);
    if (!a) fail_msg("no app: a GL context or the assets are missing");
    /* the culling itself: no timing decides anything in these pictures;
     * smooth mode meshed by the CPU workers, its chunks in the arena */
    assert_int_equal(cmd_exec("set render.occlusion_judge 0; set tool.visible 0; set render.gpu 0"), 0);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "set render.mode %s", mode);
    assert_int_equal(cmd_exec(cmd), 0);
    return a;
}

/* The counts and verdicts of the mode's GPU cull. */
static gpu_cull_counts mode_counts(app *a, int *verdicts, bool *gpu)
{
    const render_mode *m;
    void *inst = app_render_instance(a, &m);
    if (m == &smooth_render_mode) return smooth_renderer_gpu_counts(smooth_mode_renderer(inst), verdicts, gpu);
    if (!strcmp(m->name, "enhanced")) { /* the fragments' counts and the blocks' beyond, of one frame */
        gpu_cull_counts far, near = enhance_view_gpu_counts(inst, verdicts, gpu, &far);
        near.triangles += far.triangles, near.tested += far.tested;
        near.hidden += far.hidden, near.outside += far.outside;
        return near;
    }
    assert_true(m == &renderer_blocks_mode);
    return renderer_gpu_counts(inst, verdicts, gpu);
}

static gpu_cull_counts counts(app *a) { return mode_counts(a, NULL, NULL); }

static long differ(const unsigned char *x, const unsigned char *y, int w, int h)
{
    long d = 0;
    for (long i = 0; i < (long)w * h; i++) d += memcmp(x + 3 * i, y + 3 * i, 3) != 0;
    return d;
}

/* Frames until two pictures a few frames apart are the same (the smooth
 * mode's last chunks and the far field's edge settle after `stream wait`). */
static void settle(void)
{
    int w, h, w1, h1;
    unsigned char *last = test_screenshot_rgb("gpu_cull.png", &w, &h);
    for (int k = 0; k < 60; k++) {
        assert_int_equal(cmd_exec("frames 4"), 0);
        unsigned char *now = test_screenshot_rgb("gpu_cull.png", &w1, &h1);
        const bool same = memcmp(last, now, 3 * (size_t)w * (size_t)h) == 0;
        free(last);
        last = now;
        if (same) break;
        assert_true(k < 59);
    }
    free(last);
}

/* The picture of the current view under `settings`, with its stats. */
static unsigned char *picture(app *a, const char *settings, int *w, int *h, render_stats *st)
{
    assert_int_equal(cmd_exec(settings), 0);
    unsigned char *px = test_screenshot_rgb("gpu_cull.png", w, h);
    *st = a->stats;
    return px;
}

static void same_picture(const char *m, const char *const *biomes, size_t nbiomes)
{
    mode = m;
    static const char *looks[] = { "", "look 0 0", "look 100 -8", "look 190 4", "look 280 -35", "look 45 60" };
    app *a = open_app(320, 180);
    for (size_t b = 0; b < nbiomes; b++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "biome %s", biomes[b]);
        assert_int_equal(cmd_exec(cmd), 0);
        if (app_stream(a)) assert_int_equal(cmd_exec("stream wait"), 0); /* (formula is finite) */
        int hidden = 0;
        long tri_off = 0, tri_on = 0;
        for (size_t l = 0; l < sizeof looks / sizeof *looks; l++) {
            if (*looks[l]) assert_int_equal(cmd_exec(looks[l]), 0);
            assert_int_equal(cmd_exec("set render.gpu_cull 0; set render.occlusion 0"), 0);
            settle();
            int w0, h0, w1, h1, w2, h2;
            render_stats s0, s1, s2;
            unsigned char *ref = picture(a, "set render.gpu_cull 0; set render.occlusion 0", &w0, &h0, &s0);
            unsigned char *off = picture(a, "set render.gpu_cull 1", &w1, &h1, &s1);
            unsigned char *on = picture(a, "set render.occlusion 1", &w2, &h2, &s2);
            assert_int_equal(cmd_exec("frames 3"), 0); /* the counts of frames drawn as `on` come back */
            const gpu_cull_counts c = counts(a);
            assert_true(w0 == w1 && w1 == w2 && h0 == h1 && h1 == h2);
            assert_false(s0.gpu_cull);
            assert_true(s1.gpu_cull && s2.gpu_cull);
            const long d_off = differ(ref, off, w0, h0), d_on = differ(ref, on, w0, h0);
            if (d_off || d_on)
                printf("%s view %zu: %ld pixels differ culling off, %ld culling on the GPU\n", biomes[b], l, d_off, d_on);
            assert_int_equal(d_off, 0);
            assert_int_equal(d_on, 0);
            tri_off += s0.triangles, tri_on += c.triangles;
            hidden += c.hidden + c.outside;
            free(ref), free(off), free(on);
        }
        printf("%s mode, %s: triangles %ld (read-back path, no culling) -> %ld (GPU cull), %d cells culled\n", mode,
               biomes[b], tri_off, tri_on, hidden);
        assert_true(hidden > 0);
        assert_true(tri_on < tri_off);
    }
    app_destroy(a);
}

static const char *const open_biomes[] = { "hills", "desert", "formula" }, *const forests[] = { "taiga", "deciduous" };

static void test_same_picture(void **state)
{
    (void)state;
    static const char *const all[] = { "hills", "desert", "taiga", "deciduous", "formula" };
    same_picture("blocks", all, 5);
}

static void test_same_picture_smooth(void **state)
{
    (void)state;
    same_picture("smooth", open_biomes, 3);
}

static void test_same_picture_smooth_forests(void **state)
{
    (void)state;
    same_picture("smooth", forests, 2);
}

static void test_same_picture_enhanced(void **state)
{
    (void)state;
    static const char *const some[] = { "hills", "taiga" };
    same_picture("enhanced", some, 2);
}

/* A wide view of many chunks: the GPU path's opaque pass stays within
 * its rings' draw calls and waits for nothing. */
static void draw_calls(const char *m)
{
    mode = m;
    app *a = open_app(256, 144);
    assert_int_equal(cmd_exec("biome deciduous; set view.distance 256; stream wait; look 100 -8"), 0);
    assert_int_equal(cmd_exec("set render.gpu_cull 0; frames 2"), 0);
    const render_stats cpu = a->stats;
    assert_int_equal(cmd_exec("set render.gpu_cull 1; frames 2"), 0);
    const render_stats gpu = a->stats;
    printf("%s mode: read-back path: %d chunks, %d draw calls, %d waits; GPU path: %d chunks, %d draw calls, %d waits\n",
           mode, cpu.chunks_drawn, cpu.draw_calls, cpu.gpu_waits, gpu.chunks_drawn, gpu.draw_calls, gpu.gpu_waits);
    assert_false(cpu.gpu_cull);
    assert_true(cpu.draw_calls > GPU_CULL_RINGS);
    assert_true(cpu.gpu_waits > 0);
    assert_true(gpu.gpu_cull);
    assert_true(gpu.chunks_drawn > 40);
    /* (enhanced: the fragments' rings, then the blocks') */
    const int most = strcmp(mode, "enhanced") ? GPU_CULL_RINGS : 2 * GPU_CULL_RINGS;
    assert_true(gpu.draw_calls >= 1 && gpu.draw_calls <= most);
    assert_int_equal(gpu.gpu_waits, 0);
    /* culling off: one ring, one draw (enhanced: one each) */
    assert_int_equal(cmd_exec("set render.occlusion 0; frames 1"), 0);
    assert_int_equal(a->stats.draw_calls, most / GPU_CULL_RINGS);
    app_destroy(a);
}

static void test_draw_calls(void **state)
{
    (void)state;
    draw_calls("blocks");
}

static void test_draw_calls_smooth(void **state)
{
    (void)state;
    draw_calls("smooth");
}

static void test_draw_calls_enhanced(void **state)
{
    (void)state;
    draw_calls("enhanced");
}

/* Indirect draws "missing": the forced GPU path falls back, same picture. */
static void fallback(const char *m)
{
    mode = m;
    setenv("STRATA_GL_NO_INDIRECT", "1", 1);
    app *a = open_app(320, 180);
    assert_int_equal(cmd_exec("biome taiga; stream wait; look 100 -8"), 0);
    int w0, h0, w1, h1;
    render_stats s0, s1;
    unsigned char *ref = picture(a, "set render.gpu_cull 0; set render.occlusion 0", &w0, &h0, &s0);
    unsigned char *px = picture(a, "set render.gpu_cull 1; set render.occlusion 1", &w1, &h1, &s1);
    assert_false(s1.gpu_cull);
    assert_true(s1.draw_calls > 0 && s1.triangles > 0);
    assert_int_equal(differ(ref, px, w0, h0), 0);
    free(ref), free(px);
    app_destroy(a);
    unsetenv("STRATA_GL_NO_INDIRECT");
}

static void test_fallback(void **state)
{
    (void)state;
    fallback("blocks");
}

static void test_fallback_smooth(void **state)
{
    (void)state;
    fallback("smooth");
}

static void test_fallback_enhanced(void **state)
{
    (void)state;
    fallback("enhanced");
}

/* render.gpu_cull 2: the read-back path for the first frames (scripts and
 * tests of a few frames draw as they did), then a trial and a verdict. */
static void probe(const char *m)
{
    mode = m;
    app *a = open_app(160, 90);
    assert_int_equal(cmd_exec("biome hills; stream wait; set render.gpu_cull 0; frames 1; set render.gpu_cull 2"), 0);
    int verdicts = -1, gpu_frames = 0;
    for (int f = 0; f < JUDGE_FIRST + JUDGE_TRIAL; f++) {
        assert_int_equal(cmd_exec("frames 1"), 0);
        assert_false(a->stats.gpu_cull);
    }
    mode_counts(a, &verdicts, NULL);
    assert_int_equal(verdicts, 0);
    for (int f = 0; f < 2 * JUDGE_TRIAL; f++) {
        assert_int_equal(cmd_exec("frames 1"), 0);
        gpu_frames += a->stats.gpu_cull;
    }
    bool gpu = false;
    mode_counts(a, &verdicts, &gpu);
    printf("%s mode: probe: %d frames of %d on the GPU path, verdict %s\n", mode, gpu_frames, 2 * JUDGE_TRIAL, gpu ? "GPU" : "read-back");
    assert_int_equal(verdicts, 1);
    assert_true(gpu_frames >= JUDGE_TRIAL / 2); /* the trial's half, and the verdict's frames if it chose the GPU */
    assert_int_equal(cmd_exec("frames 1"), 0);
    assert_int_equal(a->stats.gpu_cull, gpu);
    app_destroy(a);
}

static void test_probe(void **state)
{
    (void)state;
    probe("blocks");
}

static void test_probe_smooth(void **state)
{
    (void)state;
    probe("smooth");
}

static void test_probe_enhanced(void **state)
{
    (void)state;
    probe("enhanced");
}

/* An edit in a world whose frames land 1 KiB of meshes each: the meshes
 * wait (the old ones drawn meanwhile), land over the next frames, and the
 * picture ends as with no budget. */
static unsigned char *cut_and_settle(const char *budget, int *w, int *h, int *most_pending)
{
    app *a = open_app(160, 90);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "set render.upload_budget %s; biome formula; look 30 -40; frames 2", budget);
    assert_int_equal(cmd_exec(cmd), 0);
    unsigned char *before = test_screenshot_rgb("gpu_cull_before.png", w, h);
    assert_int_equal(cmd_exec("+cut; frames 3; -cut"), 0);
    *most_pending = 0;
    int f = 0;
    for (; f < 200; f++) {
        assert_int_equal(cmd_exec("frames 1"), 0);
        if (a->stats.arena_pending > *most_pending) *most_pending = a->stats.arena_pending;
        if (a->stats.arena_pending == 0 && a->w->dirty_count == 0 && f > 3) break;
    }
    assert_true(f < 200);
    unsigned char *after = test_screenshot_rgb("gpu_cull_after.png", w, h);
    assert_true(differ(before, after, *w, *h) > 0); /* the cut shows */
    free(before);
    app_destroy(a);
    return after;
}

static void upload_budget(const char *m)
{
    mode = m;
    int w0, h0, w1, h1, p0, p1;
    unsigned char *all = cut_and_settle("0", &w0, &h0, &p0);
    unsigned char *few = cut_and_settle("1", &w1, &h1, &p1);
    printf("%s mode: uploads waiting: at most %d with no budget, %d with 1 KiB a frame\n", mode, p0, p1);
    assert_int_equal(p0, 0);
    assert_true(p1 > 0);
    assert_int_equal(differ(all, few, w0, h0), 0);
    free(all), free(few);
}

static void test_upload_budget(void **state)
{
    (void)state;
    upload_budget("blocks");
}

static void test_upload_budget_smooth(void **state)
{
    (void)state;
    upload_budget("smooth");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* run in five shards (every fifth test), so that each stays well under a minute */
        cmocka_unit_test(test_same_picture_smooth),
        cmocka_unit_test(test_same_picture_smooth_forests),
        cmocka_unit_test(test_same_picture),
        cmocka_unit_test(test_same_picture_enhanced),
        cmocka_unit_test(test_draw_calls_smooth),
        cmocka_unit_test(test_draw_calls),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_probe_smooth),
        cmocka_unit_test(test_upload_budget),
        cmocka_unit_test(test_upload_budget_smooth),
        cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_fallback_smooth),
        cmocka_unit_test(test_draw_calls_enhanced),
        cmocka_unit_test(test_probe_enhanced),
        cmocka_unit_test(test_fallback_enhanced),
    };
    if (getenv("STRATA_TEST_FILTER")) cmocka_set_test_filter(getenv("STRATA_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
