/* stream.*: the unbounded world, through the real app headless
 * at 1280x720 with view.distance 256.
 * stream.fly.<biome>: a scripted flight at 100 voxels a second (a straight
 *   line, then a wide circle), 60 simulated frames a second for
 *   STRATA_BENCH_FLY_SECONDS (default 60), capped at 60 frames a second
 *   of wall time (pace; paced_frames waited). One run is the whole flight
 *   (the warm-up before it is its first seconds, fly_warmup); its notes
 *   are the frame times (p50, p95, max), the standing frame of the same
 *   biome in the same run (the median of the start's view standing still
 *   before and after the flight) and the ratios to it, holes (frames in which
 *   a chunk column inside 0.75 x view.distance and inside the frustum could
 *   not be drawn: not generated, or a neighbour missing), columns generated
 *   a second, and the process's RSS at the start and the end; quiet_*: the
 *   same ratios over the flight's frames in which the stream was at rest
 *   (no worker CPU, step or meshing to speak of). Then the same standing
 *   frame at four views along the path (standing_path_ms, its own p95 and
 *   max over its median, and the flight's p50 and p95 over it): what the
 *   views cost, and how far their frames spread, with nothing arriving.
 * stream.generate.<biome>: columns a second generated on the two workers,
 *   from an empty window to every column within 256 voxels ready, and
 *   (pipeline_*) with their light and meshes settled after that; `needed`
 *   is what the flight above asks for (flight_needed: the columns that
 *   come within the stream's radius of its path, a second).
 *   cpu_ms_per_column_{gen,light,mesh}: the process's CPU time (all
 *   threads) each stage took, per column: what a stage costs whatever
 *   else loads the machine; the wall rates above also count idle workers.
 * stream.memory: 20 km east in steps of one column, each step's columns
 *   generated before the next (no drawing: this measures the world's
 *   memory, not the renderer's), RSS after 1 km and after 20 km. */
#include <glad/gl.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/app_frame.h"
#include "app/app_internal.h"
#include "app/app_light.h"
#include "app/app_render.h"
#include "app/app_stream.h"
#include "core/rss.h"
#include "bench.h"
#include "core/timer.h"
#include "platform/platform.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

#define FLY_SPEED 100.0 /* voxels a second */
#define FLY_HEIGHT 110.f
#define VIEW_DISTANCE 256

typedef struct stream_bench {
    app *a;
    const char *biome;
} stream_bench;


static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void *setup(const char *biome)
{
    app_desc d = { .headless = true, .width = 1280, .height = 720 };
    stream_bench *b = calloc(1, sizeof *b);
    b->a = app_create(&d);
    if (!b->a) {
        bench_skip("no app (GL context or assets missing)");
        free(b);
        return NULL;
    }
    char script[256];
    snprintf(script, sizeof script,
             "set world.stream 1; set player.fly 1; set view.distance %d; biome %s", VIEW_DISTANCE,
             biome);
    if (cmd_exec(script) != 0 || !app_stream(b->a)) {
        bench_skip("could not make a streamed world");
        app_destroy(b->a);
        free(b);
        return NULL;
    }
    /* STRATA_BENCH_FLY_EXEC: console commands after the world is made, to
     * compare settings within one run ("set stream.pace 0") */
    const char *extra = getenv("STRATA_BENCH_FLY_EXEC");
    if (extra && *extra && cmd_exec(extra) != 0) {
        bench_skip("STRATA_BENCH_FLY_EXEC failed");
        app_destroy(b->a);
        free(b);
        return NULL;
    }
    b->biome = biome;
    return b;
}

static void teardown(void *s)
{
    stream_bench *b = s;
    if (!b) return;
    app_destroy(b->a);
    free(b);
}

/* Where the flight is at time t: east along z = 0.5 for the first half,
 * then a wide circle (radius 800) that leaves the line tangentially. */
