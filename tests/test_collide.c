/* Box sweeps, ray casts and the player walking, falling, flying and wading
 * in small hand-built worlds. */
#include "test_support.h"

#include <math.h>

#include "physics/collide.h"
#include "play/player.h"
#include "voxel/world.h"

#define EPS 0.01f
#define FLOOR_TOP 10.0f /* worlds from make_world stand on stone up to y = 9 */

/* 64^3 voxels with stone for y < 10: the player's feet rest at y = 10. */
static world *make_world(bool with_floor)
{
    world *w = world_create(2, 2, 2);
    assert_non_null(w);
    if (with_floor)
        for (int y = 0; y < 10; y++)
            for (int z = 0; z < w->sz; z++)
                for (int x = 0; x < w->sx; x++) world_set(w, x, y, z, MAT_STONE);
    return w;
}

static void fill(world *w, int x0, int y0, int z0, int x1, int y1, int z1, uint8_t m)
{
    for (int y = y0; y <= y1; y++)
        for (int z = z0; z <= z1; z++)
            for (int x = x0; x <= x1; x++) world_set(w, x, y, z, m);
}

static void run(player *p, const world *w, const player_input *in, float seconds)
{
    const float dt = 1.0f / 60.0f;
    for (float t = 0; t < seconds; t += dt) player_update(p, w, in, dt);
}

static player player_at(float x, float y, float z, float yaw)
{
    player p = { .pos = { x, y, z }, .yaw = yaw };
    return p;
}

static void test_box_hits_half_open_voxels(void **state)
{
    (void)state;
    world *w = make_world(false);
    world_set(w, 5, 5, 5, MAT_STONE);
    double a0[3] = { 4, 5, 5 }, a1[3] = { 5, 6, 6 }; /* touches the -x face only */
    assert_false(collide_box_hits(w, a0, a1));
    double b0[3] = { 4, 5, 5 }, b1[3] = { 5.01f, 6, 6 };
    assert_true(collide_box_hits(w, b0, b1));
    double c0[3] = { 20, -0.5f, 20 }, c1[3] = { 21, 0.5f, 21 }; /* dips into the bedrock below y = 0 */
    assert_true(collide_box_hits(w, c0, c1));
    double d0[3] = { -50, 0, -50 }, d1[3] = { -40, 10, -40 }; /* outside at the side: air */
    assert_false(collide_box_hits(w, d0, d1));
    world_set(w, 8, 8, 8, MAT_MUSKEG); /* not solid */
    double e0[3] = { 8, 8, 8 }, e1[3] = { 9, 9, 9 };
    assert_false(collide_box_hits(w, e0, e1));
    world_destroy(w);
}

static void test_cannot_walk_through_wall(void **state)
{
    (void)state;
    world *w = make_world(true);
    fill(w, 40, 10, 0, 40, 13, 63, MAT_STONE); /* wall facing -x at x = 40 */
    player p = player_at(30.5f, FLOOR_TOP, 32.5f, 90.0f); /* yaw 90 looks toward +x */
    player_input in = { .forward = 1 };
    run(&p, w, &in, 5.0f);
    assert_true(p.pos[0] + 0.5f * PLAYER_WIDTH <= 40.0f);
    assert_true(p.pos[0] + 0.5f * PLAYER_WIDTH > 40.0f - EPS);
    assert_float_equal(p.pos[1], FLOOR_TOP, EPS);
    assert_float_equal(p.pos[2], 32.5f, 1e-4f);
    assert_float_equal(p.vel[0], 0.0f, 1e-6f);
    in.sprint = true;
    run(&p, w, &in, 3.0f);
    assert_true(p.pos[0] + 0.5f * PLAYER_WIDTH <= 40.0f);
    world_destroy(w);
}

static void test_lands_on_ground(void **state)
{
    (void)state;
    world *w = make_world(true);
    player p = player_at(32.5f, 50.0f, 32.5f, 0.0f);
    player_input in = { 0 };
    run(&p, w, &in, 4.0f);
    assert_float_equal(p.pos[1], FLOOR_TOP, EPS);
    assert_true(p.pos[1] >= FLOOR_TOP);
    assert_true(p.on_ground);
    assert_float_equal(p.vel[1], 0.0f, 0.0f);
    world_destroy(w);
}

