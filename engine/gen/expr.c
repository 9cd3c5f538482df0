#include "gen/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum expr_op {
    OP_CONST,
    OP_X, OP_Y, OP_Z, OP_CX, OP_CY, OP_CZ, OP_R, OP_SR, OP_CR,
    /* unary */
    OP_NEG, OP_NOT, OP_SQRT, OP_SIN, OP_COS, OP_TAN,
    /* binary */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW, OP_AND, OP_OR, OP_EQ, OP_LT, OP_GT, OP_LE, OP_GE,
    OP_COUNT
};

enum { DEP_X = 1, DEP_Y = 2, DEP_Z = 4, DEP_SIZE = 8 };

static int op_arity(int op) { return op < OP_NEG ? 0 : op < OP_ADD ? 1 : 2; }

static const char *const op_names[OP_COUNT] = {
    "", "x", "y", "z", "cx", "cy", "cz", "r", "sr", "cr",
    "neg", "not", "sqrt", "sin", "cos", "tan",
    "+", "-", "*", "/", "^", "and", "or", "=", "<", ">", "<=", ">=",
};

static const uint8_t var_dep[OP_NEG] = {
    [OP_X] = DEP_X, [OP_Y] = DEP_Y, [OP_Z] = DEP_Z,
    [OP_CX] = DEP_X | DEP_SIZE, [OP_CY] = DEP_Y | DEP_SIZE, [OP_CZ] = DEP_Z | DEP_SIZE,
    [OP_R] = DEP_SIZE, [OP_SR] = DEP_X | DEP_Y | DEP_Z | DEP_SIZE, [OP_CR] = DEP_X | DEP_Z | DEP_SIZE,
};

/* ---- evaluation of one operator: the single definition every path uses ---- */

static inline double apply1(int op, double a)
{
    switch (op) {
    case OP_NEG: return -a;
    case OP_NOT: return expr_truthy(a) ? 0.0 : 1.0;
    case OP_SQRT: return sqrt(a);
    case OP_SIN: return sin(a);
    case OP_COS: return cos(a);
    case OP_TAN: return tan(a);
    default: return NAN;
    }
}

static inline double apply2(int op, double a, double b)
{
    switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    /* NaN rather than an infinity: "x / 0 > 1" must not come out solid */
    case OP_DIV: return b == 0.0 ? NAN : a / b;
    case OP_POW: return pow(a, b);
    case OP_AND: return (expr_truthy(a) && expr_truthy(b)) ? 1.0 : 0.0;
    case OP_OR: return (expr_truthy(a) || expr_truthy(b)) ? 1.0 : 0.0;
    /* grid equality: within half a voxel (see expr.h) */
    case OP_EQ: return fabs(a - b) <= EXPR_EQ_TOLERANCE ? 1.0 : 0.0;
    case OP_LT: return a < b ? 1.0 : 0.0;
    case OP_GT: return a > b ? 1.0 : 0.0;
    case OP_LE: return a <= b ? 1.0 : 0.0;
    case OP_GE: return a >= b ? 1.0 : 0.0;
    default: return NAN;
    }
}

void expr_vars_at(expr_vars *v, int x, int y, int z, int sx, int sy, int sz)
{
    int m = sx < sy ? sx : sy;
    if (sz < m) m = sz;
    v->x = x, v->y = y, v->z = z;
    v->cx = (double)x - (sx - 1) * 0.5;
    v->cy = (double)y - (sy - 1) * 0.5;
    v->cz = (double)z - (sz - 1) * 0.5;
    v->r = m * 0.5;
    /* the grid evaluator computes these with the same expressions, in the same order */
    v->sr = sqrt(v->cx * v->cx + v->cy * v->cy + v->cz * v->cz);
    v->cr = sqrt(v->cx * v->cx + v->cz * v->cz);
}

static double var_value(int op, const expr_vars *v)
{
    switch (op) {
    case OP_X: return v->x;
    case OP_Y: return v->y;
    case OP_Z: return v->z;
    case OP_CX: return v->cx;
    case OP_CY: return v->cy;
    case OP_CZ: return v->cz;
    case OP_R: return v->r;
    case OP_SR: return v->sr;
    case OP_CR: return v->cr;
    default: return NAN;
    }
}

