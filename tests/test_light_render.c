/* Snowflake light as the block renderer draws it (headless GL): the light
 * volume texture equals the CPU volume, a lit plain spanning four chunks has
 * no seams, a tower's shadow shows on screen on the side away from the sun,
 * and lit pictures differ from unlit ones. Light alone is read by dividing a
 * lit render by an unlit one of the same view (the albedo cancels). */
#include "test_support.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "gfx/atlas.h"
#include "gfx/camera.h"
#include "gfx/light_tex.h"
#include "gfx/renderer.h"
#include "gfx/screenshot.h"
#include "light/light.h"
#include "mesh/mesh_world.h"
#include "platform/platform.h"

#define W 192
#define H 192

typedef struct scene {
    test_gl gl; /* context, atlas, blocks renderer, two workers */
    world *w;
    light *l;
    light_tex tex;
    light_params p;
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
    light_tex_destroy(&s->tex);
    light_destroy(s->l);
    world_destroy(s->w);
    test_gl_close(&s->gl);
    free(s);
    return 0;
}

/* Meshes and uploads the world, bakes its light and uploads the volume. */
static void prepare(scene *s)
{
    test_gl_upload_world(&s->gl, s->w);
    light_tex_destroy(&s->tex);
    light_destroy(s->l);
    s->l = test_light_bake(s->w, &s->p, s->gl.jobs);
    char err[256];
    assert_true(light_tex_create(&s->tex, s->w->sx, s->w->sy, s->w->sz, err, sizeof err));
    light_tex_upload(&s->tex, s->l, NULL, NULL);
}

static uint8_t *render(scene *s, bool lit, float x, float y, float z, float yaw, float pitch)
{
    camera c = { .pos = { x, y, z }, .yaw = yaw, .pitch = pitch, .fov = 60, .aspect = (float)W / H, .znear = 0.05f,
                 .zfar = 400 };
    camera_update(&c);
    render_settings rs = { .width = W, .height = H, .framebuffer = platform_framebuffer(s->gl.plat),
                           .view_distance = 300, .sky = { 0.2f, 0.4f, 0.9f } };
    memcpy(rs.sun, s->p.sun_dir, sizeof rs.sun);
    rs.light = (light_shading){ .enabled = lit, .texture = s->tex.tex, .fresh = s->tex.fresh, .size = { s->tex.sx, s->tex.sy, s->tex.sz },
                                .sun_color = { 0.6f, 0.6f, 0.6f }, .sky_color = { 0.4f, 0.4f, 0.4f },
                                .ambient = 0.05f };
    light_origin(s->l, &rs.light.origin[0], &rs.light.origin[2]);
    light_slot(s->l, &rs.light.slot[0], &rs.light.slot[2]);
    render_stats st;
    renderer_draw(s->gl.rend, &c, &rs, &st);
    return screenshot_read(platform_framebuffer(s->gl.plat), W, H);
}

/* Light seen from (x, y, z) looking straight down: lit / unlit per pixel. */
static float *light_image(scene *s, float x, float y, float z)
{
    uint8_t *a = render(s, true, x, y, z, 0, -89.9f), *b = render(s, false, x, y, z, 0, -89.9f);
    float *out = malloc(sizeof *out * W * H);
    for (int i = 0; i < W * H; i++) {
        float la = (float)(a[i * 4] + a[i * 4 + 1] + a[i * 4 + 2]), lb = (float)(b[i * 4] + b[i * 4 + 1] + b[i * 4 + 2]);
        out[i] = lb > 0 ? la / lb : 0;
    }
    free(a);
    free(b);
    return out;
}

static float mean(const float *img, int x0, int y0, int x1, int y1)
{
    double acc = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) acc += img[y * W + x];
    return (float)(acc / ((x1 - x0) * (y1 - y0)));
}

static void fill_box(world *w, int x0, int y0, int z0, int x1, int y1, int z1, uint8_t m)
{
    for (int y = y0; y < y1; y++)
        for (int z = z0; z < z1; z++)
            for (int x = x0; x < x1; x++) world_set(w, x, y, z, m);
}

