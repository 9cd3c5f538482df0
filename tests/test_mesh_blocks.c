/* Block mesher: hidden-face culling by the render flags, passes, chunk
 * borders through the world, greedy merging that covers exactly the same
 * unit faces as the plain mesh, and counter-clockwise winding from outside. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "mesh/mesh_blocks.h"
#include "mesh/mesh_lod.h"
#include "mesh/mesh_world.h"

static uint8_t vol[CHUNK_VOLUME];
static mesh_input input;

static void vol_clear(void) { memset(vol, MAT_AIR, sizeof vol); }
static void vol_set(int x, int y, int z, uint8_t m) { vol[CHUNK_INDEX(x, y, z)] = m; }

typedef struct quad {
    int c[4][3];
    int face, tile, tint, pass;
} quad;

static void quad_of(const chunk_mesh *m, int pass, int q, quad *out)
{
    const mesh_vertex *v = m->pass[pass].v + q * 4;
    for (int i = 0; i < 4; i++) {
        out->c[i][0] = (int)(v[i].a & 63);
        out->c[i][1] = (int)((v[i].a >> 6) & 63);
        out->c[i][2] = (int)((v[i].a >> 12) & 63);
        /* every vertex of a quad carries the same face and material */
        assert_int_equal((v[i].a >> 18) & 7, (v[0].a >> 18) & 7);
        assert_int_equal(v[i].b, v[0].b);
        assert_int_equal(v[i].a >> 21, 0);
    }
    out->face = (int)((v[0].a >> 18) & 7);
    out->tile = (int)(v[0].b & 255);
    out->tint = (int)((v[0].b >> 8) & 255);
    out->pass = pass;
    assert_true(out->face < FACE_COUNT);
}

static int mesh_quads(const chunk_mesh *m)
{
    int n = 0;
    for (int p = 0; p < PASS_COUNT; p++) {
        assert_int_equal(m->pass[p].count % 4, 0);
        n += m->pass[p].count / 4;
    }
    return n;
}

/* Builds both ways, checks they agree on the face count and that the plain
 * mesh has one quad per face; returns the face count. */
static int build_both(const mesh_input *in, chunk_mesh *greedy, chunk_mesh *plain)
{
    mesh_build(in, false, plain);
    mesh_build(in, true, greedy);
    assert_int_equal(plain->faces, greedy->faces);
    assert_int_equal(plain->quads, plain->faces);
    assert_int_equal(mesh_quads(plain), plain->quads);
    assert_int_equal(mesh_quads(greedy), greedy->quads);
    assert_true(greedy->quads <= plain->quads);
    return plain->faces;
}

static int faces_of_volume(void)
{
    chunk_mesh g = { 0 }, p = { 0 };
    mesh_gather_volume(vol, &input);
    int f = build_both(&input, &g, &p);
    mesh_free(&g);
    mesh_free(&p);
    return f;
}

/* --- rasterising quads back to unit faces -------------------------------- */

/* One cell per (face, voxel): 0 = no face, else tile + 1 | tint << 8 | pass << 16. */
typedef uint32_t face_set[FACE_COUNT][CHUNK_VOLUME];

static void rasterise(const chunk_mesh *m, face_set *set)
{
    memset(set, 0, sizeof *set);
    for (int p = 0; p < PASS_COUNT; p++) {
        for (int q = 0; q < m->pass[p].count / 4; q++) {
            quad qd;
            quad_of(m, p, q, &qd);
            int lo[3], hi[3];
            for (int a = 0; a < 3; a++) {
                lo[a] = hi[a] = qd.c[0][a];
                for (int i = 1; i < 4; i++) {
                    if (qd.c[i][a] < lo[a]) lo[a] = qd.c[i][a];
                    if (qd.c[i][a] > hi[a]) hi[a] = qd.c[i][a];
                }
                assert_true(lo[a] >= 0 && hi[a] <= CHUNK_SIZE);
            }
            /* flat along the normal, with area across it */
            const int *n = face_normal[qd.face];
            int d = n[0] ? 0 : n[1] ? 1 : 2;
            assert_int_equal(lo[d], hi[d]);
            /* the plane sits on the voxel's outward side */
            int vd = lo[d] - (n[d] > 0 ? 1 : 0);
            assert_true(vd >= 0 && vd < CHUNK_SIZE);
            lo[d] = vd;
            hi[d] = vd + 1;
            for (int a = 0; a < 3; a++) assert_true(hi[a] > lo[a]);
            uint32_t val = (uint32_t)(qd.tile + 1) | (uint32_t)qd.tint << 8 | (uint32_t)p << 16;
            for (int y = lo[1]; y < hi[1]; y++)
                for (int z = lo[2]; z < hi[2]; z++)
                    for (int x = lo[0]; x < hi[0]; x++) {
                        uint32_t *cell = &(*set)[qd.face][CHUNK_INDEX(x, y, z)];
                        assert_int_equal(*cell, 0); /* no unit face twice */
                        *cell = val;
                    }
        }
    }
}

