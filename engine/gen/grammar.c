/* grammar: the rule model, orientation into world axes, and the fast
 * derivation (what each operator means is grammar_ops.c). Why it is fast: every distinct predicate of the program keeps a
 * bit plane over the grid (bit x of row (y, z) = predicate holds there), so
 * 64 window positions of a row are tested by AND-ing shifted words, one word
 * per symbol cell, and a row with no match costs a few instructions. Bits are
 * kept exact as transforms write, so later windows see earlier changes as in
 * the paper. Material predicates (MAT, CLASS) are planes kept exact the same
 * way; slope predicates are planes rebuilt at each iteration's start from the
 * surface cells alone. Regions (slabs along z) of one phase touch disjoint
 * voxels and run on the workers. */
#include "gen/grammar.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "voxel/material.h"

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

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
        if (a->sym[c].op != b->sym[c].op || a->sym[c].v != b->sym[c].v || a->sym[c].hi != b->sym[c].hi ||
            a->sym[c].id != b->sym[c].id || a->xf[c].op != b->xf[c].op || a->xf[c].v != b->xf[c].v ||
            a->xf[c].hi != b->xf[c].hi || a->xf[c].id != b->xf[c].id)
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
    for (int r = 0; r < placed; r++) {
        const grammar_wrule *w = &out->rules[r];
        for (int c = 0; c < w->size[0] * w->size[1] * w->size[2]; c++) {
            if (grammar_sym_is_material(w->sym[c].op) || grammar_xf_is_material(w->xf[c].op))
                out->needs |= GRAMMAR_NEEDS_MATERIAL;
            if (w->sym[c].op == GSYM_SLOPE) out->needs |= GRAMMAR_NEEDS_SLOPE;
        }
    }
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
    /* An earlier rule of the group with the same symbol (the paper's NOP
     * twins, or a ruleset's copies of one symbol), whose mask this rule
     * shares instead of ANDing the same words again; -1 when none. */
    int twin;
    plane_cell cells[GRAMMAR_MAX_CELLS];
} fast_rule;

/* What a plane's bits are made from. Density and material planes are kept
 * exact as transforms write (they depend on the cell alone); slope planes
 * depend on the 3x3x3 block, so they are rebuilt at each iteration's start
 * and read the grid as it stood then (grammar_slope_at's definition). */
enum { PLANE_DENSITY, PLANE_MATERIAL, PLANE_SLOPE };

/* A slope gradient component lies in [-9, 9]: 19^3 angles. */
#define SLOPE_SIDE 19
#define SLOPE_LUT (SLOPE_SIDE * SLOPE_SIDE * SLOPE_SIDE)