/* The texture holds the raw bytes of volume l, byte for byte. */
static void assert_texture_is(const scene *s, const light *l)
{
    size_t n = (size_t)s->w->sx * s->w->sy * s->w->sz * 2;
    uint8_t *gpu = malloc(n);
    assert_non_null(gpu);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(s->tex.tex, 0, GL_RG, GL_UNSIGNED_BYTE, (GLsizei)n, gpu);
    assert_int_equal(memcmp(gpu, light_data(l), n), 0);
    free(gpu);
}

/* The texture holds the CPU volume, byte for byte. */
static void assert_texture_is_volume(const scene *s) { assert_texture_is(s, s->l); }

/* An empty world of cx x 1 x cz chunks, default light parameters. */
static void new_world(scene *s, int cx, int cz)
{
    world_destroy(s->w);
    s->w = world_create(cx, 1, cz);
    s->p = light_params_default();
}

/* The texture holds exactly the CPU volume. */
static void test_texture_equals_volume(void **state)
{
    scene *s = *state;
    new_world(s, 2, 2);
    fill_box(s->w, 0, 0, 0, 64, 6, 64, MAT_STONE);
    fill_box(s->w, 20, 6, 20, 24, 20, 24, MAT_OAK_LOG);
    prepare(s);
    assert_texture_is_volume(s);
}

/* A plain over four chunks, seen from above their shared corner: the light
 * is the same on both sides of each chunk border and no border line shows. */
static void test_plain_has_no_seams(void **state)
{
    scene *s = *state;
    new_world(s, 2, 2);
    s->p.sun_particles = s->p.sky_particles = 64;
    fill_box(s->w, 0, 0, 0, 64, 6, 64, MAT_STONE);
    prepare(s);
    float *img = light_image(s, 32, 30, 32);
    float all = mean(img, 16, 16, W - 16, H - 16);
    assert_true(all > 0.5f); /* an open plain is well lit */
    float left = mean(img, W / 2 - 24, 16, W / 2 - 4, H - 16), right = mean(img, W / 2 + 4, 16, W / 2 + 24, H - 16);
    assert_true(fabsf(left - right) < 0.03f * all);
    /* every column and row near the borders looks like the rest */
    for (int c = W / 2 - 3; c <= W / 2 + 3; c++) {
        assert_true(fabsf(mean(img, c, 16, c + 1, H - 16) - all) < 0.05f * all);
        assert_true(fabsf(mean(img, 16, c, W - 16, c + 1) - all) < 0.05f * all);
    }
    free(img);
}

/* A tower on the plain with the sun towards +x: its shadow darkens the
 * floor on its -x side, on screen. */
static void test_tower_shadow_on_screen(void **state)
{
    scene *s = *state;
    world_destroy(s->w);
    s->w = world_create(2, 2, 2);
    s->p = light_params_default();
    s->p.sun_dir[0] = 1, s->p.sun_dir[1] = 1, s->p.sun_dir[2] = 0;
    s->p.sky_particles = 0; /* sun only: the shadow is all there is */
    s->p.sun_particles = 32, s->p.jitter = 0.2f;
    fill_box(s->w, 0, 0, 0, 64, 6, 64, MAT_STONE);
    fill_box(s->w, 30, 6, 30, 34, 40, 34, MAT_STONE);
    prepare(s);
    /* from high above the tower: screen right is +x (yaw 0 looks at -z) */
    float *img = light_image(s, 32, 62, 40);
    /* the tower's foot (z 30..34) projects to rows ~66-78; x 16..25 and 39..48 to
     * columns ~48-75 and ~117-144, clear of the tower's walls */
    float west = mean(img, 50, 66, 75, 78), east = mean(img, 117, 66, 142, 78);
    print_message("west %.3f east %.3f\n", west, east);
    assert_true(west < 0.6f * east);
    free(img);
}

/* The texture of a moved window with rotated slots equals the volume,
 * uploaded in boxes that wrap around the texture's edges. */