static void test_falls_at_most_terminal_speed(void **state)
{
    (void)state;
    world *w = world_create(1, 8, 1); /* 256 tall, empty */
    player p = player_at(16.5f, 250.0f, 16.5f, 0.0f);
    player_input in = { 0 };
    run(&p, w, &in, 2.5f); /* 28 m/s^2 reaches 60 m/s after ~2.1 s */
    assert_false(p.on_ground);
    assert_float_equal(p.vel[1], -PLAYER_TERMINAL_SPEED, 1e-3f);
    world_destroy(w);
}

static void test_no_tunnelling_horizontal(void **state)
{
    (void)state;
    world *w = make_world(true);
    fill(w, 40, 10, 0, 40, 13, 63, MAT_STONE); /* one voxel thin */
    const collide_box_desc box = player_box();
    const float stop = 40.0f - 0.5f * PLAYER_WIDTH;

    /* 100 m/s for one 0.1 s step */
    double pos[3] = { 30.37f, FLOOR_TOP + 0.001f, 32.5f };
    const float d10[3] = { 10.0f, 0, 0 };
    collide_result r;
    collide_move(w, pos, &box, d10, &r);
    assert_true(r.blocked[0]);
    assert_true(pos[0] <= stop && pos[0] > stop - EPS);
    /* and for several more: pressed against the wall, it stays */
    for (int i = 0; i < 10; i++) collide_move(w, pos, &box, d10, &r);
    assert_true(pos[0] <= stop && pos[0] > stop - EPS);
    assert_true(r.blocked[0]);
    assert_true(r.on_ground);

    /* a single 100 m jump stops at the first wall too */
    double far[3] = { 5.5f, FLOOR_TOP + 0.001f, 32.5f };
    const float d100[3] = { 100.0f, 0, 0 };
    collide_move(w, far, &box, d100, &r);
    assert_true(far[0] <= stop && far[0] > stop - EPS);
    /* the other way: from beyond the wall back toward -x */
    double back[3] = { 60.5f, FLOOR_TOP + 0.001f, 32.5f };
    const float dm100[3] = { -100.0f, 0, 0 };
    collide_move(w, back, &box, dm100, &r);
    assert_true(r.blocked[0]);
    assert_true(back[0] >= 41.0f + 0.5f * PLAYER_WIDTH && back[0] < 41.0f + 0.5f * PLAYER_WIDTH + EPS);

    /* the player, shoved at 100 m/s in 0.1 s steps */
    player p = player_at(35.5f, FLOOR_TOP, 32.5f, 90.0f);
    player_input in = { .forward = 1 };
    for (int i = 0; i < 5; i++) {
        p.vel[0] = 100.0f;
        player_update(&p, w, &in, 0.1f);
        assert_true(p.pos[0] <= stop);
    }
    assert_true(p.pos[0] > stop - EPS);
    world_destroy(w);
}

static void test_no_tunnelling_vertical(void **state)
{
    (void)state;
    world *w = make_world(false);
    fill(w, 0, 5, 0, 63, 5, 63, MAT_STONE);   /* a 1-voxel floor, air beneath */
    fill(w, 0, 40, 0, 63, 40, 63, MAT_STONE); /* and a 1-voxel ceiling */
    const collide_box_desc box = player_box();
    collide_result r;

    double pos[3] = { 20.5f, 30.0f, 20.5f };
    const float down10[3] = { 0, -10.0f, 0 };
    for (int i = 0; i < 5; i++) collide_move(w, pos, &box, down10, &r);
    assert_true(r.blocked[1] && r.on_ground);
    assert_true(pos[1] >= 6.0f && pos[1] < 6.0f + EPS);

    double high[3] = { 20.5f, 30.0f, 20.5f };
    const float down100[3] = { 0, -100.0f, 0 };
    collide_move(w, high, &box, down100, &r);
    assert_true(high[1] >= 6.0f && high[1] < 6.0f + EPS);

    const float up100[3] = { 0, 100.0f, 0 }; /* head into the ceiling */
    double head[3] = { 20.5f, 20.0f, 20.5f };
    collide_move(w, head, &box, up100, &r);
    assert_true(r.blocked[1]);
    assert_false(r.on_ground);
    assert_true(head[1] + PLAYER_HEIGHT <= 40.0f && head[1] + PLAYER_HEIGHT > 40.0f - EPS);

    /* the player falling at 100 m/s (terminal speed caps it) in 0.1 s steps */
    player p = player_at(20.5f, 35.0f, 20.5f, 0.0f);
    player_input in = { 0 };
    for (int i = 0; i < 20; i++) {
        p.vel[1] = -100.0f;
        player_update(&p, w, &in, 0.1f);
        assert_true(p.pos[1] >= 6.0f);
    }
    assert_float_equal(p.pos[1], 6.0f, EPS);
    assert_true(p.on_ground);
    world_destroy(w);
}

