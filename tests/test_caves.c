/* Grammar caves in every biome: air below the original height map that a
 * flood fill from the sky reaches (a cave with an entrance), overhangs
 * (terrain with air directly below, ground further below, and that air in
 * the open: beside it a column with no terrain above, not a closed cave),
 * determinism per (biome, seed, parameters) on 1 and 2 workers, and bad
 * input that changes nothing. */
#include "test_support.h"

#include "light/emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worldgen/biomes.h"
#include "worldgen/caves.h"
#include "core/jobs.h"
#include "gen/grammar_file.h"
#include "worldgen/terrain.h"
#include "ui/cvar.h"
#include "worldgen/worldgen.h"

static const char *const g_biomes[] = { "desert", "taiga", "deciduous" };

static int setup(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    caves_register();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    worldgen_set_pass(NULL);
    cvar_shutdown();
    return 0;
}

static world *gen(const char *kind, int seed, int workers, bool caves)
{
    job_pool *jobs = job_pool_create(workers);
    world *w = world_create(8, 4, 8);
    assert_true(cvar_set_by_name("caves.enable", caves ? "1" : "0"));
    assert_true(worldgen_generate(w, worldgen_find(kind), seed, jobs));
    job_pool_destroy(jobs);
    return w;
}

static int *heights(const world *w)
{
    int *h = malloc(sizeof(int) * (size_t)w->sx * (size_t)w->sz);
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            int y = w->sy - 1;
            while (y > 0 && !caves_is_terrain(world_get(w, x, y, z))) y--;
            h[z * w->sx + x] = y;
        }
    return h;
}

/* Air reachable from the top layer through air, 6-connected. */
static uint8_t *sky_fill(const world *w)
{
    size_t n = (size_t)w->sx * (size_t)w->sy * (size_t)w->sz;
    uint8_t *seen = calloc(n, 1);
    int *stack = malloc(sizeof(int) * 3 * n / 4 + 64);
    size_t top = 0;
#define IDX(x, y, z) ((size_t)(x) + (size_t)w->sx * ((size_t)(z) + (size_t)w->sz * (size_t)(y)))
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++)
            if (world_get(w, x, w->sy - 1, z) == MAT_AIR) {
                seen[IDX(x, w->sy - 1, z)] = 1;
                stack[top++] = x, stack[top++] = w->sy - 1, stack[top++] = z;
            }
    static const int off[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
    while (top) {
        int z = stack[--top], y = stack[--top], x = stack[--top];
        for (int i = 0; i < 6; i++) {
            int px = x + off[i][0], py = y + off[i][1], pz = z + off[i][2];
            if (!world_in_bounds(w, px, py, pz) || seen[IDX(px, py, pz)] || world_get(w, px, py, pz) != MAT_AIR) continue;
            seen[IDX(px, py, pz)] = 1;
            stack[top++] = px, stack[top++] = py, stack[top++] = pz;
        }
    }
    free(stack);
    return seen;
}

