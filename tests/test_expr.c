/* The formula language: every operator in both notations, grids that agree
 * between notations and with the point evaluator, the paper's formulas,
 * error columns, NaN and division by zero, shape limits. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/expr.h"
#include "gen/shape.h"

/* x=3 y=4 z=5 in a 10x8x6 grid: cx=-1.5 cy=0.5 cz=2.5 r=3 */
static double eval_at(const char *src, expr_syntax syn)
{
    expr_program p;
    char err[256];
    if (!expr_compile(src, syn, &p, err, sizeof err)) fail_msg("'%s' refused: %s", src, err);
    expr_vars v;
    expr_vars_at(&v, 3, 4, 5, 10, 8, 6);
    return expr_eval(&p, &v);
}

typedef struct op_case {
    const char *infix, *postfix;
    double want;
} op_case;

static void test_every_operator_both_notations(void **state)
{
    (void)state;
    const op_case cases[] = {
        { "7", "7", 7 },
        { "2.5e1", "2.5e1", 25 },
        { ".5", ".5", 0.5 },
        { "PI", "PI", 3.14159265358979323846 },
        { "E", "E", 2.71828182845904523536 },
        { "pi + e", "pi e +", 3.14159265358979323846 + 2.71828182845904523536 },
        { "x", "x", 3 }, { "y", "y", 4 }, { "z", "z", 5 },
        { "cx", "cx", -1.5 }, { "cy", "cy", 0.5 }, { "cz", "cz", 2.5 },
        { "r", "r", 3 },
        { "sr", "sr", sqrt(1.5 * 1.5 + 0.5 * 0.5 + 2.5 * 2.5) },
        { "cr", "cr", sqrt(1.5 * 1.5 + 2.5 * 2.5) },
        { "x + y", "x y +", 7 }, { "x - y", "x y -", -1 }, { "x * y", "x y *", 12 }, { "x / y", "x y /", 0.75 },
        { "x ^ 2", "x 2 ^", 9 }, { "pow(x, 2)", "x 2 pow", 9 }, { "sqrt(y)", "y sqrt", 2 },
        { "sin(x)", "x sin", sin(3.0) }, { "cos(x)", "x cos", cos(3.0) }, { "tan(x)", "x tan", tan(3.0) },
        { "x and y", "x y and", 1 }, { "x and 0", "x 0 and", 0 },
        { "0 or y", "0 y or", 1 }, { "0 or 0", "0 0 or", 0 },
        { "not x", "x not", 0 }, { "not 0", "0 not", 1 },
        { "x = 3", "x 3 =", 1 }, { "x == 4", "x 4 ==", 0 },
        /* '=' holds within half a voxel: exact on integers, nearest layer on half-integers */
        { "x = 3.5", "x 3.5 =", 1 }, { "x = 2.5", "x 2.5 =", 1 }, { "x = 3.51", "x 3.51 =", 0 },
        { "cy = 0", "cy 0 =", 1 }, { "cy = 1", "cy 1 =", 1 }, { "cy = -0.01", "cy -0.01 =", 0 },
        { "x < y", "x y <", 1 }, { "y < x", "y x <", 0 },
        { "x > y", "x y >", 0 }, { "y > x", "y x >", 1 },
        { "x <= 3", "x 3 <=", 1 }, { "x <= 2", "x 2 <=", 0 },
        { "x >= 3", "x 3 >=", 1 }, { "x >= 4", "x 4 >=", 0 },
        { "-x", "x -1 *", -3 }, { "-x", "-3", -3 }, { "+x", "x", 3 },
        { "cx*cx + cy*cy + cz*cz", "cx cx * cy cy * + cz cz * +", 1.5 * 1.5 + 0.25 + 6.25 },
        /* precedence and associativity */
        { "1 + 2 * 3", "1 2 3 * +", 7 }, { "(1 + 2) * 3", "1 2 + 3 *", 9 },
        { "8 - 2 - 1", "8 2 - 1 -", 5 }, { "8 / 2 / 2", "8 2 / 2 /", 2 },
        { "2 ^ 3 ^ 2", "2 3 2 ^ ^", 512 }, { "-2 ^ 2", "2 2 ^ -1 *", -4 }, { "2 ^ -1", "2 -1 ^", 0.5 },
        { "1 < 2 = 1", "1 2 < 1 =", 1 }, { "1 or 0 and 0", "1 0 0 and or", 1 },
        { "x + 1 < y and not 0", "x 1 + y < 0 not and", 0 },
        { "not x < 2", "x not 2 <", 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double a = eval_at(cases[i].infix, EXPR_INFIX), b = eval_at(cases[i].postfix, EXPR_POSTFIX);
        if (fabs(a - cases[i].want) > 1e-12 || fabs(b - cases[i].want) > 1e-12)
            fail_msg("case %zu: infix '%s' = %.17g, postfix '%s' = %.17g, want %.17g", i, cases[i].infix, a,
                     cases[i].postfix, b, cases[i].want);
        /* AUTO understands both */
        assert_true(fabs(eval_at(cases[i].infix, EXPR_AUTO) - a) <= 1e-12);
        assert_true(fabs(eval_at(cases[i].postfix, EXPR_AUTO) - b) <= 1e-12);
    }
}

static long grid_of(const char *src, expr_syntax syn, int sx, int sy, int sz, uint8_t *out)
{
    expr_program p;
    char err[256];
    if (!expr_compile(src, syn, &p, err, sizeof err)) fail_msg("'%s' refused: %s", src, err);
    return expr_eval_grid(&p, sx, sy, sz, out);
}

static void test_infix_and_postfix_give_identical_grids(void **state)
{
    (void)state;
    const char *pairs[][2] = {
        { "sqrt(cx*cx + cy*cy + cz*cz) < r", "cx cx * cy cy * + cz cz * + sqrt r <" },
        { "cy < 5*sin(cx/5) + 5*sin(cz/5)", "cy 5 cx 5 / sin * 5 cz 5 / sin * + <" },
        { "sr < r and not (cr < r/2)", "sr r < cr r 2 / < not and" },
        { "(x + y*z) / (z - 3) > 2 or tan(x*y) < -1", "x y z * + z 3 - / 2 > x y * tan -1 < or" },
        { "pow(cx, 2) + cy^2 <= cz*cz*E - PI", "cx 2 pow cy 2 ^ + cz cz * E * PI - <=" },
        { "cos(sr) = cos(sr)", "sr cos sr cos =" },
    };
    enum { SX = 37, SY = 11, SZ = 29 }; /* odd sizes, more than one evaluation block along x */
    static uint8_t a[SX * SY * SZ], b[SX * SY * SZ];
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        long na = grid_of(pairs[i][0], EXPR_INFIX, SX, SY, SZ, a);
        long nb = grid_of(pairs[i][1], EXPR_POSTFIX, SX, SY, SZ, b);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, sizeof a);
        /* and both are the same program */
        expr_program p, q;
        char err[256];
        assert_true(expr_compile(pairs[i][0], EXPR_INFIX, &p, err, sizeof err));
        assert_true(expr_compile(pairs[i][1], EXPR_POSTFIX, &q, err, sizeof err));
        assert_int_equal(p.count, q.count);
        assert_memory_equal(p.op, q.op, (size_t)p.count);
        assert_memory_equal(p.k, q.k, sizeof(double) * (size_t)p.count);
    }
}

