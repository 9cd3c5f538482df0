#include "light/emit.h"

#include <stdlib.h>
#include <string.h>

#include "voxel/chunk.h"
#include "voxel/material.h"

struct emit {
    int sx, sy, sz, x0, z0;
    int ncx, ncy, ncz;  /* columns and chunk layers */
    uint8_t *v;         /* the levels, slots as the world's */
    uint8_t *lit;       /* per column slot: some byte of it may be non-zero */
    uint16_t *src;      /* per chunk slot: emitters in it when last counted */
    uint8_t *val, *open; /* scratch over a fill's region: levels, 0 unknown / 1 open / 2 blocks / 3 emits */
    size_t scratch_cap;
    struct bucket {
        uint32_t *at;
        size_t n, cap;
    } q[EMIT_MAX_LEVEL + 1]; /* cells of the region reached with each level */
    long visited;
};

int emit_level(uint8_t m)
{
    switch (m) {
    case MAT_LAMP: return EMIT_MAX_LEVEL;
    case MAT_GLOW_ORE: return 10;
    default: return 0;
    }
}

bool emit_blocks(uint8_t m)
{
    const material *mt = material_get(m);
    return mt->render_self && !mt->render_neighbors;
}

static int mod(int a, int n)
{
    int r = a % n;
    return r < 0 ? r + n : r;
}

emit *emit_create(int sx, int sy, int sz)
{
    if (sx <= 0 || sy <= 0 || sz <= 0 || sx % CHUNK_SIZE || sz % CHUNK_SIZE) return NULL;
    emit *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->sx = sx, e->sy = sy, e->sz = sz;
    e->ncx = sx / CHUNK_SIZE, e->ncz = sz / CHUNK_SIZE, e->ncy = (sy + CHUNK_SIZE - 1) / CHUNK_SIZE;
    e->v = calloc((size_t)sx * (size_t)sy * (size_t)sz, 1);
    e->lit = calloc((size_t)e->ncx * (size_t)e->ncz, 1);
    e->src = calloc((size_t)e->ncx * (size_t)e->ncz * (size_t)e->ncy, sizeof *e->src);
    if (!e->v || !e->lit || !e->src) {
        emit_destroy(e);
        return NULL;
    }
    return e;
}

void emit_destroy(emit *e)
{
    if (!e) return;
    free(e->v);
    free(e->lit);
    free(e->src);
    free(e->val);
    free(e->open);
    for (int i = 0; i <= EMIT_MAX_LEVEL; i++) free(e->q[i].at);
    free(e);
}

void emit_size(const emit *e, int *sx, int *sy, int *sz) { *sx = e->sx, *sy = e->sy, *sz = e->sz; }
void emit_origin(const emit *e, int *x0, int *z0) { *x0 = e->x0, *z0 = e->z0; }
const uint8_t *emit_data(const emit *e) { return e->v; }
long emit_last_visited(const emit *e) { return e->visited; }

bool emit_any_lit(const emit *e)
{
    for (int i = 0; i < e->ncx * e->ncz; i++)
        if (e->lit[i]) return true;
    return false;
}

static int column_slot(const emit *e, int cx, int cz) { return mod(cx, e->ncx) + e->ncx * mod(cz, e->ncz); }

void emit_move(emit *e, int x0, int z0)
{
    int ocx = e->x0 / CHUNK_SIZE, ocz = e->z0 / CHUNK_SIZE, ncx = x0 / CHUNK_SIZE, ncz = z0 / CHUNK_SIZE;
    /* the columns that enter: their slots' bytes and counts are the old
     * columns', so say they may be lit and hold no emitter (the world
     * there is empty until they arrive and are counted) */
    for (int cz = ncz; cz < ncz + e->ncz; cz++)
        for (int cx = ncx; cx < ncx + e->ncx; cx++) {
            if (cx >= ocx && cx < ocx + e->ncx && cz >= ocz && cz < ocz + e->ncz) continue;
            int s = column_slot(e, cx, cz);
            e->lit[s] = 1;
            for (int cy = 0; cy < e->ncy; cy++) e->src[s + e->ncx * e->ncz * cy] = 0;
        }
    e->x0 = x0, e->z0 = z0;
}

static bool inside(const emit *e, int x, int y, int z)
{
    return y >= 0 && y < e->sy && x >= e->x0 && x < e->x0 + e->sx && z >= e->z0 && z < e->z0 + e->sz;
}

