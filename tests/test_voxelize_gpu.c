/* The parity voxelization on the GPU (shaders/voxelize_parity.comp) equals
 * the CPU's voxel for voxel: random small soups full of ties, the broken
 * teapots with 1 and 9 directions, and the same refusals. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "gen/meshmake.h"
#include "gfx/voxelize_gpu.h"
#include "platform/platform.h"

typedef struct gpu_state {
    platform *plat;
    voxelize_gpu *gpu;
} gpu_state;

static int setup(void **state)
{
    gpu_state *s = calloc(1, sizeof *s);
    char err[1024];
    s->plat = platform_create(&(platform_desc){ .width = 16, .height = 16, .headless = true }, err, sizeof err);
    if (!s->plat) {
        print_error("headless context: %s\n", err);
        return -1;
    }
    s->gpu = voxelize_gpu_create(err, sizeof err);
    if (!s->gpu) {
        print_error("%s\n", err);
        return -1;
    }
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    gpu_state *s = *state;
    if (!s) return 0;
    voxelize_gpu_destroy(s->gpu);
    platform_destroy(s->plat);
    free(s);
    return 0;
}

static void compare(gpu_state *s, const obj_mesh *m, const voxelize_grid *g, int k, uint64_t seed)
{
    size_t n = (size_t)g->nx * g->ny * g->nz;
    uint8_t *cpu = malloc(n), *gpu = malloc(n);
    voxelize_desc d = { 0 };
    d.directions = k;
    d.seed = seed;
    char err[256];
    long a = voxelize_mesh(m, g, &d, cpu, err, sizeof err);
    if (a < 0) fail_msg("cpu: %s", err);
    long b = voxelize_gpu_parity(s->gpu, m, g, &d, gpu, err, sizeof err);
    if (b < 0) fail_msg("gpu: %s", err);
    assert_int_equal(a, b);
    assert_memory_equal(cpu, gpu, n);
    free(cpu);
    free(gpu);
}

static void test_gpu_random_soups(void **state)
{
    gpu_state *s = *state;
    rng r = rng_make(99);
    for (int trial = 0; trial < 12; trial++) {
        obj_mesh m = { 0 };
        voxelize_grid g = { { 0, 0, 0 }, 1.0, 6 + trial % 4, 5 + trial % 5, 7 + trial % 3 };
        int nv = 8;
        for (int i = 0; i < nv; i++) /* on a half-voxel lattice: rays through edges and vertices */
            obj_add_vertex(&m, (float)rng_range(&r, 0, 2 * g.nx) * 0.5f, (float)rng_range(&r, 0, 2 * g.ny) * 0.5f,
                           (float)rng_range(&r, 0, 2 * g.nz) * 0.5f);
        for (int i = 0; i < 20; i++)
            obj_add_tri(&m, rng_range(&r, 0, nv - 1), rng_range(&r, 0, nv - 1), rng_range(&r, 0, nv - 1));
        compare(s, &m, &g, 1 + 2 * (trial % 4), (uint64_t)trial);
        obj_free(&m);
    }
}

static void test_gpu_teapots(void **state)
{
    gpu_state *s = *state;
    const unsigned damage[] = { 0, MESHMAKE_HOLES, MESHMAKE_HOLES | MESHMAKE_GAPS | MESHMAKE_FLIPS | MESHMAKE_OVERLAPS };
    for (int i = 0; i < 3; i++) {
        obj_mesh m = { 0 };
        meshmake_teapot(&m, 40, damage[i], 4);
        voxelize_grid g;
        char err[256];
        assert_true(voxelize_grid_fit(&m, 48, &g, err, sizeof err));
        compare(s, &m, &g, 1, 1);
        compare(s, &m, &g, 9, 1);
        obj_free(&m);
    }
}

static void test_gpu_refusals(void **state)
{
    gpu_state *s = *state;
    obj_mesh m = { 0 };
    const float lo[3] = { 0, 0, 0 }, hi[3] = { 1, 1, 1 };
    meshmake_cube(&m, lo, hi);
    voxelize_grid g = { { 0, 0, 0 }, 1.0 / 8, 8, 8, 8 };
    uint8_t out[512];
    char err[256];
    voxelize_desc d = { 0 };
    assert_true(voxelize_gpu_parity(s->gpu, &m, &g, &d, out, err, sizeof err) < 0); /* no directions */
    d.directions = 3;
    assert_int_equal(voxelize_gpu_parity(s->gpu, &m, &g, &d, out, err, sizeof err), 512);
    m.v[0] = 1e6f; /* far outside the grid: beyond the exact range */
    assert_true(voxelize_gpu_parity(s->gpu, &m, &g, &d, out, err, sizeof err) < 0);
    g.nx = VOXELIZE_MAX_RES + 1;
    assert_true(voxelize_gpu_parity(s->gpu, &m, &g, &d, out, err, sizeof err) < 0);
    obj_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_random_soups),
        cmocka_unit_test(test_gpu_teapots),
        cmocka_unit_test(test_gpu_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