static void test_slides_along_wall(void **state)
{
    (void)state;
    world *w = make_world(true);
    fill(w, 40, 10, 0, 40, 13, 63, MAT_STONE);
    const collide_box_desc box = player_box();
    const float stop = 40.0f - 0.5f * PLAYER_WIDTH;
    double pos[3] = { stop - 0.2f, FLOOR_TOP + 0.001f, 30.0f };
    const float diag[3] = { 1.0f, 0, 1.0f };
    collide_result r;
    collide_move(w, pos, &box, diag, &r);
    assert_true(r.blocked[0]);
    assert_false(r.blocked[2]);
    assert_float_equal(pos[2], 31.0f, 1e-5f);
    assert_float_equal(r.moved[2], 1.0f, 1e-5f);
    assert_true(pos[0] <= stop && pos[0] > stop - EPS);

    /* the player walking at 45 degrees into the wall keeps the -z part */
    player p = player_at(37.5f, FLOOR_TOP, 40.5f, 45.0f);
    player_input in = { .forward = 1 };
    run(&p, w, &in, 2.0f);
    assert_true(p.pos[0] <= stop);
    assert_true(p.pos[2] < 40.5f - 4.0f); /* about 4.3 * sin 45 m/s for most of 2 s */
    world_destroy(w);
}

static void test_fits_two_tall_gap_not_one_tall(void **state)
{
    (void)state;
    world *w = make_world(true);
    const collide_box_desc box = player_box();
    const float through[3] = { 6.0f, 0, 0 };
    collide_result r;

    fill(w, 40, 10, 0, 40, 20, 63, MAT_STONE);
    world_set(w, 40, 10, 32, MAT_AIR); /* 1 wide, 2 tall */
    world_set(w, 40, 11, 32, MAT_AIR);
    double pos[3] = { 37.5f, FLOOR_TOP + 0.001f, 32.5f };
    collide_move(w, pos, &box, through, &r);
    assert_false(r.blocked[0]);
    assert_float_equal(pos[0], 43.5f, 1e-4f);

    world_set(w, 40, 11, 32, MAT_STONE); /* now only 1 tall */
    double pos2[3] = { 37.5f, FLOOR_TOP + 0.001f, 32.5f };
    collide_move(w, pos2, &box, through, &r);
    assert_true(r.blocked[0]);
    assert_true(pos2[0] <= 40.0f - 0.5f * PLAYER_WIDTH);
    world_destroy(w);
}

static void test_flying_ignores_gravity(void **state)
{
    (void)state;
    world *w = make_world(true);
    player p = player_at(32.5f, 30.0f, 32.5f, 0.0f);
    p.flying = true;
    player_input in = { 0 };
    run(&p, w, &in, 3.0f);
    assert_float_equal(p.pos[1], 30.0f, 1e-4f);
    assert_float_equal(p.vel[1], 0.0f, 1e-6f);
    assert_false(p.on_ground);

    in.fly_up = true;
    run(&p, w, &in, 1.0f);
    assert_true(p.pos[1] > 30.0f + 8.0f); /* ~12 m/s after a short ramp */
    in.fly_up = false, in.fly_down = true;
    run(&p, w, &in, 5.0f); /* down until the floor stops it */
    assert_float_equal(p.pos[1], FLOOR_TOP, EPS);
    assert_true(p.on_ground);

    in.fly_down = false, in.forward = 1; /* yaw 0: toward -z */
    p.pos[1] = 30.0f;
    run(&p, w, &in, 1.0f);
    assert_float_equal(p.pos[1], 30.0f, 1e-4f);
    assert_true(p.pos[2] < 32.5f - 8.0f);
    world_destroy(w);
}

