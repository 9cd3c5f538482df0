/* Snowflake lighting (seed 000, 4.4): shadows, caves, enclosed voxels,
 * exact incremental relight, worker independence, determinism, limits. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "light/light.h"
#include "voxel/world.h"

static void fill_box(world *w, int x0, int y0, int z0, int x1, int y1, int z1, uint8_t m)
{
    for (int y = y0; y < y1; y++)
        for (int z = z0; z < z1; z++)
            for (int x = x0; x < x1; x++) world_set(w, x, y, z, m);
}

static light *bake(const world *w, const light_params *p, job_pool *jobs) { return test_light_bake(w, p, jobs); }

static int sun_at(const light *l, int x, int y, int z)
{
    uint8_t s, k;
    light_get(l, x, y, z, &s, &k);
    return s;
}
static int sky_at(const light *l, int x, int y, int z)
{
    uint8_t s, k;
    light_get(l, x, y, z, &s, &k);
    return k;
}

/* Mean sun over the floor elements (y = 8) of a box of columns. */
static double mean_sun(const light *l, int x0, int z0, int x1, int z1)
{
    double sum = 0;
    int n = 0;
    for (int z = z0; z < z1; z++)
        for (int x = x0; x < x1; x++) sum += sun_at(l, x, 8, z), n++;
    return sum / n;
}

static void test_open_sky_brighter_than_cave(void **state)
{
    (void)state;
    world *w = world_create(2, 2, 2); /* 64^3 */
    fill_box(w, 0, 0, 0, 64, 8, 64, MAT_STONE);       /* a plain at y = 8 */
    fill_box(w, 40, 8, 0, 64, 40, 64, MAT_STONE);     /* a cliff on one side */
    fill_box(w, 46, 12, 20, 60, 18, 34, MAT_AIR);     /* a room inside it */
    fill_box(w, 40, 12, 26, 46, 15, 28, MAT_AIR);     /* a tunnel from the cliff face */
    light_params p = light_params_default();
    light *l = bake(w, &p, NULL);
    int open_sky = sky_at(l, 10, 8, 32), open_sun = sun_at(l, 10, 8, 32);
    int cave_sky = sky_at(l, 55, 12, 27), cave_sun = sun_at(l, 55, 12, 27);
    assert_true(open_sky > 150);
    assert_true(open_sun > 150);
    print_message("open sky %d sun %d, cave sky %d sun %d\n", open_sky, open_sun, cave_sky, cave_sun);
    assert_true(cave_sky < open_sky / 4);
    assert_true(cave_sun < open_sun / 4);
    light_destroy(l);
    world_destroy(w);
}

static void test_enclosed_voxel_is_dark(void **state)
{
    (void)state;
    world *w = world_create(1, 1, 1);
    fill_box(w, 0, 0, 0, 32, 20, 32, MAT_STONE);
    world_set(w, 16, 10, 16, MAT_AIR);
    light_params p = light_params_default();
    p.sun_particles = p.sky_particles = 64;
    light *l = bake(w, &p, NULL);
    /* a dark element (1), not "no data" (0): the darkness is traced, not skipped */
    assert_int_equal(sun_at(l, 16, 10, 16), 1);
    assert_int_equal(sky_at(l, 16, 10, 16), 1);
    assert_int_equal(sun_at(l, 16, 9, 16), LIGHT_NONE); /* the stone under it holds nothing */
    assert_int_equal(sun_at(l, 16, 20, 16) > 0, 1);
    light_destroy(l);
    world_destroy(w);
}

static void test_tower_shadow_follows_the_sun(void **state)
{
    (void)state;
    world *w = world_create(2, 2, 2);
    fill_box(w, 0, 0, 0, 64, 8, 64, MAT_STONE);
    fill_box(w, 30, 8, 30, 34, 40, 34, MAT_STONE); /* a tower */
    light_params p = light_params_default();
    p.sun_dir[0] = 1, p.sun_dir[1] = 1.2f, p.sun_dir[2] = 0; /* sun towards +x */
    p.jitter = 0.3f;
    light *l = bake(w, &p, NULL);
    double west = mean_sun(l, 26, 30, 30, 34), east = mean_sun(l, 34, 30, 38, 34);
    double far = mean_sun(l, 5, 5, 15, 15);
    assert_true(west < east * 0.5); /* the shadow falls away from the sun */
    assert_true(east > far * 0.8);
    light_destroy(l);
    p.sun_dir[0] = -1; /* the sun moves to -x: the shadow swaps sides */
    l = bake(w, &p, NULL);
    double west2 = mean_sun(l, 26, 30, 30, 34), east2 = mean_sun(l, 34, 30, 38, 34);
    assert_true(east2 < west2 * 0.5);
    light_destroy(l);
    world_destroy(w);
}

