/* app_sound: events to sounds. A cut or a fill is an edit from the tool
 * (on_edit); steps come from the distance the feet travel on the ground and
 * landings from the bodies' fall speed (on_frame, after the player and the
 * bodies moved). The device opens on the first frame or sound (headless:
 * only when ALSOFT_DRIVERS names a driver) and the bank is synthesised then. */
#include "app_sound.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app_bodies.h"
#include "app_internal.h"
#include "app_sound_bank.h"
#include "app_tool.h"
#include "audio/audio.h"
#include "core/log.h"
#include "physics/bodies.h"
#include "platform/platform.h"
#include "play/tool.h"
#include "ui/cmd.h"

/* Distance attenuation (voxels): full gain within 4, half at 8, a quarter
 * at 16; no quieter past 192 (the default view distance). */
#define SOUND_REF_DISTANCE 4.f
#define SOUND_MAX_DISTANCE 192.f
/* A cut or fill sound starts at most this often (game time, seconds): a
 * held cut eats every frame, and a buzz of starts would be noise. Landings
 * and steps are events of their own, each heard. */
#define SOUND_REPEAT_S 0.07
/* Voxels the feet travel on the ground between two steps. */
#define SOUND_STRIDE 1.6
/* A move longer than this in one frame is not walking (tp, a respawn). */
#define SOUND_MAX_WALK_FRAME 1.0
/* A body falling faster than this (voxels / s) that loses half its fall
 * speed in a frame has landed. */
#define SOUND_LAND_SPEED 2.f
/* Impulse (mass x speed lost) of a landing at full gain: a stone ball of
 * the default tool size (about 700 mass) landing at 30 voxels / s. */
#define SOUND_FULL_IMPULSE 20000.f
/* Wood voxels that make a falling body a tree (its landing crashes). */
#define SOUND_TREE_WOOD 3
#define SOUND_TRACK_MAX 256

typedef struct tracked_body {
    uint32_t id;
    float vy;
    bool tree, crashed;
} tracked_body;

typedef struct sound_comp {
    app *a;
    audio *au;
    bool failed; /* the device did not open: said once, tried again when sound.enable is set again */
    int ids[SOUND_COUNT];
    double last_at[SOUND_COUNT]; /* game time each sound last started */
    double now;                  /* game time of the last frame */
    long frame;
    /* the feet */
    double last_pos[3];
    bool was_on_ground;
    double stride;
    tracked_body track[SOUND_TRACK_MAX];
    int track_count;
    float facing[3]; /* the listener's, as the last frame left it */
    struct {
        cvar *enable, *volume, *log;
    } cv;
} sound_comp;

static sound_comp *state(const app *a) { return component_state(&a->comps, app_sound_component.name); }

/* Synthesises every sound of the bank at the device's rate. */
static void load_bank(sound_comp *s)
{
    int rate = audio_rate(s->au);
    for (int i = 0; i < SOUND_COUNT; i++) {
        const synth_desc *d = sound_recipe(i);
        size_t n = synth_length(d, rate);
        float *buf = malloc(n * sizeof *buf);
        s->ids[i] = buf ? audio_add(s->au, buf, synth_render(d, rate, buf, n), rate) : -1;
        free(buf);
    }
}

/* The device, opened on the first frame or sound while sound.enable is on. */
static bool ready(sound_comp *s)
{
    if (s->au) return s->cv.enable->b;
    if (s->failed || !s->cv.enable->b) return false;
    /* scripts and tests play to a file only: never the speakers, never a
     * wait on a sound server, no driver's complaints on stderr in CI */
    if (platform_headless(s->a->plat) && !getenv("ALSOFT_DRIVERS")) return false;
    char err[256];
    s->au = audio_open(&(audio_desc){ .ref_distance = SOUND_REF_DISTANCE, .max_distance = SOUND_MAX_DISTANCE,
                                      .rolloff = 1.f },
                       err, sizeof err);
    if (!s->au) {
        log_warn("sound: %s: the game is silent", err);
        s->failed = true;
        return false;
    }
    load_bank(s);
    audio_listener(s->au, s->facing, (const float[3]){ 0, 1, 0 }, s->cv.volume->f);
    return true;
}