static void flight_at(double t, double total, float pos[3], float *yaw)
{
    double half = total * 0.5, r = 800.0;
    if (t <= half) {
        pos[0] = (float)(0.5 + FLY_SPEED * t), pos[2] = 0.5f;
        *yaw = 90.f;
    } else {
        double x0 = 0.5 + FLY_SPEED * half, ang = FLY_SPEED * (t - half) / r; /* radians along the circle */
        /* centre to the right of the heading (+z side): turning clockwise seen from above */
        pos[0] = (float)(x0 + r * sin(ang)), pos[2] = (float)(0.5 + r - r * cos(ang));
        *yaw = (float)(90.0 + ang * (180.0 / 3.14159265358979323846));
    }
    pos[1] = FLY_HEIGHT;
}

/* Where a frame's time went, beside its total: the step (stream, light,
 * physics) and the wait for the chunks meshed and uploaded; the rest is
 * drawing and glFinish. */
typedef struct frame_parts {
    float step_ms, step_cpu_ms, mesh_ms;
    int meshed;
} frame_parts;


static float frame_split(app *a, double now, frame_parts *parts)
{
    const player_input none = { 0 };
    uint64_t t0 = timer_ns(), w0 = job_pool_cpu_ns(a->jobs);
    uint64_t c0 = timer_thread_cpu_ns(); /* a step's wall time less this is time it waited */
    app_step(a, &none, 1.f / 60.f, now);
    double ts = timer_ms_since(t0), tc = timer_cpu_ms_since(c0);
    app_render(a);
    glFinish();
    float ms = (float)timer_ms_since(t0);
    if (parts) *parts = (frame_parts){ (float)ts, (float)tc, a->stats.mesh_ms, a->stats.chunks_meshed };
    if (getenv("STRATA_BENCH_TRACE")) {
        const occlusion_stats os = app_render_occlusion_stats(a);
        fprintf(stderr,
                "frame %.1f ms: step %.1f (cpu %.1f), workers' cpu %.1f, mesh %.1f (%d chunks), %ld triangles, "
                "%d chunks drawn, %d occlusion reads (%.1f + %.1f ms, %d of %d parts hidden), pos %.0f\n",
                ms, ts, tc, (double)(job_pool_cpu_ns(a->jobs) - w0) / 1e6, a->stats.mesh_ms, a->stats.chunks_meshed,
                a->stats.triangles, a->stats.chunks_drawn, os.reads, os.read_ms, os.tiles_ms, os.hidden, os.tested,
                a->pl.pos[0]);
        double rest = tc; /* the step less its components: the player's move and its octree */
        for (int c = 0; c < a->comps.count; c++) { /* the step's dear parts, main-thread CPU */
            rest -= a->comps.frame_cpu_ms[c];
            if (a->comps.frame_cpu_ms[c] >= 0.2f)
                fprintf(stderr, "  step %s %.2f ms cpu\n", a->comps.c[c]->name, (double)a->comps.frame_cpu_ms[c]);
        }
        if (rest >= 0.2) fprintf(stderr, "  step player %.2f ms cpu\n", rest);
    }
    return ms;
}

static float frame(app *a, double now) { return frame_split(a, now, NULL); }

/* A 60 Hz frame limiter: a frame done sooner than 1/60 s after the last
 * one was due waits for that moment; a slower one makes its own end the
 * next frame's start (no burst of frames catching up). The flight is
 * then 100 voxels a second of wall time too, and the workers get the
 * time a player's machine gives them. On llvmpipe a frame takes longer
 * and never waits (the flight then runs slower than real time, kind to
 * the workers); on a GPU, unpaced, it would run many times faster than
 * real time and ask the workers for as much more. The standing frames
 * are paced alike, so a GPU idles between them as it does in flight.
 * *due: when the last frame was due (start: now). Whether this one waited. */
static bool pace(uint64_t *due)
{
    uint64_t now = timer_ns();
    *due += 1000000000ull / 60u;
    if (now >= *due) {
        *due = now;
        return false;
    }
    struct timespec t = { (time_t)((*due - now) / 1000000000ull), (long)((*due - now) % 1000000000ull) };
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
    return true;
}

