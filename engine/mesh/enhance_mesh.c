/* enhance_mesh: dense fragment grid with a one-fragment border, visible
 * faces as bit rows (solid & ~neighbour), then greedy rectangles grown
 * from each visible face: along one in-plane axis while the material
 * holds, then along the other while the whole run does. */
#include "mesh/enhance_mesh.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"

typedef struct grid {
    int f, n, m, w; /* factor, rows with border (32F + 2), rows without (32F), words per row */
    uint64_t *g;    /* [(y + 1) * n + (z + 1)] rows, bit x + 1 */
    uint64_t *vis;  /* [(y + 1) * n + (z + 1)] rows, bit x + 1 */
    const enhance_input *in;
    uint16_t key[CHUNK_VOLUME];
} grid;

static inline uint64_t *grow(const grid *G, int y, int z) { return G->g + ((size_t)(y + 1) * (size_t)G->n + (size_t)(z + 1)) * (size_t)G->w; }
static inline void set_bit(uint64_t *row, int x) { row[(x + 1) >> 6] |= 1ull << ((x + 1) & 63); }
static inline uint64_t *vrow(const grid *G, int y, int z) { return G->vis + ((size_t)(y + 1) * (size_t)G->n + (size_t)(z + 1)) * (size_t)G->w; }
static inline bool vis_test(const grid *G, int x, int y, int z)
{
    if (x < -1 || y < -1 || z < -1 || x > G->m || y > G->m || z > G->m) return false;
    return (vrow(G, y, z)[(x + 1) >> 6] >> ((x + 1) & 63)) & 1u;
}
static inline void vis_clear(grid *G, int x, int y, int z)
{
    vrow(G, y, z)[(x + 1) >> 6] &= ~(1ull << ((x + 1) & 63));
}
/* Material and tint of a fragment's voxel; border fragments (faces of an
 * open neighbour) take the neighbour voxel's own. */
static inline uint16_t key_at(const grid *G, int x, int y, int z)
{
    int f = G->f, vx = (x + f) / f - 1, vy = (y + f) / f - 1, vz = (z + f) / f - 1;
    if (vx >= 0 && vy >= 0 && vz >= 0 && vx < CHUNK_SIZE && vy < CHUNK_SIZE && vz < CHUNK_SIZE)
        return G->key[CHUNK_INDEX(vx, vy, vz)];
    int i = ENHANCE_IN_INDEX(vx, vy, vz);
    return (uint16_t)(G->in->vox[i] | G->in->tint[i] << 8);
}

static const enhance_voxel *find_voxel(const enhance_chunk *c, int idx)
{
    int lo = 0, hi = c->count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->vox[mid].index == idx) return &c->vox[mid];
        if (c->vox[mid].index < idx)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

/* A fragment just outside the chunk (chunk-local fragment coordinates). */
static bool border_fragment(const grid *G, const enhance_input *in, const enhance_chunk *nb, int fx, int fy, int fz)
{
    int f = G->f;
    int vx = (fx + f) / f - 1, vy = (fy + f) / f - 1, vz = (fz + f) / f - 1; /* floor for fx >= -f */
    if (nb) {
        const enhance_voxel *v = find_voxel(nb, CHUNK_INDEX(vx & CHUNK_MASK, vy & CHUNK_MASK, vz & CHUNK_MASK));
        if (v) {
            int lx = fx - vx * f, ly = fy - vy * f, lz = fz - vz * f;
            return (nb->rows[v->row + (uint32_t)(ly * f + lz)] >> lx) & 1u;
        }
    }
    return enhance_solid(in->vox[ENHANCE_IN_INDEX(vx, vy, vz)]);
}

