/* The octree of bounding spheres: the paper's pair search equals brute
 * force on random shapes, poses and rotations; incremental edits equal a
 * rebuild; ray, box and sphere queries equal direct scans. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "gen/shape.h"
#include "physics/octree.h"

static uint8_t *random_dense(rng *r, int sx, int sy, int sz, double density)
{
    uint8_t *v = malloc((size_t)sx * sy * sz);
    for (size_t i = 0; i < (size_t)sx * sy * sz; i++) v[i] = rng_double(r) < density;
    return v;
}

/* A random rotation: uniform quaternion, as a row-major matrix. */
static void random_rotation(rng *r, float m[3][3])
{
    double q[4], n = 0;
    do {
        n = 0;
        for (int i = 0; i < 4; i++) { q[i] = rng_double(r) * 2 - 1; n += q[i] * q[i]; }
    } while (n > 1 || n < 1e-6);
    n = sqrt(n);
    double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    double mm[3][3] = {
        { 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w) },
        { 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w) },
        { 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y) },
    };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m[i][j] = (float)mm[i][j];
}

static void assert_pairs_equal(octree_pairs *a, octree_pairs *b)
{
    octree_pairs_sort(a);
    octree_pairs_sort(b);
    assert_false(a->out_of_memory);
    assert_false(b->out_of_memory);
    assert_int_equal(a->count, b->count);
    if (a->count) assert_memory_equal(a->v, b->v, a->count * sizeof *a->v);
}

/* The cube pairs (cuts) and the near pairs (bodies' contacts) both equal
 * brute force on random shapes, poses and rotations. */
/* Bodies keep contact pairs while (tree, version) stays the same: a tree
 * made where a freed one was must not repeat its version, even with the
 * same sets made in it. */
static void test_versions_never_repeat_across_trees(void **state)
{
    (void)state;
    octree *a = octree_create(16, 16, 16);
    octree_set(a, 1, 2, 3, true);
    uint64_t va = octree_version(a);
    octree_destroy(a);
    for (int k = 0; k < 8; k++) {
        octree *b = octree_create(16, 16, 16);
        assert_non_null(b);
        octree_set(b, 1, 2, 3, true);
        assert_true(octree_version(b) != va);
        octree_set(b, 1, 2, 3, true); /* no change: the version stays */
        uint64_t vb = octree_version(b);
        octree_set(b, 4, 5, 6, true);
        assert_true(octree_version(b) != vb);
        va = octree_version(b);
        octree_destroy(b);
    }
}

static void test_pairs_equal_brute_force(void **state)
{
    (void)state;
    rng r = rng_make(1234);
    octree_pairs fast = { 0 }, slow = { 0 };
    size_t total = 0, near_total = 0;
    for (int it = 0; it < 60; it++) {
        int ts[3] = { rng_range(&r, 1, 40), rng_range(&r, 1, 40), rng_range(&r, 1, 40) };
        int cs[3] = { rng_range(&r, 1, 12), rng_range(&r, 1, 12), rng_range(&r, 1, 12) };
        uint8_t *tv = random_dense(&r, ts[0], ts[1], ts[2], rng_double(&r));
        uint8_t *cv = random_dense(&r, cs[0], cs[1], cs[2], 0.2 + 0.8 * rng_double(&r));
        octree *t = octree_from_dense(tv, ts[0], ts[1], ts[2]), *c = octree_from_dense(cv, cs[0], cs[1], cs[2]);
        for (int k = 0; k < 5; k++) {
            octree_pose pose;
            float pos[3];
            for (int i = 0; i < 3; i++) pos[i] = (float)(rng_double(&r) * (ts[i] + 8) - 4);
            /* a mix of exact grid positions, unrotated, camera-like and arbitrary rotations */
            if (k == 0) {
                for (int i = 0; i < 3; i++) pos[i] = floorf(pos[i]);
                octree_pose_identity(&pose, pos);
            } else if (k == 1) {
                octree_pose_from_yaw_pitch(&pose, (float)(rng_double(&r) * 360), (float)(rng_double(&r) * 178 - 89), pos);
            } else {
                octree_pose_identity(&pose, pos);
                random_rotation(&r, pose.rot);
            }
            octree_intersect(t, c, &pose, &fast);
            octree_intersect_brute(t, c, &pose, &slow);
            assert_pairs_equal(&fast, &slow);
            total += fast.count;
            /* the near query (voxel bodies' contacts), at reaches around a voxel's size */
            float reach = (float)(0.5 + 1.5 * rng_double(&r));
            octree_intersect_near(t, c, &pose, reach, &fast);
            octree_intersect_near_brute(t, c, &pose, reach, &slow);
            assert_pairs_equal(&fast, &slow);
            near_total += fast.count;
        }
        octree_destroy(t);
        octree_destroy(c);
        free(tv);
        free(cv);
    }
    assert_true(total > 1000); /* the poses did overlap */
    assert_true(near_total > total);
    octree_pairs_free(&fast);
    octree_pairs_free(&slow);
}

