/* Every biome's spawn is in the open, through the real game (the default
 * streamed world, seed 1): sky above the eye, and of the rays through the
 * opening view about the horizon (its yaw 30 degrees either side, 6 to 18
 * degrees above its pitch of -12: up to 6 degrees either side of level)
 * at least three in four run 10 voxels before meeting anything solid; and the opening frame is not mostly shade
 * (fewer than a fifth of its pixels near black, luminance under 16). */
#include "test_support.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/app.h"
#include "app/app_internal.h"
#include "physics/collide.h"
#include "platform/platform.h"
#include "ui/cmd.h"

#define W 240
#define H 135
#define ARM 10.0f

static void check_spawn(app *a, const char *biome)
{
    char line[128];
    snprintf(line, sizeof line, "biome %s; frames 3", biome);
    assert_int_equal(cmd_exec(line), 0);
    double eye[3];
    player_eye(&a->pl, eye);
    const float up[3] = { 0, 1, 0 };
    bool sky = !collide_raycast(a->w, eye, up, 256.f, NULL, NULL, NULL);
    int rays = 0, open = 0;
    const float d2r = 0.017453292519943295f;
    for (int i = -3; i <= 3; i++)
        for (int j = 1; j <= 3; j++, rays++) {
            float yaw = (a->pl.yaw + 10.f * (float)i) * d2r, pitch = (a->pl.pitch + 6.f * (float)j) * d2r;
            const float d[3] = { sinf(yaw) * cosf(pitch), sinf(pitch), -cosf(yaw) * cosf(pitch) };
            open += !collide_raycast(a->w, eye, d, ARM, NULL, NULL, NULL);
        }
    uint8_t *px = malloc((size_t)W * H * 4);
    assert_non_null(px);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, platform_framebuffer(a->plat));
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    long dark = 0;
    for (int i = 0; i < W * H; i++) dark += 0.3f * px[4 * i] + 0.59f * px[4 * i + 1] + 0.11f * px[4 * i + 2] < 16.f;
    free(px);
    print_message("%s: spawn %.1f %.1f %.1f, sky above %d, %d of %d rays past %.0f voxels, %.1f%% near black\n", biome,
                  a->pl.pos[0], a->pl.pos[1], a->pl.pos[2], sky, open, rays, (double)ARM,
                  100.0 * (double)dark / (W * H));
    assert_true(sky);
    assert_true(4 * open >= 3 * rays);
    assert_true(dark * 5 < W * H);
}

static void test_hills(void **state) { check_spawn(*state, "hills"); }
static void test_desert(void **state) { check_spawn(*state, "desert"); }
static void test_taiga(void **state) { check_spawn(*state, "taiga"); }
static void test_deciduous(void **state) { check_spawn(*state, "deciduous"); }

static int setup(void **state) { return test_app_setup(state, W, H, "set world.seed 1; set render.crosshair 0"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hills),
        cmocka_unit_test(test_desert),
        cmocka_unit_test(test_taiga),
        cmocka_unit_test(test_deciduous),
    };
    return cmocka_run_group_tests(tests, setup, test_app_teardown);
}