static void fill(grid *G, const enhance_chunk *c, const enhance_input *in, const enhance_chunk *const nb[6])
{
    int f = G->f, m = G->m;
    uint16_t full = (uint16_t)((1u << f) - 1u);
    uint16_t solid_rows[ENHANCE_MAX_FACTOR * ENHANCE_MAX_FACTOR];
    for (int i = 0; i < f * f; i++) solid_rows[i] = full;
    int next = 0; /* listed voxels come in index order, as this walk does */
    for (int y = 0; y < CHUNK_SIZE; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                int idx = CHUNK_INDEX(x, y, z);
                const uint16_t *rows;
                uint8_t vox = in->vox[ENHANCE_IN_INDEX(x, y, z)];
                if (next < c->count && c->vox[next].index == idx) {
                    const enhance_voxel *v = &c->vox[next++];
                    rows = c->rows + v->row;
                    G->key[idx] = (uint16_t)(v->material | v->tint << 8);
                } else if (enhance_solid(vox)) {
                    rows = solid_rows;
                    G->key[idx] = (uint16_t)(vox | in->tint[ENHANCE_IN_INDEX(x, y, z)] << 8);
                } else {
                    G->key[idx] = 0;
                    continue;
                }
                for (int fy = 0; fy < f; fy++)
                    for (int fz = 0; fz < f; fz++) {
                        uint64_t r = rows[fy * f + fz];
                        if (!r) continue;
                        uint64_t *row = grow(G, y * f + fy, z * f + fz);
                        int bit = x * f + 1; /* f <= 16 and 16-aligned: never straddles a word */
                        row[bit >> 6] |= r << (bit & 63);
                        if ((bit & 63) + f > 64) row[(bit >> 6) + 1] |= r >> (64 - (bit & 63));
                    }
            }
    /* the border layer from the neighbours */
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            if (border_fragment(G, in, nb[FACE_LEFT], -1, a, b)) set_bit(grow(G, a, b), -1);
            if (border_fragment(G, in, nb[FACE_RIGHT], m, a, b)) set_bit(grow(G, a, b), m);
            if (border_fragment(G, in, nb[FACE_BOTTOM], a, -1, b)) set_bit(grow(G, -1, b), a);
            if (border_fragment(G, in, nb[FACE_TOP], a, m, b)) set_bit(grow(G, m, b), a);
            if (border_fragment(G, in, nb[FACE_FRONT], a, b, -1)) set_bit(grow(G, b, -1), a);
            if (border_fragment(G, in, nb[FACE_BACK], a, b, m)) set_bit(grow(G, b, m), a);
        }
}

static bool push_quad(enhance_mesh *out, int face, const int c0[3], const int ext[3], uint16_t key)
{
    static const int u_ax[6] = { 0, 1, 2, 0, 2, 1 }, v_ax[6] = { 1, 0, 0, 2, 1, 2 };
    if (out->count + 4 > out->cap) {
        int cap = out->cap ? out->cap * 2 : 4096;
        enhance_vertex *nv = realloc(out->v, sizeof *nv * (size_t)cap);
        if (!nv) return false;
        out->v = nv;
        out->cap = cap;
    }
    int u = u_ax[face], v = v_ax[face];
    int p[4][3];
    for (int k = 0; k < 4; k++) memcpy(p[k], c0, sizeof p[k]);
    p[1][u] += ext[u];
    p[2][u] += ext[u];
    p[2][v] += ext[v];
    p[3][v] += ext[v];
    uint32_t b = (uint32_t)key | (uint32_t)face << 16;
    for (int k = 0; k < 4; k++)
        out->v[out->count++] = (enhance_vertex){ (uint32_t)p[k][0] | (uint32_t)p[k][1] << 10 | (uint32_t)p[k][2] << 20, b };
    out->quads++;
    return true;
}

/* Visible faces of one direction into G->vis, then greedy rectangles.
 * Faces of this chunk's fragments, plus, toward an open neighbour, the
 * faces of the neighbour's voxels that look into this chunk. */
