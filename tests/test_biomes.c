/* The three biomes of seed 001: per-biome invariants over whole generated
 * worlds (default size 16x4x16 where the targets ask for it), determinism
 * across seeds and worker counts, and refusal of bad parameters. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worldgen/biomes.h"
#include "core/jobs.h"
#include "worldgen/terrain.h"
#include "ui/cvar.h"

static job_pool *g_pool1, *g_pool2;

static int setup(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    g_pool1 = job_pool_create(1);
    g_pool2 = job_pool_create(2);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    job_pool_destroy(g_pool1);
    job_pool_destroy(g_pool2);
    cvar_shutdown();
    return 0;
}

/* Generates a world and keeps a plan of the same inputs for the checks. */
static world *make_world(const char *kind_name, int cx, int cy, int cz, int64_t seed, job_pool *pool, void **plan)
{
    const worldgen_kind *k = worldgen_find(kind_name);
    assert_non_null(k);
    world *w = world_create(cx, cy, cz);
    assert_non_null(w);
    assert_true(worldgen_generate(w, k, seed, pool));
    if (plan) {
        char err[256] = "";
        *plan = k->plan(w, seed, err, sizeof err);
        assert_non_null(*plan);
    }
    return w;
}

static void free_plan(const char *kind_name, void *plan) { worldgen_find(kind_name)->free_plan(plan); }

static void set_cvar(const char *name, const char *value)
{
    char err[256];
    cvar *c = cvar_find(name);
    assert_non_null(c);
    if (!cvar_set(c, value, err, sizeof err)) fail_msg("%s", err);
}

static void reset_cvar(const char *name) { cvar_reset(cvar_find(name)); }

static void assert_bedrock_floor(const world *w)
{
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            assert_int_equal(world_get(w, x, 0, z), MAT_BEDROCK);
            for (int y = 1; y < w->sy; y++) assert_int_not_equal(world_get(w, x, y, z), MAT_BEDROCK);
        }
}

static bool solid_at(const world *w, int x, int y, int z) { return material_get(world_get(w, x, y, z))->solid; }

static void test_desert_invariants(void **state)
{
    (void)state;
    void *plan;
    world *w = make_world("desert", 16, 4, 16, 1234, g_pool2, &plan);
    const biome_levels *lv = biome_plan_levels(plan);
    assert_bedrock_floor(w);
    uint64_t n_mesa = 0, n_salt = 0, n_cactus = 0;
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            int top = world_surface_y(w, x, z);
            uint8_t s = world_get(w, x, top, z);
            if (s != MAT_SAND && s != MAT_MESA && s != MAT_SALT_FLAT && s != MAT_CACTUS)
                fail_msg("desert surface at (%d, %d, %d) is %s", x, top, z, material_get(s)->name);
            for (int y = 1; y < w->sy; y++) {
                uint8_t m = world_get(w, x, y, z);
                if (m == MAT_MESA) {
                    n_mesa++;
                    if (y < lv->min_mesa) fail_msg("mesa at y=%d below the minimum mesa height %d", y, lv->min_mesa);
                } else if (m == MAT_SALT_FLAT) {
                    n_salt++;
                    if (y < lv->playa_lo || y > lv->playa_hi)
                        fail_msg("salt flat at y=%d outside the playa bounds [%d, %d]", y, lv->playa_lo, lv->playa_hi);
                    if (world_get(w, x, y + 2, z) != MAT_AIR) fail_msg("salt flat at (%d, %d, %d) without air two above", x, y, z);
                } else if (m == MAT_CACTUS) {
                    n_cactus++;
                }
            }
        }
    /* the defaults must show every feature, or the checks above prove nothing */
    assert_true(n_mesa > 0);
    assert_true(n_salt > 0);
    assert_true(n_cactus > 0);

    int count, kinds[3] = { 0 };
    const flora *f = biome_plan_flora(plan, &count);
    for (int i = 0; i < count; i++) {
        assert_true(f[i].kind <= FLORA_SAGUARO);
        kinds[f[i].kind]++;
        /* every cactus stands on sand */
        assert_int_equal(world_get(w, f[i].x, f[i].y - 1, f[i].z), MAT_SAND);
        assert_int_equal(world_get(w, f[i].x, f[i].y, f[i].z), MAT_CACTUS);
        if (f[i].kind != FLORA_SAGUARO) continue;
        assert_in_range(f[i].arms, 1, 4);
        /* count the arms in the world: cactus beside the trunk above its base
         * (an arm beyond the window's edge grows in the next window's column) */
        int seen = 0, inside = 0;
        for (int a = 0; a < f[i].arms; a++) {
            int ax = f[i].x + flora_cardinal[f[i].arm_dir[a]][0], az = f[i].z + flora_cardinal[f[i].arm_dir[a]][1];
            inside += ax >= 0 && az >= 0 && ax < w->sx && az < w->sz;
        }
        for (int d = 0; d < 4; d++) {
            bool arm = false;
            for (int k = 1; k < f[i].height; k++)
                arm |= world_get(w, f[i].x + flora_cardinal[d][0], f[i].y + k, f[i].z + flora_cardinal[d][1]) == MAT_CACTUS;
            seen += arm;
        }
        assert_int_equal(seen, inside);
    }
    assert_true(kinds[FLORA_PILLAR] > 0 && kinds[FLORA_BARREL] > 0 && kinds[FLORA_SAGUARO] > 0);
    free_plan("desert", plan);
    world_destroy(w);
}