static void assert_same_faces(const chunk_mesh *a, const chunk_mesh *b)
{
    face_set *sa = malloc(sizeof *sa), *sb = malloc(sizeof *sb);
    assert_non_null(sa);
    assert_non_null(sb);
    rasterise(a, sa);
    rasterise(b, sb);
    assert_memory_equal(sa, sb, sizeof *sa);
    free(sa);
    free(sb);
}

/* Every quad: both triangles (0,1,2) and (0,2,3) face along the normal. */
static void assert_ccw(const chunk_mesh *m)
{
    for (int p = 0; p < PASS_COUNT; p++) {
        for (int q = 0; q < m->pass[p].count / 4; q++) {
            quad qd;
            quad_of(m, p, q, &qd);
            static const int tri[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
            for (int t = 0; t < 2; t++) {
                const int *a = qd.c[tri[t][0]], *b = qd.c[tri[t][1]], *c = qd.c[tri[t][2]];
                long e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
                long e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
                long cr[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                               e1[0] * e2[1] - e1[1] * e2[0] };
                const int *n = face_normal[qd.face];
                long dot = cr[0] * n[0] + cr[1] * n[1] + cr[2] * n[2];
                long len2 = cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2];
                assert_true(dot > 0);
                assert_true(dot * dot == len2); /* parallel to the normal, not just leaning */
            }
        }
    }
}

/* --- counts ----------------------------------------------------------------- */

static void test_single_voxel(void **state)
{
    (void)state;
    vol_clear();
    vol_set(5, 6, 7, MAT_STONE);
    assert_int_equal(faces_of_volume(), 6);
    /* each at the right place: top face plane is y = 7 */
    chunk_mesh m = { 0 };
    mesh_gather_volume(vol, &input);
    mesh_build(&input, true, &m);
    assert_int_equal(m.quads, 6);
    assert_int_equal(m.pass[PASS_OPAQUE].count, 24);
    int seen = 0;
    for (int q = 0; q < 6; q++) {
        quad qd;
        quad_of(&m, PASS_OPAQUE, q, &qd);
        seen |= 1 << qd.face;
        assert_int_equal(qd.tile, 2);
        assert_int_equal(qd.tint, 0);
        for (int i = 0; i < 4; i++) {
            if (qd.face == FACE_TOP) assert_int_equal(qd.c[i][1], 7);
            if (qd.face == FACE_BOTTOM) assert_int_equal(qd.c[i][1], 6);
            if (qd.face == FACE_RIGHT) assert_int_equal(qd.c[i][0], 6);
            if (qd.face == FACE_LEFT) assert_int_equal(qd.c[i][0], 5);
            if (qd.face == FACE_BACK) assert_int_equal(qd.c[i][2], 8);
            if (qd.face == FACE_FRONT) assert_int_equal(qd.c[i][2], 7);
        }
    }
    assert_int_equal(seen, 63);
    assert_ccw(&m);
    mesh_free(&m);
}

