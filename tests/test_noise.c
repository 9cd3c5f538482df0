/* The unbounded plane's noise (noise_perlin2d): near the origin it is the
 * permutation's field exactly, so no world there changes; beyond the
 * permutation's square it does not repeat; it is continuous across the
 * square's edge; far out it is as varied as at the origin; and it is a
 * function of the seed. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>

#include "core/noise.h"

/* Inside [-256, 256) on both axes the plane is noise_perlin2 bit for bit
 * (places that are floats exactly: sixteenths). */
static void test_plane_keeps_the_square(void **state)
{
    (void)state;
    noise n;
    noise_init(&n, 1234);
    int checked = 0;
    for (float y = -255.9375f; y < 255.f; y += 7.8125f)
        for (float x = -255.9375f; x < 255.f; x += 3.0625f) {
            assert_true(noise_perlin2d(&n, x, y) == noise_perlin2(&n, x, y));
            checked++;
        }
    assert_true(checked > 5000);
}

/* Samples of a 64 x 64 grid over the first period, against the same grid
 * moved by `dx` cells: how many are the same value. */
static int same_after_shift(const noise *n, double dx, bool plane)
{
    int same = 0;
    for (int j = 0; j < 64; j++)
        for (int i = 0; i < 64; i++) {
            double x = i * 4.0 + 0.3125, y = j * 4.0 + 0.6875;
            float a = plane ? noise_perlin2d(n, x, y) : noise_perlin2(n, (float)x, (float)y);
            float b = plane ? noise_perlin2d(n, x + dx, y) : noise_perlin2(n, (float)(x + dx), (float)y);
            same += fabsf(a - b) < 1e-6f;
        }
    return same;
}

static void test_plane_does_not_repeat(void **state)
{
    (void)state;
    noise n;
    noise_init(&n, 1234);
    /* the measure sees a period: the permutation's field repeats whole */
    assert_int_equal(same_after_shift(&n, 256.0, false), 64 * 64);
    const double shifts[] = { 256.0, 512.0, 256.0 * 1000, 78125.0 * 256 };
    for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; k++) {
        int same = same_after_shift(&n, shifts[k], true);
        printf("shift %.0f cells: %d of 4096 samples the same\n", shifts[k], same);
        assert_true(same < 41); /* under 1%: chance, not a period */
    }
}

/* One gradient per lattice point: across the square's edges (x = 256, x =
 * -256, y = 256 and the corner) the field has no step. */
static void test_plane_continuous_at_the_edge(void **state)
{
    (void)state;
    noise n;
    noise_init(&n, 77);
    const double e = 1e-7;
    for (double t = -300.0; t < 300.0; t += 0.37) {
        assert_true(fabsf(noise_perlin2d(&n, 256.0 - e, t) - noise_perlin2d(&n, 256.0 + e, t)) < 1e-4f);
        assert_true(fabsf(noise_perlin2d(&n, -256.0 - e, t) - noise_perlin2d(&n, -256.0 + e, t)) < 1e-4f);
        assert_true(fabsf(noise_perlin2d(&n, t, 256.0 - e) - noise_perlin2d(&n, t, 256.0 + e)) < 1e-4f);
    }
    assert_true(fabsf(noise_perlin2d(&n, 256.0 - e, 256.0 - e) - noise_perlin2d(&n, 256.0 + e, 256.0 + e)) < 1e-4f);
}

/* Mean |value| over a region of 128 x 128 cells at (x0, y0). */
static double mean_abs(const noise *n, double x0, double y0)
{
    double sum = 0;
    int count = 0;
    for (int j = 0; j < 128; j++)
        for (int i = 0; i < 128; i++) {
            float v = noise_perlin2d(n, x0 + i + 0.31, y0 + j + 0.63);
            assert_true(v >= -1.f && v <= 1.f);
            sum += fabs(v), count++;
        }
    return sum / count;
}

static void test_plane_far_out_is_as_varied(void **state)
{
    (void)state;
    noise n;
    noise_init(&n, 5);
    double origin = mean_abs(&n, 0, 0), far = mean_abs(&n, 1e5, 1e5), west = mean_abs(&n, -3e6, 2e4);
    printf("mean |noise|: %.4f at the origin, %.4f at 10^5, %.4f at (-3 * 10^6, 2 * 10^4)\n", origin, far, west);
    assert_true(far > 0.75 * origin && far < 1.33 * origin);
    assert_true(west > 0.75 * origin && west < 1.33 * origin);
}

static void test_plane_is_a_function_of_the_seed(void **state)
{
    (void)state;
    noise a, b, c;
    noise_init(&a, 42);
    noise_init(&b, 42);
    noise_init(&c, 43);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        double x = 1e6 + i * 1.37 + 0.11, y = -4e5 + i * 0.93 + 0.29; /* no place on a lattice line */
        assert_true(noise_perlin2d(&a, x, y) == noise_perlin2d(&b, x, y));
        differ += noise_perlin2d(&a, x, y) != noise_perlin2d(&c, x, y);
    }
    printf("seeds 42 and 43: %d of 1000 samples differ\n", differ);
    assert_true(differ > 950);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plane_keeps_the_square),
        cmocka_unit_test(test_plane_does_not_repeat),
        cmocka_unit_test(test_plane_continuous_at_the_edge),
        cmocka_unit_test(test_plane_far_out_is_as_varied),
        cmocka_unit_test(test_plane_is_a_function_of_the_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
