/* Snowflake lighting (seed 000, 4.4) stated as a rule on a known geometry:
 * a sun particle brings light home when it takes every one of its `steps`
 * steps of `step` voxels without entering an opaque voxel. Under a roof
 * h voxels above a floor element, with the sun straight overhead, a walk
 * can only reach the roof if steps * step carries it there, so the step
 * length decides how far under a ceiling sunlight still arrives. */
#include "test_support.h"

#include <stdio.h>

#include "light/light.h"
#include "voxel/world.h"

#define FLOOR 8 /* the floor element's y: stone below it */

static void fill_box(world *w, int x0, int y0, int z0, int x1, int y1, int z1, uint8_t m)
{
    for (int y = y0; y < y1; y++)
        for (int z = z0; z < z1; z++)
            for (int x = x0; x < x1; x++) world_set(w, x, y, z, m);
}

/* Mean sun (decoded, 0..255) over the floor elements of a 16 x 16 patch in the
 * middle of a 64^3 window whose whole sky is shut by a roof at FLOOR + h:
 * no walk of under 16 voxels gets round its edge. The roof is 4 voxels
 * thick because particles test only where each step lands: a step longer
 * than a voxel can pass over a roof one voxel thin. */
static double sun_under_roof(const light_params *p, int h)
{
    world *w = world_create(2, 2, 2);
    fill_box(w, 0, 0, 0, 64, FLOOR, 64, MAT_STONE);
    fill_box(w, 0, FLOOR + h, 0, 64, FLOOR + h + 4, 64, MAT_STONE);
    light *l = test_light_bake(w, p, NULL);
    double sum = 0;
    for (int z = 24; z < 40; z++)
        for (int x = 24; x < 40; x++) {
            uint8_t sun, sky;
            light_get(l, x, FLOOR, z, &sun, &sky);
            assert_int_not_equal(sun, LIGHT_NONE); /* a floor under air is an element */
            sum += 255.0 * light_decode(sun);
        }
    light_destroy(l);
    world_destroy(w);
    return sum / 256.0;
}

static light_params overhead_sun(int steps, float step, float jitter)
{
    light_params p = light_params_default();
    p.sun_particles = 32;
    p.sky_particles = 0;
    p.steps = steps;
    p.step = step;
    p.jitter = jitter;
    p.radius = LIGHT_MAX_RADIUS; /* no early escape: only the steps end a walk */
    p.sun_dir[0] = 0.f, p.sun_dir[1] = 1.f, p.sun_dir[2] = 0.f;
    return p;
}

/* Without jitter every sun step is exactly `step` voxels up: from the
 * element's centre (FLOOR + 1/2) the walk ends at FLOOR + 1/2 + steps *
 * step, so the floor is fully sunlit when the roof's underside (FLOOR + h)
 * lies beyond that and wholly dark when it does not. */
static void test_sun_reach_is_steps_times_step(void **state)
{
    (void)state;
    static const float steps_len[] = { 0.75f, 1.f, 1.5f };
    for (int s = 0; s < 3; s++) {
        light_params p = overhead_sun(8, steps_len[s], 0.f);
        double reach = 8.0 * steps_len[s];
        for (int h = 1; h <= 16; h++) {
            double sun = sun_under_roof(&p, h);
            bool lit = h - 0.5 > reach;
            if (sun != (lit ? 255.0 : 0.0))
                fail_msg("step %.2f, roof %d above: sun %.1f, want %s", (double)steps_len[s], h, sun,
                         lit ? "full" : "none");
        }
    }
}

/* With the default jitter (steps wander about the sun's direction, each
 * still `step` long) a walk climbs less than steps * step, so a roof beyond
 * that never shades, and the light falls off as the roof comes down: a
 * roof within three quarters of the reach shades almost every walk, since
 * few of them wander so little. Halving the step length would halve every
 * distance here. */
static void test_sun_falloff_under_a_ceiling(void **state)
{
    (void)state;
    light_params p = overhead_sun(16, 1.f, light_params_default().jitter);
    double prev = -1, at[21] = { 0 };
    for (int h = 2; h <= 20; h += 2) {
        at[h] = sun_under_roof(&p, h);
        print_message("roof %2d above the floor: sun %.1f\n", h, at[h]);
        assert_true(at[h] >= prev - 4.0); /* a higher roof never shades more (up to sampling) */
        prev = at[h];
    }
    assert_true(at[18] == 255.0 && at[20] == 255.0); /* beyond 16 steps of one voxel */
    assert_true(at[12] < 0.05 * 255.0);               /* within three quarters of the reach */
    assert_true(at[14] < at[16]);
    assert_true(at[16] > 0.5 * 255.0);                /* at the reach most walks end short of the roof */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sun_reach_is_steps_times_step),
        cmocka_unit_test(test_sun_falloff_under_a_ceiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