/* Plays sound `id`: at world position `at` (NULL: at the player, with
 * `rel` in the listener's axes, or at the listener). */
static bool play(sound_comp *s, int id, const double *at, const float *rel, float gain, float pitch)
{
    if (id < 0 || id >= SOUND_COUNT || !ready(s)) return false;
    if (id <= SOUND_FILL && s->now - s->last_at[id] < SOUND_REPEAT_S) return false;
    audio_voice v = { .sound = s->ids[id], .relative = at == NULL, .gain = gain, .pitch = pitch };
    float dist = 0;
    if (at) {
        double eye[3];
        player_eye(&s->a->pl, eye);
        for (int k = 0; k < 3; k++) v.pos[k] = (float)(at[k] - eye[k]); /* small: near the camera */
        dist = sqrtf(v.pos[0] * v.pos[0] + v.pos[1] * v.pos[1] + v.pos[2] * v.pos[2]);
    } else if (rel) {
        memcpy(v.pos, rel, sizeof v.pos);
    }
    if (!audio_play(s->au, &v)) return false;
    s->last_at[id] = s->now;
    if (s->cv.log->b)
        log_out("sound.%s=clock_ms %.2f gain %.3f distance %.2f frame %ld", sound_name(id), audio_clock_ms(s->au),
                (double)gain, (double)dist, s->frame);
    return true;
}

bool app_sound_ui(app *a, const char *name)
{
    sound_comp *s = state(a);
    int id = sound_find(name);
    return s && id >= 0 && play(s, id, NULL, NULL, 1.f, 1.f);
}

/* ---- events -------------------------------------------------------------- */

/* A cut or a fill: the tool announces its box once per edit. The tool's
 * counters tell which: a cut counts its voxels per material before it
 * announces and its total after (play/tool.c), so while a cut is being
 * announced the per-material counts run ahead of the total. */
static void sound_on_edit(void *self, app *a, const world_edit *e)
{
    sound_comp *s = self;
    const tool *t = app_tool(a);
    if (e->source != &app_tool_component || !t || e->generated) return;
    long sum = 0, most = 0;
    uint8_t mat = t->material;
    for (int m = 1; m < MAT_COUNT; m++) {
        sum += t->last_removed_mat[m];
        /* a cut through a trunk takes the leaves round it too: it still sounds of wood */
        long weight = material_is_foliage((uint8_t)m) ? t->last_removed_mat[m] / 4 : t->last_removed_mat[m];
        if (weight > most) most = weight, mat = (uint8_t)m;
    }
    const bool cut = sum > t->last_removed;
    const double at[3] = { (e->lo[0] + e->hi[0]) * 0.5, (e->lo[1] + e->hi[1]) * 0.5, (e->lo[2] + e->hi[2]) * 0.5 };
    const long n = cut ? sum : t->last_filled;
    if (!most && cut) mat = MAT_STONE;
    const float gain = 0.6f + 0.4f * fminf(1.f, (float)n / 200.f); /* a big bite is louder */
    if (cut) play(s, SOUND_CUT + sound_class_of(mat), at, NULL, gain, 1.f);
    else play(s, SOUND_FILL, at, NULL, gain, sound_class_of(t->material) == SOUND_CLASS_ROCK ? 1.f : 0.8f);
}

/* What the feet stand on: the voxel under the box's centre, else under a
 * corner (a player on an edge). */