/* Unrotated at a whole-voxel offset, the tool removes exactly its own shape:
 * each pair is a voxel of the tool on top of a terrain voxel. */
static void test_aligned_tool_pairs_are_its_own_voxels(void **state)
{
    (void)state;
    enum { T = 40 };
    uint8_t *full = malloc(T * T * T);
    memset(full, 1, T * T * T);
    octree *t = octree_from_dense(full, T, T, T);
    shape s = { 0 };
    char err[256];
    assert_true(shape_from_formula(&s, "sr < r", 8, 8, 8, err, sizeof err));
    octree *c = octree_from_dense(s.vox, 8, 8, 8);
    octree_pose pose;
    const float pos[3] = { 20, 17, 9 };
    octree_pose_identity(&pose, pos);
    octree_pairs p = { 0 };
    assert_int_equal(octree_intersect(t, c, &pose, &p), (size_t)s.count);
    for (size_t i = 0; i < p.count; i++) {
        const octree_pair *e = &p.v[i];
        assert_true(shape_get(&s, e->c[0], e->c[1], e->c[2]));
        /* pivot (4,4,4) sits at pos: tool voxel c lands on terrain voxel pos - 4 + c */
        for (int a = 0; a < 3; a++) assert_int_equal(e->t[a], (int)pos[a] - 4 + e->c[a]);
    }
    /* a rotated tool still pairs each terrain voxel at most once */
    octree_pose_from_yaw_pitch(&pose, 33, -21, pos);
    octree_intersect(t, c, &pose, &p);
    octree_pairs_sort(&p);
    for (size_t i = 1; i < p.count; i++) assert_memory_not_equal(p.v[i].t, p.v[i - 1].t, sizeof p.v[i].t);
    /* and covers about the tool's volume */
    assert_true(labs((long)p.count - s.count) < s.count / 5);
    octree_pairs_free(&p);
    octree_destroy(t);
    octree_destroy(c);
    shape_free(&s);
    free(full);
}

static void test_incremental_equals_rebuilt(void **state)
{
    (void)state;
    rng r = rng_make(99);
    int sx = 45, sy = 30, sz = 70;
    uint8_t *v = random_dense(&r, sx, sy, sz, 0.5);
    octree *o = octree_from_dense(v, sx, sy, sz);
    for (int round = 0; round < 20; round++) {
        /* a burst of removals in a ball (a cut), then scattered additions */
        int c[3] = { rng_range(&r, 0, sx - 1), rng_range(&r, 0, sy - 1), rng_range(&r, 0, sz - 1) };
        int rad = rng_range(&r, 1, 9);
        for (int y = c[1] - rad; y <= c[1] + rad; y++)
            for (int z = c[2] - rad; z <= c[2] + rad; z++)
                for (int x = c[0] - rad; x <= c[0] + rad; x++) {
                    if (x < 0 || y < 0 || z < 0 || x >= sx || y >= sy || z >= sz) continue;
                    if ((x - c[0]) * (x - c[0]) + (y - c[1]) * (y - c[1]) + (z - c[2]) * (z - c[2]) > rad * rad) continue;
                    size_t i = (size_t)x + sx * ((size_t)z + sz * (size_t)y);
                    bool changed = octree_set(o, x, y, z, false);
                    assert_int_equal(changed, v[i] != 0);
                    v[i] = 0;
                }
        for (int k = 0; k < 200; k++) {
            int x = rng_range(&r, 0, sx - 1), y = rng_range(&r, 0, sy - 1), z = rng_range(&r, 0, sz - 1);
            bool on = rng_double(&r) < 0.5;
            octree_set(o, x, y, z, on);
            v[(size_t)x + sx * ((size_t)z + sz * (size_t)y)] = on;
        }
        octree *fresh = octree_from_dense(v, sx, sy, sz);
        assert_true(octree_equal(o, fresh));
        octree_destroy(fresh);
    }
    /* emptied completely, every level is empty again */
    for (int y = 0; y < sy; y++)
        for (int z = 0; z < sz; z++)
            for (int x = 0; x < sx; x++) octree_set(o, x, y, z, false);
    memset(v, 0, (size_t)sx * sy * sz);
    octree *none = octree_from_dense(v, sx, sy, sz);
    assert_true(octree_equal(o, none));
    assert_int_equal(octree_count(o), 0);
    assert_false(octree_set(o, -1, 0, 0, true));
    assert_false(octree_set(o, sx, 0, 0, true));
    octree_destroy(none);
    octree_destroy(o);
    free(v);
}