static void test_sinks_into_muskeg(void **state)
{
    (void)state;
    world *w = make_world(true);
    fill(w, 20, 10, 20, 40, 12, 40, MAT_MUSKEG); /* a bog 3 deep on the stone */
    /* spawning ignores the bog (it is not solid): feet on the stone */
    player p = { 0 };
    player_spawn(&p, w, 30.5f, 30.5f);
    assert_true(p.pos[1] > FLOOR_TOP && p.pos[1] < FLOOR_TOP + 2 * EPS);

    p = player_at(30.5f, 20.0f, 30.5f, 0.0f);
    player_input in = { 0 };
    run(&p, w, &in, 5.0f);
    assert_float_equal(p.pos[1], FLOOR_TOP, EPS); /* sank through all 3 voxels */
    assert_true(p.on_ground);
    assert_true(p.in_muskeg);
    /* wading is slower than walking */
    in.forward = 1;
    run(&p, w, &in, 1.0f);
    assert_true(fabsf(p.vel[2]) < PLAYER_WALK_SPEED * 0.6f);
    assert_true(fabsf(p.vel[2]) > 1.0f);
    world_destroy(w);
}

static void test_raycast_hits_voxel_and_face(void **state)
{
    (void)state;
    world *w = make_world(false);
    world_set(w, 10, 20, 10, MAT_STONE);
    int hit[3], n[3];
    float dist;

    const double o1[3] = { 10.5f, 20.5f, 5.25f };
    const float d1[3] = { 0, 0, 1 };
    assert_true(collide_raycast(w, o1, d1, 10.0f, hit, n, &dist));
    assert_int_equal(hit[0], 10), assert_int_equal(hit[1], 20), assert_int_equal(hit[2], 10);
    assert_int_equal(n[0], 0), assert_int_equal(n[1], 0), assert_int_equal(n[2], -1);
    assert_float_equal(dist, 4.75f, 1e-4f);
    assert_false(collide_raycast(w, o1, d1, 4.5f, hit, n, &dist)); /* too short */

    const double o2[3] = { 10.3f, 30.0f, 10.7f };
    const float d2[3] = { 0, -3, 0 }; /* not unit length */
    assert_true(collide_raycast(w, o2, d2, 100.0f, hit, n, &dist));
    assert_int_equal(hit[1], 20);
    assert_int_equal(n[0], 0), assert_int_equal(n[1], 1), assert_int_equal(n[2], 0);
    assert_float_equal(dist, 9.0f, 1e-4f);

    /* diagonal from the +x side, slightly above: enters through +x */
    const double o3[3] = { 14.5f, 21.2f, 10.5f };
    const float d3[3] = { -1, -0.2f, 0 };
    assert_true(collide_raycast(w, o3, d3, 20.0f, hit, n, &dist));
    assert_int_equal(hit[0], 10), assert_int_equal(hit[1], 20), assert_int_equal(hit[2], 10);
    assert_int_equal(n[0], 1), assert_int_equal(n[1], 0), assert_int_equal(n[2], 0);

    /* inside a solid voxel: hits it at once, no face */
    const double o4[3] = { 10.5f, 20.5f, 10.5f };
    assert_true(collide_raycast(w, o4, d1, 5.0f, hit, n, &dist));
    assert_int_equal(n[0] | n[1] | n[2], 0);
    assert_float_equal(dist, 0.0f, 0.0f);

    /* straight down onto the floor outside the world: bedrock at y = -1 */
    const double o5[3] = { -20.5f, 5.0f, 3.5f };
    const float d5[3] = { 0, -1, 0 };
    assert_true(collide_raycast(w, o5, d5, 10.0f, hit, n, &dist));
    assert_int_equal(hit[1], -1);
    assert_int_equal(n[1], 1);
    world_destroy(w);
}

