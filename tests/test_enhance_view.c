/* The enhanced render mode (headless GL): after a cut, the chunks it
 * touches are re-enhanced at the next build + draw (the same frame), and
 * the result equals a mode that enhanced the edited world from scratch;
 * chunks beyond enhance.radius stay blocks (not enhanced); the ground the
 * player walks on is the fragments, below 0 too, and a slot a moved
 * window handed to another column is that column's voxels until built. */
#include "test_support.h"

#include <glad/gl.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "gfx/camera.h"
#include "gfx/enhance_view.h"
#include "platform/platform.h"

typedef struct fixture {
    platform *plat;
    job_pool *jobs;
    world *w;
    int *all;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    char err[1024];
    f->plat = platform_create(&(platform_desc){ .width = 64, .height = 64, .headless = true }, err, sizeof err);
    if (!f->plat) {
        print_error("headless context: %s\n", err);
        return -1;
    }
    f->jobs = job_pool_create(2);
    f->w = world_create(3, 2, 3);
    for (int z = 0; z < f->w->sz; z++)
        for (int x = 0; x < f->w->sx; x++) {
            int h = 20 + (int)(rng_hash3(5, x >> 3, 0, z >> 3) % 16);
            for (int y = 0; y <= h; y++) world_set(f->w, x, y, z, y == h ? MAT_GRASS : MAT_DIRT);
        }
    f->all = malloc(sizeof *f->all * (size_t)f->w->chunk_count);
    for (int i = 0; i < f->w->chunk_count; i++) f->all[i] = i;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    world_destroy(f->w);
    job_pool_destroy(f->jobs);
    free(f->all);
    platform_destroy(f->plat);
    free(f);
    return 0;
}

/* A mode that built every chunk of w (idx: w's chunk indices). */
static void *mode_of(fixture *f, const world *w, int *idx)
{
    char err[512];
    void *m = enhance_view_mode.create(err, sizeof err);
    if (!m) print_error("%s\n", err);
    assert_non_null(m);
    for (int i = 0; i < w->chunk_count; i++) idx[i] = i;
    enhance_view_mode.reset(m, w->cx, w->cy, w->cz);
    assert_true(enhance_view_mode.build(m, w, f->jobs, idx, w->chunk_count));
    enhance_view_mode.upload(m, w, idx, w->chunk_count);
    return m;
}

static void *fresh_mode(fixture *f) { return mode_of(f, f->w, f->all); }

static void test_edit_updates_like_scratch(void **state)
{
    fixture *f = *state;
    double eye[3] = { 10, 40, 10 };
    void *m = fresh_mode(f);
    enhance_view_prepare(m, eye);
    enhance_view_stats before;
    enhance_view_get_stats(m, &before);
    assert_true(before.chunks > 0 && before.chunks < f->w->chunk_count); /* the radius leaves some as blocks */
    assert_true(before.fragments > 0);
    /* a cut across a chunk border, as the tool makes one */
    while (world_take_dirty(f->w, f->all, f->w->chunk_count)) {}
    for (int y = 18; y < 40; y++)
        for (int z = 28; z < 37; z++)
            for (int x = 26; x < 35; x++) world_set(f->w, x, y, z, MAT_AIR);
    int dirty[64];
    int n = world_take_dirty(f->w, dirty, 64);
    assert_true(n > 0);
    assert_true(enhance_view_mode.build(m, f->w, f->jobs, dirty, n));
    enhance_view_mode.upload(m, f->w, dirty, n);
    enhance_view_prepare(m, eye);
    enhance_view_stats after;
    enhance_view_get_stats(m, &after);
    assert_true(after.fragments != before.fragments);
    for (int i = 0; i < f->w->chunk_count; i++) f->all[i] = i;
    void *scratch = fresh_mode(f);
    enhance_view_prepare(scratch, eye);
    enhance_view_stats want;
    enhance_view_get_stats(scratch, &want);
    assert_int_equal(after.chunks, want.chunks);
    assert_true(after.fragments == want.fragments);
    assert_int_equal(after.surface_voxels, want.surface_voxels);
    assert_int_equal(after.skipped, want.skipped);
    assert_int_equal(after.quads, want.quads);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    enhance_view_mode.destroy(scratch);
    enhance_view_mode.destroy(m);
}

/* Walking away gives the fragments of chunks left behind back. */
static void test_far_chunks_are_evicted(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < f->w->chunk_count; i++) f->all[i] = i;
    void *m = fresh_mode(f);
    double eye[3] = { 10, 40, 10 };
    enhance_view_prepare(m, eye);
    enhance_view_stats near;
    enhance_view_get_stats(m, &near);
    assert_true(near.chunks > 0);
    camera cam = { .pos = { 10, 40, 10 }, .yaw = 45, .pitch = -10, .fov = 70, .aspect = 1, .znear = 0.05f, .zfar = 300 };
    render_settings rs = { .width = 64, .height = 64, .framebuffer = platform_framebuffer(f->plat), .view_distance = 300 };
    render_item *vis = malloc(sizeof *vis * (size_t)f->w->chunk_count);
    assert_non_null(vis);
    for (int step = 0; step < 2; step++) {
        if (step) {
            /* the far corner, more than radius + 2 chunks from the first eye */
            cam.pos[0] = 600, cam.pos[2] = 600;
        }
        camera_update(&cam);
        render_frame_begin(&rs);
        const world_grid grid = world_grid_of(f->w);
        int n = render_visible_set(&cam, rs.view_distance, &grid, NULL, vis);
        render_view v = { &cam, &rs, vis, n, grid };
        render_stats st;
        enhance_view_mode.draw(m, &v, &st);
    }
    enhance_view_stats after;
    enhance_view_get_stats(m, &after);
    assert_int_equal(after.chunks, 0);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    free(vis);
    enhance_view_mode.destroy(m);
}

