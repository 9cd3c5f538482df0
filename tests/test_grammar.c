/* Voxel grammars (seed 004): operators, the file format and its errors, the
 * shipped Tables 3 and 4 cell by cell, and the fast derivation against a
 * straightforward reference on random grids, rulesets, strides, bounds,
 * orientations and seeds, with 1 and 2 workers. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/jobs.h"
#include "core/rng.h"
#include "gen/grammar.h"
#include "gen/grammar_file.h"
#include "grammar_random.h"
#include "grammar_ref.h"
#include "voxel/material.h"

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
    "rule b\nsize 1 1 1\nsymbol\n GEQ 0.5\ntransform\n SET 0\nend\n"
    "rule c\nsize 3 1 1\nsymbol\n MAT Sandstone CLASS rock SLOPE 30 90\ntransform\n PAINT mesa FILL cracked_stone NOP\nend\n";

static void test_parse_round_trip(void **state)
{
    (void)state;
    grammar *g = malloc(sizeof *g), *h = malloc(sizeof *h);
    char err[512];
    if (!grammar_parse(k_every_op, "ops.grammar", g, err, sizeof err)) fail_msg("%s", err);
    assert_string_equal(g->name, "all_ops");
    assert_int_equal(g->count, 3);
    const grammar_rule *rc = &g->rules[2];
    assert_int_equal(rc->sym[0].op, GSYM_MAT);
    assert_int_equal(rc->sym[0].id, MAT_SANDSTONE); /* names are case-insensitive */
    assert_int_equal(rc->sym[1].op, GSYM_CLASS);
    assert_int_equal(rc->sym[1].id, GCLASS_ROCK);
    assert_int_equal(rc->sym[2].op, GSYM_SLOPE);
    assert_true(rc->sym[2].v == 30.f && rc->sym[2].hi == 90.f);
    assert_int_equal(rc->xf[0].op, GXF_PAINT);
    assert_int_equal(rc->xf[0].id, MAT_MESA);
    assert_int_equal(rc->xf[1].op, GXF_FILL);
    assert_int_equal(rc->xf[1].id, MAT_CRACKED_STONE);
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
            assert_true(g->rules[i].sym[c].hi == h->rules[i].sym[c].hi);
            assert_int_equal(g->rules[i].sym[c].id, h->rules[i].sym[c].id);
            assert_int_equal(g->rules[i].xf[c].id, h->rules[i].xf[c].id);
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

/* The abstract operators' bad input: unknown names, slopes outside 0..90
 * or upside down, and transforms to what the world cannot hold (or the
 * grammar may not write), each refused where it stands. */
static void test_parse_errors_abstract(void **state)
{
    (void)state;
#define ONE(sym, xf) "rule a\nsize 1 1 1\nsymbol\n " sym "\ntransform\n " xf "\nend\n"
    expect_error(ONE("MAT granite", "NOP"), "bad.grammar:4:6", "unknown material 'granite' (one of: air");
    expect_error(ONE("CLASS metal", "NOP"), "bad.grammar:4:8", "unknown material class 'metal' (one of: air terrain rock");
    expect_error(ONE("MAT", "NOP"), "bad.grammar:4:2", "MAT needs a material name");
    expect_error(ONE("GEQ 0.5", "PAINT unobtainium"), "bad.grammar:6:8", "unknown material 'unobtainium'");
    expect_error(ONE("SLOPE 30 95", "NOP"), "bad.grammar:4:11", "slope 95 is outside 0..90");
    expect_error(ONE("SLOPE -5 30", "NOP"), "bad.grammar:4:8", "slope -5 is outside 0..90");
    expect_error(ONE("SLOPE 60 30", "NOP"), "bad.grammar:4:11", "slope range 60..30 is empty");
    expect_error(ONE("SLOPE 60", "NOP"), "bad.grammar:4:2", "SLOPE needs two angles");
    expect_error(ONE("SLOPE 10 steep", "NOP"), "bad.grammar:4:11", "not a finite number");
    expect_error(ONE("GEQ 0.5", "PAINT null"), "bad.grammar:6:8", "the world cannot hold it");
    expect_error(ONE("GEQ 0.5", "FILL structure_placeholder"), "bad.grammar:6:7", "the world cannot hold it");
    expect_error(ONE("GEQ 0.5", "PAINT air"), "bad.grammar:6:8", "carve with SET 0");
    expect_error(ONE("GEQ 0.5", "FILL oak_leaves"), "bad.grammar:6:7", "plants grow with the flora");
    expect_error(ONE("GEQ 0.5", "PAINT bedrock"), "bad.grammar:6:8", "fixed floor");
    expect_error(ONE("GEQ 0.5", "FILL muskeg"), "bad.grammar:6:7", "fixed floor");
#undef ONE
}

