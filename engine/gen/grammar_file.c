/* grammar_file: a line-based parser. Each line is split into tokens that
 * remember their column, so every message can say file:line:col. The
 * grammar is built in a scratch copy and only handed out when the whole
 * file is good. */
#include "gen/grammar_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "voxel/material.h"

#define MAX_TOKENS 96
#define MAX_LINE 1024

typedef struct token {
    const char *s;
    int len, col;
} token;

typedef struct parser {
    const char *file;
    int line;
    char *err;
    size_t errlen;
} parser;

static bool fail(parser *ps, int col, const char *fmt, ...)
{
    char msg[400]; /* the list of every material name fits */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(ps->err, ps->errlen, "%s:%d:%d: %s", ps->file, ps->line, col, msg);
    return false;
}

static bool tok_is(const token *t, const char *word)
{
    return (int)strlen(word) == t->len && strncasecmp(t->s, word, (size_t)t->len) == 0;
}

/* Splits a line (comments from '#' dropped) into tokens; false when it has too many. */
static bool tokenize(const char *line, int n, token *out, int *count)
{
    *count = 0;
    for (int i = 0; i < n;) {
        if (line[i] == '#') break;
        if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == ',') {
            i++;
            continue;
        }
        int start = i;
        while (i < n && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '#' && line[i] != ',') i++;
        if (*count == MAX_TOKENS) return false;
        out[(*count)++] = (token){ line + start, i - start, start + 1 };
    }
    return true;
}

/* A token as a C string for strtod/strtol; false (with the message) when too long. */
static bool tok_text(parser *ps, const token *t, char *buf, size_t n, const char *what)
{
    if (t->len >= (int)n) return fail(ps, t->col, "'%.*s' is not %s", t->len, t->s, what);
    memcpy(buf, t->s, (size_t)t->len);
    buf[t->len] = '\0';
    errno = 0;
    return true;
}

static bool parse_float(parser *ps, const token *t, float *out)
{
    char buf[64], *end;
    if (!tok_text(ps, t, buf, sizeof buf, "a number")) return false;
    double v = strtod(buf, &end);
    if (errno || *end || end == buf || !isfinite(v) || fabs(v) > 3.4e38)
        return fail(ps, t->col, "'%s' is not a finite number", buf);
    *out = (float)v;
    return true;
}

static bool parse_int(parser *ps, const token *t, int *out)
{
    char buf[32], *end;
    if (!tok_text(ps, t, buf, sizeof buf, "an integer")) return false;
    long v = strtol(buf, &end, 10);
    if (errno || *end || end == buf || v < -1000000 || v > 1000000) return fail(ps, t->col, "'%s' is not an integer", buf);
    *out = (int)v;
    return true;
}

/* A material or class name (case-insensitive; written lower case). */
static bool parse_name(parser *ps, const token *t, bool cls, uint8_t *out)
{
    char buf[GRAMMAR_NAME_LEN];
    if (t->len < (int)sizeof buf) {
        for (int i = 0; i < t->len; i++) buf[i] = (char)(t->s[i] >= 'A' && t->s[i] <= 'Z' ? t->s[i] - 'A' + 'a' : t->s[i]);
        buf[t->len] = '\0';
        int id = cls ? grammar_class_find(buf) : material_find(buf);
        if (id >= 0) {
            *out = (uint8_t)id;
            return true;
        }
    }
    char list[300] = "";
    for (int i = 0; i < (cls ? GCLASS_COUNT : MAT_COUNT); i++) {
        strncat(list, " ", sizeof list - strlen(list) - 1);
        strncat(list, cls ? grammar_class_name(i) : material_table[i].name, sizeof list - strlen(list) - 1);
    }
    return fail(ps, t->col, "unknown %s '%.*s' (one of:%s)", cls ? "material class" : "material", t->len > 40 ? 40 : t->len,
                t->s, list);
}

/* PAINT and FILL write terrain only: what else the world holds is either
 * nothing a voxel can be (null, the placeholder), or never the grammar's to
 * write (air is carving's job, plants grow with the flora, the floor is fixed). */
