/* expr: the formula language of seed 003 (Wilder), shapes from formulas.
 * A formula is compiled once, in postfix (the paper's notation) or infix
 * (what users type), into one flat program; evaluating it allocates nothing,
 * and the grid evaluator hoists work that does not vary along a row. */
#ifndef STRATA_EXPR_H
#define STRATA_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The language, both notations:
 *   numbers     12  3.5  .5  1e-3     (postfix only: -2 is a literal when '-'
 *                                      is directly followed by a digit)
 *   constants   PI  E                 (names are case-insensitive)
 *   arithmetic  + - * /   ^ (power; also pow)   sqrt   sin cos tan
 *               infix also: unary - and +, pow(a, b), parentheses
 *   logic       and or not            (true is any finite non-zero value)
 *   comparison  = (also ==)  <  >  <=  >=      false 0, true 1
 *   variables   x y z    the voxel's grid index
 *               cx cy cz the index relative to the grid centre:
 *                        cx = x - (sx - 1) / 2. The centre is the middle of
 *                        the voxel centres, not sx / 2 (the paper's code),
 *                        so a shape is symmetric: in an 8-grid cx runs
 *                        -3.5 .. 3.5 and "sr < r" is a round ball, not one
 *                        shifted by half a voxel.
 *               r        radius of the largest sphere the grid holds:
 *                        min(sx, sy, sz) / 2 (real, 3.5 for a 7-grid)
 *               sr       distance to the centre, sqrt(cx^2 + cy^2 + cz^2)
 *               cr       radius in the XZ plane, sqrt(cx^2 + cz^2)
 * Infix precedence, loosest first: or; and; comparisons (left-assoc);
 * + -; * /; unary - + not; ^ (right-assoc, so -2^2 = -4 and 2^3^2 = 512).
 *
 * Semantics: doubles throughout. '=' is equality on the grid: a = b holds
 * when |a - b| <= 1/2, half a voxel, since the variables count voxels. On
 * integers (x y z, constants) that is exact equality; on a half-integer
 * like cy in an even grid it picks the nearest layer, so the paper's hills
 * formula "cx 5 / sin 5 * cz 5 / sin 5 * + cy =" is a one-voxel sheet over
 * every column, as in its Figure 5 (exact equality would select almost
 * nothing); a tie (cy = 0 in an even grid) selects both layers. Division
 * by zero gives NaN (not infinity), so it never turns into "solid" through a
 * comparison; a voxel is solid iff its value is finite and non-zero, so NaN
 * and infinities are empty. */

typedef enum expr_syntax {
    EXPR_AUTO,    /* infix if it parses, else postfix; see expr_compile */
    EXPR_POSTFIX, /* the paper's notation: "x x * y y * + sqrt r <" */
    EXPR_INFIX,   /* "sqrt(x*x + y*y) < r" */
} expr_syntax;

/* Longest program (one entry per number, variable and operator after
 * constant folding) and deepest infix nesting. */
#define EXPR_MAX_OPS 255
#define EXPR_MAX_DEPTH 64

/* Compiled program: a flat list in evaluation order (a postfix program in
 * SSA form). Entry i reads the results of entries a[i] and b[i] (< i); the
 * last entry is the result. Plain data: copy it freely. */
typedef struct expr_program {
    int count;
    uint8_t op[EXPR_MAX_OPS];
    uint8_t a[EXPR_MAX_OPS], b[EXPR_MAX_OPS];
    uint8_t dep[EXPR_MAX_OPS]; /* bit 0: varies with x, 1: with y, 2: with z, 3: with the grid size */
    double k[EXPR_MAX_OPS];    /* value of a constant entry */
    expr_syntax syntax;        /* the notation it was compiled from (never AUTO) */
} expr_program;

/* Values of the variables at one point (expr_vars_at fills them for a grid). */
typedef struct expr_vars {
    double x, y, z, cx, cy, cz, r, sr, cr;
} expr_vars;

/* Compiles `src`. On failure returns false, leaves `out` untouched and
 * writes "column C: what was wrong (expected what)" into err, columns
 * counted from 1. EXPR_AUTO tries infix, then postfix, and uses whichever
 * compiles. No formula of two or more tokens is valid in both (infix never
 * has two operands in a row, postfix always starts with two, or with one
 * and a unary operator after it), and a single token means the same in both,
 * so the choice never changes a meaning. When neither compiles, the error
 * reported is the infix one if the text has parentheses or commas, else the
 * one from the notation that got further before failing (infix on a tie). */
bool expr_compile(const char *src, expr_syntax syntax, expr_program *out, char *err, size_t errlen);

/* Variables of voxel (x, y, z) in an sx * sy * sz grid, as defined above. */
void expr_vars_at(expr_vars *v, int x, int y, int z, int sx, int sy, int sz);

/* Value of the program at one point. */
double expr_eval(const expr_program *p, const expr_vars *v);

/* The grid rule: a value is solid iff finite and non-zero. */
/* How far apart the two sides of '=' may be and still be equal. */
#define EXPR_EQ_TOLERANCE 0.5

static inline bool expr_truthy(double v) { return v == v && v != 0.0 && v - v == 0.0; }

/* Evaluates every voxel of an sx * sy * sz grid into out (1 solid, 0 empty),
 * laid out like a chunk: x fastest, then z, then y. Returns the number of
 * solid voxels. The result equals expr_eval at every voxel, bit for bit:
 * the same operations run on the same values, only hoisted (an entry that
 * does not depend on x is computed once per row, one that depends only on
 * x once per block of columns). No allocation. */
long expr_eval_grid(const expr_program *p, int sx, int sy, int sz, uint8_t *out);

/* The formula in postfix, as the compiler understood it (for `tool.info`
 * and error reports); constants print with %.17g. */
void expr_to_postfix(const expr_program *p, char *out, size_t len);

#endif