static double fly_seconds(void)
{
    const char *env = getenv("STRATA_BENCH_FLY_SECONDS");
    double total = env ? atof(env) : 60.0;
    if (!(total >= 1.0 && total <= 3600.0)) {
        fprintf(stderr, "strata-bench: STRATA_BENCH_FLY_SECONDS '%s' is not 1..3600 seconds; flying 60\n", env);
        total = 60.0;
    }
    return total;
}

/* What the flight asks of the pipeline: the columns that come within the
 * stream's radius (stream_set_radius: their nearest point) of the flight
 * at one of its frames and were not within it at the start (the standing
 * frame had those), a second. The path's geometry alone, not a timing. */
static double flight_needed(double total, int radius)
{
    /* the path lies in x [0, the line + the circle's radius], z [0, its diameter] */
    const int pad = radius / CHUNK_SIZE + 2;
    const int x0 = -pad, z0 = -pad, nx = (int)(FLY_SPEED * total * 0.5 + 802.0) / CHUNK_SIZE + 2 * pad;
    const int nz = 1602 / CHUNK_SIZE + 2 * pad;
    unsigned char *seen = calloc((size_t)nx * (size_t)nz, 1);
    if (!seen) return 0;
    long long count = 0;
    int frames = (int)(total * 60.0);
    for (int i = 0; i <= frames; i++) {
        float pos[3], yaw;
        flight_at(i / 60.0, total, pos, &yaw);
        for (int cz = (int)floor((pos[2] - radius) / CHUNK_SIZE); cz <= (int)floor((pos[2] + radius) / CHUNK_SIZE); cz++)
            for (int cx = (int)floor((pos[0] - radius) / CHUNK_SIZE); cx <= (int)floor((pos[0] + radius) / CHUNK_SIZE);
                 cx++) {
                if (stream_column_distance2(cx, cz, pos[0], pos[2]) > (double)radius * radius) continue;
                int ix = cx - x0, iz = cz - z0;
                if (ix < 0 || iz < 0 || ix >= nx || iz >= nz) continue; /* (never: the box holds it) */
                unsigned char *c = &seen[(size_t)iz * (size_t)nx + (size_t)ix];
                if (!*c) *c = 1, count += i > 0;
            }
    }
    free(seen);
    return (double)count / total;
}

/* The player at pos, looking along the flight (yaw) and slightly down. */
static void place(app *a, const float pos[3], float yaw)
{
    for (int k = 0; k < 3; k++) a->pl.pos[k] = pos[k];
    a->pl.yaw = yaw, a->pl.pitch = -12.f;
}

/* The player stands at pos (its view as set) until the disc around it
 * is generated, lit and meshed, so nothing arrives or bakes while the
 * STAND frames are timed into out[], sorted. */
enum { STAND = 120 };
static void stand_still(app *a, const float pos[3], float out[STAND])
{
    stream *st = app_stream(a);
    for (int guard = 0; guard < 100000; guard++) {
        stream_wait(st, pos[0], pos[2], 1 << 16);
        frame(a, a->script_time += 1.0 / 60.0);
        /* after an update here: before one, `wanted` is the disc around
         * wherever the stream last was, which may be all there already */
        stream_stats ss = stream_get_stats(st);
        if (ss.wanted_ready == ss.wanted && ss.in_flight == 0) break;
    }
    /* and lit and meshed: no column baking or meshing (stream.upload_budget
     * spreads it over frames) while the standing frame is timed */
    app_light_settle(a);
    app_render_mesh_dirty(a);
    for (int i = 0; i < 10; i++) frame(a, a->script_time += 1.0 / 60.0); /* meshed, warm */
    uint64_t due = timer_ns();
    for (int i = 0; i < STAND; i++) {
        out[i] = frame(a, a->script_time += 1.0 / 60.0);
        pace(&due);
    }
    qsort(out, STAND, sizeof *out, cmp_float);
}

/* STRATA_BENCH_FLY_TRACE=FILE: each flight frame as a CSV line (frame,
 * ms, step_ms, worker_cpu_ms, then each component's share of the step),
 * appended, for looking at the slow ones. */