static size_t index_of(const emit *e, int x, int y, int z)
{
    return (size_t)mod(x, e->sx) + (size_t)e->sx * ((size_t)y + (size_t)e->sy * (size_t)mod(z, e->sz));
}

uint8_t emit_get(const emit *e, int x, int y, int z) { return inside(e, x, y, z) ? e->v[index_of(e, x, y, z)] : 0; }

/* Emitters in each chunk of column (cx, cz), from the world. */
/* The materials that give off light, into list; returns how many. A chunk
 * is searched for each with memchr, which skips many bytes a step, rather
 * than asking emit_level of its 32768 voxels: that took a third of a
 * millisecond of the main thread at every streamed column's arrival. */
static int emitter_kinds(const uint8_t **list)
{
    static uint8_t kinds_of[256];
    static int kinds = -1; /* (main thread: emit is) */
    if (kinds < 0) {
        kinds = 0;
        for (int m = 0; m < 256; m++)
            if (emit_level((uint8_t)m) > 0) kinds_of[kinds++] = (uint8_t)m;
    }
    *list = kinds_of;
    return kinds;
}

/* The next voxel at or after `from` holding material m, or NULL. */
static const uint8_t *next_of(const uint8_t *vox, const uint8_t *from, uint8_t m)
{
    return memchr(from, m, (size_t)(vox + CHUNK_VOLUME - from));
}

static int count_emitters(const uint8_t *vox)
{
    const uint8_t *list;
    int n = 0;
    for (int k = 0, kinds = emitter_kinds(&list); k < kinds; k++)
        for (const uint8_t *p = vox; (p = next_of(vox, p, list[k])) != NULL; p++) n++;
    return n;
}

static void count_column(emit *e, const world *w, int cx, int cz)
{
    int s = column_slot(e, cx, cz);
    for (int cy = 0; cy < e->ncy; cy++) {
        const chunk *c = world_chunk(w, cx, cy, cz);
        e->src[s + e->ncx * e->ncz * cy] = (uint16_t)(c ? count_emitters(c->vox) : 0);
    }
}

/* The box clipped to the window; false when nothing is left. */
static bool clip(const emit *e, const int lo[3], const int hi[3], int a[3], int b[3])
{
    const int first[3] = { e->x0, 0, e->z0 }, size[3] = { e->sx, e->sy, e->sz };
    for (int k = 0; k < 3; k++) {
        a[k] = lo[k] > first[k] ? lo[k] : first[k];
        b[k] = hi[k] < first[k] + size[k] ? hi[k] : first[k] + size[k];
        if (a[k] >= b[k]) return false;
    }
    return true;
}

static int floor_chunk(int v) { return v >> CHUNK_BITS; } /* arithmetic shift: a floor */

static bool push(struct bucket *q, uint32_t c)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 4096;
        uint32_t *at = realloc(q->at, cap * sizeof *at);
        if (!at) return false;
        q->at = at, q->cap = cap;
    }
    q->at[q->n++] = c;
    return true;
}

/* The flood fill over region [a, b), levels into e->val (region order, x
 * fastest). Every voxel whose light can reach a voxel of the box it is made
 * for lies in the region: see fill_box. */
