/* enhance: recursive subdivision and direct resampling (seed 000, sections
 * 2-4). Both operators are pure functions of a voxel's window (its 3^3 or
 * 5^3 neighbourhood), which is what makes surface skipping, the cache and
 * incremental updates exact. */
#include "gen/enhance.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/rng.h"

/* The cache holds at most this much fragment data; beyond it, configurations
 * are evaluated without being stored. */
#define ENHANCE_CACHE_BYTES (32u << 20)
#define ENHANCE_CACHE_MAX_ENTRIES 65536

typedef struct cache_entry {
    uint64_t k0, k1;
    int32_t band;
    int32_t slot; /* -1 = empty */
} cache_entry;

struct enhance_ctx {
    enhance_params p;
    int factor, radius, rows_per_voxel;
    int32_t *probe; /* xyz triples, 1/(2F) voxel units */
    pthread_mutex_t lock;
    cache_entry *table;
    int table_cap, entries, max_entries;
    uint16_t *pool; /* max_entries * rows_per_voxel */
    uint64_t lookups, hits;
};

enhance_params enhance_params_default(void)
{
    return (enhance_params){
        .op = ENHANCE_SUBDIVIDE, .levels = 2, .thr_low = 1, .thr_even = 3, .thr_odd = 4, .altitude = 40,
        .factor = 4, .probes = 64, .spread = 1.0f, .probe_seed = 1, .percent = 25,
    };
}

int enhance_factor(const enhance_params *p)
{
    return p->op == ENHANCE_SUBDIVIDE ? 1 << p->levels : p->factor;
}

int enhance_radius(const enhance_params *p)
{
    /* Subdivision: a fragment looks one step toward its octant at every
     * level, and those steps stay inside the 3^3 block around its voxel.
     * Resampling: offsets within half a voxel reach one voxel, up to 1.5
     * reach two. */
    return p->op == ENHANCE_SUBDIVIDE || p->spread <= 0.5f ? 1 : 2;
}

bool enhance_params_check(const enhance_params *p, char *err, size_t errlen)
{
    if (p->op != ENHANCE_SUBDIVIDE && p->op != ENHANCE_RESAMPLE) {
        snprintf(err, errlen, "enhance: unknown operator %d", (int)p->op);
        return false;
    }
    if (p->levels < 1 || p->levels > ENHANCE_MAX_LEVELS) {
        snprintf(err, errlen, "enhance: levels %d outside [1, %d]", p->levels, ENHANCE_MAX_LEVELS);
        return false;
    }
    const int *thr[3] = { &p->thr_low, &p->thr_even, &p->thr_odd };
    for (int i = 0; i < 3; i++)
        if (*thr[i] < 1 || *thr[i] > 4) {
            snprintf(err, errlen, "enhance: threshold %d outside [1, 4]", *thr[i]);
            return false;
        }
    if (p->factor < 1 || p->factor > ENHANCE_MAX_FACTOR) {
        snprintf(err, errlen, "enhance: factor %d outside [1, %d]", p->factor, ENHANCE_MAX_FACTOR);
        return false;
    }
    if (p->probes < 1 || p->probes > ENHANCE_MAX_PROBES) {
        snprintf(err, errlen, "enhance: probe count %d outside [1, %d]", p->probes, ENHANCE_MAX_PROBES);
        return false;
    }
    if (!(p->spread >= 0.f && p->spread <= ENHANCE_MAX_SPREAD)) {
        snprintf(err, errlen, "enhance: spread %g outside [0, %g]", (double)p->spread, (double)ENHANCE_MAX_SPREAD);
        return false;
    }
    if (p->percent < 0 || p->percent > 99) {
        snprintf(err, errlen, "enhance: percent %d outside [0, 99]", p->percent);
        return false;
    }
    return true;
}

