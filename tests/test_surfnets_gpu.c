/* GPU surface nets (four compute passes, headless GL: llvmpipe in CI)
 * against the CPU reference on the same fields: equal as sets of triangles
 * (named by their cells, winding kept), vertex positions within 1e-5,
 * normals within 1e-4; and the counters draw the mesh with no readback. */
#include "test_support.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "gfx/surfnets_gpu.h"
#include "mesh/mesh_smooth.h"
#include "mesh/surfnets_fields.h"
#include "platform/platform.h"
#include "surfnets_compare.h"
#include "terrain.h"
#include "worldgen.h"

typedef struct gpu_fixture {
    platform *plat;
    surfnets_gpu *g;
} gpu_fixture;

static int setup(void **state)
{
    gpu_fixture *s = calloc(1, sizeof *s);
    char err[2048];
    s->plat = platform_create(&(platform_desc){ .width = 64, .height = 64, .headless = true }, err, sizeof err);
    if (!s->plat) {
        print_error("headless context: %s\n", err);
        return -1;
    }
    s->g = surfnets_gpu_create(err, sizeof err);
    if (!s->g) {
        print_error("surfnets_gpu: %s\n", err);
        return -1;
    }
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    gpu_fixture *s = *state;
    surfnets_gpu_destroy(s->g);
    platform_destroy(s->plat);
    free(s);
    return 0;
}

static void check_field(gpu_fixture *s, const surfnets_field *f, const uint8_t *mats)
{
    surfnets_mesh cpu = { 0 }, gpu = { 0 };
    surfnets_gpu_mesh gm = { 0 };
    assert_true(surfnets_extract(f, &cpu));
    long active = surfnets_active_cells(f, &cpu);
    assert_int_equal(active, cpu.vertices);
    assert_true(cpu.triangles > 0);
    assert_true(surfnets_gpu_extract(s->g, f, mats, active, &gm));
    assert_true(surfnets_gpu_read(&gm, &gpu));
    assert_int_equal(glGetError(), GL_NO_ERROR);
    surfnets_assert_same_mesh(&cpu, &gpu, 1e-5f, 1e-4f);
    surfnets_gpu_mesh_free(&gm);
    surfnets_free(&cpu);
    surfnets_free(&gpu);
}

static void test_noise(void **state)
{
    gpu_fixture *s = *state;
    const int n = 48;
    float *d = malloc(sizeof *d * n * n * n);
    surfnets_field_noise(d, n, 5);
    check_field(s, &(surfnets_field){ d, n, n, n }, NULL);
    /* not a cube, and with chunk face ownership */
    check_field(s, &(surfnets_field){ d, n, n / 2, 40, { 1, 0, 1 } }, NULL);
    free(d);
}

static void test_sphere(void **state)
{
    gpu_fixture *s = *state;
    const int n = 37;
    float *d = malloc(sizeof *d * n * n * n);
    surfnets_field_sphere(d, n, 18.2f, 17.9f, 18.05f, 13.3f);
    check_field(s, &(surfnets_field){ d, n, n, n }, NULL);
    free(d);
}

/* A terrain chunk with a tunnel cut through it, as the smooth mode meshes
 * it: its density, materials and face ownership. */
static void test_cut_terrain_chunk(void **state)
{
    gpu_fixture *s = *state;
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(2, 2, 2);
    assert_true(worldgen_generate(w, &terrain_hills, 9, jobs));
    job_pool_destroy(jobs);
    for (int z = 0; z < w->sz; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = 0; x < w->sx; x++) {
                float dy = (float)y - 18.f, dx = (float)x - 40.f;
                if (dx * dx + dy * dy < 30.f) world_set(w, x, y, z, MAT_AIR);
            }
    smooth_input *in = malloc(sizeof *in);
    mesh_smooth_gather(w, 1, 0, 1, SMOOTH_SHARPNESS_DEFAULT, in);
    check_field(s, &(surfnets_field){ in->d, SMOOTH_N, SMOOTH_N, SMOOTH_N, { in->own_lo[0], in->own_lo[1], in->own_lo[2] } },
                in->mat);
    free(in);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noise),
        cmocka_unit_test(test_sphere),
        cmocka_unit_test(test_cut_terrain_chunk),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