static void test_two_adjacent(void **state)
{
    (void)state;
    static const int dir[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    for (int d = 0; d < 3; d++) {
        vol_clear();
        vol_set(10, 10, 10, MAT_DIRT);
        vol_set(10 + dir[d][0], 10 + dir[d][1], 10 + dir[d][2], MAT_DIRT);
        assert_int_equal(faces_of_volume(), 10);
        chunk_mesh m = { 0 };
        mesh_build(&input, true, &m);
        assert_int_equal(m.quads, 6); /* the four long sides merge */
        mesh_free(&m);
    }
}

static void test_full_chunk(void **state)
{
    (void)state;
    memset(vol, MAT_STONE, sizeof vol);
    assert_int_equal(faces_of_volume(), 6 * 32 * 32);
    chunk_mesh m = { 0 };
    mesh_build(&input, true, &m);
    assert_int_equal(m.quads, 6);
    /* the corners reach 32 */
    int maxc = 0;
    for (int i = 0; i < m.pass[PASS_OPAQUE].count; i++) {
        uint32_t a = m.pass[PASS_OPAQUE].v[i].a;
        if ((int)(a & 63) > maxc) maxc = (int)(a & 63);
    }
    assert_int_equal(maxc, 32);
    assert_ccw(&m);
    mesh_free(&m);
}

static void test_empty_and_placeholder(void **state)
{
    (void)state;
    vol_clear();
    assert_int_equal(faces_of_volume(), 0);
    memset(vol, MAT_PLACEHOLDER, sizeof vol);
    assert_int_equal(faces_of_volume(), 0);
    /* a placeholder lets its neighbours show (it stands in for muskeg) */
    vol_set(3, 3, 3, MAT_STONE);
    assert_int_equal(faces_of_volume(), 6);
    chunk_mesh m = { 0 };
    mesh_build(&input, true, &m);
    for (int p = 0; p < PASS_COUNT; p++) assert_int_equal(m.pass[p].count, p == PASS_OPAQUE ? 24 : 0);
    mesh_free(&m);
}

static void test_chunk_borders(void **state)
{
    (void)state;
    world *w = world_create(2, 2, 1);
    assert_non_null(w);
    chunk_mesh m = { 0 };
    /* voxel on the +x border of chunk (0,0,0), solid neighbour in chunk (1,0,0) */
    world_set(w, 31, 5, 5, MAT_STONE);
    world_set(w, 32, 5, 5, MAT_STONE);
    mesh_gather(w, 0, 0, 0, &input);
    mesh_build(&input, false, &m);
    assert_int_equal(m.faces, 5);
    mesh_gather(w, 1, 0, 0, &input);
    mesh_build(&input, false, &m);
    assert_int_equal(m.faces, 5);
    /* an air neighbour shows the face */
    world_set(w, 32, 5, 5, MAT_AIR);
    mesh_gather(w, 0, 0, 0, &input);
    mesh_build(&input, false, &m);
    assert_int_equal(m.faces, 6);
    /* across y: the chunk above hides the top face */
    world_set(w, 10, 31, 10, MAT_SAND);
    world_set(w, 10, 32, 10, MAT_SAND);
    mesh_gather(w, 0, 0, 0, &input);
    mesh_build(&input, true, &m);
    assert_int_equal(m.faces, 6 + 5);
    /* the world's floor is bedrock: a voxel at y = 0 hides its bottom face;
     * the world's sides are air: a voxel at x = 0 shows its left face */
    world_clear(w);
    world_set(w, 0, 0, 4, MAT_DIRT);
    mesh_gather(w, 0, 0, 0, &input);
    mesh_build(&input, false, &m);
    assert_int_equal(m.faces, 5);
    for (int q = 0; q < m.pass[PASS_OPAQUE].count / 4; q++) {
        quad qd;
        quad_of(&m, PASS_OPAQUE, q, &qd);
        assert_int_not_equal(qd.face, FACE_BOTTOM);
    }
    /* the gathered border matches world_get everywhere, tint included */
    world_set(w, 32, 7, 3, MAT_GRASS);
    world_set_tint(w, 32, 7, 3, 9);
    world_set(w, 40, 32, 31, MAT_MUSKEG);
    for (int cy = 0; cy < 2; cy++)
        for (int cx = 0; cx < 2; cx++) {
            mesh_gather(w, cx, cy, 0, &input);
            for (int y = -1; y <= 32; y++)
                for (int z = -1; z <= 32; z++)
                    for (int x = -1; x <= 32; x++) {
                        int gx = cx * 32 + x, gy = cy * 32 + y, gz = z;
                        assert_int_equal(input.vox[MESH_PAD_INDEX(x, y, z)], world_get(w, gx, gy, gz));
                        assert_int_equal(input.tint[MESH_PAD_INDEX(x, y, z)], world_get_tint(w, gx, gy, gz));
                    }
        }
    mesh_free(&m);
    world_destroy(w);
}

static void test_uniform_world_interior(void **state)
{
    (void)state;
    world *w = world_create(3, 3, 3);
    assert_non_null(w);
    for (int i = 0; i < w->chunk_count; i++) memset(w->chunks[i].vox, MAT_STONE, CHUNK_VOLUME);
    chunk_mesh m = { 0 };
    mesh_gather(w, 1, 1, 1, &input);
    mesh_build(&input, true, &m);
    assert_int_equal(m.faces, 0);
    assert_int_equal(mesh_quads(&m), 0);
    /* the bottom corner chunk: bedrock below, stone above and at +x/+z;
     * only its -x and -z sides face the air outside the world */
    mesh_gather(w, 0, 0, 0, &input);
    mesh_build(&input, true, &m);
    assert_int_equal(m.faces, 2 * 32 * 32);
    assert_int_equal(m.quads, 2);
    mesh_free(&m);
    world_destroy(w);
}

static void test_translucent_and_cutout(void **state)
{
    (void)state;
    chunk_mesh m = { 0 };
    /* stone next to muskeg: stone's face drawn, muskeg's face toward stone not */
    vol_clear();
    vol_set(5, 5, 5, MAT_STONE);
    vol_set(6, 5, 5, MAT_MUSKEG);
    assert_int_equal(faces_of_volume(), 11);
    mesh_build(&input, false, &m);
    assert_int_equal(m.pass[PASS_OPAQUE].count / 4, 6);
    assert_int_equal(m.pass[PASS_TRANSLUCENT].count / 4, 5);
    assert_int_equal(m.pass[PASS_CUTOUT].count, 0);
    for (int q = 0; q < 5; q++) {
        quad qd;
        quad_of(&m, PASS_TRANSLUCENT, q, &qd);
        assert_int_not_equal(qd.face, FACE_LEFT);
        assert_int_equal(qd.tile, 24);
    }
    /* muskeg next to muskeg: no face between */
    vol_clear();
    vol_set(5, 5, 5, MAT_MUSKEG);
    vol_set(5, 5, 6, MAT_MUSKEG);
    assert_int_equal(faces_of_volume(), 10);
    /* a 3x3x3 bog shows only its hull */
    vol_clear();
    for (int y = 0; y < 3; y++)
        for (int z = 0; z < 3; z++)
            for (int x = 0; x < 3; x++) vol_set(10 + x, 10 + y, 10 + z, MAT_MUSKEG);
    assert_int_equal(faces_of_volume(), 54);
    mesh_build(&input, true, &m);
    assert_int_equal(m.pass[PASS_TRANSLUCENT].count / 4, 6);
    /* leaves go to the cutout pass and hide their neighbours like stone */
    vol_clear();
    vol_set(1, 1, 1, MAT_OAK_LEAVES);
    vol_set(1, 2, 1, MAT_FIR_LEAVES);
    vol_set(2, 1, 1, MAT_MUSKEG);
    /* two leaves hide each other's face; oak's face toward the bog is drawn,
     * the bog's face toward the oak is not */
    assert_int_equal(faces_of_volume(), 5 + 5 + 5);
    mesh_build(&input, false, &m);
    assert_int_equal(m.pass[PASS_CUTOUT].count / 4, 10);
    assert_int_equal(m.pass[PASS_TRANSLUCENT].count / 4, 5);
    assert_int_equal(m.pass[PASS_OPAQUE].count, 0);
    /* ids past the table read as Null: drawn, hiding neighbours */
    vol_clear();
    vol_set(4, 4, 4, 200);
    vol_set(4, 5, 4, MAT_STONE);
    assert_int_equal(faces_of_volume(), 10);
    mesh_free(&m);
}

/* --- greedy ------------------------------------------------------------------ */

static void test_greedy_plane(void **state)
{
    (void)state;
    vol_clear();
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 32; x++) vol_set(x, 0, z, MAT_GRASS);
    assert_int_equal(faces_of_volume(), 2 * 32 * 32 + 4 * 32);
    chunk_mesh g = { 0 }, p = { 0 };
    build_both(&input, &g, &p);
    assert_int_equal(g.quads, 6);
    int tops = 0;
    for (int q = 0; q < g.quads; q++) {
        quad qd;
        quad_of(&g, PASS_OPAQUE, q, &qd);
        if (qd.face == FACE_TOP) {
            tops++;
            assert_int_equal(qd.tile, 5);
        }
        if (qd.face == FACE_BOTTOM) assert_int_equal(qd.tile, 2);
        if (qd.face == FACE_LEFT) assert_int_equal(qd.tile, 4);
    }
    assert_int_equal(tops, 1);
    assert_same_faces(&g, &p);
    assert_ccw(&g);
    mesh_free(&g);
    mesh_free(&p);
}