static void test_desert_cacti_are_clumped(void **state)
{
    (void)state;
    /* clumped: most cacti have another cactus within 12 voxels, far more than a uniform scatter would */
    void *plan;
    world *w = make_world("desert", 8, 4, 8, 99, NULL, &plan);
    int count;
    const flora *f = biome_plan_flora(plan, &count);
    assert_true(count > 20);
    int near = 0;
    for (int i = 0; i < count; i++)
        for (int j = 0; j < count; j++)
            if (i != j && abs(f[i].x - f[j].x) <= 12 && abs(f[i].z - f[j].z) <= 12) {
                near++;
                break;
            }
    assert_true(near * 10 >= count * 8);
    free_plan("desert", plan);
    world_destroy(w);
}

static void test_taiga_invariants(void **state)
{
    (void)state;
    void *plan;
    world *w = make_world("taiga", 16, 4, 16, 1234, g_pool2, &plan);
    const biome_levels *lv = biome_plan_levels(plan);
    assert_bedrock_floor(w);
    uint64_t n_muskeg = 0, n_cracked = 0, n_fir = 0;
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++)
            for (int y = 1; y < w->sy; y++) {
                uint8_t m = world_get(w, x, y, z);
                if (m == MAT_PLACEHOLDER) fail_msg("structure placeholder left at (%d, %d, %d)", x, y, z);
                if (m == MAT_MUSKEG) {
                    n_muskeg++;
                    if (y < lv->muskeg_lo || y > lv->muskeg_hi)
                        fail_msg("muskeg at y=%d outside its bounds [%d, %d]", y, lv->muskeg_lo, lv->muskeg_hi);
                    if (solid_at(w, x, y + 2, z)) fail_msg("muskeg at (%d, %d, %d) under a solid voxel two above", x, y, z);
                } else if (m == MAT_CRACKED_STONE) {
                    n_cracked++;
                    if (y < lv->tree_line) fail_msg("cracked stone at y=%d below the tree line %d", y, lv->tree_line);
                } else if (m == MAT_FIR_LOG && world_get(w, x, y - 1, z) != MAT_FIR_LOG) {
                    /* a trunk's base: rooted in taiga grass below the tree line */
                    n_fir++;
                    assert_int_equal(world_get(w, x, y - 1, z), MAT_TAIGA_GRASS);
                    if (y - 1 >= lv->tree_line) fail_msg("fir at (%d, %d, %d) above the tree line %d", x, y, z, lv->tree_line);
                }
            }
    assert_true(n_muskeg > 0);
    assert_true(n_cracked > 0);
    assert_true(n_fir > 100);
    free_plan("taiga", plan);
    world_destroy(w);
}

/* The placeholders are the first pass; only finish turns them into muskeg. */
static void test_taiga_placeholder_before_finish(void **state)
{
    (void)state;
    const worldgen_kind *k = worldgen_find("taiga");
    world *w = world_create(8, 4, 8);
    char err[256] = "";
    void *plan = k->plan(w, 7, err, sizeof err);
    assert_non_null(plan);
    for (int c = 0; c < w->cx * w->cz; c++) k->fill_column(plan, w, c % w->cx, c / w->cx);
    uint64_t counts[MAT_COUNT];
    world_count_materials(w, counts);
    assert_true(counts[MAT_PLACEHOLDER] > 0);
    assert_int_equal(counts[MAT_MUSKEG], 0);
    uint64_t placeholders = counts[MAT_PLACEHOLDER];
    for (int c = 0; c < w->cx * w->cz; c++) k->finish_column(plan, w, c % w->cx, c / w->cx);
    world_count_materials(w, counts);
    assert_int_equal(counts[MAT_PLACEHOLDER], 0);
    assert_int_equal(counts[MAT_MUSKEG], placeholders);
    k->free_plan(plan);
    world_destroy(w);
}

