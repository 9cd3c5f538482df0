/* Voxel grammars (seed 004): operators, the file format and its errors, the
 * shipped Tables 3 and 4 cell by cell, and the fast derivation against a
 * straightforward reference on random grids, rulesets, strides, bounds,
 * orientations and seeds, with 1 and 2 workers. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "gen/grammar.h"
#include "gen/grammar_file.h"
#include "grammar_random.h"
#include "grammar_ref.h"

static grammar *load_asset(const char *name)
{
    grammar *g = malloc(sizeof *g);
    char err[512];
    char rel[128];
    snprintf(rel, sizeof rel, "assets/grammars/%s", name);
    if (!grammar_load(test_source_path(rel), g, err, sizeof err)) fail_msg("%s", err);
    return g;
}

/* ---- operators ---------------------------------------------------------- */

static void test_operators(void **state)
{
    (void)state;
    struct { int op; float v, d; bool want; } sym[] = {
        { GSYM_IGN, 0, -5, true }, { GSYM_PRES, 0, 0.1f, true }, { GSYM_PRES, 0, 0, false }, { GSYM_PRES, 0, -1, false },
        { GSYM_ABS, 0, 0, true }, { GSYM_ABS, 0, 0.2f, false }, { GSYM_EQ, 0.5f, 0.5f, true }, { GSYM_EQ, 0.5f, 0.4f, false },
        { GSYM_NEQ, 0.5f, 0.4f, true }, { GSYM_NEQ, 0.5f, 0.5f, false }, { GSYM_LT, 0.5f, 0.4f, true }, { GSYM_LT, 0.5f, 0.5f, false },
        { GSYM_LEQ, 0.5f, 0.5f, true }, { GSYM_LEQ, 0.5f, 0.6f, false }, { GSYM_GT, 0.5f, 0.6f, true }, { GSYM_GT, 0.5f, 0.5f, false },
        { GSYM_GEQ, 0.5f, 0.5f, true }, { GSYM_GEQ, 0.5f, 0.49f, false },
    };
    for (size_t i = 0; i < sizeof sym / sizeof sym[0]; i++)
        if (grammar_sym_test((grammar_cell){ (uint8_t)sym[i].op, sym[i].v }, sym[i].d) != sym[i].want)
            fail_msg("%s %g on %g", grammar_sym_name(sym[i].op), (double)sym[i].v, (double)sym[i].d);
    assert_true(grammar_xf_apply((grammar_cell){ GXF_NOP, 9 }, 0.25f) == 0.25f);
    assert_true(grammar_xf_apply((grammar_cell){ GXF_SET, 0.75f }, 0.25f) == 0.75f);
    assert_true(grammar_xf_apply((grammar_cell){ GXF_ADD, -0.5f }, 1.f) == 0.5f);
}

/* ---- file format -------------------------------------------------------- */

static const char *k_every_op =
    "# every operator once\n"
    "grammar all_ops\n"
    "rule a   # named\n"
    "size 3 2 2\n"
    "weight 2.5\n"
    "symbol\n"
    "  IGN PRES ABS\n"
    "  EQ 1 NEQ -2 LT 0.25\n"
    "\n"
    "  LEQ 3 GT 0.125 GEQ 0.5\n"
    "  ign pres abs\n"
    "transform\n"
    "  NOP SET 0.75 ADD -0.5\n"
    "  NOP NOP NOP\n"
    "  SET 1 ADD 0.5 NOP\n"
    "  NOP NOP SET 0\n"
    "end\n"
    "rule b\nsize 1 1 1\nsymbol\n GEQ 0.5\ntransform\n SET 0\nend\n";

