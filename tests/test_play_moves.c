/* Walking through the real game with the held movement actions: a walk
 * into a one-voxel rise climbs it without a jump (player.autostep), into a
 * two-voxel rise or under a ceiling it does not; a walk is the same
 * `+forward; frames N; -forward` a player's W key runs. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>

#include "app/app.h"
#include "app/app_internal.h"
#include "app/app_world.h"
#include "ui/cmd.h"

/* The arena: a stone floor whose top is y = FLOOR - 1 (feet stand at
 * FLOOR), open to y = TOP, a rise of `rise` voxels from x = STEP_X on, and
 * when `ceiling`, a roof whose lowest voxel is y = FLOOR + 2 (the box,
 * 1.8 high, fits under it on the floor but not on a rise of one). */
#define X0 24
#define X1 72
#define Z0 40
#define Z1 56
#define FLOOR 30
#define TOP 44
#define STEP_X 52

static void build(app *a, int rise, bool ceiling)
{
    world *w = a->w;
    for (int y = 1; y < TOP; y++)
        for (int z = Z0; z < Z1; z++)
            for (int x = X0; x < X1; x++) {
                bool solid = y < FLOOR || (x >= STEP_X && y < FLOOR + rise) || (ceiling && y >= FLOOR + 2);
                world_set(w, x, y, z, solid ? MAT_STONE : MAT_AIR);
            }
    app_world_edited(a, (const int[3]){ X0, 0, Z0 }, (const int[3]){ X1, TOP, Z1 }, NULL);
}

/* Stands on the floor four voxels before the rise, facing it (+x), and
 * holds +forward for `frames` frames; returns the feet. */
static void walk(app *a, int frames, double out[3])
{
    char line[256];
    snprintf(line, sizeof line, "tp %d.5 %d.01 48.5; look 90 0; frames 20; +forward; frames %d; -forward; frames 10",
             STEP_X - 4, FLOOR, frames);
    assert_int_equal(cmd_exec(line), 0);
    for (int k = 0; k < 3; k++) out[k] = a->pl.pos[k];
}

static void test_one_voxel_rise_is_climbed(void **state)
{
    app *a = *state;
    build(a, 1, false);
    double p[3];
    walk(a, 90, p);
    print_message("one-voxel rise: feet at x %.2f y %.3f\n", p[0], p[1]);
    assert_true(p[0] > STEP_X + 1.0);          /* onto the rise and along it */
    assert_true(p[1] > FLOOR + 0.99 && p[1] < FLOOR + 1.05);

    /* the cvar turns it off: the same walk stops at the rise */
    assert_int_equal(cmd_exec("set player.autostep 0"), 0);
    walk(a, 90, p);
    assert_int_equal(cmd_exec("set player.autostep 1"), 0);
    print_message("autostep off: feet at x %.2f y %.3f\n", p[0], p[1]);
    assert_true(p[0] < STEP_X);
    assert_true(p[1] < FLOOR + 0.05);
}

/* On the enhanced fragments the player walks on the fine ground (here a
 * little below the voxels' tops): the same rise is climbed there too, and
 * with autostep off it stops the walk. */
static void test_one_voxel_rise_is_climbed_enhanced(void **state)
{
    app *a = *state;
    build(a, 1, false);
    double on[3], off[3];
    assert_int_equal(cmd_exec("set render.mode enhanced"), 0);
    walk(a, 90, on);
    assert_int_equal(cmd_exec("set player.autostep 0"), 0);
    walk(a, 90, off);
    assert_int_equal(cmd_exec("set player.autostep 1; set render.mode blocks"), 0);
    print_message("one-voxel rise, enhanced: feet at x %.2f y %.3f (autostep off: x %.2f y %.3f)\n", on[0], on[1],
                  off[0], off[1]);
    assert_true(on[0] > STEP_X + 1.0);
    assert_true(on[1] > off[1] + 0.9);
    assert_true(off[0] < STEP_X);
}

/* Walks into a rise of `rise` voxels (under a ceiling or not) that must
 * stop the player: up to the rise, no further, still on the floor. */
static void assert_walk_stops(app *a, int rise, bool ceiling, const char *what)
{
    build(a, rise, ceiling);
    double p[3];
    walk(a, 90, p);
    print_message("%s: feet at x %.2f y %.3f\n", what, p[0], p[1]);
    assert_true(p[0] < STEP_X && p[0] > STEP_X - 1.0);
    assert_true(p[1] < FLOOR + 0.05);
}

static void test_two_voxel_rise_is_a_wall(void **state) { assert_walk_stops(*state, 2, false, "two-voxel rise"); }

static void test_no_step_into_a_ceiling(void **state) { assert_walk_stops(*state, 1, true, "rise under a ceiling"); }

static int setup(void **state)
{
    return test_app_setup(state, 96, 64,
                          "set world.stream 0; set world.size_x 3; set world.size_y 2; set world.size_z 3; "
                          "set view.distance 32; set render.crosshair 0; regen; frames 1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_voxel_rise_is_climbed),
        cmocka_unit_test(test_one_voxel_rise_is_climbed_enhanced),
        cmocka_unit_test(test_two_voxel_rise_is_a_wall),
        cmocka_unit_test(test_no_step_into_a_ceiling),
    };
    return cmocka_run_group_tests(tests, setup, test_app_teardown);
}