/* ---- the abstract operators, from their definitions ------------------- */

/* MAT and CLASS read the cell's material, carved terrain reading as air. */
static void test_material_symbols(void **state)
{
    (void)state;
    grammar_cell mat_sand = { GSYM_MAT, 0, 0, MAT_SANDSTONE }, mat_air = { GSYM_MAT, 0, 0, MAT_AIR };
    grammar_cell mat_oak = { GSYM_MAT, 0, 0, MAT_OAK_LOG };
    assert_true(grammar_sym_eval(mat_sand, 1.f, MAT_SANDSTONE, GRAMMAR_NO_SLOPE));
    assert_true(grammar_sym_eval(mat_sand, 0.5f, MAT_SANDSTONE, GRAMMAR_NO_SLOPE)); /* 0.5 is solid */
    assert_false(grammar_sym_eval(mat_sand, 1.f, MAT_STONE, GRAMMAR_NO_SLOPE));
    /* sandstone carved below 0.5 is air to the world, and so to MAT */
    assert_false(grammar_sym_eval(mat_sand, 0.49f, MAT_SANDSTONE, GRAMMAR_NO_SLOPE));
    assert_true(grammar_sym_eval(mat_air, 0.49f, MAT_SANDSTONE, GRAMMAR_NO_SLOPE));
    /* a plant has density 0 (never a wall) and still reads as itself */
    assert_true(grammar_sym_eval(mat_oak, 0.f, MAT_OAK_LOG, GRAMMAR_NO_SLOPE));
    /* air grown solid by ADD stays air until painted */
    assert_true(grammar_sym_eval(mat_air, 1.f, MAT_AIR, GRAMMAR_NO_SLOPE));
    /* the classes as docs/grammar.md lists them */
    static const struct { uint8_t m; const char *classes; } members[] = {
        { MAT_AIR, "air" }, { MAT_NULL, "" }, { MAT_PLACEHOLDER, "fixed" }, { MAT_BEDROCK, "fixed" },
        { MAT_STONE, "terrain rock" }, { MAT_DIRT, "terrain soil" }, { MAT_GRASS, "terrain soil" },
        { MAT_SAND, "terrain soil" }, { MAT_SANDSTONE, "terrain rock" }, { MAT_MESA, "terrain rock" },
        { MAT_SALT_FLAT, "terrain soil" }, { MAT_TAIGA_DIRT, "terrain soil" }, { MAT_TAIGA_GRASS, "terrain soil" },
        { MAT_PERMAFROST, "terrain soil" }, { MAT_CACTUS, "plant" }, { MAT_OAK_LOG, "plant" }, { MAT_FIR_LOG, "plant" },
        { MAT_OAK_LEAVES, "plant" }, { MAT_FIR_LEAVES, "plant" }, { MAT_CRACKED_STONE, "terrain rock" },
        { MAT_MUSKEG, "fixed" }, { MAT_LAMP, "" }, { MAT_GLOW_ORE, "terrain rock" },
    };
    assert_int_equal(sizeof members / sizeof members[0], MAT_COUNT);
    for (size_t i = 0; i < MAT_COUNT; i++)
        for (int cls = 0; cls < GCLASS_COUNT; cls++) {
            char word[32];
            snprintf(word, sizeof word, "%s", grammar_class_name(cls));
            const char *at = strstr(members[i].classes, word);
            bool want = at && (at == members[i].classes || at[-1] == ' ') && (at[strlen(word)] == 0 || at[strlen(word)] == ' ');
            grammar_cell cc = { GSYM_CLASS, 0, 0, (uint8_t)cls };
            if (grammar_sym_eval(cc, members[i].m == MAT_AIR ? 0.f : 1.f, members[i].m, GRAMMAR_NO_SLOPE) != want)
                fail_msg("CLASS %s on %s: want %d", word, material_get(members[i].m)->name, want);
        }
    /* carved rock is not rock any more; a plant at density 0 is still a plant */
    assert_false(grammar_sym_eval((grammar_cell){ GSYM_CLASS, 0, 0, GCLASS_ROCK }, 0.f, MAT_STONE, GRAMMAR_NO_SLOPE));
    assert_true(grammar_sym_eval((grammar_cell){ GSYM_CLASS, 0, 0, GCLASS_AIR }, 0.f, MAT_STONE, GRAMMAR_NO_SLOPE));
    assert_true(grammar_sym_eval((grammar_cell){ GSYM_CLASS, 0, 0, GCLASS_PLANT }, 0.f, MAT_FIR_LEAVES, GRAMMAR_NO_SLOPE));
    /* unknown ids belong to nothing */
    assert_false(grammar_class_has(GCLASS_TERRAIN, 200));
}

