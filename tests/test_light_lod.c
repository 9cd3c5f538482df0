/* Every face reads its own light, at every level of detail: pictures of the
 * running game (headless, 1280x720) measured against the same view with
 * every chunk drawn fine. A coarse face (mesh_lod.h) stands up to a voxel
 * off the real surface, where the bake stores no light; read as dark, far
 * steps were drawn in black ink. Measured: near-black pixels (grey under
 * 6 %) and dim pixels (light under half) in the coarse band (what lies
 * beyond the levels' distance and before the fog), in blocks, smooth and
 * enhanced modes, with far rings out, so the fog does not hide the band.
 *
 * One biome an entry (ctest test_light_lod_BIOME; the bare entry runs
 * hills): `test_light_lod desert` runs the desert's. */
#include "test_support.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/app_internal.h"
#include "gfx/screenshot.h"
#include "platform/platform.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

#define W 1280
#define H 720

typedef struct picture {
    uint8_t *rgba; /* W x H, as screenshot_read gives it */
    float *dist;   /* distance on the map (x, z) from the eye to what each pixel shows */
} picture;

static app *g_app;
static const char *g_biome = "hills";

static void run(const char *cmd)
{
    if (cmd_exec(cmd) != 0) fail_msg("command failed: %s", cmd);
}

static picture shoot(void)
{
    run("frames 3");
    picture p = { screenshot_read(platform_framebuffer(g_app->plat), W, H), malloc(sizeof(float) * W * H) };
    assert_non_null(p.rgba);
    assert_non_null(p.dist);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, platform_framebuffer(g_app->plat));
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, W, H, GL_DEPTH_COMPONENT, GL_FLOAT, p.dist);
    /* glReadPixels gives the bottom row first, screenshot_read the top:
     * turn the depths over so that dist[i] is the distance of rgba's pixel i */
    for (int y = 0; y < H / 2; y++)
        for (int x = 0; x < W; x++) {
            float t = p.dist[y * W + x];
            p.dist[y * W + x] = p.dist[(H - 1 - y) * W + x];
            p.dist[(H - 1 - y) * W + x] = t;
        }
    /* depth -> the point in the eye's frame -> its distance on the map, the
     * distance the levels of detail and the fog go by (y counts rows from
     * the bottom, as the eye's frame does) */
    const camera *c = &g_app->cam;
    const float n = c->znear, f = c->zfar, t = tanf(c->fov * 0.5f * 3.14159265f / 180.f);
    const float sp = sinf(c->pitch * 3.14159265f / 180.f), cp = cosf(c->pitch * 3.14159265f / 180.f);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float *d = &p.dist[y * W + x];
            if (*d >= 1.f) {
                *d = INFINITY;
                continue;
            }
            float zn = 2.f * *d - 1.f, ahead = 2.f * n * f / (f + n - zn * (f - n));
            float right = ((2.f * (x + 0.5f) / W) - 1.f) * t * c->aspect * ahead;
            float up = ((2.f * (H - 1 - y + 0.5f) / H) - 1.f) * t * ahead;
            float fwd = ahead * cp - up * sp;
            *d = sqrtf(fwd * fwd + right * right);
        }
    return p;
}

static void picture_free(picture *p)
{
    free(p->rgba);
    free(p->dist);
}

static double grey(const uint8_t *px) { return (px[0] + px[1] + px[2]) / 3.0; }

static long near_black(const picture *p)
{
    long n = 0;
    for (int i = 0; i < W * H; i++) n += grey(p->rgba + 4 * i) < 0.06 * 255.0;
    return n;
}

static int setup(void **state)
{
    (void)state;
    app_desc d = { .headless = true, .width = W, .height = H };
    g_app = app_create(&d);
    if (!g_app) return -1;
    /* the CPU smooth path (its levels of detail), no ghost over the view;
     * far rings out to 2048, so the fog lies beyond the near field and its
     * coarse levels are seen clear to its edge */
    run("set render.gpu 0; set tool.visible 0; set render.occlusion_judge 0; set view.far 2048");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    app_destroy(g_app);
    return 0;
}

/* The README's hills picture: far steps are lit, not drawn black. */
static void test_readme_hills(void **state)
{
    (void)state;
    run("biome hills; set render.mode blocks; tp 200 90 300; stream wait; look 60 -18");
    picture p = shoot();
    long nb = near_black(&p);
    printf("README hills view: %ld near-black pixels\n", nb);
    assert_true(nb <= 50);
    picture_free(&p);
}