static void test_deciduous_invariants(void **state)
{
    (void)state;
    void *plan;
    world *w = make_world("deciduous", 16, 4, 16, 1234, g_pool2, &plan);
    assert_bedrock_floor(w);
    int trunks = 0;
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            bool top_seen = false;
            for (int y = w->sy - 1; y >= 1; y--) {
                uint8_t m = world_get(w, x, y, z);
                if (m == MAT_GRASS) {
                    uint8_t below = world_get(w, x, y - 1, z);
                    if (below != MAT_DIRT && below != MAT_BEDROCK)
                        fail_msg("grass at (%d, %d, %d) over %s, not dirt", x, y, z, material_get(below)->name);
                }
                /* the highest ground voxel of every column is grass */
                if (!top_seen && m != MAT_AIR && m != MAT_OAK_LOG && m != MAT_OAK_LEAVES) {
                    top_seen = true;
                    assert_int_equal(m, MAT_GRASS);
                }
                if (m == MAT_OAK_LOG && world_get(w, x, y - 1, z) != MAT_OAK_LOG) {
                    trunks++;
                    if (biome_plan_biomass(plan, x, z) != -1.f)
                        fail_msg("oak trunk at (%d, %d) on biomass %g, not -1", x, z, (double)biome_plan_biomass(plan, x, z));
                }
            }
        }
    int count;
    biome_plan_flora(plan, &count);
    assert_int_equal(trunks, count);
    assert_true(count > 1000); /* dense */
    /* the biomass map marks exactly the planted trunks */
    int marked = 0;
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) marked += biome_plan_biomass(plan, x, z) == -1.f;
    assert_int_equal(marked, count);
    free_plan("deciduous", plan);
    world_destroy(w);
}

/* Trees discourage but do not forbid neighbours: some trunks are closer than
 * the neighbour radius, most are not. */
static void test_deciduous_clumping_discouraged(void **state)
{
    (void)state;
    void *plan;
    world *w = make_world("deciduous", 8, 4, 8, 5, g_pool2, &plan);
    int count, close = 0;
    const flora *f = biome_plan_flora(plan, &count);
    for (int i = 0; i < count; i++) {
        bool has_close = false;
        for (int j = 0; j < count && !has_close; j++)
            has_close = j != i && (f[i].x - f[j].x) * (f[i].x - f[j].x) + (f[i].z - f[j].z) * (f[i].z - f[j].z) <= 2;
        close += has_close;
    }
    assert_true(close > 0);
    assert_true(close * 4 < count);
    free_plan("deciduous", plan);
    world_destroy(w);
}

static const char *const g_biomes[] = { "desert", "taiga", "deciduous" };

static void test_determinism(void **state)
{
    (void)state;
    for (int b = 0; b < 3; b++) {
        world *a = make_world(g_biomes[b], 8, 4, 8, 77, g_pool1, NULL);
        world *c = make_world(g_biomes[b], 8, 4, 8, 77, g_pool2, NULL);
        world *d = make_world(g_biomes[b], 8, 4, 8, 78, g_pool2, NULL);
        if (world_hash(a) != world_hash(c)) fail_msg("%s: 1 and 2 workers differ", g_biomes[b]);
        if (world_hash(a) == world_hash(d)) fail_msg("%s: seeds 77 and 78 give the same world", g_biomes[b]);
        /* Columns filled in reverse order give the same bits: no column reads or writes another's voxels. */
        const worldgen_kind *k = worldgen_find(g_biomes[b]);
        world *r = world_create(8, 4, 8);
        char err[256] = "";
        void *plan = k->plan(r, 77, err, sizeof err);
        assert_non_null(plan);
        for (int i = r->cx * r->cz - 1; i >= 0; i--) worldgen_fill_base(k, plan, r, i % r->cx, i / r->cx);
        k->free_plan(plan);
        if (world_hash(a) != world_hash(r)) fail_msg("%s: column order changes the world", g_biomes[b]);
        world_destroy(a);
        world_destroy(c);
        world_destroy(d);
        world_destroy(r);
    }
}

static uint64_t hash_of(const char *kind)
{
    world *w = make_world(kind, 6, 4, 6, 11, g_pool2, NULL);
    uint64_t h = world_hash(w);
    world_destroy(w);
    return h;
}

