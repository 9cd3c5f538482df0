/* render.frame.<view>: one headless 1280x720 frame as the player sees it —
 * the real app (app_create), its render mode, the tool's ghost and the
 * crosshair — for each biome's spawn view, inside the taiga canopy and
 * flying high over the desert, the smooth mode's spawn views and the
 * enhanced mode's on the hills; .noghost views without the tool measure the
 * ghost's cost. Triangles and chunks drawn are noted.
 * render.frame.deciduous.bodies: the deciduous spawn view with the trunks of
 * the 50 oaks nearest in front of the player cut, their crowns caught in
 * mid-fall (voxel bodies: target <= 1.5x render.frame.deciduous).
 * render.lightcost.<view>: what the light's newer features (smooth light,
 * emitters, the sky's gradient and sun) cost a view, frames with them and
 * without alternated in one process, so the machine's drift and the other
 * processes' load fall on both alike (two processes of the same view
 * differ by up to 40 % here). Target: on / off <= 1.15.
 * render.gpucull.<view>: the opaque pass (blocks; smooth and enhanced in
 * their views) culled on the GPU (render.gpu_cull 1, "on") against the
 * depth read back (0, "off"), alternated the same way; draw calls noted
 * each way. */
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
#include "core/timer.h"
#include "ui/cvar.h"
#include "ui/cmd.h"

typedef struct frame_bench {
    app *a;
    GLuint query; /* GL_TIME_ELAPSED of the timed frame */
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
    /* the GPU's own time for the frame's commands (a timer query: on a GPU
     * the wall time hides how much of the frame the CPU alone took) and the
     * main thread's CPU time beside the whole process's */
    if (!f->query) glGenQueries(1, &f->query);
    double c0 = bench_cpu_ms();
    uint64_t m0 = timer_thread_cpu_ns();
    glBeginQuery(GL_TIME_ELAPSED, f->query);
    app_render(f->a);
    glEndQuery(GL_TIME_ELAPSED);
    double main_ms = timer_cpu_ms_since(m0); /* the main thread's alone */
    glFinish(); /* the frame is done when the rasterizer is */
    GLuint64 gpu_ns = 0;
    glGetQueryObjectui64v(f->query, GL_QUERY_RESULT, &gpu_ns);
    bench_note("cpu_ms", bench_cpu_ms() - c0);
    bench_note("main_cpu_ms", main_ms);
    bench_note("gpu_ms", (double)gpu_ns / 1e6);
    bench_note("triangles", (double)f->a->stats.triangles);
    bench_note("chunks_drawn", f->a->stats.chunks_drawn);
    bench_note("chunks_occluded", f->a->stats.chunks_occluded);
    bench_note("draw_calls", f->a->stats.draw_calls);
    bench_note("gpu_waits", f->a->stats.gpu_waits);
    bench_note("gpu_cull", f->a->stats.gpu_cull);
    occlusion_stats os = app_render_occlusion_stats(f->a);
    bench_note("occlusion_read_ms", os.read_ms);
    bench_note("occlusion_tiles_ms", os.tiles_ms);
}

