/* World generation is a pure function of (kind, seed, cvars): the same
 * inputs give the same bits on any number of workers. */
#include "test_support.h"

#include <stdio.h>

#include "core/jobs.h"
#include "worldgen/biome_common.h"
#include "worldgen/biomes.h"
#include "worldgen/caves.h"
#include "worldgen/formula_world.h"
#include "worldgen/terrain.h"
#include "ui/cvar.h"
#include "worldgen/worldgen.h"

static uint64_t generate(int seed, int workers)
{
    job_pool *jobs = job_pool_create(workers);
    world *w = world_create(8, 4, 8);
    assert_true(worldgen_generate(w, &terrain_hills, seed, jobs));
    uint64_t h = world_hash(w);
    /* sanity: bedrock floor, grass on top, air in the sky */
    assert_int_equal(world_get(w, 5, 0, 7), MAT_BEDROCK);
    int top = world_surface_y(w, 100, 100);
    assert_true(top > 0 && top < w->sy - 1);
    assert_int_equal(world_get(w, 100, top, 100), MAT_GRASS);
    assert_int_equal(world_get(w, 100, top + 1, 100), MAT_AIR);
    world_destroy(w);
    job_pool_destroy(jobs);
    return h;
}

static void test_determinism(void **state)
{
    (void)state;
    terrain_register();
    uint64_t a1 = generate(1, 1), a2 = generate(1, 2), a3 = generate(1, 2);
    assert_true(a1 == a2 && a2 == a3);
    assert_true(generate(2, 2) != a1);
    /* a parameter changes the world */
    assert_true(cvar_set_by_name("world.terrain_weight", "20"));
    assert_true(generate(1, 2) != a1);
    cvar_shutdown();
}

static void test_kind_registry(void **state)
{
    (void)state;
    terrain_register();
    assert_ptr_equal(worldgen_find("hills"), &terrain_hills);
    assert_null(worldgen_find("nope"));
    cvar_shutdown();
}

/* Which cvar changes regenerate which kind: a kind's own parameters only
 * that kind, shared ones every kind. Regenerating for another kind's
 * parameter would wipe the player's cuts for nothing. */
static void test_cvar_ownership(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    formula_world_register();
    const worldgen_kind *hills = worldgen_find("hills"), *taiga = worldgen_find("taiga");
    const worldgen_kind *formula = worldgen_find("formula"), *desert = worldgen_find("desert");
    assert_non_null(taiga);
    assert_non_null(formula);
    assert_non_null(desert);
    assert_false(worldgen_cvar_affects(hills, "taiga.tree_line"));
    assert_true(worldgen_cvar_affects(taiga, "taiga.tree_line"));
    assert_false(worldgen_cvar_affects(desert, "taiga.tree_line"));
    assert_false(worldgen_cvar_affects(hills, "world.formula"));
    assert_false(worldgen_cvar_affects(hills, "world.formula_size"));
    assert_true(worldgen_cvar_affects(formula, "world.formula_size"));
    assert_true(worldgen_cvar_affects(hills, "world.terrain_weight"));
    assert_false(worldgen_cvar_affects(taiga, "world.terrain_weight"));
    assert_false(worldgen_cvar_affects(formula, "world.soil_depth"));
    assert_false(worldgen_cvar_affects(formula, "world.seed")); /* seedless: a new seed keeps its edits */
    /* the caves pass owns caves.*: its parameters alter only the kinds it
     * carves; the list and the switch always may */
    caves_register();
    assert_false(worldgen_cvar_affects(hills, "caves.iterations"));
    assert_true(worldgen_cvar_affects(desert, "caves.iterations"));
    assert_true(worldgen_cvar_affects(taiga, "caves.stride"));
    assert_true(worldgen_cvar_affects(hills, "caves.biomes"));
    assert_true(worldgen_cvar_affects(hills, "caves.enable"));
    assert_true(cvar_set_by_name("caves.enable", "0"));
    assert_false(worldgen_cvar_affects(desert, "caves.iterations"));
    assert_true(cvar_set_by_name("caves.biomes", "hills"));
    assert_true(cvar_set_by_name("caves.enable", "1"));
    assert_true(worldgen_cvar_affects(hills, "caves.iterations"));
    assert_false(worldgen_cvar_affects(desert, "caves.iterations"));
    worldgen_set_pass(NULL);
    for (int i = 0; i < worldgen_kind_count(); i++) { /* shared by all */
        if (worldgen_kind_at(i) != formula) assert_true(worldgen_cvar_affects(worldgen_kind_at(i), "world.seed"));
        assert_true(worldgen_cvar_affects(worldgen_kind_at(i), "world.size_x"));
        assert_true(worldgen_cvar_affects(worldgen_kind_at(i), "world.octaves"));
    }
    cvar_shutdown();
}