static void test_world_tree_matches_dense(void **state)
{
    (void)state;
    world *w = world_create(2, 1, 3);
    rng r = rng_make(5);
    uint8_t *v = calloc((size_t)w->sx * w->sy * w->sz, 1);
    for (int k = 0; k < 5000; k++) {
        int x = rng_range(&r, 0, w->sx - 1), y = rng_range(&r, 0, w->sy - 1), z = rng_range(&r, 0, w->sz - 1);
        world_set(w, x, y, z, MAT_STONE);
        v[(size_t)x + w->sx * ((size_t)z + w->sz * (size_t)y)] = 1;
    }
    octree *a = octree_from_world(w), *b = octree_from_dense(v, w->sx, w->sy, w->sz);
    assert_true(octree_equal(a, b));
    /* edits the tree did not see, then a sync of that region */
    for (int x = 10; x < 20; x++) world_set(w, x, 3, 40, MAT_SAND);
    world_set(w, 0, 0, 0, MAT_AIR);
    const int lo[3] = { 0, 0, 0 }, hi[3] = { 20, 4, 41 };
    octree_sync_world(a, w, lo, hi);
    octree *c = octree_from_world(w);
    assert_true(octree_equal(a, c));
    octree_destroy(a);
    octree_destroy(b);
    octree_destroy(c);
    free(v);
    world_destroy(w);
}

/* A world's tree read a few columns a call (the tool's next tree, spread
 * over frames; each column derives the levels inside it, the last call
 * those above) is the tree built from the same voxels at once, every
 * level byte for byte: worlds whose sides are not powers of two, uniform
 * solid chunks beside mixed ones, and one too small for levels above a
 * column's. */
static void test_box_fill_levels_equal_dense(void **state)
{
    (void)state;
    static const int dims[][3] = { { 5, 3, 4 }, { 1, 1, 1 }, { 3, 2, 1 } };
    rng r = rng_make(99);
    for (size_t t = 0; t < sizeof dims / sizeof dims[0]; t++) {
        world *w = world_create(dims[t][0], dims[t][1], dims[t][2]);
        assert_non_null(w);
        uint8_t *v = calloc((size_t)w->sx * w->sy * w->sz, 1);
        assert_non_null(v);
        for (int y = 0; y < w->sy; y++)
            for (int z = 0; z < w->sz; z++)
                for (int x = 0; x < w->sx; x++) {
                    /* ground below 20, one chunk solid whole, sparse stones above */
                    bool solid = y < 20 || (x < 32 && y < 32 && z < 32) || rng_range(&r, 0, 99) < 3;
                    if (!solid) continue;
                    world_set(w, x, y, z, MAT_STONE);
                    v[(size_t)x + w->sx * ((size_t)z + w->sz * (size_t)y)] = 1;
                }
        octree *whole = octree_from_dense(v, w->sx, w->sy, w->sz);
        const int lo[3] = { 0, 0, 0 }, hi[3] = { w->sx, w->sy, w->sz };
        octree *inc = octree_box_begin(w, lo, hi);
        assert_non_null(inc);
        int next = 0, calls = 0;
        while (!octree_box_fill(inc, w, &next, 1 + calls % 3)) calls++;
        assert_true(octree_equal(inc, whole));
        octree_destroy(inc);
        octree_destroy(whole);
        free(v);
        world_destroy(w);
    }
}

