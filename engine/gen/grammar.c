/* grammar: the rule model, orientation into world axes, and the fast
 * derivation. Why it is fast: every distinct predicate of the program keeps a
 * bit plane over the grid (bit x of row (y, z) = predicate holds there), so
 * 64 window positions of a row are tested by AND-ing shifted words, one word
 * per symbol cell, and a row with no match costs a few instructions. Bits are
 * kept exact as transforms write, so later windows see earlier changes as in
 * the paper. Regions (slabs along z) of one phase touch disjoint voxels and
 * run on the workers. */
#include "gen/grammar.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"

static const char *const k_sym_names[GSYM_COUNT] = { "IGN", "PRES", "ABS", "EQ", "NEQ", "LT", "LEQ", "GT", "GEQ" };
static const char *const k_xf_names[GXF_COUNT] = { "NOP", "SET", "ADD" };

const char *grammar_sym_name(int op) { return op >= 0 && op < GSYM_COUNT ? k_sym_names[op] : "?"; }
const char *grammar_xf_name(int op) { return op >= 0 && op < GXF_COUNT ? k_xf_names[op] : "?"; }
bool grammar_sym_has_value(int op) { return op >= GSYM_EQ && op < GSYM_COUNT; }
bool grammar_xf_has_value(int op) { return op == GXF_SET || op == GXF_ADD; }

bool grammar_sym_test(grammar_cell c, float d)
{
    switch (c.op) {
    case GSYM_IGN: return true;
    case GSYM_PRES: return d > 0.f;
    case GSYM_ABS: return d == 0.f;
    case GSYM_EQ: return d == c.v;
    case GSYM_NEQ: return d != c.v;
    case GSYM_LT: return d < c.v;
    case GSYM_LEQ: return d <= c.v;
    case GSYM_GT: return d > c.v;
    case GSYM_GEQ: return d >= c.v;
    default: return false;
    }
}

float grammar_xf_apply(grammar_cell c, float d)
{
    switch (c.op) {
    case GXF_SET: return c.v;
    case GXF_ADD: return d + c.v;
    default: return d;
    }
}

/* World offset of rule cell (i, j, k) for one orientation flag. */
static void orient_cell(const grammar_rule *r, unsigned o, int i, int j, int k, int *dx, int *dz)
{
    int I = r->size[0];
    switch (o) {
    case GRAMMAR_ORIENT_X: *dx = i; *dz = k; break;
    case GRAMMAR_ORIENT_NX: *dx = I - 1 - i; *dz = k; break;
    case GRAMMAR_ORIENT_Z: *dx = k; *dz = i; break;
    default: *dx = k; *dz = I - 1 - i; break; /* GRAMMAR_ORIENT_NZ */
    }
}

static void orient_rule(const grammar_rule *r, unsigned o, int source, grammar_wrule *w)
{
    memset(w, 0, sizeof *w);
    bool along_x = o == GRAMMAR_ORIENT_X || o == GRAMMAR_ORIENT_NX;
    w->size[0] = along_x ? r->size[0] : r->size[2];
    w->size[1] = r->size[1];
    w->size[2] = along_x ? r->size[2] : r->size[0];
    w->weight = r->weight;
    w->source = source;
    for (int k = 0; k < r->size[2]; k++)
        for (int j = 0; j < r->size[1]; j++)
            for (int i = 0; i < r->size[0]; i++) {
                int dx, dz, dy = r->size[1] - 1 - j; /* row 0 is the top */
                orient_cell(r, o, i, j, k, &dx, &dz);
                int wi = dx + w->size[0] * (dy + w->size[1] * dz);
                w->sym[wi] = r->sym[grammar_cell_index(r, i, j, k)];
                w->xf[wi] = r->xf[grammar_cell_index(r, i, j, k)];
            }
}

