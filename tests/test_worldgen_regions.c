/* Generation as a pure function of global coordinates (docs/streaming.md):
 * for every kind with caves on, windows anywhere (the origin, a shifted
 * one, one 10^7 voxels away) agree byte for byte where they overlap;
 * 1 and 2 workers, columns in two orders, with and without the window's
 * prepare give the same world; and an oak and a cave tunnel that straddle
 * a region border are whole when the window is generated in two halves,
 * each with plans of its own. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "ui/cvar.h"
#include "worldgen/biome_common.h"
#include "worldgen/biomes.h"
#include "worldgen/caves.h"
#include "worldgen/formula_world.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

static job_pool *g_pool1, *g_pool2;
static const char *const g_kinds[] = { "hills", "desert", "taiga", "deciduous", "formula" };
#define NKINDS (int)(sizeof g_kinds / sizeof g_kinds[0])
#define CY 4

static int setup(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    formula_world_register();
    caves_register();
    /* caves in every kind, not only the three biomes of the default */
    assert_true(cvar_set_by_name("caves.biomes", "hills desert taiga deciduous formula"));
    g_pool1 = job_pool_create(1);
    g_pool2 = job_pool_create(2);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    job_pool_destroy(g_pool1);
    job_pool_destroy(g_pool2);
    worldgen_set_pass(NULL);
    cvar_shutdown();
    return 0;
}

static worldgen_stream *stream(const char *kind, int64_t seed, const world *shape)
{
    char err[256] = "";
    worldgen_stream *ws = worldgen_stream_create(worldgen_find(kind), seed, shape, err, sizeof err);
    if (!ws) fail_msg("%s: %s", kind, err);
    return ws;
}

/* A window at chunk column (ocx, ocz), its columns from `ws` in scan order. */
static world *window(worldgen_stream *ws, int ocx, int ocz, int n)
{
    world *w = world_create_at(ocx, ocz, n, CY, n);
    assert_non_null(w);
    for (int cz = ocz; cz < ocz + n; cz++)
        for (int cx = ocx; cx < ocx + n; cx++) worldgen_stream_column(ws, w, cx, cz);
    return w;
}

/* Every chunk the two windows share holds the same bytes; returns how many. */
static int same_overlap(const world *a, const world *b, const char *what)
{
    int shared = 0;
    for (int cz = a->ocz; cz < a->ocz + a->cz; cz++)
        for (int cx = a->ocx; cx < a->ocx + a->cx; cx++)
            for (int cy = 0; cy < CY; cy++) {
                const chunk *p = world_chunk(a, cx, cy, cz), *q = world_chunk(b, cx, cy, cz);
                if (!q) continue;
                shared++;
                if (memcmp(p->vox, q->vox, CHUNK_VOLUME) != 0)
                    fail_msg("%s: chunk (%d, %d, %d) differs between the windows", what, cx, cy, cz);
            }
    return shared;
}

/* Windows at the origin and shifted by (3, -2) chunks agree where they
 * overlap, and so do two windows 10^7 voxels out; each from a stream of its
 * own, so no plan is shared between them. */
static void test_windows_agree_where_they_overlap(void **state)
{
    (void)state;
    const int far = 10000000 / CHUNK_SIZE;
    for (int k = 0; k < NKINDS; k++) {
        world *shape = world_create(8, CY, 8); /* the plan's window: places the formula world's object */
        worldgen_stream *s1 = stream(g_kinds[k], 5, shape), *s2 = stream(g_kinds[k], 5, shape);
        world *a = window(s1, 0, 0, 8), *b = window(s2, 3, -2, 8);
        assert_int_equal(same_overlap(a, b, g_kinds[k]), 5 * 6 * CY);
        world_destroy(a);
        world_destroy(b);
        a = window(s1, far, far, 6);
        b = window(s2, far + 3, far - 2, 6);
        assert_int_equal(same_overlap(a, b, g_kinds[k]), 3 * 4 * CY);
        /* and something is there, not an empty plane */
        assert_true(world_surface_y(a, far * CHUNK_SIZE + 100, far * CHUNK_SIZE + 100) >= 0);
        world_destroy(a);
        world_destroy(b);
        worldgen_stream_destroy(s1);
        worldgen_stream_destroy(s2);
        world_destroy(shape);
    }
}

/* worldgen_generate on 1 and 2 workers, columns forward and backward with
 * no prepare, and a prepared window: one world. */
