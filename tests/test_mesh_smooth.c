/* Smooth chunk meshes: over a whole generated (and cut) world, the union of
 * every chunk's mesh equals the mesh of the world as one grid (no cracks,
 * no doubled triangles at chunk faces), and that mesh is closed apart from
 * where the endless bedrock floor leaves the world; the density keeps the
 * sign of the voxels and gives sloped, not stepped, surfaces. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "mesh/mesh_smooth.h"
#include "surfnets_compare.h"
#include "terrain.h"
#include "worldgen.h"

static world *make_world(void)
{
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(3, 2, 3);
    assert_non_null(w);
    assert_true(worldgen_generate(w, &terrain_hills, 4, jobs));
    job_pool_destroy(jobs);
    /* a tunnel through chunk faces and corners, tinted like a cut */
    for (int z = 0; z < w->sz; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = 0; x < w->sx; x++) {
                float dy = (float)y - 20.f, dz = (float)z - 32.f;
                if (dy * dy + dz * dz < 36.f) world_set(w, x, y, z, MAT_AIR);
                if (dy * dy + dz * dz >= 25.f && dy * dy + dz * dz < 36.f) world_set_tint(w, x, y, z, 2); /* its rim cells */
            }
    return w;
}

static void test_chunks_seamless_and_closed(void **state)
{
    world *w = make_world();
    const float k = SMOOTH_SHARPNESS_DEFAULT;
    /* the whole world as one grid: samples are voxels -1 .. size */
    int nx = w->sx + 2, ny = w->sy + 2, nz = w->sz + 2;
    size_t ns = (size_t)nx * ny * nz;
    float *d = malloc(ns * sizeof *d);
    uint8_t *mat = malloc(ns), *tint = malloc(ns);
    smooth_density_box(w, -1, -1, -1, nx, ny, nz, k, d, mat, tint);
    surfnets_mesh whole = { 0 };
    assert_true(surfnets_extract(&(surfnets_field){ d, nx, ny, nz }, &whole));
    assert_true(whole.triangles > 10000);

    /* every chunk, its cells renamed to the whole grid's */
    surfnets_mesh uni = { 0 };
    smooth_input *in = malloc(sizeof *in);
    smooth_mesh m = { 0 };
    uint32_t wcx = (uint32_t)nx - 1, wcy = (uint32_t)ny - 1, lc = SMOOTH_N - 1;
    for (int c = 0; c < w->chunk_count; c++) {
        int cx, cy, cz;
        world_chunk_coords(w, c, &cx, &cy, &cz);
        mesh_smooth_gather(w, cx, cy, cz, k, in);
        assert_true(mesh_smooth_build(in, &m));
        int base = uni.vertices;
        uni.vertices += m.vertices, uni.triangles += m.triangles;
        uni.pos = realloc(uni.pos, sizeof(float) * 3 * (size_t)uni.vertices);
        uni.nrm = realloc(uni.nrm, sizeof(float) * 3 * (size_t)uni.vertices);
        uni.cell = realloc(uni.cell, sizeof(uint32_t) * (size_t)uni.vertices);
        uni.idx = realloc(uni.idx, sizeof(uint32_t) * 3 * (size_t)uni.triangles);
        for (int i = 0; i < m.vertices; i++) {
            uint32_t cell = m.nets.cell[i];
            uint32_t x = cell % lc + (uint32_t)(cx * CHUNK_SIZE), y = (cell / lc) % lc + (uint32_t)(cy * CHUNK_SIZE),
                     z = cell / (lc * lc) + (uint32_t)(cz * CHUNK_SIZE);
            uni.cell[base + i] = x + wcx * (y + wcy * z);
            /* back to whole-grid units: chunk-local + origin + 0.5 (voxel -1 is sample 0) */
            uni.pos[3 * (base + i)] = m.v[i].pos[0] + (float)(cx * CHUNK_SIZE) + 0.5f;
            uni.pos[3 * (base + i) + 1] = m.v[i].pos[1] + (float)(cy * CHUNK_SIZE) + 0.5f;
            uni.pos[3 * (base + i) + 2] = m.v[i].pos[2] + (float)(cz * CHUNK_SIZE) + 0.5f;
            memcpy(uni.nrm + 3 * (base + i), m.nets.nrm + 3 * i, sizeof(float) * 3);
        }
        for (int t = 0; t < 3 * m.triangles; t++) uni.idx[3 * (size_t)(uni.triangles - m.triangles) + t] = m.idx[t] + (uint32_t)base;
    }
    /* a vertex may be computed by two chunks (a border cell); triangles are
     * owned by one: compare triangle sets, and positions per cell */
    sn_tri *tw = sn_triangles(&whole), *tu = sn_triangles(&uni);
    assert_int_equal(whole.triangles, uni.triangles);
    assert_memory_equal(tw, tu, sizeof *tw * (size_t)whole.triangles);
    sn_vert *vw = sn_vertices(&whole), *vu = sn_vertices(&uni);
    int j = 0;
    for (int i = 0; i < uni.vertices; i++) {
        while (j < whole.vertices && vw[j].cell < vu[i].cell) j++;
        if (j == whole.vertices || vw[j].cell != vu[i].cell) continue; /* a border cell no quad uses */
        for (int q = 0; q < 3; q++) assert_true(fabsf(whole.pos[3 * vw[j].index + q] - uni.pos[3 * vu[i].index + q]) < 1e-4f);
    }

    /* closed: each directed edge has its reverse, unless it runs along the
     * grid's outer cells (the bedrock floor goes on past the world) */
    size_t ne = 3 * (size_t)whole.triangles;
    uint64_t *e = malloc(ne * sizeof *e);
    for (int t = 0; t < whole.triangles; t++)
        for (int q = 0; q < 3; q++)
            e[3 * t + q] = (uint64_t)whole.cell[whole.idx[3 * t + q]] << 32 | whole.cell[whole.idx[3 * t + (q + 1) % 3]];
    qsort(e, ne, sizeof *e, sn_cmp_u64);
    int open = 0;
    for (size_t i = 0; i < ne; i++) {
        if (i + 1 < ne) assert_true(e[i] != e[i + 1]);
        uint64_t rev = e[i] << 32 | e[i] >> 32;
        if (bsearch(&rev, e, ne, sizeof *e, sn_cmp_u64)) continue;
        for (int q = 0; q < 2; q++) {
            uint32_t c = (uint32_t)(q ? e[i] : e[i] >> 32);
            uint32_t x = c % wcx, y = (c / wcx) % wcy, z = c / (wcx * wcy);
            assert_true(x == 0 || y == 0 || z == 0 || x == wcx - 1 || z == (uint32_t)nz - 2);
        }
        open++;
    }
    assert_true(open < (int)ne / 20);
    free(e), free(tw), free(tu), free(vw), free(vu);
    surfnets_free(&whole), surfnets_free(&uni), mesh_smooth_free(&m);
    free(in), free(d), free(mat), free(tint);
    world_destroy(w);
}