/* A 16^3 grid whose solid cells are those where solid(x, y, z) holds. */
static grammar_grid shape_grid(bool (*solid)(int x, int y, int z))
{
    grammar_grid g = { 16, 16, 16, malloc(16 * 16 * 16 * sizeof(float)), NULL };
    for (int z = 0; z < 16; z++)
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++) g.d[grammar_grid_index(&g, x, y, z)] = solid(x, y, z) ? 1.f : 0.f;
    return g;
}
static bool level_ground(int x, int y, int z) { (void)x, (void)z; return y < 6; }
static bool wall(int x, int y, int z) { (void)y, (void)z; return x < 6; }
static bool wall_facing_nx(int x, int y, int z) { (void)y, (void)z; return x >= 10; }
static bool stairs(int x, int y, int z) { (void)z; return y < x; }
static bool everything(int x, int y, int z) { (void)x, (void)y, (void)z; return true; }

static void test_slope_symbol(void **state)
{
    (void)state;
    /* level ground: the top layer and the air on it are level (0); deep rock and high air have no surface */
    grammar_grid g = shape_grid(level_ground);
    assert_true(grammar_slope_at(&g, 8, 5, 8) == 0.f);
    assert_true(grammar_slope_at(&g, 8, 6, 8) == 0.f);
    assert_true(grammar_slope_at(&g, 0, 5, 15) == 0.f); /* at the grid's edge the outside repeats the edge */
    assert_true(grammar_slope_at(&g, 8, 2, 8) == GRAMMAR_NO_SLOPE);
    assert_true(grammar_slope_at(&g, 8, 12, 8) == GRAMMAR_NO_SLOPE);
    free(g.d);
    /* a vertical wall facing +x: 90 degrees on both sides of its face */
    g = shape_grid(wall);
    assert_true(grammar_slope_at(&g, 5, 8, 8) == 90.f);
    assert_true(grammar_slope_at(&g, 6, 8, 8) == 90.f);
    assert_true(grammar_slope_at(&g, 2, 8, 8) == GRAMMAR_NO_SLOPE);
    free(g.d);
    /* one-voxel stairs: gx = 6 and gy = -6 above the steps, 45 degrees */
    g = shape_grid(stairs);
    assert_true(fabsf(grammar_slope_at(&g, 8, 8, 8) - 45.f) < 1e-4f);
    free(g.d);
    g = shape_grid(everything);
    for (int i = 0; i < 16; i++) assert_true(grammar_slope_at(&g, i, 15 - i, i) == GRAMMAR_NO_SLOPE);
    free(g.d);
    /* SLOPE lo hi on the range's ends, and GRAMMAR_NO_SLOPE in no range */
    grammar_cell steep = { GSYM_SLOPE, 60.f, 90.f, 0 }, any = { GSYM_SLOPE, 0.f, 90.f, 0 };
    assert_true(grammar_sym_eval(steep, 1.f, MAT_STONE, 60.f));
    assert_true(grammar_sym_eval(steep, 0.f, MAT_AIR, 90.f));
    assert_false(grammar_sym_eval(steep, 1.f, MAT_STONE, 59.9f));
    assert_false(grammar_sym_eval(any, 1.f, MAT_STONE, GRAMMAR_NO_SLOPE));
    assert_true(grammar_sym_eval(any, 1.f, MAT_STONE, 0.f));

    /* The derivation reads the slope as it stood when the iteration began.
     * "SLOPE 80 90 | GEQ 0.5 -> NOP | SET 0" on a wall facing -x (solid from
     * x = 10): the cells on both sides of the face (x = 9, 10) are at 90
     * degrees, so windows 9 and 10 carve x = 10 and 11; window 11 reads x = 11
     * as it was (inside the rock, no slope) and stops there. Were the slope
     * read live, each carve would make the next cell a face and the whole
     * wall would go in one pass. So: two layers per iteration. */
    grammar *gr = calloc(1, sizeof *gr);
    char err[512];
    assert_true(grammar_parse("rule face\nsize 2 1 1\nsymbol\n SLOPE 80 90 GEQ 0.5\ntransform\n NOP SET 0\nend\n",
                              "face.grammar", gr, err, sizeof err));
    grammar_program *prog = malloc(sizeof *prog);
    assert_true(grammar_compile(gr, GRAMMAR_ORIENT_X, prog, err, sizeof err));
    assert_int_equal(prog->needs, GRAMMAR_NEEDS_SLOPE);
    for (int iters = 1; iters <= 3; iters++) {
        g = shape_grid(wall_facing_nx);
        grammar_params p = { { 0, 0, 0 }, { 16, 16, 16 }, { 1, 1, 1 }, iters, 1 };
        assert_true(grammar_derive(prog, &g, &p, NULL, NULL, err, sizeof err));
        for (int x = 0; x < 16; x++) {
            bool want = x >= 10 + 2 * iters;
            if ((g.d[grammar_grid_index(&g, x, 8, 8)] >= 0.5f) != want) fail_msg("%d iterations: x = %d", iters, x);
        }
        free(g.d);
    }
    free(prog);
    free(gr);
}

