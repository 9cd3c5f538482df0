/* The two operators of seed 000 stated as rules and checked on constructed
 * windows. Recursive subdivision (section 2): a fragment looks at its voxel
 * and the three face neighbours toward its octant, and is on when at least
 * `threshold` of those four are solid; the threshold is thr_low below the
 * altitude and, above it, alternates by the least significant bit of the
 * fragment's altitude (even: thr_even, odd: thr_odd). Direct resampling
 * (section 3): probes at the fragment's centre plus each offset of a fixed
 * pattern, and the fragment is on when MORE than percent % of them land in
 * solid voxels (exactly percent % is off). */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "gen/enhance.h"

/* Bit of window cell (x, y, z), -r..r each, in a (2r+1)^3 window: x
 * fastest, then z, then y (enhance_window's order). */
static int cell(int r, int x, int y, int z)
{
    int n = 2 * r + 1;
    return (x + r) + (z + r) * n + (y + r) * n * n;
}
static bool bit(const uint64_t b[2], int i) { return (b[i >> 6] >> (i & 63)) & 1u; }
static void set_bit(uint64_t b[2], int i) { b[i >> 6] |= 1ull << (i & 63); }

static enhance_ctx *subdivide_ctx(int low, int even, int odd)
{
    enhance_params p = enhance_params_default();
    p.op = ENHANCE_SUBDIVIDE;
    p.levels = 1;
    p.thr_low = low, p.thr_even = even, p.thr_odd = odd;
    return test_enhance_ctx(p);
}

/* Every one of the 128 configurations of a voxel and its six faces (with
 * random edge and corner voxels, which one level never reads), in each
 * altitude band, for the paper's thresholds and for others: each of the 8
 * fragments is on exactly when its count reaches the threshold its
 * altitude selects. */
static void test_subdivision_rule(void **state)
{
    (void)state;
    static const int thresholds[3][3] = { { 1, 3, 4 }, { 2, 4, 3 }, { 3, 2, 1 } };
    rng r = rng_make(5);
    int on_even = 0, on_odd = 0;
    for (int t = 0; t < 3; t++) {
        const int low = thresholds[t][0], even = thresholds[t][1], odd = thresholds[t][2];
        enhance_ctx *e = subdivide_ctx(low, even, odd);
        for (int band = -2; band <= 1; band++)
            for (int cfg = 0; cfg < 128; cfg++) {
                uint64_t b[2] = { rng_next(&r) & ((1ull << 27) - 1), 0 };
                static const int face[7][3] = { { 0, 0, 0 },  { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 },
                                                { 0, 1, 0 },  { 0, 0, -1 }, { 0, 0, 1 } };
                for (int i = 0; i < 7; i++) {
                    b[0] &= ~(1ull << cell(1, face[i][0], face[i][1], face[i][2]));
                    if (cfg & (1 << i)) set_bit(b, cell(1, face[i][0], face[i][1], face[i][2]));
                }
                uint16_t rows[4];
                enhance_eval(e, b, band, rows);
                for (int fy = 0; fy < 2; fy++)
                    for (int fz = 0; fz < 2; fz++)
                        for (int fx = 0; fx < 2; fx++) {
                            int count = bit(b, cell(1, 0, 0, 0)) + bit(b, cell(1, fx ? 1 : -1, 0, 0)) +
                                        bit(b, cell(1, 0, fy ? 1 : -1, 0)) + bit(b, cell(1, 0, 0, fz ? 1 : -1));
                            /* the voxel is `band` voxels above the altitude; fragment fy is
                             * at altitude 2 * voxel + fy, so its parity is fy's */
                            bool below = band < 0;
                            int thr = below ? low : (fy & 1) ? odd : even;
                            bool want = count >= thr;
                            bool got = (rows[fy * 2 + fz] >> fx) & 1u;
                            if (got != want)
                                fail_msg("thresholds %d/%d/%d band %d config %d fragment %d%d%d: count %d, got %d", low,
                                         even, odd, band, cfg, fx, fy, fz, count, got);
                            if (!below && count == 3 && t == 0) *(fy ? &on_odd : &on_even) += got;
                        }
            }
        enhance_destroy(e);
    }
    /* with the paper's 3 and 4, three solid of four turn an even fragment
     * on and leave an odd one off: the strata of Figure 1 */
    assert_true(on_even > 0);
    assert_int_equal(on_odd, 0);
}

/* The same rule through a chunk build: a voxel one below the altitude uses
 * thr_low, the voxel at the altitude the alternating pair. A voxel with
 * only +x and +z solid beside it has count 3 in fragments (1, fy, 1). */
