/* Voxel detail enhancement (seed 000): hand-made configurations, the lookup
 * table against direct evaluation, resampling against a box filter, surface
 * skipping and incremental updates against enhancing everything. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "gen/enhance.h"

typedef bool (*shape_fn)(int x, int y, int z, void *user);

/* An input whose voxels (chunk-local, border included) come from `shape`. */
static enhance_input *make_input(int cy, shape_fn shape, void *user)
{
    enhance_input *in = calloc(1, sizeof *in);
    assert_non_null(in);
    in->cy = cy;
    for (int y = -ENHANCE_PAD; y < CHUNK_SIZE + ENHANCE_PAD; y++)
        for (int z = -ENHANCE_PAD; z < CHUNK_SIZE + ENHANCE_PAD; z++)
            for (int x = -ENHANCE_PAD; x < CHUNK_SIZE + ENHANCE_PAD; x++)
                in->vox[ENHANCE_IN_INDEX(x, y, z)] = shape(x, y, z, user) ? MAT_STONE : MAT_AIR;
    return in;
}

static enhance_params subdiv(int levels, int low, int even, int odd, int altitude)
{
    enhance_params p = enhance_params_default();
    p.op = ENHANCE_SUBDIVIDE;
    p.levels = levels;
    p.thr_low = low;
    p.thr_even = even;
    p.thr_odd = odd;
    p.altitude = altitude;
    return p;
}

static bool frag(const enhance_chunk *c, const enhance_input *in, int fx, int fy, int fz)
{
    return enhance_chunk_fragment(c, in, fx, fy, fz);
}

static void assert_chunks_equal(const enhance_chunk *a, const enhance_chunk *b)
{
    assert_int_equal(a->factor, b->factor);
    assert_int_equal(a->count, b->count);
    int per = a->factor * a->factor;
    for (int i = 0; i < a->count; i++) {
        assert_int_equal(a->vox[i].index, b->vox[i].index);
        assert_int_equal(a->vox[i].material, b->vox[i].material);
        assert_int_equal(a->vox[i].tint, b->vox[i].tint);
        assert_memory_equal(a->rows + a->vox[i].row, b->rows + b->vox[i].row, sizeof(uint16_t) * (size_t)per);
    }
    assert_true(a->fragments == b->fragments);
}

/* ---- hand-made configurations ------------------------------------------- */

static bool isolated(int x, int y, int z, void *u) { return x == 10 && y == 10 && z == 10; }

static void test_isolated_voxel(void **state)
{
    enhance_input *in = make_input(0, isolated, NULL);
    for (int thr = 1; thr <= 4; thr += 3) {
        enhance_ctx *e = test_enhance_ctx(subdiv(1, thr, thr, thr, 0));
        enhance_chunk c = { 0 };
        enhance_chunk_build(e, in, true, &c);
        int on = 0, total = 0;
        for (int fy = 20; fy < 22; fy++)
            for (int fz = 20; fz < 22; fz++)
                for (int fx = 20; fx < 22; fx++) on += frag(&c, in, fx, fy, fz);
        for (int fy = 0; fy < 64; fy++)
            for (int fz = 0; fz < 64; fz++)
                for (int fx = 0; fx < 64; fx++) total += frag(&c, in, fx, fy, fz);
        if (thr == 1) {
            assert_int_equal(on, 8);
            /* plus the half-voxel layers grown into the six neighbours */
            assert_int_equal(total, 8 + 6 * 4);
        } else {
            assert_int_equal(on, 0);
            assert_int_equal(total, 0);
        }
        enhance_chunk_free(&c);
        enhance_destroy(e);
    }
    free(in);
}

static bool floor10(int x, int y, int z, void *u) { return y <= 10; }

/* Surface height of fragment column (fx, fz): one above the highest solid
 * fragment; asserts that the column is solid below it and empty above. */
static int column_height(const enhance_chunk *c, const enhance_input *in, int fx, int fz, int top)
{
    int h = 0;
    for (int fy = 0; fy < top; fy++)
        if (frag(c, in, fx, fy, fz)) h = fy + 1;
    for (int fy = 0; fy < h; fy++) assert_true(frag(c, in, fx, fy, fz));
    return h;
}

static void test_flat_floor_stays_flat(void **state)
{
    enhance_input *in = make_input(0, floor10, NULL);
    int settings[3][4] = { { 1, 1, 1, 100 }, { 1, 3, 4, 0 }, { 1, 3, 4, 11 } };
    for (int s = 0; s < 3; s++)
        for (int levels = 1; levels <= 3; levels++) {
            enhance_ctx *e = test_enhance_ctx(subdiv(levels, settings[s][0], settings[s][1], settings[s][2], settings[s][3]));
            enhance_chunk c = { 0 };
            enhance_chunk_build(e, in, true, &c);
            int f = 1 << levels;
            int h0 = column_height(&c, in, 0, 0, 32 * f);
            assert_true(h0 > 9 * f && h0 < 13 * f);
            for (int fz = 0; fz < 32 * f; fz += 3)
                for (int fx = 0; fx < 32 * f; fx += 5) assert_int_equal(column_height(&c, in, fx, fz, 32 * f), h0);
            enhance_chunk_free(&c);
            enhance_destroy(e);
        }
    free(in);
}

