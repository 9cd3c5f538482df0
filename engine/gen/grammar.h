/* grammar: voxel grammars (seed 004, Dey et al. 2018) over a float density grid.
 * A rule is an I x J x K symbol of predicates, a transform of the same size
 * and a weight; a derivation slides a window of each rule size over bounds
 * and rewrites the voxels in place. docs/grammar.md gives our reading of the
 * paper, the orientation of 2D rules in 3D and the region order that makes
 * the threaded derivation give the same bits on any number of workers. */
#ifndef STRATA_GRAMMAR_H
#define STRATA_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job_pool;

#define GRAMMAR_MAX_DIM 8    /* largest I, J or K a rule may have */
#define GRAMMAR_MAX_CELLS (GRAMMAR_MAX_DIM * GRAMMAR_MAX_DIM * GRAMMAR_MAX_DIM)
#define GRAMMAR_MAX_RULES 64
#define GRAMMAR_NAME_LEN 32
/* Window positions along z per region: regions of one phase never touch the
 * same voxel because a region spans at least GRAMMAR_MAX_DIM - 1 voxels. */
#define GRAMMAR_SLAB 8

/* Table 1 */
typedef enum grammar_sym_op {
    GSYM_IGN, GSYM_PRES, GSYM_ABS, GSYM_EQ, GSYM_NEQ, GSYM_LT, GSYM_LEQ, GSYM_GT, GSYM_GEQ, GSYM_COUNT
} grammar_sym_op;
/* Table 2 */
typedef enum grammar_xf_op { GXF_NOP, GXF_SET, GXF_ADD, GXF_COUNT } grammar_xf_op;

typedef struct grammar_cell {
    uint8_t op;
    float v;
} grammar_cell;

/* Cells are stored [k][j][i]: i = column (horizontal), j = row from the top
 * (vertical, row 0 highest), k = layer (the other horizontal axis). */
typedef struct grammar_rule {
    char name[GRAMMAR_NAME_LEN];
    int size[3]; /* I, J, K */
    float weight;
    grammar_cell sym[GRAMMAR_MAX_CELLS];
    grammar_cell xf[GRAMMAR_MAX_CELLS];
    int line; /* where it was declared (0 = built in code) */
} grammar_rule;

typedef struct grammar {
    char name[GRAMMAR_NAME_LEN];
    int count;
    grammar_rule rules[GRAMMAR_MAX_RULES];
} grammar;

static inline int grammar_cell_index(const grammar_rule *r, int i, int j, int k)
{
    return i + r->size[0] * (j + r->size[1] * k);
}

const char *grammar_sym_name(int op);
const char *grammar_xf_name(int op);
/* Whether the operator is followed by a value in the file format. */
bool grammar_sym_has_value(int op);
bool grammar_xf_has_value(int op);

/* Table 1 on one density (the reference semantics every fast path must match). */
bool grammar_sym_test(grammar_cell c, float d);
/* Table 2 on one density. */
float grammar_xf_apply(grammar_cell c, float d);

/* How a rule's I x J x K maps onto the world (docs/grammar.md). Rows (J)
 * are always vertical, top row highest. GRAMMAR_ORIENT_X: columns (I) run
 * along +x and layers (K) along +z, the paper's set-up. The others rotate
 * or mirror the rule about the vertical axis; several flags derive every
 * variant (a wall facing any way erodes). */
enum {
    GRAMMAR_ORIENT_X = 1 << 0,  /* I along +x, K along +z */
    GRAMMAR_ORIENT_NX = 1 << 1, /* I along -x (mirrored) */
    GRAMMAR_ORIENT_Z = 1 << 2,  /* I along +z, K along +x */
    GRAMMAR_ORIENT_NZ = 1 << 3, /* I along -z */
    GRAMMAR_ORIENT_ALL = 15,
};

/* A rule placed in world axes: size[0..2] = extent along x, y, z; cells
 * indexed dx + sx * (dy + sy * dz), dy = 0 the lowest row. */
typedef struct grammar_wrule {
    int size[3];
    float weight;
    int source; /* index of the grammar rule it came from */
    grammar_cell sym[GRAMMAR_MAX_CELLS];
    grammar_cell xf[GRAMMAR_MAX_CELLS];
} grammar_wrule;

/* Every rule in every orientation of `orient` (variants identical to an
 * earlier variant of the same rule are dropped), grouped by window size:
 * largest volume first, then larger x, y, z extent. group_start[g] ..
 * group_start[g + 1] - 1 are the rules of group g, in grammar order. */
typedef struct grammar_program {
    int count, groups;
    grammar_wrule rules[GRAMMAR_MAX_RULES * 4];
    int group_start[GRAMMAR_MAX_RULES * 4 + 1];
} grammar_program;

/* Returns false with a message when orient selects nothing. */
bool grammar_compile(const grammar *g, unsigned orient, grammar_program *out, char *err, size_t errlen);

/* Densities, index x + nx * (y + ny * z). */
typedef struct grammar_grid {
    int nx, ny, nz;
    float *d;
} grammar_grid;

static inline size_t grammar_grid_index(const grammar_grid *g, int x, int y, int z)
{
    return (size_t)x + (size_t)g->nx * ((size_t)y + (size_t)g->ny * (size_t)z);
}

typedef struct grammar_params {
    int lo[3], hi[3]; /* bounds: voxels lo <= p < hi; windows lie wholly inside */
    int stride[3];    /* window step per axis, >= 1 */
    int iterations;
    uint64_t seed;    /* tie-breaks between equal-weight matches */
} grammar_params;

/* Whether the bounds and strides fit the grid; a message says which not. */
bool grammar_params_check(const grammar_params *p, const grammar_grid *g, char *err, size_t errlen);

/* The tie-break draw of one window: which of `n` equally weighted matching
 * rules wins at window (x, y, z) of group `group` in iteration `iter`. A hash
 * of the position, not a stream, so regions can run in any order. */
int grammar_tiebreak(uint64_t seed, int iter, int group, int x, int y, int z, int n);
/* The draw's key for one (iteration, group): grammar_tiebreak is
 * rng_hash3(key, x, y, z) % n (the GPU derivation hashes the same way). */
uint64_t grammar_tiebreak_key(uint64_t seed, int iter, int group);

/* Window positions along an axis of bounds [lo, hi) for a window of `size`
 * stepped by `stride`: windows lie wholly inside the bounds. */
int grammar_positions(int lo, int hi, int size, int stride);

/* Number of window regions (slabs of GRAMMAR_SLAB window positions along z)
 * for a group whose windows are sz deep. Phase 0 derives the even regions,
 * phase 1 the odd ones; within a region windows go z, then y, then x, all
 * ascending. */
int grammar_regions(const grammar_params *p, int sz);

/* The fast derivation: predicate bit planes, 64 windows rejected at once,
 * regions of one phase on the pool's workers (NULL = this thread). Same bits
 * as the straightforward reference for any number of workers. Returns the
 * number of transforms applied. */
typedef struct grammar_stats {
    long long windows, matches;
} grammar_stats;
bool grammar_derive(const grammar_program *prog, grammar_grid *grid, const grammar_params *p, struct job_pool *jobs,
                    grammar_stats *stats, char *err, size_t errlen);

#endif
