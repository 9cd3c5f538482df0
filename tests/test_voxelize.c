/* Voxelizing meshes (seed 002): OBJ loading and its errors, Thomson
 * directions, the fast parity against the brute-force definition, volumes
 * of closed primitives for both methods, broken teapots, overlaps. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "gen/meshmake.h"
#include "gen/obj.h"
#include "gen/voxelize.h"
#include "gen/winding.h"

static job_pool *g_pool;

static int setup(void **state)
{
    g_pool = job_pool_create(2);
    return g_pool ? 0 : -1;
}

static int teardown(void **state)
{
    job_pool_destroy(g_pool);
    return 0;
}

static voxelize_desc desc(voxelize_method m, int k)
{
    voxelize_desc d = { 0 };
    d.method = m;
    d.directions = k;
    d.seed = 2;
    d.pool = g_pool;
    return d;
}

/* ---- OBJ ---- */

static void test_obj_forms(void **state)
{
    const char *txt = "# a square and a pentagon\n"
                      "mtllib x.mtl\no thing\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0 1.0\n"
                      "vt 0 0\nvn 0 0 1\ns off\ng a b\nusemtl m\n"
                      "f 1/1/1 2/1/1 3/1/1 4/1/1\n"
                      "v 2 0 0 0.5 0.5 0.5\n"
                      "f -1//1 -4 2/1 3 -2\n"
                      "l 1 2\n";
    obj_mesh m;
    char err[256];
    assert_true(obj_parse(txt, strlen(txt), "t.obj", &m, err, sizeof err));
    assert_int_equal(m.nv, 5);
    assert_int_equal(m.nt, 2 + 3);
    /* the quad fans from its first corner */
    assert_int_equal(m.tri[0], 0);
    assert_int_equal(m.tri[1], 1);
    assert_int_equal(m.tri[2], 2);
    assert_int_equal(m.tri[3], 0);
    assert_int_equal(m.tri[5], 3);
    /* negative indices count back from the last vertex defined */
    assert_int_equal(m.tri[6], 4);
    assert_int_equal(m.tri[7], 1);
    assert_int_equal(m.tri[8], 1);
    assert_int_equal(m.tri[13], 2);
    assert_int_equal(m.tri[14], 3);
    obj_free(&m);
}

static void expect_error(const char *txt, const char *want)
{
    obj_mesh m;
    char err[256] = "";
    assert_false(obj_parse(txt, strlen(txt), "bad.obj", &m, err, sizeof err));
    if (!strstr(err, want)) fail_msg("error '%s' lacks '%s'", err, want);
    assert_null(m.v);
    assert_int_equal(m.nt, 0);
}