enhance_ctx *enhance_create(const enhance_params *p, char *err, size_t errlen)
{
    if (!enhance_params_check(p, err, errlen)) return NULL;
    enhance_ctx *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "enhance: out of memory");
        return NULL;
    }
    e->p = *p;
    e->factor = enhance_factor(p);
    e->radius = enhance_radius(p);
    e->rows_per_voxel = e->factor * e->factor;
    e->max_entries = (int)(ENHANCE_CACHE_BYTES / (sizeof(uint16_t) * (size_t)e->rows_per_voxel));
    if (e->max_entries > ENHANCE_CACHE_MAX_ENTRIES) e->max_entries = ENHANCE_CACHE_MAX_ENTRIES;
    e->table_cap = 1;
    while (e->table_cap < e->max_entries * 2) e->table_cap <<= 1;
    e->table = malloc(sizeof *e->table * (size_t)e->table_cap);
    e->pool = malloc(sizeof *e->pool * (size_t)e->max_entries * (size_t)e->rows_per_voxel);
    e->probe = malloc(sizeof *e->probe * 3 * (size_t)p->probes);
    if (!e->table || !e->pool || !e->probe) {
        snprintf(err, errlen, "enhance: out of memory for the cache (%zu KiB)",
                 ((size_t)e->max_entries * (size_t)e->rows_per_voxel * 2) >> 10);
        enhance_destroy(e);
        return NULL;
    }
    for (int i = 0; i < e->table_cap; i++) e->table[i].slot = -1;
    /* The pattern is generated once (section 3) and quantised to
     * 1/(2F * ENHANCE_SUBUNIT) of a voxel, so fragment centres and probes add
     * exactly in integers and the compute shader reproduces every bit; the
     * sub-unit keeps the quantisation far finer than a fragment. */
    rng r = rng_make(p->probe_seed);
    double scale = (double)p->spread * 2.0 * e->factor * ENHANCE_SUBUNIT;
    for (int i = 0; i < 3 * p->probes; i++) {
        double u = rng_double(&r) * 2.0 - 1.0;
        double v = u * scale;
        e->probe[i] = (int32_t)(v < 0 ? -(int)(-v + 0.5) : (int)(v + 0.5));
    }
    pthread_mutex_init(&e->lock, NULL);
    return e;
}

void enhance_destroy(enhance_ctx *e)
{
    if (!e) return;
    if (e->table) pthread_mutex_destroy(&e->lock);
    free(e->table);
    free(e->pool);
    free(e->probe);
    free(e);
}

const enhance_params *enhance_ctx_params(const enhance_ctx *e) { return &e->p; }
const int32_t *enhance_probes(const enhance_ctx *e) { return e->probe; }

void enhance_get_stats(enhance_ctx *e, enhance_stats *out)
{
    pthread_mutex_lock(&e->lock);
    out->lookups = e->lookups;
    out->hits = e->hits;
    out->cache_entries = e->entries;
    out->cache_bytes = (size_t)e->entries * (size_t)e->rows_per_voxel * sizeof(uint16_t);
    pthread_mutex_unlock(&e->lock);
}

/* ---- operators ------------------------------------------------------------ */

static inline int win_bit(const uint64_t bits[2], int i) { return (int)((bits[i >> 6] >> (i & 63)) & 1u); }

static inline int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Level k covers fragments -1 .. 2^k of the voxel on each axis: one layer
 * beyond the voxel is all that the next level's fragments inside it (and
 * their one layer) need, since a child looks toward its own octant, i.e.
 * back toward its parent's side. */