static void trace_frames(const float *ms, const float *step_ms, const float *worker_ms, const component_table *ct,
                         const float *comp_ms, int frames)
{
    const char *path = getenv("STRATA_BENCH_FLY_TRACE");
    if (!path || !*path) return;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "strata-bench: cannot write the trace %s\n", path);
        return;
    }
    fprintf(f, "frame,ms,step_ms,worker_cpu_ms");
    for (int c = 0; c < ct->count; c++) fprintf(f, ",%s_ms", ct->c[c]->name);
    fputc('\n', f);
    for (int i = 0; i < frames; i++) {
        fprintf(f, "%d,%.3f,%.3f,%.3f", i, ms[i], step_ms[i], worker_ms[i]);
        for (int c = 0; c < ct->count; c++) fprintf(f, ",%.3f", comp_ms[(size_t)c * (size_t)frames + (size_t)i]);
        fputc('\n', f);
    }
    fclose(f);
}

/* The workers' mean CPU time in the frames at or over the flight's p95
 * (slow) and in the others (rest); ms[] in frame order. */
static void worker_share(const float *ms, const float *worker_ms, int frames, double *slow, double *rest)
{
    float *sorted = malloc(sizeof(float) * (size_t)frames);
    *slow = *rest = 0;
    if (!sorted) return;
    memcpy(sorted, ms, sizeof(float) * (size_t)frames);
    qsort(sorted, (size_t)frames, sizeof *sorted, cmp_float);
    float p95 = sorted[(int)(frames * 0.95)];
    free(sorted);
    int ns = 0, nr = 0;
    for (int i = 0; i < frames; i++) {
        if (ms[i] >= p95) *slow += worker_ms[i], ns++;
        else *rest += worker_ms[i], nr++;
    }
    if (ns) *slow /= ns;
    if (nr) *rest /= nr;
}

/* The flight's quiet frames: the workers took under a millisecond of CPU
 * in them, the step under one and the meshing under a tenth (no column
 * arrived, landed or was built to speak of); their count, p95 and max. */
typedef struct quiet {
    int n;
    float p95, max;
} quiet;

static quiet quiet_frames(const float *ms, const float *step_ms, const float *mesh_ms, const float *worker_ms,
                          int frames)
{
    quiet q = { 0 };
    float *v = malloc(sizeof(float) * (size_t)frames);
    if (!v) return q;
    for (int i = 0; i < frames; i++)
        if (worker_ms[i] < 1.f && step_ms[i] < 1.f && mesh_ms[i] < 0.1f) v[q.n++] = ms[i];
    if (q.n > 0) {
        qsort(v, (size_t)q.n, sizeof *v, cmp_float);
        q.p95 = v[(int)(q.n * 0.95)], q.max = v[q.n - 1];
    }
    free(v);
    return q;
}

/* The harness's untimed first run (bench_case.warmup): the start's
 * stand, which generates, lights and meshes every column around it and
 * compiles the shaders, then the first FLY_WARMUP_S seconds of the
 * flight, which start the workers, the light's column jobs, the landings
 * and the uploads. The whole flight as the warm-up doubled a run of the benches (16
 * minutes for the four biomes on the 2-core machine, more than a GPU
 * machine's lease) and warmed nothing more: the window, and with it the
 * memory the flight uses, is the same size wherever the flight is. It
 * flies FLY_WARMUP_AWAY voxels south of the flight's line, so that the
 * flight, like the one after a whole warm-up flight, finds none of it
 * still in the window (columns near the start would arrive for free). */
#define FLY_WARMUP_S 5.0
#define FLY_WARMUP_AWAY 20000.f

static void fly_warmup(void *s)
{
    stream_bench *b = s;
    app *a = b->a;
    double total = fly_seconds(), warm = total < FLY_WARMUP_S ? total : FLY_WARMUP_S;
    float pos[3], yaw, stand[STAND];
    flight_at(0, total, pos, &yaw);
    pos[2] += FLY_WARMUP_AWAY;
    place(a, pos, yaw);
    stand_still(a, pos, stand);
    uint64_t due = timer_ns();
    for (int i = 0, n = (int)(warm * 60.0); i < n; i++) {
        flight_at((i + 1) / 60.0, total, pos, &yaw);
        pos[2] += FLY_WARMUP_AWAY;
        place(a, pos, yaw);
        memset(a->pl.vel, 0, sizeof a->pl.vel);
        frame(a, a->script_time += 1.0 / 60.0);
        pace(&due);
    }
}

