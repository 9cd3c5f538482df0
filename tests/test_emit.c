/* Block light from emitters (light/emit.h) on the CPU: the levels fall by
 * one a voxel of air from a lamp, stop at solids (which hold the light of
 * their brightest open face), and a relight of an edit's window gives the
 * bytes a whole fill gives, for lamps placed and cut, in a window at the
 * origin and in a moved one. */
#include "test_support.h"

#include "core/rng.h"
#include "light/emit.h"
#include "voxel/world.h"

#include <stdlib.h>
#include <string.h>

static void fill(world *w, int x0, int y0, int z0, int x1, int y1, int z1, uint8_t m)
{
    for (int z = z0; z < z1; z++)
        for (int y = y0; y < y1; y++)
            for (int x = x0; x < x1; x++) world_set(w, x, y, z, m);
}

/* A solid block with a sealed room carved out of it. */
static world *room_world(int ocx, int ocz)
{
    world *w = world_create_at(ocx, ocz, 4, 2, 4);
    assert_non_null(w);
    int X = ocx * CHUNK_SIZE, Z = ocz * CHUNK_SIZE;
    fill(w, X, 0, Z, X + 128, 60, Z + 128, MAT_STONE);
    fill(w, X + 20, 10, Z + 20, X + 100, 30, Z + 100, MAT_AIR);
    return w;
}

static void test_levels_fall_by_one(void **state)
{
    (void)state;
    world *w = room_world(0, 0);
    world_set(w, 60, 15, 60, MAT_LAMP);
    emit *e = emit_create(w->sx, w->sy, w->sz);
    assert_non_null(e);
    emit_fill_all(e, w);
    assert_int_equal(emit_get(e, 60, 15, 60), EMIT_MAX_LEVEL);
    for (int d = 1; d < EMIT_MAX_LEVEL; d++) {
        assert_int_equal(emit_get(e, 60 + d, 15, 60), EMIT_MAX_LEVEL - d);
        assert_int_equal(emit_get(e, 60, 15, 60 - d), EMIT_MAX_LEVEL - d);
    }
    assert_int_equal(emit_get(e, 60 + EMIT_MAX_LEVEL, 15, 60), 0);
    /* Manhattan distance through open air */
    assert_int_equal(emit_get(e, 62, 17, 61), EMIT_MAX_LEVEL - 5);
    /* the floor under the lamp's column holds its open face's light; the
     * rock below it, none */
    assert_int_equal(emit_get(e, 60, 9, 60), EMIT_MAX_LEVEL - 5);
    assert_int_equal(emit_get(e, 60, 8, 60), 0);
    /* a wall between two rooms stops it */
    fill(w, 64, 10, 20, 65, 30, 100, MAT_STONE);
    emit_fill_all(e, w);
    assert_int_equal(emit_get(e, 63, 15, 60), EMIT_MAX_LEVEL - 3);
    assert_int_equal(emit_get(e, 64, 15, 60), EMIT_MAX_LEVEL - 3); /* the wall holds its lit face's light */
    assert_int_equal(emit_get(e, 65, 15, 60), 0);
    /* glowing ore shines less far */
    world_set(w, 30, 20, 30, MAT_GLOW_ORE);
    emit_fill_all(e, w);
    assert_true(emit_level(MAT_GLOW_ORE) > 0 && emit_level(MAT_GLOW_ORE) < EMIT_MAX_LEVEL);
    assert_int_equal(emit_get(e, 31, 20, 30), emit_level(MAT_GLOW_ORE) - 1);
    emit_destroy(e);
    world_destroy(w);
}

/* Edits, each relit in its window, against a fresh whole fill. */
static void relight_equals_fill(int ocx, int ocz)
{
    world *w = room_world(ocx, ocz);
    int X = ocx * CHUNK_SIZE, Z = ocz * CHUNK_SIZE;
    emit *e = emit_create(w->sx, w->sy, w->sz), *whole = emit_create(w->sx, w->sy, w->sz);
    assert_non_null(e);
    assert_non_null(whole);
    emit_move(e, world_x0(w), world_z0(w));
    emit_move(whole, world_x0(w), world_z0(w));
    emit_fill_all(e, w);
    rng r = rng_make(45);
    int relit = 0;
    for (int i = 0; i < 40; i++) {
        int x = X + rng_range(&r, 18, 102), y = rng_range(&r, 8, 32), z = Z + rng_range(&r, 18, 102);
        int s = rng_range(&r, 1, 4);
        static const uint8_t mats[] = { MAT_LAMP, MAT_AIR, MAT_STONE, MAT_GLOW_ORE, MAT_LAMP };
        uint8_t m = mats[rng_range(&r, 0, 4)];
        fill(w, x, y, z, x + s, y + s, z + s, m);
        int lo[3] = { x, y, z }, hi[3] = { x + s, y + s, z + s }, wl[3], wh[3];
        relit += emit_relight(e, w, lo, hi, wl, wh);
        emit_fill_all(whole, w);
        assert_true(emit_hash(e) == emit_hash(whole));
    }
    assert_true(relit > 20);
    /* cutting every lamp out leaves the dark */
    for (int z = Z; z < Z + 128; z++)
        for (int y = 0; y < 64; y++)
            for (int x = X; x < X + 128; x++)
                if (emit_level(world_get(w, x, y, z))) {
                    world_set(w, x, y, z, MAT_AIR);
                    int lo[3] = { x, y, z }, hi[3] = { x + 1, y + 1, z + 1 }, wl[3], wh[3];
                    emit_relight(e, w, lo, hi, wl, wh);
                }
    emit_fill_all(whole, w);
    assert_true(emit_hash(e) == emit_hash(whole));
    for (int y = 0; y < 64; y++) assert_int_equal(emit_get(e, X + 60, y, Z + 60), 0);
    emit_destroy(e);
    emit_destroy(whole);
    world_destroy(w);
}

static void test_relight_equals_fill(void **state)
{
    (void)state;
    relight_equals_fill(0, 0);
    relight_equals_fill(-7, 3); /* a window away from the origin, slots rotated */
}

/* Nothing near an edit: nothing to relight or upload. */
static void test_dark_edits_cost_nothing(void **state)
{
    (void)state;
    world *w = room_world(0, 0);
    emit *e = emit_create(w->sx, w->sy, w->sz);
    emit_fill_all(e, w);
    world_set(w, 40, 12, 40, MAT_AIR);
    int lo[3] = { 40, 12, 40 }, hi[3] = { 41, 13, 41 }, wl[3], wh[3];
    assert_false(emit_relight(e, w, lo, hi, wl, wh));
    world_set(w, 40, 12, 40, MAT_LAMP);
    assert_true(emit_relight(e, w, lo, hi, wl, wh));
    assert_int_equal(wl[0], 40 - EMIT_REACH);
    assert_int_equal(wh[1], 13 + EMIT_REACH);
    assert_true(emit_last_visited(e) > 1000);
    emit_destroy(e);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_fall_by_one),
        cmocka_unit_test(test_relight_equals_fill),
        cmocka_unit_test(test_dark_edits_cost_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