static void test_parameter_changes_world(void **state)
{
    (void)state;
    static const struct { const char *kind, *cvar, *value; } cases[] = {
        { "desert", "desert.mesa_height_offset", "30" },
        { "desert", "desert.saguaro_chance", "0.1" },
        { "desert", "desert.playa_chance", "0.4" },
        { "taiga", "taiga.tree_line", "0.35" },
        { "taiga", "taiga.fir_growth", "0.8" },
        { "taiga", "taiga.muskeg_chance", "0.8" },
        { "deciduous", "deciduous.initial_trees", "40" },
        { "deciduous", "deciduous.leaf_radius", "1" },
        { "deciduous", "deciduous.terrain_weight", "50" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t before = hash_of(cases[i].kind);
        set_cvar(cases[i].cvar, cases[i].value);
        uint64_t after = hash_of(cases[i].kind);
        reset_cvar(cases[i].cvar);
        if (before == after) fail_msg("%s = %s did not change the %s world", cases[i].cvar, cases[i].value, cases[i].kind);
        assert_int_equal(hash_of(cases[i].kind), before);
    }
}

static void test_out_of_range_refused(void **state)
{
    (void)state;
    char err[256] = "";
    cvar *c = cvar_find("desert.mesa_chance");
    assert_non_null(c);
    assert_false(cvar_set(c, "1.5", err, sizeof err));
    assert_non_null(strstr(err, "[0, 1]"));
    assert_float_equal(c->f, 0.22f, 1e-6); /* the default, unchanged */
    c = cvar_find("taiga.min_tree_height");
    assert_false(cvar_set(c, "0", err, sizeof err));
    assert_non_null(strstr(err, "[2, 48]"));
    c = cvar_find("desert.saguaro_max_arms");
    assert_false(cvar_set(c, "5", err, sizeof err));
    assert_non_null(strstr(err, "[1, 4]"));
}

/* Sets a combination, expects the kind's plan to refuse it naming `needle`. */
static void expect_refused(const char *kind, const char *const *sets, const char *needle)
{
    for (int i = 0; sets[i]; i += 2) set_cvar(sets[i], sets[i + 1]);
    world *w = world_create(4, 4, 4);
    char err[256] = "";
    const worldgen_kind *k = worldgen_find(kind);
    void *plan = k->plan(w, 1, err, sizeof err);
    if (plan) {
        k->free_plan(plan);
        fail_msg("%s accepted a bad combination (expected an error about %s)", kind, needle);
    }
    if (!strstr(err, needle)) fail_msg("%s: error '%s' does not mention %s", kind, err, needle);
    assert_false(worldgen_generate(w, k, 1, g_pool2));
    for (int i = 0; sets[i]; i += 2) reset_cvar(sets[i]);
    world_destroy(w);
}

static void test_bad_combinations_refused(void **state)
{
    (void)state;
    expect_refused("desert", (const char *[]){ "desert.min_cactus_height", "9", "desert.max_cactus_height", "5", NULL },
                   "desert.min_cactus_height");
    expect_refused("desert", (const char *[]){ "desert.pillar_chance", "0.6", "desert.barrel_chance", "0.5", NULL },
                   "must not exceed 1");
    expect_refused("desert", (const char *[]){ "desert.saguaro_min_arms", "3", "desert.saguaro_max_arms", "2", NULL },
                   "desert.saguaro_min_arms");
    expect_refused("desert", (const char *[]){ "desert.upper_soil_depth", "20", "desert.middle_soil_depth", "10", NULL },
                   "desert.upper_soil_depth");
    expect_refused("desert", (const char *[]){ "desert.mesa_bleed_off", "100", NULL }, "desert.mesa_bleed_off");
    expect_refused("desert", (const char *[]){ "desert.ground_height", "500", NULL }, "top of the world");
    expect_refused("taiga", (const char *[]){ "taiga.min_tree_height", "20", "taiga.max_tree_height", "10", NULL },
                   "taiga.min_tree_height");
    expect_refused("taiga", (const char *[]){ "taiga.upper_soil_depth", "9", "taiga.middle_soil_depth", "4", NULL },
                   "taiga.upper_soil_depth");
    expect_refused("taiga", (const char *[]){ "taiga.fir_bare_trunk", "12", NULL }, "taiga.fir_bare_trunk");
    expect_refused("deciduous", (const char *[]){ "deciduous.canopy_radius", "1", NULL }, "radii must nest");
    expect_refused("deciduous", (const char *[]){ "deciduous.leaf_radius", "4", NULL }, "deciduous.leaf_radius");
    /* after the refusals the defaults generate again */
    for (int b = 0; b < 3; b++) {
        world *w = world_create(2, 4, 2);
        assert_true(worldgen_generate(w, worldgen_find(g_biomes[b]), 1, g_pool2));
        world_destroy(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_desert_invariants),
        cmocka_unit_test(test_desert_cacti_are_clumped),
        cmocka_unit_test(test_taiga_invariants),
        cmocka_unit_test(test_taiga_placeholder_before_finish),
        cmocka_unit_test(test_deciduous_invariants),
        cmocka_unit_test(test_deciduous_clumping_discouraged),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_parameter_changes_world),
        cmocka_unit_test(test_out_of_range_refused),
        cmocka_unit_test(test_bad_combinations_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