static bool check_writable(parser *ps, const token *t, int op, uint8_t id)
{
    if (grammar_class_has(GCLASS_TERRAIN, id)) return true;
    const char *why;
    if (id == MAT_NULL) why = "the world cannot hold it (it marks a missing voxel type)";
    else if (id == MAT_PLACEHOLDER) why = "the world cannot hold it (it stands in for muskeg only while a world generates)";
    else if (id == MAT_AIR) why = "air is not painted; carve with SET 0 or ADD";
    else if (grammar_class_has(GCLASS_PLANT, id)) why = "plants grow with the flora and are never walls, so a grammar cannot write them";
    else why = "it is the fixed floor, which a grammar never writes";
    return fail(ps, t->col, "%s %s: %s; a grammar writes terrain (class 'terrain') only", grammar_xf_name(op),
                material_table[id].name, why);
}

/* SLOPE lo hi: degrees, 0 <= lo <= hi <= 90. */
static bool parse_slope(parser *ps, const token *t, int n, int opcol, grammar_cell *c)
{
    if (n < 2) return fail(ps, opcol, "SLOPE needs two angles: SLOPE LOWEST HIGHEST (degrees, 0..90)");
    float a[2];
    for (int k = 0; k < 2; k++) {
        if (!parse_float(ps, &t[k], &a[k])) return false;
        if (a[k] < 0.f || a[k] > GRAMMAR_SLOPE_MAX)
            return fail(ps, t[k].col, "slope %g is outside 0..%g degrees (0 level, 90 a vertical wall)", (double)a[k],
                        (double)GRAMMAR_SLOPE_MAX);
    }
    if (a[0] > a[1]) return fail(ps, t[1].col, "slope range %g..%g is empty: the lowest angle is above the highest", (double)a[0], (double)a[1]);
    c->v = a[0];
    c->hi = a[1];
    return true;
}

static const char *const k_keywords[] = { "grammar", "rule", "size", "weight", "symbol", "transform", "end", NULL };

static bool is_keyword(const token *t)
{
    for (const char *const *k = k_keywords; *k; k++)
        if (tok_is(t, *k)) return true;
    return false;
}

/* One grid row: I cells of "OP [value]". */
static bool parse_row(parser *ps, const token *t, int n, bool symbol, const grammar_rule *r, grammar_cell *row)
{
    int cells = 0;
    for (int i = 0; i < n;) {
        int op = -1, ops = symbol ? GSYM_COUNT : GXF_COUNT;
        for (int o = 0; o < ops && op < 0; o++)
            if (tok_is(&t[i], symbol ? grammar_sym_name(o) : grammar_xf_name(o))) op = o;
        if (op < 0) {
            char list[96] = "";
            for (int o = 0; o < ops; o++) {
                strncat(list, " ", sizeof list - strlen(list) - 1);
                strncat(list, symbol ? grammar_sym_name(o) : grammar_xf_name(o), sizeof list - strlen(list) - 1);
            }
            return fail(ps, t[i].col, "unknown %s operator '%.*s' (one of:%s)", symbol ? "symbol" : "transform", t[i].len,
                        t[i].s, list);
        }
        if (cells == r->size[0])
            return fail(ps, t[i].col, "too many cells: the row has more than I = %d (size %d %d %d)", r->size[0],
                        r->size[0], r->size[1], r->size[2]);
        grammar_cell c = { (uint8_t)op, 0.f, 0.f, 0 };
        int opcol = t[i].col;
        i++;
        if (symbol ? grammar_sym_is_material(op) : grammar_xf_is_material(op)) {
            bool cls = symbol && op == GSYM_CLASS;
            if (i >= n)
                return fail(ps, opcol, "%s needs a %s name", symbol ? grammar_sym_name(op) : grammar_xf_name(op),
                            cls ? "material class" : "material");
            if (!parse_name(ps, &t[i], cls, &c.id)) return false;
            if (!symbol && !check_writable(ps, &t[i], op, c.id)) return false;
            i++;
        } else if (symbol && op == GSYM_SLOPE) {
            if (!parse_slope(ps, &t[i], n - i, opcol, &c)) return false;
            i += 2;
        } else if (symbol ? grammar_sym_has_value(op) : grammar_xf_has_value(op)) {
            if (i >= n) return fail(ps, opcol, "%s needs a value", symbol ? grammar_sym_name(op) : grammar_xf_name(op));
            if (!parse_float(ps, &t[i], &c.v)) return false;
            i++;
        }
        row[cells++] = c;
    }
    if (cells != r->size[0])
        return fail(ps, t[0].col, "the row has %d cells; size %d %d %d needs I = %d", cells, r->size[0], r->size[1],
                    r->size[2], r->size[0]);
    return true;
}