/* Whether a horizontal neighbour of air voxel (x, y, z) is air with no terrain above it. */
static bool open_beside(const world *w, const int *top, int x, int y, int z)
{
    static const int off[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
    for (int i = 0; i < 4; i++) {
        int px = x + off[i][0], pz = z + off[i][1];
        if (px < 0 || pz < 0 || px >= w->sx || pz >= w->sz) continue;
        if (top[pz * w->sx + px] < y && world_get(w, px, y, pz) == MAT_AIR) return true;
    }
    return false;
}

typedef struct cave_counts {
    long long cave, deep_cave, overhang;
} cave_counts;

/* Counts against the original height map h (the world without caves). */
static cave_counts measure(const world *w, const int *h)
{
    cave_counts c = { 0 };
    uint8_t *sky = sky_fill(w);
    int *top = heights(w); /* highest terrain now: a voxel above it is open to the sky */
    for (int z = 1; z < w->sz - 1; z++)
        for (int x = 1; x < w->sx - 1; x++) {
            int hc = h[z * w->sx + x];
            for (int y = 1; y < w->sy - 1; y++) {
                uint8_t m = world_get(w, x, y, z);
                if (m == MAT_AIR && y < hc - 2 && sky[IDX(x, y, z)]) {
                    c.cave++;
                    if (y < hc - 8) c.deep_cave++;
                }
                /* overhang: terrain over air, ground further down, and the air in the open: beside
                 * it, at the same height, a column with nothing solid above (not a closed cave's roof) */
                if (caves_is_terrain(m) && world_get(w, x, y - 1, z) == MAT_AIR && open_beside(w, top, x, y - 1, z)) {
                    bool ground = false;
                    for (int yy = y - 2; yy >= 0 && !ground; yy--) ground = caves_is_terrain(world_get(w, x, yy, z));
                    c.overhang += ground;
                }
            }
        }
    free(top);
    free(sky);
    return c;
}

static void test_caves_and_overhangs_in_every_biome(void **state)
{
    (void)state;
    for (int b = 0; b < 3; b++) {
        world *orig = gen(g_biomes[b], 7, 2, false);
        world *w = gen(g_biomes[b], 7, 2, true);
        int *h = heights(orig);
        cave_counts c = measure(w, h), c0 = measure(orig, h);
        print_message("%s: %lld sky-connected cave voxels below the surface (%lld 8+ deep), %lld overhang voxels\n",
                      g_biomes[b], c.cave, c.deep_cave, c.overhang);
        if (c.cave < 500 || c.deep_cave < 100) fail_msg("%s has no cave reachable from the sky", g_biomes[b]);
        if (c.overhang < 20) fail_msg("%s has no overhangs", g_biomes[b]);
        /* without caves a height-map world has neither */
        assert_int_equal(c0.cave, 0);
        assert_int_equal(c0.overhang, 0);
        free(h);
        world_destroy(w);
        world_destroy(orig);
    }
}

static void test_deterministic(void **state)
{
    (void)state;
    for (int b = 0; b < 3; b++) {
        world *a = gen(g_biomes[b], 11, 1, true), *c = gen(g_biomes[b], 11, 2, true), *d = gen(g_biomes[b], 12, 2, true);
        if (world_hash(a) != world_hash(c)) fail_msg("%s: 1 and 2 workers differ", g_biomes[b]);
        if (world_hash(a) == world_hash(d)) fail_msg("%s: seeds 11 and 12 give the same caves", g_biomes[b]);
        /* a parameter changes the caves */
        assert_true(cvar_set_by_name("caves.orientation", "x"));
        world *e = gen(g_biomes[b], 11, 2, true);
        assert_true(world_hash(a) != world_hash(e));
        assert_true(cvar_set_by_name("caves.orientation", "all"));
        world_destroy(a);
        world_destroy(c);
        world_destroy(d);
        world_destroy(e);
    }
}

/* Setting grammar-file cvar `name` to a file holding `text` is refused with
 * `where` (file:line:col) and `what` in the message, and the cvar keeps its value. */
static void expect_refused(const char *name, const char *text, const char *where, const char *what)
{
    const char *path = "bad_caves.grammar";
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    cvar *c = cvar_find(name);
    char err[512] = "", before[256];
    snprintf(before, sizeof before, "%s", c->str);
    assert_false(cvar_set(c, path, err, sizeof err));
    if (!strstr(err, where) || !strstr(err, what)) fail_msg("want '%s' and '%s' in: %s", where, what, err);
    assert_string_equal(c->str, before);
    remove(path);
}

static void test_bad_input_changes_nothing(void **state)
{
    (void)state;
    expect_refused("caves.grammar", "rule a\nsize 2 1 1\nsymbol\n GEQ 0.5 WAT\ntransform\n NOP NOP\nend\n",
                   "bad_caves.grammar:4:10", "unknown symbol operator");
    char err[512] = "";

    world *w = gen("desert", 3, 2, true);
    uint64_t before = world_hash(w);
    grammar *g = malloc(sizeof *g);
    grammar_program *prog = malloc(sizeof *prog);
    assert_true(caves_load_grammar("cave.grammar", g, err, sizeof err));
    assert_true(grammar_compile(g, GRAMMAR_ORIENT_ALL, prog, err, sizeof err));
    int lo[3] = { 10, 10, 10 }, hi[3] = { 40, 200, 40 }, stride[3] = { 1, 1, 1 };
    caves_edit e;
    assert_false(caves_apply_box(w, prog, lo, hi, stride, 1, 1, NULL, &e, err, sizeof err));
    assert_non_null(strstr(err, "outside the world"));
    assert_int_equal(world_hash(w), before);
    /* inside the world it edits, and only terrain */
    hi[1] = 100;
    assert_true(caves_apply_box(w, prog, lo, hi, stride, 2, 1, NULL, &e, err, sizeof err));
    assert_true(e.changed > 0);
    assert_true(world_hash(w) != before);
    free(g);
    free(prog);
    world_destroy(w);
}

/* The worlds the cave and overhang rulesets carve (world_hash of the
 * 8x4x8-chunk world, seed 7, caves on, the feature rulesets off): pinned
 * when the abstract symbols came, so the old rulesets keep their voxels;
 * pinned again at WORLDGEN_VERSION 2, whose levels, regions and cave tiles
 * change every world, and at 3 (noise sampled in doubles: a column here
 * and there; the forest's regions west of 0, whose trees reach in). */
static void test_old_caves_unchanged(void **state)
{
    (void)state;
    static const uint64_t pinned[3] = { 0x4acf474188ba10ffULL, 0x3ef66919bdb9e3e1ULL, 0x3a4d0317454e445dULL };
    assert_true(cvar_set_by_name("caves.features_desert", "none"));
    assert_true(cvar_set_by_name("caves.glow_ore", "0")); /* the ore after them has its own test */
    uint64_t h[3];
    for (int b = 0; b < 3; b++) {
        world *w = gen(g_biomes[b], 7, 2, true);
        h[b] = world_hash(w);
        print_message("%s: world_hash 0x%016llx\n", g_biomes[b], (unsigned long long)h[b]);
        world_destroy(w);
    }
    for (int b = 0; b < 3; b++)
        if (h[b] != pinned[b]) fail_msg("%s: the caves changed (world_hash 0x%016llx)", g_biomes[b], (unsigned long long)h[b]);
    assert_true(cvar_set_by_name("caves.features_desert", "alcove.grammar"));
    assert_true(cvar_set_by_name("caves.glow_ore", "20"));
}

/* The desert's feature ruleset (assets/grammars/alcove.grammar) as the
 * game derives it: alcoves (a sandstone lintel over four voxels of air
 * over a sandstone floor, where the world without features had mesa) and
 * sand drifts (sand with a mesa wall beside it, where there was air). The
 * rest of the world is the featureless one: only mesa, and the air at the
 * walls' feet, changed. */
static void test_desert_alcoves(void **state)
{
    (void)state;
    assert_true(cvar_set_by_name("caves.features_desert", "none"));
    assert_true(cvar_set_by_name("caves.glow_ore", "0")); /* the features alone: the ore grows on what they leave */
    world *plain = gen("desert", 7, 2, true);
    assert_true(cvar_set_by_name("caves.features_desert", "alcove.grammar"));
    world *w = gen("desert", 7, 2, true);
    long long alcoves = 0, drifts = 0, changed = 0, other = 0;
    for (int z = 1; z < w->sz - 1; z++)
        for (int x = 1; x < w->sx - 1; x++)
            for (int y = 1; y < w->sy; y++) {
                uint8_t a = world_get(plain, x, y, z), b = world_get(w, x, y, z);
                if (a == b) continue;
                changed++;
                /* the ruleset paints and carves mesa, and fills air with sand */
                if (!(a == MAT_MESA && (b == MAT_SANDSTONE || b == MAT_AIR || b == MAT_SAND)) && !(a == MAT_AIR && b == MAT_SAND)) other++;
                if (y >= 6 && b == MAT_SANDSTONE && a == MAT_MESA && world_get(w, x, y - 5, z) == MAT_SANDSTONE) {
                    bool open = true;
                    for (int k = 1; k <= 4; k++) open = open && world_get(w, x, y - k, z) == MAT_AIR;
                    alcoves += open;
                }
                if (a == MAT_AIR && b == MAT_SAND) {
                    bool wall = world_get(w, x + 1, y, z) == MAT_MESA || world_get(w, x - 1, y, z) == MAT_MESA ||
                                world_get(w, x, y, z + 1) == MAT_MESA || world_get(w, x, y, z - 1) == MAT_MESA;
                    drifts += wall;
                }
            }
    print_message("desert features: %lld voxels changed, %lld alcove lintel voxels, %lld drift voxels, %lld other\n", changed,
                  alcoves, drifts, other);
    assert_true(alcoves >= 8);
    assert_true(drifts >= 20);
    assert_int_equal(other, 0);
    world_destroy(w);
    /* a wider stride tries fewer windows: fewer features, not none */
    assert_true(cvar_set_by_name("caves.features_stride", "3 1 3"));
    w = gen("desert", 7, 2, true);
    long long sparse = 0;
    for (int z = 0; z < w->sz; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = 0; x < w->sx; x++) sparse += world_get(w, x, y, z) != world_get(plain, x, y, z);
    print_message("with caves.features_stride 3 1 3: %lld voxels changed\n", sparse);
    assert_true(sparse > 0 && sparse < changed);
    assert_true(cvar_set_by_name("caves.features_stride", "1 1 1"));
    assert_true(cvar_set_by_name("caves.glow_ore", "20"));
    world_destroy(w);
    world_destroy(plain);
}

/* PAINT and FILL through caves_apply_box, from their definitions: painted
 * terrain takes the painted material, air filled takes the FILL's (not its
 * neighbours'), carved terrain becomes air, and plants and the fixed floor
 * are never written, whatever the rules say of them. */
static void test_material_transforms_in_the_world(void **state)
{
    (void)state;
    world *w = world_create(1, 1, 1);
    /* a floor of sand on bedrock, a cactus and a bedrock pillar standing on it */
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 32; x++) {
            world_set(w, x, 0, z, MAT_BEDROCK);
            for (int y = 1; y < 8; y++) world_set(w, x, y, z, MAT_SAND);
        }
    world_set(w, 10, 8, 10, MAT_CACTUS);
    world_set(w, 20, 8, 20, MAT_BEDROCK);
    grammar *g = malloc(sizeof *g);
    grammar_program *prog = malloc(sizeof *prog);
    char err[512];
    /* sand under air: paint it sandstone and fill the air cell above with cracked stone;
     * sand two below the top: carve it */
    const char *text = "rule r\nsize 1 4 1\nsymbol\n IGN\n CLASS air\n MAT sand\n MAT sand\n"
                       "transform\n NOP\n FILL cracked_stone\n PAINT sandstone\n SET 0\nend\n"
                       "rule plant\nsize 1 2 1\nsymbol\n CLASS plant\n IGN\ntransform\n FILL stone\n NOP\nend\n"
                       "rule floor\nsize 1 1 1\nsymbol\n CLASS fixed\ntransform\n PAINT stone\nend\n";
    if (!grammar_parse(text, "paint.grammar", g, err, sizeof err)) fail_msg("%s", err);
    assert_true(grammar_compile(g, GRAMMAR_ORIENT_X, prog, err, sizeof err));
    int lo[3] = { 0, 0, 0 }, hi[3] = { 32, 12, 32 }, stride[3] = { 1, 1, 1 };
    caves_edit e;
    assert_true(caves_apply_box(w, prog, lo, hi, stride, 1, 1, NULL, &e, err, sizeof err));
    assert_int_equal(world_get(w, 5, 9, 5), MAT_AIR);             /* above the fill: untouched air */
    assert_int_equal(world_get(w, 5, 8, 5), MAT_CRACKED_STONE);   /* FILL: solid, its material */
    assert_int_equal(world_get(w, 5, 7, 5), MAT_SANDSTONE);       /* PAINT: still solid, painted */
    assert_int_equal(world_get(w, 5, 6, 5), MAT_AIR);             /* SET 0 on sand: carved */
    assert_int_equal(world_get(w, 5, 5, 5), MAT_SAND);
    assert_int_equal(world_get(w, 10, 8, 10), MAT_CACTUS);        /* plants are never written */
    assert_int_equal(world_get(w, 20, 8, 20), MAT_BEDROCK);       /* nor the fixed floor */
    assert_int_equal(world_get(w, 5, 0, 5), MAT_BEDROCK);
    free(g);
    free(prog);
    world_destroy(w);
}

