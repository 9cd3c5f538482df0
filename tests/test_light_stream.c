/* Snowflake light on a moving window: the volume keeps the
 * world's toroidal slots, so a window away from the origin, built column by
 * column in any order with a relight per arrival, holds the light a whole
 * bake gives, and a moved window relit where columns entered equals a fresh
 * bake of it. The origin case is pinned to the hashes it had before the
 * window existed. Content is a pure function of global coordinates, as a
 * streamed generator's is. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "light/light.h"

#define LIGHT_FRESH_TEST_WORDS 64
#include "voxel/world.h"
#include "worldgen/biomes.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

#define GEN_SEED 11

/* The material at global (x, y, z): rolling ground with pillars, caves
 * under it, floating canopies of leaves over it, a bog pool here and
 * there. Features are whole cells of a global grid, so they cross chunk
 * and window borders the same way from every side. */
static uint8_t gen_at(int x, int y, int z)
{
    int h = 6 + (int)(4 * (1 + sin(x * 0.2) * cos(z * 0.15)));
    uint64_t cell = rng_hash3(GEN_SEED, x >> 3, y >> 2, z >> 3);
    if (y < h) {
        if (y > 1 && y < h - 1 && cell % 5 == 0) return MAT_AIR; /* a cave */
        return MAT_STONE;
    }
    uint64_t col = rng_hash3(GEN_SEED + 1, x >> 1, 0, z >> 1);
    if (col % 61 == 0 && y < h + 10) return MAT_STONE; /* a pillar */
    if (y >= h + 3 && y < h + 9 && rng_hash3(GEN_SEED + 2, x >> 2, y >> 2, z >> 2) % 9 == 0) return MAT_OAK_LEAVES;
    if (y == h && col % 37 == 1) return MAT_MUSKEG;
    return MAT_AIR;
}

/* Generates column (cx, cz) (global chunk coordinates) of w. */
static void fill_column(world *w, int cx, int cz)
{
    for (int cy = 0; cy < w->cy; cy++) {
        chunk *c = world_chunk(w, cx, cy, cz);
        assert_non_null(c);
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int y = 0; y < CHUNK_SIZE; y++)
                for (int x = 0; x < CHUNK_SIZE; x++)
                    c->vox[CHUNK_INDEX(x, y, z)] =
                        gen_at(cx * CHUNK_SIZE + x, cy * CHUNK_SIZE + y, cz * CHUNK_SIZE + z);
    }
    world_set_column_state(w, cx, cz, WORLD_COL_READY);
}

static world *generated(int ocx, int ocz, int cx, int cy, int cz)
{
    world *w = world_create_at(ocx, ocz, cx, cy, cz);
    assert_non_null(w);
    for (int z = ocz; z < ocz + cz; z++)
        for (int x = ocx; x < ocx + cx; x++) fill_column(w, x, z);
    return w;
}

/* A column arrives, as streaming announces it: relight its box. */
static void arrive(world *w, light *l, const light_params *p, job_pool *jobs, int cx, int cz)
{
    fill_column(w, cx, cz);
    int lo[3] = { cx * CHUNK_SIZE, 0, cz * CHUNK_SIZE };
    int hi[3] = { lo[0] + CHUNK_SIZE, w->sy, lo[2] + CHUNK_SIZE };
    light_relight(l, w, p, jobs, lo, hi, NULL, NULL, NULL);
}

/* How many voxels of w's interior (every voxel whose reach lies inside
 * the window) have different light in a and b. */
static long interior_differences(const world *w, const light *a, const light *b, int reach)
{
    long differ = 0;
    int x0 = world_x0(w), z0 = world_z0(w);
    for (int z = z0 + reach; z < z0 + w->sz - reach; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = x0 + reach; x < x0 + w->sx - reach; x++) {
                uint8_t s1, k1, s2, k2;
                light_get(a, x, y, z, &s1, &k1);
                light_get(b, x, y, z, &s2, &k2);
                differ += s1 != s2 || k1 != k2;
            }
    return differ;
}

/* Sum of the light over w's interior: the comparisons compare something. */
static long interior_light(const world *w, const light *l, int reach)
{
    long sum = 0;
    for (int z = world_z0(w) + reach; z < world_z0(w) + w->sz - reach; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = world_x0(w) + reach; x < world_x0(w) + w->sx - reach; x++) {
                uint8_t s, k;
                light_get(l, x, y, z, &s, &k);
                sum += s + k;
            }
    return sum;
}

/* The window at (ocx, ocz) built column by column in the given order
 * (indices into the window's columns), a relight per arrival. */
