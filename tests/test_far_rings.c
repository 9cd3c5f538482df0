/* The far rings on the CPU (mesh/far_mesh.h, worldgen_stream_surface): the
 * rings nest wherever the player stands (each inside the next, its edges on
 * the next one's grid lines, the static holes covered by the ring inside);
 * the far field's heights are the generated columns' ground where the near
 * field takes over (ring 0's points round the near window's edge, every
 * kind that streams); the walls close every step between two rings; and the
 * curtain round the near field stands on every edge between a drawn and an
 * undrawn column, from ring 0's surface down, facing the drawn one, its top
 * on the surface also where ring 0's cells are coarser than a column. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/far_mesh.h"
#include "ui/cvar.h"
#include "voxel/material.h"
#include "worldgen/biomes.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

#define CY 4

static int setup(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    cvar_shutdown();
    return 0;
}

static void check_layout(float near, float far, int cells, double px, double pz)
{
    far_layout l;
    int n = far_layout_make(near, far, cells, px, pz, &l);
    assert_true(n >= 1);
    const far_ring *r0 = &l.ring[0];
    int b0[4];
    far_ring_box(r0, b0);
    /* ring 0 reaches past every near chunk (near + 44 from the eye) */
    assert_true(px - b0[0] >= near + 44 && b0[2] - px >= near + 44);
    assert_true(pz - b0[1] >= near + 44 && b0[3] - pz >= near + 44);
    /* its static hole lies inside the near disc */
    int mid = r0->n / 2;
    double hx0 = b0[0] + (double)(mid - r0->hole) * r0->cell, hx1 = b0[0] + (double)(mid + r0->hole) * r0->cell;
    double hz0 = b0[1] + (double)(mid - r0->hole) * r0->cell, hz1 = b0[1] + (double)(mid + r0->hole) * r0->cell;
    double cx = fmax(fabs(hx0 - px), fabs(hx1 - px)), cz = fmax(fabs(hz0 - pz), fabs(hz1 - pz));
    assert_true(sqrt(cx * cx + cz * cz) <= near);
    for (int k = 1; k < n; k++) {
        const far_ring *in = &l.ring[k - 1], *r = &l.ring[k];
        assert_int_equal(r->cell, 2 * in->cell);
        int bi[4], b[4];
        far_ring_box(in, bi);
        far_ring_box(r, b);
        assert_true(bi[0] >= b[0] && bi[1] >= b[1] && bi[2] <= b[2] && bi[3] <= b[3]);
        for (int q = 0; q < 4; q++) assert_int_equal(((bi[q] - b[q & 1]) % r->cell + r->cell) % r->cell, 0);
        /* ring k's static hole is inside ring k-1 */
        int m = r->n / 2;
        assert_true(b[0] + (m - r->hole) * r->cell >= bi[0] && b[0] + (m + r->hole) * r->cell <= bi[2]);
        assert_true(b[1] + (m - r->hole) * r->cell >= bi[1] && b[1] + (m + r->hole) * r->cell <= bi[3]);
    }
    assert_true(l.ring[n - 1].outer);
    assert_true((double)l.half_cells * l.ring[n - 1].cell >= far);
}

static void test_rings_nest_wherever_the_player_stands(void **state)
{
    (void)state;
    const double spots[][2] = { { 0, 0 }, { 200, 300 }, { -1234.5, 77.25 }, { 1e7 + 5, -1e7 - 9 }, { 15.9, 16.1 } };
    const float nears[] = { 64, 192, 512 };
    const int cells[] = { 8, 16, 32 };
    for (size_t s = 0; s < sizeof spots / sizeof spots[0]; s++)
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) check_layout(nears[a], 4096, cells[c], spots[s][0], spots[s][1]);
    far_layout l;
    assert_int_equal(far_layout_make(192, 192, 16, 0, 0, &l), 0); /* far within near: none */
}

static bool plant(uint8_t m)
{
    return m == MAT_OAK_LOG || m == MAT_FIR_LOG || m == MAT_OAK_LEAVES || m == MAT_FIR_LEAVES || m == MAT_CACTUS;
}