/* A feature ruleset that does not parse (or breaks the abstract rules) is
 * refused by set with file:line:col; "none" turns it off; it belongs to its
 * biome alone. */
static void test_feature_cvars(void **state)
{
    (void)state;
    expect_refused("caves.features_desert", "rule a\nsize 2 1 1\nsymbol\n MAT mesa SLOPE 10 120\ntransform\n NOP PAINT sandstone\nend\n",
                   "bad_caves.grammar:4:20", "outside 0..90");
    expect_refused("caves.features_desert", "rule a\nsize 2 1 1\nsymbol\n MAT granite LT 0.5\ntransform\n NOP NOP\nend\n",
                   "bad_caves.grammar:4:6", "unknown material 'granite'");
    expect_refused("caves.features_desert", "rule a\nsize 2 1 1\nsymbol\n MAT mesa LT 0.5\ntransform\n NOP FILL fir_leaves\nend\n",
                   "bad_caves.grammar:6:11", "plants grow with the flora");
    cvar *c = cvar_find("caves.features_desert");
    char err[512] = "";
    assert_string_equal(c->str, "alcove.grammar");
    assert_true(cvar_set(c, "none", err, sizeof err));
    assert_true(cvar_set(c, "alcove.grammar", err, sizeof err));
    assert_true(worldgen_cvar_affects(worldgen_find("desert"), "caves.features_desert"));
    assert_false(worldgen_cvar_affects(worldgen_find("taiga"), "caves.features_desert"));
    assert_true(worldgen_cvar_affects(worldgen_find("taiga"), "caves.features_iterations"));
    assert_true(worldgen_cvar_affects(worldgen_find("desert"), "caves.features_stride"));
}