/* The hoisting grid evaluator agrees with expr_eval voxel by voxel. */
static void test_grid_matches_point_evaluation(void **state)
{
    (void)state;
    const char *formulas[] = {
        "sr < r", "x", "0", "1", "r > 3", "cy < 5*sin(cx/5) + 5*sin(cz/5)", "x*y*z % 0",
        "sin(x*y*z) > 0.3", "cr < r and y < 5", "(x - 3) / (z - 4) > 0.5", "sqrt(cy - cx) < 2",
        "not (x / 0)", "tan(cx) * cos(cz) >= 0 or cy = 0.5", "x - x + 1/(y - y)", "-sr + r",
    };
    int sizes[][3] = { { 1, 1, 1 }, { 8, 8, 8 }, { 33, 5, 7 }, { 70, 3, 9 } };
    for (size_t f = 0; f < sizeof formulas / sizeof formulas[0]; f++) {
        expr_program p;
        char err[256];
        if (!expr_compile(formulas[f], EXPR_AUTO, &p, err, sizeof err)) continue; /* the deliberate bad one */
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int sx = sizes[s][0], sy = sizes[s][1], sz = sizes[s][2];
            uint8_t *g = malloc((size_t)sx * sy * sz);
            long n = expr_eval_grid(&p, sx, sy, sz, g), count = 0;
            for (int y = 0; y < sy; y++)
                for (int z = 0; z < sz; z++)
                    for (int x = 0; x < sx; x++) {
                        expr_vars v;
                        expr_vars_at(&v, x, y, z, sx, sy, sz);
                        uint8_t want = expr_truthy(expr_eval(&p, &v));
                        count += want;
                        if (g[x + sx * (z + sz * y)] != want)
                            fail_msg("'%s' %dx%dx%d at (%d,%d,%d): grid %d, point %d", formulas[f], sx, sy, sz, x, y, z,
                                     g[x + sx * (z + sz * y)], want);
                    }
            assert_int_equal(n, count);
            free(g);
        }
    }
}