/* The generated ground at (x, z): the top voxel that is neither air nor a plant. */
static int near_ground(const world *col, int x, int z)
{
    for (int y = col->sy - 1; y > 0; y--) {
        uint8_t m = world_get(col, x, y, z);
        if (m != MAT_AIR && !plant(m)) return y;
    }
    return 0;
}

static void test_far_heights_match_the_columns_at_the_seam(void **state)
{
    (void)state;
    const char *kinds[] = { "hills", "desert", "taiga", "deciduous" };
    const double px = 200.5, pz = 300.5;
    const float near = 192;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        world *shape = world_create(1, CY, 1);
        char err[256];
        worldgen_stream *ws = worldgen_stream_create(worldgen_find(kinds[k]), 7, shape, err, sizeof err);
        assert_non_null(ws);
        far_layout l;
        far_layout_make(near, 4096, 16, px, pz, &l);
        const far_ring *r = &l.ring[0];
        /* ring 0's points in the band where the near field ends: from 32
         * inside its distance to the window's margin */
        int checked = 0, exact = 0, worst = 0;
        for (int j = 0; j <= r->n; j += 3)
            for (int i = 0; i <= r->n; i++) {
                int x = r->x0 + i * r->cell, z = r->z0 + j * r->cell;
                double d = hypot(x - px, z - pz);
                if (d < near - 32 || d > near + 64) continue;
                world *col = world_create_at(x >> CHUNK_BITS, z >> CHUNK_BITS, 1, CY, 1);
                assert_non_null(col);
                worldgen_stream_column(ws, col, x >> CHUNK_BITS, z >> CHUNK_BITS);
                int g = near_ground(col, x, z);
                world_destroy(col);
                worldgen_point p;
                worldgen_stream_surface(ws, x, z, r->cell, 1, 1, &p);
                int diff = abs(p.ground - g);
                assert_true(p.top >= p.ground);
                if (diff > worst) worst = diff;
                exact += diff == 0;
                checked++;
                assert_true(diff <= r->cell);
            }
        printf("%s: %d points of ring 0 (cells of %d) at the seam, %d exact, worst %d voxels off\n", kinds[k], checked,
               r->cell, exact, worst);
        assert_true(checked >= 20);
        assert_true(exact * 10 >= checked * 9);
        worldgen_stream_destroy(ws);
        world_destroy(shape);
    }
}

/* Ring k's height at a point of its grid line (straight between its vertices). */
static float ring_edge_height(const far_mesh *m, const far_ring *r, int x, int z)
{
    double fx = (double)(x - r->x0) / r->cell, fz = (double)(z - r->z0) / r->cell;
    int i = (int)floor(fx), j = (int)floor(fz), s = r->n + 1;
    const far_vertex *v = m->v;
    if (fx == i) { /* along z */
        float t = (float)(fz - j);
        return v[j * s + i].y + (v[(j + (t > 0)) * s + i].y - v[j * s + i].y) * t;
    }
    float t = (float)(fx - i);
    return v[j * s + i].y + (v[j * s + i + (t > 0)].y - v[j * s + i].y) * t;
}

static void build(const far_ring *r, worldgen_stream *ws, far_mesh *m)
{
    int s = r->n + 3;
    worldgen_point *p = malloc(sizeof *p * (size_t)s * (size_t)s);
    float *h = malloc(sizeof *h * (size_t)s * (size_t)s);
    uint8_t *mat = malloc((size_t)s * (size_t)s);
    worldgen_stream_surface(ws, r->x0 - r->cell, r->z0 - r->cell, r->cell, s, s, p);
    for (int i = 0; i < s * s; i++) h[i] = (float)p[i].top + 1.f, mat[i] = p[i].mat;
    assert_true(far_mesh_build(r, &(far_grid){ h, mat }, m));
    free(p);
    free(h);
    free(mat);
}

