/* Falling voxel bodies drawn through the real game, headless:
 * a ball of leaves filled in the air in front of the eye is cut loose and
 * falls; in the smooth mode it shows as its own nets, leaf-coloured, where
 * the same view without it shows sky, covering about what its blocks cover
 * in the blocks mode; drawn before the world, it changes nothing that
 * occlusion culling draws. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stb/stb_image.h>

#include "app/app.h"
#include "app/app_bodies.h"
#include "app/app_internal.h"
#include "ui/cmd.h"

#define W 320
#define H 180

static unsigned char *shot(const char *path)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "screenshot %s", path);
    assert_int_equal(cmd_exec(cmd), 0);
    int w, h, n;
    unsigned char *px = stbi_load(path, &w, &h, &n, 3);
    assert_non_null(px);
    assert_int_equal(w, W);
    assert_int_equal(h, H);
    remove(path);
    return px;
}

typedef struct body_view {
    long differ;     /* pixels that differ from the view without the body */
    float r, g, b;   /* their mean colour with the body */
    long tris_added; /* triangles drawn with it, more than without */
} body_view;

/* The view from (64, 90, 70) looking down a little towards -z, without and
 * then with a ball of leaves filled 12 voxels ahead and fallen 3 frames.
 * A finite world: a streamed one's columns keep arriving between the two
 * shots (nothing waited for them) and change pixels the body did not. */
static body_view fall_in_view(app *a, const char *mode)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "set world.stream 0; set world.size_x 4; set world.size_y 4; set world.size_z 4; biome hills; "
             "set render.mode %s; "
             "set render.gpu 0; set tool.visible 0; set player.fly 1; set tool.size 8; tp 64 90 70; look 0 -10",
             mode);
    assert_int_equal(cmd_exec(cmd), 0);
    assert_int_equal(cmd_exec("frames 1"), 0);
    unsigned char *without = shot("body_without.png");
    long tris0 = a->stats.triangles;
    assert_int_equal(cmd_exec("fill oak_leaves 64 92 58; frames 3"), 0);
    int count, awake;
    long voxels;
    app_bodies_counts(a, &count, &awake, &voxels);
    assert_int_equal(count, 1);
    assert_true(voxels > 100);
    unsigned char *with = shot("body_with.png");
    body_view v = { .tris_added = a->stats.triangles - tris0 };
    /* the body is drawn before the world and hides it from the occlusion
     * read-back: culling still changes no pixel */
    assert_int_equal(cmd_exec("set render.occlusion 0"), 0);
    unsigned char *unculled = shot("body_unculled.png");
    assert_int_equal(cmd_exec("set render.occlusion 1"), 0);
    assert_memory_equal(with, unculled, (size_t)W * H * 3);
    free(unculled);
    double r = 0, g = 0, b = 0;
    for (long i = 0; i < (long)W * H; i++) {
        if (memcmp(with + 3 * i, without + 3 * i, 3) == 0) continue;
        v.differ++;
        r += with[3 * i], g += with[3 * i + 1], b += with[3 * i + 2];
    }
    if (v.differ) v.r = (float)(r / v.differ), v.g = (float)(g / v.differ), v.b = (float)(b / v.differ);
    printf("%s: the body changes %ld pixels (mean %.0f %.0f %.0f), %ld more triangles\n", mode, v.differ,
           (double)v.r, (double)v.g, (double)v.b, v.tris_added);
    free(without);
    free(with);
    return v;
}

static void test_falling_body_visible(void **state)
{
    (void)state;
    app_desc d = { .headless = true, .width = W, .height = H };
    app *a = app_create(&d);
    if (!a) fail_msg("no app: a GL context or the assets are missing");
    body_view nets = fall_in_view(a, "smooth");
    body_view blocks = fall_in_view(a, "blocks");
    app_destroy(a);
    /* seen, and drawn: leaves are green, the sky behind them blue */
    assert_true(nets.differ > W * H / 50);
    assert_true(nets.tris_added > 100);
    assert_true(nets.g > nets.r && nets.g > nets.b);
    assert_true(blocks.differ > W * H / 50);
    assert_true(blocks.g > blocks.r && blocks.g > blocks.b);
    /* the nets wrap the same voxels the blocks are: about the same area */
    assert_true(nets.differ > blocks.differ / 2 && nets.differ < blocks.differ * 3 / 2);
    /* nets, not blocks: a ball of voxels is a few hundred triangles as
     * nets, and fewer as merged block faces */
    assert_true(nets.tris_added > blocks.tris_added);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_falling_body_visible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