static void test_greedy_tint_splits(void **state)
{
    (void)state;
    vol_clear();
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 32; x++) vol_set(x, 3, z, MAT_STONE);
    mesh_gather_volume(vol, &input);
    /* a face takes the tint of the cell it faces: the cells above and below */
    input.tint[MESH_PAD_INDEX(16, 4, 16)] = 7;
    input.tint[MESH_PAD_INDEX(16, 2, 16)] = 7;
    chunk_mesh g = { 0 }, p = { 0 };
    build_both(&input, &g, &p);
    int tops = 0, tinted = 0;
    for (int q = 0; q < g.quads; q++) {
        quad qd;
        quad_of(&g, PASS_OPAQUE, q, &qd);
        if (qd.face == FACE_TOP) tops++;
        if (qd.tint == 7) tinted++;
    }
    /* the voxel between the tinted cells is a quad of its own on top and
     * bottom; the rest of each plane splits around it */
    assert_true(tops > 1);
    assert_int_equal(tinted, 2);
    assert_same_faces(&g, &p);
    /* different materials with different tiles do not merge either */
    vol_set(0, 3, 0, MAT_DIRT);
    mesh_gather_volume(vol, &input);
    build_both(&input, &g, &p);
    assert_true(g.quads > 6);
    assert_same_faces(&g, &p);
    mesh_free(&g);
    mesh_free(&p);
}