static void test_walls_close_every_step_between_rings(void **state)
{
    (void)state;
    world *shape = world_create(1, CY, 1);
    char err[256];
    worldgen_stream *ws = worldgen_stream_create(worldgen_find("desert"), 3, shape, err, sizeof err); /* mesas: steps */
    assert_non_null(ws);
    far_layout l;
    int n = far_layout_make(192, 2048, 16, -77.0, 1234.0, &l);
    far_mesh m[FAR_RING_MAX];
    for (int k = 0; k < n; k++) build(&l.ring[k], ws, &m[k]);
    int edges = 0, steps = 0;
    for (int k = 0; k + 1 < n; k++) {
        const far_ring *r = &l.ring[k];
        int s = r->n + 1;
        /* every vertex of ring k's outer edge: a wall spans from its height
         * to ring k+1's there */
        for (int u = 0; u < s; u++)
            for (int e = 0; e < 4; e++) {
                int i = e < 2 ? u : e == 2 ? 0 : r->n, j = e >= 2 ? u : e == 0 ? 0 : r->n;
                float hf = m[k].v[j * s + i].y;
                int x = r->x0 + i * r->cell, z = r->z0 + j * r->cell;
                float hc = ring_edge_height(&m[k + 1], &l.ring[k + 1], x, z);
                float lo = fminf(hf, hc), hi = fmaxf(hf, hc);
                bool covered = false;
                for (int q = s * s; q + 1 < m[k].nv && !covered; q++) {
                    const far_vertex *a = &m[k].v[q];
                    if (a->x != (float)(i * r->cell) || a->z != (float)(j * r->cell) || a->y < hi - 1e-3f) continue;
                    for (int t = s * s; t < m[k].nv && !covered; t++) {
                        const far_vertex *b = &m[k].v[t];
                        covered = b->x == a->x && b->z == a->z && b->y <= lo - r->cell + 1e-3f;
                    }
                }
                edges++;
                steps += hi - lo > 0.5f;
                assert_true(covered);
            }
    }
    printf("%d edge points between %d rings, %d of them a step the walls close\n", edges, n, steps);
    assert_true(steps > 0);
    for (int k = 0; k < n; k++) far_mesh_free(&m[k]);
    worldgen_stream_destroy(ws);
    world_destroy(shape);
}

/* A ring 0 of 16-voxel cells over a 6 x 6 mask with a plus of drawn
 * columns: one quad a cell along each of the plus's outer edges, none
 * inside it; tops on the surface, bottoms `drop` below, normals into the
 * drawn column; and no quad where ring 0 leaves its cells out. */