static void test_workers_and_orders(void **state)
{
    (void)state;
    for (int k = 0; k < NKINDS; k++) {
        const worldgen_kind *kind = worldgen_find(g_kinds[k]);
        world *a = world_create(6, CY, 6), *b = world_create(6, CY, 6), *c = world_create(6, CY, 6);
        assert_true(worldgen_generate(a, kind, 9, g_pool1));
        assert_true(worldgen_generate(b, kind, 9, g_pool2));
        if (world_hash(a) != world_hash(b)) fail_msg("%s: 1 and 2 workers differ", g_kinds[k]);
        worldgen_stream *ws = stream(g_kinds[k], 9, c);
        for (int i = c->cx * c->cz - 1; i >= 0; i--) worldgen_stream_column(ws, c, i % c->cx, i / c->cx);
        worldgen_stream_destroy(ws);
        if (world_hash(a) != world_hash(c)) fail_msg("%s: columns in reverse order differ", g_kinds[k]);
        world_clear(c);
        ws = stream(g_kinds[k], 9, c);
        /* a column at a time, the middle ones first, as a player walking out would ask */
        for (int r = 0; r < 3; r++)
            for (int i = 0; i < c->cx * c->cz; i++) {
                int x = i % c->cx, z = i / c->cx, ring = abs(2 * x - 5) > abs(2 * z - 5) ? abs(2 * x - 5) : abs(2 * z - 5);
                if (ring / 2 == r) worldgen_stream_column(ws, c, x, z);
            }
        worldgen_stream_destroy(ws);
        if (world_hash(a) != world_hash(c)) fail_msg("%s: columns from the middle out differ", g_kinds[k]);
        world_destroy(a);
        world_destroy(b);
        world_destroy(c);
    }
}

/* The window [ocx, ocx + 4) x [0, 4) whole, and as two halves split at
 * chunk column ocx + 2, each half from a fresh stream: equal. */
static void assert_halves_equal_whole(const char *kind, int64_t seed, const world *whole)
{
    for (int h = 0; h < 2; h++) {
        world *half = world_create_at(whole->ocx + 2 * h, whole->ocz, 2, CY, whole->cz);
        assert_non_null(half);
        assert_true(worldgen_generate(half, worldgen_find(kind), seed, g_pool2));
        assert_int_equal(same_overlap(half, whole, kind), 2 * whole->cz * CY);
        world_destroy(half);
    }
}

/* An oak whose leaves cross x = 256 (a flora region border and a chunk
 * border): the window split there gives the same oak. */
static void test_oak_across_a_region_border(void **state)
{
    (void)state;
    const int border = BIOME_REGION;
    bool found = false;
    for (int64_t seed = 1; seed <= 5 && !found; seed++) {
        world *w = world_create_at(border / CHUNK_SIZE - 2, 0, 4, CY, 4);
        assert_true(worldgen_generate(w, worldgen_find("deciduous"), seed, g_pool2));
        /* a trunk on one side with leaves on the other at the same height */
        for (int z = 0; z < w->sz && !found; z++)
            for (int y = 1; y < w->sy && !found; y++)
                for (int side = 0; side < 2 && !found; side++) {
                    int x = side ? border : border - 1, other = side ? border - 1 : border;
                    found = world_get(w, x, y, z) == MAT_OAK_LOG && world_get(w, other, y + 2, z) == MAT_OAK_LEAVES &&
                            world_get(w, x, y - 1, z) != MAT_OAK_LOG;
                }
        if (found) assert_halves_equal_whole("deciduous", seed, w);
        world_destroy(w);
    }
    assert_true(found);
}

/* A cave tunnel through x = 256 (a worm region, cave tile and chunk
 * border): air on both sides of it, below the band the overhang and
 * feature rulesets touch, where only worms and the cave grammar carve.
 * The window split there gives the same tunnel. */
static void test_tunnel_across_a_region_border(void **state)
{
    (void)state;
    const int border = 256;
    bool found = false;
    for (int64_t seed = 1; seed <= 20 && !found; seed++) {
        world *w = world_create_at(border / CHUNK_SIZE - 2, 0, 4, CY, 8);
        assert_true(worldgen_generate(w, worldgen_find("taiga"), seed, g_pool2));
        assert_true(cvar_set_by_name("caves.enable", "0"));
        world *bare = world_create_at(w->ocx, 0, 4, CY, 8);
        assert_true(worldgen_generate(bare, worldgen_find("taiga"), seed, g_pool2));
        assert_true(cvar_set_by_name("caves.enable", "1"));
        int lowest = w->sy;
        for (int z = 0; z < w->sz; z++)
            for (int x = world_x0(w); x < world_x0(w) + w->sx; x++) {
                int s = world_surface_y(bare, x, z);
                lowest = s < lowest ? s : lowest;
            }
        int below = lowest - cvar_find("caves.margin")->v[1] - 1; /* under every tile's band */
        for (int z = 0; z < w->sz && !found; z++)
            for (int y = cvar_find("caves.min_y")->i; y < below && !found; y++)
                found = world_get(bare, border - 1, y, z) != MAT_AIR && world_get(bare, border, y, z) != MAT_AIR &&
                        world_get(w, border - 1, y, z) == MAT_AIR && world_get(w, border, y, z) == MAT_AIR;
        if (found) assert_halves_equal_whole("taiga", seed, w);
        world_destroy(bare);
        world_destroy(w);
    }
    assert_true(found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_windows_agree_where_they_overlap),
        cmocka_unit_test(test_workers_and_orders),
        cmocka_unit_test(test_oak_across_a_region_border),
        cmocka_unit_test(test_tunnel_across_a_region_border),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
