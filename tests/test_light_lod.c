/* Every face reads its own light, at every level of detail: pictures of the
 * running game (headless, 1280x720) measured against the same view with
 * every chunk drawn fine. A coarse face (mesh_lod.h) stands up to a voxel
 * off the real surface, where the bake stores no light; read as dark, far
 * steps were drawn in black ink. Measured: near-black pixels (grey under
 * 6 %) and the mean grey of the coarse band (what lies beyond the levels'
 * distance and before the fog), in blocks, smooth and enhanced modes.
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
    /* depth -> the point in the eye's frame -> its distance on the map, the
     * distance the levels of detail and the fog go by */
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
            float up = ((2.f * (y + 0.5f) / H) - 1.f) * t * ahead;
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

/* Mean grey of the pixels whose distance in `mask` lies in [lo, hi). The
 * rows of both run bottom up (both read by glReadPixels). */
static double band_mean(const picture *p, const picture *mask, float lo, float hi, long *count)
{
    double sum = 0;
    long n = 0;
    for (int i = 0; i < W * H; i++)
        if (mask->dist[i] >= lo && mask->dist[i] < hi) sum += grey(p->rgba + 4 * i), n++;
    *count = n;
    return n ? sum / n : 0.0;
}

static int setup(void **state)
{
    (void)state;
    app_desc d = { .headless = true, .width = W, .height = H };
    g_app = app_create(&d);
    if (!g_app) return -1;
    /* the CPU smooth path (its levels of detail), no ghost over the view */
    run("set render.gpu 0; set tool.visible 0; set render.occlusion_judge 0");
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

typedef struct measure {
    long black;       /* near-black pixels */
    double band;      /* mean grey of the coarse band */
} measure;

/* The current view: near-black pixels and the band's grey, masked by the
 * band of `mask` (NULL: its own). Frees the picture unless kept. */
static measure measure_view(const picture *mask, float lo, float hi, picture *keep)
{
    picture p = shoot();
    long n;
    measure m = { near_black(&p), band_mean(&p, mask ? mask : &p, lo, hi, &n) };
    if (!mask) assert_true(n > W * H / 50); /* the band is there to compare */
    if (keep) *keep = p;
    else picture_free(&p);
    return m;
}

/* One biome's view in each mode: default levels of detail against every
 * chunk fine, lit and unlit:
 * - near-black pixels with levels <= 1.1 x all fine + 200;
 * - the light's own brightness in the coarse band (lit grey over unlit
 *   grey: albedo and the coarse level's shapes cancel, fat firs hiding the
 *   lit floor between thin ones) within 3 % of all fine. */
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
        picture mask;
        run("set light.enable 1; set render.lod_distance 0; set render.smooth_lod_distance 0");
        measure fine = measure_view(NULL, lod[m], fog_start, &mask);
        run("set light.enable 0");
        measure fine_u = measure_view(&mask, lod[m], fog_start, NULL);
        run("set render.lod_distance 64; set render.smooth_lod_distance 48");
        measure coarse_u = measure_view(&mask, lod[m], fog_start, NULL);
        run("set light.enable 1");
        measure coarse = measure_view(&mask, lod[m], fog_start, NULL);
        picture_free(&mask);
        double light_c = coarse.band / coarse_u.band, light_f = fine.band / fine_u.band;
        bool black_ok = coarse.black <= 1.1 * fine.black + 200;
        bool band_ok = fabs(light_c - light_f) <= 0.03 * light_f;
        printf("%s %s: near-black %ld with levels, %ld all fine (unlit %ld, %ld); coarse band grey %.1f against "
               "%.1f (%+.1f %%), its light %.3f against %.3f (%+.1f %%)%s\n",
               g_biome, modes[m], coarse.black, fine.black, coarse_u.black, fine_u.black, coarse.band, fine.band,
               100.0 * (coarse.band / fine.band - 1.0), light_c, light_f, 100.0 * (light_c / light_f - 1.0),
               black_ok && band_ok ? "" : "  FAILS");
        ok = ok && black_ok && band_ok;
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