static bool count_visit(void *user, int x, int y, int z)
{
    long *n = user;
    n[0]++, n[1] += x, n[2] += y, n[3] += z;
    return true;
}

/* A tree of a moved window answers in world coordinates exactly what the
 * same voxels at the origin answer, shifted: get, set, rays, cells, boxes,
 * spheres and the tool's pairs. */
static void test_moved_window_tree_answers_in_world_coordinates(void **state)
{
    (void)state;
    const int dx = -3 * 32, dz = 5 * 32;
    world *at0 = world_create(2, 1, 3), *moved = world_create_at(-3, 5, 2, 1, 3);
    rng r = rng_make(9);
    for (int k = 0; k < 6000; k++) {
        int x = rng_range(&r, 0, 63), y = rng_range(&r, 0, 31), z = rng_range(&r, 0, 95);
        world_set(at0, x, y, z, MAT_STONE);
        world_set(moved, x + dx, y, z + dz, MAT_STONE);
    }
    octree *a = octree_from_world(at0), *b = octree_from_world(moved);
    int org[3];
    octree_origin(b, org);
    assert_int_equal(org[0], dx), assert_int_equal(org[1], 0), assert_int_equal(org[2], dz);
    assert_int_equal(octree_count(a), octree_count(b));
    for (int k = 0; k < 2000; k++) {
        int x = rng_range(&r, -2, 65), y = rng_range(&r, -2, 33), z = rng_range(&r, -2, 97);
        assert_int_equal(octree_get(a, x, y, z), octree_get(b, x + dx, y, z + dz));
    }
    for (int k = 0; k < 200; k++) {
        double o[3] = { (float)rng_double(&r) * 64, 40, (float)rng_double(&r) * 96 };
        float d[3] = { (float)rng_double(&r) - 0.5f, -1, (float)rng_double(&r) - 0.5f };
        double om[3] = { (float)(o[0] + dx), o[1], (float)(o[2] + dz) };
        int ha[3], hb[3];
        float ta, tb;
        bool hit_a = octree_raycast(a, o, d, 100, ha, NULL, &ta), hit_b = octree_raycast(b, om, d, 100, hb, NULL, &tb);
        assert_int_equal(hit_a, hit_b);
        if (hit_a) assert_int_equal(ha[0] + dx, hb[0]), assert_int_equal(ha[1], hb[1]), assert_int_equal(ha[2] + dz, hb[2]);
        int lo[3] = { rng_range(&r, 0, 60), rng_range(&r, 0, 28), rng_range(&r, 0, 90) };
        int hi[3] = { lo[0] + 2, lo[1] + 1, lo[2] + 3 };
        int lm[3] = { lo[0] + dx, lo[1], lo[2] + dz }, hm[3] = { hi[0] + dx, hi[1], hi[2] + dz };
        assert_int_equal(octree_cells_occupied(a, lo, hi), octree_cells_occupied(b, lm, hm));
        float fl[3] = { (float)lo[0] + 0.3f, (float)lo[1], (float)lo[2] }, fh[3] = { (float)hi[0], (float)hi[1], (float)hi[2] + 0.5f };
        float fml[3] = { fl[0] + dx, fl[1], fl[2] + dz }, fmh[3] = { fh[0] + dx, fh[1], fh[2] + dz };
        assert_int_equal(octree_box_occupied(a, fl, fh), octree_box_occupied(b, fml, fmh));
        long na[4] = { 0 }, nb[4] = { 0 };
        const float of[3] = { (float)o[0], (float)o[1], (float)o[2] }, omf[3] = { (float)om[0], (float)om[1], (float)om[2] };
        octree_query_sphere(a, of, 9, count_visit, na);
        octree_query_sphere(b, omf, 9, count_visit, nb);
        assert_int_equal(na[0], nb[0]);
        assert_int_equal(na[1] + na[0] * dx, nb[1]);
        assert_int_equal(na[3] + na[0] * dz, nb[3]);
    }
    /* a rotated tool's pairs: the same, terrain voxels shifted */
    uint8_t *tv = random_dense(&r, 9, 7, 8, 0.5);
    octree *tool = octree_from_dense(tv, 9, 7, 8);
    octree_pose pose = { .org = { 0, 0, 0 } }; /* the frame: 0 near the origin */
    random_rotation(&r, pose.rot);
    pose.pos[0] = 30.5f, pose.pos[1] = 16, pose.pos[2] = 47.25f;
    octree_pairs pa = { 0 }, pb = { 0 };
    octree_intersect(a, tool, &pose, &pa);
    pose.pos[0] += dx, pose.pos[2] += dz;
    octree_intersect(b, tool, &pose, &pb);
    assert_true(pa.count > 0);
    for (size_t k = 0; k < pa.count; k++) pa.v[k].t[0] += dx, pa.v[k].t[2] += dz;
    assert_pairs_equal(&pa, &pb);
    /* a box of the window: the same answers inside it, nothing outside */
    const int blo[3] = { dx + 32, 0, dz + 32 }, bhi[3] = { dx + 64, 32, dz + 96 };
    octree *box = octree_from_world_box(moved, blo, bhi);
    assert_non_null(box);
    for (int y = 0; y < 32; y++)
        for (int z = dz; z < dz + 96; z++)
            for (int x = dx; x < dx + 64; x++) {
                bool in = x >= blo[0] && x < bhi[0] && z >= blo[2] && z < bhi[2];
                assert_int_equal(octree_get(box, x, y, z), in && world_get(moved, x, y, z) != MAT_AIR);
            }
    /* the same box read a column a call (the tool's next tree, spread
     * over frames): not done until every column is read, then the same
     * tree, its upper levels included */
    octree *inc = octree_box_begin(moved, blo, bhi);
    assert_non_null(inc);
    int next = 0;
    assert_false(octree_box_fill(inc, moved, &next, 1));
    assert_true(octree_box_fill(inc, moved, &next, 1));
    assert_true(octree_box_fill(inc, moved, &next, 1)); /* done stays done */
    assert_int_equal(octree_count(inc), octree_count(box));
    for (int y = 0; y < 32; y++)
        for (int z = dz + 32; z < dz + 96; z++)
            for (int x = dx + 32; x < dx + 64; x++) assert_int_equal(octree_get(inc, x, y, z), octree_get(box, x, y, z));
    for (int k = 0; k < 50; k++) {
        float lo[3] = { (float)(dx + 32 + rng_range(&r, 0, 31)), (float)rng_range(&r, 0, 31),
                        (float)(dz + 32 + rng_range(&r, 0, 63)) };
        float hi[3] = { lo[0] + 0.5f + (float)rng_range(&r, 0, 6), lo[1] + 0.5f + (float)rng_range(&r, 0, 6),
                        lo[2] + 0.5f + (float)rng_range(&r, 0, 6) };
        assert_int_equal(octree_box_occupied(inc, lo, hi), octree_box_occupied(box, lo, hi));
    }
    octree_destroy(inc);
    const int unaligned[3] = { dx + 5, 0, dz };
    assert_null(octree_from_world_box(moved, unaligned, bhi));
    assert_null(octree_box_begin(moved, unaligned, bhi));
    octree_destroy(box);
    /* edits in world coordinates land where they say */
    assert_true(octree_set(b, dx + 1, 31, dz + 2, !octree_get(b, dx + 1, 31, dz + 2)));
    assert_false(octree_set(b, 1, 31, 2, true)); /* outside the moved window */
    octree_pairs_free(&pa), octree_pairs_free(&pb);
    octree_destroy(tool), free(tv);
    octree_destroy(a), octree_destroy(b);
    world_destroy(at0), world_destroy(moved);
}

