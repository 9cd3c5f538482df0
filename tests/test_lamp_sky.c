/* Light in the dark and the sky, measured on headless pictures of the real
 * game: a sealed tunnel under the hills lit by the player's lamp in every
 * mode (and legible without it), a lamp block lighting the walls of a
 * sealed cave, brighter near than far, and dark again once cut out, its
 * window relit to what a whole fill gives; the sky's gradient, the sun's
 * disc where light.sun_yaw/pitch put it, and fog that takes the sky's
 * colour at the horizon. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image.h>

#include "app/app.h"
#include "app/app_emit.h"
#include "app/app_internal.h"
#include "app/app_world.h"
#include "light/emit.h"
#include "ui/bind.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

#include <GLFW/glfw3.h>

#define W 320
#define H 180

static unsigned char *shot(void)
{
    const char *path = "test_lamp_sky.png";
    test_cmd("frames 1; screenshot %s", path);
    int w, h, n;
    unsigned char *px = stbi_load(path, &w, &h, &n, 3);
    assert_non_null(px);
    assert_int_equal(w, W);
    assert_int_equal(h, H);
    /* LAMP_SKY_SHOTS=DIR keeps every picture (DIR/shot_N.png) to look at */
    static int count;
    const char *keep = getenv("LAMP_SKY_SHOTS");
    char to[512];
    snprintf(to, sizeof to, "%s/shot_%02d.png", keep ? keep : ".", count++);
    if (!keep || rename(path, to) != 0) remove(path);
    return px;
}

/* Mean grey (0..1) of [x0, x1) x [y0, y1). */
static double grey(const unsigned char *px, int x0, int y0, int x1, int y1)
{
    double s = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            const unsigned char *p = px + 3 * (y * W + x);
            s += (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]) / 255.0;
        }
    return s / ((double)(x1 - x0) * (y1 - y0));
}

static double central_quarter(const unsigned char *px) { return grey(px, W / 4, H / 4, 3 * W / 4, 3 * H / 4); }

/* Carves (or fills) box [lo, hi) and announces it, as an edit. */
static void set_box(app *a, const int lo[3], const int hi[3], uint8_t m)
{
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++) world_set(a->w, x, y, z, m);
    app_world_edited(a, lo, hi, NULL);
}

static app *open_hills(void)
{
    app_desc d = { .headless = true, .width = W, .height = H };
    app *a = app_create(&d);
    if (!a) fail_msg("no app: a GL context or the assets are missing");
    test_cmd("set world.stream 0; set world.size_x 8; set world.size_y 4; set world.size_z 8; set tool.visible 0; "
        "set render.crosshair 0; set player.fly 1; biome hills");
    assert_non_null(a->w);
    return a;
}

/* The lowest ground over box [x0, x1) x [z0, z1). */
static int lowest_ground(const app *a, int x0, int z0, int x1, int z1)
{
    int low = a->w->sy;
    for (int z = z0; z < z1; z++)
        for (int x = x0; x < x1; x++) {
            int s = world_surface_y(a->w, x, z);
            low = s < low ? s : low;
        }
    return low;
}

/* A sealed straight tunnel 24 voxels long, 3 x 3, well under the hills,
 * seen along its length from one end. */
static void test_tunnel_lamp(void **state)
{
    (void)state;
    app *a = open_hills();
    /* settings that persist, and the lamp's key */
    assert_true(cvar_find("player.lamp")->d.flags & CVAR_ARCHIVE);
    assert_true(cvar_find("view.brightness")->d.flags & CVAR_ARCHIVE);
    assert_string_equal(bind_get(GLFW_KEY_L), "toggle player.lamp");
    const int x0 = 116, z0 = 127, len = 24;
    int y0 = lowest_ground(a, x0 - 2, z0 - 2, x0 + len + 2, z0 + 5) - 14;
    assert_true(y0 > 8);
    set_box(a, (const int[3]){ x0, y0, z0 }, (const int[3]){ x0 + len, y0 + 3, z0 + 3 }, MAT_AIR);
    static const char *modes[] = { "blocks", "smooth", "enhanced" };
    for (int m = 0; m < 3; m++) {
        test_cmd("set render.mode %s; set player.lamp 0; tp 128.5 %d 128.5; look 90 -10", modes[m],
            lowest_ground(a, 126, 126, 131, 131) + 6);
        unsigned char *open = shot();
        double g_open = central_quarter(open);
        test_cmd("tp %d.5 %.2f %d.5; look 90 0", x0, (double)y0 + 0.2, z0 + 1);
        unsigned char *off = shot();
        test_cmd("set player.lamp 1");
        unsigned char *on = shot();
        double g_off = central_quarter(off), g_on = central_quarter(on);
        print_message("%s: open %.3f, tunnel lamp off %.3f, lamp on %.3f (%.0f%% of open)\n", modes[m], g_open, g_off,
                      g_on, 100 * g_on / g_open);
        assert_true(g_on >= 0.25 * g_open);
        assert_true(g_off >= 0.04);
        assert_true(g_off <= g_open);
        assert_true(g_on > 1.5 * g_off);
        free(open), free(off), free(on);
    }
    test_cmd("set player.lamp 0; set render.mode blocks");
    app_destroy(a);
}

