#include "light/emit.h"

#include <stdlib.h>
#include <string.h>

#include "voxel/chunk.h"
#include "voxel/material.h"

/* A box of voxels [lo, hi), global or in a slot's own coordinates; empty
 * when lo[0] >= hi[0]. */
typedef struct ebox {
    int lo[3], hi[3];
} ebox;

struct bucket {
    uint32_t *at;
    size_t n, cap;
};

struct emit {
    int sx, sy, sz, x0, z0;
    int ncx, ncy, ncz;  /* columns and chunk layers */
    uint8_t *v;         /* the levels, slots as the world's */
    /* per column slot: a box (the slot's own voxels, 0..CHUNK_SIZE on x
     * and z) outside which every byte of the slot is 0, whatever column
     * holds the slot now. A relight writes and hands out only this box and
     * the new light's (about a thousand lit voxels a streamed column,
     * where the whole box it relights is 64 x sy x 64). */
    ebox *box;
    uint16_t *src;      /* per chunk slot: emitters in it when last counted */
    /* scratch over a fill's region: levels, 0 unknown / 1 open / 2 blocks /
     * 3 emits; all 0 between fills (a fill zeroes the cells it touched,
     * listed in `touched`, rather than the whole region: a streamed
     * column's is 96 x ~70 x 96 cells, and clearing both arrays was a
     * tenth of a millisecond a column) */
    uint8_t *val, *open;
    size_t scratch_cap;
    struct bucket touched;
    struct bucket q[EMIT_MAX_LEVEL + 1]; /* cells of the region reached with each level */
    long visited;
    bool failed; /* the last fill ran out of memory (and wrote nothing) */
};

static bool box_empty(const ebox *b) { return b->lo[0] >= b->hi[0] || b->lo[1] >= b->hi[1] || b->lo[2] >= b->hi[2]; }

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
    e->box = calloc((size_t)e->ncx * (size_t)e->ncz, sizeof *e->box); /* empty: all 0, as v */
    e->src = calloc((size_t)e->ncx * (size_t)e->ncz * (size_t)e->ncy, sizeof *e->src);
    if (!e->v || !e->box || !e->src) {
        emit_destroy(e);
        return NULL;
    }
    return e;
}

void emit_destroy(emit *e)
{
    if (!e) return;
    free(e->v);
    free(e->box);
    free(e->src);
    free(e->val);
    free(e->open);
    free(e->touched.at);
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
        if (!box_empty(&e->box[i])) return true;
    return false;
}

static int column_slot(const emit *e, int cx, int cz) { return mod(cx, e->ncx) + e->ncx * mod(cz, e->ncz); }

