/* gfx/mesh_arena on a headless context: what a frame lands.
 *  - within a budget a frame lands what fits (one mesh past it alone), the
 *    rest waits and lands the next frame, its description with it, and
 *    every range holds its own bytes;
 *  - with no budget a frame still lands one ring region's worth (8 MiB),
 *    the rest the next frame;
 *  - MESH_ARENA_ALL lands every mesh when it is put, past the ring (the
 *    enhanced mode's fragments, made and drawn in one frame). */
#include "test_support.h"

#include <glad/gl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/mesh_arena.h"
#include "platform/platform.h"

#define UNIT 16

typedef struct fixture {
    platform *plat;
    mesh_arena *m;
    int landed_slot[8], landed_meta[8], landed_n;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    char err[512];
    f->plat = platform_create(&(platform_desc){ .width = 64, .height = 64, .headless = true }, err, sizeof err);
    if (!f->plat) {
        print_error("headless context: %s\n", err);
        return -1;
    }
    f->m = mesh_arena_create(UNIT, 8, sizeof(int), err, sizeof err);
    if (!f->m) {
        print_error("mesh arena: %s\n", err);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    mesh_arena_destroy(f->m);
    platform_destroy(f->plat);
    free(f);
    return 0;
}

static void on_landed(void *user, int slot, const void *meta)
{
    fixture *f = user;
    assert_non_null(meta);
    f->landed_slot[f->landed_n] = slot;
    memcpy(&f->landed_meta[f->landed_n++], meta, sizeof(int));
}

/* `units` units whose bytes all say `tag`. */
static unsigned char *mesh_of(uint32_t units, unsigned char tag)
{
    unsigned char *d = malloc((size_t)units * UNIT);
    assert_non_null(d);
    memset(d, tag, (size_t)units * UNIT);
    return d;
}

/* Whether slot's range holds `units` units of `tag`, read back. */
static bool holds(const fixture *f, int slot, uint32_t units, unsigned char tag)
{
    const long at = mesh_arena_first(f->m, slot);
    if (at < 0) return false;
    unsigned char *got = malloc((size_t)units * UNIT);
    assert_non_null(got);
    glGetNamedBufferSubData(mesh_arena_buffer(f->m), (GLintptr)at * UNIT, (GLsizeiptr)units * UNIT, got);
    bool ok = true;
    for (size_t i = 0; i < (size_t)units * UNIT; i++) ok &= got[i] == tag;
    free(got);
    return ok;
}

/* A fresh arena whose first frame has passed (uploads before it land at once). */
static void fresh(fixture *f, size_t budget)
{
    assert_true(mesh_arena_reset(f->m, 8));
    mesh_arena_set_budget(f->m, budget);
    mesh_arena_begin_frame(f->m, on_landed, f);
    mesh_arena_end_frame(f->m);
    glFinish(); /* the ring's regions free */
    f->landed_n = 0;
}

static void test_budget_waits(void **state)
{
    fixture *f = *state;
    fresh(f, 2 * UNIT);
    unsigned char *a = mesh_of(2, 0xa1), *b = mesh_of(2, 0xb2), *c = mesh_of(5, 0xc3);
    const int ma = 1, mb = 2, mc = 3;
    mesh_arena_begin_frame(f->m, on_landed, f);
    assert_int_equal(mesh_arena_put(f->m, 0, a, 2, &ma), MESH_ARENA_LANDED);
    assert_int_equal(mesh_arena_put(f->m, 1, b, 2, &mb), MESH_ARENA_PENDING); /* past the budget */
    assert_int_equal(mesh_arena_get_stats(f->m).pending, 1);
    mesh_arena_end_frame(f->m);
    glFinish();
    mesh_arena_begin_frame(f->m, on_landed, f); /* the waiting one first */
    assert_int_equal(f->landed_n, 1);
    assert_int_equal(f->landed_slot[0], 1);
    assert_int_equal(f->landed_meta[0], mb);
    assert_int_equal(mesh_arena_put(f->m, 2, c, 5, &mc), MESH_ARENA_PENDING); /* the frame's budget is spent */
    mesh_arena_end_frame(f->m);
    glFinish();
    mesh_arena_begin_frame(f->m, on_landed, f); /* past the budget, alone */
    assert_int_equal(f->landed_n, 2);
    assert_int_equal(f->landed_meta[1], mc);
    mesh_arena_end_frame(f->m);
    assert_true(holds(f, 0, 2, 0xa1));
    assert_true(holds(f, 1, 2, 0xb2));
    assert_true(holds(f, 2, 5, 0xc3));
    free(a), free(b), free(c);
}

/* 3 MiB meshes: with no budget a frame lands what one ring region holds;
 * MESH_ARENA_ALL lands them all in the frame they are put. */
static void test_all_lands_at_once(void **state)
{
    fixture *f = *state;
    const uint32_t units = (3u << 20) / UNIT;
    unsigned char *mesh[4];
    for (int k = 0; k < 4; k++) mesh[k] = mesh_of(units, (unsigned char)(0x10 + k));
    const int meta = 7;

    fresh(f, 0);
    mesh_arena_begin_frame(f->m, on_landed, f);
    int landed = 0;
    for (int k = 0; k < 4; k++) landed += mesh_arena_put(f->m, k, mesh[k], units, &meta) == MESH_ARENA_LANDED;
    mesh_arena_end_frame(f->m);
    printf("no budget: %d of 4 meshes of 3 MiB landed in their frame\n", landed);
    assert_int_equal(landed, 2); /* 8 MiB a region */

    fresh(f, MESH_ARENA_ALL);
    mesh_arena_begin_frame(f->m, on_landed, f);
    landed = 0;
    for (int k = 0; k < 4; k++) landed += mesh_arena_put(f->m, k, mesh[k], units, &meta) == MESH_ARENA_LANDED;
    assert_int_equal(mesh_arena_get_stats(f->m).pending, 0);
    mesh_arena_end_frame(f->m);
    printf("MESH_ARENA_ALL: %d of 4 landed\n", landed);
    assert_int_equal(landed, 4);
    for (int k = 0; k < 4; k++) assert_true(holds(f, k, units, (unsigned char)(0x10 + k)));
    for (int k = 0; k < 4; k++) free(mesh[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_waits),
        cmocka_unit_test(test_all_lands_at_once),
    };
    if (getenv("STRATA_TEST_FILTER")) cmocka_set_test_filter(getenv("STRATA_TEST_FILTER"));
    return cmocka_run_group_tests(tests, setup, teardown);
}