static void fill_random(rng *r, int density_pct, bool with_tint)
{
    static const uint8_t mats[] = { MAT_STONE, MAT_DIRT, MAT_GRASS, MAT_MUSKEG, MAT_OAK_LEAVES, MAT_PLACEHOLDER,
                                    MAT_CACTUS, MAT_NULL };
    for (int i = 0; i < CHUNK_VOLUME; i++) {
        uint32_t v = (uint32_t)rng_next(r);
        /* mostly one or two materials so merges actually happen */
        uint8_t m = (v >> 8) % 100 < 70 ? MAT_STONE : mats[(v >> 16) % (sizeof mats)];
        vol[i] = (int)(v % 100) < density_pct ? m : MAT_AIR;
    }
    mesh_gather_volume(vol, &input);
    if (with_tint)
        for (int i = 0; i < CHUNK_VOLUME; i++)
            if ((uint32_t)rng_next(r) % 50 == 0) input.tint[MESH_PAD_INDEX(i & 31, i >> 10, (i >> 5) & 31)] = 3;
}

/* The face set straight from the definition: material_face_visible per voxel
 * and direction, with the tile, tint (the faced cell's) and pass a quad
 * should carry. */
static void reference_faces(const mesh_input *in, face_set *set)
{
    memset(set, 0, sizeof *set);
    for (int y = 0; y < 32; y++)
        for (int z = 0; z < 32; z++)
            for (int x = 0; x < 32; x++) {
                uint8_t self = in->vox[MESH_PAD_INDEX(x, y, z)];
                const material *m = material_get(self);
                if (m->pass == PASS_NONE) continue;
                for (int f = 0; f < FACE_COUNT; f++) {
                    const int *n = face_normal[f];
                    uint8_t nb = in->vox[MESH_PAD_INDEX(x + n[0], y + n[1], z + n[2])];
                    if (!material_face_visible(self, nb)) continue;
                    (*set)[f][CHUNK_INDEX(x, y, z)] = (uint32_t)(m->tile[f] + 1) |
                                                      (uint32_t)in->tint[MESH_PAD_INDEX(x + n[0], y + n[1], z + n[2])] << 8 |
                                                      (uint32_t)m->pass << 16;
                }
            }
}

