/* mesh_shape, the CPU side of the cutting tool's ghost: the merged quads cover exactly the
 * exposed voxel faces, once each, wound counter-clockwise from outside.
 * (The headless renders are in test_ghost_render.c, apart, so leak checks
 * stay on here: GL tests run without them because Mesa leaks.) */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "mesh/mesh_shape.h"

#define SPHERE "cx cx * cy cy * cz cz * + + sqrt r <"

static shape make_shape(const char *formula, int sx, int sy, int sz)
{
    shape s = { 0 };
    char err[256];
    if (!shape_from_formula(&s, formula, sx, sy, sz, err, sizeof err)) fail_msg("%s", err);
    return s;
}

static bool exposed(const shape *s, int f, int x, int y, int z)
{
    const int *n = shape_face_normal[f];
    return shape_get(s, x, y, z) && !shape_get(s, x + n[0], y + n[1], z + n[2]);
}

/* Checks one quad's shape and winding; returns its face and rectangle
 * (plane along the face axis, [lo, hi) on the other two axes). */
static int check_quad(const shape_mesh_vertex *q, int *plane, int lo[3], int hi[3])
{
    int f = (int)q[0].face, d = f / 2;
    assert_true(f >= 0 && f < SHAPE_FACES);
    for (int a = 0; a < 3; a++) lo[a] = INT32_MAX, hi[a] = INT32_MIN;
    for (int k = 0; k < 4; k++) {
        assert_int_equal(q[k].face, f);
        assert_true(q[k].pos[d] == q[0].pos[d]);
        for (int a = 0; a < 3; a++) {
            float c = q[k].pos[a];
            assert_true(c == floorf(c)); /* corners on the voxel grid */
            if ((int)c < lo[a]) lo[a] = (int)c;
            if ((int)c > hi[a]) hi[a] = (int)c;
        }
    }
    *plane = (int)q[0].pos[d];
    for (int a = 0; a < 3; a++)
        if (a != d) assert_true(hi[a] > lo[a]);
    /* a rectangle: every corner is a distinct corner of the bounding box */
    int seen = 0;
    for (int k = 0; k < 4; k++) {
        int bits = 0, b = 0;
        for (int a = 0; a < 3; a++) {
            if (a == d) continue;
            float c = q[k].pos[a];
            assert_true(c == (float)lo[a] || c == (float)hi[a]);
            bits |= (c == (float)hi[a]) << b++;
        }
        assert_false(seen & (1 << bits));
        seen |= 1 << bits;
    }
    /* CCW seen from outside: both triangles' normals point along the face's outward normal */
    const int tri[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
    for (int t = 0; t < 2; t++) {
        const float *p0 = q[tri[t][0]].pos, *p1 = q[tri[t][1]].pos, *p2 = q[tri[t][2]].pos;
        float e1[3] = { p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2] };
        float e2[3] = { p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2] };
        float n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
        for (int a = 0; a < 3; a++) {
            if (a == d) assert_true(n[a] * (float)shape_face_normal[f][a] > 0);
            else assert_true(n[a] == 0);
        }
    }
    return f;
}

/* Rasterises the quads back onto unit faces: each exposed face exactly
 * once, nothing else. */
static void check_cover(const shape *s, const shape_mesh *m)
{
    size_t vol = (size_t)s->sx * (size_t)s->sy * (size_t)s->sz;
    uint8_t *hits = calloc(SHAPE_FACES * vol, 1);
    assert_non_null(hits);
    const int size[3] = { s->sx, s->sy, s->sz };
    for (int qi = 0; qi < m->quads; qi++) {
        int plane, lo[3], hi[3];
        int f = check_quad(&m->v[4 * qi], &plane, lo, hi);
        int d = f / 2;
        int layer = (f & 1) ? plane - 1 : plane; /* the voxel behind the face */
        assert_true(layer >= 0 && layer < size[d]);
        lo[d] = layer, hi[d] = layer + 1;
        for (int y = lo[1]; y < hi[1]; y++)
            for (int z = lo[2]; z < hi[2]; z++)
                for (int x = lo[0]; x < hi[0]; x++) {
                    assert_true(x >= 0 && y >= 0 && z >= 0 && x < s->sx && y < s->sy && z < s->sz);
                    assert_true(exposed(s, f, x, y, z));
                    uint8_t *h = &hits[(size_t)f * vol + shape_index(s, x, y, z)];
                    assert_int_equal(*h, 0);
                    *h = 1;
                }
    }
    long expected = 0;
    for (int f = 0; f < SHAPE_FACES; f++)
        for (int y = 0; y < s->sy; y++)
            for (int z = 0; z < s->sz; z++)
                for (int x = 0; x < s->sx; x++) {
                    bool e = exposed(s, f, x, y, z);
                    expected += e;
                    assert_int_equal(hits[(size_t)f * vol + shape_index(s, x, y, z)], e);
                }
    assert_int_equal(m->faces, expected);
    free(hits);
}

