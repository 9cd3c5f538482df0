/* Walking on enhanced fragments (seed 000 sections 4.3 and 6):
 * a staircase of one-voxel sand steps, enhanced 4x with the material rules
 * (sand slumps into a 45-degree ramp of one-fragment stairs), is a slope
 * the player walks up and down without jumping, its feet within one
 * fragment of the fragments under it at every frame. On the voxels the
 * first step stops it. Pure CPU: the fragments come from gen/enhance as
 * the enhanced mode makes them. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>

#include "gen/enhance.h"
#include "physics/collide.h"
#include "play/player.h"
#include "voxel/world.h"

enum { CHUNKS_X = 2 };

typedef struct fragments {
    const world *w;
    enhance_ctx *e;
    enhance_input in[CHUNKS_X];
    enhance_chunk c[CHUNKS_X];
    int f;
    int ox; /* the window's first voxel x (its z is 0) */
} fragments;

/* A cell of the grid: fragments from the window's first voxel (collide_grid). */
static bool frag_solid(void *user, int fx, int fy, int fz)
{
    const fragments *g = user;
    int m = CHUNK_SIZE * g->f, ci = fx / m;
    if (ci >= CHUNKS_X || fy >= m || fz >= m) return false;
    return material_get(enhance_chunk_fragment_material(&g->c[ci], &g->in[ci], fx - ci * m, fy, fz))->solid;
}

/* The world's chunks enhanced 2^levels times with the material rules, as
 * the mode does. */
static fragments *enhance_world_levels(const world *w, int levels)
{
    enhance_params p = enhance_params_default();
    p.levels = levels;
    p.materials = true;
    char err[256];
    fragments *g = calloc(1, sizeof *g);
    assert_non_null(g);
    g->e = enhance_create(&p, err, sizeof err);
    assert_non_null(g->e);
    g->w = w;
    g->f = enhance_factor(&p);
    g->ox = world_x0(w);
    for (int i = 0; i < CHUNKS_X; i++) {
        enhance_gather(w, w->ocx + i, 0, 0, &g->in[i]);
        enhance_chunk_build(g->e, &g->in[i], true, &g->c[i]);
    }
    return g;
}

/* 4x, as the mode's default. */
static fragments *enhance_world(const world *w) { return enhance_world_levels(w, 2); }

static void free_fragments(fragments *g)
{
    for (int i = 0; i < CHUNKS_X; i++) enhance_chunk_free(&g->c[i]);
    enhance_destroy(g->e);
    free(g);
}

/* Sand 8 high for x < 16, one voxel higher per column up to 18 at x = 25. */
static int step_top(int x) { return x < 16 ? 8 : x < 26 ? 8 + (x - 15) : 18; }

/* The top of the highest solid fragment under the box's footprint that is
 * no higher than a stair above the feet: the ground the feet should be on. */
static float ground_under(const fragments *g, const player *p)
{
    const float hw = 0.5f * PLAYER_WIDTH, f = (float)g->f;
    const float px = (float)(p->pos[0] - g->ox);
    int x0 = (int)floorf((px - hw) * f), x1 = (int)ceilf((px + hw) * f) - 1;
    int z0 = (int)floorf((p->pos[2] - hw) * f), z1 = (int)ceilf((p->pos[2] + hw) * f) - 1;
    int top = (int)floorf((p->pos[1] + PLAYER_STEP_MAX) * f), best = 0;
    for (int z = z0; z <= z1; z++)
        for (int x = x0; x <= x1; x++)
            for (int y = top; y >= 0; y--)
                if (frag_solid((void *)g, x, y, z)) {
                    if (y + 1 > best) best = y + 1;
                    break;
                }
    return (float)best / f;
}

/* Walks along x (dir +1 or -1) for `frames` frames; returns the largest
 * distance of the feet from the ground under them once on the ground. */
static float walk(player *p, const world *w, const fragments *g, float dir, int frames)
{
    const player_input in = { .forward = 1.0f };
    p->yaw = dir > 0 ? 90.0f : 270.0f;
    float worst = 0.0f;
    for (int i = 0; i < frames; i++) {
        player_update(p, w, &in, 1.0f / 60.0f);
        if (g && i > 10) {
            float d = (float)fabs(p->pos[1] - ground_under(g, p));
            if (d > worst) worst = d;
        }
    }
    return worst;
}

