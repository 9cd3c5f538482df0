/* CPU surface nets: counts against an independent count of sign-changing
 * cells and edges, closedness and winding of closed fields, the fast
 * (bitmask) mesher against a plain per-cell reference on noise at sizes
 * around the 64-bit word boundaries, and face ownership between grids. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/surfnets.h"
#include "mesh/surfnets_fields.h"

#define AT(d, nx, ny, x, y, z) (d)[(size_t)(x) + (size_t)(nx) * ((size_t)(y) + (size_t)(ny) * (size_t)(z))]

/* Independent count: cells whose corners differ in sign, and grid edges
 * with a sign change whose four surrounding cells all exist. */
static void count_reference(const float *d, int nx, int ny, int nz, long *cells, long *quads)
{
    *cells = *quads = 0;
    for (int z = 0; z < nz - 1; z++)
        for (int y = 0; y < ny - 1; y++)
            for (int x = 0; x < nx - 1; x++) {
                int in = 0;
                for (int k = 0; k < 8; k++) in += AT(d, nx, ny, x + (k & 1), y + ((k >> 1) & 1), z + (k >> 2)) < 0;
                if (in > 0 && in < 8) ++*cells;
            }
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                bool s = AT(d, nx, ny, x, y, z) < 0;
                if (x + 1 < nx && y > 0 && z > 0 && y < ny - 1 && z < nz - 1 && s != (AT(d, nx, ny, x + 1, y, z) < 0)) ++*quads;
                if (y + 1 < ny && x > 0 && z > 0 && x < nx - 1 && z < nz - 1 && s != (AT(d, nx, ny, x, y + 1, z) < 0)) ++*quads;
                if (z + 1 < nz && x > 0 && y > 0 && x < nx - 1 && y < ny - 1 && s != (AT(d, nx, ny, x, y, z + 1) < 0)) ++*quads;
            }
}

static uint64_t edge_key(uint32_t a, uint32_t b) { return (uint64_t)a << 32 | b; }
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every directed edge a->b appears once and b->a once: the surface is
 * closed, two-manifold along edges, and consistently wound. */
static void assert_closed(const surfnets_mesh *m)
{
    size_t n = 3 * (size_t)m->triangles;
    uint64_t *e = malloc(n * sizeof *e);
    assert_non_null(e);
    for (int t = 0; t < m->triangles; t++)
        for (int k = 0; k < 3; k++) e[3 * t + k] = edge_key(m->idx[3 * t + k], m->idx[3 * t + (k + 1) % 3]);
    qsort(e, n, sizeof *e, cmp_u64);
    for (size_t i = 0; i + 1 < n; i++) assert_true(e[i] != e[i + 1]); /* no directed edge twice */
    for (size_t i = 0; i < n; i++) {
        uint64_t rev = edge_key((uint32_t)e[i], (uint32_t)(e[i] >> 32));
        assert_non_null(bsearch(&rev, e, n, sizeof *e, cmp_u64));
    }
    free(e);
}

static double signed_volume(const surfnets_mesh *m)
{
    double v = 0;
    for (int t = 0; t < m->triangles; t++) {
        const float *a = m->pos + 3 * m->idx[3 * t], *b = m->pos + 3 * m->idx[3 * t + 1], *c = m->pos + 3 * m->idx[3 * t + 2];
        v += (a[0] * ((double)b[1] * c[2] - (double)b[2] * c[1]) - a[1] * ((double)b[0] * c[2] - (double)b[2] * c[0]) +
              a[2] * ((double)b[0] * c[1] - (double)b[1] * c[0])) / 6.0;
    }
    return v;
}