typedef enum { IN_TOP, IN_RULE, IN_SYMBOL, IN_TRANSFORM } pstate;

typedef struct rule_state {
    bool has_size, has_weight, has_symbol, has_transform;
    int rows; /* rows read into the current grid */
    int grid_line, grid_col; /* where the grid keyword was */
    int rule_line;
} rule_state;

/* Closes a grid: it must have J * K rows. */
static bool close_grid(parser *ps, pstate st, rule_state *rs, const grammar_rule *r)
{
    if (st != IN_SYMBOL && st != IN_TRANSFORM) return true;
    int need = r->size[1] * r->size[2];
    if (rs->rows != need) {
        ps->line = rs->grid_line;
        return fail(ps, rs->grid_col, "the %s has %d rows; size %d %d %d needs J x K = %d", st == IN_SYMBOL ? "symbol" : "transform",
                    rs->rows, r->size[0], r->size[1], r->size[2], need);
    }
    if (st == IN_SYMBOL) {
        bool all_ign = true;
        for (int c = 0; c < r->size[0] * need; c++) all_ign = all_ign && r->sym[c].op == GSYM_IGN;
        if (all_ign) {
            ps->line = rs->grid_line;
            return fail(ps, rs->grid_col, "rule '%s': every symbol cell is IGN, so it would match everywhere in the grid", r->name);
        }
    }
    return true;
}

static bool finish_rule(parser *ps, int col, const rule_state *rs, const grammar_rule *r)
{
    if (!rs->has_symbol) return fail(ps, col, "rule '%s' has no symbol", r->name);
    if (!rs->has_transform) return fail(ps, col, "rule '%s' has no transform", r->name);
    return true;
}