static void test_curtain_stands_on_the_near_fields_edge(void **state)
{
    (void)state;
    far_ring r = { .cell = 16, .x0 = -64, .z0 = -64, .n = 24, .hole = 0, .cut = 1e9f, .outer = false };
    int s = r.n + 1;
    float *h = malloc(sizeof(float) * (size_t)s * (size_t)s);
    uint8_t *mat = malloc((size_t)s * (size_t)s);
    assert_non_null(h);
    assert_non_null(mat);
    for (int j = 0; j < s; j++)
        for (int i = 0; i < s; i++) {
            h[j * s + i] = 40.f + (float)i + 2.f * (float)j; /* a slope: each point its own height */
            mat[j * s + i] = MAT_GRASS;
        }
    enum { MW = 6, MH = 6 };
    unsigned char mask[MW * MH] = { 0 };
    const int plus[5][2] = { { 2, 2 }, { 1, 2 }, { 3, 2 }, { 2, 1 }, { 2, 3 } };
    for (int k = 0; k < 5; k++) mask[plus[k][1] * MW + plus[k][0]] = 1;
    const int mx = 0, mz = 0; /* the mask's first column at the origin: grid point (4, 4) */
    const float drop = 40.f;
    int need = far_curtain_build(&r, h, mat, mask, MW, MH, mx, mz, drop, NULL, 0);
    /* the plus has 12 outer edges, two cells each, six vertices a quad */
    assert_int_equal(need, 12 * 2 * 6);
    far_vertex *v = malloc(sizeof *v * (size_t)need);
    assert_non_null(v);
    assert_int_equal(far_curtain_build(&r, h, mat, mask, MW, MH, mx, mz, drop, v, need), need);
    for (int q = 0; q < need / 6; q++) {
        const far_vertex *t = &v[6 * q];
        /* the quad's corners: ta ba bb / ta bb tb */
        const far_vertex *ta = &t[0], *ba = &t[1], *tb = &t[5];
        for (const far_vertex *p = t; p < t + 6; p++) {
            float gx = p->x / (float)r.cell, gz = p->z / (float)r.cell;
            assert_true(gx == floorf(gx) && gz == floorf(gz)); /* on grid points */
            float top = h[(int)gz * s + (int)gx];
            assert_true(p->y == top || p->y == top - drop);
        }
        assert_true(ta->y == h[(int)(ta->z / 16) * s + (int)(ta->x / 16)]);
        assert_true(ba->y == ta->y - drop);
        /* along an axis, one cell long */
        float ex = tb->x - ta->x, ez = tb->z - ta->z;
        assert_true(fabsf(ex) + fabsf(ez) == 16.f && (ex == 0.f || ez == 0.f));
        /* the normal faces into the drawn column the edge bounds */
        float nx = (float)(int8_t)(ta->info >> 16) / 127.f, nz = (float)(int8_t)(ta->info >> 24) / 127.f;
        assert_true(fabsf(nx) + fabsf(nz) == 1.f);
        float midx = 0.5f * (ta->x + tb->x) + (float)r.x0 + 4.f * nx, midz = 0.5f * (ta->z + tb->z) + (float)r.z0 + 4.f * nz;
        int cx = (int)floorf((midx - (float)mx) / 32.f), cz = (int)floorf((midz - (float)mz) / 32.f);
        assert_true(cx >= 0 && cz >= 0 && cx < MW && cz < MH && mask[cz * MW + cx]);
        float ox = midx - 8.f * nx, oz = midz - 8.f * nz; /* the other side: undrawn */
        int ux = (int)floorf((ox - (float)mx) / 32.f), uz = (int)floorf((oz - (float)mz) / 32.f);
        assert_false(ux >= 0 && uz >= 0 && ux < MW && uz < MH && mask[uz * MW + ux]);
    }
    /* ring 0 leaving out the cells round the plus (a static hole over it
     * all): no curtain stands where there is no surface to hang from */
    far_ring holed = r;
    holed.hole = 12;
    assert_int_equal(far_curtain_build(&holed, h, mat, mask, MW, MH, mx, mz, drop, NULL, 0), 0);
    free(v);
    free(h);
    free(mat);
}

/* The height the mesh's surface triangles (those of grid vertices only)
 * have at (x, z), found among them by barycentric coordinates: what the
 * rasterizer draws, independent of the curtain's own evaluation. */
static bool mesh_height(const far_mesh *m, int grid, float x, float z, float *y)
{
    for (int t = 0; t + 2 < m->ni; t += 3) {
        const uint32_t *k = &m->idx[t];
        if (k[0] >= (uint32_t)grid || k[1] >= (uint32_t)grid || k[2] >= (uint32_t)grid) continue;
        const far_vertex *a = &m->v[k[0]], *b = &m->v[k[1]], *c = &m->v[k[2]];
        float det = (b->z - c->z) * (a->x - c->x) + (c->x - b->x) * (a->z - c->z);
        if (det == 0.f) continue;
        float l0 = ((b->z - c->z) * (x - c->x) + (c->x - b->x) * (z - c->z)) / det;
        float l1 = ((c->z - a->z) * (x - c->x) + (a->x - c->x) * (z - c->z)) / det;
        float l2 = 1.f - l0 - l1;
        if (l0 < -1e-4f || l1 < -1e-4f || l2 < -1e-4f) continue;
        *y = l0 * a->y + l1 * b->y + l2 * c->y;
        return true;
    }
    return false;
}

