/* render.frame.<view>: one headless 1280x720 frame as the player sees it —
 * the real app (app_create), its render mode, the tool's ghost and the
 * crosshair — for each biome's spawn view, inside the taiga canopy and
 * flying high over the desert, the smooth mode's spawn views and the
 * enhanced mode's on the hills; .noghost views without the tool measure the
 * ghost's cost. Triangles and chunks drawn are noted.
 * render.frame.deciduous.bodies: the deciduous spawn view with the trunks of
 * the 50 oaks nearest in front of the player cut, their crowns caught in
 * mid-fall (voxel bodies: target <= 1.5x render.frame.deciduous). */
#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app_bodies.h"
#include "app/app_frame.h"
#include "app/app_world.h"
#include "app/app_internal.h"
#include "app/app_render.h"
#include "app/app_stream.h"
#include "bench.h"
#include "ui/cmd.h"

typedef struct frame_bench {
    app *a;
} frame_bench;

/* A spot inside the forest: the ground column near the centre with the
 * most leaves around it at eye height (deterministic for the seed). */
static void canopy_spot(const world *w, int *bx, int *bz, int *by)
{
    int best = -1;
    *bx = w->sx / 2, *bz = w->sz / 2, *by = world_surface_y(w, *bx, *bz);
    for (int z = w->sz / 2 - 48; z <= w->sz / 2 + 48; z += 4)
        for (int x = w->sx / 2 - 48; x <= w->sx / 2 + 48; x += 4) {
            int y = world_surface_y(w, x, z);
            uint8_t top = world_get(w, x, y, z);
            if (top == MAT_FIR_LEAVES || top == MAT_OAK_LEAVES || top == MAT_FIR_LOG || top == MAT_OAK_LOG) continue;
            int leaves = 0;
            for (int dz = -12; dz <= 12; dz += 2)
                for (int dx = -12; dx <= 12; dx += 2)
                    for (int dy = 1; dy <= 8; dy++) {
                        uint8_t m = world_get(w, x + dx, y + dy, z + dz);
                        leaves += m == MAT_FIR_LEAVES || m == MAT_OAK_LEAVES;
                    }
            if (leaves > best) best = leaves, *bx = x, *bz = z, *by = y;
        }
}

static void *setup_view(const char *script, bool canopy)
{
    app_desc d = { .headless = true, .width = 1280, .height = 720 };
    frame_bench *f = calloc(1, sizeof *f);
    f->a = app_create(&d);
    if (!f->a) {
        bench_skip("no app (GL context or assets missing)");
        free(f);
        return NULL;
    }
    /* STRATA_BENCH_EXEC: more commands after the view's own, to compare
     * settings on the same views ("set render.depth_prepass 0") */
    const char *extra = getenv("STRATA_BENCH_EXEC");
    /* the near field alone, as the views were measured before the far
     * rings; render.frame.hills.far sets them in its script */
    if (cmd_exec("set view.far 0") != 0 || cmd_exec(script) != 0 || (extra && cmd_exec(extra) != 0)) {
        bench_skip("view script failed");
        app_destroy(f->a);
        free(f);
        return NULL;
    }
    if (canopy) {
        int x, y, z;
        canopy_spot(f->a->w, &x, &z, &y);
        char cmd[128];
        snprintf(cmd, sizeof cmd, "tp %d.5 %d %d.5; look 45 0", x, y + 1, z);
        cmd_exec(cmd);
    }
    /* a streamed world generates what a teleport reaches on the workers:
     * the view is timed once it is there (before, the canopy and the high
     * view were timed on an empty sky) */
    if (app_stream(f->a)) cmd_exec("stream wait");
    app_render(f->a); /* meshes everything: the timed frames draw only */
    glFinish();
    return f;
}

static void frame_run(void *s)
{
    frame_bench *f = s;
    double c0 = bench_cpu_ms();
    app_render(f->a);
    glFinish(); /* the frame is done when the rasterizer is */
    bench_note("cpu_ms", bench_cpu_ms() - c0);
    bench_note("triangles", (double)f->a->stats.triangles);
    bench_note("chunks_drawn", f->a->stats.chunks_drawn);
    bench_note("chunks_occluded", f->a->stats.chunks_occluded);
    occlusion_stats os = app_render_occlusion_stats(f->a);
    bench_note("occlusion_read_ms", os.read_ms);
    bench_note("occlusion_tiles_ms", os.tiles_ms);
}

static void frame_teardown(void *s)
{
    frame_bench *f = s;
    if (!f) return;
    app_destroy(f->a);
    free(f);
}