static void test_obj_errors(void **state)
{
    expect_error("v 0 0 0\nv 1 0\n", "bad.obj:2: a v line needs x y z");
    expect_error("v 0 0 x\n", "bad.obj:1: 'x' is not a number");
    expect_error("v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "bad.obj:1: coordinate 'nan' is not finite");
    expect_error("v 0 0 inf\n", "bad.obj:1:");
    expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 4\n", "bad.obj:5: vertex index 4 out of range");
    expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", "bad.obj:4: vertex index -4 out of range");
    expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "bad.obj:4: vertex index 0");
    expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", "bad.obj:4: a face needs at least 3 vertices");
    expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/\n", "bad.obj:4: '3/' is not a vertex reference");
    expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3//x\n", "bad.obj:4:");
    expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 a\n", "bad.obj:4: 'a' is not a vertex reference");
    expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\n", "bad.obj: no faces");
    expect_error("", "no faces");
    char err[256];
    obj_mesh m;
    assert_false(obj_load("/nonexistent/strata.obj", &m, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/strata.obj: cannot open"));
}

static void test_obj_roundtrip(void **state)
{
    obj_mesh m = { 0 }, back;
    assert_true(meshmake_teapot(&m, 24, MESHMAKE_HOLES | MESHMAKE_FLIPS, 3));
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/test_voxelize_roundtrip.obj", STRATA_BINARY_DIR);
    assert_true(obj_save(&m, path, err, sizeof err));
    assert_true(obj_load(path, &back, err, sizeof err));
    assert_int_equal(back.nv, m.nv);
    assert_int_equal(back.nt, m.nt);
    assert_memory_equal(back.tri, m.tri, sizeof(int) * 3 * (size_t)m.nt);
    for (int i = 0; i < 3 * m.nv; i++) assert_true(fabsf(back.v[i] - m.v[i]) <= 1e-6f * (1 + fabsf(m.v[i])));
    remove(path);
    obj_free(&m);
    obj_free(&back);
}

/* ---- Thomson directions ---- */

static double min_angle(float (*d)[3], int n)
{
    double best = 180;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double c = d[i][0] * d[j][0] + d[i][1] * d[j][1] + d[i][2] * d[j][2];
            c = c > 1 ? 1 : c < -1 ? -1 : c;
            best = fmin(best, acos(c) * 57.29577951308232);
        }
    return best;
}

/* Fejes Toth's bound: N points on a sphere cannot all be further apart
 * than this (degrees; exact for N = 3, 4, 6 and 12, the best packings of
 * the Tammes problem lie within a few per cent of it elsewhere). */
static double fejes_toth(int n)
{
    if (n <= 2) return 180;
    double w = n * 3.14159265358979 / (6.0 * (n - 2)), c = 1 / tan(w);
    return acos((c * c - 1) / 2) * 57.29577951308232;
}

static double min_angle_int(int (*d)[3], int n)
{
    float f[VOXELIZE_MAX_DIRECTIONS][3];
    for (int i = 0; i < n; i++) {
        float l = sqrtf((float)(d[i][0] * d[i][0] + d[i][1] * d[i][1] + d[i][2] * d[i][2]));
        for (int k = 0; k < 3; k++) f[i][k] = (float)d[i][k] / l;
    }
    return min_angle(f, n);
}

/* At every K the relaxed directions are well spread: the smallest angle
 * between two is at least 80 % of Fejes Toth's bound (9 directions: over
 * 58 degrees; Coulomb's optimum for 9 is about 69). */
static void test_thomson(void **state)
{
    double worst = 2, worst_lattice = 2;
    for (int n = 2; n <= VOXELIZE_MAX_DIRECTIONS; n++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            float d[VOXELIZE_MAX_DIRECTIONS][3];
            int it = voxelize_directions(d, n, NULL, seed);
            assert_true(it >= 1 && it < 1000); /* it stops by itself */
            assert_true(d[0][1] == 1.f);        /* the seed's fixed first direction */
            for (int i = 0; i < n; i++)
                assert_true(fabsf(d[i][0] * d[i][0] + d[i][1] * d[i][1] + d[i][2] * d[i][2] - 1) < 1e-4f);
            double a = min_angle(d, n), bound = fejes_toth(n);
            if (a / bound < worst) worst = a / bound;
            if (a < 0.8 * bound) fail_msg("%d directions (seed %d): closest pair %.1f degrees, bound %.1f", n, (int)seed, a, bound);
            if (n == 9 && seed == 1) print_message("9 directions: closest pair %.1f degrees\n", a);
            /* snapped to the lattice, every ray direction is its own, and
             * still spread (the lattice moves each up to ~10 degrees) */
            voxelize_desc vd = { VOXELIZE_PARITY, n, { 0 }, seed, NULL };
            int ld[VOXELIZE_MAX_DIRECTIONS][3];
            assert_int_equal(voxelize_ray_directions(&vd, ld), n);
            double al = min_angle_int(ld, n);
            if (al / bound < worst_lattice) worst_lattice = al / bound;
            if (al < 0.4 * bound) fail_msg("%d lattice directions (seed %d): closest pair %.1f degrees", n, (int)seed, al);
            for (int i = 0; i < n; i++) {
                double len = sqrt((double)ld[i][0] * ld[i][0] + (double)ld[i][1] * ld[i][1] + (double)ld[i][2] * ld[i][2]);
                double c = (ld[i][0] * d[i][0] + ld[i][1] * d[i][1] + ld[i][2] * d[i][2]) / len;
                assert_true(c > cos(12.0 / 57.3));
            }
        }
    print_message("closest pair over the bound, worst K: %.2f relaxed, %.2f on the lattice\n", worst, worst_lattice);
    /* one relaxation step moves the strongest-pushed direction exactly `step` */
    float d[5][3];
    voxelize_relax none = { 1e-6f, 1, 1e-3f }; /* a step under `converge`: no step taken */
    assert_int_equal(voxelize_directions(d, 5, &none, 4), 0);
    float moved = voxelize_distribute(d, 5, 0.01f);
    assert_true(fabsf(moved - 0.01f) < 2e-4f);
}

/* Random directions (no relaxation) snap onto the same lattice direction
 * often at K = 64; the ray directions never repeat, each a nearest free one. */
static void test_lattice_directions_distinct(void **state)
{
    int repeats = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        voxelize_desc vd = { VOXELIZE_PARITY, 64, { 1e-6f, 1, 1e-3f }, seed, NULL };
        float d[64][3];
        voxelize_directions(d, 64, &vd.relax, seed);
        int plain[64][3], ld[64][3];
        for (int i = 0; i < 64; i++) voxelize_lattice(d[i], plain[i]);
        assert_int_equal(voxelize_ray_directions(&vd, ld), 64);
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < i; j++) {
                repeats += memcmp(plain[i], plain[j], sizeof plain[i]) == 0;
                assert_false(memcmp(ld[i], ld[j], sizeof ld[i]) == 0);
            }
        /* a direction whose snap no earlier ray has taken keeps it */
        for (int i = 0; i < 64; i++) {
            bool collided = false;
            for (int j = 0; j < i; j++) collided |= memcmp(plain[i], ld[j], sizeof plain[i]) == 0;
            if (!collided) assert_memory_equal(plain[i], ld[i], sizeof ld[i]);
        }
    }
    print_message("%d repeats among plain snaps of random directions\n", repeats);
    assert_true(repeats > 0);
}

