/* Sound: the synth's recipes (no device), and the real game recorded with
 * OpenAL Soft's wave driver. Each recording is a headless script; the game
 * prints every sound it starts with the device clock (sound.log), and the
 * WAV, on the same clock, must be audible within 50 ms of it and quiet
 * before it. A heavier body lands louder, a farther one quieter, and
 * sound.enable 0 is digital silence. The scenes are placed on ground found
 * in the same world generated here (and checked in the game with probe). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

#include "app/app_sound_bank.h"
#include "audio/synth.h"
#include "core/jobs.h"
#include "voxel/world.h"
#include "worldgen/biomes.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

#define RATE 48000
#define WORLD "set world.stream 0; set world.size_x 4; set world.size_y 4; set world.size_z 4"
/* the onset must be this soon after the frame that started it */
#define ONSET_MS 50.0
#define AUDIBLE 0.01 /* -40 dBFS */
#define BEFORE_MS 150.0 /* the quiet stretch before an event */

/* ---- the synth ---------------------------------------------------------- */

static void test_synth_deterministic_and_levelled(void **state)
{
    (void)state;
    for (int id = 0; id < SOUND_COUNT; id++) {
        const synth_desc *d = sound_recipe(id);
        size_t n = synth_length(d, RATE);
        assert_int_equal(n, (size_t)ceilf(d->duration * RATE));
        float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        assert_int_equal(synth_render(d, RATE, a, n), n);
        assert_int_equal(synth_render(d, RATE, b, n), n);
        assert_memory_equal(a, b, n * sizeof *a);
        float peak = 0;
        size_t first = n; /* first sample at half the peak: the onset */
        for (size_t i = 0; i < n; i++) peak = fmaxf(peak, fabsf(a[i]));
        for (size_t i = 0; i < n && first == n; i++)
            if (fabsf(a[i]) >= 0.5f * peak) first = i;
        assert_float_equal(peak, d->level, 1e-4);
        /* heard in the frame of its event */
        assert_true(first < RATE / 100);
        /* and it ends without a click */
        assert_true(fabsf(a[n - 1]) < 1e-3f);
        free(a);
        free(b);
    }
}

/* Sign changes a second: how bright a sound is. */
static double crossings(sound_id id)
{
    const synth_desc *d = sound_recipe(id);
    size_t n = synth_length(d, RATE);
    float *a = malloc(n * sizeof *a);
    synth_render(d, RATE, a, n);
    long c = 0;
    for (size_t i = 1; i < n; i++) c += (a[i - 1] < 0) != (a[i] < 0);
    free(a);
    return (double)c / d->duration;
}

static void test_synth_colours(void **state)
{
    (void)state;
    /* sand hisses, a landing booms, a cut into rock is brighter than into soil */
    assert_true(crossings(SOUND_CUT + SOUND_CLASS_SAND) > 3 * crossings(SOUND_IMPACT));
    assert_true(crossings(SOUND_CUT + SOUND_CLASS_ROCK) > crossings(SOUND_CUT + SOUND_CLASS_SOIL));
    assert_true(crossings(SOUND_CRASH) > crossings(SOUND_IMPACT));
    /* a different seed is a different sound of the same recipe */
    synth_desc d = *sound_recipe(SOUND_CUT);
    size_t n = synth_length(&d, RATE);
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    synth_render(&d, RATE, a, n);
    d.seed++;
    synth_render(&d, RATE, b, n);
    assert_memory_not_equal(a, b, n * sizeof *a);
    free(a);
    free(b);
    for (int id = 0; id < SOUND_COUNT; id++) assert_int_equal(sound_find(sound_name(id)), id);
    assert_int_equal(sound_find("no.such"), -1);
}

/* ---- recordings --------------------------------------------------------- */

typedef struct wav {
    int16_t *s; /* interleaved */
    long frames;
    int channels, rate;
} wav;

static uint32_t le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* A 16-bit PCM WAV (plain or WAVE_FORMAT_EXTENSIBLE, as the wave driver
 * writes it). The data chunk's size is taken from the file when the
 * header says more. */