/* Reference ray: nearest entry over every occupied voxel. */
static bool brute_ray(const uint8_t *v, const int s[3], const float o[3], const float d[3], float maxd, int hit[3],
                      float *dist)
{
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), dir[3] = { d[0] / len, d[1] / len, d[2] / len };
    bool any = false;
    float best = INFINITY;
    for (int y = 0; y < s[1]; y++)
        for (int z = 0; z < s[2]; z++)
            for (int x = 0; x < s[0]; x++) {
                if (!v[(size_t)x + s[0] * ((size_t)z + s[2] * (size_t)y)]) continue;
                int c[3] = { x, y, z };
                float a = -INFINITY, b = INFINITY;
                bool miss = false;
                for (int i = 0; i < 3 && !miss; i++) {
                    if (dir[i] == 0) { miss = o[i] < c[i] || o[i] >= c[i] + 1; continue; }
                    float u = (c[i] - o[i]) / dir[i], w = (c[i] + 1 - o[i]) / dir[i];
                    if (u > w) { float t = u; u = w; w = t; }
                    if (u > a) a = u;
                    if (w < b) b = w;
                }
                if (miss || a > b || b < 0 || a > maxd) continue;
                float t = a < 0 ? 0 : a;
                if (t < best) { best = t; memcpy(hit, c, sizeof c); any = true; }
            }
    *dist = best;
    return any;
}