typedef struct fast_ctx {
    const grammar_program *prog;
    grammar_grid *grid;
    const grammar_params *p;
    int nplanes;
    grammar_cell planes[MAX_PLANES];
    uint8_t kind[MAX_PLANES];
    uint8_t mat_lut[MAX_PLANES][2][256]; /* material planes: bit by [density >= 0.5][material] */
    bool has_slope;   /* the program tests SLOPE: solid bits and slope planes per iteration */
    float *slope;     /* per cell, the slope at the iteration's start, for the scalar check of
                       * rules that are not exact; NULL when every rule is (the planes say it all) */
    float *slope_lut; /* grammar_slope_angle by gradient */
    uint64_t *solid;  /* density >= 0.5 as bits, laid out like a plane: what the slope is made of */
    uint64_t *slope_scratch; /* 3 rows of words per z: slope_layer's AND and OR of the 3x3 rows, sums done */
    int8_t *slope_cols;      /* 3 rows of nx per z: slope_layer's column sums, each computed once per row */
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

/* Whether two symbol cells test the same thing (fields an operator does not use are ignored). */
static bool same_predicate(grammar_cell a, grammar_cell b)
{
    if (a.op != b.op) return false;
    if (grammar_sym_has_value(a.op)) return a.v == b.v;
    if (grammar_sym_is_material(a.op)) return a.id == b.id;
    if (a.op == GSYM_SLOPE) return a.v == b.v && a.hi == b.hi;
    return true;
}

static int plane_of(fast_ctx *c, grammar_cell s)
{
    for (int i = 0; i < c->nplanes; i++)
        if (same_predicate(c->planes[i], s)) return i;
    if (c->nplanes == MAX_PLANES) return -1;
    int p = c->nplanes++;
    c->planes[p] = s;
    c->kind[p] = grammar_sym_is_material(s.op) ? PLANE_MATERIAL : s.op == GSYM_SLOPE ? PLANE_SLOPE : PLANE_DENSITY;
    if (c->kind[p] == PLANE_MATERIAL)
        for (int m = 0; m < 256; m++) {
            /* the material a cell shows depends on its density only through d < 0.5 */
            c->mat_lut[p][0][m] = grammar_sym_eval(s, 0.f, (uint8_t)m, GRAMMAR_NO_SLOPE);
            c->mat_lut[p][1][m] = grammar_sym_eval(s, 1.f, (uint8_t)m, GRAMMAR_NO_SLOPE);
        }
    return p;
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

/* lut: 256 entries for density < 0.5, then 256 for >= 0.5 */
static uint64_t pack_material(const uint8_t *lut, const float *d, const uint8_t *m, int n)
{
    uint64_t w = 0;
    for (int i = 0; i < n; i++) w |= (uint64_t)lut[(d[i] >= 0.5f) * 256 + m[i]] << i;
    return w;
}

/* Rows of plane p for one z, all y. */
static void pack_plane_z(fast_ctx *c, int p, int z)
{
    const grammar_grid *g = c->grid;
    grammar_cell s = c->planes[p];
    for (int y = 0; y < g->ny; y++) {
        uint64_t *row = plane_row(c, p, y, z);
        size_t at = grammar_grid_index(g, 0, y, z);
        memset(row, 0, sizeof(uint64_t) * (size_t)c->words);
        for (int x0 = 0; x0 < g->nx; x0 += 64) {
            int n = g->nx - x0 < 64 ? g->nx - x0 : 64;
            uint64_t w;
            switch (c->kind[p]) {
            case PLANE_MATERIAL: w = pack_material(&c->mat_lut[p][0][0], g->d + at + x0, g->m + at + x0, n); break;
            default: w = pack_bits(s, g->d + at + x0, n); break;
            }
            row[x0 >> 6] = w;
        }
    }
}

/* Row (y, z) of the solid bits. */
static inline const uint64_t *solid_row(const fast_ctx *c, int y, int z)
{
    return c->solid + ((size_t)z * (size_t)c->grid->ny + (size_t)y) * (size_t)c->words;
}

/* The solid bits of layer z (job: one z each). */
static void solid_z(void *arg, int z)
{
    fast_ctx *c = arg;
    const grammar_grid *g = c->grid;
    grammar_cell geq = { GSYM_GEQ, 0.5f, 0.f, 0 };
    for (int y = 0; y < g->ny; y++) {
        uint64_t *row = c->solid + ((size_t)z * (size_t)g->ny + (size_t)y) * (size_t)c->words;
        const float *d = g->d + grammar_grid_index(g, 0, y, z);
        memset(row, 0, sizeof(uint64_t) * (size_t)c->words);
        for (int x0 = 0; x0 < g->nx; x0 += 64) row[x0 >> 6] = pack_bits(geq, d + x0, g->nx - x0 < 64 ? g->nx - x0 : 64);
    }
}

/* Sums over the 3x3 rows r[j][i] (j: y - 1..y + 1, i: z - 1..z + 1) at x:
 * the solid count, and the +y minus -y and +z minus -z counts, into
 * cols[x], cols[nx + x], cols[2 nx + x]. A surface cell needs those of
 * x - 1, x and x + 1, and its neighbours share them: `done` marks the x
 * already summed in this row. */
static inline void column_sums(const uint64_t *r[3][3], int x, int nx, int8_t *cols, uint64_t *done)
{
    if ((done[x >> 6] >> (x & 63)) & 1) return;
    done[x >> 6] |= 1ull << (x & 63);
    int b = 0, u = 0, k = 0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            int sv = (int)((r[j][i][x >> 6] >> (x & 63)) & 1);
            b += sv;
            u += (j - 1) * sv;
            k += (i - 1) * sv;
        }
    cols[x] = (int8_t)b;
    cols[nx + x] = (int8_t)u;
    cols[2 * nx + x] = (int8_t)k;
}

/* The slope planes' rows of layer z (and the slope of every cell when the
 * scalar check needs it), by grammar_slope_at's definition. Most cells lie in rock or air whose
 * whole 3x3x3 block is one thing: no slope. The AND and OR of the nine rows
 * around a row, and of their neighbours along x, find those 64 cells at a
 * time; only the rest (the surface) is summed, from the solid bits. Cells
 * outside the grid read as the nearest inside: the rows are clamped, and
 * along x the shifted-in zero only sends an edge cell to the exact sum. */
static void slope_layer(fast_ctx *c, int z)
{
    const grammar_grid *g = c->grid;
    int nx = g->nx, words = c->words;
    uint64_t *and9 = c->slope_scratch + 3 * (size_t)words * (size_t)z, *or9 = and9 + words, *done = or9 + words;
    int8_t *cols = c->slope_cols + 3 * (size_t)nx * (size_t)z;
    for (int y = 0; y < g->ny; y++) {
        const uint64_t *r[3][3];
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++) r[j][i] = solid_row(c, clampi(y + j - 1, 0, g->ny - 1), clampi(z + i - 1, 0, g->nz - 1));
        for (int w = 0; w < words; w++) {
            uint64_t a = ~0ull, o = 0;
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++) a &= r[j][i][w], o |= r[j][i][w];
            and9[w] = a;
            or9[w] = o;
        }
        memset(done, 0, sizeof(uint64_t) * (size_t)words);
        float *out = c->slope ? c->slope + grammar_grid_index(g, 0, y, z) : NULL;
        for (int x = 0; out && x < nx; x++) out[x] = GRAMMAR_NO_SLOPE;
        for (int p = 0; p < c->nplanes; p++)
            if (c->kind[p] == PLANE_SLOPE) memset(plane_row(c, p, y, z), 0, sizeof(uint64_t) * (size_t)words);
        for (int w = 0; w * 64 < nx; w++) {
            /* bit x of left/right: the word's value at x - 1 / x + 1 (the padding word reads as zero) */
            uint64_t al = and9[w] << 1 | (w ? and9[w - 1] >> 63 : 0), ar = and9[w] >> 1 | and9[w + 1] << 63;
            uint64_t ol = or9[w] << 1 | (w ? or9[w - 1] >> 63 : 0), orr = or9[w] >> 1 | or9[w + 1] << 63;
            uint64_t uniform = (and9[w] & al & ar) | ~(or9[w] | ol | orr);
            uint64_t valid = nx - w * 64 >= 64 ? ~0ull : (1ull << (nx - w * 64)) - 1;
            for (uint64_t mixed = ~uniform & valid; mixed; mixed &= mixed - 1) {
                int x = w * 64 + __builtin_ctzll(mixed), xm = x > 0 ? x - 1 : 0, xp = x + 1 < nx ? x + 1 : nx - 1;
                column_sums(r, xm, nx, cols, done);
                column_sums(r, x, nx, cols, done);
                column_sums(r, xp, nx, cols, done);
                const int8_t *u = cols + nx, *k = cols + 2 * nx;
                int gx = cols[xp] - cols[xm], gy = u[xm] + u[x] + u[xp], gz = k[xm] + k[x] + k[xp];
                float a = c->slope_lut[(gx + 9) + SLOPE_SIDE * ((gy + 9) + SLOPE_SIDE * (gz + 9))];
                if (out) out[x] = a;
                for (int p = 0; p < c->nplanes; p++)
                    if (c->kind[p] == PLANE_SLOPE && a >= c->planes[p].v && a <= c->planes[p].hi)
                        plane_row(c, p, y, z)[w] |= 1ull << (x & 63);
            }
        }
    }
}