/* Glowing ore (cave_ore.h) grows on the rock of cave walls in every biome
 * with caves: each ore voxel has air beside it, under a roof; none without
 * caves, none with caves.glow_ore 0; its light spreads into the cave. */
static void test_glow_ore_on_cave_walls(void **state)
{
    (void)state;
    assert_true(cvar_set_by_name("caves.features_desert", "none"));
    static const int off[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 0, 1 }, { 0, 0, -1 }, { 0, 1, 0 }, { 0, -1, 0 } };
    for (int b = 0; b < 3; b++) {
        world *w = gen(g_biomes[b], 7, 2, true);
        uint64_t counts[MAT_COUNT];
        world_count_materials(w, counts);
        long walls = 0;
        for (int z = 1; z < w->sz - 1; z++)
            for (int y = 1; y < w->sy - 1; y++)
                for (int x = 1; x < w->sx - 1; x++) {
                    if (world_get(w, x, y, z) != MAT_GLOW_ORE) continue;
                    bool wall = false;
                    for (int k = 0; k < 6; k++) wall |= world_get(w, x + off[k][0], y + off[k][1], z + off[k][2]) == MAT_AIR;
                    walls += wall;
                }
        print_message("%s: %llu glowing ore voxels\n", g_biomes[b], (unsigned long long)counts[MAT_GLOW_ORE]);
        assert_true(counts[MAT_GLOW_ORE] >= 10);
        assert_int_equal(walls, (long)counts[MAT_GLOW_ORE]);
        emit *e = emit_create(w->sx, w->sy, w->sz);
        emit_fill_all(e, w);
        long lit = 0;
        for (int z = 0; z < w->sz; z++)
            for (int y = 0; y < w->sy; y++)
                for (int x = 0; x < w->sx; x++) lit += world_get(w, x, y, z) == MAT_AIR && emit_get(e, x, y, z) > 0;
        assert_true(lit > 100);
        emit_destroy(e);
        world_destroy(w);
        w = gen(g_biomes[b], 7, 2, false);
        world_count_materials(w, counts);
        assert_int_equal(counts[MAT_GLOW_ORE], 0);
        world_destroy(w);
    }
    assert_true(cvar_set_by_name("caves.glow_ore", "0"));
    world *w = gen("taiga", 7, 2, true);
    uint64_t counts[MAT_COUNT];
    world_count_materials(w, counts);
    assert_int_equal(counts[MAT_GLOW_ORE], 0);
    world_destroy(w);
    assert_true(cvar_set_by_name("caves.glow_ore", "20"));
    assert_true(cvar_set_by_name("caves.features_desert", "alcove.grammar"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_caves_and_overhangs_in_every_biome),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_old_caves_unchanged),
        cmocka_unit_test(test_desert_alcoves),
        cmocka_unit_test(test_material_transforms_in_the_world),
        cmocka_unit_test(test_feature_cvars),
        cmocka_unit_test(test_glow_ore_on_cave_walls),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