static void test_raycast_misses_cleanly(void **state)
{
    (void)state;
    world *w = make_world(false);
    int hit[3] = { 7, 7, 7 }, n[3] = { 7, 7, 7 };
    float dist = 7;
    const double o[3] = { 30.5f, 30.5f, 30.5f };
    const float up[3] = { 0, 1, 0 }, side[3] = { 1, 0, 0.3f }, zero[3] = { 0, 0, 0 };
    assert_false(collide_raycast(w, o, up, 1000.0f, hit, n, &dist));
    assert_false(collide_raycast(w, o, side, INFINITY, hit, n, &dist)); /* leaves the world: stops */
    assert_false(collide_raycast(w, o, zero, 10.0f, hit, n, &dist));
    assert_false(collide_raycast(w, o, up, NAN, NULL, NULL, NULL));
    assert_int_equal(hit[0], 7); /* outputs untouched on a miss */
    assert_int_equal(n[0], 7);
    assert_float_equal(dist, 7.0f, 0.0f);
    world_destroy(w);
}

/* The world's x/z edge is a wall: walking, sprint-jumping or flying at any
 * of the four edges, the player stays inside and on the floor, never falls
 * off onto the bedrock plain below. */
static void test_world_edge_is_a_wall(void **state)
{
    (void)state;
    world *w = make_world(true);
    const float yaws[4] = { 270, 90, 0, 180 }; /* towards -x, +x, -z, +z */
    for (int k = 0; k < 4; k++) {
        player p = player_at(32.5f, FLOOR_TOP, 32.5f, yaws[k]);
        player_input in = { .forward = 1, .sprint = true, .jump = k % 2 == 1 };
        run(&p, w, &in, 12.0f);
        double lo[3], hi[3];
        player_bounds(&p, lo, hi);
        assert_true(lo[0] >= 0 && lo[2] >= 0 && hi[0] <= w->sx && hi[2] <= w->sz);
        /* at the edge, not stopped short */
        assert_true(lo[0] < 0.01f || lo[2] < 0.01f || hi[0] > w->sx - 0.01f || hi[2] > w->sz - 0.01f);
        in.jump = false;
        run(&p, w, &in, 1.0f);
        assert_float_equal(p.pos[1], FLOOR_TOP, EPS);
        assert_true(p.on_ground);
        /* flying high over the edge too */
        p.flying = true;
        in.fly_up = true;
        run(&p, w, &in, 6.0f);
        player_bounds(&p, lo, hi);
        assert_true(p.pos[1] > w->sy);
        assert_true(lo[0] >= 0 && lo[2] >= 0 && hi[0] <= w->sx && hi[2] <= w->sz);
    }
    world_destroy(w);
}

static void test_stands_on_bedrock_outside_world(void **state)
{
    (void)state;
    world *w = make_world(false);
    player_input in = { 0 };
    /* beside the world: air above, bedrock below y = 0 */
    player p = player_at(-10.5f, 5.0f, -3.5f, 0.0f);
    run(&p, w, &in, 2.0f);
    assert_float_equal(p.pos[1], 0.0f, EPS);
    assert_true(p.pos[1] >= 0.0f);
    assert_true(p.on_ground);
    /* and can walk around on it */
    in.forward = 1;
    run(&p, w, &in, 1.0f);
    assert_float_equal(p.pos[1], 0.0f, EPS);
    assert_true(p.pos[2] < -6.0f);

    /* spawning over an empty column puts the feet on that floor */
    player q = { 0 };
    player_spawn(&q, w, -100.5f, 7.5f);
    assert_true(q.pos[1] > 0.0f && q.pos[1] < 2 * EPS);
    in.forward = 0;
    run(&q, w, &in, 0.5f);
    assert_true(q.on_ground);
    world_destroy(w);
}