/* ---- fast parity == the brute-force definition ---- */

static uint8_t *brute_parity(const obj_mesh *m, const voxelize_grid *g, int k, uint64_t seed)
{
    voxelize_tri *t;
    int nt;
    char err[256];
    assert_true(voxelize_quantize(m, g, &t, &nt, err, sizeof err));
    voxelize_desc vd = { VOXELIZE_PARITY, k, { 0 }, seed, NULL };
    int dirs[VOXELIZE_MAX_DIRECTIONS][3];
    assert_int_equal(voxelize_ray_directions(&vd, dirs), k);
    uint8_t *out = calloc((size_t)g->nx * g->ny * g->nz, 1);
    for (int y = 0; y < g->ny; y++)
        for (int z = 0; z < g->nz; z++)
            for (int x = 0; x < g->nx; x++) {
                int64_t c[3];
                voxelize_centre(x, y, z, c);
                int votes = 0;
                for (int di = 0; di < k; di++) {
                    int crossings = 0;
                    for (int i = 0; i < nt; i++) crossings += voxelize_crosses(&t[i], c, dirs[di]);
                    votes += crossings & 1;
                }
                out[(size_t)x + (size_t)g->nx * ((size_t)z + (size_t)g->nz * (size_t)y)] = 2 * votes > k;
            }
    free(t);
    return out;
}

