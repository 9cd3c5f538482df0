#include "mesh/far_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "voxel/chunk.h"
#include "voxel/material.h"

int far_layout_make(float near, float far, int half_cells, double px, double pz, far_layout *out)
{
    memset(out, 0, sizeof *out);
    if (!(far > near) || half_cells < 8) return 0;
    half_cells &= ~(FAR_TILE / 2 - 1); /* n = 2 half_cells: whole tiles */
    out->half_cells = half_cells;
    int c0 = 2;
    while ((float)(half_cells * c0) < near + 64.f && c0 < 1 << 16) c0 *= 2;
    for (int k = 0; k < FAR_RING_MAX; k++) {
        far_ring *r = &out->ring[k];
        int cell = c0 << k;
        double step = 2.0 * cell;
        /* the middle on a multiple of two cells: the ring inside (middle on
         * a multiple of this ring's cell, half side a multiple of it too)
         * then has its edges on this ring's grid lines */
        long long mx = (long long)floor(px / step + 0.5) * 2 * cell, mz = (long long)floor(pz / step + 0.5) * 2 * cell;
        r->cell = cell;
        r->n = 2 * half_cells;
        r->x0 = (int)(mx - (long long)half_cells * cell);
        r->z0 = (int)(mz - (long long)half_cells * cell);
        /* Ring k-1's middle is within 1.5 cells of ring k's, so it covers
         * half_cells / 2 - 2 cells round ring k's middle wherever the player
         * stands; ring 0 leaves out what the near field draws for certain:
         * the square whose corners stay within its disc with the middle up
         * to a cell off the player each way */
        int hole = k == 0 ? (int)floorf(near / (1.41422f * (float)cell) - 1.f) : half_cells / 2 - 2;
        r->hole = hole > half_cells - 2 ? half_cells - 2 : hole < 0 ? 0 : hole;
        r->cut = far + 1.5f * (float)cell;
        out->count = k + 1;
        /* the last ring's side reaches far from its middle; the cell it may
         * lie off the player is where the fog is full already */
        if ((float)(half_cells * cell) >= far) break;
    }
    out->ring[out->count - 1].outer = true;
    return out->count;
}

void far_ring_box(const far_ring *r, int box[4])
{
    box[0] = r->x0;
    box[1] = r->z0;
    box[2] = r->x0 + r->n * r->cell;
    box[3] = r->z0 + r->n * r->cell;
}

size_t far_mesh_bytes(int n)
{
    size_t verts = (size_t)(n + 1) * (size_t)(n + 1) + 16 * (size_t)(n + 1);
    size_t idx = 6 * (size_t)n * (size_t)n + 48 * (size_t)n;
    size_t tiles = (size_t)(n / FAR_TILE) * (size_t)(n / FAR_TILE + 4);
    return verts * sizeof(far_vertex) + idx * sizeof(uint32_t) + tiles * sizeof(far_tile);
}

void far_mesh_free(far_mesh *m)
{
    free(m->v);
    free(m->idx);
    free(m->tiles);
    memset(m, 0, sizeof *m);
}

static int8_t snorm8(float v)
{
    float c = v < -1.f ? -1.f : v > 1.f ? 1.f : v;
    return (int8_t)lrintf(c * 127.f);
}

uint32_t far_vertex_info(uint8_t mat, float nx, float nz)
{
    const material *m = material_get(mat);
    uint32_t top = m->tile[FACE_TOP], side = m->tile[FACE_LEFT];
    return top | side << 8 | (uint32_t)(uint8_t)snorm8(nx) << 16 | (uint32_t)(uint8_t)snorm8(nz) << 24;
}

typedef struct builder {
    far_mesh *m;
    far_tile *t;
} builder;

static void tile_grow(far_tile *t, const far_vertex *v)
{
    const float p[3] = { v->x, v->y, v->z };
    for (int k = 0; k < 3; k++) {
        if (p[k] < t->lo[k]) t->lo[k] = p[k];
        if (p[k] > t->hi[k]) t->hi[k] = p[k];
    }
}