double expr_eval(const expr_program *p, const expr_vars *v)
{
    double val[EXPR_MAX_OPS];
    if (p->count <= 0) return NAN;
    for (int i = 0; i < p->count; i++) {
        int op = p->op[i];
        switch (op_arity(op)) {
        case 0: val[i] = op == OP_CONST ? p->k[i] : var_value(op, v); break;
        case 1: val[i] = apply1(op, val[p->a[i]]); break;
        default: val[i] = apply2(op, val[p->a[i]], val[p->b[i]]); break;
        }
    }
    return val[p->count - 1];
}

/* ---- tokens ---- */

typedef enum tok_kind { T_END, T_NUM, T_NAME, T_SYM, T_LPAREN, T_RPAREN, T_COMMA, T_BAD } tok_kind;

typedef struct token {
    tok_kind kind;
    int col;       /* 1-based */
    int len;
    const char *s;
    double num;
    /* T_NAME and T_SYM: what the word means */
    int op;        /* OP_* for variables, functions and operators; -1 if none */
    bool is_const; /* PI, E: value in num */
} token;

typedef struct lexer {
    const char *src;
    const char *p;
    bool postfix;
} lexer;

static bool word_eq(const char *s, int len, const char *w)
{
    return (int)strlen(w) == len && strncasecmp(s, w, (size_t)len) == 0;
}

static void classify_name(token *t)
{
    static const struct { const char *w; int op; } words[] = {
        { "x", OP_X }, { "y", OP_Y }, { "z", OP_Z }, { "cx", OP_CX }, { "cy", OP_CY }, { "cz", OP_CZ },
        { "r", OP_R }, { "sr", OP_SR }, { "cr", OP_CR }, { "sqrt", OP_SQRT }, { "sin", OP_SIN },
        { "cos", OP_COS }, { "tan", OP_TAN }, { "pow", OP_POW }, { "and", OP_AND }, { "or", OP_OR },
        { "not", OP_NOT },
    };
    t->op = -1;
    t->is_const = false;
    if (word_eq(t->s, t->len, "pi")) { t->is_const = true; t->num = 3.14159265358979323846; return; }
    if (word_eq(t->s, t->len, "e")) { t->is_const = true; t->num = 2.71828182845904523536; return; }
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (word_eq(t->s, t->len, words[i].w)) { t->op = words[i].op; return; }
}

/* Number: digits [. digits] [e[+-]digits]; the exponent only when digits
 * follow, so "2e" stays a number then the constant E (an error either way). */
static int scan_number(const char *p)
{
    const char *q = p;
    while (isdigit((unsigned char)*q)) q++;
    if (*q == '.') {
        q++;
        while (isdigit((unsigned char)*q)) q++;
    }
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1;
        if (*e == '+' || *e == '-') e++;
        if (isdigit((unsigned char)*e)) {
            while (isdigit((unsigned char)*e)) e++;
            q = e;
        }
    }
    return (int)(q - p);
}

