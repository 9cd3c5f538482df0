/* Block light from emitters (light/emit.h) on the CPU: the levels fall by
 * one a voxel of air from a lamp, stop at solids (which hold the light of
 * their brightest open face), and a relight of an edit's window gives the
 * bytes a whole fill gives, for lamps placed and cut, in a window at the
 * origin, in a moved one and in one streaming over a world, and so do
 * columns made from snapshots of their rings and landed; a copy kept by
 * the boxes each relight or landing returns (as the texture is) stays
 * equal to the volume, and a relight returns no more than the light it
 * moved. */
#include "test_support.h"

#include "core/rng.h"
#include "light/emit.h"
#include "light/light.h"
#include "voxel/world.h"

#include <stdlib.h>
#include <string.h>

static int wrap(int v, int n)
{
    int r = v % n;
    return r < 0 ? r + n : r;
}

/* What the texture upload does with a relight's box: its bytes, from the
 * volume's slots into the copy's. */
static void mirror_box(uint8_t *mirror, const emit *e, const int lo[3], const int hi[3])
{
    int sx, sy, sz;
    emit_size(e, &sx, &sy, &sz);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++) {
                size_t i = (size_t)wrap(x, sx) + (size_t)sx * ((size_t)y + (size_t)sy * (size_t)wrap(z, sz));
                mirror[i] = emit_data(e)[i];
            }
}

static uint8_t *mirror_of(const emit *e)
{
    int sx, sy, sz;
    emit_size(e, &sx, &sy, &sz);
    size_t n = (size_t)sx * (size_t)sy * (size_t)sz;
    uint8_t *m = malloc(n);
    assert_non_null(m);
    memcpy(m, emit_data(e), n);
    return m;
}

static void assert_mirrors(const uint8_t *mirror, const emit *e)
{
    int sx, sy, sz;
    emit_size(e, &sx, &sy, &sz);
    assert_int_equal(memcmp(mirror, emit_data(e), (size_t)sx * (size_t)sy * (size_t)sz), 0);
}

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
    uint8_t *mirror = mirror_of(e);
    rng r = rng_make(45);
    int relit = 0;
    for (int i = 0; i < 40; i++) {
        int x = X + rng_range(&r, 18, 102), y = rng_range(&r, 8, 32), z = Z + rng_range(&r, 18, 102);
        int s = rng_range(&r, 1, 4);
        static const uint8_t mats[] = { MAT_LAMP, MAT_AIR, MAT_STONE, MAT_GLOW_ORE, MAT_LAMP };
        uint8_t m = mats[rng_range(&r, 0, 4)];
        fill(w, x, y, z, x + s, y + s, z + s, m);
        int lo[3] = { x, y, z }, hi[3] = { x + s, y + s, z + s }, wl[3], wh[3];
        if (emit_relight(e, w, lo, hi, wl, wh)) {
            relit++;
            mirror_box(mirror, e, wl, wh);
        }
        assert_mirrors(mirror, e);
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
                    if (emit_relight(e, w, lo, hi, wl, wh)) mirror_box(mirror, e, wl, wh);
                }
    assert_mirrors(mirror, e);
    emit_fill_all(whole, w);
    assert_true(emit_hash(e) == emit_hash(whole));
    for (int y = 0; y < 64; y++) assert_int_equal(emit_get(e, X + 60, y, Z + 60), 0);
    free(mirror);
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
    assert_true(emit_last_visited(e) > 1000);
    /* in the dark before, what it returns is the box of what it lit: no
     * more (the upload is that box), no less (the copy would be wrong) */
    int blo[3] = { 1 << 20, 1 << 20, 1 << 20 }, bhi[3] = { -(1 << 20), -(1 << 20), -(1 << 20) };
    for (int z = 0; z < w->sz; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = 0; x < w->sx; x++) {
                if (!emit_get(e, x, y, z)) continue;
                const int p[3] = { x, y, z };
                for (int k = 0; k < 3; k++) {
                    blo[k] = p[k] < blo[k] ? p[k] : blo[k];
                    bhi[k] = p[k] + 1 > bhi[k] ? p[k] + 1 : bhi[k];
                }
            }
    for (int k = 0; k < 3; k++) {
        assert_int_equal(wl[k], blo[k]);
        assert_int_equal(wh[k], bhi[k]);
    }
    /* the room's air, 14 voxels each way, and the floor below, which holds
     * the light of its face 5 levels down */
    assert_int_equal(wl[0], 40 - (EMIT_MAX_LEVEL - 1));
    assert_int_equal(wh[0], 41 + (EMIT_MAX_LEVEL - 1));
    assert_int_equal(wl[1], 9);
    emit_destroy(e);
    world_destroy(w);
}

