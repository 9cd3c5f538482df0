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
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

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

/* Coarse levels: level l has about 4^-l of the triangles (plus its skirt),
 * the surface where it was (within half a coarse cell), and a one-voxel
 * grass layer still on top at either parity of its height. */
/* A streamed window below 0 meshes as the same voxels at 0: a chunk owns
 * the edges on its low faces unless it is the window's first (were a chunk at 0
 * or below to own them too, it would mesh its low faces again over its
 * neighbour's: doubled triangles). Level 0 of
 * the levels' gather too. */
static void test_window_below_zero_meshes_alike(void **state)
{
    (void)state;
    world *at0 = make_world();
    world *below = world_create_at(-2, -2, at0->cx, at0->cy, at0->cz);
    assert_non_null(below);
    const int dx = -2 * CHUNK_SIZE, dz = -2 * CHUNK_SIZE;
    for (int y = 0; y < at0->sy; y++)
        for (int z = 0; z < at0->sz; z++)
            for (int x = 0; x < at0->sx; x++) {
                world_set(below, x + dx, y, z + dz, world_get(at0, x, y, z));
                uint8_t t = world_get_tint(at0, x, y, z);
                if (t) world_set_tint(below, x + dx, y, z + dz, t);
            }
    smooth_input *in = malloc(sizeof *in);
    smooth_input *lv[SMOOTH_LODS];
    for (int l = 0; l < SMOOTH_LODS; l++) lv[l] = malloc(sizeof *lv[l]);
    smooth_mesh m = { 0 };
    long total = 0;
    for (int cy = 0; cy < at0->cy; cy++)
        for (int cz = 0; cz < at0->cz; cz++)
            for (int cx = 0; cx < at0->cx; cx++) {
                int tris[3];
                mesh_smooth_gather(at0, cx, cy, cz, SMOOTH_SHARPNESS_DEFAULT, in);
                assert_true(mesh_smooth_build(in, &m));
                tris[0] = m.triangles;
                mesh_smooth_gather(below, cx - 2, cy, cz - 2, SMOOTH_SHARPNESS_DEFAULT, in);
                assert_true(mesh_smooth_build(in, &m));
                tris[1] = m.triangles;
                mesh_smooth_gather_levels(below, cx - 2, cy, cz - 2, SMOOTH_SHARPNESS_DEFAULT, lv);
                assert_true(mesh_smooth_build(lv[0], &m));
                tris[2] = m.triangles;
                assert_int_equal(tris[1], tris[0]);
                assert_int_equal(tris[2], tris[0]);
                total += tris[0];
            }
    print_message("%ld triangles in both windows, chunk by chunk\n", total);
    assert_true(total > 10000);
    mesh_smooth_free(&m);
    for (int l = 0; l < SMOOTH_LODS; l++) free(lv[l]);
    free(in);
    world_destroy(below);
    world_destroy(at0);
}

static void test_lod_levels(void **state)
{
    for (int h = 9; h <= 10; h++) {
        world *w = world_create(1, 1, 1);
        for (int z = 0; z < 32; z++)
            for (int x = 0; x < 32; x++) {
                int top = h + (x > 16 ? 4 : 0);
                for (int y = 0; y <= top; y++) world_set(w, x, y, z, y == top ? MAT_GRASS : MAT_DIRT);
            }
        smooth_input *in = malloc(sizeof *in);
        smooth_mesh m0 = { 0 }, m = { 0 };
        mesh_smooth_gather_lod(w, 0, 0, 0, SMOOTH_SHARPNESS_DEFAULT, 0, in);
        assert_true(mesh_smooth_build(in, &m0));
        for (int l = 1; l < SMOOTH_LODS; l++) {
            int step = 1 << l;
            mesh_smooth_gather_lod(w, 0, 0, 0, SMOOTH_SHARPNESS_DEFAULT, l, in);
            assert_int_equal(in->n, CHUNK_SIZE / step + 3);
            assert_int_equal(in->step, step);
            assert_true(mesh_smooth_build(in, &m));
            print_message("h %d level %d: %d triangles (level 0: %d)\n", h, l, m.triangles, m0.triangles);
            assert_true(m.triangles > 0 && m.triangles * 2 * step * step < m0.triangles * 5);
            int up = 0;
            for (int i = 0; i < m.vertices; i++) {
                const smooth_vertex *v = &m.v[i];
                if (v->nrm[1] < 120 || v->pos[0] < 2 || v->pos[0] > 30 || v->pos[2] < 2 || v->pos[2] > 30) continue;
                if (v->pos[0] > 16 - step && v->pos[0] < 18 + step) continue; /* the step between the two levels */
                float want = (float)(h + (v->pos[0] > 17 ? 4 : 0)) + 1.f;
                assert_true(fabsf(v->pos[1] - want) <= 0.5f * (float)step + 0.01f);
                assert_int_equal(v->mat, MAT_GRASS);
                up++;
            }
            assert_true(up > 40 / step);
        }
        mesh_smooth_free(&m0), mesh_smooth_free(&m);
        free(in);
        world_destroy(w);
    }
}