/* PAINT sets the material and keeps the density; FILL makes the cell solid of it. */
static void test_material_transforms(void **state)
{
    (void)state;
    grammar_cell paint = { GXF_PAINT, 0, 0, MAT_SANDSTONE }, fill = { GXF_FILL, 0, 0, MAT_CRACKED_STONE };
    assert_true(grammar_xf_apply(paint, 0.25f) == 0.25f);
    assert_int_equal(grammar_xf_material(paint, MAT_MESA), MAT_SANDSTONE);
    assert_true(grammar_xf_apply(fill, 0.f) == 1.f);
    assert_int_equal(grammar_xf_material(fill, MAT_AIR), MAT_CRACKED_STONE);
    assert_int_equal(grammar_xf_material((grammar_cell){ GXF_ADD, -0.5f }, MAT_MESA), MAT_MESA);
    /* through a derivation: mesa under air is painted sandstone; the air above a painted cell
     * is filled with cracked stone; the painted cell then reads as sandstone (MAT sees writes) */
    grammar *g = calloc(1, sizeof *g);
    char err[512];
    const char *text = "rule paint\nsize 1 2 1\nsymbol\n LT 0.5\n MAT mesa\ntransform\n NOP\n PAINT sandstone\nend\n"
                       "rule fill\nsize 1 3 1\nsymbol\n LT 0.5\n LT 0.5\n MAT sandstone\ntransform\n NOP\n FILL cracked_stone\n NOP\nend\n";
    assert_true(grammar_parse(text, "paint.grammar", g, err, sizeof err));
    grammar_program *prog = malloc(sizeof *prog);
    assert_true(grammar_compile(g, GRAMMAR_ORIENT_X, prog, err, sizeof err));
    assert_int_equal(prog->needs, GRAMMAR_NEEDS_MATERIAL);
    grammar_grid grid = shape_grid(level_ground);
    grid.m = malloc(16 * 16 * 16);
    for (size_t i = 0; i < 16 * 16 * 16; i++) grid.m[i] = grid.d[i] >= 0.5f ? MAT_MESA : MAT_AIR;
    /* without the material channel the program is refused */
    grammar_grid bare = grid;
    bare.m = NULL;
    grammar_params p = { { 0, 0, 0 }, { 16, 16, 16 }, { 1, 1, 1 }, 1, 1 };
    assert_false(grammar_derive(prog, &bare, &p, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "the grid has none"));
    assert_true(grammar_derive(prog, &grid, &p, NULL, NULL, err, sizeof err));
    /* group order: the 1x3x1 fill (larger) runs before the 1x2x1 paint, so in one iteration
     * the top layer is painted and nothing is filled yet; a second iteration fills */
    for (int x = 0; x < 16; x++) {
        assert_int_equal(grid.m[grammar_grid_index(&grid, x, 5, 3)], MAT_SANDSTONE);
        assert_int_equal(grid.m[grammar_grid_index(&grid, x, 4, 3)], MAT_MESA);
        assert_int_equal(grid.m[grammar_grid_index(&grid, x, 6, 3)], MAT_AIR);
        assert_true(grid.d[grammar_grid_index(&grid, x, 5, 3)] == 1.f);
    }
    p.iterations = 1;
    assert_true(grammar_derive(prog, &grid, &p, NULL, NULL, err, sizeof err));
    for (int x = 0; x < 16; x++) {
        assert_int_equal(grid.m[grammar_grid_index(&grid, x, 6, 3)], MAT_CRACKED_STONE);
        assert_true(grid.d[grammar_grid_index(&grid, x, 6, 3)] == 1.f);
        assert_int_equal(grid.m[grammar_grid_index(&grid, x, 7, 3)], MAT_AIR);
    }
    free(grid.d);
    free(grid.m);
    free(prog);
    free(g);
}