static void test_moved_texture_equals_volume(void **state)
{
    scene *s = *state;
    world_destroy(s->w);
    s->w = world_create(3, 1, 3);
    assert_int_equal(world_move(s->w, 5, -4), 9);
    assert_true(s->w->slot_x0 == 2 && s->w->slot_z0 == 2);
    int x0 = world_x0(s->w), z0 = world_z0(s->w);
    s->p = light_params_default();
    fill_box(s->w, x0, 0, z0, x0 + 96, 6, z0 + 96, MAT_STONE);
    fill_box(s->w, x0 + 20, 6, z0 + 50, x0 + 24, 20, z0 + 54, MAT_OAK_LOG);
    fill_box(s->w, x0 + 70, 6, z0 + 10, x0 + 90, 9, z0 + 30, MAT_OAK_LEAVES);
    prepare(s);
    assert_texture_is_volume(s);
    /* four boxes tiling the window, split away from the slots' seam: each
     * wraps on some axis */
    light_tex_fill(&s->tex, 7, 9);
    const int xs[3] = { x0, x0 + 50, x0 + 96 }, zs[3] = { z0, z0 + 37, z0 + 96 };
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            light_tex_upload(&s->tex, s->l, (const int[3]){ xs[i], 0, zs[j] },
                             (const int[3]){ xs[i + 1], s->w->sy, zs[j + 1] });
    assert_texture_is_volume(s);
}

/* Copies every chunk of w into a window whose first column is (ocx, ocz). */
static world *moved_copy(const world *w, int ocx, int ocz)
{
    world *m = world_create(w->cx, w->cy, w->cz);
    assert_non_null(m);
    assert_true(world_move(m, ocx, ocz) > 0);
    for (int i = 0; i < w->chunk_count; i++) {
        int x, y, z;
        world_chunk_coords(w, i, &x, &y, &z);
        memcpy(world_chunk(m, x + ocx, y, z + ocz)->vox, w->chunks[i].vox, CHUNK_VOLUME);
    }
    return m;
}

/* A lit window moved away from the origin (slots rotated, negative z)
 * draws the picture the origin window draws of the same content from a
 * camera moved by the same offset. The light of a place depends on where
 * it is (an element's particles are seeded by its global position), so the
 * same content lit elsewhere is the same only for walks that need no
 * random numbers: sun only, no jitter (every particle of an element walks
 * one straight line). That still puts shadows, an overhang and the world's
 * edges through the texture's slots. */
static void test_moved_window_same_lit_picture(void **state)
{
    scene *s = *state;
    new_world(s, 4, 4);
    s->p.sky_particles = 0, s->p.sun_particles = 1, s->p.jitter = 0;
    s->p.sun_dir[0] = 1, s->p.sun_dir[1] = 1.3f, s->p.sun_dir[2] = 0.4f;
    fill_box(s->w, 0, 0, 0, 128, 6, 128, MAT_STONE);
    fill_box(s->w, 30, 6, 30, 34, 24, 34, MAT_STONE);      /* a tower */
    fill_box(s->w, 60, 6, 10, 62, 16, 118, MAT_OAK_LOG);   /* a wall */
    fill_box(s->w, 80, 14, 40, 110, 16, 70, MAT_STONE);    /* a roof on a pillar */
    fill_box(s->w, 94, 6, 54, 96, 14, 56, MAT_STONE);
    fill_box(s->w, 100, 6, 90, 128, 12, 128, MAT_OAK_LEAVES); /* a hedge at the corner */
    prepare(s);
    const float views[][5] = {
        { 64, 70, 64, 0, -89.9f }, { 20, 30, 110, 135, -25 }, { 120, 25, 20, 300, -30 }, { 64, 12, 64, 90, -10 },
    };
    const int nv = (int)(sizeof views / sizeof views[0]);
    uint8_t *ref[4];
    for (int i = 0; i < nv; i++) ref[i] = render(s, true, views[i][0], views[i][1], views[i][2], views[i][3], views[i][4]);
    /* the light shows: the lit picture is not the fixed shade's */
    uint8_t *unlit = render(s, false, views[0][0], views[0][1], views[0][2], views[0][3], views[0][4]);
    assert_true(memcmp(unlit, ref[0], (size_t)W * H * 4) != 0);
    free(unlit);

    world *m = moved_copy(s->w, 3, -2);
    assert_true(m->slot_x0 != 0 && m->slot_z0 != 0);
    world_destroy(s->w);
    s->w = m;
    prepare(s);
    for (int i = 0; i < nv; i++) {
        uint8_t *img = render(s, true, views[i][0] + 96, views[i][1], views[i][2] - 64, views[i][3], views[i][4]);
        /* the eye's float position differs: a pixel on an edge may round
         * the other way, no more */
        int differ = test_pixels_differ(img, ref[i], W * H, 8);
        print_message("view %d: %d pixels differ\n", i, differ);
        assert_true(differ <= W * H / 500);
        free(img), free(ref[i]);
    }
}