static void *s_hills(void) { return setup_view("biome hills", false); }
static void *s_desert(void) { return setup_view("biome desert", false); }
static void *s_taiga(void) { return setup_view("biome taiga", false); }
static void *s_deciduous(void) { return setup_view("biome deciduous", false); }
static void *s_formula(void) { return setup_view("biome formula", false); }
static void *s_canopy(void) { return setup_view("biome taiga", true); }
/* the same views without the tool: the difference is the ghost's cost */
/* the same view with the far rings to 4 km (target: <= 1.6x render.frame.hills) */
static void *s_hills_far(void) { return setup_view("biome hills; set view.far 4096", false); }
static void *s_hills_ng(void) { return setup_view("biome hills; set tool.visible 0", false); }
static void *s_taiga_ng(void) { return setup_view("biome taiga; set tool.visible 0", false); }
/* smooth mode: the same spawn views as surface nets */
static void *s_smooth_hills(void) { return setup_view("biome hills; set render.mode smooth", false); }
static void *s_smooth_desert(void) { return setup_view("biome desert; set render.mode smooth", false); }
static void *s_smooth_taiga(void) { return setup_view("biome taiga; set render.mode smooth", false); }
static void *s_enhanced_hills(void) { return setup_view("biome hills; set render.mode enhanced", false); }
/* Cuts through the trunks of the `n` oaks nearest in front of the player
 * (one voxel above each trunk's foot), announced as edits. */
static int fell_oaks(app *a, int n)
{
    world *w = a->w;
    float fx = 0.70710678f, fz = -0.70710678f; /* the spawn view's yaw 45 */
    int done = 0;
    for (int r = 2; r < 64 && done < n; r++)
        for (int z = (int)a->pl.pos[2] - r; z <= (int)a->pl.pos[2] + r && done < n; z++)
            for (int x = (int)a->pl.pos[0] - r; x <= (int)a->pl.pos[0] + r && done < n; x++) {
                int dx = x - (int)a->pl.pos[0], dz = z - (int)a->pl.pos[2];
                if ((abs(dx) != r && abs(dz) != r) || (float)dx * fx + (float)dz * fz < (float)r * 0.5f) continue;
                for (int y = 1; y < w->sy - 2; y++) {
                    if (world_get(w, x, y, z) != MAT_OAK_LOG || world_get(w, x, y - 1, z) == MAT_OAK_LOG) continue;
                    world_set(w, x, y + 1, z, MAT_AIR);
                    const int lo[3] = { x, y + 1, z }, hi[3] = { x + 1, y + 2, z + 1 };
                    app_world_edited(a, lo, hi, NULL);
                    done++;
                    break;
                }
            }
    return done;
}

static void *s_bodies(void)
{
    frame_bench *f = setup_view("biome deciduous; set physics.max_bodies 64", false);
    if (!f) return NULL;
    int cut = fell_oaks(f->a, 50);
    cmd_exec("frames 12"); /* cut loose, falling for 0.2 s: caught in mid-air */
    int count, awake;
    long voxels;
    app_bodies_counts(f->a, &count, &awake, &voxels);
    bench_note("trunks_cut", cut);
    bench_note("bodies", count);
    bench_note("body_voxels", (double)voxels);
    app_render(f->a);
    glFinish();
    return f;
}

static void *s_high(void) { return setup_view("biome desert; set player.fly 1; tp 256 200 256; look 45 -45", false); }

static const bench_case frame_cases[] = {
    { "render.frame.hills", s_hills, frame_run, frame_teardown, 10 },
    { "render.frame.hills.far", s_hills_far, frame_run, frame_teardown, 10 },
    { "render.frame.desert", s_desert, frame_run, frame_teardown, 10 },
    { "render.frame.taiga", s_taiga, frame_run, frame_teardown, 10 },
    { "render.frame.deciduous", s_deciduous, frame_run, frame_teardown, 10 },
    { "render.frame.deciduous.bodies", s_bodies, frame_run, frame_teardown, 10 },
    { "render.frame.formula", s_formula, frame_run, frame_teardown, 10 },
    { "render.frame.taiga.canopy", s_canopy, frame_run, frame_teardown, 10 },
    { "render.frame.desert.high", s_high, frame_run, frame_teardown, 10 },
    { "render.frame.hills.noghost", s_hills_ng, frame_run, frame_teardown, 10 },
    { "render.frame.taiga.noghost", s_taiga_ng, frame_run, frame_teardown, 10 },
    { "render.frame.smooth.hills", s_smooth_hills, frame_run, frame_teardown, 10 },
    { "render.frame.smooth.desert", s_smooth_desert, frame_run, frame_teardown, 10 },
    { "render.frame.smooth.taiga", s_smooth_taiga, frame_run, frame_teardown, 10 },
    { "render.frame.enhanced.hills", s_enhanced_hills, frame_run, frame_teardown, 10 },
};
BENCH_REGISTER(frame_cases)