static bool wrule_same(const grammar_wrule *a, const grammar_wrule *b)
{
    if (memcmp(a->size, b->size, sizeof a->size) != 0) return false;
    int n = a->size[0] * a->size[1] * a->size[2];
    for (int c = 0; c < n; c++)
        if (a->sym[c].op != b->sym[c].op || a->sym[c].v != b->sym[c].v || a->xf[c].op != b->xf[c].op ||
            a->xf[c].v != b->xf[c].v)
            return false;
    return true;
}

/* Largest volume first, then larger x, y, z extent: a total order on sizes. */
static int size_cmp(const int *a, const int *b)
{
    int va = a[0] * a[1] * a[2], vb = b[0] * b[1] * b[2];
    if (va != vb) return vb - va;
    for (int i = 0; i < 3; i++)
        if (a[i] != b[i]) return b[i] - a[i];
    return 0;
}

bool grammar_compile(const grammar *g, unsigned orient, grammar_program *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!(orient & GRAMMAR_ORIENT_ALL)) {
        snprintf(err, errlen, "no orientation selected");
        return false;
    }
    static const unsigned flags[4] = { GRAMMAR_ORIENT_X, GRAMMAR_ORIENT_NX, GRAMMAR_ORIENT_Z, GRAMMAR_ORIENT_NZ };
    grammar_wrule *tmp = malloc(sizeof(grammar_wrule) * GRAMMAR_MAX_RULES * 4);
    if (!tmp) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    int n = 0;
    for (int r = 0; r < g->count; r++) {
        int first = n;
        for (int f = 0; f < 4; f++) {
            if (!(orient & flags[f])) continue;
            orient_rule(&g->rules[r], flags[f], r, &tmp[n]);
            bool dup = false;
            for (int e = first; e < n && !dup; e++) dup = wrule_same(&tmp[e], &tmp[n]);
            if (!dup) n++;
        }
    }
    /* stable grouping by size: a distinct size at a time, in size order, rules in grammar order */
    bool *used = calloc((size_t)n + 1, 1);
    if (!used) {
        free(tmp);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    int placed = 0;
    while (placed < n) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!used[i] && (best < 0 || size_cmp(tmp[i].size, tmp[best].size) < 0)) best = i;
        out->group_start[out->groups++] = placed;
        for (int i = 0; i < n; i++)
            if (!used[i] && size_cmp(tmp[i].size, tmp[best].size) == 0) {
                out->rules[placed++] = tmp[i];
                used[i] = true;
            }
    }
    out->group_start[out->groups] = placed;
    out->count = placed;
    free(used);
    free(tmp);
    return true;
}

bool grammar_params_check(const grammar_params *p, const grammar_grid *g, char *err, size_t errlen)
{
    static const char axis[3] = { 'x', 'y', 'z' };
    int n[3] = { g->nx, g->ny, g->nz };
    for (int a = 0; a < 3; a++) {
        if (p->lo[a] < 0 || p->hi[a] > n[a] || p->lo[a] >= p->hi[a]) {
            snprintf(err, errlen, "bounds %c [%d, %d) lie outside the grid [0, %d)", axis[a], p->lo[a], p->hi[a], n[a]);
            return false;
        }
        if (p->stride[a] < 1) {
            snprintf(err, errlen, "stride %c is %d; it must be at least 1", axis[a], p->stride[a]);
            return false;
        }
    }
    if (p->iterations < 0) {
        snprintf(err, errlen, "iterations is %d; it must not be negative", p->iterations);
        return false;
    }
    return true;
}

uint64_t grammar_tiebreak_key(uint64_t seed, int iter, int group)
{
    return rng_mix64(seed ^ ((uint64_t)(uint32_t)iter << 32) ^ (uint64_t)(uint32_t)group);
}

int grammar_tiebreak(uint64_t seed, int iter, int group, int x, int y, int z, int n)
{
    return (int)(rng_hash3(grammar_tiebreak_key(seed, iter, group), x, y, z) % (uint64_t)n);
}