/* Rows of planes for one z, all y (job: one z each, disjoint words). */
static void build_planes_z(void *arg, int z)
{
    fast_ctx *c = arg;
    if (c->has_slope) slope_layer(c, z);
    for (int p = 0; p < c->nplanes; p++)
        if (c->kind[p] != PLANE_SLOPE) pack_plane_z(c, p, z);
}

/* The slope and its planes again, between iterations (job: one z each). */
static void rebuild_slope_z(void *arg, int z) { slope_layer(arg, z); }

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
        if (f->twin >= 0) {
            masks[r - g0] = masks[f->twin - g0];
            continue;
        }
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

static bool rule_matches(const fast_ctx *c, const grammar_wrule *r, int x, int y, int z)
{
    const grammar_grid *g = c->grid;
    for (int dz = 0; dz < r->size[2]; dz++)
        for (int dy = 0; dy < r->size[1]; dy++) {
            size_t at = grammar_grid_index(g, x, y + dy, z + dz);
            const grammar_cell *s = &r->sym[r->size[0] * (dy + r->size[1] * dz)];
            for (int dx = 0; dx < r->size[0]; dx++)
                if (!grammar_sym_eval(s[dx], g->d[at + (size_t)dx], g->m ? g->m[at + (size_t)dx] : MAT_AIR,
                                      c->slope ? c->slope[at + (size_t)dx] : GRAMMAR_NO_SLOPE))
                    return false;
        }
    return true;
}