static void test_spawn_on_highest_voxel_under_footprint(void **state)
{
    (void)state;
    world *w = make_world(true);
    fill(w, 30, 10, 30, 30, 24, 30, MAT_OAK_LOG); /* a trunk, top at y = 24 */
    player p = { .yaw = 123.0f };
    player_spawn(&p, w, 30.5f, 30.5f);
    assert_true(p.pos[1] > 25.0f && p.pos[1] < 25.0f + 2 * EPS);
    assert_float_equal(p.yaw, 123.0f, 0.0f);
    /* beside it, but the 0.6 wide box would overlap the trunk: still on top */
    player_spawn(&p, w, 31.2f, 30.5f);
    assert_true(p.pos[1] > 25.0f && p.pos[1] < 25.0f + 2 * EPS);
    /* clear of it: on the ground */
    player_spawn(&p, w, 31.5f, 30.5f);
    assert_true(p.pos[1] > FLOOR_TOP && p.pos[1] < FLOOR_TOP + 2 * EPS);
    const collide_box_desc box = player_box();
    double lo[3] = { p.pos[0] - 0.3f, p.pos[1], p.pos[2] - 0.3f };
    double hi[3] = { lo[0] + box.size[0], lo[1] + box.size[1], lo[2] + box.size[2] };
    assert_false(collide_box_hits(w, lo, hi));
    world_destroy(w);
}

static void test_walk_speed_and_jump(void **state)
{
    (void)state;
    world *w = make_world(true);
    player p = player_at(10.5f, FLOOR_TOP, 32.5f, 90.0f);
    player_input in = { .forward = 1 };
    run(&p, w, &in, 1.0f);
    assert_float_equal(p.vel[0], PLAYER_WALK_SPEED, 0.05f);
    in.sprint = true;
    run(&p, w, &in, 1.0f);
    assert_float_equal(p.vel[0], PLAYER_SPRINT_SPEED, 0.05f);
    in = (player_input){ 0 };
    run(&p, w, &in, 1.0f); /* friction stops it */
    assert_float_equal(p.vel[0], 0.0f, 0.01f);

    in.jump = true;
    player_update(&p, w, &in, 1.0f / 60.0f);
    in.jump = false;
    float top = p.pos[1];
    for (int i = 0; i < 120; i++) {
        player_update(&p, w, &in, 1.0f / 60.0f);
        if (p.pos[1] > top) top = p.pos[1];
    }
    assert_float_equal(top - FLOOR_TOP, PLAYER_JUMP_HEIGHT, 0.03f);
    assert_true(p.on_ground);

    /* holding jump while walking into a one-voxel step climbs it */
    fill(w, 20, 10, 0, 63, 10, 63, MAT_STONE);
    p = player_at(17.5f, FLOOR_TOP, 32.5f, 90.0f);
    in = (player_input){ .forward = 1, .jump = true };
    run(&p, w, &in, 2.0f);
    assert_true(p.pos[0] > 21.0f);
    in.jump = false;
    run(&p, w, &in, 1.0f);
    assert_float_equal(p.pos[1], FLOOR_TOP + 1.0f, EPS);
    world_destroy(w);
}

static void test_look_conventions(void **state)
{
    (void)state;
    player p = { .pos = { 1, 2, 3 } };
    float f[3];
    double eye[3];
    player_forward(&p, f);
    assert_float_equal(f[0], 0, 1e-6f), assert_float_equal(f[1], 0, 1e-6f), assert_float_equal(f[2], -1, 1e-6f);
    player_look(&p, 90.0f, 0.0f); /* turning right from -z faces +x */
    player_forward(&p, f);
    assert_float_equal(f[0], 1, 1e-6f), assert_float_equal(f[2], 0, 1e-6f);
    player_look(&p, -180.0f, 0.0f); /* wraps into [0, 360) */
    assert_float_equal(p.yaw, 270.0f, 1e-4f);
    player_forward(&p, f);
    assert_float_equal(f[0], -1, 1e-6f);
    player_look(&p, 0.0f, 500.0f);
    assert_float_equal(p.pitch, 89.0f, 0.0f);
    player_forward(&p, f);
    assert_true(f[1] > 0.99f); /* positive pitch looks up */
    player_look(&p, 0.0f, -1000.0f);
    assert_float_equal(p.pitch, -89.0f, 0.0f);
    player_eye(&p, eye);
    assert_float_equal(eye[0], 1, 0), assert_float_equal(eye[1], 2 + PLAYER_EYE_HEIGHT, 1e-6f);
    assert_float_equal(eye[2], 3, 0);
}

/* Near the edge of the streamed world (a window 10^9 voxels out, past
 * where the collision once refused every move: 10^8) the player walks
 * into a wall and lands on the ground as at the origin, and a ray hits
 * the same face. */