static void eval_subdivide(const enhance_params *p, const uint64_t bits[2], int band, uint16_t *rows)
{
    _Static_assert(18 == (1 << ENHANCE_MAX_LEVELS) + 2, "grid size");
    uint8_t a[18 * 18 * 18], b[18 * 18 * 18];
    uint8_t *src = a, *dst = b;
    for (int i = 0; i < 27; i++) src[i] = (uint8_t)win_bit(bits, i);
    int n = 3;
    for (int k = 1; k <= p->levels; k++) {
        int m = (1 << k) + 2;
        for (int cy = -1; cy <= (1 << k); cy++) {
            int py = ((cy + 2) >> 1) - 1, dy = (cy - 2 * py) ? 1 : -1;
            int below = band * (1 << k) + cy < 0;
            int thr = below ? p->thr_low : (cy & 1) ? p->thr_odd : p->thr_even;
            for (int cz = -1; cz <= (1 << k); cz++) {
                int pz = ((cz + 2) >> 1) - 1, dz = (cz - 2 * pz) ? 1 : -1;
                for (int cx = -1; cx <= (1 << k); cx++) {
                    int px = ((cx + 2) >> 1) - 1, dx = (cx - 2 * px) ? 1 : -1;
#define S(x, y, z) src[((x) + 1) + ((z) + 1) * n + ((y) + 1) * n * n]
                    int count = S(px, py, pz) + S(px + dx, py, pz) + S(px, py + dy, pz) + S(px, py, pz + dz);
#undef S
                    dst[(cx + 1) + (cz + 1) * m + (cy + 1) * m * m] = (uint8_t)(count >= thr);
                }
            }
        }
        uint8_t *t = src;
        src = dst;
        dst = t;
        n = m;
    }
    int f = 1 << p->levels;
    for (int fy = 0; fy < f; fy++)
        for (int fz = 0; fz < f; fz++) {
            uint16_t row = 0;
            for (int fx = 0; fx < f; fx++)
                if (src[(fx + 1) + (fz + 1) * n + (fy + 1) * n * n]) row |= (uint16_t)(1u << fx);
            rows[fy * f + fz] = row;
        }
}

static void eval_resample(const enhance_ctx *e, const uint64_t bits[2], uint16_t *rows)
{
    int f = e->factor, r = e->radius, n = 2 * r + 1, np = e->p.probes;
    const int32_t *pr = e->probe;
    for (int fy = 0; fy < f; fy++)
        for (int fz = 0; fz < f; fz++) {
            uint16_t row = 0;
            for (int fx = 0; fx < f; fx++) {
                int hits = 0;
                for (int i = 0; i < np; i++) {
                    int vx = floor_div((2 * fx + 1) * ENHANCE_SUBUNIT + pr[3 * i], 2 * f * ENHANCE_SUBUNIT);
                    int vy = floor_div((2 * fy + 1) * ENHANCE_SUBUNIT + pr[3 * i + 1], 2 * f * ENHANCE_SUBUNIT);
                    int vz = floor_div((2 * fz + 1) * ENHANCE_SUBUNIT + pr[3 * i + 2], 2 * f * ENHANCE_SUBUNIT);
                    hits += win_bit(bits, (vx + r) + (vz + r) * n + (vy + r) * n * n);
                }
                if (hits * 100 > e->p.percent * np) row |= (uint16_t)(1u << fx);
            }
            rows[fy * f + fz] = row;
        }
}

void enhance_eval(const enhance_ctx *e, const uint64_t bits[2], int band, uint16_t *rows)
{
    if (e->p.op == ENHANCE_SUBDIVIDE)
        eval_subdivide(&e->p, bits, band, rows);
    else
        eval_resample(e, bits, rows);
}

void enhance_lut_build(const enhance_ctx *e, int band, uint16_t *rows)
{
    /* window bit of the centre and face neighbours in the 3^3 window */
    static const int face_bit[7] = { 13, 12, 14, 4, 22, 10, 16 };
    int per = e->rows_per_voxel;
    for (int c = 0; c < 128; c++) {
        uint64_t bits[2] = { 0, 0 };
        for (int i = 0; i < 7; i++)
            if (c & (1 << i)) bits[0] |= 1ull << face_bit[i];
        eval_subdivide(&e->p, bits, band, rows + (size_t)c * (size_t)per);
    }
}

/* ---- windows, cache ------------------------------------------------------- */

bool enhance_window(const enhance_input *in, int x, int y, int z, int r, uint64_t bits[2])
{
    bits[0] = bits[1] = 0;
    int i = 0, solid = 0, n = 2 * r + 1;
    for (int dy = -r; dy <= r; dy++)
        for (int dz = -r; dz <= r; dz++) {
            const uint8_t *row = &in->vox[ENHANCE_IN_INDEX(x - r, y + dy, z + dz)];
            for (int dx = 0; dx < n; dx++, i++)
                if (enhance_solid(row[dx])) {
                    bits[i >> 6] |= 1ull << (i & 63);
                    solid++;
                }
        }
    return solid != 0 && solid != n * n * n;
}

