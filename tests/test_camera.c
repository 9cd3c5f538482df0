/* Frustum culling (seed 003's future work: "a truncated pyramid composed of
 * six planes (near plane, far plane, top, bottom, left, and right)"): the
 * sphere test against a frustum rebuilt here from the camera's fields in
 * its own coordinates, so each of the six planes is needed to pass. */
#include "test_support.h"

#include <math.h>

#include "core/rng.h"
#include "gfx/camera.h"

#define PI_D 3.14159265358979323846

typedef struct frame { double pos[3], fwd[3], right[3], up[3], tx, ty; } frame;

/* The camera's axes from yaw and pitch (yaw 0 looks towards -z, positive
 * yaw turns right, positive pitch looks up), and the half-extents of the
 * view per unit of depth. */
static frame frame_of(const camera *c)
{
    frame f;
    double y = c->yaw * PI_D / 180, p = c->pitch * PI_D / 180;
    for (int i = 0; i < 3; i++) f.pos[i] = c->pos[i];
    f.fwd[0] = sin(y) * cos(p), f.fwd[1] = sin(p), f.fwd[2] = -cos(y) * cos(p);
    f.right[0] = cos(y), f.right[1] = 0, f.right[2] = sin(y); /* fwd x world up, normalised */
    f.up[0] = f.right[1] * f.fwd[2] - f.right[2] * f.fwd[1];
    f.up[1] = f.right[2] * f.fwd[0] - f.right[0] * f.fwd[2];
    f.up[2] = f.right[0] * f.fwd[1] - f.right[1] * f.fwd[0];
    f.ty = tan(c->fov * PI_D / 360);
    f.tx = f.ty * c->aspect;
    return f;
}

/* Signed distances of a point outside each plane (positive = outside):
 * near, far, left, right, bottom, top. */
static void outside(const camera *c, const frame *f, const double p[3], double out[6])
{
    double v[3] = { p[0] - f->pos[0], p[1] - f->pos[1], p[2] - f->pos[2] };
    double d = v[0] * f->fwd[0] + v[1] * f->fwd[1] + v[2] * f->fwd[2];
    double r = v[0] * f->right[0] + v[1] * f->right[1] + v[2] * f->right[2];
    double u = v[0] * f->up[0] + v[1] * f->up[1] + v[2] * f->up[2];
    out[0] = c->znear - d;
    out[1] = d - c->zfar;
    out[2] = (-r - d * f->tx) / sqrt(1 + f->tx * f->tx);
    out[3] = (r - d * f->tx) / sqrt(1 + f->tx * f->tx);
    out[4] = (-u - d * f->ty) / sqrt(1 + f->ty * f->ty);
    out[5] = (u - d * f->ty) / sqrt(1 + f->ty * f->ty);
}

/* A point at depth d, r to the right and u up of the view axis. */
static void at(const frame *f, double d, double r, double u, vec3 out)
{
    for (int i = 0; i < 3; i++) out[i] = (float)(f->pos[i] + d * f->fwd[i] + r * f->right[i] + u * f->up[i]);
}

static camera make_camera(void)
{
    camera c = { .pos = { 10, 40, -7 }, .yaw = 30, .pitch = 20, .fov = 70, .aspect = 16.f / 9.f, .znear = 10, .zfar = 100 };
    camera_update(&c);
    return c;
}

/* One sphere just outside each plane (and inside the other five) is culled;
 * the same sphere moved just inside is kept. */