/* A sparse canopy (leaves at about half density, the air between them
 * free): a coarse sample's filtered occupancy can be over half where its
 * own column holds only air under it. Every coarse vertex still takes a
 * material that is drawn, never air's missing tile (a magenta checker). */
static void test_lod_canopy_materials(void **state)
{
    (void)state;
    world *w = world_create(1, 1, 1);
    uint32_t r = 12345;
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 32; x++) {
            for (int y = 0; y <= 4; y++) world_set(w, x, y, z, MAT_DIRT);
            for (int y = 12; y < 22; y++) {
                r = r * 1664525u + 1013904223u;
                if ((r >> 16) % 100 < 55) world_set(w, x, y, z, MAT_OAK_LEAVES);
            }
        }
    smooth_input *in = malloc(sizeof *in);
    smooth_mesh m = { 0 };
    long checked = 0;
    for (int l = 1; l < SMOOTH_LODS; l++) {
        mesh_smooth_gather_lod(w, 0, 0, 0, SMOOTH_SHARPNESS_DEFAULT, l, in);
        assert_true(mesh_smooth_build(in, &m));
        for (int i = 0; i < m.vertices; i++, checked++)
            if (material_get(m.v[i].mat)->pass == PASS_NONE)
                fail_msg("level %d: vertex %d at (%g %g %g) takes material %d, which is not drawn", l, i,
                         (double)m.v[i].pos[0], (double)m.v[i].pos[1], (double)m.v[i].pos[2], m.v[i].mat);
        mesh_smooth_free(&m);
    }
    assert_true(checked > 100);
    free(in);
    world_destroy(w);
}

/* A one-voxel cactus on flat sand, on a lattice column of every level: the
 * filter would drop it, but standing on kept ground it stays at every
 * level as a thin blob of cactus, and does not paint the sand around it.
 * A thin voxel floating in the air (a fir's tip over a crown that thinned
 * away) leaves no speck at a coarse level. */
static void test_lod_thin_feature(void **state)
{
    world *w = world_create(1, 1, 1);
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 32; x++)
            for (int y = 0; y <= 8; y++) world_set(w, x, y, z, MAT_SAND);
    for (int y = 9; y < 14; y++) world_set(w, 16, y, 16, MAT_CACTUS);
    world_set(w, 8, 24, 8, MAT_CACTUS); /* floating, on the lattice too */
    smooth_input *in = malloc(sizeof *in);
    smooth_mesh m = { 0 };
    for (int l = 0; l < SMOOTH_LODS; l++) {
        int step = 1 << l;
        mesh_smooth_gather_lod(w, 0, 0, 0, SMOOTH_SHARPNESS_DEFAULT, l, in);
        assert_true(mesh_smooth_build(in, &m));
        int cactus = 0, sand = 0, floating = 0;
        for (int i = 0; i < m.nets.vertices; i++) { /* the surface's vertices come first, then the skirts' */
            const smooth_vertex *v = &m.v[i];
            bool near = fabsf(v->pos[0] - 16.5f) <= (float)step && fabsf(v->pos[2] - 16.5f) <= (float)step;
            if (v->mat == MAT_CACTUS && v->pos[1] > 18.f) floating++;
            else if (v->mat == MAT_CACTUS) {
                assert_true(near);
                cactus++;
            } else if (!near && v->nrm[1] > 100 && v->pos[0] > 2 && v->pos[0] < 30 && v->pos[2] > 2 && v->pos[2] < 30) {
                assert_int_equal(v->mat, MAT_SAND);
                sand++;
            }
        }
        print_message("level %d: %d cactus vertices, %d floating, %d sand\n", l, cactus, floating, sand);
        assert_true(cactus > 0 && sand > 0);
        if (l == 0) assert_true(floating > 0);
        else assert_int_equal(floating, 0);
    }
    mesh_smooth_free(&m);
    free(in);
    world_destroy(w);
}

