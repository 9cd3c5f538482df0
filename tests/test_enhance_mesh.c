/* The fragment mesher: every visible fragment face is covered exactly once
 * (area of the merged quads == faces counted one by one), hidden faces are
 * culled, coplanar faces of one material merge, and neighbours decide the
 * faces on the chunk border. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "mesh/enhance_mesh.h"

static enhance_ctx *ctx(enhance_params p)
{
    char err[256];
    enhance_ctx *e = enhance_create(&p, err, sizeof err);
    assert_non_null(e);
    return e;
}

static bool frag_at(const enhance_chunk *c, const enhance_input *in, int fx, int fy, int fz)
{
    int m = CHUNK_SIZE * c->factor;
    if (fx < 0 || fy < 0 || fz < 0 || fx >= m || fy >= m || fz >= m) {
        int f = c->factor;
        int vx = (fx + f) / f - 1, vy = (fy + f) / f - 1, vz = (fz + f) / f - 1;
        return enhance_solid(in->vox[ENHANCE_IN_INDEX(vx, vy, vz)]);
    }
    return enhance_chunk_fragment(c, in, fx, fy, fz);
}

static long count_faces(const enhance_chunk *c, const enhance_input *in)
{
    int m = CHUNK_SIZE * c->factor;
    long n = 0;
    for (int y = 0; y < m; y++)
        for (int z = 0; z < m; z++)
            for (int x = 0; x < m; x++) {
                if (!frag_at(c, in, x, y, z)) continue;
                for (int f = 0; f < FACE_COUNT; f++)
                    n += !frag_at(c, in, x + face_normal[f][0], y + face_normal[f][1], z + face_normal[f][2]);
            }
    return n;
}

static long quad_area(const enhance_mesh *m)
{
    long area = 0;
    for (int q = 0; q < m->count; q += 4) {
        int d[3];
        uint32_t a0 = m->v[q].a, a2 = m->v[q + 2].a;
        d[0] = abs((int)(a2 & 1023) - (int)(a0 & 1023));
        d[1] = abs((int)((a2 >> 10) & 1023) - (int)((a0 >> 10) & 1023));
        d[2] = abs((int)((a2 >> 20) & 1023) - (int)((a0 >> 20) & 1023));
        long s = 1;
        for (int k = 0; k < 3; k++)
            if (d[k]) s *= d[k];
        area += s;
    }
    return area;
}

static void random_input(enhance_input *in, uint64_t seed)
{
    memset(in, 0, sizeof *in);
    for (int y = -ENHANCE_PAD; y < CHUNK_SIZE + ENHANCE_PAD; y++)
        for (int z = -ENHANCE_PAD; z < CHUNK_SIZE + ENHANCE_PAD; z++)
            for (int x = -ENHANCE_PAD; x < CHUNK_SIZE + ENHANCE_PAD; x++) {
                int h = 6 + (int)(rng_hash3(seed, (x + 8) >> 2, 0, (z + 8) >> 2) % 20);
                bool s = y > h ? rng_hash3(seed, x, y, z) % 29 == 0 : rng_hash3(seed + 1, x, y, z) % 13 != 0;
                in->vox[ENHANCE_IN_INDEX(x, y, z)] = s ? (uint8_t)(MAT_STONE + ((x >> 3) & 1)) : MAT_AIR;
            }
}

static void test_area_equals_visible_faces(void **state)
{
    enhance_input *in = malloc(sizeof *in);
    assert_non_null(in);
    random_input(in, 11);
    enhance_params ps[2] = { enhance_params_default(), enhance_params_default() };
    ps[0].levels = 2;
    ps[0].altitude = 14;
    ps[1].op = ENHANCE_RESAMPLE;
    ps[1].factor = 3;
    ps[1].probes = 12;
    for (int k = 0; k < 2; k++) {
        enhance_ctx *e = ctx(ps[k]);
        enhance_chunk c = { 0 };
        enhance_chunk_build(e, in, true, &c);
        enhance_mesh m = { 0 };
        const enhance_chunk *nb[6] = { 0 };
        enhance_mesh_build(&c, in, nb, 0, &m);
        long faces = count_faces(&c, in);
        assert_true(faces > 10000);
        assert_int_equal(m.faces, faces);
        assert_int_equal(quad_area(&m), faces);
        assert_true(m.quads * 2 < faces); /* merging pays */
        enhance_mesh_free(&m);
        enhance_chunk_free(&c);
        enhance_destroy(e);
    }
    free(in);
}