/* The sky set already darkens creases (the inner corner of a step, the foot
 * of a wall) the way ambient occlusion would: no separate AO pass needed. */
static void test_creases_darker(void **state)
{
    (void)state;
    world *w = world_create(2, 2, 2);
    fill_box(w, 0, 0, 0, 64, 8, 64, MAT_STONE);
    fill_box(w, 32, 8, 0, 64, 24, 64, MAT_STONE); /* a 16-high wall along x = 32 */
    light_params p = light_params_default();
    p.sun_particles = 0, p.sky_particles = 128;
    light *l = bake(w, &p, NULL);
    double open = 0, foot = 0;
    for (int z = 16; z < 48; z++) open += sky_at(l, 8, 8, z), foot += sky_at(l, 31, 8, z);
    open /= 32, foot /= 32;
    print_message("sky: open floor %.0f, foot of a wall %.0f\n", open, foot);
    assert_true(open > 220);
    assert_true(foot < 0.75 * open); /* the crease at the wall's foot */
    assert_true(foot > 0.25 * open); /* ... but still open to half the sky */
    light_destroy(l);
    world_destroy(w);
}

/* A plain spanning four chunks: no step in the light at chunk borders. */
static void test_continuous_across_chunks(void **state)
{
    (void)state;
    world *w = world_create(2, 1, 2);
    fill_box(w, 0, 0, 0, 64, 8, 64, MAT_STONE);
    light_params p = light_params_default();
    p.sun_particles = p.sky_particles = 64;
    light *l = bake(w, &p, NULL);
    /* away from the world's sides the plain is the same everywhere */
    double a = mean_sun(l, 24, 24, 32, 40), b = mean_sun(l, 32, 24, 40, 40);
    double c = mean_sun(l, 12, 12, 20, 20);
    assert_true(a > 200 && b > 200);
    assert_true(a - b < 6 && b - a < 6);
    assert_true(a - c < 6 && c - a < 6);
    light_destroy(l);
    world_destroy(w);
}

/* Every element releases the same particles: the same surroundings give
 * the same light, wherever they are. An open plain with the default 16 + 16
 * particles is one value (full sky) away from the world's sides, and two
 * identical pillars at different places cast identical shade. */
static void test_same_surroundings_same_light(void **state)
{
    (void)state;
    world *w = world_create(4, 1, 4); /* 128 x 32 x 128 */
    fill_box(w, 0, 0, 0, 128, 8, 128, MAT_STONE);
    fill_box(w, 30, 8, 30, 33, 20, 33, MAT_STONE);
    fill_box(w, 90, 8, 70, 93, 20, 73, MAT_STONE);
    light_params p = light_params_default();
    light *l = bake(w, &p, NULL);
    int first = sky_at(l, 60, 8, 100), differ = 0;
    for (int z = 40; z < 60; z++)
        for (int x = 40; x < 80; x++) differ += sky_at(l, x, 8, z) != first || sun_at(l, x, 8, z) != sun_at(l, 60, 8, 100);
    assert_int_equal(first, 255); /* the open plain is full sky: the norm is these particles' */
    assert_int_equal(differ, 0);
    for (int dz = -12; dz < 12; dz++)
        for (int dx = -12; dx < 12; dx++) {
            assert_int_equal(sun_at(l, 31 + dx, 8, 31 + dz), sun_at(l, 91 + dx, 8, 71 + dz));
            assert_int_equal(sky_at(l, 31 + dx, 8, 31 + dz), sky_at(l, 91 + dx, 8, 71 + dz));
        }
    light_destroy(l);
    world_destroy(w);
}

static void random_terrain(world *w, uint64_t seed)
{
    rng r = rng_make(seed);
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            int h = 6 + (int)(4 * (1 + sin(x * 0.2) * cos(z * 0.15)));
            for (int y = 0; y < h; y++) world_set(w, x, y, z, MAT_STONE);
        }
    for (int i = 0; i < 60; i++) { /* trees and rocks */
        int x = rng_range(&r, 0, w->sx - 4), z = rng_range(&r, 0, w->sz - 4), y = rng_range(&r, 8, 14);
        fill_box(w, x, y, z, x + rng_range(&r, 1, 4), y + rng_range(&r, 1, 6), z + rng_range(&r, 1, 4),
                 i % 3 ? MAT_OAK_LEAVES : MAT_STONE);
    }
    world_set(w, 3, 20, 3, MAT_MUSKEG);
}