static int cmp_edge(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Coarse levels carry skirts: after the surface, grouped by face, one quad
 * per open edge of the surface, facing out through its face and hanging
 * into the solid; level 0 has none. */
static void test_lod_skirts(void **state)
{
    world *w = make_world();
    smooth_input *in = malloc(sizeof *in);
    smooth_mesh m = { 0 };
    for (int l = 0; l < SMOOTH_LODS; l++) {
        mesh_smooth_gather_lod(w, 1, 1, 1, SMOOTH_SHARPNESS_DEFAULT, l, in);
        assert_true(mesh_smooth_build(in, &m));
        const int surface = m.nets.triangles;
        assert_int_equal(m.skirt[0], surface);
        assert_int_equal(m.skirt[6], m.triangles);
        for (int f = 0; f < 6; f++) assert_true(m.skirt[f] <= m.skirt[f + 1]);
        /* the surface's open edges, counted apart from the mesher */
        uint64_t *e = malloc(sizeof *e * 3 * (size_t)surface);
        assert_non_null(e);
        for (int i = 0; i < 3 * surface; i++) {
            uint64_t a = m.idx[i], b = m.idx[i - i % 3 + (i % 3 + 1) % 3];
            e[i] = a < b ? a << 32 | b : b << 32 | a;
        }
        qsort(e, 3 * (size_t)surface, sizeof *e, cmp_edge);
        int open = 0;
        for (int i = 0; i < 3 * surface; i++)
            open += (i == 0 || e[i] != e[i - 1]) && (i + 1 == 3 * surface || e[i] != e[i + 1]);
        free(e);
        print_message("level %d: %d surface triangles, %d open edges, %d skirt triangles\n", l, surface, open,
                      m.triangles - surface);
        if (l == 0) {
            assert_int_equal(m.triangles, surface); /* its open edges meet its neighbours' nets */
            continue;
        }
        assert_true(open > 0);
        assert_int_equal(m.triangles - surface, 2 * open);
        int facing = 0;
        for (int f = 0; f < 6; f++)
            for (int t = m.skirt[f]; t < m.skirt[f + 1]; t++) {
                const uint32_t *tri = &m.idx[3 * t];
                const float *p0 = m.v[tri[0]].pos, *p1 = m.v[tri[1]].pos, *p2 = m.v[tri[2]].pos;
                float u[3] = { p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2] };
                float v[3] = { p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2] };
                float nrm[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
                float along = f & 1 ? nrm[f / 2] : -nrm[f / 2];
                assert_true(along >= -1e-4f);
                facing += along > 1e-4f;
            }
        assert_true(facing * 10 > (m.triangles - surface) * 7); /* most are not edge-on */
    }
    mesh_smooth_free(&m);
    free(in);
    world_destroy(w);
}

/* mesh_smooth_gather_levels cuts level 0 from a bigger box: exactly what
 * mesh_smooth_gather gives. A coarse sample two neighbouring chunks share
 * reads the same in both (so coarse chunks of one level meet exactly). */