int grammar_positions(int lo, int hi, int size, int stride)
{
    return hi - lo < size ? 0 : (hi - lo - size) / stride + 1;
}

int grammar_regions(const grammar_params *p, int sz)
{
    int n = grammar_positions(p->lo[2], p->hi[2], sz, p->stride[2]);
    return (n + GRAMMAR_SLAB - 1) / GRAMMAR_SLAB;
}

/* ---- the fast derivation ------------------------------------------------ */

#define MAX_PLANES 32

typedef struct plane_cell {
    uint8_t plane, dx, dy, dz;
    size_t off; /* words from row (y, z) of plane 0 to row (y + dy, z + dz) of `plane` */
} plane_cell;

typedef struct fast_rule {
    int ncells;
    bool exact; /* every non-IGN cell has a plane: the mask is the match, no scalar check */
    plane_cell cells[GRAMMAR_MAX_CELLS];
} fast_rule;

typedef struct fast_ctx {
    const grammar_program *prog;
    grammar_grid *grid;
    const grammar_params *p;
    int nplanes;
    grammar_cell planes[MAX_PLANES];
    int words; /* per row, with one word of padding for shifted reads */
    uint64_t *bits; /* [plane][z][y][word] */
    fast_rule *fr;  /* per program rule */
    /* the group being derived */
    int iter, group, phase;
    uint64_t *valid; /* window x positions of this group, one row of words */
    long long *region_windows, *region_matches;
} fast_ctx;

static inline uint64_t *plane_row(const fast_ctx *c, int p, int y, int z)
{
    return c->bits + (((size_t)p * (size_t)c->grid->nz + (size_t)z) * (size_t)c->grid->ny + (size_t)y) * (size_t)c->words;
}

static int plane_of(fast_ctx *c, grammar_cell s)
{
    for (int i = 0; i < c->nplanes; i++)
        if (c->planes[i].op == s.op && (!grammar_sym_has_value(s.op) || c->planes[i].v == s.v)) return i;
    if (c->nplanes == MAX_PLANES) return -1;
    c->planes[c->nplanes] = s;
    return c->nplanes++;
}

/* Up to 64 predicate results as bits. One loop per operator, so the
 * compiler sees a plain comparison it can unroll and vectorise. */
#define PACK(expr)                                                   \
    for (int i = 0; i < n; i++) w |= (uint64_t)(expr) << i;          \
    break
static uint64_t pack_bits(grammar_cell s, const float *d, int n)
{
    uint64_t w = 0;
    float v = s.v;
    switch (s.op) {
    case GSYM_PRES: PACK(d[i] > 0.f);
    case GSYM_ABS: PACK(d[i] == 0.f);
    case GSYM_EQ: PACK(d[i] == v);
    case GSYM_NEQ: PACK(d[i] != v);
    case GSYM_LT: PACK(d[i] < v);
    case GSYM_LEQ: PACK(d[i] <= v);
    case GSYM_GT: PACK(d[i] > v);
    case GSYM_GEQ: PACK(d[i] >= v);
    default: PACK(true);
    }
    return w;
}
#undef PACK

/* Rows of planes for one z, all y (job: one z each, disjoint words). */
static void build_planes_z(void *arg, int z)
{
    fast_ctx *c = arg;
    const grammar_grid *g = c->grid;
    for (int p = 0; p < c->nplanes; p++) {
        grammar_cell s = c->planes[p];
        for (int y = 0; y < g->ny; y++) {
            uint64_t *row = plane_row(c, p, y, z);
            const float *d = g->d + grammar_grid_index(g, 0, y, z);
            memset(row, 0, sizeof(uint64_t) * (size_t)c->words);
            for (int x0 = 0; x0 < g->nx; x0 += 64) {
                int n = g->nx - x0 < 64 ? g->nx - x0 : 64;
                row[x0 >> 6] = pack_bits(s, d + x0, n);
            }
        }
    }
}