static light *streamed(int ocx, int ocz, int cx, int cy, int cz, const int *order, const light_params *p,
                       job_pool *jobs, world **out)
{
    world *w = world_create_at(ocx, ocz, cx, cy, cz);
    assert_non_null(w);
    light *l = light_create(w->sx, w->sy, w->sz);
    assert_non_null(l);
    light_move(l, world_x0(w), world_z0(w));
    for (int i = 0; i < cx * cz; i++) arrive(w, l, p, jobs, ocx + order[i] % cx, ocz + order[i] / cx);
    *out = w;
    return l;
}

static void check_window(int ocx, int ocz, job_pool *jobs)
{
    const int cx = 5, cy = 1, cz = 5, n = cx * cz;
    light_params p = light_params_default();
    int reach = light_reach(&p);
    world *whole = generated(ocx, ocz, cx, cy, cz);
    assert_true(whole->slot_x0 != 0 || whole->slot_z0 != 0); /* rotated slots */
    light *ref = test_light_bake(whole, &p, jobs);
    assert_true(interior_light(whole, ref, reach) > 0);

    int rows[25], shuffled[25];
    for (int i = 0; i < n; i++) rows[i] = shuffled[i] = i;
    rng r = rng_make(5);
    for (int i = n - 1; i > 0; i--) {
        int j = rng_range(&r, 0, i), t = shuffled[i]; /* inclusive */
        shuffled[i] = shuffled[j], shuffled[j] = t;
    }
    const int *orders[2] = { rows, shuffled };
    for (int o = 0; o < 2; o++) {
        world *w;
        light *l = streamed(ocx, ocz, cx, cy, cz, orders[o], &p, jobs, &w);
        assert_int_equal(world_hash(w), world_hash(whole));
        assert_int_equal(interior_differences(whole, ref, l, reach), 0);
        light_destroy(l);
        world_destroy(w);
    }
    light_destroy(ref);
    world_destroy(whole);
}

/* (a) Away from the origin, rotated slots: streamed in rows and shuffled,
 * the interior equals the whole bake, byte for byte. */
static void test_streamed_equals_whole_bake(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    check_window(3, 6, jobs);
    check_window(-7, -2, jobs); /* negative coordinates: floors, not truncations */
    job_pool_destroy(jobs);
}

/* (a) The light of a place does not depend on the window: a moved window's
 * interior equals the same voxels baked in an origin-0 window. */
static void test_moved_window_equals_origin_window(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    light_params p = light_params_default();
    int reach = light_reach(&p);
    world *moved = generated(3, 6, 5, 1, 5);
    world *origin = generated(0, 0, 8, 1, 11); /* holds columns [3, 8) x [6, 11) too */
    light *a = test_light_bake(moved, &p, jobs), *b = test_light_bake(origin, &p, jobs);
    assert_true(interior_light(moved, a, reach) > 0);
    assert_int_equal(interior_differences(moved, a, b, reach), 0);
    light_destroy(a), light_destroy(b);
    world_destroy(moved), world_destroy(origin);
    job_pool_destroy(jobs);
}

/* (b) world_move, then the entering columns arrive (each relit): the
 * interior equals a fresh bake of the moved window. Both directions (the
 * occupancy bits shift forwards and backwards), then a jump past the
 * whole window. */
