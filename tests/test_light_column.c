/* A streamed column's light baked on a worker (light_column):
 * snapshot the column's ring of 8 on the main thread, bake the snapshot
 * anywhere, land it in the game's volume. Whatever order the columns
 * arrive and land in, and on however many workers, every column whose ring
 * is there holds the light a whole bake of the window gives, byte for
 * byte; and a bake reads its snapshot only, so an edit made after the
 * snapshot does not leak into it. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "light/light.h"
#include "voxel/world.h"

#define SEED 23

/* Terraces of stone stepping with a hash of 8 x 8 cells, a hanging slab
 * over every seventh cell (an overhang), leaf clouds, and tunnels: enough
 * shadow that light varies within and across columns. A pure function of
 * global coordinates, as a streamed generator is. */
static uint8_t terrace_at(int x, int y, int z)
{
    uint64_t cell = rng_hash3(SEED, x >> 3, 0, z >> 3);
    int ground = 4 + (int)(cell % 9);
    if (y < ground) return rng_hash3(SEED + 1, x >> 2, y >> 1, z >> 2) % 6 == 0 && y > 1 ? MAT_AIR : MAT_STONE;
    if (cell % 7 == 3 && y >= ground + 5 && y < ground + 7) return MAT_STONE;
    if (y > ground + 8 && y < ground + 14 && rng_hash3(SEED + 2, x >> 1, y >> 1, z >> 1) % 11 == 0)
        return MAT_OAK_LEAVES;
    return MAT_AIR;
}

static void make_column(world *w, int cx, int cz)
{
    for (int cy = 0; cy < w->cy; cy++) {
        chunk *c = world_chunk(w, cx, cy, cz);
        assert_non_null(c);
        for (int i = 0; i < CHUNK_VOLUME; i++) {
            int x = i & CHUNK_MASK, z = (i >> CHUNK_BITS) & CHUNK_MASK, y = i >> (2 * CHUNK_BITS);
            c->vox[i] = terrace_at(cx * CHUNK_SIZE + x, cy * CHUNK_SIZE + y, cz * CHUNK_SIZE + z);
        }
    }
    world_set_column_state(w, cx, cz, WORLD_COL_READY);
}

static bool ring_ready(const world *w, int cx, int cz)
{
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++)
            if (!world_chunk_valid(w, cx + dx, 0, cz + dz) ||
                world_column_state(w, cx + dx, cz + dz) != WORLD_COL_READY)
                return false;
    return true;
}

/* Voxels of column (cx, cz) whose light differs between a and b. */
static long column_differences(const world *w, const light *a, const light *b, int cx, int cz)
{
    long differ = 0;
    for (int z = cz * CHUNK_SIZE; z < (cz + 1) * CHUNK_SIZE; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = cx * CHUNK_SIZE; x < (cx + 1) * CHUNK_SIZE; x++) {
                uint8_t s1, k1, s2, k2;
                light_get(a, x, y, z, &s1, &k1);
                light_get(b, x, y, z, &s2, &k2);
                differ += s1 != s2 || k1 != k2;
            }
    return differ;
}

typedef struct bake_job {
    light_column *lc;
    const light_params *p;
    bool ok;
} bake_job;

static void bake_one(void *arg)
{
    bake_job *j = arg;
    j->ok = light_column_bake(j->lc, j->p);
}

/* The window at (ocx, ocz) arrives column by column in an order drawn
 * from `order_seed`; each column whose ring completes is snapshotted at
 * once, and baked on the pool in batches of `batch` that land in reverse.
 * Every column with its ring in the window must equal the whole bake. */