static bool wav_read(const char *path, wav *w)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc((size_t)len);
    bool ok = d && fread(d, 1, (size_t)len, f) == (size_t)len && len > 12 && memcmp(d, "RIFF", 4) == 0;
    fclose(f);
    int bits = 0;
    memset(w, 0, sizeof *w);
    for (long i = 12; ok && i + 8 <= len;) {
        uint32_t size = le32(d + i + 4);
        if (memcmp(d + i, "fmt ", 4) == 0 && i + 24 <= len) {
            w->channels = d[i + 10] | d[i + 11] << 8;
            w->rate = (int)le32(d + i + 12);
            bits = d[i + 22] | d[i + 23] << 8;
        } else if (memcmp(d + i, "data", 4) == 0) {
            long avail = len - (i + 8);
            long bytes = size > (uint32_t)avail ? avail : (long)size;
            if (bits != 16 || w->channels < 1) break;
            w->frames = bytes / (2 * w->channels);
            w->s = malloc((size_t)(w->frames * w->channels) * sizeof *w->s);
            memcpy(w->s, d + i + 8, (size_t)(w->frames * w->channels) * sizeof *w->s);
            break;
        }
        i += 8 + (long)size + (size & 1);
    }
    free(d);
    return w->s != NULL;
}

/* The loudest sample of any channel in [t0, t1) ms, full scale 1. */
static double wav_peak(const wav *w, double t0, double t1)
{
    long a = (long)(t0 * w->rate / 1000.0), b = (long)(t1 * w->rate / 1000.0);
    if (a < 0) a = 0;
    if (b > w->frames) b = w->frames;
    int peak = 0;
    for (long i = a * w->channels; i < b * w->channels; i++) peak = abs(w->s[i]) > peak ? abs(w->s[i]) : peak;
    return peak / 32768.0;
}

typedef struct event {
    char name[32];
    double ms, gain, dist;
    long frame;
} event;

typedef struct run {
    char dir[64], wavpath[128], outpath[128];
    event ev[256];
    int count;
    wav w;
    char *out; /* the whole stdout and stderr */
} run;

/* Runs the game headless on `script` with the wave driver writing into
 * the run's folder; reads its sound events and the recording. */