static bool step(int x, int y, int z, void *u) { return y <= (x < 16 ? 10 : 11); }

/* Below the altitude (threshold 1, the paper's Figure 1) a one-voxel step
 * between two plateaus becomes a 45-degree ramp: the surface climbs one
 * fragment per fragment column, F stairs in all, at every level count. */
static void test_step_becomes_ramp(void **state)
{
    enhance_input *in = make_input(0, step, NULL);
    for (int levels = 1; levels <= 4; levels++) {
        int f = 1 << levels;
        enhance_ctx *e = test_enhance_ctx(subdiv(levels, 1, 3, 4, 100));
        enhance_chunk c = { 0 };
        enhance_chunk_build(e, in, true, &c);
        int lo = column_height(&c, in, 8 * f, 5, 32 * f), hi = column_height(&c, in, 24 * f, 5, 32 * f);
        assert_int_equal(hi - lo, f); /* plateaus keep their one-voxel difference */
        int prev = lo, stairs = 0;
        for (int fx = 8 * f; fx < 24 * f; fx++) {
            int h = column_height(&c, in, fx, 5, 32 * f);
            assert_true(h - prev == 0 || h - prev == 1);
            stairs += h - prev;
            prev = h;
        }
        assert_int_equal(stairs, f);
        enhance_chunk_free(&c);
        enhance_destroy(e);
    }
    free(in);
}

/* ---- the lookup table ------------------------------------------------------ */

static bool plus_config(int x, int y, int z, void *u)
{
    int c = *(int *)u;
    static const int off[7][3] = { { 0, 0, 0 }, { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 }, { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 } };
    for (int i = 0; i < 7; i++)
        if ((c & (1 << i)) && x == 16 + off[i][0] && y == 16 + off[i][1] && z == 16 + off[i][2]) return true;
    return false;
}

static void test_lut_equals_direct(void **state)
{
    for (int levels = 1; levels <= 3; levels++) {
        enhance_ctx *e = test_enhance_ctx(subdiv(levels, 2, 2, 3, 0));
        int f = 1 << levels, per = f * f;
        uint16_t *lut = malloc(sizeof *lut * 128 * (size_t)per);
        assert_non_null(lut);
        enhance_lut_build(e, 1, lut);
        for (int cfg = 0; cfg < 128; cfg++) {
            enhance_input *in = make_input(0, plus_config, &cfg);
            enhance_chunk c = { 0 };
            enhance_chunk_build(e, in, true, &c);
            for (int fy = 0; fy < f; fy++)
                for (int fz = 0; fz < f; fz++)
                    for (int fx = 0; fx < f; fx++) {
                        bool want = (lut[cfg * per + fy * f + fz] >> fx) & 1u;
                        assert_int_equal(frag(&c, in, 16 * f + fx, 16 * f + fy, 16 * f + fz), want);
                    }
            enhance_chunk_free(&c);
            free(in);
        }
        free(lut);
        enhance_destroy(e);
    }
}

/* At one level the table is exact for any diagonal voxels. */
static bool plus_noise(int x, int y, int z, void *u)
{
    int c = *(int *)u;
    bool face = abs(x - 16) + abs(y - 16) + abs(z - 16) <= 1;
    if (face) return plus_config(x, y, z, u);
    return (rng_hash3((uint64_t)c, x, y, z) & 1) != 0;
}

static void test_lut_exact_at_one_level(void **state)
{
    enhance_ctx *e = test_enhance_ctx(subdiv(1, 2, 3, 4, 0));
    uint16_t lut[128 * 4];
    enhance_lut_build(e, 1, lut);
    for (int cfg = 0; cfg < 128; cfg++) {
        enhance_input *in = make_input(1, plus_noise, &cfg);
        enhance_chunk c = { 0 };
        enhance_chunk_build(e, in, true, &c);
        for (int fy = 0; fy < 2; fy++)
            for (int fz = 0; fz < 2; fz++)
                for (int fx = 0; fx < 2; fx++)
                    assert_int_equal(frag(&c, in, 32 + fx, 32 + fy, 32 + fz), (lut[cfg * 4 + fy * 2 + fz] >> fx) & 1u);
        enhance_chunk_free(&c);
        free(in);
    }
    enhance_destroy(e);
}

/* ---- resampling -------------------------------------------------------------- */