static token lex_next(lexer *lx)
{
    token t = { .kind = T_END, .op = -1 };
    while (*lx->p && isspace((unsigned char)*lx->p)) lx->p++;
    const char *p = lx->p;
    t.s = p;
    t.col = (int)(p - lx->src) + 1;
    if (!*p) return t;
    bool neg_literal = lx->postfix && *p == '-' && (p == lx->src || isspace((unsigned char)p[-1])) &&
                       (isdigit((unsigned char)p[1]) || (p[1] == '.' && isdigit((unsigned char)p[2])));
    if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1])) || neg_literal) {
        int n = (neg_literal ? 1 : 0) + scan_number(p + (neg_literal ? 1 : 0));
        char buf[128];
        if (n >= (int)sizeof buf) n = (int)sizeof buf - 1;
        memcpy(buf, p, (size_t)n);
        buf[n] = 0;
        t.kind = T_NUM;
        t.num = strtod(buf, NULL); /* the span is validated above; strtod only rounds it */
        t.len = n;
    } else if (isalpha((unsigned char)*p) || *p == '_') {
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_') q++;
        t.kind = T_NAME;
        t.len = (int)(q - p);
        classify_name(&t);
    } else if (*p == '(') { t.kind = T_LPAREN; t.len = 1; }
    else if (*p == ')') { t.kind = T_RPAREN; t.len = 1; }
    else if (*p == ',') { t.kind = T_COMMA; t.len = 1; }
    else {
        static const struct { const char *s; int op; } syms[] = {
            { "<=", OP_LE }, { ">=", OP_GE }, { "==", OP_EQ }, { "+", OP_ADD }, { "-", OP_SUB },
            { "*", OP_MUL }, { "/", OP_DIV }, { "^", OP_POW }, { "=", OP_EQ }, { "<", OP_LT }, { ">", OP_GT },
        };
        t.kind = T_BAD;
        t.len = 1;
        for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
            size_t n = strlen(syms[i].s);
            if (strncmp(p, syms[i].s, n) == 0) {
                t.kind = T_SYM;
                t.op = syms[i].op;
                t.len = (int)n;
                break;
            }
        }
        /* one UTF-8 character, so the message quotes what the user typed */
        if (t.kind == T_BAD && ((unsigned char)*p & 0xC0) == 0xC0)
            while (((unsigned char)p[t.len] & 0xC0) == 0x80) t.len++;
    }
    lx->p = p + t.len;
    return t;
}

/* ---- program builder (shared by both notations) ---- */

typedef struct builder {
    expr_program prog;
    char *err;
    size_t errlen;
    int err_col; /* column of the failure, for AUTO's choice */
    bool failed;
} builder;