/* Pixel of world point p (voxels, global) in the last frame's camera. */
static void project(const app *a, const double p[3], int *px, int *py)
{
    const camera *c = &a->cam;
    vec4 v = { (float)(p[0] - c->origin[0]), (float)(p[1] - c->origin[1]), (float)(p[2] - c->origin[2]), 1.f }, o;
    glm_mat4_mulv((vec4 *)c->viewproj, v, o);
    *px = (int)((o[0] / o[3] * 0.5f + 0.5f) * W);
    *py = (int)((0.5f - o[1] / o[3] * 0.5f) * H);
}

static double patch(const unsigned char *px, int x, int y)
{
    assert_true(x >= 3 && y >= 3 && x < W - 3 && y < H - 3);
    return grey(px, x - 3, y - 3, x + 4, y + 4);
}

/* A lamp on the floor of a sealed cave 33 voxels long: the back wall near
 * it is brighter than the back wall 12 voxels along; cut out, its window
 * is relit to a whole fill's bytes and the wall is as dark near as far. */
static void test_lamp_in_cave(void **state)
{
    (void)state;
    app *a = open_hills();
    const int x0 = 100, z0 = 120, len = 33;
    int y0 = lowest_ground(a, x0 - 2, z0 - 2, x0 + len + 2, z0 + 12) - 16;
    assert_true(y0 > 8);
    set_box(a, (const int[3]){ x0, y0, z0 }, (const int[3]){ x0 + len, y0 + 7, z0 + 9 }, MAT_AIR);
    int lamp[3] = { x0 + 4, y0 + 1, z0 + 7 };
    test_cmd("set tool.size 3; fill lamp %d %d %d", lamp[0], lamp[1], lamp[2]);
    /* the tool's small ball of lamp voxels: one of them is the lamp's place */
    bool found = false;
    for (int z = lamp[2] - 3; z <= lamp[2] + 3 && !found; z++)
        for (int y = lamp[1] - 3; y <= lamp[1] + 3 && !found; y++)
            for (int x = lamp[0] - 3; x <= lamp[0] + 3 && !found; x++)
                if (world_get(a->w, x, y, z) == MAT_LAMP) lamp[0] = x, lamp[1] = y, lamp[2] = z, found = true;
    assert_true(found);
    /* from the cave's front wall, looking at the back wall (z0 + 9) */
    test_cmd("tp %d.5 %d %d.5; look 0 -5", x0 + 10, y0 + 2, z0 + 1);
    test_cmd("look 180 0");
    unsigned char *lit = shot();
    const double near[3] = { lamp[0] + 0.5, y0 + 2.5, z0 + 9 }, far[3] = { lamp[0] + 12.5, y0 + 2.5, z0 + 9 };
    int nx, ny, fx, fy;
    project(a, near, &nx, &ny);
    project(a, far, &fx, &fy);
    double g_near = patch(lit, nx, ny), g_far = patch(lit, fx, fy);
    print_message("cave wall: 4 voxels from the lamp %.3f, 12 voxels %.3f\n", g_near, g_far);
    assert_true(g_near > 1.5 * g_far);
    /* cut it out: the window relit equals a whole fill of the world */
    const int clo[3] = { lamp[0] - 4, lamp[1] - 4, lamp[2] - 4 }, chi[3] = { lamp[0] + 5, lamp[1] + 5, lamp[2] + 5 };
    for (int z = clo[2]; z < chi[2]; z++)
        for (int y = clo[1]; y < chi[1]; y++)
            for (int x = clo[0]; x < chi[0]; x++)
                if (world_get(a->w, x, y, z) == MAT_LAMP) world_set(a->w, x, y, z, MAT_AIR);
    app_world_edited(a, clo, chi, NULL);
    const emit *vol = app_emit_volume(a);
    assert_non_null(vol);
    int sx, sy, sz;
    emit_size(vol, &sx, &sy, &sz);
    emit *whole = emit_create(sx, sy, sz);
    emit_fill_all(whole, a->w);
    assert_true(emit_hash(vol) == emit_hash(whole));
    assert_int_equal(emit_get(vol, lamp[0], lamp[1], lamp[2]), 0);
    emit_destroy(whole);
    unsigned char *dark = shot();
    double d_near = patch(dark, nx, ny), d_far = patch(dark, fx, fy);
    print_message("cut out: near %.3f, far %.3f\n", d_near, d_far);
    assert_true(fabs(d_near - d_far) < 0.3 * g_far + 0.01);
    assert_true(d_near < 0.7 * g_near);
    free(lit), free(dark);
    app_destroy(a);
}