static void test_sphere_counts_closed(void **state)
{
    const int sizes[] = { 6, 16, 33, 64, 65, 97 };
    surfnets_mesh m = { 0 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        float *d = malloc(sizeof *d * (size_t)n * n * n);
        assert_non_null(d);
        float c = (float)(n - 1) * 0.5f + 0.13f, r = (float)(n - 1) * 0.35f;
        surfnets_field_sphere(d, n, c, c - 0.21f, c + 0.05f, r);
        assert_true(surfnets_extract(&(surfnets_field){ d, n, n, n }, &m));
        long cells, quads;
        count_reference(d, n, n, n, &cells, &quads);
        assert_true(cells > 0);
        assert_int_equal(m.vertices, cells);
        assert_int_equal(m.triangles, 2 * quads);
        assert_int_equal(surfnets_active_cells(&(surfnets_field){ d, n, n, n }, &m), cells);
        assert_closed(&m);
        /* wound outward: positive volume close to the ball's */
        double vol = signed_volume(&m), ball = 4.0 / 3.0 * 3.14159265358979 * r * r * r;
        assert_true(vol > (r < 4 ? 0.5 : 0.9) * ball && vol < 1.1 * ball); /* tiny balls lose their rim */
        /* vertices near the sphere, normals radial */
        for (int i = 0; i < m.vertices; i++) {
            const float *p = m.pos + 3 * i, *nn = m.nrm + 3 * i;
            float dx = p[0] - c, dy = p[1] - (c - 0.21f), dz = p[2] - (c + 0.05f);
            float len = sqrtf(dx * dx + dy * dy + dz * dz);
            assert_true(fabsf(len - r) < 0.6f);
            assert_true((dx * nn[0] + dy * nn[1] + dz * nn[2]) / len > 0.8f);
            assert_true(fabsf(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2] - 1.f) < 1e-4f);
        }
        free(d);
    }
    surfnets_free(&m);
}

/* The plain algorithm, cell by cell, written without masks or tables. */
static void reference_mesh(const float *d, int nx, int ny, int nz, float **pos, int *nv, uint32_t **idx, int *nt)
{
    int cx = nx - 1, cy = ny - 1, cz = nz - 1;
    int32_t *lut = malloc(sizeof *lut * (size_t)cx * cy * cz);
    *pos = malloc(sizeof **pos * 3 * (size_t)cx * cy * cz);
    *idx = malloc(sizeof **idx * 18 * (size_t)cx * cy * cz);
    *nv = *nt = 0;
    for (int z = 0; z < cz; z++)
        for (int y = 0; y < cy; y++)
            for (int x = 0; x < cx; x++) {
                float c[8];
                int in = 0;
                for (int k = 0; k < 8; k++) in += (c[k] = AT(d, nx, ny, x + (k & 1), y + ((k >> 1) & 1), z + (k >> 2))) < 0;
                size_t ci = (size_t)x + (size_t)cx * ((size_t)y + (size_t)cy * z);
                lut[ci] = -1;
                if (in == 0 || in == 8) continue;
                float s[3] = { 0, 0, 0 };
                int n = 0;
                for (int e = 0; e < 12; e++) {
                    int a = surfnets_edge_corners[e][0], b = surfnets_edge_corners[e][1];
                    if ((c[a] < 0) == (c[b] < 0)) continue;
                    float t = c[a] / (c[a] - c[b]);
                    float p[3] = { (float)(a & 1), (float)((a >> 1) & 1), (float)(a >> 2) };
                    p[e / 4] += t;
                    for (int k = 0; k < 3; k++) s[k] += p[k];
                    n++;
                }
                lut[ci] = *nv;
                (*pos)[3 * *nv] = (float)x + s[0] / (float)n;
                (*pos)[3 * *nv + 1] = (float)y + s[1] / (float)n;
                (*pos)[3 * *nv + 2] = (float)z + s[2] / (float)n;
                ++*nv;
                /* quads of the three edges at the minimum corner */
                for (int axis = 0; axis < 3; axis++) {
                    int u = (axis + 1) % 3, v = (axis + 2) % 3;
                    int q[3] = { x, y, z };
                    if (q[u] == 0 || q[v] == 0) continue;
                    int b = 1 << axis;
                    if ((c[0] < 0) == (c[b] < 0)) continue;
                    int cells[4][3];
                    for (int k = 0; k < 4; k++) {
                        memcpy(cells[k], q, sizeof q);
                        cells[k][u] -= (k == 0 || k == 3);
                        cells[k][v] -= (k == 0 || k == 1);
                    }
                    uint32_t id[4];
                    for (int k = 0; k < 4; k++)
                        id[k] = (uint32_t)lut[(size_t)cells[k][0] + (size_t)cx * ((size_t)cells[k][1] + (size_t)cy * cells[k][2])];
                    bool out = !(c[0] < 0);
                    uint32_t *t = *idx + 3 * (size_t)*nt;
                    if (!out) {
                        uint32_t tt[6] = { id[0], id[1], id[2], id[0], id[2], id[3] };
                        memcpy(t, tt, sizeof tt);
                    } else {
                        uint32_t tt[6] = { id[0], id[3], id[2], id[0], id[2], id[1] };
                        memcpy(t, tt, sizeof tt);
                    }
                    *nt += 2;
                }
            }
    free(lut);
}