/* ---- Tables 3 and 4 as shipped, against their decoding ----------- */

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
    long long abstract_matches = 0;
    for (int trial = 0; trial < 90; trial++) {
        grammar_grid a = { rng_range(&r, 4, 150), rng_range(&r, 4, 40), rng_range(&r, 4, 40), NULL, NULL };
        size_t n = (size_t)a.nx * (size_t)a.ny * (size_t)a.nz;
        float *init = malloc(n * sizeof(float));
        grammar_grid tmp = a;
        tmp.d = init;
        noise_grid(&tmp, (uint64_t)trial, trial % 2 == 0);
        if (trial % 3 == 0) {
            /* the shipped rulesets, the abstract alcove.grammar among them */
            grammar *asset = load_asset(trial % 9 == 3 ? "alcove.grammar" : trial % 6 == 0 ? "cave.grammar" : "overhang.grammar");
            *g = *asset;
            free(asset);
        } else {
            /* a third of the trials use the abstract operators on a grid with materials */
            random_grammar(g, &r, trial % 3 == 2);
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
        uint8_t *mats = NULL, *mref = NULL, *m1 = NULL, *m2 = NULL;
        if (prog->needs & GRAMMAR_NEEDS_MATERIAL) {
            mats = malloc(n), mref = malloc(n), m1 = malloc(n), m2 = malloc(n);
            random_materials(&tmp, mats, &r);
            memcpy(mref, mats, n), memcpy(m1, mats, n), memcpy(m2, mats, n);
            gr.m = mref, g1.m = m1, g2.m = m2;
        }
        ref_derive(prog, &gr, &p);
        grammar_stats st;
        if (!grammar_derive(prog, &g1, &p, one, &st, err, sizeof err)) fail_msg("trial %d: %s", trial, err);
        assert_true(grammar_derive(prog, &g2, &p, two, NULL, err, sizeof err));
        total_matches += st.matches;
        if (prog->needs) abstract_matches += st.matches;
        if (memcmp(ref, f1, n * sizeof(float)) != 0) fail_msg("trial %d: fast (1 worker) differs from the reference", trial);
        if (memcmp(ref, f2, n * sizeof(float)) != 0) fail_msg("trial %d: fast (2 workers) differs from the reference", trial);
        if (mats && (memcmp(mref, m1, n) != 0 || memcmp(mref, m2, n) != 0))
            fail_msg("trial %d: fast materials differ from the reference", trial);
        free(mats), free(mref), free(m1), free(m2);
        free(init);
        free(ref);
        free(f1);
        free(f2);
    }
    assert_true(total_matches > 1000); /* the rules really rewrote voxels */
    print_message("abstract-operator trials: %lld matches\n", abstract_matches);
    assert_true(abstract_matches > 300);
    free(g);
    free(prog);
    job_pool_destroy(one);
    job_pool_destroy(two);
}

/* Past MAX_PLANES (32 distinct predicates) cells are checked one by one:
 * a rule of 40 always-true LEQ cells, then SLOPE and MAT cells that get no
 * plane, must still match exactly where the reference says. */