/* The ground the player walks on in the enhanced mode is the fragments
 * the mode made: in a window that reaches below 0 (streamed), fragment
 * cell by cell around x = 0 and z = 0, the same as the fragments of the
 * same chunks enhanced on the CPU. (Fragment -1 once read voxel 0's
 * chunk at fragment -1: a negative shift, and the wrong answer.) */
static void test_ground_below_zero_is_the_fragments(void **state)
{
    fixture *f = *state;
    world *w = world_create_at(-1, -1, 2, 2, 2);
    assert_non_null(w);
    for (int z = -CHUNK_SIZE; z < CHUNK_SIZE; z++)
        for (int x = -CHUNK_SIZE; x < CHUNK_SIZE; x++) {
            int h = 20 + (int)(rng_hash3(7, x >> 2, 0, z >> 2) % 12);
            for (int y = 0; y <= h; y++) world_set(w, x, y, z, y == h ? MAT_SAND : MAT_DIRT);
        }
    int all[8];
    void *m = mode_of(f, w, all);
    const double eye[3] = { 0, 40, 0 };
    enhance_view_prepare(m, eye);
    collide_grid g;
    assert_true(enhance_view_ground(m, w, &g));
    /* the CPU reference: each of the four columns' lowest chunk, enhanced
     * from the same input with the same parameters */
    enhance_params p = enhance_view_params();
    char err[512];
    enhance_ctx *e = enhance_create(&p, err, sizeof err);
    assert_non_null(e);
    const int s = g.scale, side = CHUNK_SIZE * s;
    assert_int_equal(s, enhance_factor(&p));
    enhance_input *in = calloc(4, sizeof *in);
    enhance_chunk ref[4] = { 0 };
    assert_non_null(in);
    for (int k = 0; k < 4; k++) {
        enhance_gather(w, -1 + (k & 1), 0, -1 + (k >> 1), &in[k]);
        enhance_chunk_build(e, &in[k], true, &ref[k]);
    }
    long cells = 0, solid = 0, differ = 0;
    for (int fy = 18 * s; fy < 32 * s; fy++)
        for (int fz = -3 * s; fz < 3 * s; fz++)
            for (int fx = -3 * s; fx < 3 * s; fx++) {
                int kx = fx < 0 ? 0 : 1, kz = fz < 0 ? 0 : 1, k = kx + 2 * kz;
                int lx = fx + (1 - kx) * side, lz = fz + (1 - kz) * side; /* in the chunk */
                bool want = material_get(enhance_chunk_fragment_material(&ref[k], &in[k], lx, fy, lz))->solid;
                bool got = g.solid(g.user, fx - world_x0(w) * s, fy, fz - world_z0(w) * s); /* from the window's first */
                cells++, solid += want, differ += want != got;
            }
    printf("fragment cells around (0, 0): %ld, %ld solid, %ld differ from the CPU's\n", cells, solid, differ);
    assert_true(solid > 0 && solid < cells); /* the surface runs through the box */
    assert_int_equal(differ, 0);
    for (int k = 0; k < 4; k++) enhance_chunk_free(&ref[k]);
    free(in);
    enhance_destroy(e);
    enhance_view_mode.destroy(m);
    world_destroy(w);
}

/* A streamed window that moves hands a slot to another column before the
 * render builds it again: until then the ground there is that column's
 * voxels, not the fragments the slot still holds of the column that
 * left (they were walked on, phantom ground at the new place). */
static void test_ground_of_a_moved_slot(void **state)
{
    fixture *f = *state;
    world *w = world_create_at(0, 0, 2, 2, 2);
    assert_non_null(w);
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++)
            for (int y = 0; y <= 30; y++) world_set(w, x, y, z, MAT_DIRT);
    int all[8];
    void *m = mode_of(f, w, all);
    const double eye[3] = { 32, 40, 32 };
    enhance_view_prepare(m, eye);
    /* one column east: column 2 takes column 0's slots; it arrives with
     * ground at y 10, and the render has not built it yet */
    assert_int_equal(world_move(w, 1, 0), 2);
    for (int z = 0; z < w->sz; z++)
        for (int x = 64; x < 96; x++)
            for (int y = 0; y <= 10; y++) world_set(w, x, y, z, MAT_STONE);
    world_set_column_state(w, 2, 0, WORLD_COL_READY);
    world_set_column_state(w, 2, 1, WORLD_COL_READY);
    collide_grid g;
    assert_true(enhance_view_ground(m, w, &g));
    const int s = g.scale;
    long solid = 0, differ = 0;
    for (int fy = 0; fy < 40 * s; fy += 3)
        for (int fz = 0; fz < 64 * s; fz += 5)
            for (int fx = 64 * s; fx < 96 * s; fx += 5) {
                bool want = material_get(world_get(w, fx / s, fy / s, fz / s))->solid;
                solid += want, differ += want != g.solid(g.user, fx - world_x0(w) * s, fy, fz - world_z0(w) * s);
            }
    printf("a moved slot's ground: %ld of its cells solid, %ld differ from its voxels\n", solid, differ);
    assert_true(solid > 0);
    assert_int_equal(differ, 0);
    enhance_view_mode.destroy(m);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edit_updates_like_scratch),
        cmocka_unit_test(test_far_chunks_are_evicted),
        cmocka_unit_test(test_ground_below_zero_is_the_fragments),
        cmocka_unit_test(test_ground_of_a_moved_slot),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