static void check_order(int ocx, int ocz, uint64_t order_seed, int workers, int batch)
{
    const int cx = 6, cy = 2, cz = 5, n = cx * cz;
    light_params p = light_params_default();
    job_pool *jobs = job_pool_create(workers);
    assert_non_null(jobs);

    world *whole = world_create_at(ocx, ocz, cx, cy, cz);
    assert_non_null(whole);
    for (int z = ocz; z < ocz + cz; z++)
        for (int x = ocx; x < ocx + cx; x++) make_column(whole, x, z);
    light *ref = test_light_bake(whole, &p, jobs);

    world *w = world_create_window(ocx, ocz, cx, cy, cz);
    light *vol = light_create(w->sx, w->sy, w->sz);
    assert_non_null(w);
    assert_non_null(vol);
    light_move(vol, world_x0(w), world_z0(w));
    for (int z = ocz; z < ocz + cz; z++) /* nothing has arrived yet */
        for (int x = ocx; x < ocx + cx; x++) world_set_column_state(w, x, z, WORLD_COL_EMPTY);
    int order[64];
    for (int i = 0; i < n; i++) order[i] = i;
    rng r = rng_make(order_seed);
    for (int i = n - 1; i > 0; i--) {
        int k = rng_range(&r, 0, i), t = order[i];
        order[i] = order[k], order[k] = t;
    }
    light_column *lcs[32] = { 0 };
    bake_job bj[32];
    job_group g = { 0 };
    int queued = 0, landed = 0;
    for (int i = 0; i <= n; i++) {
        if (i < n) {
            int ax = ocx + order[i] % cx, az = ocz + order[i] / cx;
            make_column(w, ax, az);
            for (int dz = -1; dz <= 1; dz++)
                for (int dx = -1; dx <= 1; dx++) {
                    if (!ring_ready(w, ax + dx, az + dz)) continue;
                    if (!lcs[queued]) lcs[queued] = light_column_create(cy);
                    assert_non_null(lcs[queued]);
                    assert_true(light_column_snapshot(lcs[queued], w, ax + dx, az + dz, light_reach(&p)));
                    bj[queued] = (bake_job){ lcs[queued], &p, false };
                    job_submit(jobs, &g, bake_one, &bj[queued]);
                    queued++;
                }
        }
        if (queued >= batch || (i == n && queued > 0)) {
            job_group_wait(jobs, &g);
            for (int k = queued - 1; k >= 0; k--) {
                assert_true(bj[k].ok);
                assert_true(light_column_land(lcs[k], vol));
                landed++;
            }
            queued = 0;
        }
    }
    /* the interior: every column but the window's outer ring, baked once */
    assert_int_equal(landed, (cx - 2) * (cz - 2));
    light *dark = light_create(w->sx, w->sy, w->sz);
    assert_non_null(dark);
    light_move(dark, world_x0(w), world_z0(w));
    for (int z = ocz + 1; z < ocz + cz - 1; z++)
        for (int x = ocx + 1; x < ocx + cx - 1; x++) {
            assert_int_equal(column_differences(w, vol, ref, x, z), 0);
            /* the comparison compares light, not darkness */
            assert_true(column_differences(w, ref, dark, x, z) > 1000);
        }
    light_destroy(dark);
    for (int k = 0; k < 32; k++) light_column_destroy(lcs[k]);
    light_destroy(vol);
    light_destroy(ref);
    world_destroy(w);
    world_destroy(whole);
    job_pool_destroy(jobs);
}

static void test_any_order_equals_whole_bake(void **state)
{
    (void)state;
    check_order(3, 2, 1, 2, 4);   /* x, z >= 0 */
    check_order(-4, -2, 7, 2, 9); /* across the origin: the walk's negative-side floor */
}

static void test_one_worker_equals_whole_bake(void **state)
{
    (void)state;
    check_order(-1, 5, 99, 1, 1);
}

/* An edit after the snapshot is not in the bake: it equals the bake of the
 * snapshot's voxels, so the game must bake that column again. */
static void test_bake_reads_snapshot_only(void **state)
{
    (void)state;
    light_params p = light_params_default();
    world *w = world_create_at(0, 0, 3, 1, 3);
    assert_non_null(w);
    for (int z = 0; z < 3; z++)
        for (int x = 0; x < 3; x++) make_column(w, x, z);
    light *ref = test_light_bake(w, &p, NULL);
    light_column *lc = light_column_create(1);
    assert_non_null(lc);
    assert_true(light_column_snapshot(lc, w, 1, 1, light_reach(&p)));
    for (int z = 40; z < 56; z++)
        for (int x = 40; x < 56; x++) world_set(w, x, 28, z, MAT_STONE); /* a roof over the column */
    assert_true(light_column_bake(lc, &p));
    light *vol = light_create(w->sx, w->sy, w->sz);
    assert_non_null(vol);
    assert_true(light_column_land(lc, vol));
    assert_int_equal(column_differences(w, vol, ref, 1, 1), 0);
    light *roofed = test_light_bake(w, &p, NULL);
    assert_true(column_differences(w, roofed, ref, 1, 1) > 0);
    /* a column outside the volume's window does not land */
    light_move(vol, 5 * CHUNK_SIZE, 0);
    assert_false(light_column_land(lc, vol));
    /* a ring not in the window cannot be snapshotted */
    assert_false(light_column_snapshot(lc, w, 0, 1, light_reach(&p)));
    assert_false(light_column_bake(lc, &p));
    light_destroy(roofed);
    light_destroy(vol);
    light_destroy(ref);
    light_column_destroy(lc);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_any_order_equals_whole_bake),
        cmocka_unit_test(test_one_worker_equals_whole_bake),
        cmocka_unit_test(test_bake_reads_snapshot_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