static void test_culling_matches_definition(void **state)
{
    (void)state;
    rng r = rng_make(99);
    chunk_mesh m = { 0 };
    face_set *want = malloc(sizeof *want), *got = malloc(sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    for (int round = 0; round < 6; round++) {
        fill_random(&r, 20 + round * 15, round & 1);
        /* a non-air border exercises the padding on every side */
        for (int i = 0; i < MESH_PAD * MESH_PAD * MESH_PAD; i++) {
            int px = i % MESH_PAD, pz = (i / MESH_PAD) % MESH_PAD, py = i / (MESH_PAD * MESH_PAD);
            bool border = px == 0 || py == 0 || pz == 0 || px == MESH_PAD - 1 || py == MESH_PAD - 1 || pz == MESH_PAD - 1;
            if (border && round >= 2) input.vox[i] = (uint8_t)(rng_next(&r) % MAT_COUNT);
        }
        for (int greedy = 0; greedy < 2; greedy++) {
            mesh_build(&input, greedy, &m);
            reference_faces(&input, want);
            rasterise(&m, got);
            assert_memory_equal(want, got, sizeof *want);
            int count = 0;
            for (int f = 0; f < FACE_COUNT; f++)
                for (int i = 0; i < CHUNK_VOLUME; i++) count += (*want)[f][i] != 0;
            assert_int_equal(m.faces, count);
        }
    }
    free(want);
    free(got);
    mesh_free(&m);
}

static void test_greedy_covers_same_faces(void **state)
{
    (void)state;
    rng r = rng_make(1234);
    chunk_mesh g = { 0 }, p = { 0 };
    static const int density[] = { 5, 30, 60, 90, 99 };
    for (int round = 0; round < 10; round++) {
        fill_random(&r, density[round % 5], round >= 5);
        build_both(&input, &g, &p);
        assert_same_faces(&g, &p);
        assert_ccw(&g);
        assert_ccw(&p);
    }
    mesh_free(&g);
    mesh_free(&p);
}

static void test_winding_sphere_and_terrain(void **state)
{
    (void)state;
    vol_clear();
    for (int y = 0; y < 32; y++)
        for (int z = 0; z < 32; z++)
            for (int x = 0; x < 32; x++) {
                int dx = x - 16, dy = y - 16, dz = z - 16;
                if (dx * dx + dy * dy + dz * dz <= 15 * 15) vol_set(x, y, z, MAT_STONE);
            }
    chunk_mesh g = { 0 }, p = { 0 };
    mesh_gather_volume(vol, &input);
    build_both(&input, &g, &p);
    assert_ccw(&g);
    assert_same_faces(&g, &p);
    mesh_free(&g);
    mesh_free(&p);
}

static void test_checker_worst_case(void **state)
{
    (void)state;
    for (int y = 0; y < 32; y++)
        for (int z = 0; z < 32; z++)
            for (int x = 0; x < 32; x++) vol_set(x, y, z, ((x + y + z) & 1) ? MAT_AIR : MAT_STONE);
    /* 16384 solid voxels, none touching another by a face */
    assert_int_equal(faces_of_volume(), 16384 * 6);
    chunk_mesh m = { 0 };
    mesh_build(&input, true, &m);
    assert_int_equal(m.quads, 16384 * 6); /* nothing to merge */
    assert_ccw(&m);
    mesh_free(&m);
}

static void test_reuse_and_clear(void **state)
{
    (void)state;
    chunk_mesh m = { 0 };
    memset(vol, MAT_STONE, sizeof vol);
    mesh_gather_volume(vol, &input);
    mesh_build(&input, false, &m);
    mesh_vertex *before = m.pass[PASS_OPAQUE].v;
    int cap = m.pass[PASS_OPAQUE].cap;
    /* a smaller mesh reuses the buffer and replaces the old contents */
    vol_clear();
    vol_set(0, 0, 0, MAT_STONE);
    mesh_gather_volume(vol, &input);
    mesh_build(&input, true, &m);
    assert_ptr_equal(m.pass[PASS_OPAQUE].v, before);
    assert_int_equal(m.pass[PASS_OPAQUE].cap, cap);
    assert_int_equal(m.quads, 6);
    mesh_clear(&m);
    assert_int_equal(m.faces, 0);
    assert_int_equal(mesh_quads(&m), 0);
    mesh_free(&m);
    assert_null(m.pass[PASS_OPAQUE].v);
}

/* mesh_gather copies rows from whichever chunk holds them: the same bytes
 * as world_get and world_get_tint voxel by voxel over the padded cube, for
 * chunks inside a window that does not start at 0 (one side negative),
 * on its edges (the outside rule: air beside and above, bedrock below)
 * and with and without tints. */
static void test_gather_matches_world_get(void **state)
{
    (void)state;
    world *w = world_create_at(-1, 2, 3, 2, 3);
    assert_non_null(w);
    rng r = rng_make(5);
    const int x0 = world_x0(w), z0 = world_z0(w);
    for (int z = z0; z < z0 + w->sz; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = x0; x < x0 + w->sx; x++) {
                uint64_t b = rng_next(&r);
                world_set(w, x, y, z, (uint8_t)(b % 4 == 0 ? MAT_STONE : b % 4 == 1 ? MAT_OAK_LEAVES : MAT_AIR));
                if ((b >> 8) % 97 == 0 && (x >> CHUNK_BITS) != 0) world_set_tint(w, x, y, z, (uint8_t)(1 + (b >> 16) % 5));
            }
    static mesh_input got;
    for (int cz = -1; cz <= 3; cz++)
        for (int cy = 0; cy < 2; cy++)
            for (int cx = -2; cx <= 2; cx++) {
                mesh_gather(w, cx, cy, cz, &got);
                for (int y = -1; y <= CHUNK_SIZE; y++)
                    for (int z = -1; z <= CHUNK_SIZE; z++)
                        for (int x = -1; x <= CHUNK_SIZE; x++) {
                            const int gx = cx * CHUNK_SIZE + x, gy = cy * CHUNK_SIZE + y, gz = cz * CHUNK_SIZE + z;
                            assert_int_equal(got.vox[MESH_PAD_INDEX(x, y, z)], world_get(w, gx, gy, gz));
                            assert_int_equal(got.tint[MESH_PAD_INDEX(x, y, z)], world_get_tint(w, gx, gy, gz));
                        }
            }
    world_destroy(w);
}

/* mesh_world_chunks_lod skips the gather and the build of a chunk that is
 * all air: the same (empty) meshes as gathering and building each chunk,
 * for air chunks beside, above and below solid ones, with tinted air
 * inside one of them, and for the solid chunks around them. */
static void test_world_chunks_air_shortcut(void **state)
{
    (void)state;
    world *w = world_create(3, 3, 3);
    assert_non_null(w);
    rng r = rng_make(11);
    for (int z = 0; z < w->sz; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = 0; x < w->sx; x++) {
                int cx = x >> CHUNK_BITS, cy = y >> CHUNK_BITS, cz = z >> CHUNK_BITS;
                bool air = (cx == 1 && cz == 1) || cy == 2; /* a shaft of air chunks, and the sky */
                uint64_t b = rng_next(&r);
                if (!air) world_set(w, x, y, z, (uint8_t)(b % 3 ? MAT_STONE : MAT_OAK_LEAVES));
                else if (cy == 1 && b % 7 == 0) world_set_tint(w, x, y, z, (uint8_t)(1 + (b >> 8) % 5));
            }
    int idx[27];
    for (int i = 0; i < 27; i++) idx[i] = i;
    static chunk_mesh got[27], got_lod[27], want, want_lod;
    mesh_world_chunks_lod(w, NULL, idx, 27, true, got, got_lod);
    static mesh_input in;
    int empty = 0;
    for (int i = 0; i < 27; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, i, &cx, &cy, &cz);
        mesh_gather(w, cx, cy, cz, &in);
        mesh_build(&in, true, &want);
        mesh_lod_coarsen(&in);
        mesh_build(&in, true, &want_lod);
        empty += want.faces == 0;
        assert_int_equal(got[i].faces, want.faces);
        assert_int_equal(got[i].quads, want.quads);
        assert_int_equal(got_lod[i].faces, want_lod.faces);
        assert_int_equal(got_lod[i].quads, want_lod.quads);
        for (int p = 0; p < PASS_COUNT; p++) {
            assert_int_equal(got[i].pass[p].count, want.pass[p].count);
            assert_int_equal(got_lod[i].pass[p].count, want_lod.pass[p].count);
        }
    }
    assert_int_equal(empty, 11); /* the 9 sky chunks and the shaft's 2 below them */
    for (int i = 0; i < 27; i++) mesh_free(&got[i]), mesh_free(&got_lod[i]);
    mesh_free(&want), mesh_free(&want_lod);
    world_destroy(w);
}