static void test_raycast_matches_scan(void **state)
{
    (void)state;
    rng r = rng_make(77);
    int s[3] = { 37, 29, 41 };
    uint8_t *v = random_dense(&r, s[0], s[1], s[2], 0.01);
    octree *o = octree_from_dense(v, s[0], s[1], s[2]);
    int hits = 0;
    for (int k = 0; k < 2000; k++) {
        float org[3], dir[3];
        for (int i = 0; i < 3; i++) {
            org[i] = (float)(rng_double(&r) * (s[i] + 20) - 10);
            dir[i] = (float)(rng_double(&r) * 2 - 1);
        }
        if (k % 10 == 0) dir[k / 10 % 3] = 0; /* axis-parallel planes too */
        float maxd = (float)(rng_double(&r) * 60);
        int h1[3], h2[3], n[3];
        float d1, d2;
        const double od[3] = { org[0], org[1], org[2] };
        bool a = octree_raycast(o, od, dir, maxd, h1, n, &d1);
        bool b = brute_ray(v, s, org, dir, maxd, h2, &d2);
        assert_int_equal(a, b);
        if (!a) continue;
        hits++;
        assert_memory_equal(h1, h2, sizeof h1);
        assert_float_equal(d1, d2, 1e-4);
        /* the normal points back toward the origin, out of the face entered */
        if (d1 > 0) {
            int axes = abs(n[0]) + abs(n[1]) + abs(n[2]);
            assert_int_equal(axes, 1);
            for (int i = 0; i < 3; i++)
                if (n[i]) assert_true(n[i] * dir[i] < 0);
        }
    }
    assert_true(hits > 100);
    /* starting inside an occupied voxel: distance 0, no normal */
    v[0] = 1;
    octree_set(o, 0, 0, 0, true);
    const double in[3] = { 0.5f, 0.5f, 0.5f };
    const float up[3] = { 0, 1, 0 };
    int h[3], n[3];
    float d;
    assert_true(octree_raycast(o, in, up, 10, h, n, &d));
    assert_float_equal(d, 0, 0);
    assert_int_equal(n[0] | n[1] | n[2], 0);
    octree_destroy(o);
    free(v);
}

typedef struct collect {
    int n;
    long sum;
} collect;

static bool collect_fn(void *user, int x, int y, int z)
{
    collect *c = user;
    c->n++;
    c->sum += x * 7919L + y * 104729L + z * 31L;
    return true;
}