static void test_background_generation(void **state)
{
    (void)state;
    terrain_register();
    job_pool *jobs = job_pool_create(2);
    char err[256];
    worldgen_task *t = worldgen_start(4, 2, 4, &terrain_hills, 9, jobs, err, sizeof err);
    assert_non_null(t);
    world *w = worldgen_finish(t);
    world *ref = world_create(4, 2, 4);
    worldgen_generate(ref, &terrain_hills, 9, jobs);
    assert_int_equal(world_hash(w), world_hash(ref));
    world_destroy(w);
    world_destroy(ref);
    job_pool_destroy(jobs);
    cvar_shutdown();
}

/* Far out the field is as smooth as at the origin. At 10^7 a float holds
 * x * (1 / 100) to 1/128 of a cell (0.78 voxels), and at 2^23 and beyond
 * x + 0.5 is x or x + 1: neighbouring columns would share a sample, the
 * hills would be stairs and plant sites would sit on column edges, two
 * columns to a value. Counted: neighbours along x whose unrounded height
 * (scale 100, not a power of two) or site noise is exactly the same. */
static int equal_neighbours(long x0)
{
    terrain_heightmap_params p = { .weight = 48.f, .scale = 100.f, .ground = 40.f, .octaves = 3 };
    noise n;
    noise_init(&n, 11);
    int same = 0;
    float h = terrain_value_at(&p, &n, (int)x0, 77), s = biome_site_noise(&n, 12.f, (int)x0, 77);
    for (long x = x0 + 1; x < x0 + 1000; x++) {
        float h2 = terrain_value_at(&p, &n, (int)x, 77), s2 = biome_site_noise(&n, 12.f, (int)x, 77);
        same += (h2 == h) + (s2 == s);
        h = h2, s = s2;
    }
    return same;
}

static void test_noise_exact_far_out(void **state)
{
    (void)state;
    int origin = equal_neighbours(0), far = equal_neighbours(10000000), farther = equal_neighbours(-2000000000);
    printf("equal neighbours of 999: %d at the origin, %d at 10^7, %d at -2 * 10^9\n", origin, far, farther);
    assert_true(origin <= 2);
    assert_true(far <= 2);
    assert_true(farther <= 2);
}

/* The terrain does not come round again: the noise's permutation repeats
 * every 256 cells of its first octave (32,768 voxels at a scale of 128),
 * and every height there was the origin's until the plane's lattice was
 * hashed beyond its first square (test_noise). */
static void test_terrain_does_not_repeat(void **state)
{
    (void)state;
    terrain_heightmap_params p = { .weight = 48.f, .scale = 128.f, .ground = 40.f, .octaves = 3 };
    noise n;
    noise_init(&n, 11);
    const int shifts[] = { 32768, 65536, 32768 * 300 };
    for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; k++) {
        int same = 0;
        for (int z = 0; z < 512; z += 16)
            for (int x = 0; x < 512; x += 2)
                same += terrain_value_at(&p, &n, x, z) == terrain_value_at(&p, &n, x + shifts[k], z);
        printf("%d voxels east: %d of 8192 heights the same\n", shifts[k], same);
        assert_true(same < 82);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_kind_registry),
        cmocka_unit_test(test_cvar_ownership),
        cmocka_unit_test(test_background_generation),
        cmocka_unit_test(test_noise_exact_far_out),
        cmocka_unit_test(test_terrain_does_not_repeat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