/* The coarse level as mesh_lod.h says it, cell by cell with no shortcut:
 * the upper layer's most frequent non-air voxel (first seen wins a tie),
 * else the lower layer's, else air with tint 0, over the whole cell. */
static void coarsen_plain(mesh_input *in)
{
    for (int y = 0; y < CHUNK_SIZE; y += 2)
        for (int z = 0; z < CHUNK_SIZE; z += 2)
            for (int x = 0; x < CHUNK_SIZE; x += 2) {
                uint8_t m = MAT_AIR, t = 0;
                for (int dy = 1; dy >= 0 && m == MAT_AIR; dy--) {
                    int best_n = 0;
                    for (int k = 0; k < 4; k++) {
                        int i = MESH_PAD_INDEX(x + (k & 1), y + dy, z + (k >> 1));
                        if (in->vox[i] == MAT_AIR) continue;
                        int n = 0;
                        for (int j = 0; j < 4; j++) n += in->vox[MESH_PAD_INDEX(x + (j & 1), y + dy, z + (j >> 1))] == in->vox[i];
                        if (n > best_n) best_n = n, m = in->vox[i], t = in->tint[i];
                    }
                }
                for (int k = 0; k < 8; k++) {
                    int i = MESH_PAD_INDEX(x + (k & 1), y + (k >> 2), z + ((k >> 1) & 1));
                    in->vox[i] = m, in->tint[i] = t;
                }
            }
}