static void test_move_then_arrivals_equal_fresh_bake(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    light_params p = light_params_default();
    int reach = light_reach(&p);
    const int cx = 5, cy = 1, cz = 5;
    world *w = generated(2, 4, cx, cy, cz);
    light *l = test_light_bake(w, &p, jobs);
    const int moves[][2] = { { 4, 3 }, { 1, 5 }, { 2, 4 }, { 40, -30 } };
    for (size_t m = 0; m < sizeof moves / sizeof moves[0]; m++) {
        int old_x0 = world_x0(w), old_z0 = world_z0(w);
        int ocx = moves[m][0], ocz = moves[m][1];
        assert_true(world_move(w, ocx, ocz) > 0);
        light_move(l, world_x0(w), world_z0(w));
        int x0, z0, kx, kz;
        light_origin(l, &x0, &z0);
        light_slot(l, &kx, &kz);
        assert_int_equal(x0, world_x0(w));
        assert_int_equal(kx, w->slot_x0 * CHUNK_SIZE);
        assert_int_equal(kz, w->slot_z0 * CHUNK_SIZE);
        /* entering columns are dark until they arrive */
        for (int z = ocz; z < ocz + cz; z++)
            for (int x = ocx; x < ocx + cx; x++) {
                if (world_column_state(w, x, z) == WORLD_COL_READY) continue;
                for (int y = 0; y < w->sy; y++) {
                    uint8_t s, k;
                    light_get(l, x * CHUNK_SIZE + 7, y, z * CHUNK_SIZE + 9, &s, &k);
                    assert_int_equal(s + k, 0);
                }
            }
        for (int z = ocz; z < ocz + cz; z++)
            for (int x = ocx; x < ocx + cx; x++) {
                bool stayed = x * CHUNK_SIZE >= old_x0 && x * CHUNK_SIZE < old_x0 + w->sx &&
                              z * CHUNK_SIZE >= old_z0 && z * CHUNK_SIZE < old_z0 + w->sz;
                assert_int_equal(world_column_state(w, x, z) == WORLD_COL_READY, stayed);
                if (!stayed) arrive(w, l, &p, jobs, x, z);
            }
        world *fresh = generated(ocx, ocz, cx, cy, cz);
        assert_int_equal(world_hash(w), world_hash(fresh));
        light *ref = test_light_bake(fresh, &p, jobs);
        assert_true(interior_light(fresh, ref, reach) > 0);
        assert_int_equal(interior_differences(fresh, ref, l, reach), 0);
        light_destroy(ref);
        world_destroy(fresh);
    }
    light_destroy(l);
    world_destroy(w);
    job_pool_destroy(jobs);
}

/* A move does not clear the columns that leave (a row of them is
 * megabytes scattered over the volume): their slots read dark at once,
 * their fresh bits are clear (a copy of the raw bytes leaves them out)
 * and their raw bytes keep the old light; a column that lands there is
 * fresh; light_hash sees the volume as an eager clear would, and the
 * columns its flush cleared stay out of a copy until their light lands. */