static void test_relight_equals_full_bake(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(2, 1, 2);
    random_terrain(w, 7);
    light_params p = light_params_default();
    light *l = bake(w, &p, jobs);
    /* cut an 8^3 hole and fill a pillar, relighting after each */
    int lo[3] = { 28, 4, 28 }, hi[3] = { 36, 12, 36 };
    fill_box(w, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], MAT_AIR);
    int wl[3], wh[3];
    light_stats st;
    light_relight(l, w, &p, jobs, lo, hi, wl, wh, &st);
    assert_true(st.elements > 0);
    for (int k = 0; k < 3; k++) assert_true(wl[k] <= lo[k] - light_reach(&p) || wl[k] == 0);
    light *full = bake(w, &p, jobs);
    assert_int_equal(memcmp(light_data(l), light_data(full), (size_t)w->sx * w->sy * w->sz * 2), 0);
    int lo2[3] = { 2, 10, 50 }, hi2[3] = { 4, 25, 52 };
    fill_box(w, lo2[0], lo2[1], lo2[2], hi2[0], hi2[1], hi2[2], MAT_STONE);
    light_relight(l, w, &p, jobs, lo2, hi2, NULL, NULL, NULL);
    light_destroy(full);
    full = bake(w, &p, jobs);
    assert_true(light_hash(l) == light_hash(full));
    light_destroy(full);
    light_destroy(l);
    world_destroy(w);
    job_pool_destroy(jobs);
}

static void test_workers_and_seeds(void **state)
{
    (void)state;
    world *w = world_create(2, 1, 2);
    random_terrain(w, 11);
    light_params p = light_params_default();
    job_pool *one = job_pool_create(1), *two = job_pool_create(2);
    light *a = bake(w, &p, NULL), *b = bake(w, &p, one), *c = bake(w, &p, two);
    assert_true(light_hash(a) == light_hash(b));
    assert_true(light_hash(a) == light_hash(c));
    p.seed = 2;
    light *d = bake(w, &p, two);
    assert_true(light_hash(a) != light_hash(d));
    light_destroy(a), light_destroy(b), light_destroy(c), light_destroy(d);
    job_pool_destroy(one), job_pool_destroy(two);
    world_destroy(w);
}

/* The background bake gives the same light as the blocking one; a cancelled
 * bake stops early and leaves the pool usable. */
static void test_background_bake(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(2, 1, 2);
    random_terrain(w, 5);
    light_params p = light_params_default();
    light *ref = bake(w, &p, NULL);
    light *l = light_create(w->sx, w->sy, w->sz);
    light_read_world(l, w, NULL, NULL, jobs);
    light_task *t = light_bake_start(l, &p, jobs, NULL, NULL);
    assert_non_null(t);
    p.seed = 99; /* the task holds its own copy of the parameters */
    while (!light_task_done(t)) {}
    assert_true(light_task_progress(t) == 1.f);
    light_stats st;
    light_task_finish(t, &st);
    assert_true(st.elements > 0);
    assert_true(light_hash(l) == light_hash(ref));
    light_task_cancel(light_bake_start(l, &p, jobs, NULL, NULL));
    light_bake(l, &p, jobs, NULL, NULL, NULL); /* the pool still works */
    light_destroy(l);
    light_destroy(ref);
    world_destroy(w);
    job_pool_destroy(jobs);
}

static void test_params_refused(void **state)
{
    (void)state;
    char err[256];
    light_params p = light_params_default();
    assert_true(light_params_check(&p, err, sizeof err));
    p.steps = 0;
    assert_false(light_params_check(&p, err, sizeof err));
    assert_non_null(strstr(err, "[1, 128]"));
    p = light_params_default();
    p.sun_particles = p.sky_particles = 256, p.steps = 128;
    assert_false(light_params_check(&p, err, sizeof err));
    assert_non_null(strstr(err, "would take about"));
    p = light_params_default();
    p.sun_dir[0] = p.sun_dir[1] = p.sun_dir[2] = 0;
    assert_false(light_params_check(&p, err, sizeof err));
    p = light_params_default();
    p.radius = 100;
    assert_false(light_params_check(&p, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_sky_brighter_than_cave),
        cmocka_unit_test(test_enclosed_voxel_is_dark),
        cmocka_unit_test(test_tower_shadow_follows_the_sun),
        cmocka_unit_test(test_creases_darker),
        cmocka_unit_test(test_continuous_across_chunks),
        cmocka_unit_test(test_same_surroundings_same_light),
        cmocka_unit_test(test_relight_equals_full_bake),
        cmocka_unit_test(test_workers_and_seeds),
        cmocka_unit_test(test_background_bake),
        cmocka_unit_test(test_params_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
