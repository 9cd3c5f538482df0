/* Headless render of a known scene (EGL surfaceless, Mesa llvmpipe in CI):
 * expected colours in expected regions, culling and winding checked by
 * what ends up on screen. */
#include "test_support.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>

#include "gfx/camera.h"
#include "gfx/plain.h"
#include "gfx/renderer.h"
#include "gfx/screenshot.h"
#include "mesh/mesh_world.h"
#include "platform/platform.h"

#define W 160
#define H 120

typedef struct scene {
    test_gl gl; /* context, atlas, blocks renderer, two workers */
    world *w;
} scene;

static int setup(void **state)
{
    scene *s = calloc(1, sizeof *s);
    if (!s || !test_gl_open(&s->gl, W, H)) return -1;
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    scene *s = *state;
    world_destroy(s->w);
    test_gl_close(&s->gl);
    free(s);
    return 0;
}

static void upload_world(scene *s)
{
    int n = s->w->chunk_count;
    int *idx = malloc(sizeof *idx * (size_t)n);
    chunk_mesh *m = calloc((size_t)n, sizeof *m);
    assert_non_null(idx);
    assert_non_null(m);
    for (int i = 0; i < n; i++) idx[i] = i;
    mesh_world_chunks(s->w, s->gl.jobs, idx, n, true, m);
    renderer_reset(s->gl.rend, s->w->cx, s->w->cy, s->w->cz);
    for (int i = 0; i < n; i++) {
        int cx, cy, cz;
        world_chunk_coords(s->w, i, &cx, &cy, &cz);
        renderer_upload(s->gl.rend, cx, cy, cz, &m[i]);
        mesh_free(&m[i]);
    }
    free(m);
    free(idx);
}

static uint8_t *render(scene *s, float x, float y, float z, float yaw, float pitch, render_stats *st)
{
    camera c = { .pos = { x, y, z }, .yaw = yaw, .pitch = pitch, .fov = 70, .aspect = (float)W / H, .znear = 0.05f, .zfar = 400 };
    camera_update(&c);
    render_settings rs = { .width = W, .height = H, .framebuffer = platform_framebuffer(s->gl.plat), .view_distance = 300,
                           .sky = { 0.2f, 0.4f, 0.9f }, .sun = { 0.3f, 1, 0.2f } };
    renderer_draw(s->gl.rend, &c, &rs, st);
    return screenshot_read(platform_framebuffer(s->gl.plat), W, H);
}

/* Average colour of a rectangle of the image (top row first). */
static void average(const uint8_t *px, int x0, int y0, int x1, int y1, float out[3])
{
    double acc[3] = { 0 };
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++, n++)
            for (int k = 0; k < 3; k++) acc[k] += px[(y * W + x) * 4 + k];
    for (int k = 0; k < 3; k++) out[k] = (float)(acc[k] / n / 255.0);
}

/* Sand on the left (x < 32), grass on the right, seen from straight above:
 * screen-left is -x when looking down with yaw 0 (facing -z). */
static void test_floor_colours(void **state)
{
    scene *s = *state;
    world_destroy(s->w);
    s->w = world_create(2, 1, 2);
    for (int z = 0; z < 64; z++)
        for (int x = 0; x < 64; x++)
            for (int y = 0; y < 4; y++) world_set(s->w, x, y, z, x < 32 ? MAT_SAND : MAT_GRASS);
    upload_world(s);
    render_stats st;
    uint8_t *px = render(s, 32, 40, 32, 0, -89.9f, &st);
    float left[3], right[3];
    average(px, 10, 40, 60, 80, left);
    average(px, 100, 40, 150, 80, right);
    /* sand: warm (red >= green > blue); grass top: green dominates */
    assert_true(left[0] > left[2] + 0.1f && left[1] > left[2] + 0.05f);
    assert_true(right[1] > right[0] + 0.05f && right[1] > right[2] + 0.05f);
    assert_true(st.triangles > 0 && st.triangles < 200); /* greedy: a few quads, not 8192 */
    free(px);
}

/* Looking up at empty sky: only the clear colour; looking away from the
 * only chunk culls it entirely. */
static void test_sky_and_culling(void **state)
{
    scene *s = *state;
    world_destroy(s->w);
    s->w = world_create(2, 2, 2);
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 32; x++) world_set(s->w, x, 0, z, MAT_STONE);
    upload_world(s);
    render_stats st;
    /* high above the chunk's bounding sphere, looking up: nothing in view */
    uint8_t *px = render(s, 16, 60, 16, 0, 89.f, &st);
    float c[3];
    average(px, 0, 0, W, H, c);
    assert_float_equal(c[0], 0.2f, 0.01f);
    assert_float_equal(c[1], 0.4f, 0.01f);
    assert_float_equal(c[2], 0.9f, 0.01f);
    assert_int_equal(st.chunks_drawn, 0);
    free(px);
    /* now look down at it: the stone is drawn, front faces only (winding) */
    px = render(s, 16, 60, 16, 0, -89.f, &st);
    average(px, 60, 40, 100, 80, c);
    assert_true(c[2] < 0.8f); /* not sky */
    assert_int_equal(st.chunks_drawn, 1);
    free(px);
    /* from below the floor (y < 0 is bedrock, never meshed) the top faces are back faces: culled */
    px = render(s, 16, -5, 16, 0, 89.f, &st);
    average(px, 60, 40, 100, 80, c);
    assert_float_equal(c[2], 0.9f, 0.02f);
    free(px);
}