static bool sphere(int x, int y, int z, void *u)
{
    int dx = x - 16, dy = y - 16, dz = z - 13;
    return dx * dx + 2 * dy * dy + dz * dz <= 120;
}

/* Fraction of the unit box centred at p (voxel units) that is solid. */
static double box_filter(const enhance_input *in, double px, double py, double pz)
{
    double sum = 0;
    int x0 = (int)(px - 0.5 + 64) - 64, y0 = (int)(py - 0.5 + 64) - 64, z0 = (int)(pz - 0.5 + 64) - 64;
    for (int y = y0; y <= y0 + 1; y++)
        for (int z = z0; z <= z0 + 1; z++)
            for (int x = x0; x <= x0 + 1; x++) {
                double ox = fmin(px + 0.5, x + 1) - fmax(px - 0.5, x);
                double oy = fmin(py + 0.5, y + 1) - fmax(py - 0.5, y);
                double oz = fmin(pz + 0.5, z + 1) - fmax(pz - 0.5, z);
                if (ox > 0 && oy > 0 && oz > 0 && enhance_solid(in->vox[ENHANCE_IN_INDEX(x, y, z)])) sum += ox * oy * oz;
            }
    return sum;
}

static void test_resample_approaches_box_filter(void **state)
{
    enhance_input *in = make_input(0, sphere, NULL);
    enhance_params p = enhance_params_default();
    p.op = ENHANCE_RESAMPLE;
    p.factor = 3;
    p.probes = 1024;
    p.spread = 0.5f;
    p.percent = 50;
    enhance_ctx *e = test_enhance_ctx(p);
    enhance_chunk c = { 0 };
    enhance_chunk_build(e, in, true, &c);
    int checked = 0, wrong = 0, f = p.factor;
    for (int fy = 0; fy < 32 * f; fy++)
        for (int fz = 0; fz < 32 * f; fz++)
            for (int fx = 0; fx < 32 * f; fx++) {
                double b = box_filter(in, (fx + 0.5) / f, (fy + 0.5) / f, (fz + 0.5) / f);
                if (fabs(b - 0.5) < 0.1) continue; /* sampling noise decides near the threshold */
                checked++;
                if (frag(&c, in, fx, fy, fz) != (b > 0.5)) wrong++;
            }
    assert_true(checked > 100000);
    assert_int_equal(wrong, 0);
    /* with few probes it is visibly not a box filter */
    enhance_chunk_free(&c);
    enhance_destroy(e);
    free(in);
}

/* ---- surface skipping, incremental updates, determinism ------------------- */

static bool random_world(int x, int y, int z, void *u)
{
    uint64_t seed = *(uint64_t *)u;
    int h = 8 + (int)(rng_hash3(seed, x >> 2, 0, z >> 2) % 12);
    if (y > h) return (rng_hash3(seed, x, y, z) % 23) == 0; /* floating bits */
    return (rng_hash3(seed + 1, x, y, z) % 11) != 0;         /* holes */
}

static enhance_params all_params[4];
static void init_params(void)
{
    all_params[0] = subdiv(2, 1, 3, 4, 12);
    all_params[1] = subdiv(3, 2, 2, 3, 0);
    all_params[2] = enhance_params_default();
    all_params[2].op = ENHANCE_RESAMPLE;
    all_params[2].factor = 3;
    all_params[2].probes = 16;
    all_params[2].spread = 1.0f;
    all_params[3] = all_params[2];
    all_params[3].factor = 5;
    all_params[3].spread = 0.4f;
    all_params[3].percent = 50;
}

static void test_surface_skipping_loses_nothing(void **state)
{
    init_params();
    for (uint64_t seed = 1; seed <= 2; seed++) {
        enhance_input *in = make_input(0, random_world, &seed);
        for (int k = 0; k < 4; k++) {
            enhance_ctx *e = test_enhance_ctx(all_params[k]);
            enhance_chunk a = { 0 }, b = { 0 };
            enhance_chunk_build(e, in, true, &a);
            enhance_chunk_build(e, in, false, &b);
            assert_true(a.skipped > 0);
            assert_int_equal(b.skipped, 0);
            assert_chunks_equal(&a, &b);
            enhance_chunk_free(&a);
            enhance_chunk_free(&b);
            enhance_destroy(e);
        }
        free(in);
    }
}

static void fill_world(world *w, uint64_t seed)
{
    for (int y = 0; y < w->sy; y++)
        for (int z = 0; z < w->sz; z++)
            for (int x = 0; x < w->sx; x++)
                if (random_world(x, y, z, &seed)) world_set(w, x, y, z, (uint8_t)(MAT_STONE + (x + z) % 3));
}