/* RMS distance of the upward-facing surface from the straight slope the
 * staircase approximates (one voxel up every four), away from the edges. */
static double stair_rms(const world *w, float sharpness, int *cactus)
{
    smooth_input *in = malloc(sizeof *in);
    mesh_smooth_gather(w, 0, 0, 0, sharpness, in);
    for (int i = 0; i < SMOOTH_VOLUME; i++) assert_true((in->d[i] < 0) == (material_get(in->mat[i])->pass != PASS_NONE));
    smooth_mesh m = { 0 };
    assert_true(mesh_smooth_build(in, &m));
    double sum = 0, sum2 = 0;
    int n = 0;
    *cactus = 0;
    for (int i = 0; i < m.vertices; i++) {
        const smooth_vertex *v = &m.v[i];
        if (v->mat == MAT_CACTUS) ++*cactus;
        if (v->pos[0] < 4 || v->pos[0] > 28 || v->pos[2] < 4 || v->pos[2] > 28 || v->nrm[1] < 40 || v->pos[1] > 24) continue;
        double r = v->pos[1] - v->pos[0] / 4.0;
        sum += r, sum2 += r * r, n++;
    }
    assert_true(n > 100);
    mesh_smooth_free(&m);
    free(in);
    double mean = sum / n;
    return sqrt(sum2 / n - mean * mean);
}

/* A staircase rising one voxel every four: binary data gives flat treads
 * and 45-degree risers; the filtered density lies closer to the slope, and
 * keeps every solid voxel inside (a lone one does not vanish). */
static void test_density_slopes_and_keeps_sign(void **state)
{
    world *w = world_create(1, 1, 1);
    for (int x = 0; x < w->sx; x++)
        for (int z = 0; z < w->sz; z++)
            for (int y = 0; y <= 8 + x / 4; y++) world_set(w, x, y, z, MAT_SAND);
    world_set(w, 10, 25, 10, MAT_CACTUS);
    int cactus;
    double binary = stair_rms(w, 1.f, &cactus);
    double smooth = stair_rms(w, SMOOTH_SHARPNESS_DEFAULT, &cactus);
    print_message("stairs rms: filtered %.3f, binary %.3f\n", smooth, binary);
    assert_true(cactus > 0);
    assert_true(smooth < 0.6 * binary);
    world_destroy(w);
}