static void test_parse_round_trip(void **state)
{
    (void)state;
    grammar *g = malloc(sizeof *g), *h = malloc(sizeof *h);
    char err[512];
    if (!grammar_parse(k_every_op, "ops.grammar", g, err, sizeof err)) fail_msg("%s", err);
    assert_string_equal(g->name, "all_ops");
    assert_int_equal(g->count, 2);
    const grammar_rule *r = &g->rules[0];
    assert_string_equal(r->name, "a");
    assert_int_equal(r->size[0], 3);
    assert_int_equal(r->size[1], 2);
    assert_int_equal(r->size[2], 2);
    assert_true(r->weight == 2.5f);
    assert_int_equal(r->line, 3);
    /* layer 0 row 1 col 1 is NEQ -2; layer 1 row 0 col 2 is GEQ 0.5 */
    assert_int_equal(r->sym[grammar_cell_index(r, 1, 1, 0)].op, GSYM_NEQ);
    assert_true(r->sym[grammar_cell_index(r, 1, 1, 0)].v == -2.f);
    assert_int_equal(r->sym[grammar_cell_index(r, 2, 0, 1)].op, GSYM_GEQ);
    assert_int_equal(r->sym[grammar_cell_index(r, 0, 1, 1)].op, GSYM_IGN);
    assert_int_equal(r->xf[grammar_cell_index(r, 1, 0, 0)].op, GXF_SET);
    assert_int_equal(r->xf[grammar_cell_index(r, 2, 0, 0)].op, GXF_ADD);
    assert_true(r->xf[grammar_cell_index(r, 2, 0, 0)].v == -0.5f);
    assert_true(g->rules[1].weight == 1.f); /* default */
    size_t need = grammar_write(g, NULL, 0);
    char *text = malloc(need + 1);
    assert_int_equal(grammar_write(g, text, need + 1), need);
    if (!grammar_parse(text, "written", h, err, sizeof err)) fail_msg("%s\n%s", err, text);
    char *again = malloc(need + 1);
    grammar_write(h, again, need + 1);
    assert_string_equal(text, again);
    for (int i = 0; i < g->count; i++) {
        assert_memory_equal(g->rules[i].size, h->rules[i].size, sizeof g->rules[i].size);
        int n = g->rules[i].size[0] * g->rules[i].size[1] * g->rules[i].size[2];
        for (int c = 0; c < n; c++) {
            assert_int_equal(g->rules[i].sym[c].op, h->rules[i].sym[c].op);
            assert_true(g->rules[i].sym[c].v == h->rules[i].sym[c].v);
            assert_int_equal(g->rules[i].xf[c].op, h->rules[i].xf[c].op);
            assert_true(g->rules[i].xf[c].v == h->rules[i].xf[c].v);
        }
    }
    free(text);
    free(again);
    free(g);
    free(h);
}

static void expect_error(const char *text, const char *where, const char *what)
{
    grammar *g = malloc(sizeof *g);
    memset(g, 0x5a, sizeof *g);
    char err[512] = "";
    assert_false(grammar_parse(text, "bad.grammar", g, err, sizeof err));
    if (!strstr(err, where) || !strstr(err, what)) fail_msg("want '%s' and '%s' in: %s", where, what, err);
    /* nothing half-loaded */
    for (size_t i = 0; i < 64; i++) assert_int_equal(((unsigned char *)g)[i], 0x5a);
    free(g);
}

