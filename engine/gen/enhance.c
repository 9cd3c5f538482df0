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

/* The rule a voxel's fragments follow: the paper's global thresholds, or
 * with materials on its source material's columns. */
typedef struct enhance_rule {
    int low, even, odd, percent;
} enhance_rule;

struct enhance_ctx {
    enhance_params p;
    int factor, radius, rows_per_voxel;
    /* Materials on: the class of every byte a voxel can hold, and the rule
     * set of each material (materials with equal rules share cache entries). */
    uint8_t cls[256];
    uint8_t rule_of[256];
    enhance_rule rules[MAT_COUNT];
    int rule_count;
    int32_t *probe; /* xyz triples, 1/(2F) voxel units */
    pthread_mutex_t lock;
    cache_entry *table;
    int table_cap, entries, max_entries;
    uint16_t *pool; /* max_entries * rows_per_voxel */
    uint64_t lookups, hits;
};

enhance_params enhance_params_default(void)
{
    enhance_params p = (enhance_params){
        .op = ENHANCE_SUBDIVIDE, .levels = 2, .thr_low = 1, .thr_even = 3, .thr_odd = 4, .altitude = 40,
        .factor = 4, .probes = 64, .spread = 1.0f, .probe_seed = 1, .percent = 25,
    };
    for (int m = 0; m < MAT_COUNT; m++) {
        p.mat_even[m] = material_table[m].enhance.even;
        p.mat_odd[m] = material_table[m].enhance.odd;
        p.mat_percent[m] = material_table[m].enhance.percent;
    }
    return p;
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
    for (int m = 0; m < MAT_COUNT && p->materials; m++) {
        if (p->mat_even[m] < 1 || p->mat_even[m] > 4 || p->mat_odd[m] < 1 || p->mat_odd[m] > 4) {
            snprintf(err, errlen, "enhance: %s thresholds %d, %d outside [1, 4]", material_table[m].name,
                     p->mat_even[m], p->mat_odd[m]);
            return false;
        }
        if (p->mat_percent[m] > 99) {
            snprintf(err, errlen, "enhance: %s percent %d outside [0, 99]", material_table[m].name, p->mat_percent[m]);
            return false;
        }
    }
    return true;
}

/* Rule sets: one (the paper's) with materials off; with them on, one per
 * distinct (class, thresholds) - or (class, percent) for resampling, the
 * only columns its operator reads - in material order. */
static void make_rules(enhance_ctx *e)
{
    const enhance_params *p = &e->p;
    e->rule_count = 0;
    if (!p->materials) {
        e->rules[0] = (enhance_rule){ p->thr_low, p->thr_even, p->thr_odd, p->percent };
        e->rule_count = 1;
        memset(e->rule_of, 0, sizeof e->rule_of);
        memset(e->cls, 0, sizeof e->cls);
        return;
    }
    uint8_t rule_cls[MAT_COUNT];
    for (int m = 0; m < MAT_COUNT; m++) {
        bool sub = p->op == ENHANCE_SUBDIVIDE;
        /* the altitude rule is replaced: `low` is never chosen (band 1) */
        enhance_rule r = { sub ? p->mat_even[m] : 0, sub ? p->mat_even[m] : 0, sub ? p->mat_odd[m] : 0,
                           sub ? 0 : p->mat_percent[m] };
        uint8_t c = material_table[m].enhance.cls;
        int k = 0;
        while (k < e->rule_count && !(rule_cls[k] == c && !memcmp(&e->rules[k], &r, sizeof r))) k++;
        if (k == e->rule_count) {
            e->rules[k] = r;
            rule_cls[k] = c;
            e->rule_count++;
        }
        e->rule_of[m] = (uint8_t)k;
        e->cls[m] = c;
    }
    for (int m = MAT_COUNT; m < 256; m++) e->rule_of[m] = e->rule_of[MAT_NULL], e->cls[m] = e->cls[MAT_NULL];
}

int enhance_rule_sets(const enhance_ctx *e) { return e->rule_count; }