static bool parse_line(parser *ps, grammar *g, pstate *st, rule_state *rs, const token *t, int n)
{
    grammar_rule *r = g->count > 0 ? &g->rules[g->count - 1] : NULL;
    if ((*st == IN_SYMBOL || *st == IN_TRANSFORM) && !is_keyword(&t[0])) {
        if (rs->rows == r->size[1] * r->size[2])
            return fail(ps, t[0].col, "the %s already has its J x K = %d rows (size %d %d %d)",
                        *st == IN_SYMBOL ? "symbol" : "transform", rs->rows, r->size[0], r->size[1], r->size[2]);
        /* rows go top to bottom within a layer, layer after layer */
        int j = rs->rows % r->size[1], k = rs->rows / r->size[1];
        grammar_cell row[GRAMMAR_MAX_DIM];
        if (!parse_row(ps, t, n, *st == IN_SYMBOL, r, row)) return false;
        for (int i = 0; i < r->size[0]; i++)
            (*st == IN_SYMBOL ? r->sym : r->xf)[grammar_cell_index(r, i, j, k)] = row[i];
        rs->rows++;
        return true;
    }
    if (!close_grid(ps, *st, rs, r)) return false;
    if (*st == IN_SYMBOL || *st == IN_TRANSFORM) *st = IN_RULE;
    if (tok_is(&t[0], "grammar")) {
        if (*st != IN_TOP || g->count > 0) return fail(ps, t[0].col, "'grammar NAME' must come before the first rule");
        if (n != 2) return fail(ps, t[0].col, "usage: grammar NAME");
        if (t[1].len >= GRAMMAR_NAME_LEN) return fail(ps, t[1].col, "name longer than %d characters", GRAMMAR_NAME_LEN - 1);
        memcpy(g->name, t[1].s, (size_t)t[1].len);
        g->name[t[1].len] = '\0';
        return true;
    }
    if (tok_is(&t[0], "rule")) {
        if (*st != IN_TOP) return fail(ps, t[0].col, "'rule' inside rule '%s' (missing 'end'?)", r->name);
        if (n != 2) return fail(ps, t[0].col, "usage: rule NAME");
        if (t[1].len >= GRAMMAR_NAME_LEN) return fail(ps, t[1].col, "name longer than %d characters", GRAMMAR_NAME_LEN - 1);
        for (int i = 0; i < g->count; i++)
            if ((int)strlen(g->rules[i].name) == t[1].len && strncmp(g->rules[i].name, t[1].s, (size_t)t[1].len) == 0)
                return fail(ps, t[1].col, "rule '%s' is already defined at line %d", g->rules[i].name, g->rules[i].line);
        if (g->count == GRAMMAR_MAX_RULES) return fail(ps, t[0].col, "more than %d rules", GRAMMAR_MAX_RULES);
        r = &g->rules[g->count++];
        memset(r, 0, sizeof *r);
        memcpy(r->name, t[1].s, (size_t)t[1].len);
        r->line = ps->line;
        r->weight = 1.f;
        memset(rs, 0, sizeof *rs);
        rs->rule_line = ps->line;
        *st = IN_RULE;
        return true;
    }
    if (*st == IN_TOP) return fail(ps, t[0].col, "expected 'rule NAME' or 'grammar NAME', found '%.*s'", t[0].len, t[0].s);
    if (tok_is(&t[0], "size")) {
        if (rs->has_symbol) return fail(ps, t[0].col, "'size' must come before the symbol");
        if (n != 4) return fail(ps, t[0].col, "usage: size I J K (columns, rows, layers)");
        for (int a = 0; a < 3; a++) {
            if (!parse_int(ps, &t[a + 1], &r->size[a])) return false;
            if (r->size[a] < 1 || r->size[a] > GRAMMAR_MAX_DIM)
                return fail(ps, t[a + 1].col, "size %d is outside 1..%d (the limit per axis)", r->size[a], GRAMMAR_MAX_DIM);
        }
        rs->has_size = true;
        return true;
    }
    if (tok_is(&t[0], "weight")) {
        if (n != 2) return fail(ps, t[0].col, "usage: weight W");
        if (!parse_float(ps, &t[1], &r->weight)) return false;
        if (r->weight < 0.f) return fail(ps, t[1].col, "weight %g is negative", (double)r->weight);
        rs->has_weight = true;
        return true;
    }
    if (tok_is(&t[0], "symbol") || tok_is(&t[0], "transform")) {
        bool sym = tok_is(&t[0], "symbol");
        if (n != 1) return fail(ps, t[1].col, "'%s' stands alone on its line; the grid follows on the next lines", sym ? "symbol" : "transform");
        if (!rs->has_size) return fail(ps, t[0].col, "'size I J K' must come before the %s", sym ? "symbol" : "transform");
        if (sym ? rs->has_symbol : rs->has_transform) return fail(ps, t[0].col, "rule '%s' has a second %s", r->name, sym ? "symbol" : "transform");
        if (sym) rs->has_symbol = true;
        else rs->has_transform = true;
        rs->rows = 0;
        rs->grid_line = ps->line;
        rs->grid_col = t[0].col;
        *st = sym ? IN_SYMBOL : IN_TRANSFORM;
        return true;
    }
    if (tok_is(&t[0], "end")) {
        if (n != 1) return fail(ps, t[1].col, "'end' stands alone on its line");
        if (!finish_rule(ps, t[0].col, rs, r)) return false;
        *st = IN_TOP;
        return true;
    }
    return fail(ps, t[0].col, "expected size, weight, symbol, transform or end; found '%.*s'", t[0].len, t[0].s);
}

