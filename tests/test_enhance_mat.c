/* Enhancement that knows materials (issue 22 part 1; seed 000 sections 2
 * and 5): with materials off the fragments are the paper's, bit for bit
 * (hashes recorded before the material rules existed). */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "gen/enhance.h"

static enhance_ctx *make_ctx(enhance_params p)
{
    char err[256];
    enhance_ctx *e = enhance_create(&p, err, sizeof err);
    if (!e) print_error("%s\n", err);
    assert_non_null(e);
    return e;
}

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
            enhance_ctx *e = make_ctx(p);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_materials_off_is_the_paper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