void enhance_rule_table(const enhance_ctx *e, uint32_t out[256])
{
    for (int b = 0; b < 256; b++) {
        const enhance_rule *r = &e->rules[e->rule_of[b]];
        out[b] = (uint32_t)e->cls[b] | (uint32_t)r->even << 8 | (uint32_t)r->odd << 16 | (uint32_t)r->percent << 24;
    }
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
    make_rules(e);
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
static void eval_subdivide(const enhance_rule *p, int levels, const uint64_t bits[2], int band, uint16_t *rows)
{
    _Static_assert(18 == (1 << ENHANCE_MAX_LEVELS) + 2, "grid size");
    uint8_t a[18 * 18 * 18], b[18 * 18 * 18];
    uint8_t *src = a, *dst = b;
    for (int i = 0; i < 27; i++) src[i] = (uint8_t)win_bit(bits, i);
    int n = 3;
    for (int k = 1; k <= levels; k++) {
        int m = (1 << k) + 2;
        for (int cy = -1; cy <= (1 << k); cy++) {
            int py = ((cy + 2) >> 1) - 1, dy = (cy - 2 * py) ? 1 : -1;
            int below = band * (1 << k) + cy < 0;
            int thr = below ? p->low : (cy & 1) ? p->odd : p->even;
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
    int f = 1 << levels;
    for (int fy = 0; fy < f; fy++)
        for (int fz = 0; fz < f; fz++) {
            uint16_t row = 0;
            for (int fx = 0; fx < f; fx++)
                if (src[(fx + 1) + (fz + 1) * n + (fy + 1) * n * n]) row |= (uint16_t)(1u << fx);
            rows[fy * f + fz] = row;
        }
}

static void eval_resample(const enhance_ctx *e, int percent, const uint64_t bits[2], uint16_t *rows)
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
                if (hits * 100 > percent * np) row |= (uint16_t)(1u << fx);
            }
            rows[fy * f + fz] = row;
        }
}

static void eval_rule(const enhance_ctx *e, const enhance_rule *r, const uint64_t bits[2], int band, uint16_t *rows)
{
    if (e->p.op == ENHANCE_SUBDIVIDE)
        eval_subdivide(r, e->p.levels, bits, band, rows);
    else
        eval_resample(e, r->percent, bits, rows);
}

void enhance_eval(const enhance_ctx *e, const uint64_t bits[2], int band, uint16_t *rows)
{
    const enhance_rule paper = { e->p.thr_low, e->p.thr_even, e->p.thr_odd, e->p.percent };
    eval_rule(e, &paper, bits, band, rows);
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
        const enhance_rule paper = { e->p.thr_low, e->p.thr_even, e->p.thr_odd, e->p.percent };
        eval_subdivide(&paper, e->p.levels, bits, band, rows + (size_t)c * (size_t)per);
    }
}

/* ---- windows, cache ------------------------------------------------------- */

/* The bits of the voxels of class `cls` in the window (a material-aware
 * neighbourhood); the count of solid voxels is not needed: the caller
 * already knows the window is mixed. */
static void window_class(const enhance_ctx *e, const enhance_input *in, int x, int y, int z, int r, uint8_t cls,
                         uint64_t bits[2])
{
    bits[0] = bits[1] = 0;
    int i = 0, n = 2 * r + 1;
    for (int dy = -r; dy <= r; dy++)
        for (int dz = -r; dz <= r; dz++) {
            const uint8_t *row = &in->vox[ENHANCE_IN_INDEX(x - r, y + dy, z + dz)];
            for (int dx = 0; dx < n; dx++, i++)
                if (enhance_solid(row[dx]) && e->cls[row[dx]] == cls) bits[i >> 6] |= 1ull << (i & 63);
        }
}

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

/* The cache's third key: the altitude band (-2..1) and the rule set. */
static inline int rule_key(int band, int rule) { return (band + 2) + 4 * rule; }

/* Looks the window up, evaluating and storing it on a miss. The lock covers
 * only the table; evaluation runs unlocked, so two workers may evaluate the
 * same configuration once each (the values are equal, either may win). */