static uint8_t ground_material(const app *a)
{
    const double *p = a->pl.pos;
    const double d = PLAYER_WIDTH * 0.5 - 0.01;
    const double off[5][2] = { { 0, 0 }, { -d, -d }, { d, -d }, { -d, d }, { d, d } };
    for (int i = 0; i < 5; i++) {
        uint8_t m = world_get(a->w, (int)floor(p[0] + off[i][0]), (int)floor(p[1] - 0.05), (int)floor(p[2] + off[i][1]));
        if (m != MAT_AIR) return m;
    }
    return MAT_STONE;
}

static void footsteps(sound_comp *s, app *a, float dt)
{
    const player *pl = &a->pl;
    const double dx = pl->pos[0] - s->last_pos[0], dz = pl->pos[2] - s->last_pos[2];
    const double d = sqrt(dx * dx + dz * dz);
    const bool walking = pl->on_ground && !pl->flying && s->was_on_ground;
    if (!walking || d > fmax(SOUND_MAX_WALK_FRAME, 2.0 * PLAYER_SPRINT_SPEED * dt)) {
        s->stride = SOUND_STRIDE * 0.6; /* the first step after standing or landing comes soon */
    } else if (d < 1e-4) {
        s->stride = fmin(s->stride, SOUND_STRIDE * 0.6);
    } else if ((s->stride -= d) <= 0) {
        s->stride += SOUND_STRIDE;
        play(s, SOUND_STEP + sound_class_of(ground_material(a)), NULL, (const float[3]){ 0, -1.5f, 0 }, 0.7f, 1.f);
    }
    memcpy(s->last_pos, pl->pos, sizeof s->last_pos);
    s->was_on_ground = pl->on_ground && !pl->flying;
}

static bool is_tree(const body *b)
{
    size_t n = (size_t)b->size[0] * (size_t)b->size[1] * (size_t)b->size[2];
    long wood = 0;
    for (size_t k = 0; k < n && wood < SOUND_TREE_WOOD; k++) wood += sound_class_of(b->mat[k]) == SOUND_CLASS_WOOD;
    return wood >= SOUND_TREE_WOOD;
}

/* A body that was falling and lost half its fall speed this frame has
 * landed: a thud as loud as the impulse (heavier or faster: louder, and
 * lower for the heavy), a crash for a tree's first landing. */
static void landings(sound_comp *s, app *a)
{
    const bodies *set = app_bodies_set(a);
    tracked_body next[SOUND_TRACK_MAX];
    int count = 0;
    for (int i = 0; set && i < set->count && count < SOUND_TRACK_MAX; i++) {
        const body *b = set->v[i];
        const tracked_body *was = NULL;
        for (int k = 0; k < s->track_count && !was; k++)
            if (s->track[k].id == b->id) was = &s->track[k];
        tracked_body *t = &next[count++];
        *t = was ? *was : (tracked_body){ .id = b->id, .vy = b->vel[1], .tree = is_tree(b) };
        const float lost = b->vel[1] - t->vy;
        if (was && !b->held && t->vy < -SOUND_LAND_SPEED && lost > -0.5f * t->vy) {
            const float impulse = b->mass * lost;
            float gain = fminf(1.f, sqrtf(impulse / SOUND_FULL_IMPULSE));
            float pitch = fminf(1.4f, fmaxf(0.6f, powf(100.f / fmaxf(b->mass, 1.f), 0.12f)));
            double at[3];
            body_world_pos(b, at);
            if (t->tree && !t->crashed) {
                t->crashed = true;
                play(s, SOUND_CRASH, at, NULL, fmaxf(0.6f, gain), 1.f);
            } else {
                play(s, SOUND_IMPACT, at, NULL, fmaxf(0.05f, gain), pitch);
            }
        }
        t->vy = b->vel[1];
    }
    memcpy(s->track, next, (size_t)count * sizeof *next);
    s->track_count = count;
}

static void sound_frame(void *self, app *a, double now, float dt)
{
    sound_comp *s = self;
    s->frame++;
    s->now = now;
    player_forward(&a->pl, s->facing);
    /* a window's game opens the device on its first frame, not on its first cut */
    if (ready(s)) audio_listener(s->au, s->facing, (const float[3]){ 0, 1, 0 }, s->cv.volume->f);
    if (!a->w) return;
    footsteps(s, a, dt);
    landings(s, a);
}