static void test_move_leaves_columns_out(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    light_params p = light_params_default();
    const int cx = 5, cy = 1, cz = 5;
    world *w = generated(2, 4, cx, cy, cz);
    light *l = test_light_bake(w, &p, jobs), *twin = test_light_bake(w, &p, jobs);
    const size_t bytes = (size_t)w->sx * w->sy * w->sz * 2;
    uint8_t *before = malloc(bytes);
    assert_non_null(before);
    memcpy(before, light_data(l), bytes);
    const int old_x0 = world_x0(w), old_z0 = world_z0(w);

    assert_true(world_move(w, 4, 3) > 0); /* two columns east, one north */
    light_move(l, world_x0(w), world_z0(w));
    light_move(twin, world_x0(w), world_z0(w));
    assert_int_equal(memcmp(light_data(l), before, bytes), 0); /* nothing cleared yet */
    for (int z = 3; z < 3 + cz; z++)
        for (int x = 4; x < 4 + cx; x++) fill_column(w, x, z);

    /* one entering column lands before it is taken: (7, 5), whose ring is there */
    light_column *lc = light_column_create(cy);
    assert_non_null(lc);
    assert_true(light_column_snapshot(lc, w, 7, 5, light_reach(&p)));
    assert_true(light_column_bake(lc, &p));
    assert_true(light_column_land(lc, l));
    light_column_destroy(lc);

    /* the fresh bits: clear for the columns that entered, but the one that
     * landed; set for those that stayed */
    static uint32_t bits[LIGHT_FRESH_TEST_WORDS];
    const int ncx = w->sx / CHUNK_SIZE;
    assert_int_equal(light_fresh_bits(l, bits, 0), -1); /* too few words */
    assert_int_equal(light_fresh_bits(l, bits, LIGHT_FRESH_TEST_WORDS), cx * cz);
    int stale = 0;
    for (int tz = 3; tz < 3 + cz; tz++)
        for (int tx = 4; tx < 4 + cx; tx++) {
            int slot = ((tz * CHUNK_SIZE % w->sz) / CHUNK_SIZE) * ncx + (tx * CHUNK_SIZE % w->sx) / CHUNK_SIZE;
            bool fresh = bits[slot >> 5] >> (slot & 31) & 1u;
            bool entered = tx * CHUNK_SIZE >= old_x0 + w->sx || tz * CHUNK_SIZE < old_z0;
            assert_true(fresh == (!entered || (tx == 7 && tz == 5)));
            stale += !fresh;
            /* light_get reads them dark */
            for (int y = 0; y < w->sy && !fresh; y += 5) {
                uint8_t su, sk;
                light_get(l, tx * CHUNK_SIZE + 3, y, tz * CHUNK_SIZE + 30, &su, &sk);
                assert_int_equal(su + sk, 0);
            }
        }
    assert_int_equal(stale, 2 * 5 + 3 - 1); /* a 2 x 5 strip and 3 more of a row, less the one landed */
    /* nothing cleared them: the raw bytes are the old ones but the landed column's */
    const uint8_t *now = light_data(l);
    for (int z = 0; z < w->sz; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = 0; x < w->sx; x++) {
                int gx = world_x0(w) + x, gz = world_z0(w) + z;
                if (gx >> CHUNK_BITS == 7 && gz >> CHUNK_BITS == 5) continue;
                int sx = (gx % w->sx + w->sx) % w->sx, sz = (gz % w->sz + w->sz) % w->sz;
                size_t i = 2 * ((size_t)sx + (size_t)w->sx * ((size_t)y + (size_t)w->sy * sz));
                assert_int_equal(now[i], before[i]);
                assert_int_equal(now[i + 1], before[i + 1]);
            }
    /* the hash's flush clears them; they stay out until their light lands */
    const uint64_t h = light_hash(l);
    static uint32_t after[LIGHT_FRESH_TEST_WORDS];
    assert_int_equal(light_fresh_bits(l, after, LIGHT_FRESH_TEST_WORDS), cx * cz);
    assert_memory_equal(bits, after, sizeof bits);
    assert_true(light_hash(l) == h);

    /* the raw bytes are now an eager clear's, except the landed column */
    long lit_stayed = 0;
    for (int z = 0; z < w->sz; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = 0; x < w->sx; x++) {
                int gx = world_x0(w) + x, gz = world_z0(w) + z;
                if (gx >> CHUNK_BITS == 7 && gz >> CHUNK_BITS == 5) continue;
                bool stayed = gx < old_x0 + w->sx && gz >= old_z0; /* the new window is east and north */
                int sx = (gx % w->sx + w->sx) % w->sx, sz = (gz % w->sz + w->sz) % w->sz;
                size_t i = 2 * ((size_t)sx + (size_t)w->sx * ((size_t)y + (size_t)w->sy * sz));
                if (stayed) {
                    assert_int_equal(now[i], before[i]);
                    assert_int_equal(now[i + 1], before[i + 1]);
                    lit_stayed += now[i] + now[i + 1];
                } else {
                    assert_int_equal(now[i] + now[i + 1], 0);
                }
            }
    assert_true(lit_stayed > 0);
    /* the twin's hash clears its own stale columns first: the same bytes
     * once the landed column's are the same too */
    light_column *lc2 = light_column_create(cy);
    assert_true(light_column_snapshot(lc2, w, 7, 5, light_reach(&p)));
    assert_true(light_column_bake(lc2, &p));
    assert_true(light_column_land(lc2, twin));
    light_column_destroy(lc2);
    assert_true(light_hash(twin) == light_hash(l));
    free(before);
    light_destroy(l);
    light_destroy(twin);
    world_destroy(w);
    job_pool_destroy(jobs);
}

/* The origin window's whole bake, pinned: the world's own hash beside the
 * light's, so a new world says so before the light does. The light's pin
 * holds the stored bytes (light_encode: 0 no data, 1 + 254 x an
 * element's light). */
static void test_origin_hashes_pinned(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    job_pool *jobs = job_pool_create(2);
    const struct { const char *kind; uint64_t world, hash; } pins[] = {
        { "hills", 0x319781b786e84268ull, 0x484265a847149a5cull },
        { "taiga", 0xfe69fc273ec0c37full, 0x93012ff0863cc7edull },
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        world *w = world_create(4, 2, 4);
        const worldgen_kind *k = worldgen_find(pins[i].kind);
        assert_non_null(k);
        assert_true(worldgen_generate(w, k, 3, jobs));
        light_params p = light_params_default();
        light *l = test_light_bake(w, &p, jobs);
        printf("%s: world %016llx light %016llx\n", pins[i].kind, (unsigned long long)world_hash(w),
               (unsigned long long)light_hash(l));
        assert_true(world_hash(w) == pins[i].world);
        assert_true(light_hash(l) == pins[i].hash);
        light_destroy(l);
        world_destroy(w);
    }
    job_pool_destroy(jobs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_origin_hashes_pinned),
        cmocka_unit_test(test_streamed_equals_whole_bake),
        cmocka_unit_test(test_moved_window_equals_origin_window),
        cmocka_unit_test(test_move_then_arrivals_equal_fresh_bake),
        cmocka_unit_test(test_move_leaves_columns_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