static void cache_get(enhance_ctx *e, const uint64_t bits[2], int band, int rule, uint16_t *rows)
{
    int key = rule_key(band, rule);
    int per = e->rows_per_voxel;
    uint64_t h = key_hash(bits[0], bits[1], key);
    pthread_mutex_lock(&e->lock);
    e->lookups++;
    unsigned mask = (unsigned)e->table_cap - 1u, at = (unsigned)h & mask;
    while (e->table[at].slot >= 0) {
        const cache_entry *ce = &e->table[at];
        if (ce->k0 == bits[0] && ce->k1 == bits[1] && ce->band == key) {
            memcpy(rows, e->pool + (size_t)ce->slot * (size_t)per, sizeof *rows * (size_t)per);
            e->hits++;
            pthread_mutex_unlock(&e->lock);
            return;
        }
        at = (at + 1) & mask;
    }
    pthread_mutex_unlock(&e->lock);
    eval_rule(e, &e->rules[rule], bits, band, rows);
    pthread_mutex_lock(&e->lock);
    at = (unsigned)h & mask;
    while (e->table[at].slot >= 0) {
        const cache_entry *ce = &e->table[at];
        if (ce->k0 == bits[0] && ce->k1 == bits[1] && ce->band == key) break;
        at = (at + 1) & mask;
    }
    if (e->table[at].slot < 0 && e->entries < e->max_entries) {
        int slot = e->entries++;
        memcpy(e->pool + (size_t)slot * (size_t)per, rows, sizeof *rows * (size_t)per);
        e->table[at] = (cache_entry){ bits[0], bits[1], key, slot };
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

/* enhance_chunk_add with the source material already known (mat 0: not yet). */
static void chunk_add(const enhance_ctx *e, const enhance_input *in, int x, int y, int z, const uint16_t *rows,
                      uint8_t mat, uint8_t tint, enhance_chunk *out)
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
    enhance_voxel v = { .index = (uint16_t)idx, .material = mat, .tint = tint };
    if (!mat) source_material(in, x, y, z, e->radius, &v.material, &v.tint);
    if (!chunk_push(out, &v, rows, per)) log_error("enhance: out of memory for chunk fragments");
}

void enhance_chunk_add(const enhance_ctx *e, const enhance_input *in, int x, int y, int z, const uint16_t *rows,
                       enhance_chunk *out)
{
    chunk_add(e, in, x, y, z, rows, 0, 0, out);
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

/* What decides a mixed voxel's fragments besides its window: the altitude
 * band and rule set (the cache key) and, with materials on, its source
 * material, whose class masks the window of an empty voxel. A solid
 * voxel keeps every solid neighbour in its window: a wall of another
 * material holds it up as well as its own does, so the boundary between
 * two solids neither erodes nor opens a seam; only growth into empty
 * space is a matter of class. Returns false when the masked window is
 * empty (no fragment can grow: every rule's threshold is at least 1). */
static bool voxel_rule(const enhance_ctx *e, const enhance_input *in, int x, int y, int z, uint64_t bits[2],
                       int *band, int *rule, uint8_t *mat, uint8_t *tint)
{
    *band = 0;
    *rule = 0;
    *mat = 0;
    if (!e->p.materials) {
        if (e->p.op == ENHANCE_SUBDIVIDE) {
            *band = in->cy * CHUNK_SIZE + y - e->p.altitude;
            *band = *band < -2 ? -2 : *band > 1 ? 1 : *band;
        }
        return true;
    }
    *band = 1; /* the material's pattern replaces the altitude rule */
    source_material(in, x, y, z, e->radius, mat, tint);
    *rule = e->rule_of[*mat];
    if (enhance_solid(in->vox[ENHANCE_IN_INDEX(x, y, z)])) return true;
    window_class(e, in, x, y, z, e->radius, e->cls[*mat], bits);
    return (bits[0] | bits[1]) != 0;
}

bool enhance_voxel_eval(const enhance_ctx *e, const enhance_input *in, int x, int y, int z, uint16_t *rows)
{
    uint64_t bits[2];
    if (!enhance_window(in, x, y, z, e->radius, bits)) return false;
    int band, rule;
    uint8_t mat, tint;
    if (voxel_rule(e, in, x, y, z, bits, &band, &rule, &mat, &tint))
        eval_rule(e, &e->rules[rule], bits, band, rows);
    else
        memset(rows, 0, sizeof *rows * (size_t)e->rows_per_voxel);
    return true;
}

/* Enhances voxel (x, y, z) and adds it (see enhance_chunk_add). */
static void enhance_one(enhance_ctx *e, const enhance_input *in, int x, int y, int z, bool surface_only,
                        enhance_chunk *out)
{
    uint16_t rows[ENHANCE_MAX_FACTOR * ENHANCE_MAX_FACTOR];
    uint64_t bits[2];
    bool mixed = enhance_window(in, x, y, z, e->radius, bits);
    if (!mixed && surface_only) {
        chunk_add(e, in, x, y, z, NULL, 0, 0, out);
        return;
    }
    int band, rule;
    uint8_t mat, tint;
    if (!voxel_rule(e, in, x, y, z, bits, &band, &rule, &mat, &tint))
        memset(rows, 0, sizeof *rows * (size_t)e->rows_per_voxel);
    else if (mixed)
        cache_get(e, bits, band, rule, rows);
    else
        eval_rule(e, &e->rules[rule], bits, band, rows);
    chunk_add(e, in, x, y, z, rows, mat, tint, out);
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
    return enhance_chunk_fragment_material(c, in, fx, fy, fz) != MAT_AIR;
}

uint8_t enhance_chunk_fragment_material(const enhance_chunk *c, const enhance_input *in, int fx, int fy, int fz)
{
    int f = c->factor;
    int x = fx / f, y = fy / f, z = fz / f;
    int idx = CHUNK_INDEX(x, y, z), lo = 0, hi = c->count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->vox[mid].index == idx) {
            uint16_t row = c->rows[c->vox[mid].row + (uint32_t)((fy % f) * f + fz % f)];
            return (row >> (fx % f)) & 1u ? c->vox[mid].material : MAT_AIR;
        }
        if (c->vox[mid].index < idx)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return in->vox[ENHANCE_IN_INDEX(x, y, z)];
}
