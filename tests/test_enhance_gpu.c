/* The enhancement compute shaders against the CPU reference (gen/enhance):
 * on the same input every fragment bit and every surface flag is equal, for
 * both operators and several parameter sets, each with the material rules
 * off (the paper's) and on. Headless (llvmpipe in CI). */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "gen/enhance.h"
#include "gfx/enhance_gpu.h"
#include "platform/platform.h"

typedef struct gpu_fixture {
    platform *plat;
    enhance_gpu *gpu;
} gpu_fixture;

static int setup(void **state)
{
    gpu_fixture *s = calloc(1, sizeof *s);
    char err[1024];
    s->plat = platform_create(&(platform_desc){ .width = 64, .height = 64, .headless = true }, err, sizeof err);
    if (!s->plat) {
        print_error("headless context: %s\n", err);
        return -1;
    }
    s->gpu = enhance_gpu_create(err, sizeof err);
    if (!s->gpu) {
        print_error("%s\n", err);
        return -1;
    }
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    gpu_fixture *s = *state;
    enhance_gpu_destroy(s->gpu);
    platform_destroy(s->plat);
    free(s);
    return 0;
}

/* Hills with holes and floating bits, so every window kind occurs, in
 * bands of six materials of five classes so every class boundary does. */
static void fill_input(enhance_input *in, uint64_t seed, int cy)
{
    memset(in, 0, sizeof *in);
    in->cy = cy;
    for (int y = -ENHANCE_PAD; y < CHUNK_SIZE + ENHANCE_PAD; y++)
        for (int z = -ENHANCE_PAD; z < CHUNK_SIZE + ENHANCE_PAD; z++)
            for (int x = -ENHANCE_PAD; x < CHUNK_SIZE + ENHANCE_PAD; x++) {
                int h = 8 + (int)(rng_hash3(seed, (x + 8) >> 2, 0, (z + 8) >> 2) % 16);
                bool solid = y > h ? rng_hash3(seed, x, y, z) % 19 == 0 : rng_hash3(seed + 1, x, y, z) % 9 != 0;
                static const uint8_t mats[6] = { MAT_STONE, MAT_DIRT, MAT_SAND, MAT_GRASS, MAT_OAK_LEAVES, MAT_OAK_LOG };
                in->vox[ENHANCE_IN_INDEX(x, y, z)] = solid ? mats[(unsigned)(x + 2 + 3 * ((z + 2) >> 2)) % 6u] : MAT_AIR;
            }
}

static void compare(gpu_fixture *s, const enhance_params *p, const enhance_input *in)
{
    char err[512];
    enhance_ctx *e = enhance_create(p, err, sizeof err);
    assert_non_null(e);
    int f = enhance_factor(p), per = f * f;
    uint16_t *rows = calloc((size_t)CHUNK_VOLUME * (size_t)per, sizeof *rows);
    uint8_t *mixed = calloc(CHUNK_VOLUME, 1);
    assert_non_null(rows);
    assert_non_null(mixed);
    bool ok = enhance_gpu_run(s->gpu, e, in, rows, mixed, err, sizeof err);
    if (!ok) print_error("%s\n", err);
    assert_true(ok);
    int surface = 0;
    uint16_t want[ENHANCE_MAX_FACTOR * ENHANCE_MAX_FACTOR];
    for (int y = 0; y < CHUNK_SIZE; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                int v = CHUNK_INDEX(x, y, z);
                bool m = enhance_voxel_eval(e, in, x, y, z, want);
                assert_int_equal(mixed[v], m);
                if (!m) continue;
                surface++;
                assert_memory_equal(rows + (size_t)v * (size_t)per, want, sizeof want[0] * (size_t)per);
            }
    assert_true(surface > 1000);
    /* the compacted chunk as the game uses it */
    enhance_chunk a = { 0 }, b = { 0 };
    enhance_chunk_build(e, in, true, &a);
    assert_true(enhance_gpu_build(s->gpu, e, in, &b, err, sizeof err));
    assert_int_equal(a.count, b.count);
    assert_int_equal(a.skipped, b.skipped);
    assert_true(a.fragments == b.fragments);
    assert_memory_equal(a.vox, b.vox, sizeof *a.vox * (size_t)a.count);
    assert_memory_equal(a.rows, b.rows, sizeof *a.rows * a.row_count);
    enhance_chunk_free(&a);
    enhance_chunk_free(&b);
    free(rows);
    free(mixed);
    enhance_destroy(e);
}

static void test_subdivide_gpu_equals_cpu(void **state)
{
    enhance_input *in = malloc(sizeof *in);
    assert_non_null(in);
    fill_input(in, 5, 0);
    int set[4][5] = { { 1, 1, 1, 1, 0 }, { 2, 1, 3, 4, 16 }, { 3, 2, 3, 4, 12 }, { 4, 1, 3, 4, 20 } };
    for (int k = 0; k < 4; k++) {
        enhance_params p = enhance_params_default();
        p.op = ENHANCE_SUBDIVIDE;
        p.levels = set[k][0];
        p.thr_low = set[k][1];
        p.thr_even = set[k][2];
        p.thr_odd = set[k][3];
        p.altitude = set[k][4];
        compare(*state, &p, in);
        p.materials = true;
        compare(*state, &p, in);
        p.mat_even[MAT_SAND] = 4; /* a rule set of its own */
        p.mat_odd[MAT_OAK_LEAVES] = 1;
        compare(*state, &p, in);
    }
    free(in);
}

static void test_resample_gpu_equals_cpu(void **state)
{
    enhance_input *in = malloc(sizeof *in);
    assert_non_null(in);
    fill_input(in, 9, 1);
    struct { int factor, probes, percent; float spread; } set[3] = { { 4, 16, 25, 1.0f }, { 3, 40, 50, 0.4f }, { 5, 4, 25, 1.5f } };
    for (int k = 0; k < 3; k++) {
        enhance_params p = enhance_params_default();
        p.op = ENHANCE_RESAMPLE;
        p.factor = set[k].factor;
        p.probes = set[k].probes;
        p.percent = set[k].percent;
        p.spread = set[k].spread;
        p.probe_seed = (uint32_t)k + 3;
        compare(*state, &p, in);
        p.materials = true;
        compare(*state, &p, in);
        p.mat_percent[MAT_DIRT] = 60;
        compare(*state, &p, in);
    }
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subdivide_gpu_equals_cpu),
        cmocka_unit_test(test_resample_gpu_equals_cpu),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