/* One biome's view in each mode: default levels of detail against every
 * chunk fine, lit and unlit. A pixel's light is its grey lit over its grey
 * unlit (the same geometry, so albedo cancels). In the coarse band:
 * - near-black pixels with levels <= 1.1 x all fine + 200;
 * - dim pixels, whose light is under half, with levels <= 1.1 x all fine
 *   + 1 % of the band: a coarse face that reads no light, or too little,
 *   is dim where the fine faces it stands for are not. The count may fall
 *   (a coarse level's fat firs hide the shaded floor between thin ones);
 *   it must not rise.
 * The band's mean light is printed beside, for the record. */
static void test_levels_match_fine(void **state)
{
    (void)state;
    static const char *modes[] = { "blocks", "smooth", "enhanced" };
    /* where each mode's coarse level starts, and half a chunk for the
     * chunks' own size (a chunk goes coarse by its centre's distance) */
    static const float lod[] = { 64 + 16, 48 + 16, 64 + 16 };
    char cmd[256];
    bool finite = strcmp(g_biome, "formula") == 0; /* its world is finite: nothing to wait for */
    snprintf(cmd, sizeof cmd, "biome %s; tp 256 110 256; %s look 30 -25", g_biome, finite ? "" : "stream wait;");
    run(cmd);
    const float fog_start = 0.6f * cvar_float("view.distance", 192);
    bool ok = true;
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        snprintf(cmd, sizeof cmd, "set render.mode %s", modes[m]);
        run(cmd);
        run("set light.enable 1; set render.lod_distance 0; set render.smooth_lod_distance 0");
        picture fine = shoot();
        run("set light.enable 0");
        picture fine_u = shoot();
        run("set render.lod_distance 64; set render.smooth_lod_distance 48");
        picture coarse_u = shoot();
        run("set light.enable 1");
        picture coarse = shoot();
        long dim_f = 0, dim_c = 0, band_f = 0, band_c = 0;
        double light_f = 0, light_c = 0;
        for (int i = 0; i < W * H; i++) {
            /* each level's own band: its pixels between the distances */
            if (fine.dist[i] >= lod[m] && fine.dist[i] < fog_start) {
                double l = grey(fine.rgba + 4 * i) / fmax(grey(fine_u.rgba + 4 * i), 1.0);
                dim_f += l < 0.5, light_f += l, band_f++;
            }
            if (coarse.dist[i] >= lod[m] && coarse.dist[i] < fog_start) {
                double l = grey(coarse.rgba + 4 * i) / fmax(grey(coarse_u.rgba + 4 * i), 1.0);
                dim_c += l < 0.5, light_c += l, band_c++;
            }
        }
        assert_true(band_f > W * H / 50); /* the band is there to compare */
        long black_c = near_black(&coarse), black_f = near_black(&fine);
        bool black_ok = black_c <= 1.1 * black_f + 200;
        bool dim_ok = dim_c <= 1.1 * dim_f + band_f / 100;
        printf("%s %s: near-black %ld with levels, %ld all fine (unlit %ld, %ld); in the coarse band (%ld pixels, "
               "%ld all fine) %ld dim with levels, %ld all fine; its mean light %.3f against %.3f%s\n",
               g_biome, modes[m], black_c, black_f, near_black(&coarse_u), near_black(&fine_u), band_c, band_f, dim_c,
               dim_f, band_c ? light_c / band_c : 0.0, band_f ? light_f / band_f : 0.0,
               black_ok && dim_ok ? "" : "  FAILS");
        ok = ok && black_ok && dim_ok;
        picture_free(&fine);
        picture_free(&fine_u);
        picture_free(&coarse_u);
        picture_free(&coarse);
    }
    assert_true(ok);
}

int main(int argc, char **argv)
{
    if (argc > 1) g_biome = argv[1];
    const struct CMUnitTest hills[] = {
        cmocka_unit_test(test_readme_hills),
        cmocka_unit_test(test_levels_match_fine),
    };
    const struct CMUnitTest other[] = {
        cmocka_unit_test(test_levels_match_fine),
    };
    if (argc > 1) return cmocka_run_group_tests(other, setup, teardown);
    return cmocka_run_group_tests(hills, setup, teardown);
}