static void test_incremental_equals_scratch(void **state)
{
    init_params();
    world *w = world_create(2, 1, 2);
    assert_non_null(w);
    fill_world(w, 7);
    enhance_input *in = malloc(sizeof *in);
    assert_non_null(in);
    for (int k = 0; k < 4; k++) {
        enhance_ctx *e = test_enhance_ctx(all_params[k]);
        enhance_chunk c[4] = { 0 };
        for (int i = 0; i < 4; i++) {
            int cx, cy, cz;
            world_chunk_coords(w, i, &cx, &cy, &cz);
            enhance_gather(w, cx, cy, cz, in);
            enhance_chunk_build(e, in, true, &c[i]);
        }
        /* a cut across the chunk corner, then a fill */
        int lo[3] = { 28 + k, 5, 29 }, hi[3] = { 35 + k, 16, 33 };
        for (int pass = 0; pass < 2; pass++) {
            for (int y = lo[1]; y <= hi[1]; y++)
                for (int z = lo[2]; z <= hi[2]; z++)
                    for (int x = lo[0]; x <= hi[0]; x++) world_set(w, x, y, z, pass ? MAT_DIRT : MAT_AIR);
            for (int i = 0; i < 4; i++) {
                int cx, cy, cz;
                world_chunk_coords(w, i, &cx, &cy, &cz);
                int blo[3] = { lo[0] - cx * 32, lo[1] - cy * 32, lo[2] - cz * 32 };
                int bhi[3] = { hi[0] - cx * 32, hi[1] - cy * 32, hi[2] - cz * 32 };
                enhance_gather(w, cx, cy, cz, in);
                enhance_chunk_update(e, in, blo, bhi, &c[i]);
                enhance_chunk fresh = { 0 };
                enhance_chunk_build(e, in, true, &fresh);
                assert_chunks_equal(&c[i], &fresh);
                assert_int_equal(c[i].skipped, fresh.skipped);
                enhance_chunk_free(&fresh);
            }
        }
        for (int i = 0; i < 4; i++) enhance_chunk_free(&c[i]);
        enhance_destroy(e);
    }
    free(in);
    world_destroy(w);
}

static void test_determinism_per_seed(void **state)
{
    uint64_t seed = 3;
    enhance_input *in = make_input(0, random_world, &seed);
    enhance_params p = enhance_params_default();
    p.op = ENHANCE_RESAMPLE;
    p.probes = 8;
    enhance_ctx *a = test_enhance_ctx(p), *b = test_enhance_ctx(p);
    p.probe_seed = 2;
    enhance_ctx *d = test_enhance_ctx(p);
    enhance_chunk ca = { 0 }, cb = { 0 }, cd = { 0 };
    enhance_chunk_build(a, in, true, &ca);
    enhance_chunk_build(b, in, true, &cb);
    enhance_chunk_build(b, in, true, &cb); /* from the cache this time */
    enhance_chunk_build(d, in, true, &cd);
    assert_chunks_equal(&ca, &cb);
    assert_true(ca.fragments != cd.fragments || memcmp(enhance_probes(a), enhance_probes(d), 3 * 8 * 4) != 0);
    bool differ = ca.count != cd.count;
    for (int i = 0; !differ && i < ca.count; i++)
        differ = memcmp(ca.rows + ca.vox[i].row, cd.rows + cd.vox[i].row, 2 * 16) != 0;
    assert_true(differ);
    enhance_stats st;
    enhance_get_stats(b, &st);
    assert_true(st.hits * 2 >= st.lookups); /* the second build hit every time */
    assert_true(st.cache_entries > 0);
    enhance_chunk_free(&ca);
    enhance_chunk_free(&cb);
    enhance_chunk_free(&cd);
    enhance_destroy(a);
    enhance_destroy(b);
    enhance_destroy(d);
    free(in);
}

static void test_bad_params(void **state)
{
    char err[256];
    enhance_params p = enhance_params_default();
    p.levels = 5;
    assert_null(enhance_create(&p, err, sizeof err));
    assert_non_null(strstr(err, "[1, 4]"));
    p = enhance_params_default();
    p.spread = 2.f;
    assert_false(enhance_params_check(&p, err, sizeof err));
    assert_non_null(strstr(err, "spread"));
    p = enhance_params_default();
    p.probes = 0;
    assert_false(enhance_params_check(&p, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isolated_voxel),
        cmocka_unit_test(test_flat_floor_stays_flat),
        cmocka_unit_test(test_step_becomes_ramp),
        cmocka_unit_test(test_lut_equals_direct),
        cmocka_unit_test(test_lut_exact_at_one_level),
        cmocka_unit_test(test_resample_approaches_box_filter),
        cmocka_unit_test(test_surface_skipping_loses_nothing),
        cmocka_unit_test(test_incremental_equals_scratch),
        cmocka_unit_test(test_determinism_per_seed),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
