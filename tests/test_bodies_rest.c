/* Voxel bodies come to rest: a stone ball dropped over the hills, and every
 * body of the falling benches (bench_physics.c's physics.step.bodies.10
 * and .100 scenes), are asleep within 10 s of simulated time (600 steps of
 * 1/60 s: one step a game frame), and so are blocks dropped on a voxel
 * staircase; a body on a slope steeper than its material's angle of repose
 * (atan of its slide coefficient) still slides, one on a gentler slope stops. */
#include "test_support.h"
#include "body_grid.h"
#include "../bench/bench_scene_bodies.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "physics/bodies.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

#define TEN_SECONDS 600

static double dot(const float v[3]) { return (double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]; }

static world *hills(int cx, int cy, int cz, job_pool *jobs)
{
    terrain_register();
    world *w = world_create(cx, cy, cz);
    assert_non_null(w);
    assert_true(worldgen_generate(w, &terrain_hills, 1, jobs));
    return w;
}

/* Steps until every body sleeps, at most max; returns the steps run. A
 * body that falls out of the world (below lost_y, or past the window's
 * sides, where there is no ground) is gone, as in the game. */
static int run_to_rest(bodies *s, const world *w, job_pool *jobs, int max)
{
    octree *t = octree_from_world(w);
    int k = 0;
    for (; k < max && bodies_awake(s) > 0; k++) {
        bodies_step(s, w, t, jobs);
        for (int i = 0; i < s->count;) {
            const body *b = s->v[i];
            float r = b->radius;
            if (b->pos[1] < s->p.lost_y || b->pos[0] + r < 0 || b->pos[2] + r < 0 || b->pos[0] - r > (float)w->sx ||
                b->pos[2] - r > (float)w->sz)
                body_destroy(bodies_take(s, i));
            else
                i++;
        }
    }
    octree_destroy(t);
    return k;
}

/* The game's `fill stone` at (256, 110, 256) over the default hills
 * (seed 1, 512 x 128 x 512): 280 voxels, every cell of an 8^3 grid whose
 * centre is within 4 of the grid's centre, at rest in mid-air. */
static void test_ball_on_hills_sleeps(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *w = hills(16, 4, 16, jobs);
    uint8_t g[8 * 8 * 8];
    for (int y = 0; y < 8; y++)
        for (int z = 0; z < 8; z++)
            for (int x = 0; x < 8; x++) {
                float dx = (float)x + 0.5f - 4.f, dy = (float)y + 0.5f - 4.f, dz = (float)z + 0.5f - 4.f;
                g[x + 8 * (z + 8 * y)] = dx * dx + dy * dy + dz * dz <= 16.f ? MAT_STONE : MAT_AIR;
            }
    body_density dens;
    body_density_default(&dens);
    body *b = body_from_grid(g, NULL, (const int[3]){ 8, 8, 8 }, (const float[3]){ 252, 106, 252 }, &dens);
    assert_non_null(b);
    assert_int_equal(b->count, 280);
    bodies s;
    bodies_init(&s);
    assert_true(bodies_add(&s, b));
    int steps = run_to_rest(&s, w, jobs, TEN_SECONDS);
    print_message("the ball sleeps after %d steps (%.2f s) at %.1f %.1f %.1f\n", steps, steps / 60.0, (double)b->pos[0],
                  (double)b->pos[1], (double)b->pos[2]);
    assert_true(b->asleep);
    assert_true(b->age < 10.f && b->age < s.p.max_age); /* at rest, not aged out */
    assert_true(b->pos[1] < 100.f);                      /* it fell first: it did not sleep in the air */
    bodies_free(&s);
    world_destroy(w);
    job_pool_destroy(jobs);
}

/* bench_physics.c's step scene: count bodies of 50 to 500 voxels of stone
 * and oak, spinning, dropped from 4 to 40 voxels over the hills
 * (128 x 64 x 128), with the simulation's own sleep settings. */
static void falling_bench(int count, job_pool *jobs)
{
    world *w = hills(4, 2, 4, jobs);
    bodies s;
    bodies_init(&s);
    assert_int_equal(bench_scene_bodies(&s, w, count), count);
    int steps = run_to_rest(&s, w, jobs, TEN_SECONDS);
    float oldest = 0;
    for (int i = 0; i < s.count; i++) oldest = fmaxf(oldest, s.v[i]->age);
    for (int i = 0; i < s.count; i++)
        if (!s.v[i]->asleep)
            print_message("awake: %ld voxels at %.1f %.1f %.1f speed %.2f turn %.2f still %.2f age %.1f\n", s.v[i]->count,
                          (double)s.v[i]->pos[0], (double)s.v[i]->pos[1], (double)s.v[i]->pos[2],
                          sqrt(dot(s.v[i]->vel)), sqrt(dot(s.v[i]->ang)) * s.v[i]->radius, (double)s.v[i]->still,
                          (double)s.v[i]->age);
    print_message("%d falling bodies: all asleep after %d steps (%.2f s), %d awake\n", count, steps, steps / 60.0,
                  bodies_awake(&s));
    assert_int_equal(bodies_awake(&s), 0);
    assert_true(oldest < 10.f);
    bodies_free(&s);
    world_destroy(w);
}

static void test_falling_bench_10_sleeps(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    falling_bench(10, jobs);
    job_pool_destroy(jobs);
}

static void test_falling_bench_100_sleeps(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    falling_bench(100, jobs);
    job_pool_destroy(jobs);
}