/* Zero spread: every probe stays in its own voxel, fragments reproduce the
 * voxels exactly; a box of one material is six quads. */
static void test_box_is_six_quads(void **state)
{
    enhance_input *in = calloc(1, sizeof *in);
    assert_non_null(in);
    for (int y = 4; y < 12; y++)
        for (int z = 5; z < 9; z++)
            for (int x = 3; x < 20; x++) in->vox[ENHANCE_IN_INDEX(x, y, z)] = MAT_SAND;
    enhance_params p = enhance_params_default();
    p.op = ENHANCE_RESAMPLE;
    p.factor = 4;
    p.spread = 0.f;
    p.probes = 4;
    enhance_ctx *e = ctx(p);
    enhance_chunk c = { 0 };
    enhance_chunk_build(e, in, true, &c);
    enhance_mesh m = { 0 };
    const enhance_chunk *nb[6] = { 0 };
    enhance_mesh_build(&c, in, nb, 0, &m);
    assert_int_equal(m.quads, 6);
    assert_int_equal(quad_area(&m), 2 * 16 * (17 * 8 + 17 * 4 + 8 * 4));
    for (int i = 0; i < m.count; i++) assert_int_equal(m.v[i].b & 255, MAT_SAND);
    enhance_mesh_free(&m);
    enhance_chunk_free(&c);
    enhance_destroy(e);
    free(in);
}

/* A neighbour's fragments hide the faces against them: a solid floor
 * through two chunks shows no wall at their border. */
static void test_neighbour_hides_border(void **state)
{
    world *w = world_create(2, 1, 1);
    assert_non_null(w);
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 64; x++)
            for (int y = 0; y <= 10 + (x == 40); y++) world_set(w, x, y, z, MAT_DIRT);
    enhance_params p = enhance_params_default();
    p.altitude = 100;
    enhance_ctx *e = ctx(p);
    enhance_input *in = malloc(2 * sizeof *in);
    assert_non_null(in);
    enhance_chunk c[2] = { 0 };
    for (int i = 0; i < 2; i++) {
        enhance_gather(w, i, 0, 0, &in[i]);
        enhance_chunk_build(e, &in[i], true, &c[i]);
    }
    const enhance_chunk *nb[6] = { 0 };
    nb[FACE_RIGHT] = &c[1];
    enhance_mesh m = { 0 };
    enhance_mesh_build(&c[0], &in[0], nb, 0, &m);
    for (int q = 0; q < m.count; q += 4) {
        int face = (int)(m.v[q].b >> 16);
        assert_true(face != FACE_RIGHT); /* the floor continues */
    }
    /* without the neighbour, the grown half voxel on top ends in a wall */
    nb[FACE_RIGHT] = NULL;
    enhance_mesh_build(&c[0], &in[0], nb, 0, &m);
    int walls = 0;
    for (int q = 0; q < m.count; q += 4) walls += (int)(m.v[q].b >> 16) == FACE_RIGHT;
    assert_true(walls > 0);
    enhance_mesh_free(&m);
    for (int i = 0; i < 2; i++) enhance_chunk_free(&c[i]);
    free(in);
    enhance_destroy(e);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_area_equals_visible_faces),
        cmocka_unit_test(test_box_is_six_quads),
        cmocka_unit_test(test_neighbour_hides_border),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