static void test_each_of_six_planes_culls(void **state)
{
    (void)state;
    camera c = make_camera();
    frame f = frame_of(&c);
    const float rad = 1;
    const double d = 50, side_x = d * f.tx, side_y = d * f.ty;
    const double m = 3 * sqrt(1 + f.tx * f.tx); /* 3 radii beyond a side plane, measured across the axis */
    const double cases[6][2][3] = {
        /* outside (d, r, u), inside (d, r, u) */
        { { c.znear - 2, 0, 0 }, { c.znear + 2, 0, 0 } },            /* near */
        { { c.zfar + 2, 0, 0 }, { c.zfar - 2, 0, 0 } },              /* far */
        { { d, -side_x - m, 0 }, { d, -side_x + m, 0 } },            /* left */
        { { d, side_x + m, 0 }, { d, side_x - m, 0 } },              /* right */
        { { d, 0, -side_y - m }, { d, 0, -side_y + m } },            /* bottom */
        { { d, 0, side_y + m }, { d, 0, side_y - m } },              /* top */
    };
    for (int i = 0; i < 6; i++) {
        vec3 out, in;
        at(&f, cases[i][0][0], cases[i][0][1], cases[i][0][2], out);
        at(&f, cases[i][1][0], cases[i][1][1], cases[i][1][2], in);
        double dist[6], o[3] = { out[0], out[1], out[2] };
        outside(&c, &f, o, dist);
        for (int k = 0; k < 6; k++) /* the case is outside plane i alone */
            if (k == i) assert_true(dist[k] > rad);
            else assert_true(dist[k] < -rad);
        if (camera_sphere_visible(&c, out, rad)) fail_msg("sphere outside plane %d is drawn", i);
        if (!camera_sphere_visible(&c, in, rad)) fail_msg("sphere inside plane %d is culled", i);
    }
}

/* Random spheres: wholly outside some plane -> culled; centre inside every
 * plane -> drawn. */
static void test_random_spheres_match_the_frustum(void **state)
{
    (void)state;
    camera c = make_camera();
    frame f = frame_of(&c);
    rng r = rng_make(5);
    int culled = 0, kept = 0;
    for (int i = 0; i < 20000; i++) {
        vec3 p;
        at(&f, rng_double(&r) * 130 - 15, rng_double(&r) * 260 - 130, rng_double(&r) * 160 - 80, p);
        float rad = (float)(rng_double(&r) * 8);
        double dist[6], pd[3] = { p[0], p[1], p[2] }, worst = -1e9;
        outside(&c, &f, pd, dist);
        for (int k = 0; k < 6; k++) worst = dist[k] > worst ? dist[k] : worst;
        bool vis = camera_sphere_visible(&c, p, rad);
        if (worst > rad + 1e-3) {
            assert_false(vis);
            culled++;
        } else if (worst < -1e-3) {
            assert_true(vis);
            kept++;
        }
    }
    assert_true(culled > 5000 && kept > 1000);
}

/* The render origin (camera.h, core/origin.h): 0 near the origin, so a
 * finite world draws what it always drew; far out, a multiple of 128 with
 * the eye a small exact float beside it, the same as at the origin. */
static void test_render_origin(void **state)
{
    (void)state;
    camera c = { 0 };
    camera_set_eye(&c, (const double[3]){ 1000.25, 70.5, -3000.75 });
    assert_int_equal(c.origin[0], 0), assert_int_equal(c.origin[1], 0), assert_int_equal(c.origin[2], 0);
    assert_true(c.pos[0] == 1000.25f && c.pos[1] == 70.5f && c.pos[2] == -3000.75f);
    camera_set_eye(&c, (const double[3]){ 1e7 + 20.5, 101.62, -1e7 + 30.25 });
    assert_int_equal(c.origin[0], 10000000), assert_int_equal(c.origin[1], 0);
    assert_int_equal(c.origin[2], -10000000);
    assert_true(c.pos[0] == 20.5f && c.pos[2] == 30.25f);
    assert_true(c.pos[1] == (float)101.62);
    float o[3];
    camera_rel(&c, 10000032, 64, -9999968, o);
    assert_true(o[0] == 32.f && o[1] == 64.f && o[2] == 32.f);
    camera_set_eye(&c, (const double[3]){ NAN, 0, 3e12 }); /* absurd: defined, in range */
    assert_int_equal(c.origin[0], 0);
    assert_true(c.origin[2] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_of_six_planes_culls),
        cmocka_unit_test(test_random_spheres_match_the_frustum),
        cmocka_unit_test(test_render_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