static void fly_run(void *s)
{
    stream_bench *b = s;
    app *a = b->a;
    double total = fly_seconds();
    int frames = (int)(total * 60.0);

    /* standing: at the start, everything in view there, the same view */
    float pos[3], yaw;
    flight_at(0, total, pos, &yaw);
    place(a, pos, yaw);
    /* 120 frames, 2 s: standing frames alone spread by a quarter from one
     * to the next on llvmpipe, so 30 left the median, every ratio's
     * divisor, a few percent adrift; their own p95 and max say what the
     * flight's would be with nothing arriving. As many again at the same
     * view after the flight (below): the machine's own speed drifts by
     * a tenth over the minutes a flight takes (the start's standing
     * frame measured 16.1 to 19.2 ms in desert flights of one session),
     * and the flight's frames lie between the two. */
    float stand[2 * STAND];
    stand_still(a, pos, stand);
    const float before = stand[STAND / 2];

    long rss0 = rss_kib();
    long long gen0 = stream_get_stats(app_stream(a)).generated;
    float *ms = malloc(sizeof(float) * (size_t)frames * 5);
    if (!ms) {
        bench_skip("no memory for the frame times");
        return;
    }
    float *step_ms = ms + frames, *mesh_ms = ms + 2 * frames, *step_cpu = ms + 3 * frames;
    float *worker_ms = ms + 4 * frames; /* the workers' CPU time during each frame (job_pool_cpu_ns) */
    /* each component's share of each step (component_table.frame_ms) */
    const component_table *ct = &a->comps;
    float *comp_ms = malloc(sizeof(float) * (size_t)frames * (size_t)ct->count);
    if (!comp_ms) {
        free(ms);
        bench_skip("no memory for the frame times");
        return;
    }
    long long meshed = 0;
    int hole_frames = 0, hole_max = 0, paced = 0;
    uint64_t t0 = timer_ns(), due = t0;
    for (int i = 0; i < frames; i++) {
        flight_at((i + 1) / 60.0, total, pos, &yaw);
        place(a, pos, yaw);
        memset(a->pl.vel, 0, sizeof a->pl.vel);
        frame_parts parts;
        uint64_t w0 = job_pool_cpu_ns(a->jobs);
        ms[i] = frame_split(a, a->script_time += 1.0 / 60.0, &parts);
        worker_ms[i] = (float)((double)(job_pool_cpu_ns(a->jobs) - w0) / 1e6);
        step_ms[i] = parts.step_ms, step_cpu[i] = parts.step_cpu_ms, mesh_ms[i] = parts.mesh_ms;
        for (int c = 0; c < ct->count; c++) comp_ms[(size_t)c * (size_t)frames + (size_t)i] = ct->frame_cpu_ms[c];
        meshed += parts.meshed;
        int h = app_stream_holes(a);
        hole_frames += h > 0;
        if (h > hole_max) hole_max = h;
        paced += pace(&due);
    }
    double wall_s = timer_ms_since(t0) / 1000.0;
    trace_frames(ms, step_ms, worker_ms, ct, comp_ms, frames);
    double worker_slow, worker_rest;
    worker_share(ms, worker_ms, frames, &worker_slow, &worker_rest);
    quiet q = quiet_frames(ms, step_ms, mesh_ms, worker_ms, frames);
    long long generated = stream_get_stats(app_stream(a)).generated - gen0;
    long rss1 = rss_kib();
    /* the start's view again: its columns generated anew (the flight
     * left them), then the same standing frames; the divisor is the
     * median of both sets */
    flight_at(0, total, pos, &yaw);
    place(a, pos, yaw);
    stand_still(a, pos, stand + STAND);
    const float after = stand[STAND + STAND / 2];
    qsort(stand, 2 * STAND, sizeof *stand, cmp_float);
    const float standing = stand[STAND];
    qsort(ms, (size_t)frames, sizeof *ms, cmp_float);
    qsort(step_ms, (size_t)frames, sizeof *ms, cmp_float);
    qsort(mesh_ms, (size_t)frames, sizeof *ms, cmp_float);
    qsort(step_cpu, (size_t)frames, sizeof *ms, cmp_float);
    qsort(worker_ms, (size_t)frames, sizeof *ms, cmp_float);
    float p50 = ms[frames / 2], p95 = ms[(int)(frames * 0.95)], mx = ms[frames - 1];
    float step_p95 = step_ms[(int)(frames * 0.95)], mesh_p50 = mesh_ms[frames / 2];
    float step_p50 = step_ms[frames / 2], step_cpu_p95 = step_cpu[(int)(frames * 0.95)];
    float step_cpu_p50 = step_cpu[frames / 2], step_cpu_max = step_cpu[frames - 1];
    float mesh_p95 = mesh_ms[(int)(frames * 0.95)];
    float worker_p50 = worker_ms[frames / 2], worker_p95 = worker_ms[(int)(frames * 0.95)];
    free(ms);
    bench_note("frames", frames);
    bench_note("view_far", cvar_float("view.far", 0.f)); /* the far rings flown with (0: none) */
    bench_note("standing_ms", standing);
    bench_note("standing_before_ms", before);
    bench_note("standing_after_ms", after);
    bench_note("standing_p95_ms", stand[(int)(2 * STAND * 0.95)]);
    bench_note("standing_max_ms", stand[2 * STAND - 1]);
    bench_note("p50_ms", p50);
    bench_note("p95_ms", p95);
    bench_note("max_ms", mx);
    bench_note("p95_ratio", p95 / standing);
    bench_note("max_ratio", mx / standing);
    /* the frame's parts on the main thread (frame_parts), to tell arriving
     * columns' meshing from the drawing */
    /* step_*: the main thread's CPU time in the step (the targets': the
     * machine is shared, and wall time counts the waits for a core);
     * step_wall_*: its wall time */
    bench_note("step_p50_ms", step_cpu_p50);
    bench_note("step_p95_ms", step_cpu_p95);
    bench_note("step_max_ms", step_cpu_max);
    bench_note("step_cpu_p95_ms", step_cpu_p95);
    bench_note("step_wall_p50_ms", step_p50);
    bench_note("step_wall_p95_ms", step_p95);
    /* which components the slow steps were: each one's CPU p95 (those
     * that ever take a hundredth of a millisecond) and its max (those
     * that reach half a millisecond) */
    for (int c = 0; c < ct->count; c++) {
        float *v = comp_ms + (size_t)c * (size_t)frames;
        qsort(v, (size_t)frames, sizeof *v, cmp_float);
        static char keys[COMPONENT_MAX][2][64]; /* bench_note keeps the key's pointer */
        snprintf(keys[c][0], sizeof keys[c][0], "step_%s_p95_ms", ct->c[c]->name);
        snprintf(keys[c][1], sizeof keys[c][1], "step_%s_max_ms", ct->c[c]->name);
        if (v[(int)(frames * 0.95)] >= 0.01f) bench_note(keys[c][0], v[(int)(frames * 0.95)]);
        if (v[frames - 1] >= 0.5f) bench_note(keys[c][1], v[frames - 1]);
    }
    free(comp_ms);
    /* the workers' CPU time a frame, and in the frames at or over the p95
     * against the rest: whether the slow frames are the ones the workers
     * shared the cores with */
    bench_note("worker_cpu_p50_ms", worker_p50);
    bench_note("worker_cpu_p95_ms", worker_p95);
    bench_note("worker_cpu_slow_ms", worker_slow);
    bench_note("worker_cpu_rest_ms", worker_rest);
    /* the flight's frames in which nothing arrived, was built or landed
     * (quiet_frames): their ratios are what the views and the machine give
     * the flight with the stream at rest */
    bench_note("quiet_frames", q.n);
    if (q.n > 0) {
        bench_note("quiet_p95_ratio", q.p95 / standing);
        bench_note("quiet_max_ratio", q.max / standing);
    }
    bench_note("mesh_p50_ms", mesh_p50);
    bench_note("mesh_p95_ms", mesh_p95);
    bench_note("meshed_per_frame", (double)meshed / frames);
    bench_note("paced_frames", paced);
    bench_note("holes", hole_frames);
    bench_note("hole_columns_max", hole_max);
    bench_note("columns_generated", (double)generated);
    bench_note("columns_per_s_wall", (double)generated / wall_s);
    bench_note("columns_per_s_sim", (double)generated / total);
    bench_note("columns_per_s_needed", flight_needed(total, app_stream_radius(a)));
    bench_note("rss_start_kib", (double)rss0);
    bench_note("rss_end_kib", (double)rss1);
    /* The standing frame is the start's view, one of the flight's many: the
     * flight's frames may cost more or less than it with nothing arriving
     * at all. So the same standing frames at four views along the path (a
     * quarter, half, three quarters and the end of it), their median: how
     * much of the ratios is what the views show rather than what arrives.
     * A note beside the ratios, which stay the targets' (to the start). */
    enum { VIEWS = 4 };
    float *path = malloc(sizeof(float) * VIEWS * STAND);
    if (!path) return;
    for (int k = 0; k < VIEWS; k++) {
        flight_at(total * (k + 1) / VIEWS, total, pos, &yaw);
        place(a, pos, yaw);
        stand_still(a, pos, path + k * STAND);
    }
    qsort(path, VIEWS * STAND, sizeof *path, cmp_float);
    float along = path[VIEWS * STAND / 2];
    /* and their own spread: what the same views' p95 and max are with
     * nothing arriving, the floor under the flight's ratios */
    float along_p95 = path[(int)(VIEWS * STAND * 0.95)], along_max = path[VIEWS * STAND - 1];
    free(path);
    bench_note("standing_path_ms", along);
    bench_note("standing_path_p95_ratio", along_p95 / along);
    bench_note("standing_path_max_ratio", along_max / along);
    bench_note("p50_path_ratio", p50 / along);
    bench_note("p95_path_ratio", p95 / along);
}