/* A muskeg pool over stone: the stone shows through the translucent bog. */
static void test_translucent_muskeg(void **state)
{
    scene *s = *state;
    world_destroy(s->w);
    s->w = world_create(1, 1, 1);
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 32; x++) {
            world_set(s->w, x, 0, z, MAT_STONE);
            world_set(s->w, x, 1, z, MAT_MUSKEG);
        }
    upload_world(s);
    render_stats st;
    uint8_t *with_bog = render(s, 16, 12, 16, 0, -89.f, &st);
    float bog[3];
    average(with_bog, 60, 40, 100, 80, bog);
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 32; x++) world_set(s->w, x, 1, z, MAT_AIR);
    upload_world(s);
    uint8_t *bare = render(s, 16, 12, 16, 0, -89.f, &st);
    float stone[3];
    average(bare, 60, 40, 100, 80, stone);
    /* the bog tints the view but is not opaque sky or black */
    float diff = 0;
    for (int k = 0; k < 3; k++) diff += bog[k] > stone[k] ? bog[k] - stone[k] : stone[k] - bog[k];
    assert_true(diff > 0.03f);
    assert_true(bog[0] + bog[1] + bog[2] > 0.1f);
    free(with_bog);
    free(bare);
}

/* Standing at the world's edge looking out and down: the endless bedrock
 * floor (gfx/plain.h) fills every pixel whose ray meets y = 0 well inside
 * the fog; none of them shows the sky colour, i.e. the world's missing
 * underside. The view back into the world is unchanged by the plain. */
static void test_edge_shows_ground_not_sky(void **state)
{
    scene *s = *state;
    world_destroy(s->w);
    s->w = world_create(2, 1, 2);
    for (int z = 0; z < 64; z++)
        for (int x = 0; x < 64; x++)
            for (int y = 0; y < 8; y++) world_set(s->w, x, y, z, y == 0 ? MAT_BEDROCK : MAT_STONE);
    upload_world(s);
    char err[1024];
    plain_renderer *pl = plain_create(err, sizeof err);
    if (!pl) fail_msg("%s", err);
    const float eye[3] = { 0.5f, 9.62f, 32.f }, pitch = -20, fov = 70;
    camera c = { .pos = { eye[0], eye[1], eye[2] }, .yaw = 270, .pitch = pitch, .fov = fov, .aspect = (float)W / H,
                 .znear = 0.05f, .zfar = 400 };
    camera_update(&c);
    render_settings rs = { .width = W, .height = H, .framebuffer = platform_framebuffer(s->gl.plat), .view_distance = 300,
                           .sky = { 0.2f, 0.4f, 0.9f }, .sun = { 0.3f, 1, 0.2f } };
    render_stats st;
    renderer_draw(s->gl.rend, &c, &rs, &st);
    uint8_t *bare = screenshot_read(platform_framebuffer(s->gl.plat), W, H);
    plain_draw(pl, &c, &rs, s->gl.atlas, material_get(MAT_BEDROCK)->tile[FACE_TOP], s->w->sx, s->w->sz);
    uint8_t *px = screenshot_read(platform_framebuffer(s->gl.plat), W, H);
    int checked = 0, holes_before = 0;
    for (int row = 0; row < H; row++) { /* screenshot rows: top first */
        /* the pitch of this row's rays (exact in the middle column, steeper elsewhere) */
        double ndc = 1.0 - 2.0 * (row + 0.5) / H;
        double down = -(pitch + atan(ndc * tan(fov * 0.5 * 3.14159265358979 / 180)) * 180 / 3.14159265358979);
        if (down < 12) continue; /* meets y = 0 beyond about 46 voxels: leave the far ground to the fog */
        for (int x = 0; x < W; x++) {
            const uint8_t *p = px + (row * W + x) * 4, *b = bare + (row * W + x) * 4;
            int sky = abs(p[0] - 51) + abs(p[1] - 102) + abs(p[2] - 230);
            if (sky < 40) fail_msg("pixel (%d, %d) below the horizon is sky: %d %d %d", x, row, p[0], p[1], p[2]);
            holes_before += abs(b[0] - 51) + abs(b[1] - 102) + abs(b[2] - 230) < 40;
            checked++;
        }
    }
    assert_true(checked > W * H / 4);
    assert_true(holes_before > checked / 2); /* without the plain these were the void */
    free(px);
    free(bare);
    /* facing back into the world, the plain changes no pixel */
    c.yaw = 90;
    camera_update(&c);
    renderer_draw(s->gl.rend, &c, &rs, &st);
    bare = screenshot_read(platform_framebuffer(s->gl.plat), W, H);
    plain_draw(pl, &c, &rs, s->gl.atlas, material_get(MAT_BEDROCK)->tile[FACE_TOP], s->w->sx, s->w->sz);
    px = screenshot_read(platform_framebuffer(s->gl.plat), W, H);
    assert_memory_equal(px, bare, (size_t)W * H * 4);
    free(px);
    free(bare);
    plain_destroy(pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floor_colours),
        cmocka_unit_test(test_sky_and_culling),
        cmocka_unit_test(test_translucent_muskeg),
        cmocka_unit_test(test_edge_shows_ground_not_sky),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