static void test_parse_errors(void **state)
{
    (void)state;
    expect_error("rule a\nsize 2 1 1\nsymbol\n GEQ 0.5 FOO\ntransform\n NOP NOP\nend\n", "bad.grammar:4:10", "unknown symbol operator 'FOO'");
    expect_error("rule a\nsize 2 1 1\nsymbol\n GEQ 0.5 LT 1\ntransform\n NOP MUL 2\nend\n", "bad.grammar:6:6", "unknown transform operator 'MUL'");
    expect_error("rule a\nsize 2 1 1\nsymbol\n GEQ 0.5 LT\ntransform\n NOP NOP\nend\n", ":4:10", "LT needs a value");
    expect_error("rule a\nsize 2 1 1\nsymbol\n GEQ x LT 1\n", ":4:6", "not a finite number");
    expect_error("rule a\nsize 2 1 1\nsymbol\n GEQ 0.5 LT 1\ntransform\n NOP\nend\n", ":6:2", "needs I = 2");
    expect_error("rule a\nsize 2 2 1\nsymbol\n GEQ 0.5 LT 1\ntransform\n NOP NOP\n NOP NOP\nend\n", ":3:1", "symbol has 1 rows");
    expect_error("rule a\nsize 2 1 1\nsymbol\n GEQ 0.5 LT 1\ntransform\n NOP NOP\n NOP NOP\nend\n", ":7:2", "already has");
    expect_error("rule a\nsize 2 2 1\nsymbol\n IGN IGN\n IGN IGN\ntransform\n NOP NOP\n NOP NOP\nend\n", ":3:1", "every symbol cell is IGN");
    expect_error("rule a\nsize 9 1 1\n", ":2:6", "outside 1..8");
    expect_error("rule a\nsize 2 1\n", ":2:1", "usage: size");
    expect_error("rule a\nsize 1 1 1\nsymbol\n GEQ 0.5\nend\n", ":5:1", "no transform");
    expect_error("rule a\nsize 1 1 1\nsymbol\n GEQ 0.5\ntransform\n NOP\n", ":6:1", "missing 'end'");
    expect_error("symbol\n", ":1:1", "expected 'rule NAME'");
    expect_error("rule a\nsize 1 1 1\nsymbol\n GEQ 0.5\ntransform\n NOP\nend\nrule a\n", ":8:6", "already defined at line 1");
    expect_error("rule a\nsize 1 1 1\nweight -1\n", ":3:8", "negative");
    expect_error("rule a\nbogus\n", ":2:1", "expected size");
    expect_error("", ":0:1", "no rules");
}

/* ---- Tables 3 and 4 as shipped, against the decoding ----------- */

/* G = GEQ 0.5, L = LT 0.5, I = IGN; N = NOP, - = ADD -0.5, + = ADD 0.5 */
static void check_rule(const grammar_rule *r, const char *name, int n, const char *sym, const char *xf)
{
    assert_string_equal(r->name, name);
    assert_int_equal(r->size[0], n);
    assert_int_equal(r->size[1], n);
    assert_int_equal(r->size[2], 1);
    assert_true(r->weight == 1.f);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            grammar_cell s = r->sym[grammar_cell_index(r, i, j, 0)], t = r->xf[grammar_cell_index(r, i, j, 0)];
            char cs = sym[j * n + i], ct = xf[j * n + i];
            bool ok_s = (cs == 'G' && s.op == GSYM_GEQ && s.v == 0.5f) || (cs == 'L' && s.op == GSYM_LT && s.v == 0.5f) ||
                        (cs == 'I' && s.op == GSYM_IGN);
            bool ok_t = (ct == 'N' && t.op == GXF_NOP) || (ct == '-' && t.op == GXF_ADD && t.v == -0.5f) ||
                        (ct == '+' && t.op == GXF_ADD && t.v == 0.5f);
            if (!ok_s || !ok_t) fail_msg("rule %s row %d column %d: want %c/%c", name, j, i, cs, ct);
        }
}

static void test_table3_overhang(void **state)
{
    (void)state;
    grammar *g = load_asset("overhang.grammar");
    assert_int_equal(g->count, 4);
    check_rule(&g->rules[0], "erode_base", 3, "GLI" "GLI" "GLI", "NNN" "NNN" "-NN");
    check_rule(&g->rules[1], "notch", 3, "GGI" "GLI" "GGI", "NNN" "--N" "NNN");
    check_rule(&g->rules[2], "ledge", 3, "GGG" "GLI" "ILI", "NNN" "NN+" "--N");
    check_rule(&g->rules[3], "clean_up", 3, "GGI" "GGI" "GLI", "NNN" "NNN" "NNN");
    free(g);
}