static void test_fast_equals_brute(void **state)
{
    rng r = rng_make(15);
    for (int trial = 0; trial < 24; trial++) {
        obj_mesh m = { 0 };
        voxelize_grid g = { { 0, 0, 0 }, 1.0, 5 + trial % 4, 4 + trial % 5, 6 + trial % 3 };
        /* vertices on a half-voxel lattice: rays through edges, vertices and
         * faces happen all the time, so the tie rules are exercised */
        int nv = 6 + trial % 7;
        for (int i = 0; i < nv; i++) {
            float p[3];
            for (int k = 0; k < 3; k++)
                p[k] = trial % 2 ? (float)rng_range(&r, -2, 2 * 10) * 0.5f : (float)(rng_double(&r) * 11 - 1);
            obj_add_vertex(&m, p[0], p[1], p[2]);
        }
        if (trial % 3 == 0) {
            const float lo[3] = { 1, 1, 1 }, hi[3] = { 4, 3, 5 };
            meshmake_cube(&m, lo, hi); /* closed, faces through voxel centres' lattice lines */
        }
        for (int i = 0; i < 10 + trial; i++) obj_add_tri(&m, rng_range(&r, 0, nv - 1), rng_range(&r, 0, nv - 1), rng_range(&r, 0, nv - 1));
        int k = 1 + 2 * (trial % 4);
        voxelize_desc d = desc(VOXELIZE_PARITY, k);
        d.seed = (uint64_t)trial;
        size_t n = (size_t)g.nx * g.ny * g.nz;
        uint8_t *fast = malloc(n), *single = malloc(n);
        char err[256];
        assert_true(voxelize_mesh(&m, &g, &d, fast, err, sizeof err) >= 0);
        d.pool = NULL;
        assert_true(voxelize_mesh(&m, &g, &d, single, err, sizeof err) >= 0);
        uint8_t *ref = brute_parity(&m, &g, k, (uint64_t)trial);
        assert_memory_equal(fast, ref, n);
        assert_memory_equal(single, ref, n);
        free(fast);
        free(single);
        free(ref);
        obj_free(&m);
    }
}

/* ---- volumes ---- */

static double volume_of(const obj_mesh *m, const voxelize_grid *g, voxelize_method meth, int k)
{
    size_t n = (size_t)g->nx * g->ny * g->nz;
    uint8_t *v = malloc(n);
    char err[256];
    voxelize_desc d = desc(meth, k);
    long in = voxelize_mesh(m, g, &d, v, err, sizeof err);
    if (in < 0) fail_msg("%s", err);
    free(v);
    return (double)in * g->cell * g->cell * g->cell;
}

/* A grid of res cells across [-s, s]^3, shifted off the mesh's symmetry. */
static voxelize_grid grid_around(double s, int res)
{
    voxelize_grid g = { { -s + 0.137 * 2 * s / res, -s - 0.291 * 2 * s / res, -s + 0.05 * 2 * s / res }, 2 * s / res, res, res, res };
    return g;
}

static void test_primitive_volumes(void **state)
{
    obj_mesh sphere = { 0 }, torus = { 0 }, cube = { 0 };
    const float c[3] = { 0, 0, 0 }, lo[3] = { -0.8f, -0.6f, -0.7f }, hi[3] = { 0.7f, 0.9f, 0.65f };
    meshmake_sphere(&sphere, c, 1.f, 96, 192);
    meshmake_torus(&torus, c, 0.7f, 0.3f, 192, 96);
    meshmake_cube(&cube, lo, hi);
    const double exact[3] = { meshmake_sphere_volume(1.f), meshmake_torus_volume(0.7f, 0.3f),
                              1.5 * 1.5 * 1.35 };
    const obj_mesh *ms[3] = { &sphere, &torus, &cube };
    for (int meth = 0; meth < 2; meth++)
        for (int s = 0; s < 3; s++) {
            double prev_tol = 1;
            for (int res = 16; res <= 64; res *= 2) {
                voxelize_grid g = grid_around(1.1, res);
                double v = volume_of(ms[s], &g, (voxelize_method)meth, 3);
                if (s == 2) { /* the cube: exactly the centres inside it, counted per axis */
                    long cnt = 1;
                    for (int k = 0; k < 3; k++) {
                        long in_k = 0;
                        for (int i = 0; i < res; i++) {
                            double x = g.origin[k] + (i + 0.5) * g.cell;
                            in_k += x > lo[k] && x < hi[k];
                        }
                        cnt *= in_k;
                    }
                    assert_true(fabs(v - (double)cnt * g.cell * g.cell * g.cell) < 1e-9);
                }
                /* the boundary layer is res^2 voxels of error, half of them
                 * on each side: relative error of order 1/res */
                double tol = (s == 2 ? 5.0 : 2.0) / res + 0.003;
                double rel = fabs(v - exact[s]) / exact[s];
                if (rel > tol) fail_msg("method %d shape %d res %d: volume %g, exact %g (%.2f%% > %.2f%%)", meth, s, res, v, exact[s], rel * 100, tol * 100);
                assert_true(tol < prev_tol);
                prev_tol = tol;
            }
        }
    obj_free(&sphere);
    obj_free(&torus);
    obj_free(&cube);
}