void emit_move(emit *e, int x0, int z0)
{
    int ocx = e->x0 / CHUNK_SIZE, ocz = e->z0 / CHUNK_SIZE, ncx = x0 / CHUNK_SIZE, ncz = z0 / CHUNK_SIZE;
    /* the columns that enter: their slots' bytes are the old columns',
     * and so is the slot's box, which says where they are (and so, where
     * the first relight must write); they hold no emitter (the world there
     * is empty until they arrive and are counted) */
    for (int cz = ncz; cz < ncz + e->ncz; cz++)
        for (int cx = ncx; cx < ncx + e->ncx; cx++) {
            if (cx >= ocx && cx < ocx + e->ncx && cz >= ocz && cz < ocz + e->ncz) continue;
            int s = column_slot(e, cx, cz);
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

/* The materials that give off light, into list; returns how many. A chunk
 * is searched for each with memchr, which skips many bytes a step, rather
 * than asking emit_level of its 32768 voxels: that took a third of a
 * millisecond of the main thread at every streamed column's arrival. */
static int emitter_kinds(uint8_t list[256])
{
    int kinds = 0; /* (made each time, a quarter microsecond: no state shared by threads) */
    for (int m = 0; m < 256; m++)
        if (emit_level((uint8_t)m) > 0) list[kinds++] = (uint8_t)m;
    return kinds;
}

/* The next voxel at or after `from` holding material m, or NULL. */
static const uint8_t *next_of(const uint8_t *vox, const uint8_t *from, uint8_t m)
{
    return memchr(from, m, (size_t)(vox + CHUNK_VOLUME - from));
}

static int count_emitters(const uint8_t *vox)
{
    uint8_t list[256];
    int n = 0;
    for (int k = 0, kinds = emitter_kinds(list); k < kinds; k++)
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

static ebox box_none(void) { return (ebox){ { 0, 0, 0 }, { 0, 0, 0 } }; }

/* The smallest box holding both (either may be empty). */
static ebox box_bound(ebox a, ebox b)
{
    if (box_empty(&a)) return b;
    if (box_empty(&b)) return a;
    for (int k = 0; k < 3; k++) {
        a.lo[k] = b.lo[k] < a.lo[k] ? b.lo[k] : a.lo[k];
        a.hi[k] = b.hi[k] > a.hi[k] ? b.hi[k] : a.hi[k];
    }
    return a;
}

static ebox box_meet(ebox a, const ebox *b)
{
    for (int k = 0; k < 3; k++) {
        a.lo[k] = b->lo[k] > a.lo[k] ? b->lo[k] : a.lo[k];
        a.hi[k] = b->hi[k] < a.hi[k] ? b->hi[k] : a.hi[k];
    }
    return box_empty(&a) ? box_none() : a;
}

static bool box_within(const ebox *a, const ebox *b)
{
    for (int k = 0; k < 3; k++)
        if (a->lo[k] < b->lo[k] || a->hi[k] > b->hi[k]) return false;
    return true;
}

/* Slot s's box in the global voxels of column (cx, cz), and back. */
static ebox slot_box(const emit *e, int s, int cx, int cz)
{
    ebox b = e->box[s];
    if (box_empty(&b)) return box_none();
    b.lo[0] += cx * CHUNK_SIZE, b.hi[0] += cx * CHUNK_SIZE;
    b.lo[2] += cz * CHUNK_SIZE, b.hi[2] += cz * CHUNK_SIZE;
    return b;
}

static void set_slot_box(emit *e, int s, int cx, int cz, ebox b)
{
    if (!box_empty(&b)) {
        b.lo[0] -= cx * CHUNK_SIZE, b.hi[0] -= cx * CHUNK_SIZE;
        b.lo[2] -= cz * CHUNK_SIZE, b.hi[2] -= cz * CHUNK_SIZE;
    } else b = box_none();
    e->box[s] = b;
}

/* The scratch back to all 0: the cells the fill touched, or the whole
 * region n cells when the list may lack some (a fill ran out of memory). */
static void scrub(emit *e, size_t cells, bool whole)
{
    if (whole) {
        memset(e->val, 0, cells);
        memset(e->open, 0, cells);
    } else
        for (size_t k = 0; k < e->touched.n; k++) e->val[e->touched.at[k]] = 0, e->open[e->touched.at[k]] = 0;
    e->touched.n = 0;
}

/* Marks cell c of the region as what it is (1 open, 2 blocks, 3 emits),
 * listed for the scrub. */
static bool touch(emit *e, uint32_t c, uint8_t what)
{
    e->open[c] = what;
    return push(&e->touched, c);
}

/* The flood fill over region [a, b), levels into e->val (region order, x
 * fastest); *lit, the box of the cells it lit (global). Every voxel whose
 * light can reach a voxel of the box it is made for lies in the region:
 * see fill_box. The scratch is left as the fill made it, for fill_box to
 * copy and then scrub; on failure it is scrubbed already. */
static bool flood(emit *e, const world *w, const int a[3], const int b[3], ebox *lit)
{
    const int n[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
    size_t cells = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
    *lit = box_none();
    if (cells > e->scratch_cap) { /* (calloc: the scratch is all 0 between fills) */
        free(e->val), free(e->open);
        e->val = calloc(cells, 1), e->open = calloc(cells, 1);
        e->scratch_cap = e->val && e->open ? cells : 0;
        if (!e->scratch_cap) return false;
    }
    for (int l = 0; l <= EMIT_MAX_LEVEL; l++) e->q[l].n = 0;
    e->touched.n = 0;
    /* the emitters, from the chunks that hold any */
    for (int cz = floor_chunk(a[2]); cz <= floor_chunk(b[2] - 1); cz++)
        for (int cx = floor_chunk(a[0]); cx <= floor_chunk(b[0] - 1); cx++)
            for (int cy = floor_chunk(a[1]); cy <= floor_chunk(b[1] - 1); cy++) {
                if (!e->src[column_slot(e, cx, cz) + e->ncx * e->ncz * cy]) continue;
                const chunk *c = world_chunk(w, cx, cy, cz);
                if (!c) continue;
                uint8_t list[256];
                for (int k = 0, kinds = emitter_kinds(list); k < kinds; k++)
                    for (const uint8_t *p = c->vox; (p = next_of(c->vox, p, list[k])) != NULL; p++) {
                        const int i = (int)(p - c->vox), l = emit_level(*p);
                        int x = cx * CHUNK_SIZE + (i & CHUNK_MASK), z = cz * CHUNK_SIZE + ((i >> CHUNK_BITS) & CHUNK_MASK);
                        int y = cy * CHUNK_SIZE + (i >> (2 * CHUNK_BITS));
                        if (x < a[0] || x >= b[0] || y < a[1] || y >= b[1] || z < a[2] || z >= b[2]) continue;
                        uint32_t at = (uint32_t)((x - a[0]) + n[0] * ((y - a[1]) + n[1] * (z - a[2])));
                        e->val[at] = (uint8_t)l;
                        if (!touch(e, at, 3) || !push(&e->q[l], at)) goto fail;
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
                    if (!touch(e, nb, emit_blocks(world_get(w, q[0], q[1], q[2])) ? 2 : 1)) goto fail;
                }
                if (e->open[nb] >= 2) {
                    /* a solid voxel holds the light of its brightest open face */
                    if (e->open[c] == 1 && e->val[nb] < l) e->val[nb] = (uint8_t)l;
                    continue;
                }
                if (l > 1 && e->val[nb] < l - 1) {
                    e->val[nb] = (uint8_t)(l - 1);
                    e->visited++;
                    if (!push(&e->q[l - 1], nb)) goto fail;
                }
            }
        }
    /* every lit cell was touched (its openness is known) */
    for (size_t k = 0; k < e->touched.n; k++) {
        uint32_t c = e->touched.at[k];
        if (!e->val[c]) continue;
        int x = a[0] + (int)(c % (uint32_t)n[0]), y = a[1] + (int)(c / (uint32_t)n[0] % (uint32_t)n[1]);
        int z = a[2] + (int)(c / (uint32_t)(n[0] * n[1]));
        *lit = box_bound(*lit, (ebox){ { x, y, z }, { x + 1, y + 1, z + 1 } });
    }
    return true;
fail:
    scrub(e, cells, true);
    e->failed = true;
    return false;
}

/* Makes the bytes of box F (inside the window) exact, and says in
 * out_lo/out_hi the box of those it wrote (false: none). A voxel's byte
 * depends on the emitters and openness within EMIT_REACH of it (a path of
 * light at most EMIT_MAX_LEVEL - 1 long, plus the solid voxel's step to
 * its open neighbour), so the fill runs over F + EMIT_REACH alone. Of F,
 * only what the slots' boxes held and what the fill lit is written: the
 * rest was 0 and stays 0. */
static bool fill_box(emit *e, const world *w, const int F0[3], const int F1[3], int out_lo[3], int out_hi[3])
{
    const int grow[3] = { EMIT_REACH, EMIT_REACH, EMIT_REACH };
    int lo[3], hi[3], a[3], b[3];
    e->failed = false;
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
        for (int cx = floor_chunk(F0[0]); cx <= floor_chunk(F1[0] - 1); cx++) any_lit |= !box_empty(&e->box[column_slot(e, cx, cz)]);
    if (!any_src && !any_lit) return false;
    ebox lit = box_none();
    if (any_src && !flood(e, w, a, b, &lit)) return false;
    const int n0 = b[0] - a[0], n1 = b[1] - a[1];
    ebox dirty = box_none();
    for (int cz = floor_chunk(F0[2]); cz <= floor_chunk(F1[2] - 1); cz++)
        for (int cx = floor_chunk(F0[0]); cx <= floor_chunk(F1[0] - 1); cx++) {
            /* the part of the column in F */
            ebox P = { { cx * CHUNK_SIZE > F0[0] ? cx * CHUNK_SIZE : F0[0], F0[1], cz * CHUNK_SIZE > F0[2] ? cz * CHUNK_SIZE : F0[2] },
                       { (cx + 1) * CHUNK_SIZE < F1[0] ? (cx + 1) * CHUNK_SIZE : F1[0], F1[1],
                         (cz + 1) * CHUNK_SIZE < F1[2] ? (cz + 1) * CHUNK_SIZE : F1[2] } };
            const int s = column_slot(e, cx, cz);
            ebox held = slot_box(e, s, cx, cz), now = box_meet(lit, &P);
            ebox u = box_bound(box_meet(held, &P), now); /* what may differ */
            for (int z = u.lo[2]; z < u.hi[2]; z++)
                for (int y = u.lo[1]; y < u.hi[1]; y++) {
                    uint8_t *dst = &e->v[index_of(e, u.lo[0], y, z)];
                    const size_t len = (size_t)(u.hi[0] - u.lo[0]);
                    if (!any_src || y < a[1] || y >= b[1]) memset(dst, 0, len);
                    else
                        memcpy(dst, &e->val[(size_t)(u.lo[0] - a[0]) + (size_t)n0 * ((size_t)(y - a[1]) + (size_t)n1 * (size_t)(z - a[2]))],
                               len);
                }
            dirty = box_bound(dirty, u);
            /* what the slot holds now: the fill's light in P, and outside P
             * whatever it held there */
            set_slot_box(e, s, cx, cz, box_within(&held, &P) ? now : box_bound(held, now));
        }
    if (any_src) scrub(e, (size_t)n0 * (size_t)n1 * (size_t)(b[2] - a[2]), false);
    if (box_empty(&dirty)) return false;
    for (int k = 0; k < 3; k++) out_lo[k] = dirty.lo[k], out_hi[k] = dirty.hi[k];
    return true;
}

void emit_fill_all(emit *e, const world *w)
{
    e->visited = 0;
    for (int cz = e->z0 / CHUNK_SIZE; cz < e->z0 / CHUNK_SIZE + e->ncz; cz++)
        for (int cx = e->x0 / CHUNK_SIZE; cx < e->x0 / CHUNK_SIZE + e->ncx; cx++) {
            count_column(e, w, cx, cz);
            /* unknown: written whole below */
            set_slot_box(e, column_slot(e, cx, cz), 0, 0, (ebox){ { 0, 0, 0 }, { CHUNK_SIZE, e->sy, CHUNK_SIZE } });
        }
    /* two columns square at a time: the fill's region stays small */
    const int T = 2 * CHUNK_SIZE;
    for (int z = e->z0; z < e->z0 + e->sz; z += T)
        for (int x = e->x0; x < e->x0 + e->sx; x += T) {
            int lo[3] = { x, 0, z }, hi[3] = { x + T, e->sy, z + T }, a[3], b[3], wl[3], wh[3];
            if (clip(e, lo, hi, a, b)) fill_box(e, w, a, b, wl, wh);
        }
}

bool emit_relight(emit *e, const world *w, const int lo[3], const int hi[3], int out_lo[3], int out_hi[3])
{
    e->visited = 0;
    int el[3], eh[3];
    if (!clip(e, lo, hi, el, eh)) return false;
    for (int cz = floor_chunk(el[2]); cz <= floor_chunk(eh[2] - 1); cz++)
        for (int cx = floor_chunk(el[0]); cx <= floor_chunk(eh[0] - 1); cx++) count_column(e, w, cx, cz);
    int g0[3], g1[3], f0[3], f1[3];
    for (int k = 0; k < 3; k++) g0[k] = el[k] - EMIT_REACH, g1[k] = eh[k] + EMIT_REACH;
    if (!clip(e, g0, g1, f0, f1)) return false;
    return fill_box(e, w, f0, f1, out_lo, out_hi);
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

/* ---- a column made on a worker ---- */

/* Whether the window holds chunk column (cx, cz). */
static bool holds_column(const emit *e, int cx, int cz)
{
    return inside(e, cx * CHUNK_SIZE, 0, cz * CHUNK_SIZE) && inside(e, cx * CHUNK_SIZE + CHUNK_MASK, 0, cz * CHUNK_SIZE + CHUNK_MASK);
}

bool emit_column_arrived(emit *e, const world *w, int cx, int cz, int out_lo[3], int out_hi[3])
{
    if (!holds_column(e, cx, cz)) return false;
    count_column(e, w, cx, cz);
    const int s = column_slot(e, cx, cz);
    ebox held = slot_box(e, s, cx, cz);
    if (box_empty(&held)) return false;
    for (int z = held.lo[2]; z < held.hi[2]; z++)
        for (int y = held.lo[1]; y < held.hi[1]; y++)
            memset(&e->v[index_of(e, held.lo[0], y, z)], 0, (size_t)(held.hi[0] - held.lo[0]));
    set_slot_box(e, s, cx, cz, box_none());
    for (int k = 0; k < 3; k++) out_lo[k] = held.lo[k], out_hi[k] = held.hi[k];
    return true;
}

/* The ring's own volume (3 x 3 columns, its first column (cx - 1, cz - 1)),
 * reused from column to column: its slot boxes say what its bytes hold, as
 * a window's do. */
struct emit_column {
    emit *ring;
    int cx, cz;
    bool ready;
};

emit_column *emit_column_create(int sy)
{
    emit_column *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->ring = emit_create(3 * CHUNK_SIZE, sy, 3 * CHUNK_SIZE);
    if (!c->ring) {
        free(c);
        return NULL;
    }
    return c;
}

void emit_column_destroy(emit_column *c)
{
    if (!c) return;
    emit_destroy(c->ring);
    free(c);
}

bool emit_column_fill(emit_column *c, const world *ring, int cx, int cz)
{
    emit *r = c->ring;
    c->ready = false;
    if (ring->sy != r->sy) return false;
    emit_move(r, (cx - 1) * CHUNK_SIZE, (cz - 1) * CHUNK_SIZE);
    for (int z = cz - 1; z <= cz + 1; z++)
        for (int x = cx - 1; x <= cx + 1; x++) count_column(r, ring, x, z);
    const int lo[3] = { cx * CHUNK_SIZE, 0, cz * CHUNK_SIZE }, hi[3] = { lo[0] + CHUNK_SIZE, r->sy, lo[2] + CHUNK_SIZE };
    int wl[3], wh[3];
    /* (a fill that fails writes nothing: the ring's bytes and boxes stay
     * as they were, and the column is not landed) */
    fill_box(r, ring, lo, hi, wl, wh);
    if (r->failed) return false;
    c->cx = cx, c->cz = cz, c->ready = true;
    return true;
}

bool emit_column_land(const emit_column *c, emit *e, int out_lo[3], int out_hi[3])
{
    if (!c->ready || e->sy != c->ring->sy || !holds_column(e, c->cx, c->cz)) return false;
    const emit *r = c->ring;
    const int s = column_slot(e, c->cx, c->cz);
    ebox held = slot_box(e, s, c->cx, c->cz), now = slot_box(r, column_slot(r, c->cx, c->cz), c->cx, c->cz);
    ebox u = box_bound(held, now); /* what may differ; the ring's bytes outside `now` are 0 */
    for (int z = u.lo[2]; z < u.hi[2]; z++)
        for (int y = u.lo[1]; y < u.hi[1]; y++)
            memcpy(&e->v[index_of(e, u.lo[0], y, z)], &r->v[index_of(r, u.lo[0], y, z)], (size_t)(u.hi[0] - u.lo[0]));
    set_slot_box(e, s, c->cx, c->cz, now);
    if (box_empty(&u)) return false;
    for (int k = 0; k < 3; k++) out_lo[k] = u.lo[k], out_hi[k] = u.hi[k];
    return true;
}