static void test_paper_sphere(void **state)
{
    (void)state;
    enum { N = 16 };
    static uint8_t g[N * N * N];
    /* the paper's formula, with x y z grid indices: the ball's octant at the origin corner */
    long n = grid_of("x x * y y * z z * + + sqrt r <", EXPR_AUTO, N, N, N, g);
    long want = 0;
    for (int y = 0; y < N; y++)
        for (int z = 0; z < N; z++)
            for (int x = 0; x < N; x++) {
                int in = sqrt((double)(x * x + y * y + z * z)) < N / 2.0;
                want += in;
                assert_int_equal(g[x + N * (z + N * y)], in);
            }
    assert_int_equal(n, want);
    /* centred: a whole ball, symmetric under every mirror */
    n = grid_of("cx cx * cy cy * cz cz * + + sqrt r <", EXPR_POSTFIX, N, N, N, g);
    assert_true(n > 4 * want);
    for (int y = 0; y < N; y++)
        for (int z = 0; z < N; z++)
            for (int x = 0; x < N; x++) {
                uint8_t v = g[x + N * (z + N * y)];
                assert_int_equal(v, g[(N - 1 - x) + N * (z + N * y)]);
                assert_int_equal(v, g[x + N * ((N - 1 - z) + N * y)]);
                assert_int_equal(v, g[x + N * (z + N * (N - 1 - y))]);
                assert_int_equal(v, g[y + N * (z + N * x)]);
            }
    /* the default tool: an 8^3 sphere, and "sr < r" says the same */
    static uint8_t a[512], b[512];
    long na = grid_of("cx cx * cy cy * cz cz * + + sqrt r <", EXPR_AUTO, 8, 8, 8, a);
    long nb = grid_of("sr < r", EXPR_AUTO, 8, 8, 8, b);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, sizeof a);
    assert_true(na > 200 && na < 300); /* 4/3 pi 4^3 = 268 */
}

static void test_paper_hills(void **state)
{
    (void)state;
    enum { N = 64 };
    static uint8_t g[N * N * N], s[N * N * N];
    /* '=' on the grid (within half a voxel): the paper's formula makes its
     * Figure 5 hills, a sheet holding the voxel nearest the surface in every
     * column, and its neighbour too where the surface passes exactly
     * between two centres (h = 0 on the diagonal x + z = 63, by symmetry) */
    long n = grid_of("cx 5 / sin 5 * cz 5 / sin 5 * + cy =", EXPR_POSTFIX, N, N, N, g);
    long ties = 0;
    for (int z = 0; z < N; z++)
        for (int x = 0; x < N; x++) {
            double h = 5 * sin((x - 31.5) / 5) + 5 * sin((z - 31.5) / 5);
            int nearest = (int)floor(h + 31.5 + 0.5); /* the y whose centre y - 31.5 is nearest h */
            int count = 0;
            for (int y = 0; y < N; y++) {
                bool in = g[x + N * (z + N * y)];
                count += in;
                if (y == nearest) assert_true(in);
                else if (in) assert_true(fabs(h - (y - 31.5)) <= 0.5); /* the other side of a tie */
            }
            assert_true(count == 1 || count == 2);
            ties += count == 2;
        }
    assert_true(ties >= N - 1 && ties < N * N / 16);
    assert_int_equal(n, N * N + ties);
    /* the infix form is the same object */
    static uint8_t g2[N * N * N];
    assert_int_equal(grid_of("5*sin(cx/5) + 5*sin(cz/5) = cy", EXPR_INFIX, N, N, N, g2), n);
    assert_memory_equal(g, g2, sizeof g);
    /* the formula world's default: solid below the same surface, one column each */
    n = grid_of("cy < 5*sin(cx/5) + 5*sin(cz/5)", EXPR_INFIX, N, N, N, s);
    assert_true(n > N * N * 20 && n < N * N * 44);
    for (int z = 0; z < N; z++)
        for (int x = 0; x < N; x++) {
            double h = 5 * sin((x - 31.5) / 5) + 5 * sin((z - 31.5) / 5);
            for (int y = 0; y < N; y++) assert_int_equal(s[x + N * (z + N * y)], (y - 31.5) < h);
        }
}