static void test_levels_exact_and_shared(void **state)
{
    world *w = make_world();
    smooth_input *a = malloc(sizeof *a * SMOOTH_LODS), *b = malloc(sizeof *b * SMOOTH_LODS), *ref = malloc(sizeof *ref);
    assert_non_null(a), assert_non_null(b), assert_non_null(ref);
    smooth_input *la[SMOOTH_LODS], *lb[SMOOTH_LODS];
    for (int l = 0; l < SMOOTH_LODS; l++) la[l] = &a[l], lb[l] = &b[l];
    for (int axis = 0; axis < 3; axis++) {
        int c0[3] = { 1, 1, 1 }, c1[3] = { 1, 1, 1 }; /* the upper layer holds the surface */
        if (axis == 1) c0[1] = 0, c1[1] = 1;
        else c1[axis] = 2;
        mesh_smooth_gather_levels(w, c0[0], c0[1], c0[2], SMOOTH_SHARPNESS_DEFAULT, la);
        mesh_smooth_gather_levels(w, c1[0], c1[1], c1[2], SMOOTH_SHARPNESS_DEFAULT, lb);
        mesh_smooth_gather(w, c0[0], c0[1], c0[2], SMOOTH_SHARPNESS_DEFAULT, ref);
        assert_int_equal(a[0].n, SMOOTH_N);
        assert_memory_equal(a[0].d, ref->d, sizeof *ref->d * SMOOTH_VOLUME);
        assert_memory_equal(a[0].mat, ref->mat, SMOOTH_VOLUME);
        assert_memory_equal(a[0].tint, ref->tint, SMOOTH_VOLUME);
        assert_memory_equal(a[0].own_lo, ref->own_lo, sizeof ref->own_lo);
        for (int l = 1; l < SMOOTH_LODS; l++) {
            int n = a[l].n, shift = CHUNK_SIZE >> l; /* chunk c1's sample i is chunk c0's i + shift */
            long shared = 0, solid = 0;
            for (int z = 0; z < n; z++)
                for (int y = 0; y < n; y++)
                    for (int x = 0; x < n; x++) {
                        int p[3] = { x, y, z };
                        p[axis] += shift;
                        if (p[axis] >= n) continue;
                        size_t i1 = (size_t)x + (size_t)n * ((size_t)y + (size_t)n * (size_t)z);
                        size_t i0 = (size_t)p[0] + (size_t)n * ((size_t)p[1] + (size_t)n * (size_t)p[2]);
                        assert_true(a[l].d[i0] == b[l].d[i1]);
                        assert_int_equal(a[l].mat[i0], b[l].mat[i1]);
                        assert_int_equal(a[l].tint[i0], b[l].tint[i1]);
                        shared++;
                        solid += a[l].d[i0] < 0;
                    }
            assert_int_equal(shared, 3L * n * n);
            /* the side faces cross the hills' surface (the floor at y = 32 lies under it) */
            if (axis != 1) assert_true(solid > 0 && solid < shared);
        }
    }
    free(a), free(b), free(ref);
    world_destroy(w);
}

/* A falling body's grid (x fastest, then z, then y, as physics/body.h):
 * a log along x across two 32-voxel tiles, a ball of leaves on it, a lone
 * voxel, a tinted cell of air over the log, air all round. */
static uint8_t *body_grid(const int size[3], uint8_t **tint)
{
    size_t n = (size_t)size[0] * size[1] * size[2];
    uint8_t *mat = calloc(n, 1);
    *tint = calloc(n, 1);
    for (int y = 1; y < size[1] - 1; y++)
        for (int z = 1; z < size[2] - 1; z++)
            for (int x = 1; x < size[0] - 1; x++) {
                size_t i = (size_t)x + (size_t)size[0] * ((size_t)z + (size_t)size[2] * (size_t)y);
                float dx = (float)x - 30.f, dy = (float)y - 8.f, dz = (float)z - 6.f;
                if (y >= 3 && y <= 4 && z >= 5 && z <= 6 && x >= 2) mat[i] = MAT_OAK_LOG;
                else if (dx * dx + dy * dy + dz * dz < 20.f) mat[i] = MAT_OAK_LEAVES;
                if (x == 20 && y == 5 && z == 6) (*tint)[i] = 2; /* air over the log: the cut face looks into it */
            }
    mat[(size_t)5 + (size_t)size[0] * ((size_t)9 + (size_t)size[2] * 10)] = MAT_STONE; /* alone in the air */
    return mat;
}