static void test_matches_plain_reference(void **state)
{
    const int sizes[][3] = { { 63, 20, 17 }, { 64, 9, 30 }, { 65, 33, 12 }, { 66, 7, 9 }, { 129, 12, 10 }, { 2, 2, 2 }, { 40, 40, 40 } };
    surfnets_mesh m = { 0 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int nx = sizes[s][0], ny = sizes[s][1], nz = sizes[s][2];
        int big = nx > ny ? (nx > nz ? nx : nz) : (ny > nz ? ny : nz);
        float *cube = malloc(sizeof *cube * (size_t)big * big * big);
        float *d = malloc(sizeof *d * (size_t)nx * ny * nz);
        surfnets_field_noise(cube, big, 7 + (int64_t)s);
        for (int z = 0; z < nz; z++)
            for (int y = 0; y < ny; y++)
                for (int x = 0; x < nx; x++) AT(d, nx, ny, x, y, z) = AT(cube, big, big, x, y, z);
        assert_true(surfnets_extract(&(surfnets_field){ d, nx, ny, nz }, &m));
        float *pos;
        uint32_t *idx;
        int nv, nt;
        reference_mesh(d, nx, ny, nz, &pos, &nv, &idx, &nt);
        assert_int_equal(m.vertices, nv);
        assert_int_equal(m.triangles, nt);
        if (nx == 40) assert_true(nv > 1000); /* noise really crosses zero */
        for (int i = 0; i < 3 * nv; i++) assert_true(fabsf(m.pos[i] - pos[i]) < 1e-5f);
        assert_memory_equal(m.idx, idx, sizeof *idx * 3 * (size_t)nt);
        free(pos);
        free(idx);
        free(d);
        free(cube);
    }
    surfnets_free(&m);
}

/* Two grids that share a face (x = 20) meshed with the face owned by the
 * right one give exactly the triangles of the whole grid. */