/* Writes a cell and keeps its density and material bits exact (slope
 * planes hold the iteration's start by definition). */
static void write_voxel(fast_ctx *c, int x, int y, int z, float v, uint8_t m)
{
    size_t i = grammar_grid_index(c->grid, x, y, z);
    c->grid->d[i] = v;
    if (c->grid->m) c->grid->m[i] = m;
    for (int p = 0; p < c->nplanes; p++) {
        bool on;
        switch (c->kind[p]) {
        case PLANE_SLOPE: continue;
        case PLANE_MATERIAL: on = c->mat_lut[p][v >= 0.5f][m]; break;
        default: on = grammar_sym_test(c->planes[p], v); break;
        }
        uint64_t *row = plane_row(c, p, y, z);
        uint64_t bit = 1ull << (x & 63);
        if (on) row[x >> 6] |= bit;
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
        if (!c->fr[r].exact && !rule_matches(c, w, x, y, z)) continue;
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
                uint8_t m = c->grid->m ? grammar_xf_material(t, c->grid->m[i]) : (uint8_t)MAT_AIR;
                write_voxel(c, x + dx, y + dy, z + dz, grammar_xf_apply(t, c->grid->d[i]), m);
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
    /* twins: same group (so same size), same cells on the same planes */
    for (int gi = 0; gi < c->prog->groups; gi++)
        for (int r = c->prog->group_start[gi]; r < c->prog->group_start[gi + 1]; r++) {
            fast_rule *f = &c->fr[r];
            f->twin = -1;
            for (int e = c->prog->group_start[gi]; e < r && f->twin < 0; e++) {
                const fast_rule *o = &c->fr[e];
                bool same = o->twin < 0 && o->exact && f->exact && o->ncells == f->ncells;
                for (int i = 0; same && i < f->ncells; i++) /* field by field: the struct has padding */
                    same = o->cells[i].plane == f->cells[i].plane && o->cells[i].dx == f->cells[i].dx &&
                           o->cells[i].dy == f->cells[i].dy && o->cells[i].dz == f->cells[i].dz;
                if (same) f->twin = e;
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

/* Whether some rule could ever match: a rule whose symbol names, with MAT,
 * a material the grid does not hold and no transform of the program writes
 * never will (air is always possible: carving makes it). A feature ruleset
 * about mesas costs one pass over the materials in a tile with none. */
static bool any_rule_can_match(const grammar_program *prog, const grammar_grid *grid)
{
    if (!grid->m || !(prog->needs & GRAMMAR_NEEDS_MATERIAL)) return true;
    bool can[256] = { false };
    can[MAT_AIR] = true;
    size_t n = (size_t)grid->nx * (size_t)grid->ny * (size_t)grid->nz;
    for (size_t i = 0; i < n; i++) can[grid->m[i]] = true;
    for (int r = 0; r < prog->count; r++) {
        const grammar_wrule *w = &prog->rules[r];
        for (int i = 0; i < w->size[0] * w->size[1] * w->size[2]; i++)
            if (grammar_xf_is_material(w->xf[i].op)) can[w->xf[i].id] = true;
    }
    for (int r = 0; r < prog->count; r++) {
        const grammar_wrule *w = &prog->rules[r];
        bool possible = true;
        for (int i = 0; possible && i < w->size[0] * w->size[1] * w->size[2]; i++)
            if (w->sym[i].op == GSYM_MAT && !can[w->sym[i].id]) possible = false;
        if (possible) return true;
    }
    return false;
}

bool grammar_derive(const grammar_program *prog, grammar_grid *grid, const grammar_params *p, struct job_pool *jobs,
                    grammar_stats *stats, char *err, size_t errlen)
{
    if (stats) memset(stats, 0, sizeof *stats);
    if (!grammar_params_check(p, grid, err, errlen)) return false;
    if ((prog->needs & GRAMMAR_NEEDS_MATERIAL) && !grid->m) {
        snprintf(err, errlen, "the ruleset reads or writes materials (MAT, CLASS, PAINT, FILL) but the grid has none");
        return false;
    }
    if (p->iterations == 0 || prog->count == 0 || !any_rule_can_match(prog, grid)) return true;
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
    if (ok && (prog->needs & GRAMMAR_NEEDS_SLOPE)) {
        c.has_slope = true;
        bool scalar = false;
        for (int r = 0; r < prog->count; r++) scalar = scalar || !c.fr[r].exact;
        if (scalar) c.slope = malloc(sizeof(float) * (size_t)grid->nx * (size_t)grid->ny * (size_t)grid->nz);
        c.slope_lut = malloc(sizeof(float) * SLOPE_LUT);
        c.solid = malloc(sizeof(uint64_t) * (size_t)grid->nz * (size_t)grid->ny * (size_t)c.words);
        c.slope_scratch = malloc(sizeof(uint64_t) * 3 * (size_t)c.words * (size_t)grid->nz);
        c.slope_cols = malloc(3 * (size_t)grid->nx * (size_t)grid->nz);
        ok = (c.slope || !scalar) && c.slope_lut && c.solid && c.slope_scratch && c.slope_cols;
        for (int i = 0; ok && i < SLOPE_LUT; i++)
            c.slope_lut[i] = grammar_slope_angle(i % SLOPE_SIDE - 9, i / SLOPE_SIDE % SLOPE_SIDE - 9, i / (SLOPE_SIDE * SLOPE_SIDE) - 9);
    }
    if (!ok) {
        snprintf(err, errlen, "out of memory for the derivation");
    } else {
        /* the slope reads the solid bits of neighbouring layers: all of them first */
        if (c.has_slope && jobs) job_parallel_for(jobs, grid->nz, solid_z, &c);
        else if (c.has_slope)
            for (int z = 0; z < grid->nz; z++) solid_z(&c, z);
        if (jobs) job_parallel_for(jobs, grid->nz, build_planes_z, &c);
        else
            for (int z = 0; z < grid->nz; z++) build_planes_z(&c, z);
        order_cells(&c);
        for (c.iter = 0; c.iter < p->iterations; c.iter++) {
            if (c.has_slope && c.iter > 0) {
                if (jobs) {
                    job_parallel_for(jobs, grid->nz, solid_z, &c);
                    job_parallel_for(jobs, grid->nz, rebuild_slope_z, &c);
                } else {
                    for (int z = 0; z < grid->nz; z++) solid_z(&c, z);
                    for (int z = 0; z < grid->nz; z++) rebuild_slope_z(&c, z);
                }
            }
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
    }
    free(c.slope);
    free(c.slope_lut);
    free(c.solid);
    free(c.slope_scratch);
    free(c.slope_cols);
    free(c.bits);
    free(c.fr);
    free(c.region_windows);
    free(c.region_matches);
    free(c.valid);
    return ok;
}