/* A random shape up to 8^3 with a random fill (free s.vox after). */
static shape random_shape(rng *r)
{
    shape s = { .sx = rng_range(r, 1, 9), .sy = rng_range(r, 1, 9), .sz = rng_range(r, 1, 9) };
    size_t n = (size_t)s.sx * (size_t)s.sy * (size_t)s.sz;
    s.vox = malloc(n);
    assert_non_null(s.vox);
    double fill = rng_double(r);
    for (size_t i = 0; i < n; i++) s.count += s.vox[i] = rng_double(r) < fill;
    return s;
}

static void test_random_shapes(void **state)
{
    rng r = rng_make(3);
    shape_mesh m = { 0 };
    for (int iter = 0; iter < 300; iter++) {
        shape s = random_shape(&r);
        assert_true(shape_mesh_build(&s, &m));
        check_cover(&s, &m);
        assert_true(m.quads <= m.faces);
        free(s.vox);
    }
    shape_mesh_free(&m);
}

static void test_sphere8(void **state)
{
    shape s = make_shape(SPHERE, 8, 8, 8);
    shape_mesh m = { 0 };
    assert_true(shape_mesh_build(&s, &m));
    check_cover(&s, &m);
    print_message("8^3 sphere: %ld faces -> %d quads\n", m.faces, m.quads);
    assert_true(m.quads < m.faces); /* merging happened */
    shape_mesh_free(&m);
    shape_free(&s);
}

static void test_full_box(void **state)
{
    const int sizes[][3] = { { 1, 1, 1 }, { 5, 5, 5 }, { 3, 7, 2 }, { 64, 64, 64 } };
    shape_mesh m = { 0 };
    for (int i = 0; i < 4; i++) {
        shape s = make_shape("1", sizes[i][0], sizes[i][1], sizes[i][2]);
        assert_true(shape_mesh_build(&s, &m));
        assert_int_equal(m.quads, 6);
        check_cover(&s, &m);
        shape_free(&s);
    }
    shape_mesh_free(&m);
}

static void test_empty_shape(void **state)
{
    shape s = make_shape("0", 4, 4, 4);
    shape_mesh m = { 0 };
    assert_true(shape_mesh_build(&s, &m));
    assert_int_equal(m.quads, 0);
    assert_int_equal(m.faces, 0);
    shape_mesh_free(&m);
    shape_free(&s);
}

/* The biggest tool stays cheap to draw: 19k exposed faces (of 0.8M voxel
 * faces) in under half as many quads. A slice of a ball is a stair-stepped
 * ring: even a minimum rectangle cover needs about half its reflex corners
 * (4.7k over the whole ball), so greedy is within 2x of the best. */
static void test_sphere64_quads(void **state)
{
    shape s = make_shape(SPHERE, 64, 64, 64);
    shape_mesh m = { 0 };
    assert_true(shape_mesh_build(&s, &m));
    check_cover(&s, &m);
    print_message("64^3 sphere: %ld faces -> %d quads\n", m.faces, m.quads);
    assert_true(m.quads * 2 < m.faces && m.quads < 9000);
    shape_mesh_free(&m);
    shape_free(&s);
}

/* ---- outline ---- */

/* Independently of the builder: the exposed unit faces that touch the unit
 * edge along `axis` at (a, u, v) (the faces of the four voxels around it
 * that lie in the edge's two planes); the edge is a line of the shape iff
 * they are not all parallel. */
static bool edge_bends(const shape *s, int axis, int a, int u, int v)
{
    int U = (axis + 1) % 3, V = (axis + 2) % 3, seen = 0;
    for (int dv = 0; dv < 2; dv++)
        for (int du = 0; du < 2; du++) {
            int p[3];
            p[axis] = a, p[U] = u - 1 + du, p[V] = v - 1 + dv;
            int fu = 2 * U + (du == 0), fv = 2 * V + (dv == 0); /* this voxel's faces on the edge */
            if (exposed(s, fu, p[0], p[1], p[2])) seen |= 1 << fu;
            if (exposed(s, fv, p[0], p[1], p[2])) seen |= 1 << fv;
        }
    return seen != 0 && (seen & (seen - 1)) != 0; /* two or more face directions */
}

/* Every segment lies on the grid along one axis; its unit edges are each
 * covered once, exactly the bending ones; its face is exposed beside it. */