static void mean_rgb(const unsigned char *px, int y0, int y1, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < W; x++)
            for (int k = 0; k < 3; k++) out[k] += px[3 * (y * W + x) + k] / 255.0;
    for (int k = 0; k < 3; k++) out[k] /= (double)W * (y1 - y0);
}

static int bright_pixels(const unsigned char *px, int x0, int y0, int x1, int y1)
{
    int n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < (y1 > H ? H : y1); y++)
        for (int x = x0 < 0 ? 0 : x0; x < (x1 > W ? W : x1); x++) {
            const unsigned char *p = px + 3 * (y * W + x);
            n += p[0] >= 250 && p[1] >= 235; /* the disc's warm white: the sky's red stays under 240 */
        }
    return n;
}

static void test_sky(void **state)
{
    (void)state;
    app *a = open_hills();
    int ground = lowest_ground(a, 126, 126, 131, 131);
    /* the gradient: the top of a view up is another colour than the horizon */
    test_cmd("set light.sun_yaw 125; set light.sun_pitch 50; tp 128.5 %d 128.5; look 300 25", ground + 60);
    unsigned char *up = shot();
    int hx, hy;
    double fwd[3] = { 0, 0, 0 };
    const double eye[3] = { 128.5, ground + 60 + 1.62, 128.5 };
    /* the horizon's row: a point far away at eye height */
    fwd[0] = eye[0] + 1000 * sin(300 * GLM_PI / 180), fwd[1] = eye[1], fwd[2] = eye[2] - 1000 * cos(300 * GLM_PI / 180);
    project(a, fwd, &hx, &hy);
    assert_true(hy > 4 && hy < H - 4);
    double top[3], horizon[3];
    mean_rgb(up, 0, 4, top);
    mean_rgb(up, hy - 3, hy - 1, horizon);
    double dist = fabs(top[0] - horizon[0]) + fabs(top[1] - horizon[1]) + fabs(top[2] - horizon[2]);
    print_message("sky top %.3f %.3f %.3f, horizon %.3f %.3f %.3f\n", top[0], top[1], top[2], horizon[0], horizon[1],
                  horizon[2]);
    assert_true(dist > 0.15);
    assert_true(top[2] > top[0]); /* blue up there */
    /* fog at the far ground (view distance short: full fog well before the
     * horizon) has the sky's colour just above it */
    test_cmd("set view.distance 64; look 300 5");
    unsigned char *fog = shot();
    project(a, fwd, &hx, &hy);
    double below[3], above[3];
    mean_rgb(fog, hy + 2, hy + 4, below);
    mean_rgb(fog, hy - 4, hy - 2, above);
    double fd = fabs(below[0] - above[0]) + fabs(below[1] - above[1]) + fabs(below[2] - above[2]);
    print_message("fogged ground %.3f %.3f %.3f, sky above %.3f %.3f %.3f\n", below[0], below[1], below[2], above[0],
                  above[1], above[2]);
    assert_true(fd < 0.03);
    test_cmd("set view.distance 192");
    /* the sun's disc where the light's sun is, in the middle when looked at,
     * off centre where its direction projects, nowhere when looking away */
    test_cmd("look 125 50");
    unsigned char *at = shot();
    int centre = bright_pixels(at, W / 2 - 3, H / 2 - 3, W / 2 + 4, H / 2 + 4);
    test_cmd("look 110 40");
    unsigned char *off = shot();
    const double sun[3] = { eye[0] + 1000 * sin(125 * GLM_PI / 180) * cos(50 * GLM_PI / 180), eye[1] + 1000 * sin(50 * GLM_PI / 180),
                            eye[2] - 1000 * cos(125 * GLM_PI / 180) * cos(50 * GLM_PI / 180) };
    int sx, sy;
    project(a, sun, &sx, &sy);
    int near_sun = bright_pixels(off, sx - 9, sy - 9, sx + 10, sy + 10), all_off = bright_pixels(off, 0, 0, W, H);
    test_cmd("look 305 40");
    unsigned char *away = shot();
    int away_n = bright_pixels(away, 0, 0, W, H);
    print_message("sun: %d bright at the centre looking at it; %d near (%d, %d) of %d looking beside it; %d looking away\n",
                  centre, near_sun, sx, sy, all_off, away_n);
    assert_true(centre >= 30);
    assert_true(near_sun >= 30 && near_sun * 10 >= all_off * 9);
    assert_int_equal(away_n, 0);
    test_cmd("set light.sun_pitch 20; look 125 20");
    unsigned char *low = shot();
    assert_true(bright_pixels(low, W / 2 - 3, H / 2 - 3, W / 2 + 4, H / 2 + 4) >= 30);
    free(up), free(fog), free(at), free(off), free(away), free(low);
    app_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tunnel_lamp),
        cmocka_unit_test(test_lamp_in_cave),
        cmocka_unit_test(test_sky),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