static void test_walks_and_lands_10e9_out(void **state)
{
    (void)state;
    const int ocx = 1000000000 / CHUNK_SIZE, x0 = ocx * CHUNK_SIZE; /* 10^9 */
    double rel[2][4];
    for (int k = 0; k < 2; k++) {
        world *w = k ? world_create_window(ocx, 0, 2, 2, 2) : make_world(false);
        assert_non_null(w);
        const int dx = k ? x0 : 0;
        fill(w, dx, 0, 0, dx + 63, 9, 63, MAT_STONE);
        fill(w, dx + 40, 10, 0, dx + 40, 13, 63, MAT_STONE); /* a wall facing -x */
        player p = player_at(0, 30.0f, 32.5f, 90.0f);
        p.pos[0] = dx + 30.5; /* in double: a float is whole voxels out there */
        player_input in = { .forward = 1 };
        run(&p, w, &in, 5.0f);
        int hit[3], normal[3];
        float dist = 0;
        const double eye[3] = { dx + 30.5, 11.5, 20.5 };
        assert_true(collide_raycast(w, eye, (const float[3]){ 1, 0, 0 }, 20, hit, normal, &dist));
        rel[k][0] = p.pos[0] - dx, rel[k][1] = p.pos[1], rel[k][2] = hit[0] - dx, rel[k][3] = dist;
        assert_true(p.on_ground);
        world_destroy(w);
    }
    print_message("at 0: x %.6f y %.6f, ray at %.0f after %.4f; at 10^9: x %.6f y %.6f, ray at %.0f after %.4f\n",
                  rel[0][0], rel[0][1], rel[0][2], rel[0][3], rel[1][0], rel[1][1], rel[1][2], rel[1][3]);
    assert_true(rel[0][0] + 0.5 * PLAYER_WIDTH <= 40.0 && rel[0][0] + 0.5 * PLAYER_WIDTH > 40.0 - EPS);
    assert_float_equal(rel[0][1], FLOOR_TOP, EPS);
    for (int i = 0; i < 4; i++) assert_true(fabs(rel[1][i] - rel[0][i]) < 1e-5);
}

static void test_bad_input_is_harmless(void **state)
{
    (void)state;
    world *w = make_world(true);
    const collide_box_desc box = player_box();
    double pos[3] = { 32.5f, FLOOR_TOP, 32.5f };
    const float bad[3] = { NAN, INFINITY, 1e30f };
    collide_result r;
    collide_move(w, pos, &box, bad, &r);
    assert_float_equal(pos[0], 32.5f, 0), assert_float_equal(pos[1], FLOOR_TOP, 0);
    player p = player_at(32.5f, FLOOR_TOP, 32.5f, 0.0f);
    player_input in = { .forward = NAN, .strafe = 5 };
    player_update(&p, w, &in, NAN);
    player_update(&p, w, &in, 100.0f); /* clamped to PLAYER_MAX_DT */
    assert_false(isnan(p.pos[0]));
    assert_true(fabs(p.pos[0] - 32.5) < PLAYER_WALK_SPEED * PLAYER_MAX_DT);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_hits_half_open_voxels),
        cmocka_unit_test(test_cannot_walk_through_wall),
        cmocka_unit_test(test_lands_on_ground),
        cmocka_unit_test(test_falls_at_most_terminal_speed),
        cmocka_unit_test(test_no_tunnelling_horizontal),
        cmocka_unit_test(test_no_tunnelling_vertical),
        cmocka_unit_test(test_slides_along_wall),
        cmocka_unit_test(test_fits_two_tall_gap_not_one_tall),
        cmocka_unit_test(test_flying_ignores_gravity),
        cmocka_unit_test(test_sinks_into_muskeg),
        cmocka_unit_test(test_raycast_hits_voxel_and_face),
        cmocka_unit_test(test_raycast_misses_cleanly),
        cmocka_unit_test(test_world_edge_is_a_wall),
        cmocka_unit_test(test_stands_on_bedrock_outside_world),
        cmocka_unit_test(test_spawn_on_highest_voxel_under_footprint),
        cmocka_unit_test(test_walks_and_lands_10e9_out),
        cmocka_unit_test(test_walk_speed_and_jump),
        cmocka_unit_test(test_look_conventions),
        cmocka_unit_test(test_bad_input_is_harmless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