static uint64_t mesh_hash(const smooth_mesh *m)
{
    uint64_t h = 1469598103934665603ull;
    const uint8_t *b = (const uint8_t *)m->v;
    for (size_t i = 0; i < sizeof *m->v * (size_t)m->vertices; i++) h = (h ^ b[i]) * 1099511628211ull;
    b = (const uint8_t *)m->idx;
    for (size_t i = 0; i < sizeof *m->idx * 3 * (size_t)m->triangles; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* An edit's box marks (mesh_smooth_mark_edit) the chunks whose nets it can
 * change, and only those: re-meshing them gives what re-meshing all would. */
static void test_edit_dirties_only_its_chunks(void **state)
{
    world *w = make_world();
    int *idx = malloc(sizeof *idx * (size_t)w->chunk_count);
    uint64_t *before = malloc(sizeof *before * (size_t)w->chunk_count);
    smooth_input *in = malloc(sizeof *in);
    smooth_mesh m = { 0 };
    for (int c = 0; c < w->chunk_count; c++) {
        int cx, cy, cz;
        world_chunk_coords(w, c, &cx, &cy, &cz);
        mesh_smooth_gather(w, cx, cy, cz, SMOOTH_SHARPNESS_DEFAULT, in);
        assert_true(mesh_smooth_build(in, &m));
        before[c] = mesh_hash(&m);
    }
    world_take_dirty(w, idx, w->chunk_count);
    /* inside one chunk, far from its faces: only that chunk */
    world_set(w, 48, 20, 48, world_get(w, 48, 20, 48) ? MAT_AIR : MAT_STONE);
    mesh_smooth_mark_edit(w, (int[3]){ 48, 20, 48 }, (int[3]){ 49, 21, 49 });
    assert_int_equal(world_take_dirty(w, idx, w->chunk_count), 1);
    world_set(w, 48, 20, 48, world_get(w, 48, 20, 48) ? MAT_AIR : MAT_STONE); /* and back */
    world_take_dirty(w, idx, w->chunk_count);
    /* a cut near the corner of four columns of chunks */
    for (int z = 58; z < 66; z++)
        for (int y = 10; y < 30; y++)
            for (int x = 29; x < 35; x++) world_set(w, x, y, z, MAT_AIR);
    mesh_smooth_mark_edit(w, (int[3]){ 29, 10, 58 }, (int[3]){ 35, 30, 66 });
    int n = world_take_dirty(w, idx, w->chunk_count);
    assert_true(n >= 4 && n < w->chunk_count);
    int changed = 0;
    for (int c = 0; c < w->chunk_count; c++) {
        int cx, cy, cz;
        world_chunk_coords(w, c, &cx, &cy, &cz);
        mesh_smooth_gather(w, cx, cy, cz, SMOOTH_SHARPNESS_DEFAULT, in);
        assert_true(mesh_smooth_build(in, &m));
        bool dirty = false;
        for (int k = 0; k < n; k++) dirty |= idx[k] == c;
        if (!dirty) assert_true(mesh_hash(&m) == before[c]); /* nets of an unmarked chunk never change */
        else changed += mesh_hash(&m) != before[c];
    }
    assert_true(changed >= 2);
    mesh_smooth_free(&m);
    free(in), free(idx), free(before);
    world_destroy(w);
}

/* Level of detail 1: about a quarter of the triangles, the surface where
 * it was (within a voxel), and a one-voxel grass layer still on top at
 * either parity of its height. */
static void test_lod1(void **state)
{
    for (int h = 9; h <= 10; h++) {
        world *w = world_create(1, 1, 1);
        for (int z = 0; z < 32; z++)
            for (int x = 0; x < 32; x++) {
                int top = h + (x > 16 ? 3 : 0);
                for (int y = 0; y <= top; y++) world_set(w, x, y, z, y == top ? MAT_GRASS : MAT_DIRT);
            }
        smooth_input *in = malloc(sizeof *in);
        smooth_mesh m0 = { 0 }, m1 = { 0 };
        mesh_smooth_gather_lod(w, 0, 0, 0, SMOOTH_SHARPNESS_DEFAULT, 0, in);
        assert_true(mesh_smooth_build(in, &m0));
        mesh_smooth_gather_lod(w, 0, 0, 0, SMOOTH_SHARPNESS_DEFAULT, 1, in);
        assert_int_equal(in->n, SMOOTH_N_LOD1);
        assert_true(mesh_smooth_build(in, &m1));
        assert_true(m1.triangles > 0 && m1.triangles < m0.triangles * 2 / 5);
        int up = 0;
        for (int i = 0; i < m1.vertices; i++) {
            const smooth_vertex *v = &m1.v[i];
            if (v->nrm[1] < 120 || v->pos[0] < 2 || v->pos[0] > 30 || v->pos[2] < 2 || v->pos[2] > 30) continue;
            float want = (float)(h + (v->pos[0] > 17 ? 3 : 0)) + 1.f;
            if (v->pos[0] > 13 && v->pos[0] < 21) continue; /* the step between the two levels */
            assert_true(fabsf(v->pos[1] - want) < 1.01f);
            assert_int_equal(v->mat, MAT_GRASS);
            up++;
        }
        assert_true(up > 20);
        mesh_smooth_free(&m0), mesh_smooth_free(&m1);
        free(in);
        world_destroy(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunks_seamless_and_closed),
        cmocka_unit_test(test_density_slopes_and_keeps_sign),
        cmocka_unit_test(test_edit_dirties_only_its_chunks),
        cmocka_unit_test(test_lod1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
