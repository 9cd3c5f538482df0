/* Enhancement that knows materials (seed 000 sections 2
 * and 5): with materials off the fragments are the paper's, bit for bit
 * (hashes recorded before the material rules existed); with them on a
 * dirt/stone boundary stays where the voxels put it, one material's
 * thresholds change only its own fragments, and the cache still works. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "gen/enhance.h"

/* Hills with holes and floating bits in six materials (bands of x and z,
 * flora-like leaves above), so every window kind and every material
 * boundary kind occurs. */
static const uint8_t mix_mats[6] = { MAT_STONE, MAT_DIRT, MAT_GRASS, MAT_SAND, MAT_SANDSTONE, MAT_OAK_LEAVES };
static void fill_mixed(enhance_input *in, uint64_t seed, int cy)
{
    memset(in, 0, sizeof *in);
    in->cy = cy;
    for (int y = -ENHANCE_PAD; y < CHUNK_SIZE + ENHANCE_PAD; y++)
        for (int z = -ENHANCE_PAD; z < CHUNK_SIZE + ENHANCE_PAD; z++)
            for (int x = -ENHANCE_PAD; x < CHUNK_SIZE + ENHANCE_PAD; x++) {
                int h = 8 + (int)(rng_hash3(seed, (x + 8) >> 2, 0, (z + 8) >> 2) % 16);
                bool solid = y > h ? rng_hash3(seed, x, y, z) % 19 == 0 : rng_hash3(seed + 1, x, y, z) % 9 != 0;
                if (!solid) continue;
                int i = ENHANCE_IN_INDEX(x, y, z);
                in->vox[i] = y > h ? MAT_OAK_LEAVES : mix_mats[(unsigned)((x + 2) / 5 + (z + 2) / 7) % 5u];
                in->tint[i] = (uint8_t)(rng_hash3(seed + 2, x, y, z) % 23 == 0);
            }
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t chunk_hash(const enhance_chunk *c)
{
    uint64_t h = 0xcbf29ce484222325ull;
    int per = c->factor * c->factor;
    for (int i = 0; i < c->count; i++) {
        const enhance_voxel *v = &c->vox[i];
        h = fnv(h, &v->index, sizeof v->index);
        h = fnv(h, &v->material, 1);
        h = fnv(h, &v->tint, 1);
        h = fnv(h, c->rows + v->row, sizeof(uint16_t) * (size_t)per);
    }
    return fnv(h, &c->skipped, sizeof c->skipped);
}

static enhance_params paper_params(int k)
{
    enhance_params p = enhance_params_default();
    switch (k) {
    case 0: break; /* the defaults: 4x, 1 below 40, 3/4 above */
    case 1: p.levels = 3, p.thr_low = 2, p.thr_even = 2, p.thr_odd = 3, p.altitude = 12; break;
    case 2: p.levels = 1, p.thr_low = 1, p.thr_even = 4, p.thr_odd = 4, p.altitude = 20; break;
    case 3: p.op = ENHANCE_RESAMPLE, p.factor = 3, p.probes = 16, p.spread = 1.0f; break;
    default: p.op = ENHANCE_RESAMPLE, p.factor = 5, p.probes = 24, p.spread = 0.4f, p.percent = 50; break;
    }
    return p;
}
#define PAPER_SETS 5

/* Recorded from the algorithm before material rules (commit 061a890). */
static const uint64_t paper_hash[PAPER_SETS] = {
    0x3d9d8a65c8e9a528ull, 0x37391ef29a1a2e7aull, 0xf6e80bed895e388cull, 0x827534b3414a0365ull, 0x33478f4565382671ull,
};

static void test_materials_off_is_the_paper(void **state)
{
    enhance_input *in = malloc(sizeof *in);
    assert_non_null(in);
    for (int k = 0; k < PAPER_SETS; k++) {
        enhance_params p = paper_params(k);
        uint64_t h = 0xcbf29ce484222325ull;
        for (int cy = 0; cy < 2; cy++) {
            fill_mixed(in, 11 + (uint64_t)k, cy);
            enhance_ctx *e = test_enhance_ctx(p);
            enhance_chunk c = { 0 };
            enhance_chunk_build(e, in, true, &c);
            uint64_t ch = chunk_hash(&c);
            h = fnv(h, &ch, sizeof ch);
            enhance_chunk_free(&c);
            enhance_destroy(e);
        }
        assert_true(h == paper_hash[k]);
    }
    free(in);
}

static const enhance_voxel *find(const enhance_chunk *c, int idx)
{
    for (int i = 0; i < c->count; i++)
        if (c->vox[i].index == idx) return &c->vox[i];
    return NULL;
}

/* A dirt floor (top y = 10) for x < 16 meets a stone floor one voxel higher
 * (top y = 11) for x >= 16: a one-voxel stone step above dirt. `only`
 * keeps one of the two materials (the other becomes air). */
static enhance_input *make_step(uint8_t only)
{
    enhance_input *in = calloc(1, sizeof *in);
    assert_non_null(in);
    for (int y = -ENHANCE_PAD; y < CHUNK_SIZE + ENHANCE_PAD; y++)
        for (int z = -ENHANCE_PAD; z < CHUNK_SIZE + ENHANCE_PAD; z++)
            for (int x = -ENHANCE_PAD; x < CHUNK_SIZE + ENHANCE_PAD; x++) {
                uint8_t m = x < 16 ? (y <= 10 ? MAT_DIRT : MAT_AIR) : (y <= 11 ? MAT_STONE : MAT_AIR);
                if (only && m != only) m = MAT_AIR;
                in->vox[ENHANCE_IN_INDEX(x, y, z)] = m;
            }
    return in;
}

/* Both materials at threshold 1 (the widest blend a rule allows): with
 * materials on, every solid voxel's fragments keep its material, no dirt
 * fragment lies on the stone side of the boundary, and the fragments grown
 * into an air voxel are exactly those its material alone would grow (the
 * same voxel with the other material removed): dirt does not climb the
 * stone wall. With materials off (the paper's rule) dirt-coloured fragments
 * do climb it, which is what this test would catch. */
static void test_dirt_stone_boundary(void **state)
{
    enhance_input *in = make_step(0), *dirt = make_step(MAT_DIRT), *stone = make_step(MAT_STONE);
    for (int on = 1; on >= 0; on--) {
        enhance_params p = enhance_params_default();
        p.levels = 2;
        p.thr_low = p.thr_even = p.thr_odd = 1;
        p.materials = on;
        p.mat_even[MAT_DIRT] = p.mat_odd[MAT_DIRT] = p.mat_even[MAT_STONE] = p.mat_odd[MAT_STONE] = 1;
        enhance_ctx *e = test_enhance_ctx(p);
        enhance_chunk c = { 0 }, cd = { 0 }, cs = { 0 };
        enhance_chunk_build(e, in, true, &c);
        enhance_chunk_build(e, dirt, true, &cd);
        enhance_chunk_build(e, stone, true, &cs);
        int per = c.factor * c.factor, climbing = 0, dirt_air = 0;
        for (int i = 0; i < c.count; i++) {
            const enhance_voxel *v = &c.vox[i];
            int x = v->index & CHUNK_MASK, y = v->index >> (2 * CHUNK_BITS), z = (v->index >> CHUNK_BITS) & CHUNK_MASK;
            uint8_t coarse = in->vox[ENHANCE_IN_INDEX(x, y, z)];
            if (coarse != MAT_AIR) {
                assert_int_equal(v->material, coarse);
                continue;
            }
            assert_true(v->material == MAT_DIRT || v->material == MAT_STONE);
            if (v->material == MAT_DIRT) dirt_air++;
            if (on) assert_true(v->material != MAT_DIRT || x < 16);
            const enhance_voxel *alone = find(v->material == MAT_DIRT ? &cd : &cs, v->index);
            const uint16_t *want = alone ? (v->material == MAT_DIRT ? &cd : &cs)->rows + alone->row : NULL;
            bool same = want && !memcmp(c.rows + v->row, want, sizeof(uint16_t) * (size_t)per);
            if (on)
                assert_true(same);
            else if (!same && v->material == MAT_DIRT)
                climbing++;
        }
        assert_true(dirt_air > 0);
        if (!on) assert_true(climbing > 0);
        enhance_chunk_free(&c);
        enhance_chunk_free(&cd);
        enhance_chunk_free(&cs);
        enhance_destroy(e);
    }
    free(in);
    free(dirt);
    free(stone);
}

/* Sand's pattern changed to 4/4: every voxel whose fragments are not sand
 * is listed (or not) with the same rows as before; sand's own change. Both
 * operators. */
static void test_material_thresholds_are_local(void **state)
{
    enhance_input *in = malloc(sizeof *in);
    assert_non_null(in);
    fill_mixed(in, 21, 0);
    for (int op = 0; op < 2; op++) {
        enhance_params p = enhance_params_default();
        p.op = (enhance_operator)op;
        p.probes = 24;
        p.materials = true;
        enhance_params q = p;
        q.mat_even[MAT_SAND] = q.mat_odd[MAT_SAND] = 4;
        q.mat_percent[MAT_SAND] = 80;
        enhance_ctx *a = test_enhance_ctx(p), *b = test_enhance_ctx(q);
        enhance_chunk ca = { 0 }, cb = { 0 };
        enhance_chunk_build(a, in, true, &ca);
        enhance_chunk_build(b, in, true, &cb);
        int per = ca.factor * ca.factor, sand_changed = 0;
        for (int pass = 0; pass < 2; pass++) {
            const enhance_chunk *x = pass ? &cb : &ca, *y = pass ? &ca : &cb;
            for (int i = 0; i < x->count; i++) {
                const enhance_voxel *v = &x->vox[i], *w = find(y, v->index);
                bool same = w && w->material == v->material &&
                            !memcmp(x->rows + v->row, y->rows + w->row, sizeof(uint16_t) * (size_t)per);
                if (v->material != MAT_SAND)
                    assert_true(same);
                else if (!same)
                    sand_changed++;
            }
        }
        assert_true(sand_changed > 0);
        enhance_chunk_free(&ca);
        enhance_chunk_free(&cb);
        enhance_destroy(a);
        enhance_destroy(b);
    }
    free(in);
}

/* The rule sets are few and the cache keys them: a second build of the same
 * chunk is all hits, and materials off is one rule set (the paper's). */
static void test_rule_sets_and_cache(void **state)
{
    enhance_input *in = malloc(sizeof *in);
    assert_non_null(in);
    fill_mixed(in, 5, 0);
    enhance_params p = enhance_params_default();
    enhance_ctx *off = test_enhance_ctx(p);
    assert_int_equal(enhance_rule_sets(off), 1);
    p.materials = true;
    enhance_ctx *e = test_enhance_ctx(p);
    assert_true(enhance_rule_sets(e) > 1 && enhance_rule_sets(e) <= ECLASS_COUNT);
    enhance_chunk c = { 0 };
    enhance_chunk_build(e, in, true, &c);
    enhance_stats s1, s2;
    enhance_get_stats(e, &s1);
    enhance_chunk_build(e, in, true, &c);
    enhance_get_stats(e, &s2);
    assert_true(s2.lookups > s1.lookups);
    assert_true(s2.hits - s1.hits == s2.lookups - s1.lookups);
    char err[256];
    p.mat_even[MAT_SAND] = 5;
    assert_false(enhance_params_check(&p, err, sizeof err));
    assert_non_null(strstr(err, "sand"));
    p.mat_even[MAT_SAND] = 1;
    p.mat_percent[MAT_STONE] = 100;
    assert_false(enhance_params_check(&p, err, sizeof err));
    assert_non_null(strstr(err, "stone"));
    enhance_chunk_free(&c);
    enhance_destroy(e);
    enhance_destroy(off);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_materials_off_is_the_paper),
        cmocka_unit_test(test_dirt_stone_boundary),
        cmocka_unit_test(test_material_thresholds_are_local),
        cmocka_unit_test(test_rule_sets_and_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