static void tri(builder *b, uint32_t a, uint32_t c, uint32_t d)
{
    far_mesh *m = b->m;
    m->idx[m->ni++] = a;
    m->idx[m->ni++] = c;
    m->idx[m->ni++] = d;
    tile_grow(b->t, &m->v[a]);
    tile_grow(b->t, &m->v[c]);
    tile_grow(b->t, &m->v[d]);
    b->t->count += 3;
}

static uint32_t wall_vertex(far_mesh *m, const far_vertex *edge, float y)
{
    far_vertex v = *edge;
    v.y = y;
    m->v[m->nv] = v;
    return (uint32_t)m->nv++;
}

/* The outer wall under edge segment (a, b) of the grid: from the ring's
 * own edge to the next ring's, which has a vertex at every second one of
 * ours (even indices) and is straight between (hc), down to a skirt. */
static void wall(builder *b, uint32_t a, uint32_t c, float hca, float hcc, float skirt)
{
    far_mesh *m = b->m;
    far_vertex va = m->v[a], vc = m->v[c];
    uint32_t ta = wall_vertex(m, &va, fmaxf(va.y, hca)), tc = wall_vertex(m, &vc, fmaxf(vc.y, hcc));
    uint32_t ba = wall_vertex(m, &va, fminf(va.y, hca) - skirt), bc = wall_vertex(m, &vc, fminf(vc.y, hcc) - skirt);
    /* both windings: a wall closes the step whichever ring is higher */
    tri(b, ta, ba, bc);
    tri(b, ta, bc, tc);
    tri(b, ta, bc, ba);
    tri(b, ta, tc, bc);
}

/* Grid vertex u along outer edge e (0: z = 0, 1: z = n, 2: x = 0, 3: x = n). */
static uint32_t edge_vertex(int n, int e, int u)
{
    int i = e < 2 ? u : e == 2 ? 0 : n, j = e >= 2 ? u : e == 0 ? 0 : n;
    return (uint32_t)(j * (n + 1) + i);
}

/* The next ring's edge at our vertex u: it has a vertex at every second
 * one of ours (even u) and is straight between. */
static float coarse_height(const far_mesh *m, int n, int e, int u)
{
    if (!(u & 1)) return m->v[edge_vertex(n, e, u)].y;
    return 0.5f * (m->v[edge_vertex(n, e, u - 1)].y + m->v[edge_vertex(n, e, u + 1)].y);
}

static bool cell_drawn(const far_ring *r, int i, int j)
{
    int half = r->n / 2;
    if (i >= half - r->hole && i < half + r->hole && j >= half - r->hole && j < half + r->hole) return false;
    /* the cell's nearest point to the middle */
    float c = (float)r->cell;
    float dx = i >= half ? (float)(i - half) * c : (float)(half - i - 1) * c;
    float dz = j >= half ? (float)(j - half) * c : (float)(half - j - 1) * c;
    return dx * dx + dz * dz <= r->cut * r->cut;
}