static void test_overlap_half(void **state)
{
    obj_mesh a = { 0 }, b = { 0 };
    const float alo[3] = { 0, 0, 0 }, ahi[3] = { 1, 1, 1 }, blo[3] = { 0.5f, 0, 0 }, bhi[3] = { 1.5f, 1, 1 };
    meshmake_cube(&a, alo, ahi);
    meshmake_cube(&b, blo, bhi);
    for (int meth = 0; meth < 2; meth++) {
        voxelize_desc d = desc((voxelize_method)meth, 5);
        long n;
        double vol;
        char err[256];
        assert_true(voxelize_overlap(&a, &b, 60, &d, &n, &vol, err, sizeof err));
        assert_true(fabs(vol - 0.5) < 0.02);
        /* apart, they do not overlap at all: no false positive */
        const float clo[3] = { 1.2f, 0, 0 }, chi[3] = { 2, 1, 1 };
        obj_mesh c = { 0 };
        meshmake_cube(&c, clo, chi);
        assert_true(voxelize_overlap(&a, &c, 60, &d, &n, &vol, err, sizeof err));
        assert_int_equal(n, 0);
        obj_free(&c);
    }
    obj_free(&a);
    obj_free(&b);
}

/* ---- broken teapots ---- */

static long differ_count(const uint8_t *a, const uint8_t *b, size_t n)
{
    long d = 0;
    for (size_t i = 0; i < n; i++) d += a[i] != b[i];
    return d;
}

static void test_holed_teapot(void **state)
{
    obj_mesh clean = { 0 }, holed = { 0 };
    meshmake_teapot(&clean, 64, 0, 1);
    meshmake_teapot(&holed, 64, MESHMAKE_HOLES, 1);
    voxelize_grid g;
    char err[256];
    assert_true(voxelize_grid_fit(&clean, 64, &g, err, sizeof err));
    size_t n = (size_t)g.nx * g.ny * g.nz;
    uint8_t *want = malloc(n), *one = malloc(n), *nine = malloc(n), *wind = malloc(n);
    voxelize_desc d = desc(VOXELIZE_PARITY, 1);
    long iw = voxelize_mesh(&clean, &g, &d, want, err, sizeof err);
    long i1 = voxelize_mesh(&holed, &g, &d, one, err, sizeof err);
    d.directions = 9;
    long i9 = voxelize_mesh(&holed, &g, &d, nine, err, sizeof err);
    d.method = VOXELIZE_WINDING;
    long iwn = voxelize_mesh(&holed, &g, &d, wind, err, sizeof err);
    long d1 = differ_count(one, want, n), d9 = differ_count(nine, want, n), dw = differ_count(wind, want, n);
    print_message("teapot %ld voxels; holed: 1 direction %ld (%ld wrong), 9 directions %ld (%ld wrong), winding %ld (%ld wrong)\n",
                  iw, i1, d1, i9, d9, iw, dw);
    /* one direction (+y): whole streaks along y through the holes; a wrong
     * voxel's neighbour along the ray is wrong too */
    assert_true(d1 > iw / 100);
    long streak = 0;
    for (int y = 0; y < g.ny; y++)
        for (int z = 0; z < g.nz; z++)
            for (int x = 0; x < g.nx; x++) {
                size_t i = (size_t)x + (size_t)g.nx * ((size_t)z + (size_t)g.nz * (size_t)y), up = i + (size_t)g.nx * g.nz;
                if (one[i] != want[i] && ((y + 1 < g.ny && one[up] != want[up]) || (y > 0 && one[i - (size_t)g.nx * g.nz] != want[i - (size_t)g.nx * g.nz])))
                    streak++;
            }
    assert_true(streak > d1 * 9 / 10);
    /* nine directions vote the streaks away */
    assert_true(d9 < d1 / 10);
    assert_true(labs(i9 - iw) < iw / 100);
    assert_true(labs(iwn - iw) < iw / 100);
    free(want);
    free(one);
    free(nine);
    free(wind);
    obj_free(&clean);
    obj_free(&holed);
}