/* Sets every slot's fresh bit in the texture's block: the shaders then
 * read every texel as it is. */
static void all_fresh(scene *s)
{
    memset(s->tex.bits, 0xff, sizeof *s->tex.bits * LIGHT_FRESH_WORDS);
    glNamedBufferSubData(s->tex.fresh, 0, sizeof *s->tex.bits * LIGHT_FRESH_WORDS, s->tex.bits);
}

/* A window moved a column east leaves the light of the column that went
 * (a lit trench) in the slot of the one that came, in the volume and in
 * the texture; the shaders leave those texels out (light_tex_sync_fresh),
 * so the stone face that looks into the new, empty column is drawn as an
 * eager clear of the volume draws it, and not as it is when the texels
 * the move left are read. */
static void test_left_columns_drawn_as_an_eager_clear(void **state)
{
    scene *s = *state;
    new_world(s, 3, 3);
    fill_box(s->w, 0, 0, 0, 96, 8, 96, MAT_STONE);
    fill_box(s->w, 0, 1, 0, 32, 8, 96, MAT_AIR); /* a trench, in the column that leaves */
    fill_box(s->w, 1, 1, 0, 2, 8, 96, MAT_STONE); /* and a wall in it: the air at x = 0 holds light */
    prepare(s);
    light *eager = test_light_bake(s->w, &s->p, s->gl.jobs);
    assert_true(world_move(s->w, 1, 0) > 0);
    light_move(s->l, world_x0(s->w), world_z0(s->w));
    light_move(eager, world_x0(s->w), world_z0(s->w));
    (void)light_hash(eager); /* clears what the move left */
    test_gl_upload_world(&s->gl, s->w); /* the new column is empty: the stone's east face shows */
    /* the texels of the new column (slot 0) still hold the trench's light */
    size_t n = (size_t)s->w->sx * s->w->sy * s->w->sz * 2;
    uint8_t *tex = malloc(n);
    assert_non_null(tex);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(s->tex.tex, 0, GL_RG, GL_UNSIGNED_BYTE, (GLsizei)n, tex);
    long lit = 0;
    for (int z = 0; z < s->w->sz; z++)
        for (int y = 1; y < 8; y++) lit += tex[2 * ((size_t)s->w->sx * ((size_t)y + (size_t)s->w->sy * z))] > 0;
    print_message("%ld of the left column's texels at x = 0 hold light\n", lit);
    assert_true(lit > s->w->sz * 7 / 2);
    free(tex);

    light_tex_sync_fresh(&s->tex, s->l);
    const float eye[5] = { 124, 12, 48, 270, -20 }; /* east of the face, looking west at it */
    uint8_t *drawn = render(s, true, eye[0], eye[1], eye[2], eye[3], eye[4]);
    all_fresh(s);
    uint8_t *stale = render(s, true, eye[0], eye[1], eye[2], eye[3], eye[4]);
    light_tex_upload(&s->tex, eager, NULL, NULL);
    uint8_t *cleared = render(s, true, eye[0], eye[1], eye[2], eye[3], eye[4]);
    int same = test_pixels_differ(drawn, cleared, W * H, 2), read = test_pixels_differ(drawn, stale, W * H, 8);
    print_message("against the eager clear %d pixels differ, against the stale texels %d\n", same, read);
    assert_int_equal(same, 0);
    assert_true(read > W * H / 20); /* the face reads the new column: the bits decide what it shows */
    free(drawn), free(stale), free(cleared);
    light_destroy(eager);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_texture_equals_volume),
        cmocka_unit_test(test_plain_has_no_seams),
        cmocka_unit_test(test_tower_shadow_on_screen),
        cmocka_unit_test(test_moved_texture_equals_volume),
        cmocka_unit_test(test_moved_window_same_lit_picture),
        cmocka_unit_test(test_left_columns_drawn_as_an_eager_clear),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
