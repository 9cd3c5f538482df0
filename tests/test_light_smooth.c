/* Smooth light on open ground (headless game, 1280x720): flat ground under
 * open sky has nothing to shade it, so its light must be even. Measured as
 * the light's own variation: the lit picture divided pixel by pixel by the
 * same view unlit (the textures cancel), standard deviation over mean over
 * the central half of the picture. Each element releasing its own random
 * particles made it blotchy (binomial noise of 16 particles); one shared,
 * stratified set makes identical surroundings identical. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/app.h"
#include "app/app_internal.h"
#include "gfx/screenshot.h"
#include "platform/platform.h"
#include "ui/cmd.h"

#define W 1280
#define H 720

static void run(const char *cmd)
{
    if (cmd_exec(cmd) != 0) fail_msg("command failed: %s", cmd);
}

static uint8_t *shoot(app *a)
{
    run("frames 2");
    uint8_t *px = screenshot_read(platform_framebuffer(a->plat), W, H);
    assert_non_null(px);
    return px;
}

/* std / mean of lit / unlit grey over the central half (pixels the unlit
 * picture shows too dark to divide by are left out: 8-bit rounding). */
static double light_variation(const uint8_t *lit, const uint8_t *unlit, double *mean)
{
    double s = 0, s2 = 0;
    long n = 0;
    for (int y = H / 4; y < 3 * H / 4; y++)
        for (int x = W / 4; x < 3 * W / 4; x++) {
            const uint8_t *p = lit + 4 * (y * W + x), *q = unlit + 4 * (y * W + x);
            double gl = p[0] + p[1] + p[2], gu = q[0] + q[1] + q[2];
            if (gu < 30) continue;
            double r = gl / gu;
            s += r, s2 += r * r, n++;
        }
    assert_true(n > W * H / 8);
    *mean = s / n;
    return sqrt(fmax(s2 / n - *mean * *mean, 0.0)) / *mean;
}

static void test_open_ground_is_even(void **state)
{
    (void)state;
    app_desc d = { .headless = true, .width = W, .height = H };
    app *a = app_create(&d);
    if (!a) fail_msg("no app: a GL context or the assets are missing");
    /* flying, so both pictures are the same view (walking, the player
     * falls between them) */
    run("set tool.visible 0; set player.fly 1; set world.stream 0; set world.formula \"cy < 5\"; biome formula; "
        "tp 64 30 64; look 30 -70");
    uint8_t *lit = shoot(a);
    run("set light.enable 0");
    uint8_t *unlit = shoot(a);
    double mean, cv = light_variation(lit, unlit, &mean);
    printf("open ground: lit / unlit %.3f, varies %.2f %% (std / mean)\n", mean, 100.0 * cv);
    assert_true(cv <= 0.03);
    free(lit);
    free(unlit);
    app_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_ground_is_even),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