static void check_outline(const shape *s, const shape_outline *o)
{
    const int size[3] = { s->sx, s->sy, s->sz };
    size_t cells = (size_t)(s->sx + 1) * (size_t)(s->sy + 1) * (size_t)(s->sz + 1);
    uint8_t *hits = calloc(3 * cells, 1);
    assert_non_null(hits);
#define EDGE(axis, p)                                                                                                   \
    ((size_t)(axis) * cells + (size_t)(p)[0] + (size_t)(s->sx + 1) * ((size_t)(p)[1] + (size_t)(s->sy + 1) * (size_t)(p)[2]))
    long units = 0;
    for (int k = 0; k < o->segments; k++) {
        const shape_mesh_vertex *e = &o->v[2 * k];
        int axis = -1;
        for (int a = 0; a < 3; a++) {
            assert_true(e[0].pos[a] == floorf(e[0].pos[a]) && e[1].pos[a] == floorf(e[1].pos[a]));
            if (e[0].pos[a] != e[1].pos[a]) {
                assert_int_equal(axis, -1); /* along one axis only */
                axis = a;
            }
        }
        assert_true(axis >= 0 && e[1].pos[axis] > e[0].pos[axis]);
        assert_int_equal(e[0].face, e[1].face);
        int p[3] = { (int)e[0].pos[0], (int)e[0].pos[1], (int)e[0].pos[2] };
        /* both faces are exposed faces touching the first unit edge, on
         * the two other axes (or any way, at a diagonal) */
        for (int which = 0; which < 2; which++) {
            int f = (int)(e[0].face >> (8 * which) & 255u), d = f / 2;
            if (which == 1 && f == SHAPE_OUTLINE_ANY) break;
            assert_true(f < SHAPE_FACES && d != axis);
            if (which == 1) assert_true(d != (int)(e[0].face & 255u) / 2);
            int q[3] = { p[0], p[1], p[2] };
            if (f & 1) q[d]--; /* the voxel behind a positive face is below the plane */
            bool beside = false;
            for (int w = 0; w < 2 && !beside; w++) { /* the two voxels on that plane along the third axis */
                int r[3] = { q[0], q[1], q[2] }, o3 = 3 - axis - d;
                r[o3] -= w;
                beside = exposed(s, f, r[0], r[1], r[2]);
            }
            assert_true(beside);
        }
        for (int a = (int)e[0].pos[axis]; a < (int)e[1].pos[axis]; a++) {
            p[axis] = a;
            assert_true(p[axis] < size[axis]);
            uint8_t *h = &hits[EDGE(axis, p)];
            assert_int_equal(*h, 0);
            *h = 1;
            units++;
        }
    }
    for (int axis = 0; axis < 3; axis++) {
        int U = (axis + 1) % 3, V = (axis + 2) % 3;
        for (int a = 0; a < size[axis]; a++)
            for (int v = 0; v <= size[V]; v++)
                for (int u = 0; u <= size[U]; u++) {
                    int p[3];
                    p[axis] = a, p[U] = u, p[V] = v;
                    assert_int_equal(hits[EDGE(axis, p)], edge_bends(s, axis, a, u, v));
                }
    }
#undef EDGE
    assert_int_equal(o->edges, units);
    free(hits);
}

/* A box is its 12 edges, whatever its size: no seams across its faces. */
static void test_outline_box(void **state)
{
    const int sizes[][3] = { { 1, 1, 1 }, { 3, 4, 5 }, { 64, 2, 7 } };
    shape_outline o = { 0 };
    for (int i = 0; i < 3; i++) {
        shape s = make_shape("1", sizes[i][0], sizes[i][1], sizes[i][2]);
        assert_true(shape_outline_build(&s, &o));
        assert_int_equal(o.segments, 12);
        assert_int_equal(o.edges, 4 * (sizes[i][0] + sizes[i][1] + sizes[i][2]));
        check_outline(&s, &o);
        shape_free(&s);
    }
    shape s = make_shape("0", 4, 4, 4);
    assert_true(shape_outline_build(&s, &o));
    assert_int_equal(o.segments, 0);
    shape_free(&s);
    shape_outline_free(&o);
}

static void test_outline_random(void **state)
{
    rng r = rng_make(11);
    shape_outline o = { 0 };
    for (int iter = 0; iter < 300; iter++) {
        shape s = random_shape(&r);
        assert_true(shape_outline_build(&s, &o));
        check_outline(&s, &o);
        free(s.vox);
    }
    shape_outline_free(&o);
}

/* The default tool (an 8^3 ball): the outline has far fewer unit edges to
 * draw than the quads' edges (which repeat every crease twice and add the
 * greedy seams). */
static void test_outline_sphere(void **state)
{
    shape s = make_shape(SPHERE, 8, 8, 8);
    shape_outline o = { 0 };
    shape_mesh m = { 0 };
    assert_true(shape_outline_build(&s, &o));
    assert_true(shape_mesh_build(&s, &m));
    check_outline(&s, &o);
    long quad_edges = 0; /* unit lengths of the quads' four edges */
    for (int q = 0; q < m.quads; q++) {
        const shape_mesh_vertex *v = &m.v[4 * q];
        for (int k = 0; k < 4; k++)
            for (int a = 0; a < 3; a++) quad_edges += (long)fabsf(v[(k + 1) % 4].pos[a] - v[k].pos[a]);
    }
    print_message("8^3 sphere outline: %d segments, %ld unit edges; quad edges: %d lines, %ld unit edges\n", o.segments,
                  o.edges, 4 * m.quads, quad_edges);
    assert_true(o.edges * 2 <= quad_edges);
    shape_outline_free(&o);
    shape_mesh_free(&m);
    shape_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_shapes),
        cmocka_unit_test(test_sphere8),
        cmocka_unit_test(test_full_box),
        cmocka_unit_test(test_empty_shape),
        cmocka_unit_test(test_sphere64_quads),
        cmocka_unit_test(test_outline_box),
        cmocka_unit_test(test_outline_random),
        cmocka_unit_test(test_outline_sphere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