static inline uint64_t key_hash(uint64_t k0, uint64_t k1, int band)
{
    return rng_mix64(k0 ^ rng_mix64(k1 + (uint64_t)(band + 7)));
}

/* Looks the window up, evaluating and storing it on a miss. The lock covers
 * only the table; evaluation runs unlocked, so two workers may evaluate the
 * same configuration once each (the values are equal, either may win). */
static void cache_get(enhance_ctx *e, const uint64_t bits[2], int band, uint16_t *rows)
{
    int per = e->rows_per_voxel;
    uint64_t h = key_hash(bits[0], bits[1], band);
    pthread_mutex_lock(&e->lock);
    e->lookups++;
    unsigned mask = (unsigned)e->table_cap - 1u, at = (unsigned)h & mask;
    while (e->table[at].slot >= 0) {
        const cache_entry *ce = &e->table[at];
        if (ce->k0 == bits[0] && ce->k1 == bits[1] && ce->band == band) {
            memcpy(rows, e->pool + (size_t)ce->slot * (size_t)per, sizeof *rows * (size_t)per);
            e->hits++;
            pthread_mutex_unlock(&e->lock);
            return;
        }
        at = (at + 1) & mask;
    }
    pthread_mutex_unlock(&e->lock);
    enhance_eval(e, bits, band, rows);
    pthread_mutex_lock(&e->lock);
    at = (unsigned)h & mask;
    while (e->table[at].slot >= 0) {
        const cache_entry *ce = &e->table[at];
        if (ce->k0 == bits[0] && ce->k1 == bits[1] && ce->band == band) break;
        at = (at + 1) & mask;
    }
    if (e->table[at].slot < 0 && e->entries < e->max_entries) {
        int slot = e->entries++;
        memcpy(e->pool + (size_t)slot * (size_t)per, rows, sizeof *rows * (size_t)per);
        e->table[at] = (cache_entry){ bits[0], bits[1], band, slot };
    }
    pthread_mutex_unlock(&e->lock);
}

/* ---- chunks --------------------------------------------------------------- */

void enhance_gather(const world *w, int cx, int cy, int cz, enhance_input *in)
{
    in->cx = cx;
    in->cy = cy;
    in->cz = cz;
    int bx = cx * CHUNK_SIZE, by = cy * CHUNK_SIZE, bz = cz * CHUNK_SIZE;
    for (int y = -ENHANCE_PAD; y < CHUNK_SIZE + ENHANCE_PAD; y++)
        for (int z = -ENHANCE_PAD; z < CHUNK_SIZE + ENHANCE_PAD; z++)
            for (int x = -ENHANCE_PAD; x < CHUNK_SIZE + ENHANCE_PAD; x++) {
                int i = ENHANCE_IN_INDEX(x, y, z);
                bool inside = x >= 0 && y >= 0 && z >= 0 && x < CHUNK_SIZE && y < CHUNK_SIZE && z < CHUNK_SIZE;
                const chunk *c = inside ? world_chunk(w, cx, cy, cz) : NULL;
                if (c) {
                    int li = CHUNK_INDEX(x, y, z);
                    in->vox[i] = c->vox[li];
                    in->tint[i] = chunk_tint(c, li);
                } else {
                    in->vox[i] = world_get(w, bx + x, by + y, bz + z);
                    in->tint[i] = world_get_tint(w, bx + x, by + y, bz + z);
                }
            }
}