bool far_mesh_build(const far_ring *r, const far_grid *g, far_mesh *out)
{
    memset(out, 0, sizeof *out);
    int n = r->n, s = n + 3, tn = n / FAR_TILE;
    far_mesh m = { 0 };
    m.v = malloc(sizeof(far_vertex) * ((size_t)(n + 1) * (size_t)(n + 1) + 16 * (size_t)(n + 1)));
    m.idx = malloc(sizeof(uint32_t) * (6 * (size_t)n * (size_t)n + 48 * (size_t)n));
    m.tiles = calloc((size_t)tn * (size_t)tn + 4 * (size_t)tn, sizeof(far_tile));
    if (!m.v || !m.idx || !m.tiles) {
        far_mesh_free(&m);
        return false;
    }
    float c = (float)r->cell;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            int p = (j + 1) * s + (i + 1);
            /* the normal of the height field by central differences */
            float dx = (g->h[p + 1] - g->h[p - 1]) / (2.f * c), dz = (g->h[p + s] - g->h[p - s]) / (2.f * c);
            float len = sqrtf(dx * dx + 1.f + dz * dz);
            m.v[m.nv++] = (far_vertex){ (float)i * c, g->h[p], (float)j * c, far_vertex_info(g->mat[p], -dx / len, -dz / len) };
        }
    float skirt = c;
    for (int tj = 0; tj < tn; tj++)
        for (int ti = 0; ti < tn; ti++) {
            far_tile *t = &m.tiles[m.ntiles++];
            *t = (far_tile){ (uint32_t)m.ni, 0, { INFINITY, INFINITY, INFINITY }, { -INFINITY, -INFINITY, -INFINITY } };
            builder b = { &m, t };
            for (int j = tj * FAR_TILE; j < (tj + 1) * FAR_TILE; j++)
                for (int i = ti * FAR_TILE; i < (ti + 1) * FAR_TILE; i++) {
                    if (!cell_drawn(r, i, j)) continue;
                    uint32_t a = (uint32_t)(j * (n + 1) + i), bb = a + 1, d = a + (uint32_t)(n + 1), cc = d + 1;
                    tri(&b, a, cc, bb); /* counter-clockwise seen from above */
                    tri(&b, a, d, cc);
                }
        }
    if (!r->outer) {
        /* the outer edges' walls, in tiles of their own along each edge */
        for (int e = 0; e < 4; e++)
            for (int piece = 0; piece < tn; piece++) {
                far_tile *t = &m.tiles[m.ntiles++];
                *t = (far_tile){ (uint32_t)m.ni, 0, { INFINITY, INFINITY, INFINITY }, { -INFINITY, -INFINITY, -INFINITY } };
                builder b = { &m, t };
                for (int u = piece * FAR_TILE; u < (piece + 1) * FAR_TILE; u++) {
                    int ci = e < 2 ? u : e == 2 ? 0 : n - 1, cj = e >= 2 ? u : e == 0 ? 0 : n - 1;
                    if (!cell_drawn(r, ci, cj)) continue;
                    uint32_t a = edge_vertex(n, e, u), z = edge_vertex(n, e, u + 1);
                    wall(&b, a, z, coarse_height(&m, n, e, u), coarse_height(&m, n, e, u + 1), skirt);
                }
            }
    }
    *out = m;
    return true;
}

/* The height ring r draws at (x, z), relative to its first grid point:
 * on the cell's two triangles, split from its first corner to the
 * opposite one as far_mesh_build splits them; *nearest the grid point
 * nearest (x, z). */