bool grammar_parse(const char *text, const char *file, grammar *out, char *err, size_t errlen)
{
    grammar *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "%s: out of memory", file);
        return false;
    }
    parser ps = { .file = file, .line = 0, .err = err, .errlen = errlen };
    pstate st = IN_TOP;
    rule_state rs = { 0 };
    bool ok = true;
    const char *p = text;
    while (ok && *p) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        ps.line++;
        token t[MAX_TOKENS];
        int n;
        if (len > MAX_LINE) ok = fail(&ps, MAX_LINE, "line longer than %d characters", MAX_LINE);
        else if (!tokenize(p, len, t, &n)) ok = fail(&ps, 1, "more than %d words on one line", MAX_TOKENS);
        else if (n > 0) ok = parse_line(&ps, g, &st, &rs, t, n);
        p = nl ? nl + 1 : p + len;
    }
    if (ok && st != IN_TOP)
        ok = fail(&ps, 1, "the file ends inside rule '%s' (declared at line %d): missing 'end'", g->rules[g->count - 1].name,
                  rs.rule_line);
    if (ok && g->count == 0) ok = fail(&ps, 1, "no rules");
    if (ok) *out = *g;
    free(g);
    return ok;
}

bool grammar_load(const char *path, grammar *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    /* grammars are small; a megabyte is far past any real one */
    enum { LIMIT = 1 << 20 };
    char *buf = malloc(LIMIT + 1);
    size_t n = buf ? fread(buf, 1, LIMIT + 1, f) : 0;
    fclose(f);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    if (n > LIMIT) {
        free(buf);
        snprintf(err, errlen, "%s: larger than %d bytes", path, LIMIT);
        return false;
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        free(buf);
        snprintf(err, errlen, "%s: not a text file (holds a NUL byte)", path);
        return false;
    }
    bool ok = grammar_parse(buf, path, out, err, errlen);
    free(buf);
    return ok;
}

typedef struct sbuf {
    char *p;
    size_t cap, len;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->len < b->cap ? b->p + b->len : NULL, b->len < b->cap ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0) b->len += (size_t)n;
}

size_t grammar_write(const grammar *g, char *buf, size_t cap)
{
    sbuf b = { buf, cap, 0 };
    if (cap) buf[0] = '\0';
    if (g->name[0]) put(&b, "grammar %s\n\n", g->name);
    for (int r = 0; r < g->count; r++) {
        const grammar_rule *ru = &g->rules[r];
        put(&b, "rule %s\nsize %d %d %d\nweight %.9g\n", ru->name, ru->size[0], ru->size[1], ru->size[2], (double)ru->weight);
        for (int grid = 0; grid < 2; grid++) {
            put(&b, grid == 0 ? "symbol\n" : "transform\n");
            for (int k = 0; k < ru->size[2]; k++)
                for (int j = 0; j < ru->size[1]; j++) {
                    put(&b, " ");
                    for (int i = 0; i < ru->size[0]; i++) {
                        grammar_cell c = (grid == 0 ? ru->sym : ru->xf)[grammar_cell_index(ru, i, j, k)];
                        bool val = grid == 0 ? grammar_sym_has_value(c.op) : grammar_xf_has_value(c.op);
                        bool named = grid == 0 ? grammar_sym_is_material(c.op) : grammar_xf_is_material(c.op);
                        const char *name = grid == 0 ? grammar_sym_name(c.op) : grammar_xf_name(c.op);
                        if (val) put(&b, " %s %.9g", name, (double)c.v);
                        else if (named && grid == 0 && c.op == GSYM_CLASS) put(&b, " %s %s", name, grammar_class_name(c.id));
                        else if (named) put(&b, " %s %s", name, material_get(c.id)->name);
                        else if (grid == 0 && c.op == GSYM_SLOPE) put(&b, " %s %.9g %.9g", name, (double)c.v, (double)c.hi);
                        else put(&b, " %s", name);
                    }
                    put(&b, "\n");
                }
        }
        put(&b, "end\n\n");
    }
    return b.len;
}