static void test_flipped_teapot(void **state)
{
    obj_mesh clean = { 0 }, flipped = { 0 };
    meshmake_teapot(&clean, 48, 0, 1);
    meshmake_teapot(&flipped, 48, MESHMAKE_FLIPS, 1);
    voxelize_grid g;
    char err[256];
    assert_true(voxelize_grid_fit(&clean, 48, &g, err, sizeof err));
    size_t n = (size_t)g.nx * g.ny * g.nz;
    uint8_t *a = malloc(n), *b = malloc(n);
    voxelize_desc d = desc(VOXELIZE_PARITY, 5);
    long ia = voxelize_mesh(&clean, &g, &d, a, err, sizeof err), ib = voxelize_mesh(&flipped, &g, &d, b, err, sizeof err);
    /* parity never reads orientation: the same voxels */
    assert_int_equal(ia, ib);
    assert_memory_equal(a, b, n);
    /* the winding number does: 30% of faces flipped take 60% of the
     * number away inside, so most of the inside is lost (docs/voxelize.md) */
    d.method = VOXELIZE_WINDING;
    long wa = voxelize_mesh(&clean, &g, &d, a, err, sizeof err), wb = voxelize_mesh(&flipped, &g, &d, b, err, sizeof err);
    print_message("flipped: parity %ld, winding clean %ld flipped %ld\n", ia, wa, wb);
    assert_true(labs(wa - ia) < ia / 50);
    assert_true(wb < wa / 2);
    free(a);
    free(b);
    obj_free(&clean);
    obj_free(&flipped);
}

static void test_winding_fast_vs_exact(void **state)
{
    obj_mesh m = { 0 };
    meshmake_teapot(&m, 24, MESHMAKE_HOLES | MESHMAKE_GAPS | MESHMAKE_OVERLAPS, 5);
    winding_tree *t = winding_tree_build(&m);
    assert_non_null(t);
    rng r = rng_make(3);
    double worst = 0;
    for (int i = 0; i < 400; i++) {
        double q[3] = { rng_double(&r) * 3 - 1.5, rng_double(&r) * 2 - 0.2, rng_double(&r) * 3 - 1.5 };
        worst = fmax(worst, fabs(winding_eval(t, q) - winding_exact(&m, q)));
    }
    print_message("winding: worst |fast - exact| %g\n", worst);
    assert_true(worst < 0.02);
    winding_tree_destroy(t);
    /* the voxelizer's box shortcut against every voxel evaluated exactly */
    voxelize_grid g;
    char err[256];
    assert_true(voxelize_grid_fit(&m, 24, &g, err, sizeof err));
    size_t n = (size_t)g.nx * g.ny * g.nz;
    uint8_t *v = malloc(n);
    voxelize_desc d = desc(VOXELIZE_WINDING, 1);
    assert_true(voxelize_mesh(&m, &g, &d, v, err, sizeof err) >= 0);
    long differ = 0;
    for (int y = 0; y < g.ny; y++)
        for (int z = 0; z < g.nz; z++)
            for (int x = 0; x < g.nx; x++) {
                double q[3] = { g.origin[0] + (x + 0.5) * g.cell, g.origin[1] + (y + 0.5) * g.cell, g.origin[2] + (z + 0.5) * g.cell };
                differ += v[(size_t)x + (size_t)g.nx * ((size_t)z + (size_t)g.nz * (size_t)y)] != (winding_exact(&m, q) > 0.5);
            }
    assert_true(differ <= (long)n / 500);
    /* the same voxels on one thread as on the pool */
    uint8_t *v1 = malloc(n);
    d.pool = NULL;
    assert_true(voxelize_mesh(&m, &g, &d, v1, err, sizeof err) >= 0);
    assert_memory_equal(v, v1, n);
    free(v1);
    free(v);
    obj_free(&m);
}