typedef struct err_case {
    const char *src;
    expr_syntax syn;
    int col;
    const char *words; /* must appear in the message */
} err_case;

static void test_error_columns(void **state)
{
    (void)state;
    const err_case cases[] = {
        { "x y + foo *", EXPR_POSTFIX, 7, "unknown variable or function 'foo'" },
        { "x y $ +", EXPR_POSTFIX, 5, "unknown token '$'" },
        { "x +", EXPR_POSTFIX, 3, "stack underflow" },
        { "+", EXPR_POSTFIX, 1, "stack underflow" },
        { "x sqrt", EXPR_POSTFIX, 0, NULL }, /* fine */
        { "x y z +", EXPR_POSTFIX, 8, "2 values left" },
        { "x y", EXPR_POSTFIX, 4, "expected one result" },
        { "", EXPR_POSTFIX, 1, "empty formula" },
        { "(x + 1", EXPR_INFIX, 7, "expected ')' to close the '(' at column 1" },
        { "x + 1)", EXPR_INFIX, 6, "unbalanced parentheses" },
        { "sin(x", EXPR_INFIX, 6, "expected ')'" },
        { "sin x", EXPR_INFIX, 5, "expected '('" },
        { "x + w", EXPR_INFIX, 5, "unknown variable or function 'w'" },
        { "x + # 1", EXPR_INFIX, 5, "unknown token '#'" },
        { "x + * 2", EXPR_INFIX, 5, "expected a number" },
        { "x 2", EXPR_INFIX, 3, "expected an operator" },
        { "pow(x)", EXPR_INFIX, 6, "expected ','" },
        { "   ", EXPR_INFIX, 1, "empty formula" },
        { "x ( 2 +", EXPR_POSTFIX, 3, "no meaning in postfix" },
        /* AUTO: parentheses point at the infix error, otherwise the notation that got further */
        { "sqrt(x + ", EXPR_AUTO, 10, "expected a number" },
        { "x y + z", EXPR_AUTO, 8, "values left" },
        { "x + y foo", EXPR_AUTO, 7, "unknown variable or function 'foo'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expr_program p;
        memset(&p, 0x5a, sizeof p);
        expr_program before = p;
        char err[256] = "";
        bool ok = expr_compile(cases[i].src, cases[i].syn, &p, err, sizeof err);
        if (!cases[i].words) {
            assert_true(ok);
            continue;
        }
        if (ok) fail_msg("'%s' accepted", cases[i].src);
        char col[32];
        snprintf(col, sizeof col, "column %d: ", cases[i].col);
        if (strncmp(err, col, strlen(col)) != 0 || !strstr(err, cases[i].words) || !strstr(err, "expected"))
            fail_msg("'%s': got \"%s\", want \"%s...%s\"", cases[i].src, err, col, cases[i].words);
        assert_memory_equal(&p, &before, sizeof p); /* the old program stays */
    }
}

static void test_nan_and_division_by_zero_are_empty(void **state)
{
    (void)state;
    const char *empty[] = { "1/0", "x/0 > 1", "x/0 < 1", "sqrt(-1 - x)", "0/0 = 0/0", "sqrt(cx) * 0 + 1",
                            "pow(-8, 1/3)", "1e308 * 10", "(x - x) / (y - y)" };
    static uint8_t g[6 * 6 * 6];
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        long n = grid_of(empty[i], EXPR_INFIX, 6, 6, 6, g);
        if (strcmp(empty[i], "sqrt(cx) * 0 + 1") == 0) {
            assert_int_equal(n, 3 * 36); /* defined for cx >= 0 only */
            continue;
        }
        if (n != 0) fail_msg("'%s' gave %ld solid voxels", empty[i], n);
    }
    /* not NaN is true: "not" reads NaN as false, consistently with the grid rule */
    assert_int_equal(grid_of("not (1/0)", EXPR_INFIX, 6, 6, 6, g), 216);
}