static int cmp_key(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* A body's nets (what body_draw draws in the smooth mode) close: with the
 * tiles' copies of a seam vertex welded by position, every directed edge
 * has exactly one reverse (no hole, no boundary, one winding), whatever
 * the tile seams; the log, the leaves, the lone voxel and the cut tint
 * all show. */
static void test_body_grid_closed(void **state)
{
    (void)state;
    const int size[3] = { 44, 14, 12 }; /* two tiles along x */
    uint8_t *tint, *mat = body_grid(size, &tint);
    smooth_input *in = malloc(sizeof *in);
    smooth_mesh tile = { 0 }, m = { 0 };
    assert_true(mesh_smooth_grid(mat, tint, size, SMOOTH_SHARPNESS_DEFAULT, in, &tile, &m));
    assert_true(m.triangles > 500);
    int mats[MAT_COUNT] = { 0 }, tinted = 0;
    for (int i = 0; i < m.vertices; i++) {
        for (int k = 0; k < 3; k++) assert_true(m.v[i].pos[k] > 0.f && m.v[i].pos[k] < (float)size[k]);
        assert_true(m.v[i].mat < MAT_COUNT);
        mats[m.v[i].mat]++;
        tinted += m.v[i].tint == 2;
    }
    assert_true(mats[MAT_OAK_LOG] > 0 && mats[MAT_OAK_LEAVES] > 0 && mats[MAT_STONE] > 0);
    assert_int_equal(mats[MAT_AIR], 0);
    assert_true(tinted > 0);
    /* weld: a vertex's id is the first vertex at its position (1/64 voxel) */
    int64_t(*key)[4] = malloc(sizeof *key * (size_t)m.vertices);
    for (int i = 0; i < m.vertices; i++) {
        for (int k = 0; k < 3; k++) key[i][k] = (int64_t)lrintf(m.v[i].pos[k] * 64.f);
        key[i][3] = i;
    }
    qsort(key, (size_t)m.vertices, sizeof *key, cmp_key);
    uint32_t *id = malloc(sizeof *id * (size_t)m.vertices);
    int welded = 0;
    for (int i = 0, first = 0; i < m.vertices; i++) {
        if (i && cmp_key(key[i], key[i - 1]) != 0) first = i;
        else if (i) welded++;
        id[key[i][3]] = (uint32_t)first;
    }
    assert_true(welded > 0); /* the seam between the tiles was crossed */
    size_t ne = 3 * (size_t)m.triangles;
    uint64_t *e = malloc(ne * sizeof *e);
    for (int t = 0; t < m.triangles; t++)
        for (int q = 0; q < 3; q++)
            e[3 * t + q] = (uint64_t)id[m.idx[3 * t + q]] << 32 | id[m.idx[3 * t + (q + 1) % 3]];
    qsort(e, ne, sizeof *e, sn_cmp_u64);
    for (size_t i = 0; i < ne; i++) {
        assert_true((uint32_t)e[i] != (uint32_t)(e[i] >> 32)); /* no triangle collapsed onto a welded pair */
        if (i + 1 < ne) assert_true(e[i] != e[i + 1]);
        uint64_t rev = e[i] << 32 | e[i] >> 32;
        assert_non_null(bsearch(&rev, e, ne, sizeof *e, sn_cmp_u64));
    }
    free(e), free(id), free(key);
    mesh_smooth_free(&tile), mesh_smooth_free(&m);
    free(in), free(mat), free(tint);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunks_seamless_and_closed),
        cmocka_unit_test(test_density_slopes_and_keeps_sign),
        cmocka_unit_test(test_edit_dirties_only_its_chunks),
        cmocka_unit_test(test_window_below_zero_meshes_alike),
        cmocka_unit_test(test_lod_levels),
        cmocka_unit_test(test_levels_exact_and_shared),
        cmocka_unit_test(test_lod_thin_feature),
        cmocka_unit_test(test_lod_canopy_materials),
        cmocka_unit_test(test_lod_skirts),
        cmocka_unit_test(test_body_grid_closed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