static void test_box_and_sphere_queries_match_scan(void **state)
{
    (void)state;
    rng r = rng_make(8);
    int s[3] = { 50, 20, 33 };
    uint8_t *v = random_dense(&r, s[0], s[1], s[2], 0.3);
    octree *o = octree_from_dense(v, s[0], s[1], s[2]);
    for (int k = 0; k < 300; k++) {
        float lo[3], hi[3], c[3], rad = (float)(rng_double(&r) * 8);
        for (int i = 0; i < 3; i++) {
            lo[i] = (float)(rng_double(&r) * (s[i] + 4) - 2);
            hi[i] = lo[i] + (float)(rng_double(&r) * 6);
            c[i] = (float)(rng_double(&r) * (s[i] + 4) - 2);
        }
        collect box = { 0 }, ball = { 0 }, want_box = { 0 }, want_ball = { 0 };
        octree_query_box(o, lo, hi, collect_fn, &box);
        octree_query_sphere(o, c, rad, collect_fn, &ball);
        for (int y = 0; y < s[1]; y++)
            for (int z = 0; z < s[2]; z++)
                for (int x = 0; x < s[0]; x++) {
                    if (!v[(size_t)x + s[0] * ((size_t)z + s[2] * (size_t)y)]) continue;
                    int p[3] = { x, y, z };
                    bool in_box = true;
                    float d2 = 0;
                    for (int i = 0; i < 3; i++) {
                        in_box &= p[i] < hi[i] && p[i] + 1 > lo[i];
                        float q = c[i] < p[i] ? p[i] - c[i] : c[i] > p[i] + 1 ? c[i] - (p[i] + 1) : 0;
                        d2 += q * q;
                    }
                    if (in_box) collect_fn(&want_box, x, y, z);
                    if (d2 <= rad * rad) collect_fn(&want_ball, x, y, z);
                }
        assert_int_equal(box.n, want_box.n);
        assert_int_equal(box.sum, want_box.sum);
        assert_int_equal(ball.n, want_ball.n);
        assert_int_equal(ball.sum, want_ball.sum);
        assert_int_equal(octree_box_occupied(o, lo, hi), want_box.n > 0);
    }
    octree_destroy(o);
    free(v);
}

/* The integer cell query (collide's broad phase) on sparse trees, where
 * "empty" is the common answer, against a scan; boxes of every size, some
 * reaching outside the domain. */
static void test_cells_occupied_matches_scan(void **state)
{
    (void)state;
    rng r = rng_make(21);
    for (int t = 0; t < 6; t++) {
        int s[3] = { 1 + (int)(rng_next(&r) % 70), 1 + (int)(rng_next(&r) % 40), 1 + (int)(rng_next(&r) % 70) };
        uint8_t *v = random_dense(&r, s[0], s[1], s[2], t % 2 ? 0.001 : 0.02);
        octree *o = octree_from_dense(v, s[0], s[1], s[2]);
        int empty = 0;
        for (int k = 0; k < 400; k++) {
            int lo[3], hi[3];
            for (int i = 0; i < 3; i++) {
                lo[i] = (int)(rng_next(&r) % (uint64_t)(s[i] + 6)) - 3;
                hi[i] = lo[i] + (int)(rng_next(&r) % (k % 4 ? 4 : 40)) - (k % 17 == 0); /* some empty ranges */
            }
            bool want = false;
            for (int y = lo[1] < 0 ? 0 : lo[1]; y <= hi[1] && y < s[1] && !want; y++)
                for (int z = lo[2] < 0 ? 0 : lo[2]; z <= hi[2] && z < s[2] && !want; z++)
                    for (int x = lo[0] < 0 ? 0 : lo[0]; x <= hi[0] && x < s[0] && !want; x++)
                        want = v[(size_t)x + s[0] * ((size_t)z + s[2] * (size_t)y)] != 0;
            assert_int_equal(octree_cells_occupied(o, lo, hi), want);
            empty += !want;
        }
        assert_true(empty > 20 && empty < 400); /* both answers were exercised */
        octree_destroy(o);
        free(v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moved_window_tree_answers_in_world_coordinates),
        cmocka_unit_test(test_versions_never_repeat_across_trees),
        cmocka_unit_test(test_pairs_equal_brute_force),
        cmocka_unit_test(test_aligned_tool_pairs_are_its_own_voxels),
        cmocka_unit_test(test_incremental_equals_rebuilt),
        cmocka_unit_test(test_world_tree_matches_dense),
        cmocka_unit_test(test_box_fill_levels_equal_dense),
        cmocka_unit_test(test_raycast_matches_scan),
        cmocka_unit_test(test_box_and_sphere_queries_match_scan),
        cmocka_unit_test(test_cells_occupied_matches_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