void enhance_chunk_free(enhance_chunk *c)
{
    free(c->vox);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

static bool chunk_push(enhance_chunk *c, const enhance_voxel *v, const uint16_t *rows, int per)
{
    if (c->count == c->cap) {
        int cap = c->cap ? c->cap * 2 : 256;
        enhance_voxel *nv = realloc(c->vox, sizeof *nv * (size_t)cap);
        if (!nv) return false;
        c->vox = nv;
        c->cap = cap;
    }
    if (c->row_count + (size_t)per > c->row_cap) {
        size_t cap = c->row_cap ? c->row_cap * 2 : 4096;
        while (cap < c->row_count + (size_t)per) cap *= 2;
        uint16_t *nr = realloc(c->rows, sizeof *nr * cap);
        if (!nr) return false;
        c->rows = nr;
        c->row_cap = cap;
    }
    enhance_voxel nv = *v;
    nv.row = (uint32_t)c->row_count;
    memcpy(c->rows + c->row_count, rows, sizeof *rows * (size_t)per);
    c->row_count += (size_t)per;
    c->vox[c->count++] = nv;
    for (int i = 0; i < per; i++) c->fragments += (uint64_t)__builtin_popcount(rows[i]);
    return true;
}

/* An empty source voxel whose fragments grow out of a neighbour takes the
 * neighbour's material: the one below first, so grass spreads over grass. */
static void source_material(const enhance_input *in, int x, int y, int z, int r, uint8_t *mat, uint8_t *tint)
{
    static const int order[6][3] = { { 0, -1, 0 }, { -1, 0, 0 }, { 1, 0, 0 }, { 0, 0, -1 }, { 0, 0, 1 }, { 0, 1, 0 } };
    int i = ENHANCE_IN_INDEX(x, y, z);
    if (enhance_solid(in->vox[i])) {
        *mat = in->vox[i];
        *tint = in->tint[i];
        return;
    }
    for (int k = 0; k < 6; k++) {
        int j = ENHANCE_IN_INDEX(x + order[k][0], y + order[k][1], z + order[k][2]);
        if (enhance_solid(in->vox[j])) {
            *mat = in->vox[j];
            *tint = in->tint[j];
            return;
        }
    }
    for (int dy = -r; dy <= r; dy++)
        for (int dz = -r; dz <= r; dz++)
            for (int dx = -r; dx <= r; dx++) {
                int j = ENHANCE_IN_INDEX(x + dx, y + dy, z + dz);
                if (enhance_solid(in->vox[j])) {
                    *mat = in->vox[j];
                    *tint = in->tint[j];
                    return;
                }
            }
    *mat = MAT_STONE;
    *tint = 0;
}

static void skip_mark(enhance_chunk *c, int idx, bool skipped)
{
    uint32_t bit = 1u << (idx & 31);
    if (skipped)
        c->skip[idx >> 5] |= bit;
    else
        c->skip[idx >> 5] &= ~bit;
}

static int skip_count(const enhance_chunk *c)
{
    int n = 0;
    for (int i = 0; i < CHUNK_VOLUME / 32; i++) n += __builtin_popcount(c->skip[i]);
    return n;
}

void enhance_chunk_add(const enhance_ctx *e, const enhance_input *in, int x, int y, int z, const uint16_t *rows,
                       enhance_chunk *out)
{
    int idx = CHUNK_INDEX(x, y, z);
    skip_mark(out, idx, rows == NULL);
    if (!rows) return;
    int per = e->rows_per_voxel;
    bool src_solid = enhance_solid(in->vox[ENHANCE_IN_INDEX(x, y, z)]);
    uint16_t full = (uint16_t)((1u << e->factor) - 1u);
    bool uniform = true;
    for (int i = 0; i < per && uniform; i++) uniform = rows[i] == (src_solid ? full : 0);
    if (uniform) return;
    enhance_voxel v = { .index = (uint16_t)idx };
    source_material(in, x, y, z, e->radius, &v.material, &v.tint);
    if (!chunk_push(out, &v, rows, per)) log_error("enhance: out of memory for chunk fragments");
}

void enhance_chunk_reset(const enhance_ctx *e, enhance_chunk *out)
{
    out->factor = e->factor;
    out->count = 0;
    out->row_count = 0;
    out->fragments = 0;
    memset(out->skip, 0, sizeof out->skip);
}

void enhance_chunk_finish(enhance_chunk *out) { out->skipped = skip_count(out); }

/* Enhances voxel (x, y, z) and adds it (see enhance_chunk_add). */
static void enhance_one(enhance_ctx *e, const enhance_input *in, int x, int y, int z, bool surface_only,
                        enhance_chunk *out)
{
    uint16_t rows[ENHANCE_MAX_FACTOR * ENHANCE_MAX_FACTOR];
    uint64_t bits[2];
    bool mixed = enhance_window(in, x, y, z, e->radius, bits);
    if (!mixed && surface_only) {
        enhance_chunk_add(e, in, x, y, z, NULL, out);
        return;
    }
    int band = 0;
    if (e->p.op == ENHANCE_SUBDIVIDE) {
        band = in->cy * CHUNK_SIZE + y - e->p.altitude;
        band = band < -2 ? -2 : band > 1 ? 1 : band;
    }
    if (mixed)
        cache_get(e, bits, band, rows);
    else
        enhance_eval(e, bits, band, rows);
    enhance_chunk_add(e, in, x, y, z, rows, out);
}

void enhance_chunk_build(enhance_ctx *e, const enhance_input *in, bool surface_only, enhance_chunk *out)
{
    enhance_chunk_reset(e, out);
    for (int y = 0; y < CHUNK_SIZE; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) enhance_one(e, in, x, y, z, surface_only, out);
    enhance_chunk_finish(out);
}

static inline bool in_box(int idx, const int lo[3], const int hi[3])
{
    int x = idx & CHUNK_MASK, z = (idx >> CHUNK_BITS) & CHUNK_MASK, y = idx >> (2 * CHUNK_BITS);
    return x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1] && z >= lo[2] && z <= hi[2];
}