static void test_table4_cave(void **state)
{
    (void)state;
    grammar *g = load_asset("cave.grammar");
    assert_int_equal(g->count, 4);
    check_rule(&g->rules[0], "entry", 3, "GGL" "GGL" "GGL", "NNN" "N-N" "NNN");
    check_rule(&g->rules[1], "sink", 3, "GGG" "GGL" "GGG", "N--" "N--" "--N");
    check_rule(&g->rules[2], "erode", 3, "LLG" "GGG" "LGG", "NN-" "---" "N-N");
    check_rule(&g->rules[3], "widen", 4, "LLGI" "LGGI" "GGGI" "IIII", "NN-N" "---N" "N--N" "+NNN");
    free(g);
}

/* ---- orientation and grouping ------------------------------------------ */

static void test_compile_orientation(void **state)
{
    (void)state;
    grammar *g = load_asset("cave.grammar");
    grammar_program *p = malloc(sizeof *p);
    char err[256];
    assert_true(grammar_compile(g, GRAMMAR_ORIENT_X, p, err, sizeof err));
    assert_int_equal(p->groups, 2);
    assert_int_equal(p->rules[0].size[0], 4); /* the 4x4 rule first: largest first */
    assert_int_equal(p->group_start[1], 1);
    /* the top-right symbol cell of "entry" (LT) lands at dx = 2, dy = 2 (top), dz = 0 */
    const grammar_wrule *e = &p->rules[1];
    assert_int_equal(e->sym[2 + 3 * 2].op, GSYM_LT);
    assert_int_equal(e->xf[1 + 3 * 1].op, GXF_ADD);
    assert_true(grammar_compile(g, GRAMMAR_ORIENT_NZ, p, err, sizeof err));
    assert_int_equal(p->rules[0].size[0], 1);
    assert_int_equal(p->rules[0].size[2], 4);
    e = &p->rules[1];
    /* mirrored along z: column 2 (right) sits at dz = 0 */
    assert_int_equal(e->sym[0 + 1 * (2 + 3 * 0)].op, GSYM_LT);
    assert_int_equal(e->sym[0 + 1 * (2 + 3 * 2)].op, GSYM_GEQ);
    assert_true(grammar_compile(g, GRAMMAR_ORIENT_ALL, p, err, sizeof err));
    assert_int_equal(p->count, 16);
    assert_int_equal(p->groups, 4);
    assert_false(grammar_compile(g, 0, p, err, sizeof err));
    free(p);
    free(g);
}

/* ---- fast derivation == reference -------------------------------------- */

