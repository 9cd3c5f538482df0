/* The formula language (engine/gen/expr): compile in each notation; what
 * compiles evaluates (point and grid agree) and its postfix form compiles
 * back to a program that evaluates the same. */
#include <math.h>

#include "fuzz_common.h"
#include "gen/expr.h"

static bool same_value(double a, double b) { return (a != a && b != b) || a == b; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096) return 0;
    expr_syntax syn = (expr_syntax)(data[0] % 3);
    char *src = fuzz_string(data + 1, size - 1);
    expr_program p;
    char err[256];
    if (expr_compile(src, syn, &p, err, sizeof err)) {
        uint8_t grid[6 * 5 * 4];
        expr_eval_grid(&p, 6, 5, 4, grid);
        char post[8192];
        expr_to_postfix(&p, post, sizeof post);
        expr_program q;
        bool back = expr_compile(post, EXPR_POSTFIX, &q, err, sizeof err);
        for (int y = 0; y < 5; y++)
            for (int z = 0; z < 4; z++)
                for (int x = 0; x < 6; x++) {
                    expr_vars v;
                    expr_vars_at(&v, x, y, z, 6, 5, 4);
                    double a = expr_eval(&p, &v);
                    FUZZ_CHECK(grid[x + z * 6 + y * 24] == expr_truthy(a));
                    if (back) FUZZ_CHECK(same_value(a, expr_eval(&q, &v)));
                }
    } else {
        FUZZ_CHECK(err[0] != 0); /* a refusal always says why */
    }
    free(src);
    return 0;
}
