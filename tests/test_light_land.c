/* Light arrives with the world: after `biome B` no chunk is drawn lit one
 * way and then another. The real game plays the window's frame loop
 * (step, render; no `frames`, which lands every bake before it draws) with
 * the camera fixed over a small spawn (most of the view arrives while it
 * plays), from `biome B` until the light in view has landed,
 * then `stream wait` (a finite world: its bake's landing) and 60 frames
 * more. Every frame's picture is cut into 16x16 cells; once a cell
 * shows terrain only (not sky, not the bedrock plain at y = 0 where
 * columns are still to come), its mean grey may not change by more than
 * 10 % while it shows the same geometry (its mean eye distance within
 * 2 %; terrain arriving in front of it is new geometry). The HUD's bar
 * for the light must show something left and then nothing. A finite
 * world regenerated as it was is drawn from the first frame, with the
 * light it had, while it bakes again.
 * The far rings are off: where a column is not drawn yet they stand in
 * for it with their own, coarser shading, and what that hand-over changes
 * is the far field's seam (test_far_app), not light landing late.
 * Argument: the biome (default hills). LIGHT_LAND_WAIT=0 runs it with
 * light.wait 0, as before chunks waited for their light: it fails. */
#include "test_support.h"

#include <cglm/cglm.h>
#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/app_frame.h"
#include "app/app_internal.h"
#include "app/app_light.h"
#include "app/app_move.h"
#include "app/app_stream.h"
#include "core/timer.h"
#include "gfx/screenshot.h"
#include "platform/platform.h"
#include "voxel/stream.h"

#define W 256
#define H 144
#define CELL 16
#define CW (W / CELL)
#define CH (H / CELL)

static const char *g_biome = "hills";

typedef struct cell {
    bool ref;
    double grey, dist; /* when it first showed this geometry */
} cell;

typedef struct verdict {
    double worst, from, to; /* the largest change of a cell's grey, from -> to */
    int worst_cell, worst_frame, checked, terrain_cells;
    int first_terrain; /* the first frame with terrain in view */
    bool bar_seen;
    char bar[128]; /* what the bar said first */
} verdict;

/* One frame as the window's loop makes it. */
static void window_frame(app *a)
{
    player_input in;
    app_move_input(a, &in);
    a->script_time += 1.0 / 60.0;
    app_step(a, &in, 1.f / 60.f, a->script_time);
    app_render(a);
    platform_swap(a->plat);
}

static double luma(const uint8_t *p) { return (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]) / 255.0; }

static void sample(app *a, cell *cells, verdict *v, int frame)
{
    static uint8_t px[W * H * 4];
    static float depth[W * H];
    glBindFramebuffer(GL_READ_FRAMEBUFFER, platform_framebuffer(a->plat));
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glReadPixels(0, 0, W, H, GL_DEPTH_COMPONENT, GL_FLOAT, depth);
    mat4 inv;
    glm_mat4_inv(a->cam.viewproj, inv);
    int terrain_cells = 0;
    for (int cy = 0; cy < CH; cy++)
        for (int cx = 0; cx < CW; cx++) {
            int n = 0;
            double g = 0, dist = 0;
            for (int y = cy * CELL; y < (cy + 1) * CELL; y++)
                for (int x = cx * CELL; x < (cx + 1) * CELL; x++) {
                    float d = depth[y * W + x];
                    if (d >= 1.f) continue; /* sky */
                    vec4 ndc = { (x + 0.5f) / W * 2 - 1, (y + 0.5f) / H * 2 - 1, d * 2 - 1, 1 }, p;
                    glm_mat4_mulv(inv, ndc, p);
                    glm_vec4_scale(p, 1.f / p[3], p);
                    if (p[1] + (float)a->cam.origin[1] < 1.f) continue; /* the plain */
                    n++;
                    g += luma(px + 4 * (y * W + x));
                    dist += glm_vec3_distance(p, a->cam.pos);
                }
            if (n < CELL * CELL) continue;
            terrain_cells++;
            g /= n, dist /= n;
            cell *c = &cells[cy * CW + cx];
            if (!c->ref || fabs(dist - c->dist) > 0.02 * c->dist) {
                *c = (cell){ true, g, dist };
                continue;
            }
            double change = fabs(g - c->grey) / fmax(c->grey, 1e-3);
            v->checked++;
            if (change > v->worst)
                v->worst = change, v->from = c->grey, v->to = g, v->worst_cell = cy * CW + cx, v->worst_frame = frame;
        }
    if (terrain_cells > v->terrain_cells) v->terrain_cells = terrain_cells;
    if (terrain_cells && !v->first_terrain) v->first_terrain = frame;
}