static void test_walks_up_and_down_a_fragment_ramp(void **state)
{
    world *w = world_create(CHUNKS_X, 1, 1);
    assert_non_null(w);
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int x = 0; x < CHUNK_SIZE * CHUNKS_X; x++)
            for (int y = 0; y <= step_top(x); y++) world_set(w, x, y, z, MAT_SAND);
    fragments *g = enhance_world(w);
    const collide_grid grid = { .scale = g->f, .solid = frag_solid, .user = g };
    const float tolerance = 1.0f / (float)g->f; /* one fragment */

    /* on the voxels: the first one-voxel step stops the walker */
    player blocks = { 0 };
    player_spawn(&blocks, w, 10.5f, 16.5f);
    walk(&blocks, w, NULL, 1.0f, 240);
    assert_true(blocks.pos[0] < 16.0f);
    assert_true(blocks.pos[1] < 9.5f);

    /* on the fragments: up the ramp to the top, then back down */
    player pl = { 0 };
    player_spawn(&pl, w, 10.5f, 16.5f);
    pl.ground = &grid;
    walk(&pl, w, g, 1.0f, 1); /* onto the fragments: sand grows above its voxels */
    const double y0 = pl.pos[1];
    float up = walk(&pl, w, g, 1.0f, 300);
    print_message("ramp up: feet at x %.2f y %.3f, worst %.3f voxels from the fragments\n", (double)pl.pos[0],
                  (double)pl.pos[1], (double)up);
    assert_true(pl.pos[0] > 28.0f);
    assert_true(fabs(pl.pos[1] - y0 - 10.0) < tolerance); /* the ten steps, climbed */
    assert_true(up <= tolerance);
    float down = walk(&pl, w, g, -1.0f, 300);
    print_message("ramp down: feet at x %.2f y %.3f, worst %.3f\n", (double)pl.pos[0], (double)pl.pos[1],
                  (double)down);
    assert_true(pl.pos[0] < 12.0f);
    assert_true(fabs(pl.pos[1] - y0) < tolerance);
    assert_true(down <= tolerance);

    free_fragments(g);
    world_destroy(w);
}

/* The ramp of sand walked at x = 10^7 at 16 fragments a voxel goes as it
 * goes at the origin: the grid's cells count from the window's first
 * voxel (counted from the world's origin, at 1.6 * 10^8 cells the
 * collision would clamp them and the walker would fall through). */
static void test_far_ramp_walks_as_at_the_origin(void **state)
{
    (void)state;
    const int far_cx = 10000000 / CHUNK_SIZE; /* x0 = 10^7 */
    double feet[2][4], spawn_y = 0;
    for (int k = 0; k < 2; k++) {
        world *w = world_create_at(k ? far_cx : 0, 0, CHUNKS_X, 1, 1);
        assert_non_null(w);
        const int x0 = world_x0(w);
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE * CHUNKS_X; x++)
                for (int y = 0; y <= step_top(x); y++) world_set(w, x0 + x, y, z, MAT_SAND);
        fragments *g = enhance_world_levels(w, 4);
        assert_int_equal(g->f, 16);
        const collide_grid grid = { .scale = g->f, .solid = frag_solid, .user = g };
        player pl = { 0 };
        if (k == 0) {
            player_spawn(&pl, w, 10.5f, 16.5f);
            spawn_y = pl.pos[1];
        } else { /* the same place: player_spawn takes floats, whole voxels at 10^7 */
            pl.pos[0] = x0 + 10.5, pl.pos[1] = spawn_y, pl.pos[2] = 16.5;
        }
        pl.ground = &grid;
        walk(&pl, w, g, 1.0f, 1);
        const double y0 = pl.pos[1];
        float up = walk(&pl, w, g, 1.0f, 300);
        feet[k][0] = pl.pos[0] - x0, feet[k][1] = pl.pos[1] - y0;
        float down = walk(&pl, w, g, -1.0f, 300);
        feet[k][2] = pl.pos[0] - x0, feet[k][3] = pl.pos[1] - y0;
        print_message("x0 %d: up to x0 + %.4f, %.4f higher (worst %.3f); down to x0 + %.4f, %.4f (worst %.3f)\n", x0,
                      feet[k][0], feet[k][1], (double)up, feet[k][2], feet[k][3], (double)down);
        assert_true(up <= 1.0f / 16.0f && down <= 1.0f / 16.0f);
        free_fragments(g);
        world_destroy(w);
    }
    assert_true(feet[0][0] > 28.0 && fabs(feet[0][1] - 10.0) < 1.0 / 16); /* climbed, at the origin */
    for (int i = 0; i < 4; i++) assert_true(fabs(feet[1][i] - feet[0][i]) < 1e-3);
}

/* A whole voxel is still a step to jump on the fragments: a wall of stone
 * (rock keeps its edges: thresholds 3 and 4) one voxel high stops the
 * walker, as on the voxels. */
static void test_voxel_wall_still_blocks(void **state)
{
    world *w = world_create(CHUNKS_X, 1, 1);
    assert_non_null(w);
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int x = 0; x < CHUNK_SIZE * CHUNKS_X; x++)
            for (int y = 0; y <= (x < 16 ? 8 : 9); y++) world_set(w, x, y, z, MAT_STONE);
    fragments *g = enhance_world(w);
    const collide_grid grid = { .scale = g->f, .solid = frag_solid, .user = g };
    player pl = { 0 };
    player_spawn(&pl, w, 10.5f, 16.5f);
    pl.ground = &grid;
    walk(&pl, w, g, 1.0f, 240);
    assert_true(pl.pos[0] < 16.5f);
    assert_true(pl.pos[1] < 9.6f);
    free_fragments(g);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walks_up_and_down_a_fragment_ramp),
        cmocka_unit_test(test_voxel_wall_still_blocks),
        cmocka_unit_test(test_far_ramp_walks_as_at_the_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