static void test_subdivision_altitude_in_chunk(void **state)
{
    (void)state;
    enhance_ctx *e = subdivide_ctx(2, 3, 4);
    enhance_params p = *enhance_ctx_params(e);
    enhance_destroy(e);
    for (int alt = 9; alt <= 11; alt++) {
        p.altitude = alt;
        e = test_enhance_ctx(p);
        enhance_input *in = calloc(1, sizeof *in);
        in->vox[ENHANCE_IN_INDEX(10, 10, 10)] = MAT_STONE;
        in->vox[ENHANCE_IN_INDEX(11, 10, 10)] = MAT_STONE;
        in->vox[ENHANCE_IN_INDEX(10, 10, 11)] = MAT_STONE;
        uint16_t rows[4];
        assert_true(enhance_voxel_eval(e, in, 10, 10, 10, rows));
        bool even_on = (rows[0 * 2 + 1] >> 1) & 1u, odd_on = (rows[1 * 2 + 1] >> 1) & 1u;
        if (10 < alt) { /* below: threshold 2, both on */
            assert_true(even_on && odd_on);
        } else {        /* at or above: 3 on the even fragment row, 4 on the odd one */
            assert_true(even_on);
            assert_false(odd_on);
        }
        /* a lone voxel's own octant fragments have count 1: off at 2, 3 and 4 */
        in->vox[ENHANCE_IN_INDEX(11, 10, 10)] = MAT_AIR;
        in->vox[ENHANCE_IN_INDEX(10, 10, 11)] = MAT_AIR;
        assert_true(enhance_voxel_eval(e, in, 10, 10, 10, rows));
        for (int i = 0; i < 4; i++) assert_int_equal(rows[i], 0);
        free(in);
        enhance_destroy(e);
    }
}

/* Probes that land in solid voxels for fragment (fx, fy, fz), computed from
 * the pattern as the paper states it: centre + offset, floored to a voxel. */
static int probe_hits(const enhance_ctx *e, const uint64_t b[2], int fx, int fy, int fz)
{
    const enhance_params *p = enhance_ctx_params(e);
    const int32_t *pr = enhance_probes(e);
    int f = p->factor, r = enhance_radius(p), hits = 0;
    double unit = 2.0 * f * ENHANCE_SUBUNIT; /* offsets are in 1/unit of a voxel */
    for (int i = 0; i < p->probes; i++) {
        int v[3];
        const int fc[3] = { fx, fy, fz };
        for (int a = 0; a < 3; a++) {
            double pos = ((2 * fc[a] + 1) * (double)ENHANCE_SUBUNIT + pr[3 * i + a]) / unit;
            v[a] = (int)floor(pos);
            assert_true(v[a] >= -r && v[a] <= r);
        }
        hits += bit(b, cell(r, v[0], v[1], v[2]));
    }
    return hits;
}

static void test_resampling_more_than_percent(void **state)
{
    (void)state;
    static const struct { int probes, percent; float spread; } cases[] = {
        { 4, 25, 1.0f }, { 8, 25, 1.0f }, { 16, 50, 0.5f }, { 20, 35, 1.2f },
    };
    rng r = rng_make(11);
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        enhance_params p = enhance_params_default();
        p.op = ENHANCE_RESAMPLE;
        p.factor = 4;
        p.probes = cases[t].probes;
        p.percent = cases[t].percent;
        p.spread = cases[t].spread;
        p.probe_seed = (uint32_t)(3 + t);
        enhance_ctx *e = test_enhance_ctx(p);
        /* offsets lie within the spread (section 3's range -1.0 to 1.0 at spread 1) */
        const int32_t *pr = enhance_probes(e);
        for (int i = 0; i < 3 * p.probes; i++)
            assert_true(abs(pr[i]) <= (int)(p.spread * 2 * p.factor * ENHANCE_SUBUNIT) + 1);
        int rad = enhance_radius(&p), cells = (2 * rad + 1) * (2 * rad + 1) * (2 * rad + 1);
        long at_threshold = 0, on = 0;
        for (int w = 0; w < 400; w++) {
            uint64_t b[2] = { 0, 0 };
            int density = 10 + (int)(rng_next(&r) % 50); /* percent of the window's voxels solid */
            for (int i = 0; i < cells; i++)
                if ((int)(rng_next(&r) % 100) < density) set_bit(b, i);
            uint16_t rows[ENHANCE_MAX_FACTOR * ENHANCE_MAX_FACTOR];
            enhance_eval(e, b, 0, rows);
            for (int fy = 0; fy < p.factor; fy++)
                for (int fz = 0; fz < p.factor; fz++)
                    for (int fx = 0; fx < p.factor; fx++) {
                        int hits = probe_hits(e, b, fx, fy, fz);
                        bool want = hits * 100 > p.percent * p.probes;
                        bool got = (rows[fy * p.factor + fz] >> fx) & 1u;
                        if (got != want)
                            fail_msg("%d probes, %d %%: %d hits gave %d", p.probes, p.percent, hits, got);
                        at_threshold += hits * 100 == p.percent * p.probes;
                        on += got;
                    }
        }
        print_message("%d probes at %d %%: %ld fragments exactly at the threshold (off), %ld on\n", p.probes,
                      p.percent, at_threshold, on);
        /* the boundary is exercised where it can be reached (20 x 35 % = 7 hits) */
        assert_true(at_threshold > 100);
        assert_true(on > 1000);
        enhance_destroy(e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subdivision_rule),
        cmocka_unit_test(test_subdivision_altitude_in_chunk),
        cmocka_unit_test(test_resampling_more_than_percent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