/* 8 x 8 columns of stone with rooms carved in it, some with a lamp or ore. */
static world *caves_world(void)
{
    world *w = world_create_at(0, 0, 8, 2, 8);
    assert_non_null(w);
    fill(w, 0, 0, 0, w->sx, 60, w->sz, MAT_STONE);
    rng r = rng_make(7);
    for (int i = 0; i < 40; i++) {
        int x = rng_range(&r, 2, w->sx - 30), y = rng_range(&r, 4, 30), z = rng_range(&r, 2, w->sz - 30);
        int s = rng_range(&r, 6, 26);
        fill(w, x, y, z, x + s, y + s / 2 + 2, z + s, MAT_AIR);
        if (rng_range(&r, 0, 2)) world_set(w, x + s / 2, y, z + s / 2, rng_range(&r, 0, 1) ? MAT_LAMP : MAT_GLOW_ORE);
    }
    return w;
}

/* A window of 4 x 4 columns streaming over a world of 8 x 8, one column
 * row a step, as the game's does: each step moves the volume and relights
 * the columns that entered, as their arrivals are; their slots hold the
 * light of the columns that left. The bytes equal a fresh fill of the
 * same window away from its edges, and the copy kept by the returned
 * boxes equals the bytes. */
static void test_streamed_window(void **state)
{
    (void)state;
    world *w = caves_world();
    const int n = 4 * CHUNK_SIZE;
    emit *e = emit_create(n, w->sy, n), *whole = emit_create(n, w->sy, n);
    assert_non_null(e);
    assert_non_null(whole);
    emit_fill_all(e, w);
    uint8_t *mirror = mirror_of(e);
    /* east four columns, south four, then west two and north one */
    static const int steps[][2] = { { 1, 0 }, { 1, 0 }, { 1, 0 }, { 1, 0 }, { 0, 1 }, { 0, 1 },
                                    { 0, 1 }, { 0, 1 }, { -1, 0 }, { -1, 0 }, { 0, -1 } };
    int ox = 0, oz = 0, written = 0;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        int px = ox, pz = oz;
        ox += steps[k][0], oz += steps[k][1];
        emit_move(e, ox * CHUNK_SIZE, oz * CHUNK_SIZE);
        for (int cz = oz; cz < oz + 4; cz++)
            for (int cx = ox; cx < ox + 4; cx++) {
                if (cx >= px && cx < px + 4 && cz >= pz && cz < pz + 4) continue; /* stayed */
                const int lo[3] = { cx * CHUNK_SIZE, 0, cz * CHUNK_SIZE };
                const int hi[3] = { lo[0] + CHUNK_SIZE, w->sy, lo[2] + CHUNK_SIZE };
                int wl[3], wh[3];
                if (emit_relight(e, w, lo, hi, wl, wh)) {
                    mirror_box(mirror, e, wl, wh);
                    written++;
                }
            }
        assert_mirrors(mirror, e);
        emit_move(whole, ox * CHUNK_SIZE, oz * CHUNK_SIZE);
        emit_fill_all(whole, w);
        /* (within EMIT_REACH of the window's edges a fresh fill misses the
         * emitters beyond them; the volume keeps light they gave before
         * the move) */
        long lit = 0;
        for (int z = oz * CHUNK_SIZE + EMIT_REACH; z < (oz + 4) * CHUNK_SIZE - EMIT_REACH; z++)
            for (int y = 0; y < w->sy; y++)
                for (int x = ox * CHUNK_SIZE + EMIT_REACH; x < (ox + 4) * CHUNK_SIZE - EMIT_REACH; x++) {
                    if (emit_get(e, x, y, z) != emit_get(whole, x, y, z)) fail_msg("(%d %d %d) differs", x, y, z);
                    lit += emit_get(e, x, y, z) != 0;
                }
        assert_true(lit > 100);
    }
    assert_true(written >= 8);
    free(mirror);
    emit_destroy(e);
    emit_destroy(whole);
    world_destroy(w);
}