void enhance_chunk_update(enhance_ctx *e, const enhance_input *in, const int box_lo[3], const int box_hi[3],
                          enhance_chunk *c)
{
    int r = e->radius, lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = box_lo[a] - r < 0 ? 0 : box_lo[a] - r;
        hi[a] = box_hi[a] + r > CHUNK_MASK ? CHUNK_MASK : box_hi[a] + r;
        if (lo[a] > hi[a]) return; /* the edit cannot reach this chunk */
    }
    int per = e->rows_per_voxel;
    enhance_chunk *fresh = calloc(2, sizeof *fresh);
    if (!fresh) {
        log_error("enhance: out of memory for an update");
        return;
    }
    enhance_chunk *merged = fresh + 1;
    fresh->factor = merged->factor = e->factor;
    for (int y = lo[1]; y <= hi[1]; y++)
        for (int z = lo[2]; z <= hi[2]; z++)
            for (int x = lo[0]; x <= hi[0]; x++) enhance_one(e, in, x, y, z, true, fresh);
    /* Merge by index: old voxels outside the window, fresh ones inside. */
    int i = 0, j = 0;
    while (i < c->count || j < fresh->count) {
        int ii = i < c->count ? c->vox[i].index : 1 << 20;
        int jj = j < fresh->count ? fresh->vox[j].index : 1 << 20;
        if (ii < jj) {
            if (!in_box(ii, lo, hi)) chunk_push(merged, &c->vox[i], c->rows + c->vox[i].row, per);
            i++;
        } else {
            if (ii == jj) i++;
            chunk_push(merged, &fresh->vox[j], fresh->rows + fresh->vox[j].row, per);
            j++;
        }
    }
    /* skip marks: old ones outside the window, fresh ones inside */
    memcpy(merged->skip, c->skip, sizeof c->skip);
    for (int y = lo[1]; y <= hi[1]; y++)
        for (int z = lo[2]; z <= hi[2]; z++)
            for (int x = lo[0]; x <= hi[0]; x++) {
                int idx = CHUNK_INDEX(x, y, z);
                skip_mark(merged, idx, (fresh->skip[idx >> 5] >> (idx & 31)) & 1u);
            }
    merged->skipped = skip_count(merged);
    enhance_chunk_free(fresh);
    enhance_chunk_free(c);
    *c = *merged;
    free(fresh);
}

bool enhance_chunk_fragment(const enhance_chunk *c, const enhance_input *in, int fx, int fy, int fz)
{
    int f = c->factor;
    int x = fx / f, y = fy / f, z = fz / f;
    int idx = CHUNK_INDEX(x, y, z), lo = 0, hi = c->count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->vox[mid].index == idx) {
            uint16_t row = c->rows[c->vox[mid].row + (uint32_t)((fy % f) * f + fz % f)];
            return (row >> (fx % f)) & 1u;
        }
        if (c->vox[mid].index < idx)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return enhance_solid(in->vox[ENHANCE_IN_INDEX(x, y, z)]);
}
