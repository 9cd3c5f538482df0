/* The stream's main-thread work a frame is bounded: a flight through the
 * real game, headless, at 100 voxels a second, times each frame's step
 * (app_step: installs, window moves, arrivals, light landings and
 * snapshots, the tool's octree box, every component's on_frame) in the
 * main thread's own CPU time (timer_thread_cpu_ns; the machine is shared,
 * and wall time counts the waits for a core that other threads and
 * processes hold), and asks for no hole (app_stream_holes) in any frame
 * and at most one step in a hundred over 4 ms, or with a stream component's
 * part over 0.5 ms; it says the p95 and the maxima against their 1, 4 and
 * 0.5 ms targets (check).
 *
 * Default suite: 8 s of flight at view.distance 128. `test_stream_step
 * long` (ctest label long): 15 s at 256, the bench's view, in each of the
 * four biomes. */
#include "test_support.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/app.h"
#include "app/app_frame.h"
#include "app/app_internal.h"
#include "app/app_light.h"
#include "app/app_render.h"
#include "app/app_stream.h"
#include "core/timer.h"
#include "ui/cmd.h"

#define W 160
#define H 90
#define SPEED 100.0 /* voxels a second, the bench's */
#define STEP_P95_MS 1.0
#define STEP_MAX_MS 4.0
/* The stream component's own part (installs, window moves, the
 * announcement of arrivals to every component): with columns handed over
 * and the rest deferred to budgets, a small fraction of the step. */
#define STREAM_MAX_MS 0.5

static bool g_long;

typedef struct flight {
    int frames, holes;
    double p50, p95, max;
    double stream_max; /* the stream component's longest on_frame */
    int over, stream_over; /* steps over STEP_MAX_MS; stream parts over STREAM_MAX_MS */
} flight;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Waits until *due + 1/60 s: frames come at most 60 a second of wall
 * time, so the workers get the time a player's machine gives them (an
 * unpaced flight at this small view outruns the generation). */
static void pace(uint64_t *due)
{
    *due += 1000000000ull / 60u;
    uint64_t now = timer_ns();
    if (now >= *due) {
        *due = now;
        return;
    }
    struct timespec t = { 0, (long)(*due - now) };
    nanosleep(&t, NULL);
}

/* Frames along +x from (x0, z) at the flight's speed, the player placed each
 * frame (as the bench flies); the step's CPU time of each into ms[] when
 * it is not NULL (and each component's into comp[c * frames + i] when that
 * is not NULL), and the frames with a hole counted. */
static int fly(app *a, double x0, double z, int frames, double *ms, double *comp)
{
    const player_input none = { 0 };
    int holes = 0;
    uint64_t due = timer_ns();
    for (int i = 0; i < frames; i++) {
        a->pl.pos[0] = x0 + SPEED * (i + 1) / 60.0, a->pl.pos[1] = 110.0, a->pl.pos[2] = z;
        a->pl.yaw = 90.f, a->pl.pitch = -12.f;
        memset(a->pl.vel, 0, sizeof a->pl.vel);
        uint64_t c0 = timer_thread_cpu_ns();
        app_step(a, &none, 1.f / 60.f, a->script_time += 1.0 / 60.0);
        double step = timer_cpu_ms_since(c0);
        app_render(a);
        glFinish(); /* as the bench: the frame drawn before the next step's uploads */
        if (ms) ms[i] = step;
        for (int c = 0; comp && c < a->comps.count; c++) comp[(size_t)c * (size_t)frames + (size_t)i] = a->comps.frame_cpu_ms[c];
        holes += app_stream_holes(a) > 0;
        pace(&due);
    }
    return holes;
}