static void generate_run(void *s)
{
    stream_bench *b = s;
    app *a = b->a;
    /* a fresh window far from anything generated so far: every column new */
    static int far = 0;
    far += 100000;
    /* no frame: the workers would generate while it renders, untimed */
    a->pl.pos[0] = (float)far + 0.5f, a->pl.pos[1] = FLY_HEIGHT, a->pl.pos[2] = 0.5f;
    long long g0 = stream_get_stats(app_stream(a)).generated;
    uint64_t t0 = timer_ns();
    double c0 = bench_cpu_ms();
    stream_wait(app_stream(a), a->pl.pos[0], a->pl.pos[2], VIEW_DISTANCE);
    double s_wall = timer_ms_since(t0) / 1000.0, c1 = bench_cpu_ms();
    long long n = stream_get_stats(app_stream(a)).generated - g0;
    /* the rest of the pipeline, stage by stage as `stream wait` runs it:
     * the columns announced and lit on the workers (lit_*), then meshed
     * (pipeline_*); after generation, not beside it as in play, so these
     * rates are floors */
    uint64_t t1 = timer_ns();
    app_stream_announce(a);
    app_light_settle(a);
    double s_lit = s_wall + timer_ms_since(t1) / 1000.0, c2 = bench_cpu_ms();
    app_render_mesh_dirty(a);
    double s_all = s_wall + timer_ms_since(t1) / 1000.0, c3 = bench_cpu_ms();
    /* the flight's columns a second: the stream's disc around the eye */
    double needed = flight_needed(fly_seconds(), app_stream_radius(a));
    bench_note("columns", (double)n);
    bench_note("columns_per_s", (double)n / s_wall);
    bench_note("needed_per_s", needed);
    bench_note("ratio_to_needed", (double)n / s_wall / needed);
    bench_note("lit_columns_per_s", (double)n / s_lit);
    bench_note("lit_ratio_to_needed", (double)n / s_lit / needed);
    bench_note("pipeline_columns_per_s", (double)n / s_all);
    bench_note("pipeline_ratio_to_needed", (double)n / s_all / needed);
    bench_note("cpu_ms_per_column_gen", (c1 - c0) / (double)n);
    bench_note("cpu_ms_per_column_light", (c2 - c1) / (double)n);
    bench_note("cpu_ms_per_column_mesh", (c3 - c2) / (double)n);
    /* The pipeline as `stream wait` runs it (app_stream_settle), in a second
     * fresh window: from the move to an empty window until every column
     * within the view distance is generated and every column installed is
     * announced, lit (its light column baked and landed) and meshed, with
     * the stages overlapped as in play: between the polls for generation,
     * the installed columns are lit and meshed beside it. All of that work
     * is timed, the window's move and the uploads of meshes and light
     * included (as above); only no frame is drawn. */
    a->pl.pos[0] = (float)far + 50000.5f;
    long long g1 = stream_get_stats(app_stream(a)).generated;
    uint64_t t2 = timer_ns();
    double c4 = bench_cpu_ms();
    app_stream_settle(a, a->pl.pos[0], a->pl.pos[2], VIEW_DISTANCE);
    double s_over = timer_ms_since(t2) / 1000.0, c5 = bench_cpu_ms();
    long long m = stream_get_stats(app_stream(a)).generated - g1;
    bench_note("overlapped_columns", (double)m);
    bench_note("overlapped_columns_per_s", (double)m / s_over);
    bench_note("overlapped_ratio_to_needed", (double)m / s_over / needed);
    bench_note("cpu_ms_per_column_overlapped", (c5 - c4) / (double)m);
}