static void run_game(run *r, const char *script)
{
    memset(r, 0, sizeof *r);
    strcpy(r->dir, "/tmp/strata-sound-XXXXXX");
    assert_non_null(mkdtemp(r->dir));
    char conf[128];
    snprintf(conf, sizeof conf, "%s/alsoft.conf", r->dir);
    snprintf(r->wavpath, sizeof r->wavpath, "%s/out.wav", r->dir);
    snprintf(r->outpath, sizeof r->outpath, "%s/out.txt", r->dir);
    FILE *f = fopen(conf, "w");
    assert_non_null(f);
    fprintf(f, "[general]\nchannels=stereo\nsample-type=int16\nfrequency=%d\nhrtf=false\ndither=false\n[wave]\nfile=%s\n", RATE,
            r->wavpath);
    fclose(f);
    setenv("ALSOFT_CONF", conf, 1);
    setenv("ALSOFT_DRIVERS", "wave", 1);
    /* the game makes a GL context: Mesa's driver leaks what LeakSanitizer
     * cannot name (tests/CMakeLists.txt) */
    setenv("ASAN_OPTIONS", "detect_leaks=0", 0);
    size_t cap = strlen(script) + 1024;
    char *cmd = malloc(cap);
    snprintf(cmd, cap, "'%s/strata' --headless --width 256 --height 144 --exec '%s' > '%s' 2>&1", STRATA_BINARY_DIR,
             script, r->outpath);
    int rc = system(cmd);
    free(cmd);
    f = fopen(r->outpath, "r");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    r->out = calloc(1, (size_t)len + 1);
    assert_int_equal(fread(r->out, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    if (rc != 0) print_message("%s\n", r->out);
    assert_int_equal(rc, 0);
    for (char *line = r->out; line && *line && r->count < 256; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        event *e = &r->ev[r->count];
        if (sscanf(line, "sound.%31[^=]=clock_ms %lf gain %lf distance %lf frame %ld", e->name, &e->ms, &e->gain,
                   &e->dist, &e->frame) == 5)
            r->count++;
    }
    if (!wav_read(r->wavpath, &r->w)) print_message("no recording at %s:\n%s\n", r->wavpath, r->out);
    assert_non_null(r->w.s);
    assert_int_equal(r->w.rate, RATE);
}

static void run_free(run *r)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", r->dir);
    assert_int_equal(system(cmd), 0);
    free(r->w.s);
    free(r->out);
}

/* The first event whose name starts with `prefix` at or after index from. */
static const event *find_event(const run *r, const char *prefix, int from)
{
    for (int i = from; i < r->count; i++)
        if (strncmp(r->ev[i].name, prefix, strlen(prefix)) == 0) return &r->ev[i];
    return NULL;
}

/* The landing of the ball the fill event `fill` made, falling `fall`
 * voxels from rest at 20 voxels / s^2: the impact nearest the frame free
 * fall says, which must be within 3 frames (50 ms) of it. (A ball that
 * rolls on lands again later, more softly.) */
static const event *landing_of(const run *r, const event *fill, double fall)
{
    const double at = (double)fill->frame + 1.0 + sqrt(2.0 * fall / 20.0) * 60.0; /* +1: cut loose the next frame */
    const event *best = NULL;
    for (const event *e = find_event(r, "impact", (int)(fill - r->ev)); e; e = find_event(r, "impact", (int)(e - r->ev) + 1))
        if (!best || fabs((double)e->frame - at) < fabs((double)best->frame - at)) best = e;
    assert_non_null(best);
    print_message("landing at frame %ld, free fall says %.1f\n", best->frame, at);
    assert_true(fabs((double)best->frame - at) <= 3.0);
    return best;
}

/* Heard within ONSET_MS of its frame (a peak of `audible` at least), over
 * a quiet stretch before it. Returns its peak there. */
static double check_onset(const run *r, const event *e, double audible)
{
    double on = wav_peak(&r->w, e->ms, e->ms + ONSET_MS);
    /* quiet before it: unless another sound (played as low as 0.6 of its
     * pitch: longer) still rang there */
    bool alone = true;
    for (int i = 0; i < r->count; i++) {
        const event *o = &r->ev[i];
        int id = sound_find(o->name);
        double ring = id >= 0 ? 1000.0 * sound_recipe(id)->duration / 0.6 : 3000.0;
        if (o != e && o->ms <= e->ms && o->ms + ring > e->ms - BEFORE_MS) alone = false;
    }
    double before = wav_peak(&r->w, e->ms - BEFORE_MS, e->ms - 5);
    print_message("%-12s at %8.1f ms (frame %ld, %.1f voxels): peak %.4f in its first %.0f ms, %.4f before\n",
                  e->name, e->ms, e->frame, e->dist, on, ONSET_MS, before);
    assert_true(on >= audible);
    if (alone) assert_true(before < on / 4);
    return on;
}

/* The hills world of the script (4 x 4 x 4 chunks, seed 1): the top of a
 * column, the first air above the ground. */
static world *hills_world(void)
{
    terrain_register();
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(4, 4, 4);
    assert_true(worldgen_generate(w, &terrain_hills, 1, jobs));
    job_pool_destroy(jobs);
    return w;
}

static int ground(const world *w, int x, int z)
{
    int y = w->sy - 1;
    while (y > 0 && world_get(w, x, y, z) == MAT_AIR) y--;
    return y + 1;
}

/* A stone ball of tool.size `size` dropped from `h` voxels above the
 * ground at (x, z), then frames for it to land. */
static size_t drop(char *s, size_t cap, const world *w, int x, int z, int size, int h)
{
    return (size_t)snprintf(s, cap, "set tool.size %d; fill stone %d %d %d; frames 90; sleep 0.5; ", size, x,
                            ground(w, x, z) + h, z);
}

/* A cut, a fill, a walk and a body landing: each heard within 50 ms of the
 * frame it happened in; the landing in the frame physics says it lands. */
static void test_events_heard_at_their_frames(void **state)
{
    (void)state;
    world *w = hills_world();
    const int px = 64, pz = 64;
    char *s = malloc(16384);
    size_t n = (size_t)snprintf(s, 16384,
                                WORLD "; biome hills; set sound.log 1; set tool.size 4; tp %d.5 %d %d.5; look 0 -35; "
                                      "frames 2; sound; sleep 0.4; cut; sleep 0.6; set tool.size 3; fill stone; "
                                      "sleep 0.6; probe %d %d %d; ",
                                px, ground(w, px, pz), pz, px, ground(w, px, pz) - 1, pz + 10);
    /* the walk: a quarter voxel a frame toward +z on the ground (feet placed
     * on each column's top), a pause between frames for the steps to part */
    for (int i = 0; i < 32; i++) {
        double z = pz + 10 + 0.25 * i + 0.5;
        n += (size_t)snprintf(s + n, 16384 - n, "tp %d.5 %d %.2f; frames 1; sleep 0.05; ", px, ground(w, px, (int)z), z);
    }
    n += (size_t)snprintf(s + n, 16384 - n, "sleep 0.6; tp %d.5 %d %d.5; look 0 -20; frames 1; ", px,
                          ground(w, px, pz), pz);
    const int h = 20; /* the ball's centre above the ground: it falls h - 2 (its radius) */
    n += drop(s + n, 16384 - n, w, px, pz - 8, 4, h);
    snprintf(s + n, 16384 - n, "sleep 0.3");
    run r;
    run_game(&r, s);
    assert_non_null(strstr(r.out, "probe=grass")); /* the world here is the game's */
    const event *cut = find_event(&r, "cut.", 0), *fill = find_event(&r, "fill", 0);
    const event *step = find_event(&r, "step.", 0);
    assert_non_null(cut);
    assert_non_null(fill);
    assert_non_null(step);
    check_onset(&r, cut, AUDIBLE);
    check_onset(&r, fill, AUDIBLE);
    int steps = 0;
    for (const event *e = step; e; e = find_event(&r, "step.", (int)(e - r.ev) + 1), steps++) check_onset(&r, e, AUDIBLE);
    /* 8 voxels walked, a step every 1.6 */
    print_message("steps=%d\n", steps);
    assert_true(steps >= 4 && steps <= 6);
    assert_string_equal(step->name, "step.soil"); /* grass */
    /* the landing: the ball's bottom falls h - 2 voxels */
    const event *fill2 = find_event(&r, "fill", (int)(fill - r.ev) + 1);
    assert_non_null(fill2);
    const event *land = landing_of(&r, fill2, h - 2);
    check_onset(&r, land, AUDIBLE);
    run_free(&r);
    free(s);
    world_destroy(w);
}

/* A heavier ball landing is louder; the same ball farther away quieter
 * (inverse distance: 4 / d past 4 voxels). */
static void test_mass_and_distance(void **state)
{
    (void)state;
    world *w = hills_world();
    const int px = 64, pz = 64;
    char s[4096];
    size_t n = (size_t)snprintf(s, sizeof s, WORLD "; biome hills; set sound.log 1; tp %d.5 %d %d.5; look 0 -10; frames 2; ",
                                px, ground(w, px, pz), pz);
    n += drop(s + n, sizeof s - n, w, px - 5, pz - 7, 3, 16);
    n += drop(s + n, sizeof s - n, w, px + 5, pz - 7, 6, 16);   /* mirrored: as far, 8x the mass */
    n += drop(s + n, sizeof s - n, w, px, pz - 40, 3, 16);      /* the first again, far off */
    snprintf(s + n, sizeof s - n, "sleep 0.3");
    run r;
    run_game(&r, s);
    /* each ball's bottom falls 16 - 1.5 (size 3) or 16 - 3 (size 6) voxels */
    const event *f1 = find_event(&r, "fill", 0);
    assert_non_null(f1);
    const event *f2 = find_event(&r, "fill", (int)(f1 - r.ev) + 1);
    assert_non_null(f2);
    const event *f3 = find_event(&r, "fill", (int)(f2 - r.ev) + 1);
    assert_non_null(f3);
    const event *lighter = landing_of(&r, f1, 14.5), *heavy = landing_of(&r, f2, 13), *far = landing_of(&r, f3, 14.5);
    check_onset(&r, lighter, AUDIBLE);
    check_onset(&r, heavy, AUDIBLE);
    check_onset(&r, far, AUDIBLE / 5); /* 40 voxels off */
    /* the peaks of each landing's whole sound */
    double pl = wav_peak(&r.w, lighter->ms, lighter->ms + 400);
    double ph = wav_peak(&r.w, heavy->ms, heavy->ms + 400);
    double pf = wav_peak(&r.w, far->ms, far->ms + 400);
    print_message("lighter %.4f (gain %.3f), heavy %.4f (gain %.3f), far %.4f at %.1f voxels\n", pl, lighter->gain, ph,
                  heavy->gain, pf, far->dist);
    assert_true(ph > 1.5 * pl);
    assert_true(pf < pl / 3);
    run_free(&r);
    world_destroy(w);
}

/* A felled tree: its trunk cut, the crown lands with a crash, heard
 * within 50 ms of the frame it lands in. */
static void test_tree_crash(void **state)
{
    (void)state;
    biomes_register();
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(4, 4, 4);
    assert_true(worldgen_generate(w, worldgen_find("deciduous"), 1, jobs));
    job_pool_destroy(jobs);
    /* the tall trunk nearest the middle: its base, eight logs high at least
     * (the cut takes three: the crown keeps five) */
    int t[3] = { -1, -1, -1 };
    long best = -1;
    for (int z = 32; z < w->sz - 32; z++)
        for (int x = 32; x < w->sx - 32; x++)
            for (int y = 1; y < w->sy - 3; y++)
                if (world_get(w, x, y, z) == MAT_OAK_LOG && world_get(w, x, y - 1, z) != MAT_OAK_LOG &&
                    world_get(w, x, y + 7, z) == MAT_OAK_LOG) {
                    long d = (long)(x - 64) * (x - 64) + (long)(z - 64) * (z - 64);
                    if (best < 0 || d < best) best = d, t[0] = x, t[1] = y, t[2] = z;
                }
    assert_true(best >= 0);
    char s[1024];
    snprintf(s, sizeof s,
             WORLD "; biome deciduous; set sound.log 1; frames 2; probe %d %d %d; set tool.size 3; sleep 0.3; "
                   "cut %d.5 %d.5 %d.5; frames 240; sleep 1.8",
             t[0], t[1] + 1, t[2], t[0], t[1] + 1, t[2]);
    run r;
    run_game(&r, s);
    assert_non_null(strstr(r.out, "probe=oak_log"));
    const event *cut = find_event(&r, "cut.wood", 0), *crash = find_event(&r, "crash", 0);
    assert_non_null(cut);
    assert_non_null(crash);
    check_onset(&r, cut, AUDIBLE);
    check_onset(&r, crash, AUDIBLE);
    run_free(&r);
    world_destroy(w);
}

/* sound.enable 0: nothing is started and the recording is silent from
 * then on, though a cut, a fill and a landing happen. */
static void test_disabled_is_silent(void **state)
{
    (void)state;
    run r;
    run_game(&r, WORLD "; biome hills; set sound.log 1; look 0 -35; frames 2; sound play click; sleep 0.3; "
                       "set sound.enable 0; sound; set tool.size 4; cut; frames 1; fill stone; fill stone 64 90 58; "
                       "frames 120; sleep 1; sound play select");
    assert_int_equal(r.count, 1); /* the click alone */
    check_onset(&r, &r.ev[0], AUDIBLE);
    const char *c = strstr(r.out, "sound_clock_ms=");
    assert_non_null(c);
    double off = atof(c + strlen("sound_clock_ms="));
    double end = 1000.0 * (double)r.w.frames / r.w.rate;
    print_message("off at %.1f ms; recording ends at %.1f ms; peak after: %.6f\n", off, end,
                  wav_peak(&r.w, off + 5, end));
    assert_true(end > off + 1000); /* the device ran on: the cut, fill and landing had their time */
    assert_true(wav_peak(&r.w, off + 5, end) == 0.0);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synth_deterministic_and_levelled),
        cmocka_unit_test(test_synth_colours),
        cmocka_unit_test(test_events_heard_at_their_frames),
        cmocka_unit_test(test_mass_and_distance),
        cmocka_unit_test(test_tree_crash),
        cmocka_unit_test(test_disabled_is_silent),
    };
    if (getenv("TEST_FILTER")) cmocka_set_test_filter(getenv("TEST_FILTER")); /* one test while working on it */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