/* 64 bits of a row starting at bit `at` (at >= 0; the padding word reads as zero). */
static inline uint64_t row_bits(const uint64_t *row, int at)
{
    int q = at >> 6, sh = at & 63;
    return sh ? (row[q] >> sh) | (row[q + 1] << (64 - sh)) : row[q];
}

/* Candidate windows at block xb of window row (y, z) for every rule of the group. */
/* Candidate windows at block xb of window row (y, z): per rule of the group
 * into masks[r - g0], their union returned. */
static uint64_t block_candidates(const fast_ctx *c, int g0, int g1, int xb, int y, int z, uint64_t valid, uint64_t *masks)
{
    uint64_t any = 0;
    const uint64_t *base = c->bits + ((size_t)z * (size_t)c->grid->ny + (size_t)y) * (size_t)c->words;
    for (int r = g0; r < g1; r++) {
        const fast_rule *f = &c->fr[r];
        uint64_t m = valid;
        for (int i = 0; i < f->ncells && m; i++) {
            const plane_cell *pc = &f->cells[i];
            m &= row_bits(base + pc->off, xb + pc->dx);
        }
        masks[r - g0] = m;
        any |= m;
    }
    return any;
}

static bool rule_matches(const grammar_wrule *r, const grammar_grid *g, int x, int y, int z)
{
    for (int dz = 0; dz < r->size[2]; dz++)
        for (int dy = 0; dy < r->size[1]; dy++) {
            const float *d = g->d + grammar_grid_index(g, x, y + dy, z + dz);
            const grammar_cell *s = &r->sym[r->size[0] * (dy + r->size[1] * dz)];
            for (int dx = 0; dx < r->size[0]; dx++)
                if (!grammar_sym_test(s[dx], d[dx])) return false;
        }
    return true;
}

static void write_voxel(fast_ctx *c, int x, int y, int z, float v)
{
    c->grid->d[grammar_grid_index(c->grid, x, y, z)] = v;
    for (int p = 0; p < c->nplanes; p++) {
        uint64_t *row = plane_row(c, p, y, z);
        uint64_t bit = 1ull << (x & 63);
        if (grammar_sym_test(c->planes[p], v)) row[x >> 6] |= bit;
        else row[x >> 6] &= ~bit;
    }
}

/* Picks the rule of the group that rewrites window (x, y, z), or -1. A rule
 * whose mask bit is clear does not match; a set bit is the match itself for
 * an exact rule and is confirmed cell by cell otherwise. */
static int select_rule(const fast_ctx *c, int g0, int g1, const uint64_t *masks, int bit, int x, int y, int z)
{
    int best = -1, ties = 0;
    int tied[GRAMMAR_MAX_RULES * 4];
    for (int r = g0; r < g1; r++) {
        const grammar_wrule *w = &c->prog->rules[r];
        if (!((masks[r - g0] >> bit) & 1)) continue;
        if (!c->fr[r].exact && !rule_matches(w, c->grid, x, y, z)) continue;
        if (best < 0 || w->weight > c->prog->rules[best].weight) {
            best = r;
            ties = 0;
            tied[ties++] = r;
        } else if (w->weight == c->prog->rules[best].weight) {
            tied[ties++] = r;
        }
    }
    if (ties > 1) best = tied[grammar_tiebreak(c->p->seed, c->iter, c->group, x, y, z, ties)];
    return best;
}

static void apply_rule(fast_ctx *c, const grammar_wrule *r, int x, int y, int z)
{
    for (int dz = 0; dz < r->size[2]; dz++)
        for (int dy = 0; dy < r->size[1]; dy++)
            for (int dx = 0; dx < r->size[0]; dx++) {
                grammar_cell t = r->xf[dx + r->size[0] * (dy + r->size[1] * dz)];
                if (t.op == GXF_NOP) continue;
                size_t i = grammar_grid_index(c->grid, x + dx, y + dy, z + dz);
                write_voxel(c, x + dx, y + dy, z + dz, grammar_xf_apply(t, c->grid->d[i]));
            }
}

