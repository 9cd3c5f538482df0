/* The enhanced render mode (headless GL): after a cut, the chunks it
 * touches are re-enhanced at the next build + draw (the same frame), and
 * the result equals a mode that enhanced the edited world from scratch;
 * chunks beyond enhance.radius stay blocks (not enhanced). */
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

static void *fresh_mode(fixture *f)
{
    char err[512];
    void *m = enhance_view_mode.create(err, sizeof err);
    if (!m) print_error("%s\n", err);
    assert_non_null(m);
    enhance_view_mode.reset(m, f->w->cx, f->w->cy, f->w->cz);
    assert_true(enhance_view_mode.build(m, f->w, f->jobs, f->all, f->w->chunk_count));
    enhance_view_mode.upload(m, f->w, f->all, f->w->chunk_count);
    return m;
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edit_updates_like_scratch),
        cmocka_unit_test(test_far_chunks_are_evicted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