/* Something left to light shows on the bar (the whole bake's or the
 * columns'). */
static bool bar_shows(app *a, verdict *v)
{
    const char *label = "lighting world";
    float f = app_light_progress(a);
    if (f < 0) f = app_light_columns_progress(a, &label);
    if (f >= 0 && v && !v->bar_seen) {
        v->bar_seen = true;
        snprintf(v->bar, sizeof v->bar, "%s %.0f %%", label, 100.0 * f);
    }
    return f >= 0;
}

/* Plays the window's loop after `cmd` (a new world) and judges the cells. */
static verdict play(app *a, const char *cmd)
{
    const char *wait = getenv("LIGHT_LAND_WAIT");
    test_cmd("set light.wait %s", wait ? wait : "1");
    app_light_bake_in_background(a, true); /* a finite world too, as in the window */
    test_cmd("%s", cmd);
    assert_non_null(a->w);
    /* above the spawn, looking out over the columns that arrive after it */
    test_cmd("tp %.0f %.0f %.0f; look 120 -30", a->pl.pos[0], a->pl.pos[1] + 48, a->pl.pos[2]);
    bool streamed = app_stream(a) != NULL;
    double pos[3] = { a->pl.pos[0], a->pl.pos[1], a->pl.pos[2] };
    static cell cells[CW * CH];
    memset(cells, 0, sizeof cells);
    verdict v = { 0 };
    uint64_t t0 = timer_ns();
    int frame = 0, settled_at = -1, after = 0;
    /* until the light in view has landed (or 20 s), then `stream wait` and 60 frames */
    while (after < 60) {
        window_frame(a);
        frame++;
        bar_shows(a, &v);
        sample(a, cells, &v, frame);
        const char *keep = getenv("LIGHT_LAND_SHOTS"); /* DIR: the first 12 frames and every 10th, to look at */
        if (keep && (frame <= 12 || frame % 10 == 0)) {
            char path[512], err[128];
            snprintf(path, sizeof path, "%s/%s_%03d.png", keep, g_biome, frame);
            if (!screenshot_write(path, platform_framebuffer(a->plat), W, H, err, sizeof err)) fail_msg("%s", err);
        }
        if (settled_at >= 0) {
            after++;
            continue;
        }
        if (!bar_shows(a, NULL) || timer_ms_since(t0) > 20000) {
            settled_at = frame;
            if (streamed) test_cmd("stream wait");
        }
    }
    for (int k = 0; k < 3; k++) assert_true(fabs(a->pl.pos[k] - pos[k]) < 1e-9); /* the camera stood still */
    printf("light_land %s (%s): light.wait %s, %d frames (in view lit after %d, %.1f s), %d cells compared, "
           "at most %d terrain cells of %d; largest change %.1f %% (cell %d, frame %d: grey %.3f -> %.3f); "
           "the bar first said '%s'\n",
           g_biome, cmd, wait ? wait : "1", frame, settled_at, timer_ms_since(t0) / 1000.0, v.checked, v.terrain_cells,
           CW * CH, 100 * v.worst, v.worst_cell, v.worst_frame, v.from, v.to, v.bar);
    assert_true(v.terrain_cells >= CW * CH / 4); /* the view shows terrain */
    assert_true(v.checked >= 100);
    assert_true(v.worst <= 0.10);
    assert_false(bar_shows(a, NULL));
    return v;
}

static void test_no_chunk_relit_once_drawn(void **state)
{
    app *a = *state;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "biome %s", g_biome);
    verdict v = play(a, cmd);
    assert_true(v.bar_seen); /* something was left to light, then nothing */
}

/* A finite world regenerated as it was keeps its light while it bakes
 * again: drawn from the first frame, never hidden, never changing. */
static void test_regen_keeps_light(void **state)
{
    app *a = *state;
    if (app_stream(a)) skip(); /* a streamed world's regeneration is a new world */
    verdict v = play(a, "regen");
    assert_int_equal(v.first_terrain, 1);
}

static int setup(void **state)
{
    return test_app_setup(state, W, H,
                          "set player.fly 1; set tool.visible 0; set render.crosshair 0; set stream.spawn_radius 32; "
                          "set view.far 0");
}

int main(int argc, char **argv)
{
    if (argc > 1) g_biome = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_chunk_relit_once_drawn),
        cmocka_unit_test(test_regen_keeps_light),
    };
    return cmocka_run_group_tests(tests, setup, test_app_teardown);
}