/* mesh_lod_coarsen skips runs of one material and one tint: the same
 * bytes as the plain coarsening, on layers of uniform runs (rock, air,
 * tinted air, tinted rock) and of mixed cells. */
static void test_lod_coarsen_plain(void **state)
{
    (void)state;
    static mesh_input a, b;
    rng r = rng_make(77);
    const uint8_t mats[] = { MAT_AIR, MAT_STONE, MAT_GRASS, MAT_OAK_LEAVES, MAT_DIRT };
    for (int trial = 0; trial < 6; trial++) {
        int kind = 0;
        uint8_t lm = MAT_AIR, lt = 0;
        for (int y = -1; y <= CHUNK_SIZE; y++) {
            /* a cell's two layers: one material and tint, or random voxels */
            if (y % 2 == 0 || y == -1) {
                kind = (int)(rng_next(&r) % 4);
                lm = mats[rng_next(&r) % 5], lt = (uint8_t)(rng_next(&r) % 3);
                if (y % 4 == 2) lm = MAT_AIR; /* air, tinted or not */
            }
            for (int z = -1; z <= CHUNK_SIZE; z++)
                for (int x = -1; x <= CHUNK_SIZE; x++) {
                    int i = MESH_PAD_INDEX(x, y, z);
                    bool mixed = kind == 0 || (kind == 1 && z == 9 && x == (int)(rng_next(&r) % 40));
                    a.vox[i] = mixed ? mats[rng_next(&r) % 5] : lm;
                    a.tint[i] = mixed ? (uint8_t)(rng_next(&r) % 3) : lt;
                }
        }
        b = a;
        mesh_lod_coarsen(&a);
        coarsen_plain(&b);
        assert_memory_equal(a.vox, b.vox, sizeof a.vox);
        assert_memory_equal(a.tint, b.tint, sizeof a.tint);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_voxel),
        cmocka_unit_test(test_two_adjacent),
        cmocka_unit_test(test_full_chunk),
        cmocka_unit_test(test_empty_and_placeholder),
        cmocka_unit_test(test_chunk_borders),
        cmocka_unit_test(test_uniform_world_interior),
        cmocka_unit_test(test_translucent_and_cutout),
        cmocka_unit_test(test_greedy_plane),
        cmocka_unit_test(test_greedy_tint_splits),
        cmocka_unit_test(test_culling_matches_definition),
        cmocka_unit_test(test_greedy_covers_same_faces),
        cmocka_unit_test(test_winding_sphere_and_terrain),
        cmocka_unit_test(test_checker_worst_case),
        cmocka_unit_test(test_reuse_and_clear),
        cmocka_unit_test(test_lod_coarsen_plain),
        cmocka_unit_test(test_gather_matches_world_get),
        cmocka_unit_test(test_world_chunks_air_shortcut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