static float surface_at(const far_ring *r, const float *h, float x, float z, int *nearest)
{
    const int s = r->n + 1;
    const float c = (float)r->cell;
    int i = (int)floorf(x / c), j = (int)floorf(z / c);
    i = i < 0 ? 0 : i > r->n - 1 ? r->n - 1 : i;
    j = j < 0 ? 0 : j > r->n - 1 ? r->n - 1 : j;
    const float u = x / c - (float)i, v = z / c - (float)j;
    const float ha = h[j * s + i], hb = h[j * s + i + 1], hd = h[(j + 1) * s + i], hc = h[(j + 1) * s + i + 1];
    *nearest = (j + (v >= 0.5f)) * s + i + (u >= 0.5f);
    /* (a, c, b) holds u >= v, (a, d, c) the rest */
    return u >= v ? ha + u * (hb - ha) + v * (hc - hb) : ha + v * (hd - ha) + u * (hc - hd);
}

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* One curtain quad along an edge from (x0, z0) to (x1, z1) (relative to
 * ring r's first grid point) over which its surface is straight, facing
 * (nx, nz). */
static void curtain_quad(const far_ring *r, const float *h, const uint8_t *mat, float x0, float z0, float x1, float z1,
                         float nx, float nz, float drop, far_vertex *out, int cap, int *nv)
{
    int p0, p1;
    const float y0 = surface_at(r, h, x0, z0, &p0), y1 = surface_at(r, h, x1, z1, &p1);
    const far_vertex ta = { x0, y0, z0, far_vertex_info(mat[p0], nx, nz) };
    const far_vertex tb = { x1, y1, z1, far_vertex_info(mat[p1], nx, nz) };
    far_vertex ba = ta, bb = tb;
    ba.y -= drop;
    bb.y -= drop;
    const far_vertex q[6] = { ta, ba, bb, ta, bb, tb };
    for (int k = 0; k < 6; k++, (*nv)++)
        if (*nv < cap) out[*nv] = q[k];
}

int far_curtain_build(const far_ring *r, const float *h, const uint8_t *mat, const unsigned char *mask, int mw, int mh,
                      int mx, int mz, float drop, far_vertex *out, int cap)
{
    int nv = 0;
    const int c = r->cell;
    if (c < 1) return 0;
    static const int dir[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };
    /* an edge's breaks: its ends, the grid lines across it and where each
     * cell's diagonal crosses it; the surface is straight between two */
    float t[2 * CHUNK_SIZE + 4];
    for (int z = 0; z < mh; z++)
        for (int x = 0; x < mw; x++) {
            if (!mask[z * mw + x]) continue;
            for (int d = 0; d < 4; d++) {
                int ox = x + dir[d][0], oz = z + dir[d][1];
                if (ox >= 0 && oz >= 0 && ox < mw && oz < mh && mask[oz * mw + ox]) continue; /* drawn both sides */
                /* the edge's first point (relative to the ring) and its direction along it */
                const int ex = mx + (x + (dir[d][0] > 0)) * CHUNK_SIZE - r->x0;
                const int ez = mz + (z + (dir[d][1] > 0)) * CHUNK_SIZE - r->z0;
                const int ai = dir[d][0] ? 0 : 1, aj = dir[d][0] ? 1 : 0;
                const int along = ai ? ex : ez, across = ai ? ez : ex;
                /* the diagonal u = v: where the coordinate along the edge,
                 * within its cell, equals the one across it */
                const int diag = ((across % c) + c) % c;
                int nt = 0;
                t[nt++] = 0.f;
                t[nt++] = (float)CHUNK_SIZE;
                for (int k = (int)floor((double)along / c); (long)k * c < (long)along + CHUNK_SIZE; k++)
                    for (int e = 0; e < 2; e++) {
                        long p = (long)k * c + (e ? diag : 0) - along;
                        if (p > 0 && p < CHUNK_SIZE && nt < (int)(sizeof t / sizeof *t)) t[nt++] = (float)p;
                    }
                qsort(t, (size_t)nt, sizeof *t, by_value);
                for (int k = 0; k + 1 < nt; k++) {
                    if (t[k + 1] <= t[k]) continue; /* a break counted twice */
                    const float x0 = (float)ex + (float)ai * t[k], z0 = (float)ez + (float)aj * t[k];
                    const float x1 = (float)ex + (float)ai * t[k + 1], z1 = (float)ez + (float)aj * t[k + 1];
                    const float span = (float)(r->n * c);
                    if (fminf(x0, x1) < 0.f || fminf(z0, z1) < 0.f || fmaxf(x0, x1) > span || fmaxf(z0, z1) > span) continue;
                    /* the ring's cell on the undrawn side of this piece */
                    const float qx = 0.5f * (x0 + x1) + 0.25f * (float)dir[d][0], qz = 0.5f * (z0 + z1) + 0.25f * (float)dir[d][1];
                    const int ci = (int)floorf(qx / (float)c), cj = (int)floorf(qz / (float)c);
                    if (ci < 0 || cj < 0 || ci >= r->n || cj >= r->n || !cell_drawn(r, ci, cj)) continue;
                    /* facing back into the drawn column */
                    curtain_quad(r, h, mat, x0, z0, x1, z1, (float)-dir[d][0], (float)-dir[d][1], drop, out, cap, &nv);
                }
            }
        }
    return nv;
}
