/* The biome rules hold on the streamed world ("the existing
 * tests of every biome rule keep passing against the streamed
 * generation"). test_biome_rules and test_biomes check each rule on
 * finite worlds made by worldgen_generate; here, for every biome kind and
 * a few seeds, the streamed window (voxel/stream.h on two workers, columns
 * arriving nearest first into private one-column windows, as the game
 * streams them) covering the same 8x8 columns holds the same voxels and
 * tints byte for byte, so every one of those rule checks applies to it.
 * Once as the rule tests register the kinds (no caves), once with the
 * caves pass the game adds. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "ui/cvar.h"
#include "voxel/stream.h"
#include "worldgen/biomes.h"
#include "worldgen/caves.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

#define COLS 8 /* the rule tests' worlds: 8 x 4 x 8 chunks */
#define CY 4

static job_pool *g_pool;

static int setup_rules(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    g_pool = job_pool_create(2);
    return 0;
}

static int setup_caves(void **state)
{
    setup_rules(state);
    caves_register();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    job_pool_destroy(g_pool);
    worldgen_set_pass(NULL);
    cvar_shutdown();
    return 0;
}

static bool gen_column(void *ctx, world *w, int cx, int cz)
{
    worldgen_stream_column(ctx, w, cx, cz);
    return true;
}

/* Chunks of the finite world whose voxels or tints differ from the
 * streamed window's at the same global coordinates. */
static int differing_chunks(const world *finite, const world *win)
{
    static const uint8_t no_tint[CHUNK_VOLUME];
    int n = 0;
    for (int cy = 0; cy < CY; cy++)
        for (int cz = 0; cz < COLS; cz++)
            for (int cx = 0; cx < COLS; cx++) {
                assert_int_equal(world_column_state(win, cx, cz), WORLD_COL_READY);
                const chunk *a = world_chunk(finite, cx, cy, cz), *b = world_chunk(win, cx, cy, cz);
                const uint8_t *ta = a->tint ? a->tint : no_tint, *tb = b->tint ? b->tint : no_tint;
                n += memcmp(a->vox, b->vox, CHUNK_VOLUME) != 0 || memcmp(ta, tb, CHUNK_VOLUME) != 0;
            }
    return n;
}

static void compare_kinds(void)
{
    static const char *const kinds[] = { "hills", "desert", "taiga", "deciduous" };
    static const int64_t seeds[] = { 1234, 2 };
    for (int k = 0; k < 4; k++)
        for (int s = 0; s < 2; s++) {
            const worldgen_kind *kind = worldgen_find(kinds[k]);
            assert_non_null(kind);
            world *finite = world_create(COLS, CY, COLS);
            assert_true(worldgen_generate(finite, kind, seeds[s], g_pool));
            /* a window of 15 columns around the middle of the same area:
             * stream_wait reaches 192 voxels, past its corners (181) */
            world *win = world_create_window(0, 0, 15, CY, 15);
            char err[256] = "";
            worldgen_stream *gen = worldgen_stream_create(kind, seeds[s], win, err, sizeof err);
            if (!gen) fail_msg("%s: %s", kinds[k], err);
            stream *st = stream_create(win, g_pool, gen_column, gen, 0, 0);
            assert_non_null(st);
            stream_wait(st, COLS * CHUNK_SIZE / 2.0, COLS * CHUNK_SIZE / 2.0, 192);
            int differ = differing_chunks(finite, win);
            print_message("%s seed %lld: %d of %d chunks differ (streamed window at %d,%d, %lld columns)\n",
                          kinds[k], (long long)seeds[s], differ, COLS * COLS * CY, win->ocx, win->ocz,
                          stream_get_stats(st).generated);
            assert_int_equal(differ, 0);
            stream_destroy(st);
            worldgen_stream_destroy(gen);
            world_destroy(win);
            world_destroy(finite);
        }
}

static void test_streamed_as_the_rule_tests_generate(void **state)
{
    (void)state;
    compare_kinds();
}

static void test_streamed_with_caves(void **state)
{
    (void)state;
    compare_kinds();
}

int main(void)
{
    const struct CMUnitTest rules[] = { cmocka_unit_test(test_streamed_as_the_rule_tests_generate) };
    const struct CMUnitTest caves[] = { cmocka_unit_test(test_streamed_with_caves) };
    int failed = cmocka_run_group_tests(rules, setup_rules, teardown);
    return failed + cmocka_run_group_tests(caves, setup_caves, teardown);
}