static void derive_region(void *arg, int index)
{
    fast_ctx *c = arg;
    const grammar_params *p = c->p;
    int g0 = c->prog->group_start[c->group], g1 = c->prog->group_start[c->group + 1];
    const int *sz = c->prog->rules[g0].size;
    int region = 2 * index + c->phase;
    int nwz = grammar_positions(p->lo[2], p->hi[2], sz[2], p->stride[2]);
    int nwy = grammar_positions(p->lo[1], p->hi[1], sz[1], p->stride[1]);
    int nwx = grammar_positions(p->lo[0], p->hi[0], sz[0], p->stride[0]);
    int t1 = (region + 1) * GRAMMAR_SLAB < nwz ? (region + 1) * GRAMMAR_SLAB : nwz;
    int xend = p->lo[0] + (nwx - 1) * p->stride[0]; /* last window x */
    long long windows = 0, matches = 0;
    for (int tz = region * GRAMMAR_SLAB; tz < t1; tz++) {
        int z = p->lo[2] + tz * p->stride[2];
        for (int ty = 0; ty < nwy; ty++) {
            int y = p->lo[1] + ty * p->stride[1];
            windows += nwx;
            for (int xb = p->lo[0] & ~63; xb <= xend; xb += 64) {
                uint64_t valid = c->valid[xb >> 6];
                uint64_t masks[GRAMMAR_MAX_RULES * 4];
                uint64_t cand = block_candidates(c, g0, g1, xb, y, z, valid, masks);
                while (cand) {
                    int b = __builtin_ctzll(cand);
                    int r = select_rule(c, g0, g1, masks, b, xb + b, y, z);
                    uint64_t done = b == 63 ? ~0ull : (2ull << b) - 1;
                    if (r >= 0) {
                        apply_rule(c, &c->prog->rules[r], xb + b, y, z);
                        matches++;
                        /* its writes may change the windows after it in this block */
                        cand = block_candidates(c, g0, g1, xb, y, z, valid & ~done, masks);
                    } else {
                        cand &= ~done;
                    }
                }
            }
        }
    }
    c->region_windows[region] = windows;
    c->region_matches[region] = matches;
}

static bool build_fast_rules(fast_ctx *c, char *err, size_t errlen)
{
    for (int r = 0; r < c->prog->count; r++) {
        const grammar_wrule *w = &c->prog->rules[r];
        fast_rule *f = &c->fr[r];
        f->ncells = 0;
        f->exact = true;
        /* the scalar check after a candidate bit is the truth; planes only have to be
         * exact for the cells they filter, so a predicate past MAX_PLANES just filters less */
        for (int dz = 0; dz < w->size[2]; dz++)
            for (int dy = 0; dy < w->size[1]; dy++)
                for (int dx = 0; dx < w->size[0]; dx++) {
                    grammar_cell s = w->sym[dx + w->size[0] * (dy + w->size[1] * dz)];
                    if (s.op == GSYM_IGN) continue;
                    int p = plane_of(c, s);
                    if (p < 0) {
                        f->exact = false;
                        continue;
                    }
                    size_t rows = (size_t)p * (size_t)c->grid->nz * (size_t)c->grid->ny + (size_t)dz * (size_t)c->grid->ny + (size_t)dy;
                    f->cells[f->ncells++] = (plane_cell){ (uint8_t)p, (uint8_t)dx, (uint8_t)dy, (uint8_t)dz, rows * (size_t)c->words };
                }
    }
    (void)err;
    (void)errlen;
    return true;
}

/* Tests a rule's rarest predicates first, so a block is usually rejected by
 * its first word (deep rock fails "air here" at once). The order changes
 * only speed: the AND of all cells is the same. */