static void frame_teardown(void *s)
{
    frame_bench *f = s;
    if (!f) return;
    if (f->query) glDeleteQueries(1, &f->query);
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

/* ---- render.lightcost.<view> ---- */

enum { COST_PAIRS = 24 };
static const char *const cost_cvars[] = { "light.smooth", "light.emit", "render.sky" };
#define COST_NCVARS (int)(sizeof cost_cvars / sizeof cost_cvars[0])

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* What a paired bench switches: cvars with their "on" values (NULL: as the
 * view has them) and their "off" values. */
typedef struct cost_kind {
    const char *const *cvars, *const *on, *const *off;
    int n;
} cost_kind;
static const char *const cost_off[] = { "0", "0", "0" };
static const cost_kind light_kind = { cost_cvars, NULL, cost_off, COST_NCVARS };
/* render.gpucull.<view>: on the GPU cull (gfx/gpu_cull), off the read-back path */
static const char *const cull_cvars[] = { "render.gpu_cull" }, *const cull_on[] = { "1" };
static const cost_kind cull_kind = { cull_cvars, cull_on, cost_off, 1 };

typedef struct cost_state { char on[COST_NCVARS][32]; } cost_state;

/* The features' "on" values (the view's own where the kind names none). */
static cost_state cost_save(const cost_kind *k)
{
    cost_state c;
    for (int i = 0; i < k->n; i++) {
        const cvar *v = cvar_find(k->cvars[i]);
        snprintf(c.on[i], sizeof c.on[i], "%s", k->on ? k->on[i] : v ? v->str : "0");
    }
    return c;
}

/* The features as saved, or all off. */
static void cost_features(const cost_kind *k, const cost_state *c, bool enable)
{
    for (int i = 0; i < k->n; i++) cvar_set_by_name(k->cvars[i], enable ? c->on[i] : k->off[i]);
}

static double cost_frame(app *a)
{
    uint64_t t0 = timer_ns();
    app_render(a);
    glFinish();
    return timer_ms_since(t0);
}

/* the view drawn once in each state: programs and textures made */
static void pair_warmup(void *s, const cost_kind *k)
{
    frame_bench *f = s;
    cost_state on = cost_save(k);
    cost_features(k, &on, false);
    cost_frame(f->a);
    cost_features(k, &on, true);
    cost_frame(f->a);
}

static void pair_run(void *s, const cost_kind *k)
{
    frame_bench *f = s;
    cost_state on = cost_save(k);
    double t_on[COST_PAIRS], t_off[COST_PAIRS], ratio[COST_PAIRS];
    int calls_on = 0, calls_off = 0;
    /* each pair in an order that alternates, so neither state always
     * follows the switch; one frame after each switch is not timed (a
     * changed state may rebuild a program or a texture once) */
    for (int i = 0; i < COST_PAIRS; i++) {
        bool on_first = i % 2 == 0;
        for (int j = 0; j < 2; j++) {
            bool enable = (j == 0) == on_first;
            cost_features(k, &on, enable);
            app_render(f->a);
            glFinish();
            double ms = cost_frame(f->a);
            if (enable) t_on[i] = ms, calls_on = f->a->stats.draw_calls;
            else t_off[i] = ms, calls_off = f->a->stats.draw_calls;
        }
        ratio[i] = t_on[i] / t_off[i];
    }
    cost_features(k, &on, true);
    qsort(t_on, COST_PAIRS, sizeof *t_on, cmp_double);
    qsort(t_off, COST_PAIRS, sizeof *t_off, cmp_double);
    qsort(ratio, COST_PAIRS, sizeof *ratio, cmp_double);
    bench_note("on_ms", t_on[COST_PAIRS / 2]);
    bench_note("off_ms", t_off[COST_PAIRS / 2]);
    /* the median of the pairs' own ratios: each pair ran within a few
     * frames of each other; p10/p90 show the spread that is left */
    bench_note("ratio", ratio[COST_PAIRS / 2]);
    bench_note("ratio_p10", ratio[COST_PAIRS / 10]);
    bench_note("ratio_p90", ratio[COST_PAIRS * 9 / 10]);
    bench_note("draw_calls_on", calls_on);
    bench_note("draw_calls_off", calls_off);
}

static void cost_warmup(void *s) { pair_warmup(s, &light_kind); }
static void cost_run(void *s) { pair_run(s, &light_kind); }
static void cull_warmup(void *s) { pair_warmup(s, &cull_kind); }
static void cull_run(void *s) { pair_run(s, &cull_kind); }

static const bench_case cost_cases[] = {
    { "render.lightcost.hills", s_hills, cost_run, frame_teardown, 1, cost_warmup },
    { "render.lightcost.desert", s_desert, cost_run, frame_teardown, 1, cost_warmup },
    { "render.lightcost.taiga", s_taiga, cost_run, frame_teardown, 1, cost_warmup },
    { "render.lightcost.deciduous", s_deciduous, cost_run, frame_teardown, 1, cost_warmup },
    { "render.lightcost.formula", s_formula, cost_run, frame_teardown, 1, cost_warmup },
    { "render.lightcost.desert.high", s_high, cost_run, frame_teardown, 1, cost_warmup },
    { "render.lightcost.smooth.hills", s_smooth_hills, cost_run, frame_teardown, 1, cost_warmup },
    { "render.lightcost.smooth.desert", s_smooth_desert, cost_run, frame_teardown, 1, cost_warmup },
    { "render.lightcost.enhanced.hills", s_enhanced_hills, cost_run, frame_teardown, 1, cost_warmup },
};
BENCH_REGISTER(cost_cases)

static const bench_case cull_cases[] = {
    { "render.gpucull.hills", s_hills, cull_run, frame_teardown, 1, cull_warmup },
    { "render.gpucull.desert", s_desert, cull_run, frame_teardown, 1, cull_warmup },
    { "render.gpucull.taiga", s_taiga, cull_run, frame_teardown, 1, cull_warmup },
    { "render.gpucull.deciduous", s_deciduous, cull_run, frame_teardown, 1, cull_warmup },
    { "render.gpucull.formula", s_formula, cull_run, frame_teardown, 1, cull_warmup },
    { "render.gpucull.desert.high", s_high, cull_run, frame_teardown, 1, cull_warmup },
    { "render.gpucull.smooth.hills", s_smooth_hills, cull_run, frame_teardown, 1, cull_warmup },
    { "render.gpucull.smooth.desert", s_smooth_desert, cull_run, frame_teardown, 1, cull_warmup },
    { "render.gpucull.smooth.taiga", s_smooth_taiga, cull_run, frame_teardown, 1, cull_warmup },
    { "render.gpucull.enhanced.hills", s_enhanced_hills, cull_run, frame_teardown, 1, cull_warmup },
};
BENCH_REGISTER(cull_cases)