/* A ring 0 of 64-voxel cells (coarser than a column) over an uneven
 * surface: every edge of the drawn columns that ring 0 draws past has a
 * curtain, pieces that cover it end to end, each piece's top on the mesh's
 * surface all along it (at its ends and seven points between: the surface
 * is straight along it, the pieces break where a cell's diagonal crosses
 * the edge). */
static void test_curtain_across_coarse_cells(void **state)
{
    (void)state;
    far_ring r = { .cell = 64, .x0 = -512, .z0 = -512, .n = 16, .hole = 0, .cut = 1e9f, .outer = true };
    int s = r.n + 1, gs = r.n + 3;
    float *g = malloc(sizeof(float) * (size_t)gs * (size_t)gs), *h = malloc(sizeof(float) * (size_t)s * (size_t)s);
    uint8_t *gm = malloc((size_t)gs * (size_t)gs), *mat = malloc((size_t)s * (size_t)s);
    assert_true(g && h && gm && mat);
    for (int k = 0; k < gs * gs; k++) {
        g[k] = 40.f + (float)((((uint32_t)k * 2654435761u) >> 13) % 37u); /* uneven: the cells' corners off one plane */
        gm[k] = MAT_GRASS;
    }
    for (int j = 0; j < s; j++)
        for (int i = 0; i < s; i++) h[j * s + i] = g[(j + 1) * gs + i + 1], mat[j * s + i] = MAT_GRASS;
    far_mesh m;
    assert_true(far_mesh_build(&r, &(far_grid){ g, gm }, &m));
    /* a 3 x 2 block of drawn columns whose edges lie at 0, half and a
     * quarter of a cell across */
    enum { MW = 6, MH = 5 };
    unsigned char mask[MW * MH] = { 0 };
    for (int z = 1; z <= 2; z++)
        for (int x = 1; x <= 3; x++) mask[z * MW + x] = 1;
    const int mx = -96, mz = -80;
    const float drop = 20.f;
    int need = far_curtain_build(&r, h, mat, mask, MW, MH, mx, mz, drop, NULL, 0);
    far_vertex *v = malloc(sizeof *v * (size_t)(need ? need : 1));
    assert_non_null(v);
    assert_int_equal(far_curtain_build(&r, h, mat, mask, MW, MH, mx, mz, drop, v, need), need);
    float length = 0.f, worst = 0.f;
    for (int q = 0; q < need / 6; q++) {
        const far_vertex *ta = &v[6 * q], *ba = &v[6 * q + 1], *tb = &v[6 * q + 5];
        assert_true(ba->y == ta->y - drop);
        for (int k = 0; k <= 8; k++) { /* its ends and seven points between */
            const float f = (float)k / 8.f;
            const float px = ta->x + f * (tb->x - ta->x), py = ta->y + f * (tb->y - ta->y), pz = ta->z + f * (tb->z - ta->z);
            float y = NAN;
            assert_true(mesh_height(&m, s * s, px, pz, &y));
            float e = fabsf(y - py);
            if (e > worst) worst = e;
        }
        length += fabsf(tb->x - ta->x) + fabsf(tb->z - ta->z);
    }
    printf("coarse cells: %d curtain quads, %.0f voxels of edge, the tops at most %.5f off the surface\n", need / 6,
           (double)length, (double)worst);
    assert_true(worst < 1e-3f);
    assert_true(length == 10.f * 32.f); /* the block's outline: 3 + 2 + 3 + 2 columns */
    assert_true(need / 6 > 10);         /* pieces shorter than a column: diagonals crossed */
    far_mesh_free(&m);
    free(v);
    free(g);
    free(h);
    free(gm);
    free(mat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rings_nest_wherever_the_player_stands),
        cmocka_unit_test(test_far_heights_match_the_columns_at_the_seam),
        cmocka_unit_test(test_walls_close_every_step_between_rings),
        cmocka_unit_test(test_curtain_stands_on_the_near_fields_edge),
        cmocka_unit_test(test_curtain_across_coarse_cells),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