static void faces(grid *G, int face, unsigned open, enhance_mesh *out)
{
    int m = G->m, w = G->w;
    int n_ax = face == FACE_LEFT || face == FACE_RIGHT ? 0 : face == FACE_TOP || face == FACE_BOTTOM ? 1 : 2;
    int dir = face_normal[face][n_ax];
    /* the open side whose border layer shows faces in this direction */
    int side_face = n_ax == 0 ? (dir > 0 ? FACE_LEFT : FACE_RIGHT)
                  : n_ax == 1 ? (dir > 0 ? FACE_BOTTOM : FACE_TOP) : (dir > 0 ? FACE_FRONT : FACE_BACK);
    bool border = (open >> side_face) & 1u;
    bool out_open = (open >> face) & 1u; /* this chunk's faces toward an open side show */
    int border_at = dir > 0 ? -1 : m;
    for (int y = -1; y <= m; y++)
        for (int z = -1; z <= m; z++) {
            uint64_t *v = vrow(G, y, z);
            bool yin = y >= 0 && y < m, zin = z >= 0 && z < m;
            bool eligible = (yin && zin) || (border && n_ax == 1 && zin && y == border_at) ||
                            (border && n_ax == 2 && yin && z == border_at);
            if (!eligible) {
                memset(v, 0, sizeof *v * (size_t)w);
                continue;
            }
            const uint64_t *g = grow(G, y, z);
            if (n_ax == 0) {
                for (int i = 0; i < w; i++) {
                    /* neighbour at x + dir: shift the row against dir */
                    uint64_t nbr = dir > 0 ? (g[i] >> 1) | (i + 1 < w ? g[i + 1] << 63 : 0)
                                           : (g[i] << 1) | (i > 0 ? g[i - 1] >> 63 : 0);
                    if (out_open) {
                        int edge = dir > 0 ? m : 1; /* the neighbour bit of the last fragment */
                        if ((edge >> 6) == i) nbr &= ~(1ull << (edge & 63));
                    }
                    v[i] = g[i] & ~nbr;
                }
            } else {
                int ny = n_ax == 1 ? y + dir : y, nz = n_ax == 2 ? z + dir : z;
                bool beyond = (n_ax == 1 ? (ny == -1 || ny == m) : (nz == -1 || nz == m)) && (yin && zin);
                const uint64_t *nb = grow(G, ny, nz);
                for (int i = 0; i < w; i++) v[i] = out_open && beyond ? g[i] : g[i] & ~nb[i];
            }
            /* only bits of this chunk's fragments (and the open border's) */
            uint64_t keep_lo = v[0] & 1ull;
            int hi = m + 1;
            uint64_t keep_hi = (v[hi >> 6] >> (hi & 63)) & 1ull;
            v[0] &= ~1ull;
            v[hi >> 6] &= (1ull << (hi & 63)) - 1;
            for (int i = (hi >> 6) + 1; i < w; i++) v[i] = 0;
            if (n_ax == 0 && border && dir > 0) v[0] |= keep_lo;
            if (n_ax == 0 && border && dir < 0) v[hi >> 6] |= keep_hi << (hi & 63);
        }
    /* run axis a, grow axis b (in-plane) */
    int a = n_ax == 0 ? 2 : 0, b = n_ax == 1 ? 2 : 1;
    for (int y = -1; y <= m; y++)
        for (int z = -1; z <= m; z++) {
            uint64_t *v = vrow(G, y, z);
            for (int i = 0; i < w; i++)
                while (v[i]) {
                    int x = i * 64 + __builtin_ctzll(v[i]) - 1;
                    int p[3] = { x, y, z };
                    uint16_t key = key_at(G, x, y, z);
                    out->faces++;
                    int len = 1, ht = 1;
                    for (;;) {
                        int q[3] = { p[0], p[1], p[2] };
                        q[a] += len;
                        if (!vis_test(G, q[0], q[1], q[2]) || key_at(G, q[0], q[1], q[2]) != key) break;
                        len++;
                    }
                    for (;;) {
                        int q[3] = { p[0], p[1], p[2] };
                        q[b] += ht;
                        bool ok = true;
                        for (int k = 0; k < len && ok; k++) {
                            int r[3] = { q[0], q[1], q[2] };
                            r[a] += k;
                            ok = vis_test(G, r[0], r[1], r[2]) && key_at(G, r[0], r[1], r[2]) == key;
                        }
                        if (!ok) break;
                        ht++;
                    }
                    for (int j = 0; j < ht; j++)
                        for (int k = 0; k < len; k++) {
                            int r[3] = { p[0], p[1], p[2] };
                            r[a] += k;
                            r[b] += j;
                            vis_clear(G, r[0], r[1], r[2]);
                        }
                    out->faces += (long)len * ht - 1;
                    int c0[3] = { p[0], p[1], p[2] }, ext[3] = { 0, 0, 0 };
                    if (dir > 0) c0[n_ax] += 1;
                    ext[a] = len;
                    ext[b] = ht;
                    if (!push_quad(out, face, c0, ext, key)) {
                        log_error("enhance_mesh: out of memory");
                        return;
                    }
                }
        }
}

void enhance_mesh_build(const enhance_chunk *c, const enhance_input *in, const enhance_chunk *const nb[6],
                        unsigned open, enhance_mesh *out)
{
    out->count = 0;
    out->faces = 0;
    out->quads = 0;
    grid *G = calloc(1, sizeof *G);
    if (!G) {
        log_error("enhance_mesh: out of memory");
        return;
    }
    G->f = c->factor;
    G->m = CHUNK_SIZE * G->f;
    G->n = G->m + 2;
    G->w = (G->n + 63) / 64;
    G->g = calloc((size_t)G->n * (size_t)G->n * (size_t)G->w, sizeof *G->g);
    G->vis = malloc((size_t)G->n * (size_t)G->n * (size_t)G->w * sizeof *G->vis);
    G->in = in;
    if (!G->g || !G->vis) {
        log_error("enhance_mesh: out of memory for a %d^3 fragment grid", G->n);
    } else {
        fill(G, c, in, nb);
        for (int face = 0; face < FACE_COUNT; face++) faces(G, face, open, out);
    }
    free(G->g);
    free(G->vis);
    free(G);
}

void enhance_mesh_free(enhance_mesh *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}