static void test_abstract_past_max_planes(void **state)
{
    (void)state;
    grammar *g = calloc(1, sizeof *g);
    g->count = 1;
    grammar_rule *r = &g->rules[0];
    snprintf(r->name, sizeof r->name, "wide");
    r->size[0] = 7, r->size[1] = 2, r->size[2] = 3;
    r->weight = 1.f;
    for (int c = 0; c < 42; c++) r->sym[c] = (grammar_cell){ GSYM_LEQ, 1.f + 0.001f * (float)c, 0.f, 0 };
    r->sym[39] = (grammar_cell){ GSYM_SLOPE, 30.f, 90.f, 0 };
    r->sym[40] = (grammar_cell){ GSYM_MAT, 0.f, 0.f, MAT_SAND };
    r->sym[41] = (grammar_cell){ GSYM_CLASS, 0.f, 0.f, GCLASS_AIR };
    r->xf[39] = (grammar_cell){ GXF_SET, 0.f, 0.f, 0 };
    r->xf[41] = (grammar_cell){ GXF_FILL, 0.f, 0.f, MAT_SANDSTONE };
    grammar_program *prog = malloc(sizeof *prog);
    char err[256];
    assert_true(grammar_compile(g, GRAMMAR_ORIENT_ALL, prog, err, sizeof err));
    grammar_grid a = { 60, 30, 40, malloc(60 * 30 * 40 * sizeof(float)), malloc(60 * 30 * 40) };
    noise_grid(&a, 8, true);
    rng rr = rng_make(8);
    random_materials(&a, a.m, &rr);
    for (size_t i = 0; i < 60 * 30 * 40; i++)
        if (a.m[i] == MAT_STONE) a.m[i] = MAT_SAND;
    grammar_grid b = a;
    b.d = malloc(60 * 30 * 40 * sizeof(float)), b.m = malloc(60 * 30 * 40);
    memcpy(b.d, a.d, 60 * 30 * 40 * sizeof(float));
    memcpy(b.m, a.m, 60 * 30 * 40);
    grammar_params p = { { 0, 0, 0 }, { 60, 30, 40 }, { 1, 1, 1 }, 2, 3 };
    ref_derive(prog, &a, &p);
    job_pool *two = job_pool_create(2);
    grammar_stats st;
    assert_true(grammar_derive(prog, &b, &p, two, &st, err, sizeof err));
    print_message("past 32 planes: %lld matches\n", st.matches);
    assert_true(st.matches > 10);
    assert_memory_equal(a.d, b.d, 60 * 30 * 40 * sizeof(float));
    assert_memory_equal(a.m, b.m, 60 * 30 * 40);
    job_pool_destroy(two);
    free(a.d), free(a.m), free(b.d), free(b.m);
    free(prog);
    free(g);
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

/* ---- rule selection (section 3.1.3) --------------------------------------
 * Where several rules of one size match a window, the highest weight wins
 * whatever its place in the grammar; equal weights are drawn at random, so
 * a NOP rule beside a rule of the same weight skips about half the matches
 * (the paper's way to break up repeating patterns). Every voxel of a solid
 * grid matches both 1x1x1 rules below at every window. */
static double share_of(const grammar *g, float value, uint64_t seed)
{
    grammar_program *prog = malloc(sizeof *prog);
    char err[256];
    assert_true(grammar_compile(g, GRAMMAR_ORIENT_X, prog, err, sizeof err));
    assert_int_equal(prog->groups, 1);
    enum { N = 16 };
    grammar_grid a = { N, N, N, malloc(N * N * N * sizeof(float)), NULL };
    for (int i = 0; i < N * N * N; i++) a.d[i] = 1.f;
    grammar_params p = { { 0, 0, 0 }, { N, N, N }, { 1, 1, 1 }, 1, seed };
    grammar_stats st;
    assert_true(grammar_derive(prog, &a, &p, NULL, &st, err, sizeof err));
    int hits = 0;
    for (int i = 0; i < N * N * N; i++) hits += a.d[i] == value;
    free(a.d);
    free(prog);
    return (double)hits / (N * N * N);
}

static void one_cell_rule(grammar_rule *r, const char *name, float weight, grammar_cell xf)
{
    snprintf(r->name, sizeof r->name, "%s", name);
    r->size[0] = r->size[1] = r->size[2] = 1;
    r->weight = weight;
    r->sym[0] = (grammar_cell){ GSYM_PRES, 0.f, 0.f, 0 };
    r->xf[0] = xf;
}

static void test_rule_selection_by_weight(void **state)
{
    (void)state;
    grammar *g = calloc(1, sizeof *g);
    g->count = 2;
    const grammar_cell low = { GXF_SET, 0.25f, 0.f, 0 }, high = { GXF_SET, 0.75f, 0.f, 0 };
    /* the heavier rule wins every window, first or second in its group */
    for (int order = 0; order < 2; order++) {
        one_cell_rule(&g->rules[order], "light", 1.f, low);
        one_cell_rule(&g->rules[1 - order], "heavy", 3.f, high);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            assert_true(share_of(g, 0.75f, seed) == 1.0);
            assert_true(share_of(g, 0.25f, seed) == 0.0);
        }
    }
    /* equal weights: both win, each about half of 4096 windows (a binomial
     * with a standard deviation under 1 %) */
    one_cell_rule(&g->rules[0], "a", 2.f, low);
    one_cell_rule(&g->rules[1], "b", 2.f, high);
    double s = share_of(g, 0.25f, 7);
    print_message("equal weights: the first rule wins %.3f of the windows\n", s);
    assert_true(s > 0.45 && s < 0.55);
    assert_true(share_of(g, 0.75f, 7) == 1.0 - s);
    /* a NOP rule of the same weight leaves about half the matches alone */
    one_cell_rule(&g->rules[1], "nop", 2.f, (grammar_cell){ GXF_NOP, 0.f, 0.f, 0 });
    double kept = share_of(g, 1.f, 8);
    assert_true(kept > 0.45 && kept < 0.55);
    /* a heavier NOP rule leaves every window alone */
    g->rules[1].weight = 2.5f;
    assert_true(share_of(g, 1.f, 8) == 1.0);
    free(g);
}