static flight fly_biome(const char *biome, int distance, double seconds)
{
    app_desc d = { .headless = true, .width = W, .height = H };
    app *a = app_create(&d);
    if (!a) fail_msg("no app: a GL context or the assets are missing");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "set world.stream 1; set player.fly 1; set view.distance %d; biome %s", distance, biome);
    assert_int_equal(cmd_exec(cmd), 0);
    assert_non_null(app_stream(a));
    /* a warm-up flown away from the path (as the bench does): the workers,
     * the light's jobs and the pools start there, not on the timed frames */
    const double away = 20000.0;
    a->pl.pos[0] = 0.5, a->pl.pos[2] = away;
    app_stream_settle(a, 0.5, away, distance);
    fly(a, 0.5, away, 120, NULL, NULL);
    /* the start, whole, then the flight */
    a->pl.pos[0] = 0.5, a->pl.pos[1] = 110.0, a->pl.pos[2] = 0.5;
    app_stream_settle(a, 0.5, 0.5, 1 << 16);
    fly(a, 0.0, 0.5, 10, NULL, NULL);
    flight f = { .frames = (int)(seconds * 60.0) };
    const int nc = a->comps.count;
    double *ms = malloc(sizeof *ms * (size_t)f.frames * (size_t)(nc + 1)), *comp = ms + f.frames;
    assert_non_null(ms);
    f.holes = fly(a, 0.5, 0.5, f.frames, ms, comp);
    qsort(ms, (size_t)f.frames, sizeof *ms, cmp_double);
    f.p50 = ms[f.frames / 2], f.p95 = ms[(int)(f.frames * 0.95)], f.max = ms[f.frames - 1];
    for (int i = 0; i < f.frames; i++) f.over += ms[i] > STEP_MAX_MS;
    /* which parts the step was: each component's p95 and max (those over
     * a twentieth of a millisecond) */
    for (int c = 0; c < nc; c++) {
        double *v = comp + (size_t)c * (size_t)f.frames;
        qsort(v, (size_t)f.frames, sizeof *v, cmp_double);
        if (strcmp(a->comps.c[c]->name, "stream") == 0) {
            f.stream_max = v[f.frames - 1];
            for (int i = 0; i < f.frames; i++) f.stream_over += v[i] > STREAM_MAX_MS;
        }
        if (v[f.frames - 1] >= 0.05)
            printf("  %s: p95 %.3f ms, max %.3f ms\n", a->comps.c[c]->name, v[(int)(f.frames * 0.95)], v[f.frames - 1]);
    }
    free(ms);
    app_destroy(a);
    printf("%s, view %d, %.0f s: step cpu p50 %.3f ms, p95 %.3f ms, max %.3f ms (%d of %d steps over %.0f ms, %d "
           "stream parts over %.1f ms); %d frames with a hole\n",
           biome, distance, seconds, f.p50, f.p95, f.max, f.over, f.frames, STEP_MAX_MS, f.stream_over, STREAM_MAX_MS,
           f.holes);
    return f;
}

/* No hole; at most one step in a hundred over STEP_MAX_MS, and as few
 * stream parts over STREAM_MAX_MS. The p95 and the maxima are said against
 * their targets and not asserted: on the two loaded cores of these
 * machines the budgets' sum (light and block light, what a flight at view
 * 256 needs of them a frame on average) sits at the p95's, and a step that
 * meets a window move or a piece of light on a slow moment spikes (maxima
 * of 2.4-8.7 ms over four biomes' flights, the stream part's up to 3.7 ms,
 * on the slower machines of this kind, with the far rings and without): a
 * maximum is the flight's one worst frame, and a test of it passed or
 * failed with the machine. How often a step spikes is what the player
 * feels, and what a regression (a landing no longer in pieces, a column
 * copied again) multiplies. */
static void check(flight f)
{
#if defined(__SANITIZE_ADDRESS__)
    /* the sanitizers' checks slow every thread several times over: the
     * flight runs for what it touches, its times are not the game's */
    (void)f;
    return;
#endif
    if (f.p95 > STEP_P95_MS) printf("  (step p95 %.3f ms: over its %.1f ms target)\n", f.p95, STEP_P95_MS);
    if (f.max > STEP_MAX_MS) printf("  (step max %.3f ms: over its %.1f ms target)\n", f.max, STEP_MAX_MS);
    if (f.stream_max > STREAM_MAX_MS)
        printf("  (stream part max %.3f ms: over its %.1f ms target)\n", f.stream_max, STREAM_MAX_MS);
    assert_int_equal(f.holes, 0);
    assert_true(f.over <= f.frames / 100);
    assert_true(f.stream_over <= f.frames / 100);
}

static void test_step_bounded_in_flight(void **state)
{
    (void)state;
    if (!g_long) {
        check(fly_biome("hills", 128, 8.0));
        return;
    }
    static const char *const biomes[] = { "hills", "desert", "taiga", "deciduous" };
    flight f[4];
    for (int i = 0; i < 4; i++) f[i] = fly_biome(biomes[i], 256, 15.0); /* all four said, then judged */
    for (int i = 0; i < 4; i++) check(f[i]);
}

int main(int argc, char **argv)
{
    g_long = argc > 1 && strcmp(argv[1], "long") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_bounded_in_flight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