static void memory_run(void *s)
{
    stream_bench *b = s;
    app *a = b->a;
    stream *st = app_stream(a);
    long at1 = 0;
    uint64_t t0 = timer_ns();
    for (int x = 0; x <= 20000; x += CHUNK_SIZE) {
        a->pl.pos[0] = (float)x + 0.5f, a->pl.pos[2] = 0.5f;
        stream_wait(st, a->pl.pos[0], a->pl.pos[2], VIEW_DISTANCE);
        int cx[256], cz[256];
        while (stream_take_arrived(st, cx, cz, 256) > 0) {} /* nobody draws them */
        if (x / CHUNK_SIZE == 1000 / CHUNK_SIZE) at1 = rss_kib();
    }
    long at20 = rss_kib();
    bench_note("rss_1km_kib", (double)at1);
    bench_note("rss_20km_kib", (double)at20);
    bench_note("growth", (double)at20 / (double)at1 - 1.0);
    bench_note("columns", (double)stream_get_stats(st).generated);
    bench_note("seconds", timer_ms_since(t0) / 1000.0);
}

static void *s_fly_hills(void) { return setup("hills"); }
static void *s_fly_desert(void) { return setup("desert"); }
static void *s_fly_taiga(void) { return setup("taiga"); }
static void *s_fly_deciduous(void) { return setup("deciduous"); }

static const bench_case stream_cases[] = {
    { "stream.fly.hills", s_fly_hills, fly_run, teardown, 1, fly_warmup },
    { "stream.fly.desert", s_fly_desert, fly_run, teardown, 1, fly_warmup },
    { "stream.fly.taiga", s_fly_taiga, fly_run, teardown, 1, fly_warmup },
    { "stream.fly.deciduous", s_fly_deciduous, fly_run, teardown, 1, fly_warmup },
    { "stream.generate.hills", s_fly_hills, generate_run, teardown, 3 },
    { "stream.generate.desert", s_fly_desert, generate_run, teardown, 3 },
    { "stream.generate.taiga", s_fly_taiga, generate_run, teardown, 3 },
    { "stream.generate.deciduous", s_fly_deciduous, generate_run, teardown, 3 },
    { "stream.memory.deciduous", s_fly_deciduous, memory_run, teardown, 1 },
};
BENCH_REGISTER(stream_cases)