/* ---- the shipped rulesets give the same voxels as before ----------------
 * Hashes of the fast derivation's output taken on main before the abstract
 * symbols (MAT, CLASS, SLOPE, PAINT, FILL) existed: the extension must not
 * change a single density a density-only ruleset writes. */
static void test_old_rulesets_unchanged(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        unsigned orient;
        int stride, iterations;
        uint64_t hash;
    } pinned[] = {
        { "cave.grammar", GRAMMAR_ORIENT_ALL, 1, 2, 0x9fdbbe4a099d78acULL },
        { "cave.grammar", GRAMMAR_ORIENT_X, 2, 1, 0x2b1563784171b616ULL },
        { "overhang.grammar", GRAMMAR_ORIENT_ALL, 1, 2, 0x0b1ddcc7fa77e3c7ULL },
        { "overhang.grammar", GRAMMAR_ORIENT_Z, 1, 3, 0xcab2a9a8f34c35edULL },
    };
    job_pool *two = job_pool_create(2);
    grammar_program *prog = malloc(sizeof *prog);
    char err[256];
    for (size_t t = 0; t < sizeof pinned / sizeof pinned[0]; t++) {
        grammar *g = load_asset(pinned[t].file);
        assert_true(grammar_compile(g, pinned[t].orient, prog, err, sizeof err));
        grammar_grid a = { 70, 40, 50, malloc(70 * 40 * 50 * sizeof(float)) };
        noise_grid(&a, 3 + t, true);
        int s = pinned[t].stride;
        grammar_params p = { { 0, 0, 0 }, { 70, 40, 50 }, { s, 1, s }, pinned[t].iterations, 41 + t };
        assert_true(grammar_derive(prog, &a, &p, two, NULL, err, sizeof err));
        uint64_t h = hash_bytes(HASH_SEED, a.d, 70 * 40 * 50 * sizeof(float));
        print_message("%s orient %u stride %d iterations %d: hash 0x%016llx\n", pinned[t].file, pinned[t].orient, s,
                      pinned[t].iterations, (unsigned long long)h);
        if (h != pinned[t].hash) fail_msg("%s: the derivation changed (hash 0x%016llx)", pinned[t].file, (unsigned long long)h);
        free(a.d);
        free(g);
    }
    free(prog);
    job_pool_destroy(two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operators),
        cmocka_unit_test(test_parse_round_trip),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_parse_errors_abstract),
        cmocka_unit_test(test_material_symbols),
        cmocka_unit_test(test_slope_symbol),
        cmocka_unit_test(test_material_transforms),
        cmocka_unit_test(test_abstract_past_max_planes),
        cmocka_unit_test(test_table3_overhang),
        cmocka_unit_test(test_table4_cave),
        cmocka_unit_test(test_compile_orientation),
        cmocka_unit_test(test_fast_equals_reference),
        cmocka_unit_test(test_determinism_and_bounds),
        cmocka_unit_test(test_rule_selection_by_weight),
        cmocka_unit_test(test_old_rulesets_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