static void test_limits(void **state)
{
    (void)state;
    char big[4096] = "x";
    for (int i = 0; i < 300; i++) strcat(big, " x +");
    expr_program p;
    char err[256];
    assert_false(expr_compile(big, EXPR_POSTFIX, &p, err, sizeof err));
    assert_non_null(strstr(err, "too long"));
    char deep[512] = "";
    for (int i = 0; i < 100; i++) strcat(deep, "(");
    strcat(deep, "x");
    for (int i = 0; i < 100; i++) strcat(deep, ")");
    assert_false(expr_compile(deep, EXPR_INFIX, &p, err, sizeof err));
    assert_non_null(strstr(err, "nested too deeply"));
    /* constants fold: a long constant tail costs one entry */
    assert_true(expr_compile("x + (1 + 2 * 3 - sqrt(16) + sin(PI/2))", EXPR_INFIX, &p, err, sizeof err));
    assert_int_equal(p.count, 3);
    assert_true(expr_compile("x 1 2 3 * + 16 sqrt - PI 2 / sin + +", EXPR_POSTFIX, &p, err, sizeof err));
    assert_int_equal(p.count, 3);

    shape s = { 0 };
    assert_true(shape_from_formula(&s, "sr < r", 8, 8, 8, err, sizeof err));
    long n = s.count;
    assert_false(shape_from_formula(&s, "sr < r", SHAPE_MAX_SIZE + 1, 8, 8, err, sizeof err));
    assert_non_null(strstr(err, "256"));
    assert_false(shape_from_formula(&s, "sr < ", 8, 8, 8, err, sizeof err));
    assert_int_equal(s.count, n); /* the old shape stays */
    assert_int_equal(s.sx, 8);
    shape_free(&s);
}

/* The printed postfix compiles back to the same grid, folded nan and
 * infinite constants included (tool.info printed "nan", which no parser
 * reads back). */
static void test_postfix_printing_round_trips(void **state)
{
    (void)state;
    const char *src[] = { "-sr + r > sin(cx) * -2", "cy < 5*sin(cx/5) + 5*sin(cz/5)", "not (x = 3) or y >= 2^0.5",
                          "x < 0/0 or y < 2", "x < 10^400", "x > -(10^400) and y < 3", "0/0" };
    static uint8_t a[20 * 20 * 20], b[20 * 20 * 20];
    for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
        expr_program p, q;
        char err[256], text[1024];
        assert_true(expr_compile(src[i], EXPR_INFIX, &p, err, sizeof err));
        expr_to_postfix(&p, text, sizeof text);
        assert_null(strstr(text, "nan"));
        assert_null(strstr(text, "inf"));
        if (!expr_compile(text, EXPR_POSTFIX, &q, err, sizeof err)) fail_msg("'%s' -> '%s': %s", src[i], text, err);
        expr_eval_grid(&p, 20, 20, 20, a);
        expr_eval_grid(&q, 20, 20, 20, b);
        assert_memory_equal(a, b, sizeof a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_operator_both_notations),
        cmocka_unit_test(test_infix_and_postfix_give_identical_grids),
        cmocka_unit_test(test_grid_matches_point_evaluation),
        cmocka_unit_test(test_paper_sphere),
        cmocka_unit_test(test_paper_hills),
        cmocka_unit_test(test_error_columns),
        cmocka_unit_test(test_nan_and_division_by_zero_are_empty),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_postfix_printing_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
