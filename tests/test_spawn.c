/* Where a new world puts the player: on the ground in every kind of world,
 * never on the deciduous forest's leaf roof, in a clearing when there is
 * one; and the player stays there (resting, not falling). */
#include "test_support.h"

#include <math.h>
#include <string.h>

#include "biomes.h"
#include "core/jobs.h"
#include "physics/collide.h"
#include "player.h"
#include "terrain.h"
#include "ui/cvar.h"

static job_pool *g_pool;

static int setup(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    g_pool = job_pool_create(2);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    job_pool_destroy(g_pool);
    cvar_shutdown();
    return 0;
}

/* The voxel the feet rest on, for every column under the box: the highest
 * one that supports it must be ground, and none may be a plant. */
static void assert_on_ground(const world *w, const player *p, const char *kind)
{
    float lo[3], hi[3];
    player_bounds(p, lo, hi);
    assert_false(collide_box_hits(w, lo, hi));
    int below = (int)floorf(p->pos[1] - 0.5f);
    bool supported = false;
    for (int z = (int)floorf(lo[2]); z < (int)ceilf(hi[2]); z++)
        for (int x = (int)floorf(lo[0]); x < (int)ceilf(hi[0]); x++) {
            uint8_t m = world_get(w, x, below, z);
            if (!material_get(m)->solid) continue;
            if (!player_is_ground(m))
                fail_msg("%s: the player stands on %s at (%d, %d, %d)", kind, material_get(m)->name, x, below, z);
            supported = true;
        }
    if (!supported) fail_msg("%s: nothing under the player's feet at y=%d", kind, below);
    assert_true(p->pos[1] - (float)(below + 1) < 0.05f);
}

static void test_spawn_on_ground_in_every_biome(void **state)
{
    (void)state;
    const char *kinds[] = { "hills", "desert", "taiga", "deciduous" };
    for (int k = 0; k < 4; k++) {
        for (int64_t seed = 1; seed <= 3; seed++) {
            world *w = world_create(16, 4, 16);
            assert_true(worldgen_generate(w, worldgen_find(kinds[k]), seed, g_pool));
            player p;
            memset(&p, 0, sizeof p);
            assert_true(player_spawn_ground(&p, w, w->sx * 0.5f, w->sz * 0.5f));
            assert_on_ground(w, &p, kinds[k]);
            /* a clearing: open sky over the spawn and its eight neighbours
             * (every default world has one within reach) */
            int x = (int)floorf(p.pos[0]), z = (int)floorf(p.pos[2]);
            for (int dz = -1; dz <= 1; dz++)
                for (int dx = -1; dx <= 1; dx++) {
                    int s = world_surface_y(w, x + dx, z + dz);
                    if (!player_is_ground(world_get(w, x + dx, s, z + dz)))
                        fail_msg("%s seed %d: column (%d, %d) beside the spawn is under %s", kinds[k], (int)seed, x + dx,
                                 z + dz, material_get(world_get(w, x + dx, s, z + dz))->name);
                }
            /* near the centre the player asked for */
            assert_true(fabsf(p.pos[0] - w->sx * 0.5f) < PLAYER_CLEARING_SEARCH + 1);
            /* and it rests there: a second of standing still moves nothing */
            float y0 = p.pos[1];
            player_input none = { 0 };
            player_update(&p, w, &none, 0.25f);
            player_update(&p, w, &none, 0.25f);
            assert_true(p.on_ground);
            assert_true(fabsf(p.pos[1] - y0) < 0.05f);
            world_destroy(w);
        }
    }
}

/* A forest with no clearing at all: the player goes under the canopy, onto
 * the ground, not onto the roof. */
static void test_spawn_under_a_closed_canopy(void **state)
{
    (void)state;
    world *w = world_create(2, 1, 2);
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            for (int y = 0; y <= 5; y++) world_set(w, x, y, z, y == 0 ? MAT_BEDROCK : y == 5 ? MAT_GRASS : MAT_DIRT);
            for (int y = 12; y <= 14; y++) world_set(w, x, y, z, MAT_OAK_LEAVES);
        }
    player p;
    memset(&p, 0, sizeof p);
    assert_true(player_spawn_ground(&p, w, 32, 32));
    assert_on_ground(w, &p, "closed canopy");
    assert_true(p.pos[1] < 7);
    /* no ground at all: refused, the player stays */
    world *empty = world_create(1, 1, 1);
    p.pos[1] = 50;
    assert_false(player_spawn_ground(&p, empty, 16, 16));
    assert_true(p.pos[1] == 50);
    world_destroy(empty);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spawn_on_ground_in_every_biome),
        cmocka_unit_test(test_spawn_under_a_closed_canopy),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