static void order_cells(fast_ctx *c)
{
    long long ones[MAX_PLANES];
    size_t row = (size_t)c->grid->nz * (size_t)c->grid->ny * (size_t)c->words;
    for (int p = 0; p < c->nplanes; p++) {
        ones[p] = 0;
        const uint64_t *b = c->bits + (size_t)p * row;
        for (size_t i = 0; i < row; i++) ones[p] += __builtin_popcountll(b[i]);
    }
    for (int r = 0; r < c->prog->count; r++) {
        fast_rule *f = &c->fr[r];
        for (int i = 1; i < f->ncells; i++) /* insertion sort: stable, a handful of cells */
            for (int j = i; j > 0 && ones[f->cells[j].plane] < ones[f->cells[j - 1].plane]; j--) {
                plane_cell t = f->cells[j];
                f->cells[j] = f->cells[j - 1];
                f->cells[j - 1] = t;
            }
    }
}

bool grammar_derive(const grammar_program *prog, grammar_grid *grid, const grammar_params *p, struct job_pool *jobs,
                    grammar_stats *stats, char *err, size_t errlen)
{
    if (stats) memset(stats, 0, sizeof *stats);
    if (!grammar_params_check(p, grid, err, errlen)) return false;
    if (p->iterations == 0 || prog->count == 0) return true;
    fast_ctx c = { .prog = prog, .grid = grid, .p = p };
    c.words = (grid->nx + 63) / 64 + 1;
    c.fr = malloc(sizeof(fast_rule) * (size_t)prog->count);
    int max_regions = grammar_regions(p, 1) + 1;
    c.region_windows = calloc((size_t)max_regions, sizeof(long long));
    c.region_matches = calloc((size_t)max_regions, sizeof(long long));
    c.valid = malloc(sizeof(uint64_t) * (size_t)c.words);
    bool ok = c.fr && c.region_windows && c.region_matches && c.valid && build_fast_rules(&c, err, errlen);
    if (ok) {
        size_t n = (size_t)c.nplanes * (size_t)grid->nz * (size_t)grid->ny * (size_t)c.words;
        c.bits = malloc(sizeof(uint64_t) * (n ? n : 1));
        ok = c.bits != NULL;
    }
    if (!ok) {
        snprintf(err, errlen, "out of memory for the derivation");
    } else {
        if (jobs) job_parallel_for(jobs, grid->nz, build_planes_z, &c);
        else
            for (int z = 0; z < grid->nz; z++) build_planes_z(&c, z);
        order_cells(&c);
        for (c.iter = 0; c.iter < p->iterations; c.iter++)
            for (c.group = 0; c.group < prog->groups; c.group++) {
                const int *sz = prog->rules[prog->group_start[c.group]].size;
                int nwx = grammar_positions(p->lo[0], p->hi[0], sz[0], p->stride[0]);
                int regions = grammar_regions(p, sz[2]);
                if (nwx == 0 || grammar_positions(p->lo[1], p->hi[1], sz[1], p->stride[1]) == 0 || regions == 0) continue;
                memset(c.valid, 0, sizeof(uint64_t) * (size_t)c.words);
                for (int t = 0; t < nwx; t++) {
                    int x = p->lo[0] + t * p->stride[0];
                    c.valid[x >> 6] |= 1ull << (x & 63);
                }
                memset(c.region_windows, 0, sizeof(long long) * (size_t)max_regions);
                memset(c.region_matches, 0, sizeof(long long) * (size_t)max_regions);
                for (c.phase = 0; c.phase < 2; c.phase++) {
                    int count = (regions - c.phase + 1) / 2;
                    if (count <= 0) continue;
                    if (jobs && count > 1) job_parallel_for(jobs, count, derive_region, &c);
                    else
                        for (int i = 0; i < count; i++) derive_region(&c, i);
                }
                if (stats)
                    for (int r = 0; r < regions; r++) {
                        stats->windows += c.region_windows[r];
                        stats->matches += c.region_matches[r];
                    }
            }
    }
    free(c.bits);
    free(c.fr);
    free(c.region_windows);
    free(c.region_matches);
    free(c.valid);
    return ok;
}