static void test_face_ownership(void **state)
{
    const int n = 41, split = 20;
    float *d = malloc(sizeof *d * (size_t)n * n * n);
    surfnets_field_noise(d, n, 3);
    surfnets_mesh whole = { 0 }, a = { 0 }, b = { 0 };
    assert_true(surfnets_extract(&(surfnets_field){ d, n, n, n }, &whole));
    /* left: samples 0..split (edges along x start at most at split-1);
     * right: samples split-1..n-1, its first x edges owned by the left */
    int la = split + 1, lb = n - (split - 1);
    float *da = malloc(sizeof *da * (size_t)la * n * n), *db = malloc(sizeof *db * (size_t)lb * n * n);
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++) {
            for (int x = 0; x < la; x++) AT(da, la, n, x, y, z) = AT(d, n, n, x, y, z);
            for (int x = 0; x < lb; x++) AT(db, lb, n, x, y, z) = AT(d, n, n, x + split - 1, y, z);
        }
    assert_true(surfnets_extract(&(surfnets_field){ da, la, n, n }, &a));
    assert_true(surfnets_extract(&(surfnets_field){ db, lb, n, n, { 1, 0, 0 } }, &b));
    /* compare as sets of triangles named by whole-grid cell numbers */
    size_t nt = (size_t)whole.triangles;
    assert_int_equal(a.triangles + b.triangles, whole.triangles);
    uint64_t *tw = malloc(nt * sizeof *tw * 2), *tp = tw + nt;
    int k = 0;
    const surfnets_mesh *parts[3] = { &whole, &a, &b };
    for (int p = 0; p < 3; p++) {
        const surfnets_mesh *m = parts[p];
        int cxl = p == 0 ? n - 1 : p == 1 ? la - 1 : lb - 1, off = p == 2 ? split - 1 : 0;
        for (int t = 0; t < m->triangles; t++) {
            uint32_t g[3];
            for (int j = 0; j < 3; j++) {
                uint32_t c = m->cell[m->idx[3 * t + j]];
                uint32_t x = c % (uint32_t)cxl, yz = c / (uint32_t)cxl;
                g[j] = x + (uint32_t)off + (uint32_t)(n - 1) * yz;
            }
            /* rotate so the smallest comes first: the same triangle, same winding */
            int r = g[0] < g[1] ? (g[0] < g[2] ? 0 : 2) : (g[1] < g[2] ? 1 : 2);
            uint64_t key = 0;
            for (int j = 0; j < 3; j++) key = key * 200000u + g[(r + j) % 3];
            if (p == 0) tw[t] = key;
            else tp[k++] = key;
        }
    }
    qsort(tw, nt, sizeof *tw, cmp_u64);
    qsort(tp, nt, sizeof *tp, cmp_u64);
    assert_memory_equal(tw, tp, nt * sizeof *tw);
    free(tw);
    free(d), free(da), free(db);
    surfnets_free(&whole), surfnets_free(&a), surfnets_free(&b);
}

static void test_bad_sizes_and_determinism(void **state)
{
    surfnets_mesh m = { 0 }, m2 = { 0 };
    float d[8] = { -1, 1, 1, 1, 1, 1, 1, 1 };
    assert_false(surfnets_extract(&(surfnets_field){ d, 1, 2, 2 }, &m));
    assert_false(surfnets_extract(&(surfnets_field){ NULL, 2, 2, 2 }, &m));
    assert_false(surfnets_extract(&(surfnets_field){ d, SURFNETS_MAX_SAMPLES + 1, 2, 2 }, &m));
    assert_int_equal(surfnets_active_cells(&(surfnets_field){ d, 0, 2, 2 }, &m), -1);
    /* one inside corner: one vertex, no interior edge, no triangles */
    assert_true(surfnets_extract(&(surfnets_field){ d, 2, 2, 2 }, &m));
    assert_int_equal(m.vertices, 1);
    assert_int_equal(m.triangles, 0);
    /* same input, same bytes */
    float *f = malloc(sizeof *f * 50 * 50 * 50);
    surfnets_field_noise(f, 50, 11);
    assert_true(surfnets_extract(&(surfnets_field){ f, 50, 50, 50 }, &m));
    assert_true(surfnets_extract(&(surfnets_field){ f, 50, 50, 50 }, &m2));
    assert_int_equal(m.vertices, m2.vertices);
    assert_int_equal(m.triangles, m2.triangles);
    assert_memory_equal(m.pos, m2.pos, sizeof(float) * 3 * (size_t)m.vertices);
    assert_memory_equal(m.nrm, m2.nrm, sizeof(float) * 3 * (size_t)m.vertices);
    assert_memory_equal(m.idx, m2.idx, sizeof(uint32_t) * 3 * (size_t)m.triangles);
    free(f);
    surfnets_free(&m);
    surfnets_free(&m2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_counts_closed),
        cmocka_unit_test(test_matches_plain_reference),
        cmocka_unit_test(test_face_ownership),
        cmocka_unit_test(test_bad_sizes_and_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