static void fail(builder *b, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(builder *b, int col, const char *fmt, ...)
{
    if (b->failed) return;
    b->failed = true;
    b->err_col = col;
    if (!b->err || !b->errlen) return;
    int n = snprintf(b->err, b->errlen, "column %d: ", col);
    if (n < 0 || (size_t)n >= b->errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err + n, b->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

/* Appends one entry and returns its index, or -1 (after fail) when full.
 * Entries whose operands are all constants are folded, with the same
 * apply functions evaluation uses, so folding never changes a result. */
static int emit(builder *b, int op, int a, int c, double k, int col)
{
    expr_program *p = &b->prog;
    if (b->failed) return -1;
    int ar = op_arity(op);
    uint8_t dep = op == OP_CONST ? 0 : ar == 0 ? var_dep[op] : p->dep[a] | (ar == 2 ? p->dep[c] : 0);
    if (ar > 0 && dep == 0) {
        double v = ar == 1 ? apply1(op, p->k[a]) : apply2(op, p->k[a], p->k[c]);
        /* the operands were the last entries: reuse their slots */
        int lo = ar == 2 && c < a ? c : a;
        if (lo == p->count - ar) p->count = lo;
        return emit(b, OP_CONST, 0, 0, v, col);
    }
    if (p->count >= EXPR_MAX_OPS) {
        fail(b, col, "formula too long (at most %d numbers, variables and operators)", EXPR_MAX_OPS);
        return -1;
    }
    int i = p->count++;
    p->op[i] = (uint8_t)op;
    p->a[i] = (uint8_t)(ar >= 1 ? a : 0);
    p->b[i] = (uint8_t)(ar == 2 ? c : 0);
    p->dep[i] = dep;
    p->k[i] = op == OP_CONST ? k : 0.0;
    return i;
}

static void describe_token(const token *t, char *out, size_t len)
{
    if (t->kind == T_END) snprintf(out, len, "the end");
    else snprintf(out, len, "'%.*s'", t->len > 40 ? 40 : t->len, t->s);
}

#define EXPECT_OPERAND "a number, a variable (x y z cx cy cz r sr cr), PI, E or a function"
#define EXPECT_NAMES "x y z cx cy cz r sr cr, PI E, sqrt sin cos tan pow, and or not"

static void fail_unknown(builder *b, const token *t, const char *expected)
{
    if (t->kind == T_NAME)
        fail(b, t->col, "unknown variable or function '%.*s' (expected one of: " EXPECT_NAMES ")",
             t->len > 40 ? 40 : t->len, t->s);
    else
        fail(b, t->col, "unknown token '%.*s' (expected %s)", t->len, t->s, expected);
}

/* ---- postfix: the paper's stack algorithm, run on indices at compile time ---- */

static bool compile_postfix(builder *b, const char *src)
{
    lexer lx = { .src = src, .p = src, .postfix = true };
    int stack[EXPR_MAX_OPS + 1];
    int sp = 0;
    for (;;) {
        token t = lex_next(&lx);
        if (t.kind == T_END) break;
        if (t.kind == T_NUM || (t.kind == T_NAME && t.is_const)) {
            if (sp > EXPR_MAX_OPS) { fail(b, t.col, "formula too long (at most %d values)", EXPR_MAX_OPS); break; }
            stack[sp++] = emit(b, OP_CONST, 0, 0, t.num, t.col);
        } else if ((t.kind == T_NAME || t.kind == T_SYM) && t.op >= 0) {
            int ar = op_arity(t.op);
            if (ar == 0) {
                if (sp > EXPR_MAX_OPS) { fail(b, t.col, "formula too long (at most %d values)", EXPR_MAX_OPS); break; }
                stack[sp++] = emit(b, t.op, 0, 0, 0, t.col);
            } else if (sp < ar) {
                fail(b, t.col, "stack underflow: '%.*s' takes %d value%s but %d %s on the stack (expected %s before it)",
                     t.len, t.s, ar, ar > 1 ? "s" : "", sp, sp == 1 ? "is" : "are",
                     ar > 1 ? "two operands" : "an operand");
            } else if (ar == 1) {
                stack[sp - 1] = emit(b, t.op, stack[sp - 1], 0, 0, t.col);
            } else {
                int rhs = stack[--sp];
                stack[sp - 1] = emit(b, t.op, stack[sp - 1], rhs, 0, t.col);
            }
        } else if (t.kind == T_LPAREN || t.kind == T_RPAREN || t.kind == T_COMMA) {
            fail(b, t.col, "'%c' has no meaning in postfix (expected a number, variable, operator or function)", *t.s);
        } else {
            fail_unknown(b, &t, "a number, variable, operator or function");
        }
        if (b->failed) return false;
    }
    int end = (int)strlen(src) + 1;
    if (sp == 0) {
        fail(b, end, "empty formula (expected a number or a variable)");
        return false;
    }
    if (sp > 1) {
        fail(b, end, "%d values left on the stack (expected one result: %d more operator%s)", sp, sp - 1,
             sp > 2 ? "s" : "");
        return false;
    }
    return true;
}

/* ---- infix: precedence climbing by recursive descent ---- */

typedef struct parser {
    builder *b;
    lexer lx;
    token tok;
    int depth;
} parser;

static void advance(parser *ps) { ps->tok = lex_next(&ps->lx); }

static int parse_binary(parser *ps, int level);

static bool tok_is(const token *t, int op) { return (t->kind == T_SYM || t->kind == T_NAME) && t->op == op; }

static int parse_unary(parser *ps);

static int parse_primary_inner(parser *ps);

/* Depth counts the places where the grammar starts over (parentheses,
 * function arguments, unary chains), which bounds the C stack. */
static int parse_primary(parser *ps)
{
    if (++ps->depth > EXPR_MAX_DEPTH) {
        fail(ps->b, ps->tok.col, "nested too deeply (at most %d levels)", EXPR_MAX_DEPTH);
        return -1;
    }
    int v = parse_primary_inner(ps);
    ps->depth--;
    return v;
}

static int parse_primary_inner(parser *ps)
{
    builder *b = ps->b;
    token t = ps->tok;
    if (t.kind == T_NUM || (t.kind == T_NAME && t.is_const)) {
        advance(ps);
        return emit(b, OP_CONST, 0, 0, t.num, t.col);
    }
    if (t.kind == T_LPAREN) {
        advance(ps);
        int v = parse_binary(ps, 0);
        if (b->failed) return -1;
        if (ps->tok.kind != T_RPAREN) {
            char got[64];
            describe_token(&ps->tok, got, sizeof got);
            fail(b, ps->tok.col, "unbalanced parentheses: found %s (expected ')' to close the '(' at column %d)", got, t.col);
            return -1;
        }
        advance(ps);
        return v;
    }
    if (t.kind == T_NAME && t.op >= 0) {
        int ar = op_arity(t.op);
        if (ar == 0) {
            advance(ps);
            return emit(b, t.op, 0, 0, 0, t.col);
        }
        if (t.op == OP_AND || t.op == OP_OR || t.op == OP_NOT) {
            fail(b, t.col, "'%.*s' needs an operand before it (expected " EXPECT_OPERAND ")", t.len, t.s);
            return -1;
        }
        /* a function: name '(' args ')' */
        advance(ps);
        if (ps->tok.kind != T_LPAREN) {
            char got[64];
            describe_token(&ps->tok, got, sizeof got);
            fail(b, ps->tok.col, "found %s after function '%.*s' (expected '(')", got, t.len, t.s);
            return -1;
        }
        int open = ps->tok.col;
        advance(ps);
        int a = parse_binary(ps, 0), c = 0;
        if (b->failed) return -1;
        if (ar == 2) {
            if (ps->tok.kind != T_COMMA) {
                char got[64];
                describe_token(&ps->tok, got, sizeof got);
                fail(b, ps->tok.col, "found %s in '%.*s(' (expected ',' and a second argument)", got, t.len, t.s);
                return -1;
            }
            advance(ps);
            c = parse_binary(ps, 0);
            if (b->failed) return -1;
        }
        if (ps->tok.kind != T_RPAREN) {
            char got[64];
            describe_token(&ps->tok, got, sizeof got);
            fail(b, ps->tok.col, "unbalanced parentheses: found %s (expected ')' to close the '(' at column %d)", got, open);
            return -1;
        }
        advance(ps);
        return emit(b, t.op, a, c, 0, t.col);
    }
    if (t.kind == T_NAME || t.kind == T_BAD) {
        fail_unknown(b, &t, EXPECT_OPERAND);
        return -1;
    }
    char got[64];
    describe_token(&t, got, sizeof got);
    if (t.kind == T_RPAREN)
        fail(b, t.col, "unbalanced parentheses: unexpected ')' (expected " EXPECT_OPERAND " or '(')");
    else
        fail(b, t.col, "found %s (expected " EXPECT_OPERAND " or '(')", got);
    return -1;
}

/* ^ binds tighter than unary minus on its left but takes a unary operand on
 * its right, and groups to the right: -2^2 = -4, 2^-1 = 0.5, 2^3^2 = 512. */
static int parse_power(parser *ps)
{
    int base = parse_primary(ps);
    if (ps->b->failed) return -1;
    if (tok_is(&ps->tok, OP_POW) && ps->tok.kind == T_SYM) {
        int col = ps->tok.col;
        advance(ps);
        int ex = parse_unary(ps);
        if (ps->b->failed) return -1;
        return emit(ps->b, OP_POW, base, ex, 0, col);
    }
    return base;
}

static int parse_unary(parser *ps)
{
    token t = ps->tok;
    bool neg = tok_is(&t, OP_SUB) && t.kind == T_SYM, plus = tok_is(&t, OP_ADD) && t.kind == T_SYM;
    bool lnot = tok_is(&t, OP_NOT);
    if (!neg && !plus && !lnot) return parse_power(ps);
    if (++ps->depth > EXPR_MAX_DEPTH) {
        fail(ps->b, t.col, "nested too deeply (at most %d levels)", EXPR_MAX_DEPTH);
        return -1;
    }
    advance(ps);
    int v = parse_unary(ps);
    ps->depth--;
    if (ps->b->failed) return -1;
    return plus ? v : emit(ps->b, neg ? OP_NEG : OP_NOT, v, 0, 0, t.col);
}

/* Binary levels, loosest first; every level is left-associative. */
static int level_of(const token *t)
{
    if (t->kind != T_SYM && t->kind != T_NAME) return -1;
    switch (t->op) {
    case OP_OR: return 0;
    case OP_AND: return 1;
    case OP_EQ: case OP_LT: case OP_GT: case OP_LE: case OP_GE: return t->kind == T_SYM ? 2 : -1;
    case OP_ADD: case OP_SUB: return t->kind == T_SYM ? 3 : -1;
    case OP_MUL: case OP_DIV: return t->kind == T_SYM ? 4 : -1;
    default: return -1;
    }
}

static int parse_binary(parser *ps, int level)
{
    int lhs = level >= 5 ? parse_unary(ps) : parse_binary(ps, level + 1);
    while (!ps->b->failed && level < 5 && level_of(&ps->tok) == level) {
        token op = ps->tok;
        advance(ps);
        int rhs = parse_binary(ps, level + 1);
        if (ps->b->failed) break;
        lhs = emit(ps->b, op.op, lhs, rhs, 0, op.col);
    }
    return lhs;
}

static bool compile_infix(builder *b, const char *src)
{
    parser ps = { .b = b, .lx = { .src = src, .p = src, .postfix = false } };
    advance(&ps);
    if (ps.tok.kind == T_END) {
        fail(b, 1, "empty formula (expected " EXPECT_OPERAND ")");
        return false;
    }
    parse_binary(&ps, 0);
    if (b->failed) return false;
    if (ps.tok.kind != T_END) {
        char got[64];
        describe_token(&ps.tok, got, sizeof got);
        if (ps.tok.kind == T_RPAREN)
            fail(b, ps.tok.col, "unbalanced parentheses: unexpected ')' (expected an operator or the end)");
        else if (ps.tok.kind == T_BAD || (ps.tok.kind == T_NAME && ps.tok.op < 0 && !ps.tok.is_const))
            fail_unknown(b, &ps.tok, "an operator or the end");
        else
            fail(b, ps.tok.col, "found %s after a complete operand (expected an operator, ')' or the end)", got);
        return false;
    }
    return true;
}

bool expr_compile(const char *src, expr_syntax syntax, expr_program *out, char *err, size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!src) src = "";
    builder in = { .err = err, .errlen = errlen }, post = { .err = err, .errlen = errlen };
    bool ok;
    if (syntax == EXPR_POSTFIX) {
        ok = compile_postfix(&post, src);
        if (ok) { post.prog.syntax = EXPR_POSTFIX; *out = post.prog; }
        return ok;
    }
    if (syntax == EXPR_INFIX) {
        ok = compile_infix(&in, src);
        if (ok) { in.prog.syntax = EXPR_INFIX; *out = in.prog; }
        return ok;
    }
    char ein[256] = "", epost[256] = "";
    in.err = ein, in.errlen = sizeof ein;
    post.err = epost, post.errlen = sizeof epost;
    if (compile_infix(&in, src)) {
        in.prog.syntax = EXPR_INFIX;
        *out = in.prog;
        return true;
    }
    if (compile_postfix(&post, src)) {
        post.prog.syntax = EXPR_POSTFIX;
        *out = post.prog;
        return true;
    }
    bool infix_looking = strpbrk(src, "(),") != NULL;
    const char *best = (infix_looking || in.err_col >= post.err_col) ? ein : epost;
    if (err && errlen) snprintf(err, errlen, "%s", best);
    return false;
}

/* ---- grid evaluation ---- */

#define GRID_BLOCK 32

long expr_eval_grid(const expr_program *p, int sx, int sy, int sz, uint8_t *out)
{
    if (sx <= 0 || sy <= 0 || sz <= 0) return 0;
    size_t total = (size_t)sx * (size_t)sy * (size_t)sz;
    if (p->count <= 0) {
        memset(out, 0, total);
        return 0;
    }
    /* Entry classes: scalar (does not vary along x: once per row), x-only
     * (once per block of columns for the whole grid), and row (per voxel). */
    enum { C_SCALAR, C_XONLY, C_ROW };
    uint8_t cls[EXPR_MAX_OPS];
    bool need_array[EXPR_MAX_OPS] = { false };
    int n = p->count;
    for (int i = 0; i < n; i++) {
        uint8_t d = p->dep[i];
        cls[i] = !(d & DEP_X) ? C_SCALAR : (d & (DEP_Y | DEP_Z)) ? C_ROW : C_XONLY;
        int ar = op_arity(p->op[i]);
        if (cls[i] != C_SCALAR) {
            if (ar >= 1) need_array[p->a[i]] = true;
            if (ar == 2) need_array[p->b[i]] = true;
        }
    }
    need_array[n - 1] = true;

    double scal[EXPR_MAX_OPS];
    static _Thread_local double arr[EXPR_MAX_OPS][GRID_BLOCK]; /* 64 KiB: too big for a worker's stack */
    expr_vars v;
    double hx = (sx - 1) * 0.5;
    long solid = 0;
    for (int x0 = 0; x0 < sx; x0 += GRID_BLOCK) {
        int bn = sx - x0 < GRID_BLOCK ? sx - x0 : GRID_BLOCK;
        /* x-only entries may read constants and r: have those ready first */
        expr_vars_at(&v, x0, 0, 0, sx, sy, sz);
        for (int i = 0; i < n; i++) {
            if (cls[i] != C_SCALAR || (p->dep[i] & (DEP_X | DEP_Y | DEP_Z))) continue;
            int op = p->op[i], ar = op_arity(op);
            double s = ar == 0 ? (op == OP_CONST ? p->k[i] : var_value(op, &v))
                     : ar == 1 ? apply1(op, scal[p->a[i]])
                               : apply2(op, scal[p->a[i]], scal[p->b[i]]);
            scal[i] = s;
            for (int j = 0; j < bn; j++) arr[i][j] = s;
        }
        /* x-only entries: their values repeat in every row */
        for (int i = 0; i < n; i++) {
            if (cls[i] != C_XONLY) continue;
            int op = p->op[i];
            double *o = arr[i];
            switch (op_arity(op)) {
            case 0:
                for (int j = 0; j < bn; j++) o[j] = op == OP_X ? (double)(x0 + j) : (double)(x0 + j) - hx;
                break;
            case 1: {
                const double *a = arr[p->a[i]];
                for (int j = 0; j < bn; j++) o[j] = apply1(op, a[j]);
                break;
            }
            default: {
                /* an x-only entry may combine with a scalar that is a true constant or r */
                const double *a = arr[p->a[i]], *c = arr[p->b[i]];
                for (int j = 0; j < bn; j++) o[j] = apply2(op, a[j], c[j]);
                break;
            }
            }
        }
        for (int y = 0; y < sy; y++) {
            for (int z = 0; z < sz; z++) {
                expr_vars_at(&v, x0, y, z, sx, sy, sz);
                for (int i = 0; i < n; i++) {
                    int op = p->op[i];
                    int ar = op_arity(op);
                    if (cls[i] == C_SCALAR) {
                        double s = ar == 0 ? (op == OP_CONST ? p->k[i] : var_value(op, &v))
                                 : ar == 1 ? apply1(op, scal[p->a[i]])
                                           : apply2(op, scal[p->a[i]], scal[p->b[i]]);
                        scal[i] = s;
                        if (need_array[i])
                            for (int j = 0; j < bn; j++) arr[i][j] = s;
                        continue;
                    }
                    if (cls[i] == C_XONLY) continue;
                    double *o = arr[i];
                    if (ar == 0) {
                        /* sr and cr: the expressions of expr_vars_at, per column */
                        double cy2 = v.cy * v.cy, cz2 = v.cz * v.cz;
                        if (op == OP_SR)
                            for (int j = 0; j < bn; j++) {
                                double cx = (double)(x0 + j) - hx;
                                o[j] = sqrt(cx * cx + cy2 + cz2);
                            }
                        else
                            for (int j = 0; j < bn; j++) {
                                double cx = (double)(x0 + j) - hx;
                                o[j] = sqrt(cx * cx + cz2);
                            }
                    } else if (ar == 1) {
                        const double *a = arr[p->a[i]];
                        switch (op) {
                        case OP_NEG: for (int j = 0; j < bn; j++) o[j] = -a[j]; break;
                        case OP_SQRT: for (int j = 0; j < bn; j++) o[j] = sqrt(a[j]); break;
                        default: for (int j = 0; j < bn; j++) o[j] = apply1(op, a[j]); break;
                        }
                    } else {
                        const double *a = arr[p->a[i]], *c = arr[p->b[i]];
                        /* the common operators get loops the compiler can vectorise */
                        switch (op) {
                        case OP_ADD: for (int j = 0; j < bn; j++) o[j] = a[j] + c[j]; break;
                        case OP_SUB: for (int j = 0; j < bn; j++) o[j] = a[j] - c[j]; break;
                        case OP_MUL: for (int j = 0; j < bn; j++) o[j] = a[j] * c[j]; break;
                        case OP_LT: for (int j = 0; j < bn; j++) o[j] = a[j] < c[j] ? 1.0 : 0.0; break;
                        case OP_GT: for (int j = 0; j < bn; j++) o[j] = a[j] > c[j] ? 1.0 : 0.0; break;
                        case OP_LE: for (int j = 0; j < bn; j++) o[j] = a[j] <= c[j] ? 1.0 : 0.0; break;
                        case OP_GE: for (int j = 0; j < bn; j++) o[j] = a[j] >= c[j] ? 1.0 : 0.0; break;
                        default: for (int j = 0; j < bn; j++) o[j] = apply2(op, a[j], c[j]); break;
                        }
                    }
                }
                const double *res = arr[n - 1];
                uint8_t *row = out + ((size_t)y * (size_t)sz + (size_t)z) * (size_t)sx + (size_t)x0;
                for (int j = 0; j < bn; j++) {
                    uint8_t s = expr_truthy(res[j]);
                    row[j] = s;
                    solid += s;
                }
            }
        }
    }
    return solid;
}

void expr_to_postfix(const expr_program *p, char *out, size_t len)
{
    if (!len) return;
    out[0] = 0;
    /* each entry's text is the postfix of its subtree: rebuild by recursion on a small stack */
    size_t used = 0;
    int stack[EXPR_MAX_OPS * 2 + 2];
    bool visited[EXPR_MAX_OPS * 2 + 2];
    int sp = 0;
    if (p->count <= 0) return;
    stack[sp] = p->count - 1;
    visited[sp++] = false;
    while (sp > 0) {
        int i = stack[sp - 1];
        int ar = op_arity(p->op[i]);
        if (!visited[sp - 1] && ar > 0) {
            visited[sp - 1] = true;
            if (ar == 2) { stack[sp] = p->b[i]; visited[sp++] = false; }
            stack[sp] = p->a[i];
            visited[sp++] = false;
            continue;
        }
        sp--;
        char word[40];
        /* a folded constant may be nan or infinite, which have no literal:
         * write an expression that folds back to the same value */
        if (p->op[i] == OP_CONST && isnan(p->k[i])) snprintf(word, sizeof word, "0 0 /");
        else if (p->op[i] == OP_CONST && isinf(p->k[i])) snprintf(word, sizeof word, "%s1e308 1e308 *", p->k[i] < 0 ? "-" : "");
        else if (p->op[i] == OP_CONST) snprintf(word, sizeof word, "%.17g", p->k[i]);
        /* postfix has no unary minus; times -1 is exact for every double */
        else if (p->op[i] == OP_NEG) snprintf(word, sizeof word, "-1 *");
        else snprintf(word, sizeof word, "%s", op_names[p->op[i]]);
        int w = snprintf(out + used, len - used, "%s%s", used ? " " : "", word);
        if (w < 0 || (size_t)w >= len - used) { out[len - 1] = 0; return; }
        used += (size_t)w;
    }
}
