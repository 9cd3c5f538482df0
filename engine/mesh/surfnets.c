#include "mesh/surfnets.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Why it is fast (DESIGN: rows over voxels, bitmasks over bytes):
 *  - one pass turns the field into sign bitmasks, 64 samples of a row per
 *    word; a cell row's active cells are then a few word operations over
 *    four sample rows (OR/AND of the rows, shifted by one for x+1), so
 *    homogeneous runs of cells (most of a field) cost nothing: the loop
 *    visits set bits only;
 *  - vertex sharing goes through a two-slice lookup table (this z slice of
 *    cells and the one before), the only cells a quad can reach;
 *  - per active cell, a 256-entry table gives its sign-changing edges, so
 *    the crossing sum visits only those. */

const uint8_t surfnets_edge_corners[12][2] = {
    { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 }, /* along x */
    { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 }, /* along y */
    { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 }, /* along z */
};

static uint16_t g_edge_table[256];
static bool g_table_ready;

static void init_table(void)
{
    if (g_table_ready) return;
    for (int m = 0; m < 256; m++) {
        uint16_t e = 0;
        for (int i = 0; i < 12; i++) {
            int a = surfnets_edge_corners[i][0], b = surfnets_edge_corners[i][1];
            if (((m >> a) & 1) != ((m >> b) & 1)) e |= (uint16_t)(1u << i);
        }
        g_edge_table[m] = e;
    }
    g_table_ready = true; /* idempotent: racing initialisers write the same values */
}

static bool field_ok(const surfnets_field *f)
{
    return f && f->d && f->nx >= 2 && f->ny >= 2 && f->nz >= 2 && f->nx <= SURFNETS_MAX_SAMPLES &&
           f->ny <= SURFNETS_MAX_SAMPLES && f->nz <= SURFNETS_MAX_SAMPLES;
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 1024;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q) return false;
    *p = q;
    *cap = n;
    return true;
}

/* Sign bitmask of every sample row (y, z): bit x set when inside. */
static bool build_masks(const surfnets_field *f, surfnets_mesh *m, int words)
{
    size_t rows = (size_t)f->ny * (size_t)f->nz;
    if (!grow((void **)&m->masks, &m->masks_cap, rows * (size_t)words, sizeof *m->masks)) return false;
    for (size_t r = 0; r < rows; r++) {
        const float *p = f->d + r * (size_t)f->nx;
        uint64_t *out = m->masks + r * (size_t)words;
        for (int w = 0; w < words; w++) {
            int x0 = w * 64, n = f->nx - x0 < 64 ? f->nx - x0 : 64;
            uint64_t bits = 0;
            for (int b = 0; b < n; b++) bits |= (uint64_t)(p[x0 + b] < 0.f) << b;
            out[w] = bits;
        }
    }
    return true;
}

/* Active cells of cell row (y, z), word w: bit x set when the cell's eight
 * corners are not all the same sign. */
static inline uint64_t active_word(const uint64_t *r00, const uint64_t *r10, const uint64_t *r01,
                                   const uint64_t *r11, int w, int words, int cells_x)
{
    uint64_t o = r00[w] | r10[w] | r01[w] | r11[w];
    uint64_t a = r00[w] & r10[w] & r01[w] & r11[w];
    uint64_t on = 0, an = 0;
    if (w + 1 < words) {
        on = r00[w + 1] | r10[w + 1] | r01[w + 1] | r11[w + 1];
        an = r00[w + 1] & r10[w + 1] & r01[w + 1] & r11[w + 1];
    }
    uint64_t o1 = (o >> 1) | (on << 63), a1 = (a >> 1) | (an << 63);
    uint64_t act = (o | o1) & ~(a & a1);
    int left = cells_x - w * 64;
    if (left < 64) act &= left <= 0 ? 0 : (((uint64_t)1 << left) - 1);
    return act;
}