static void sound_new_world(void *self, app *a, world *w)
{
    sound_comp *s = self;
    s->track_count = 0;
    s->was_on_ground = false;
}

/* ---- cvars, command ------------------------------------------------------ */

static void on_enable(cvar *c, void *user)
{
    sound_comp *s = user;
    if (c->b) {
        s->failed = false; /* asked again: try the device again */
        return;
    }
    if (s->au) audio_stop_all(s->au);
}

/* at once, not on the next frame: the menu's click after a change (the
 * game paused) already plays at the new volume */
static void on_volume(cvar *c, void *user)
{
    sound_comp *s = user;
    if (s->au) audio_listener(s->au, s->facing, (const float[3]){ 0, 1, 0 }, c->f);
}

static int c_sound(void *u, int argc, char **argv)
{
    sound_comp *s = u;
    if (argc == 1) {
        log_out("sound_device=%s", s->au ? "open" : "none");
        log_out("sound_playing=%d", s->au ? audio_playing(s->au) : 0);
        log_out("sound_clock_ms=%.2f", s->au ? audio_clock_ms(s->au) : -1.0);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (int i = 0; i < SOUND_COUNT; i++) log_out("sound=%s", sound_name(i));
        return 0;
    }
    if (strcmp(argv[1], "play") == 0 && (argc == 3 || argc == 6)) {
        int id = sound_find(argv[2]);
        if (id < 0) {
            log_error("sound play: no sound '%s' ('sound list' names them)", argv[2]);
            return 1;
        }
        double at[3];
        for (int k = 0; argc == 6 && k < 3; k++) {
            char *end;
            at[k] = strtod(argv[3 + k], &end);
            if (*end || end == argv[3 + k] || !isfinite(at[k]) || fabs(at[k]) > APP_POS_LIMIT) {
                log_error("sound play: '%s' is not a coordinate", argv[3 + k]);
                return 1;
            }
        }
        play(s, id, argc == 6 ? at : NULL, NULL, 1.f, 1.f);
        return 0;
    }
    log_error("usage: sound [list | play NAME [X Y Z]]");
    return 1;
}

static void *sound_init(app *a)
{
    sound_comp *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->a = a;
    s->facing[2] = -1; /* yaw 0 */
    for (int i = 0; i < SOUND_COUNT; i++) s->last_at[i] = -1e9;
    cvar_desc d[] = {
        { "sound.enable", "play sounds (cuts, fills, steps, landings, the menu)", CVAR_BOOL, CVAR_ARCHIVE, "1", 0, 0,
          NULL, on_enable, s },
        { "sound.volume", "loudness of every sound, 0-1", CVAR_FLOAT, CVAR_ARCHIVE, "0.8", 0, 1, NULL, on_volume, s },
        { "sound.log", "print each sound started with its time on the device's clock (tests align recordings by it)",
          CVAR_BOOL, 0, "0" },
    };
    s->cv.enable = cvar_register(&d[0]);
    s->cv.volume = cvar_register(&d[1]);
    s->cv.log = cvar_register(&d[2]);
    const cmd_desc table[] = {
        { "sound", "[list | play NAME [X Y Z]]",
          "the sound device's state; list the sounds; play one (at X Y Z, else at the player)", c_sound, s },
    };
    cmd_register_table(table, 1);
    return s;
}

static void sound_shutdown(void *self, app *a)
{
    sound_comp *s = self;
    if (!s) return;
    audio_close(s->au);
    free(s);
}

const component app_sound_component = {
    .name = "sound",
    .init = sound_init,
    .on_new_world = sound_new_world,
    .on_edit = sound_on_edit,
    .on_frame = sound_frame,
    .shutdown = sound_shutdown,
};