static bool flood(emit *e, const world *w, const int a[3], const int b[3])
{
    const int n[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
    size_t cells = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
    if (cells > e->scratch_cap) {
        uint8_t *v = realloc(e->val, cells), *o = v ? realloc(e->open, cells) : NULL;
        if (v) e->val = v;
        if (!o) return false;
        e->open = o, e->scratch_cap = cells;
    }
    memset(e->val, 0, cells);
    memset(e->open, 0, cells);
    for (int l = 0; l <= EMIT_MAX_LEVEL; l++) e->q[l].n = 0;
    /* the emitters, from the chunks that hold any */
    for (int cz = floor_chunk(a[2]); cz <= floor_chunk(b[2] - 1); cz++)
        for (int cx = floor_chunk(a[0]); cx <= floor_chunk(b[0] - 1); cx++)
            for (int cy = floor_chunk(a[1]); cy <= floor_chunk(b[1] - 1); cy++) {
                if (!e->src[column_slot(e, cx, cz) + e->ncx * e->ncz * cy]) continue;
                const chunk *c = world_chunk(w, cx, cy, cz);
                if (!c) continue;
                const uint8_t *list;
                for (int k = 0, kinds = emitter_kinds(&list); k < kinds; k++)
                    for (const uint8_t *p = c->vox; (p = next_of(c->vox, p, list[k])) != NULL; p++) {
                        const int i = (int)(p - c->vox), l = emit_level(*p);
                        int x = cx * CHUNK_SIZE + (i & CHUNK_MASK), z = cz * CHUNK_SIZE + ((i >> CHUNK_BITS) & CHUNK_MASK);
                        int y = cy * CHUNK_SIZE + (i >> (2 * CHUNK_BITS));
                        if (x < a[0] || x >= b[0] || y < a[1] || y >= b[1] || z < a[2] || z >= b[2]) continue;
                        uint32_t at = (uint32_t)((x - a[0]) + n[0] * ((y - a[1]) + n[1] * (z - a[2])));
                        e->val[at] = (uint8_t)l, e->open[at] = 3;
                        if (!push(&e->q[l], at)) return false;
                    }
            }
    const long step[3] = { 1, n[0], (long)n[0] * n[1] };
    /* brightest first: a voxel is final when its level's turn comes */
    for (int l = EMIT_MAX_LEVEL; l >= 1; l--)
        for (size_t k = 0; k < e->q[l].n; k++) {
            uint32_t c = e->q[l].at[k];
            /* reached brighter from elsewhere (an emitter shines at its own
             * level whatever light falls on it) */
            if (e->val[c] != l && e->open[c] != 3) continue;
            int p[3] = { (int)(c % (uint32_t)n[0]), (int)(c / (uint32_t)n[0] % (uint32_t)n[1]),
                         (int)(c / (uint32_t)(n[0] * n[1])) };
            for (int d = 0; d < 6; d++) {
                int ax = d >> 1, sgn = d & 1 ? 1 : -1;
                if (p[ax] + sgn < 0 || p[ax] + sgn >= n[ax]) continue;
                uint32_t nb = (uint32_t)((long)c + sgn * step[ax]);
                if (!e->open[nb]) {
                    int q[3] = { a[0] + p[0], a[1] + p[1], a[2] + p[2] };
                    q[ax] += sgn;
                    e->open[nb] = emit_blocks(world_get(w, q[0], q[1], q[2])) ? 2 : 1;
                }
                if (e->open[nb] >= 2) {
                    /* a solid voxel holds the light of its brightest open face */
                    if (e->open[c] == 1 && e->val[nb] < l) e->val[nb] = (uint8_t)l;
                    continue;
                }
                if (l > 1 && e->val[nb] < l - 1) {
                    e->val[nb] = (uint8_t)(l - 1);
                    e->visited++;
                    if (!push(&e->q[l - 1], nb)) return false;
                }
            }
        }
    return true;
}

/* Makes the bytes of box F (inside the window) exact. A voxel's byte
 * depends on the emitters and openness within EMIT_REACH of it (a path of
 * light at most EMIT_MAX_LEVEL - 1 long, plus the solid voxel's step to
 * its open neighbour), so the fill runs over F + EMIT_REACH alone. */
static bool fill_box(emit *e, const world *w, const int F0[3], const int F1[3])
{
    const int grow[3] = { EMIT_REACH, EMIT_REACH, EMIT_REACH };
    int lo[3], hi[3], a[3], b[3];
    for (int k = 0; k < 3; k++) lo[k] = F0[k] - grow[k], hi[k] = F1[k] + grow[k];
    clip(e, lo, hi, a, b);
    bool any_src = false, any_lit = false;
    int src_lo = b[1], src_hi = a[1]; /* the chunk layers holding emitters */
    for (int cz = floor_chunk(a[2]); cz <= floor_chunk(b[2] - 1); cz++)
        for (int cx = floor_chunk(a[0]); cx <= floor_chunk(b[0] - 1); cx++)
            for (int cy = floor_chunk(a[1]); cy <= floor_chunk(b[1] - 1); cy++)
                if (e->src[column_slot(e, cx, cz) + e->ncx * e->ncz * cy]) {
                    any_src = true;
                    src_lo = cy * CHUNK_SIZE < src_lo ? cy * CHUNK_SIZE : src_lo;
                    src_hi = (cy + 1) * CHUNK_SIZE > src_hi ? (cy + 1) * CHUNK_SIZE : src_hi;
                }
    /* nothing lies farther than EMIT_REACH above or below them: the fill
     * (a pure function of what it covers) need not go there, and the rows
     * of F out there are dark */
    if (any_src) {
        a[1] = src_lo - EMIT_REACH > a[1] ? src_lo - EMIT_REACH : a[1];
        b[1] = src_hi + EMIT_REACH < b[1] ? src_hi + EMIT_REACH : b[1];
    }
    for (int cz = floor_chunk(F0[2]); cz <= floor_chunk(F1[2] - 1); cz++)
        for (int cx = floor_chunk(F0[0]); cx <= floor_chunk(F1[0] - 1); cx++) any_lit |= e->lit[column_slot(e, cx, cz)] != 0;
    if (!any_src && !any_lit) return false;
    if (any_src && !flood(e, w, a, b)) return false;
    const int n0 = b[0] - a[0], n1 = b[1] - a[1];
    for (int cz = floor_chunk(F0[2]); cz <= floor_chunk(F1[2] - 1); cz++)
        for (int cx = floor_chunk(F0[0]); cx <= floor_chunk(F1[0] - 1); cx++) {
            /* the part of the column in F, row by row */
            int x0 = cx * CHUNK_SIZE > F0[0] ? cx * CHUNK_SIZE : F0[0], x1 = (cx + 1) * CHUNK_SIZE < F1[0] ? (cx + 1) * CHUNK_SIZE : F1[0];
            int z0 = cz * CHUNK_SIZE > F0[2] ? cz * CHUNK_SIZE : F0[2], z1 = (cz + 1) * CHUNK_SIZE < F1[2] ? (cz + 1) * CHUNK_SIZE : F1[2];
            bool lit = false;
            for (int z = z0; z < z1; z++)
                for (int y = F0[1]; y < F1[1]; y++) {
                    uint8_t *dst = &e->v[index_of(e, x0, y, z)];
                    if (!any_src || y < a[1] || y >= b[1]) {
                        memset(dst, 0, (size_t)(x1 - x0));
                        continue;
                    }
                    const uint8_t *row = &e->val[(size_t)(x0 - a[0]) + (size_t)n0 * ((size_t)(y - a[1]) + (size_t)n1 * (size_t)(z - a[2]))];
                    memcpy(dst, row, (size_t)(x1 - x0));
                    for (int x = 0; x < x1 - x0 && !lit; x++) lit = row[x] != 0;
                }
            int s = column_slot(e, cx, cz);
            bool whole = x1 - x0 == CHUNK_SIZE && z1 - z0 == CHUNK_SIZE && F0[1] == 0 && F1[1] == e->sy;
            e->lit[s] = whole ? lit : (uint8_t)(e->lit[s] | lit);
        }
    return true;
}

void emit_fill_all(emit *e, const world *w)
{
    e->visited = 0;
    for (int cz = e->z0 / CHUNK_SIZE; cz < e->z0 / CHUNK_SIZE + e->ncz; cz++)
        for (int cx = e->x0 / CHUNK_SIZE; cx < e->x0 / CHUNK_SIZE + e->ncx; cx++) {
            count_column(e, w, cx, cz);
            e->lit[column_slot(e, cx, cz)] = 1; /* unknown: written whole below */
        }
    /* two columns square at a time: the fill's region stays small */
    const int T = 2 * CHUNK_SIZE;
    for (int z = e->z0; z < e->z0 + e->sz; z += T)
        for (int x = e->x0; x < e->x0 + e->sx; x += T) {
            int lo[3] = { x, 0, z }, hi[3] = { x + T, e->sy, z + T }, a[3], b[3];
            if (clip(e, lo, hi, a, b)) fill_box(e, w, a, b);
        }
}

bool emit_relight(emit *e, const world *w, const int lo[3], const int hi[3], int out_lo[3], int out_hi[3])
{
    e->visited = 0;
    int el[3], eh[3];
    if (!clip(e, lo, hi, el, eh)) return false;
    for (int cz = floor_chunk(el[2]); cz <= floor_chunk(eh[2] - 1); cz++)
        for (int cx = floor_chunk(el[0]); cx <= floor_chunk(eh[0] - 1); cx++) count_column(e, w, cx, cz);
    int g0[3], g1[3];
    for (int k = 0; k < 3; k++) g0[k] = el[k] - EMIT_REACH, g1[k] = eh[k] + EMIT_REACH;
    if (!clip(e, g0, g1, out_lo, out_hi)) return false;
    return fill_box(e, w, out_lo, out_hi);
}

uint64_t emit_hash(const emit *e)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int z = e->z0; z < e->z0 + e->sz; z++)
        for (int y = 0; y < e->sy; y++)
            for (int x = e->x0; x < e->x0 + e->sx; x++) {
                h ^= e->v[index_of(e, x, y, z)];
                h *= 0x100000001b3ull;
            }
    return h;
}