static void test_fast_equals_reference(void **state)
{
    (void)state;
    job_pool *one = job_pool_create(1), *two = job_pool_create(2);
    grammar *g = malloc(sizeof *g);
    grammar_program *prog = malloc(sizeof *prog);
    char err[256];
    rng r = rng_make(2024);
    long long total_matches = 0;
    for (int trial = 0; trial < 60; trial++) {
        grammar_grid a = { rng_range(&r, 4, 150), rng_range(&r, 4, 40), rng_range(&r, 4, 40), NULL };
        size_t n = (size_t)a.nx * (size_t)a.ny * (size_t)a.nz;
        float *init = malloc(n * sizeof(float));
        grammar_grid tmp = a;
        tmp.d = init;
        noise_grid(&tmp, (uint64_t)trial, trial % 2 == 0);
        if (trial % 3 == 0) {
            grammar *asset = load_asset(trial % 6 == 0 ? "cave.grammar" : "overhang.grammar");
            *g = *asset;
            free(asset);
        } else {
            random_grammar(g, &r, GSYM_COUNT, GXF_COUNT);
        }
        unsigned orient = (unsigned)rng_range(&r, 1, 15);
        assert_true(grammar_compile(g, orient, prog, err, sizeof err));
        grammar_params p = { .iterations = rng_range(&r, 1, 3), .seed = (uint64_t)trial * 77 };
        int dims[3] = { a.nx, a.ny, a.nz };
        for (int ax = 0; ax < 3; ax++) {
            p.lo[ax] = trial % 4 == 0 ? 0 : rng_range(&r, 0, dims[ax] / 3);
            p.hi[ax] = trial % 4 == 0 ? dims[ax] : rng_range(&r, p.lo[ax] + 1, dims[ax]);
            p.stride[ax] = trial % 5 == 0 ? 1 : rng_range(&r, 1, 3);
        }
        float *ref = malloc(n * sizeof(float)), *f1 = malloc(n * sizeof(float)), *f2 = malloc(n * sizeof(float));
        memcpy(ref, init, n * sizeof(float));
        memcpy(f1, init, n * sizeof(float));
        memcpy(f2, init, n * sizeof(float));
        grammar_grid gr = a, g1 = a, g2 = a;
        gr.d = ref;
        g1.d = f1;
        g2.d = f2;
        ref_derive(prog, &gr, &p);
        grammar_stats st;
        assert_true(grammar_derive(prog, &g1, &p, one, &st, err, sizeof err));
        assert_true(grammar_derive(prog, &g2, &p, two, NULL, err, sizeof err));
        total_matches += st.matches;
        if (memcmp(ref, f1, n * sizeof(float)) != 0) fail_msg("trial %d: fast (1 worker) differs from the reference", trial);
        if (memcmp(ref, f2, n * sizeof(float)) != 0) fail_msg("trial %d: fast (2 workers) differs from the reference", trial);
        free(init);
        free(ref);
        free(f1);
        free(f2);
    }
    assert_true(total_matches > 1000); /* the rules really rewrote voxels */
    free(g);
    free(prog);
    job_pool_destroy(one);
    job_pool_destroy(two);
}

static void test_determinism_and_bounds(void **state)
{
    (void)state;
    grammar *g = load_asset("cave.grammar");
    grammar_program *prog = malloc(sizeof *prog);
    char err[256];
    assert_true(grammar_compile(g, GRAMMAR_ORIENT_ALL, prog, err, sizeof err));
    grammar_grid a = { 48, 32, 40, malloc(48 * 32 * 40 * sizeof(float)) };
    grammar_grid b = a;
    b.d = malloc(48 * 32 * 40 * sizeof(float));
    noise_grid(&a, 5, true);
    memcpy(b.d, a.d, 48 * 32 * 40 * sizeof(float));
    grammar_params p = { { 0, 0, 0 }, { 48, 32, 40 }, { 1, 1, 1 }, 2, 9 };
    assert_true(grammar_derive(prog, &a, &p, NULL, NULL, err, sizeof err));
    job_pool *two = job_pool_create(2);
    assert_true(grammar_derive(prog, &b, &p, two, NULL, err, sizeof err));
    assert_memory_equal(a.d, b.d, 48 * 32 * 40 * sizeof(float));
    /* bounds outside the grid are refused and nothing changes */
    grammar_params bad = p;
    bad.hi[1] = 33;
    assert_false(grammar_derive(prog, &b, &bad, two, NULL, err, sizeof err));
    assert_non_null(strstr(err, "outside the grid"));
    bad = p;
    bad.stride[2] = 0;
    assert_false(grammar_derive(prog, &b, &bad, two, NULL, err, sizeof err));
    assert_memory_equal(a.d, b.d, 48 * 32 * 40 * sizeof(float));
    job_pool_destroy(two);
    free(a.d);
    free(b.d);
    free(prog);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operators),
        cmocka_unit_test(test_parse_round_trip),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_table3_overhang),
        cmocka_unit_test(test_table4_cave),
        cmocka_unit_test(test_compile_orientation),
        cmocka_unit_test(test_fast_equals_reference),
        cmocka_unit_test(test_determinism_and_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