/* On a closed surface every ray from a centre agrees, even for centres that
 * lie exactly on a face after quantization (the pot's bottom does here):
 * one perturbation decides them all, so 1 and 9 directions are identical. */
static void test_closed_directions_agree(void **state)
{
    obj_mesh pot = { 0 }, full = { 0 };
    meshmake_teapot(&pot, 96, 0, 1);
    meshmake_teapot(&full, 96, MESHMAKE_OVERLAPS, 1);
    voxelize_grid g;
    char err[256];
    assert_true(voxelize_grid_fit(&full, 96, &g, err, sizeof err));
    size_t n = (size_t)g.nx * g.ny * g.nz;
    uint8_t *a = malloc(n), *b = malloc(n);
    voxelize_desc d = desc(VOXELIZE_PARITY, 1);
    assert_true(voxelize_mesh(&pot, &g, &d, a, err, sizeof err) > 0);
    for (int k = 2; k <= 9; k += 7) {
        d.directions = k;
        assert_true(voxelize_mesh(&pot, &g, &d, b, err, sizeof err) > 0);
        assert_memory_equal(a, b, n);
    }
    free(a);
    free(b);
    obj_free(&pot);
    obj_free(&full);
}

static void test_refusals(void **state)
{
    obj_mesh m = { 0 };
    char err[256];
    voxelize_grid g;
    assert_false(voxelize_grid_fit(&m, 32, &g, err, sizeof err));
    assert_non_null(strstr(err, "no faces"));
    obj_add_vertex(&m, 0, 0, 0);
    obj_add_vertex(&m, 1, 0, 0);
    obj_add_vertex(&m, 0, 0, 1);
    obj_add_tri(&m, 0, 1, 2);
    assert_false(voxelize_grid_fit(&m, 32, &g, err, sizeof err));
    assert_non_null(strstr(err, "degenerate bounding box"));
    m.v[4] = 1;
    assert_false(voxelize_grid_fit(&m, VOXELIZE_MAX_RES + 1, &g, err, sizeof err));
    assert_non_null(strstr(err, "the limit"));
    assert_true(voxelize_grid_fit(&m, 8, &g, err, sizeof err));
    uint8_t v[8 * 8 * 8];
    voxelize_desc d = desc(VOXELIZE_PARITY, 0);
    assert_true(voxelize_mesh(&m, &g, &d, v, err, sizeof err) < 0);
    m.v[0] = NAN;
    d.directions = 3;
    assert_true(voxelize_mesh(&m, &g, &d, v, err, sizeof err) < 0);
    d.method = VOXELIZE_WINDING;
    assert_true(voxelize_mesh(&m, &g, &d, v, err, sizeof err) < 0);
    obj_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obj_forms),
        cmocka_unit_test(test_obj_errors),
        cmocka_unit_test(test_obj_roundtrip),
        cmocka_unit_test(test_thomson),
        cmocka_unit_test(test_lattice_directions_distinct),
        cmocka_unit_test(test_fast_equals_brute),
        cmocka_unit_test(test_primitive_volumes),
        cmocka_unit_test(test_overlap_half),
        cmocka_unit_test(test_holed_teapot),
        cmocka_unit_test(test_flipped_teapot),
        cmocka_unit_test(test_winding_fast_vs_exact),
        cmocka_unit_test(test_closed_directions_agree),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
