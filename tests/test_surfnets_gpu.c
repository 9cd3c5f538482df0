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
#include "worldgen/terrain.h"
#include "play/tool.h"
#include "worldgen/worldgen.h"

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
    assert_true(surfnets_gpu_extract(s->g, f, mats, NULL, active, &gm));
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

/* 2x2x2 chunks of hills, seed 9. */
static world *hills_world(void)
{
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(2, 2, 2);
    assert_true(worldgen_generate(w, &terrain_hills, 9, jobs));
    job_pool_destroy(jobs);
    return w;
}

/* A terrain chunk with a tunnel cut through it, as the smooth mode meshes
 * it: its density, materials and face ownership. */
static void test_cut_terrain_chunk(void **state)
{
    gpu_fixture *s = *state;
    world *w = hills_world();
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

/* A tunnel cut by the tool in two colours through a terrain chunk: the
 * cut's tints reach the smooth nets, and the compute passes give every
 * vertex the material and tint the CPU mesher gives it (vertices matched
 * by their cell, positions within 1e-5). */
static void test_cut_tints_match_cpu(void **state)
{
    gpu_fixture *s = *state;
    world *w = hills_world();
    tool t;
    char err[256];
    assert_true(tool_init(&t, err, sizeof err));
    assert_true(tool_set_shape(&t, TOOL_DEFAULT_SHAPE, 11, err, sizeof err));
    assert_true(tool_bind_world(&t, w));
    int top = world_surface_y(w, 48, 40);
    for (int k = 0; k < 8; k++) { /* down into the hill along +z, yellow then blue */
        octree_pose pose;
        octree_pose_identity(&pose, (float[3]){ 48, (float)(top - k), 36.f + 3.f * (float)k });
        t.color = k < 4 ? 4 : 3;
        assert_true(tool_cut(&t, w, &pose) > 0);
    }
    tool_free(&t);

    smooth_input *in = malloc(sizeof *in);
    smooth_mesh cpu = { 0 };
    surfnets_mesh gpu = { 0 }, count = { 0 };
    int tinted_chunks = 0;
    for (int c = 0; c < w->chunk_count; c++) {
        int cx, cy, cz;
        world_chunk_coords(w, c, &cx, &cy, &cz);
        mesh_smooth_gather(w, cx, cy, cz, SMOOTH_SHARPNESS_DEFAULT, in);
        assert_true(mesh_smooth_build(in, &cpu));
        surfnets_field f = { in->d, SMOOTH_N, SMOOTH_N, SMOOTH_N, { in->own_lo[0], in->own_lo[1], in->own_lo[2] } };
        long active = surfnets_active_cells(&f, &count);
        if (active <= 0) continue;
        surfnets_gpu_mesh gm = { 0 };
        assert_true(surfnets_gpu_extract(s->g, &f, in->mat, in->tint, active, &gm));
        assert_true(surfnets_gpu_read(&gm, &gpu));
        assert_int_equal(gpu.vertices, cpu.vertices);
        uint8_t *gmat = malloc((size_t)gpu.vertices + 1), *gtint = malloc((size_t)gpu.vertices + 1);
        assert_true(surfnets_gpu_read_materials(&gm, gpu.vertices, gmat, gtint));
        assert_int_equal(glGetError(), GL_NO_ERROR);
        sn_vert *vc = sn_vertices(&cpu.nets), *vg = sn_vertices(&gpu);
        int tinted = 0;
        for (int i = 0; i < cpu.vertices; i++) {
            assert_int_equal(vc[i].cell, vg[i].cell);
            int a = vc[i].index, b = vg[i].index;
            for (int k = 0; k < 3; k++) assert_true(fabsf(cpu.nets.pos[3 * a + k] - gpu.pos[3 * b + k]) <= 1e-5f);
            assert_int_equal(cpu.v[a].mat, gmat[b]);
            assert_int_equal(cpu.v[a].tint, gtint[b]);
            tinted += cpu.v[a].tint != 0;
        }
        tinted_chunks += tinted > 20;
        free(vc), free(vg), free(gmat), free(gtint);
        surfnets_gpu_mesh_free(&gm);
    }
    assert_true(tinted_chunks >= 1); /* the cut's colours are on the nets */
    mesh_smooth_free(&cpu);
    surfnets_free(&gpu), surfnets_free(&count);
    free(in);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noise),
        cmocka_unit_test(test_sphere),
        cmocka_unit_test(test_cut_terrain_chunk),
        cmocka_unit_test(test_cut_tints_match_cpu),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
