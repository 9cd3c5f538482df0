/* grammar: voxel grammars (seed 004, Dey et al. 2018) over a float density grid,
 * optionally with a material per voxel. A rule is an I x J x K symbol of
 * predicates (the paper's on densities, ours on materials and slopes), a
 * transform of the same size and a weight; a derivation slides a window of
 * each rule size over bounds and rewrites the voxels in place. docs/grammar.md gives our reading of the
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

/* Table 1, then the abstract symbols the paper leaves as future work
 * (section 6: "a symbol in terms of the slopes and material types"):
 *   MAT name     the cell's material (grammar_cell_material) is `name`
 *   CLASS name   that material belongs to a class (grammar_class_has)
 *   SLOPE lo hi  the surface slope at the cell (grammar_slope_at), in
 *                degrees, lies in [lo, hi]; 0 <= lo <= hi <= 90
 * New operators go after GSYM_GEQ so the paper's keep their numbers. */
typedef enum grammar_sym_op {
    GSYM_IGN, GSYM_PRES, GSYM_ABS, GSYM_EQ, GSYM_NEQ, GSYM_LT, GSYM_LEQ, GSYM_GT, GSYM_GEQ,
    GSYM_MAT, GSYM_CLASS, GSYM_SLOPE, GSYM_COUNT
} grammar_sym_op;
/* Table 2, then transforms that set a material:
 *   PAINT name   the cell's material becomes `name`; its density is kept
 *   FILL name    the cell becomes solid `name`: density 1 and the material */
typedef enum grammar_xf_op { GXF_NOP, GXF_SET, GXF_ADD, GXF_PAINT, GXF_FILL, GXF_COUNT } grammar_xf_op;

/* One symbol or transform cell. The fields after `op` and `v` were added
 * for the abstract operators (positional initialisers { op, v } still mean
 * what they did); the parser zeroes whatever an operator does not use, so
 * two cells are the same operator iff all fields are equal. */
typedef struct grammar_cell {
    uint8_t op;
    float v;    /* EQ..GEQ, SET, ADD: the value; SLOPE: the lowest angle (degrees) */
    float hi;   /* SLOPE: the highest angle (degrees) */
    uint8_t id; /* MAT, PAINT, FILL: a material id (voxel/material.h); CLASS: a grammar_class */
} grammar_cell;

/* Material classes CLASS tests (docs/grammar.md lists the members).
 * GCLASS_TERRAIN is also what a grammar may write (PAINT, FILL) and what
 * carving turns into air. */
typedef enum grammar_class {
    GCLASS_AIR, GCLASS_TERRAIN, GCLASS_ROCK, GCLASS_SOIL, GCLASS_PLANT, GCLASS_FIXED, GCLASS_COUNT
} grammar_class;
const char *grammar_class_name(int cls);
/* Class by name (case-sensitive, as written by grammar_write), or -1. */
int grammar_class_find(const char *name);
/* Bit c set: the material is in class c. 256 entries so any byte is a valid
 * index (ids past the material table are in no class). Inline below
 * because the caves test every voxel of a box with it. */
extern const uint8_t grammar_material_classes[256];
static inline bool grammar_class_has(int cls, uint8_t mat)
{
    return cls >= 0 && cls < GCLASS_COUNT && ((grammar_material_classes[mat] >> cls) & 1);
}

/* What MAT and CLASS see in a cell of density d and material m: m, except
 * that terrain carved below 0.5 reads as air, because air is what the world
 * will hold there. (A cell grown from air by SET or ADD keeps reading as air
 * until PAINT or FILL names its material; caves give it its neighbours'.) */
uint8_t grammar_cell_material(float d, uint8_t m);

/* What SLOPE sees. With s = (density >= 0.5) over the 3x3x3 block around
 * the cell (cells outside the grid read as the nearest cell inside), gx is
 * the sum of s over the block's +x face of 9 cells minus its -x face, gy and
 * gz likewise, and the slope is atan2(sqrt(gx^2 + gz^2), |gy|) in degrees:
 * 0 for level ground (or a level ceiling), 90 for a vertical wall. Where the
 * gradient is zero (inside rock, in open air) there is no surface and the
 * slope is GRAMMAR_NO_SLOPE, which no SLOPE range contains. The derivation
 * reads the slope of the grid as it stood when the current iteration began
 * (so it stays a per-voxel bit plane and regions stay independent). */
#define GRAMMAR_NO_SLOPE (-1.f)
#define GRAMMAR_SLOPE_MAX 90.f
float grammar_slope_angle(int gx, int gy, int gz);

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
/* Whether the operator is followed by a number in the file format (the
 * abstract operators take names or a range instead; see the parser). */
bool grammar_sym_has_value(int op);
bool grammar_xf_has_value(int op);
/* Whether a symbol operator reads the material (MAT, CLASS) or the slope. */
bool grammar_sym_is_material(int op);
/* Whether a transform operator writes the material (PAINT, FILL). */
bool grammar_xf_is_material(int op);

/* Table 1 on one density (the reference semantics every fast path must
 * match). The abstract operators need more than a density: false here. */
bool grammar_sym_test(grammar_cell c, float d);
/* Every symbol operator on one cell: density d, material m, and the slope
 * at the cell (grammar_slope_at, or GRAMMAR_NO_SLOPE). */
bool grammar_sym_eval(grammar_cell c, float d, uint8_t m, float slope);
/* Table 2 on one density (FILL gives 1, PAINT keeps d). */
float grammar_xf_apply(grammar_cell c, float d);
/* The material after a transform: PAINT and FILL set it, the rest keep m. */
uint8_t grammar_xf_material(grammar_cell c, uint8_t m);

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
    /* What the program reads besides densities (GRAMMAR_NEEDS_*), set by
     * grammar_compile: a caller builds a material channel only when asked,
     * and a derivation that lacks a feature (a GPU one, say) can see at
     * once that it must hand this program to the CPU. 0 = Table 1 and 2 only. */
    unsigned needs;
} grammar_program;

enum {
    GRAMMAR_NEEDS_MATERIAL = 1 << 0, /* MAT, CLASS, PAINT or FILL: grammar_grid.m must be given */
    GRAMMAR_NEEDS_SLOPE = 1 << 1,    /* SLOPE: slope planes rebuilt at each iteration */
};

/* Returns false with a message when orient selects nothing. */
bool grammar_compile(const grammar *g, unsigned orient, grammar_program *out, char *err, size_t errlen);

/* Densities, index x + nx * (y + ny * z), and optionally materials (the
 * same index; voxel/material.h ids), which MAT, CLASS, PAINT and FILL read
 * and write. m may be NULL when the program does not need it. */
typedef struct grammar_grid {
    int nx, ny, nz;
    float *d;
    uint8_t *m;
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

/* The slope of grid cell (x, y, z) as defined above, read straight from the
 * definition (the fast derivation computes whole planes its own way). */
float grammar_slope_at(const grammar_grid *g, int x, int y, int z);

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
 * number of transforms applied. Refuses a program that needs materials on
 * a grid without them. */
typedef struct grammar_stats {
    long long windows, matches;
} grammar_stats;
bool grammar_derive(const grammar_program *prog, grammar_grid *grid, const grammar_params *p, struct job_pool *jobs,
                    grammar_stats *stats, char *err, size_t errlen);

#endif