long surfnets_active_cells(const surfnets_field *f, surfnets_mesh *m)
{
    if (!field_ok(f)) return -1;
    int words = (f->nx + 63) / 64;
    if (!build_masks(f, m, words)) return -1;
    long n = 0;
    for (int z = 0; z + 1 < f->nz; z++)
        for (int y = 0; y + 1 < f->ny; y++) {
            const uint64_t *r00 = m->masks + ((size_t)z * f->ny + y) * words, *r10 = r00 + words;
            const uint64_t *r01 = r00 + (size_t)f->ny * words, *r11 = r01 + words;
            for (int w = 0; w < words; w++) n += __builtin_popcountll(active_word(r00, r10, r01, r11, w, words, f->nx - 1));
        }
    return n;
}

/* Vertex of one active cell: position (mean of edge crossings) and the
 * normalised gradient of the trilinear field at it. */
static void cell_vertex(const float c[8], unsigned mask, int x, int y, int z, float *pos, float *nrm)
{
    uint16_t edges = g_edge_table[mask];
    float sx = 0, sy = 0, sz = 0;
    int n = 0;
    for (int i = 0; i < 12; i++) {
        if (!((edges >> i) & 1)) continue;
        int a = surfnets_edge_corners[i][0], b = surfnets_edge_corners[i][1];
        float t = c[a] / (c[a] - c[b]);
        float px = (float)(a & 1), py = (float)((a >> 1) & 1), pz = (float)((a >> 2) & 1);
        if (i < 4) px += t;
        else if (i < 8) py += t;
        else pz += t;
        sx += px, sy += py, sz += pz;
        n++;
    }
    float inv = 1.f / (float)n;
    float fx = sx * inv, fy = sy * inv, fz = sz * inv;
    pos[0] = (float)x + fx, pos[1] = (float)y + fy, pos[2] = (float)z + fz;
    float gx = (1 - fy) * (1 - fz) * (c[1] - c[0]) + fy * (1 - fz) * (c[3] - c[2]) + (1 - fy) * fz * (c[5] - c[4]) +
               fy * fz * (c[7] - c[6]);
    float gy = (1 - fx) * (1 - fz) * (c[2] - c[0]) + fx * (1 - fz) * (c[3] - c[1]) + (1 - fx) * fz * (c[6] - c[4]) +
               fx * fz * (c[7] - c[5]);
    float gz = (1 - fx) * (1 - fy) * (c[4] - c[0]) + fx * (1 - fy) * (c[5] - c[1]) + (1 - fx) * fy * (c[6] - c[2]) +
               fx * fy * (c[7] - c[3]);
    float l2 = gx * gx + gy * gy + gz * gz;
    if (!(l2 > 1e-24f)) {
        /* a flat saddle: point along the crossings' outward sides instead */
        gx = gy = gz = 0;
        for (int i = 0; i < 12; i++) {
            if (!((edges >> i) & 1)) continue;
            float s = (mask >> surfnets_edge_corners[i][0]) & 1 ? 1.f : -1.f; /* low end inside: outward is + */
            if (i < 4) gx += s;
            else if (i < 8) gy += s;
            else gz += s;
        }
        l2 = gx * gx + gy * gy + gz * gz;
        if (!(l2 > 0)) gx = 0, gy = 1, gz = 0, l2 = 1;
    }
    float k = 1.f / sqrtf(l2);
    nrm[0] = gx * k, nrm[1] = gy * k, nrm[2] = gz * k;
}

static inline void quad(uint32_t *t, uint32_t a, uint32_t b, uint32_t c, uint32_t d, bool flip)
{
    if (!flip) {
        t[0] = a, t[1] = b, t[2] = c, t[3] = a, t[4] = c, t[5] = d;
    } else {
        t[0] = a, t[1] = d, t[2] = c, t[3] = a, t[4] = c, t[5] = b;
    }
}