/* A window streaming over the world whose columns get their bytes as the
 * game gives them: counted and cleared as they arrive (emit_column_arrived),
 * made from a snapshot of their ring once it is in the window
 * (light_column's, emit_column_fill: on the workers in the game) and
 * landed (emit_column_land). Every column whose ring is in the window then
 * holds what a whole fill gives, and a copy kept by the boxes returned
 * stays equal to the volume. */
static void test_columns_from_rings(void **state)
{
    (void)state;
    world *w = caves_world();
    const int n = 4 * CHUNK_SIZE;
    emit *e = emit_create(n, w->sy, n), *whole = emit_create(n, w->sy, n);
    emit_column *ec = emit_column_create(w->sy), *low = emit_column_create(CHUNK_SIZE);
    light_column *lc = light_column_create(w->cy);
    assert_true(e && whole && ec && low && lc);
    emit_fill_all(e, w);
    uint8_t *mirror = mirror_of(e);
    static const int steps[][2] = { { 1, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 0, 1 }, { -1, 0 }, { 0, -1 } };
    int ox = 0, oz = 0, landed = 0, wl[3], wh[3];
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        int px = ox, pz = oz;
        ox += steps[k][0], oz += steps[k][1];
        emit_move(e, ox * CHUNK_SIZE, oz * CHUNK_SIZE);
        for (int cz = oz; cz < oz + 4; cz++)
            for (int cx = ox; cx < ox + 4; cx++)
                if (!(cx >= px && cx < px + 4 && cz >= pz && cz < pz + 4)) {
                    if (emit_column_arrived(e, w, cx, cz, wl, wh)) mirror_box(mirror, e, wl, wh);
                    /* dark until it lands: its slot held a column that left */
                    for (int z = cz * CHUNK_SIZE; z < (cz + 1) * CHUNK_SIZE; z++)
                        for (int y = 0; y < w->sy; y++)
                            for (int x = cx * CHUNK_SIZE; x < (cx + 1) * CHUNK_SIZE; x++)
                                if (emit_get(e, x, y, z)) fail_msg("arrived (%d %d %d) is lit", x, y, z);
                }
        assert_mirrors(mirror, e);
        /* the columns whose ring is in the window: the middle two by two */
        for (int cz = oz + 1; cz < oz + 3; cz++)
            for (int cx = ox + 1; cx < ox + 3; cx++) {
                assert_true(light_column_snapshot(lc, w, cx, cz, EMIT_REACH));
                assert_false(emit_column_fill(low, light_column_ring(lc), cx, cz)); /* another height */
                assert_true(emit_column_fill(ec, light_column_ring(lc), cx, cz));
                if (emit_column_land(ec, e, wl, wh)) mirror_box(mirror, e, wl, wh);
                landed++;
            }
        assert_mirrors(mirror, e);
        emit_move(whole, ox * CHUNK_SIZE, oz * CHUNK_SIZE);
        emit_fill_all(whole, w);
        long lit = 0;
        for (int z = (oz + 1) * CHUNK_SIZE; z < (oz + 3) * CHUNK_SIZE; z++)
            for (int y = 0; y < w->sy; y++)
                for (int x = (ox + 1) * CHUNK_SIZE; x < (ox + 3) * CHUNK_SIZE; x++) {
                    if (emit_get(e, x, y, z) != emit_get(whole, x, y, z)) fail_msg("(%d %d %d) differs", x, y, z);
                    lit += emit_get(e, x, y, z) != 0;
                }
        assert_true(lit > 100);
    }
    /* a column the window does not hold lands nowhere */
    assert_true(light_column_snapshot(lc, w, 6, 6, EMIT_REACH));
    assert_true(emit_column_fill(ec, light_column_ring(lc), 6, 6));
    assert_false(emit_column_land(ec, e, wl, wh));
    assert_mirrors(mirror, e);
    assert_true(landed >= 20);
    free(mirror);
    light_column_destroy(lc);
    emit_column_destroy(ec), emit_column_destroy(low);
    emit_destroy(e), emit_destroy(whole);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_fall_by_one),
        cmocka_unit_test(test_relight_equals_fill),
        cmocka_unit_test(test_dark_edits_cost_nothing),
        cmocka_unit_test(test_streamed_window),
        cmocka_unit_test(test_columns_from_rings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