/* A voxel staircase (one voxel up every two along x, 27 degrees on
 * average, flat at its foot): a lone voxel, a 2^3 block and a 3 x 2 x 4
 * block of stone dropped on its steps, turning, each come to rest within
 * 5 s, where a speed threshold alone never saw them still long enough. */
static void test_rest_on_a_staircase(void **state)
{
    (void)state;
    static const int sizes[3][3] = { { 1, 1, 1 }, { 2, 2, 2 }, { 3, 2, 4 } };
    for (int k = 0; k < 3; k++) {
        world *w = world_create(4, 2, 4);
        for (int x = 0; x < 128; x++) fill_box(w, x, 0, 0, x + 1, 8 + (x < 32 ? 0 : (x - 32) / 2), 128, MAT_STONE);
        bodies s;
        bodies_init(&s);
        const float o[3] = { 70.f, 40.f, 60.f };
        body *b = box_body(sizes[k][0], sizes[k][1], sizes[k][2], MAT_STONE, o);
        assert_non_null(b);
        b->ang[0] = 1.5f, b->ang[2] = -2.f, b->vel[0] = -3.f;
        assert_true(bodies_add(&s, b));
        int steps = run_to_rest(&s, w, NULL, 300);
        print_message("a %dx%dx%d block on the stairs sleeps after %d steps at %.1f %.1f %.1f\n", sizes[k][0], sizes[k][1],
                      sizes[k][2], steps, (double)b->pos[0], (double)b->pos[1], (double)b->pos[2]);
        assert_true(b->asleep);
        assert_true(b->pos[1] < 35.f); /* it landed first */
        bodies_free(&s);
        world_destroy(w);
    }
}

/* A 48 x 1 x 16 slab of `m` tilted `deg` degrees about z, held still
 * (asleep: static to the others), and a 3 x 3 x 3 box of `m` resting flat
 * on it near its upper end. Returns how far down the slope the box has
 * gone after two seconds, and whether it is still awake. */
static float slide_on_slope(uint8_t m, float deg, bool *awake)
{
    world *w = world_create(4, 2, 4); /* empty: only the slab holds it */
    bodies s;
    bodies_init(&s);
    body *slab = box_body(48, 1, 16, m, (const float[3]){ 0, 0, 0 });
    body *box = box_body(3, 3, 3, m, (const float[3]){ 0, 0, 0 });
    assert_non_null(slab);
    assert_non_null(box);
    float th = deg * 3.14159265f / 180.f, q[4] = { 0, 0, sinf(th / 2), cosf(th / 2) };
    const float up[3] = { -sinf(th), cosf(th), 0 }, along[3] = { cosf(th), sinf(th), 0 };
    const float centre[3] = { 64, 60, 64 };
    memcpy(slab->rot, q, sizeof q);
    memcpy(box->rot, q, sizeof q);
    /* the box's centre: 0.5 above the slab's centre plane to its top face, 1.5 more to the box's centre */
    for (int a = 0; a < 3; a++) slab->pos[a] = centre[a], box->pos[a] = centre[a] + up[a] * 2.f + along[a] * 16.f;
    slab->asleep = true;
    assert_true(bodies_add(&s, slab));
    assert_true(bodies_add(&s, box));
    float start[3];
    memcpy(start, box->pos, sizeof start);
    octree *t = octree_from_world(w);
    for (int k = 0; k < 120; k++) bodies_step(&s, w, t, NULL);
    octree_destroy(t);
    float down = 0;
    for (int a = 0; a < 3; a++) down -= (box->pos[a] - start[a]) * along[a];
    *awake = !box->asleep;
    bodies_free(&s);
    world_destroy(w);
    return down;
}

static void test_slides_only_past_repose(void **state)
{
    (void)state;
    static const struct { uint8_t m; float deg; bool slides; } cases[] = {
        { MAT_STONE, 45.f, true },  /* stone's repose: atan(0.7) = 35 degrees */
        { MAT_STONE, 25.f, false },
        { MAT_OAK_LOG, 33.f, true }, /* wood's: atan(0.5) = 26.6 degrees */
        { MAT_STONE, 30.f, false },
        { MAT_OAK_LOG, 20.f, false },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        body_surface su = body_surface_of(cases[c].m);
        bool awake;
        float down = slide_on_slope(cases[c].m, cases[c].deg, &awake);
        print_message("%s (repose %.1f deg) on %.0f deg: %.2f voxels down the slope in 2 s, %s\n",
                      material_get(cases[c].m)->name, atan(su.slide) * 57.29578, (double)cases[c].deg, (double)down,
                      awake ? "sliding" : "asleep");
        assert_true((atanf(su.slide) * 57.29578f < cases[c].deg) == cases[c].slides);
        if (cases[c].slides) {
            /* a block sliding with friction: s = g (sin - mu cos) t^2 / 2, at least half of it */
            float th = cases[c].deg * 3.14159265f / 180.f;
            float want = 0.5f * 20.f * (sinf(th) - su.slide * cosf(th)) * 4.f / 2.f;
            assert_true(awake);
            assert_true(down > want);
        } else {
            assert_false(awake);
            assert_true(fabsf(down) < 0.3f);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ball_on_hills_sleeps),
        cmocka_unit_test(test_falling_bench_10_sleeps),
        cmocka_unit_test(test_falling_bench_100_sleeps),
        cmocka_unit_test(test_rest_on_a_staircase),
        cmocka_unit_test(test_slides_only_past_repose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