bool surfnets_extract(const surfnets_field *f, surfnets_mesh *m)
{
    m->vertices = m->triangles = 0;
    if (!field_ok(f)) return false;
    init_table();
    const int nx = f->nx, ny = f->ny, nz = f->nz, cx = nx - 1, cy = ny - 1;
    const int lo0 = f->own_lo[0], lo1 = f->own_lo[1], lo2 = f->own_lo[2];
    const int words = (nx + 63) / 64;
    const size_t sxy = (size_t)nx * (size_t)ny, slice = (size_t)cx * (size_t)cy;
    if (!build_masks(f, m, words)) return false;
    if (!grow((void **)&m->lut, &m->lut_cap, 2 * slice, sizeof *m->lut)) return false;

    for (int z = 0; z + 1 < nz; z++) {
        int32_t *cur = m->lut + (size_t)(z & 1) * slice, *prev = m->lut + (size_t)((z + 1) & 1) * slice;
        for (int y = 0; y + 1 < ny; y++) {
            const uint64_t *r00 = m->masks + ((size_t)z * ny + y) * words, *r10 = r00 + words;
            const uint64_t *r01 = r00 + (size_t)ny * words, *r11 = r01 + words;
            for (int w = 0; w < words; w++) {
                uint64_t act = active_word(r00, r10, r01, r11, w, words, cx);
                while (act) {
                    int x = w * 64 + __builtin_ctzll(act);
                    act &= act - 1;
                    /* room for this cell's vertex and its three quads */
                    if (m->vertices + 1 > m->vcap) {
                        size_t cap = (size_t)m->vcap, c2 = cap, c3 = cap;
                        if (!grow((void **)&m->pos, &cap, (size_t)m->vertices + 1, 3 * sizeof(float)) ||
                            !grow((void **)&m->nrm, &c2, (size_t)m->vertices + 1, 3 * sizeof(float)) ||
                            !grow((void **)&m->cell, &c3, (size_t)m->vertices + 1, sizeof(uint32_t)))
                            goto oom;
                        m->vcap = (int)cap;
                    }
                    if (m->triangles + 6 > m->tcap) {
                        size_t cap = (size_t)m->tcap;
                        if (!grow((void **)&m->idx, &cap, (size_t)m->triangles + 6, 3 * sizeof(uint32_t))) goto oom;
                        m->tcap = (int)cap;
                    }
                    const float *p = f->d + (size_t)x + (size_t)y * nx + (size_t)z * sxy;
                    float c[8] = { p[0], p[1], p[nx], p[nx + 1], p[sxy], p[sxy + 1], p[sxy + nx], p[sxy + nx + 1] };
                    unsigned mask = 0;
                    for (int i = 0; i < 8; i++) mask |= (unsigned)(c[i] < 0.f) << i;
                    uint32_t v = (uint32_t)m->vertices++;
                    cell_vertex(c, mask, x, y, z, m->pos + 3 * v, m->nrm + 3 * v);
                    m->cell[v] = (uint32_t)x + (uint32_t)y * (uint32_t)cx + (uint32_t)z * (uint32_t)slice;
                    size_t ci = (size_t)x + (size_t)y * cx;
                    cur[ci] = (int32_t)v;

                    /* quads of the edges leaving this cell's minimum corner;
                     * the cells around them are this one and earlier ones */
                    bool in0 = mask & 1;
                    uint32_t *t = m->idx + 3 * (size_t)m->triangles;
                    if (((mask ^ (mask >> 1)) & 1) && y > 0 && z > 0 && x >= lo0) { /* x edge: y-z plane */
                        quad(t, (uint32_t)prev[ci - cx], (uint32_t)prev[ci], v, (uint32_t)cur[ci - cx], !in0);
                        t += 6, m->triangles += 2;
                    }
                    if (((mask ^ (mask >> 2)) & 1) && x > 0 && z > 0 && y >= lo1) { /* y edge: z-x plane */
                        quad(t, (uint32_t)prev[ci - 1], (uint32_t)cur[ci - 1], v, (uint32_t)prev[ci], !in0);
                        t += 6, m->triangles += 2;
                    }
                    if (((mask ^ (mask >> 4)) & 1) && x > 0 && y > 0 && z >= lo2) { /* z edge: x-y plane */
                        quad(t, (uint32_t)cur[ci - cx - 1], (uint32_t)cur[ci - cx], v, (uint32_t)cur[ci - 1], !in0);
                        m->triangles += 2;
                    }
                }
            }
        }
    }
    return true;
oom:
    m->vertices = m->triangles = 0;
    return false;
}

void surfnets_free(surfnets_mesh *m)
{
    free(m->pos);
    free(m->nrm);
    free(m->cell);
    free(m->idx);
    free(m->masks);
    free(m->lut);
    memset(m, 0, sizeof *m);
}
