#include "app_light.h"
#include "app_emit.h"
#include "app_light_land.h"
#include "app_stream.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu_budget.h"
#include "core/log.h"
#include "gfx/light_tex.h"
#include "io/save.h"
#include "light/light.h"
#include "platform/platform.h"
#include "voxel/stream.h"
#include "ui/cmd.h"

/* Columns baked at a time at most: one per worker, so a frame's urgent
 * jobs meet one column bake per worker ahead of them, not a queue. */
#define APP_LIGHT_COLUMN_JOBS 4

/* The component's state. */
typedef struct app_light {
    app *a;
    light *vol;           /* NULL until a world exists */
    light_tex tex;
    bool gl;              /* a GL context exists: keep the texture */
    light_task *task;     /* background bake in flight */
    light_params task_params;
    bool pending_edit;    /* edits while the bake ran: relit when it lands */
    int edit_lo[3], edit_hi[3];
    bool rebake;          /* a parameter changed: bake again */
    bool baked;           /* the volume holds a finished bake of this world */
    light_stats last;     /* of the last bake or relight */
    const char *last_what;
    long relights;
    job_pool *jobs;
    const world *w;
    int seed;
    /* Streamed columns baked on the workers (light_column): a column whose
     * ring of 8 is complete waits in `pend` for a free job, is snapshotted
     * and baked there, and lands in the volume on the main thread. */
    struct col_job {
        light_column *lc;
        emit_column *ec;     /* its block light, from the same snapshot (NULL: relit on landing) */
        bool ec_ok;          /* ec was made */
        job_group group;
        light_params params; /* the job's own copy */
        bool busy;           /* queued or running */
        bool stale;          /* an edit touched its ring after the snapshot: bake again */
        unsigned epoch;      /* col_epoch when snapshotted */
    } cols[APP_LIGHT_COLUMN_JOBS];
    int ncols;               /* jobs in use: two a worker, at most APP_LIGHT_COLUMN_JOBS */
    int *pend_x, *pend_z, pend_n, pend_cap;
    unsigned col_epoch;      /* a whole bake or a new world drops the columns in flight */
    long columns_redone;
    light_land land;         /* which columns' light has landed (app_light_land.h) */
    bool background;         /* a headless app bakes a new world in the background too */
    /* The voxels a finite world's light was baked from (their fingerprint,
     * save_world_fingerprint), while nothing has changed them or the
     * volume since: a world regenerated with the same voxels keeps it. */
    uint64_t bake_fp, lit_fp;
    bool lit_fp_ok;
    float bar;               /* the HUD's bar while columns in view wait for light, else -1 */
    char bar_label[96];
    cvar *step_budget;       /* stream.light_budget_ms (columns_step) */
    cpu_budget budget;       /* its pieces' running cost, frame to frame */
    struct {
        cvar *enable, *sun_particles, *sky_particles, *steps, *step, *radius, *sun_yaw, *sun_pitch, *jitter,
            *sun_color, *sky_color, *ambient, *smooth, *wait;
    } cv;
} app_light;

static void light_edited(app_light *L, const int lo[3], const int hi[3]);
static void columns_drop(app_light *L);
static void columns_touched(app_light *L, const int lo[3], const int hi[3]);

static light_params params_from_cvars(const app_light *L)
{
    light_params p = light_params_default();
    p.sun_particles = L->cv.sun_particles->i;
    p.sky_particles = L->cv.sky_particles->i;
    p.steps = L->cv.steps->i;
    p.step = L->cv.step->f;
    p.radius = L->cv.radius->f;
    p.jitter = L->cv.jitter->f;
    /* the player's convention: yaw 0 faces -z, 90 faces +x; pitch is the elevation */
    float yaw = L->cv.sun_yaw->f * 0.017453292519943295f, pitch = L->cv.sun_pitch->f * 0.017453292519943295f;
    p.sun_dir[0] = sinf(yaw) * cosf(pitch);
    p.sun_dir[1] = sinf(pitch);
    p.sun_dir[2] = -cosf(yaw) * cosf(pitch);
    p.seed = (uint64_t)(int64_t)L->seed;
    return p;
}

/* A finite world's bake: what it lights is kept (lit_fp once it lands);
 * the volume it writes holds no finished light meanwhile. */
static void fingerprint_bake(app_light *L)
{
    L->lit_fp_ok = false;
    L->bake_fp = app_stream(L->a) ? 0 : save_world_fingerprint(L->w, L->jobs);
}

/* The columns a whole bake is to light instead of their jobs: their block
 * light came with those (app_emit_land_column), so it is made on the main
 * thread. */
static void emit_dropped(app_light *L)
{
    if (!app_stream(L->a)) return;
    for (int i = 0; i < L->ncols; i++) {
        const struct col_job *j = &L->cols[i];
        int cx, cz;
        if (!j->busy || j->epoch != L->col_epoch) continue;
        light_column_where(j->lc, &cx, &cz);
        app_emit_queue_column(L->a, cx, cz);
    }
    for (int i = 0; i < L->pend_n; i++) app_emit_queue_column(L->a, L->pend_x[i], L->pend_z[i]);
}

static void start_bake(app_light *L)
{
    L->rebake = false;
    if (!L->vol || !L->w) return;
    light_task_cancel(L->task);
    L->task = NULL;
    L->pending_edit = false;
    emit_dropped(L);
    columns_drop(L); /* the whole bake lights them */
    fingerprint_bake(L);
    light_read_world(L->vol, L->w, NULL, NULL, L->jobs);
    L->task_params = params_from_cvars(L);
    L->task = light_bake_start(L->vol, &L->task_params, L->jobs, NULL, NULL);
    if (!L->task) log_error("light: no memory for a bake");
}

static void land_bake(app_light *L)
{
    light_task_finish(L->task, &L->last);
    L->task = NULL;
    L->last_what = "bake";
    L->baked = true;
    light_land_all(&L->land, L->w, app_stream(L->a) != NULL);
    L->lit_fp = L->bake_fp, L->lit_fp_ok = !app_stream(L->a);
    if (L->gl) light_tex_upload(&L->tex, L->vol, NULL, NULL);
    if (L->pending_edit) { /* edits made while it ran were not in its occupancy */
        L->pending_edit = false;
        light_edited(L, L->edit_lo, L->edit_hi);
    }
}

static void on_param(cvar *c, void *user)
{
    (void)c;
    app_light *L = user;
    L->rebake = true;
}

/* Refuses particle counts, steps and radii whose bake would take too long. */
static bool validate_param(const cvar *proposed, char *err, size_t errlen, void *user)
{
    const app_light *L = user;
    light_params p = params_from_cvars(L);
    const char *n = proposed->d.name;
    if (strcmp(n, "light.sun_particles") == 0) p.sun_particles = proposed->i;
    else if (strcmp(n, "light.sky_particles") == 0) p.sky_particles = proposed->i;
    else if (strcmp(n, "light.steps") == 0) p.steps = proposed->i;
    return light_params_check(&p, err, errlen);
}

static int c_light(void *u, int argc, char **argv)
{
    app_light *L = u;
    if (argc == 2 && strcmp(argv[1], "bake") == 0) {
        if (!L->vol) {
            log_error("light bake: no world yet");
            return 1;
        }
        start_bake(L);
        if (!L->task) return 1;
        land_bake(L); /* a command that asks for a bake gets it whole */
        printf("light_elements=%ld\nlight_particles=%ld\nlight_ms=%.1f\n", L->last.elements, L->last.particles,
               L->last.ms);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "stats") == 0) {
        printf("light_enabled=%d\nlight_baking=%d\nlight_progress=%.2f\nlight_last=%s\nlight_elements=%ld\n"
               "light_particles=%ld\nlight_ms=%.2f\nlight_relights=%ld\nlight_reach=%d\nlight_columns_waiting=%d\n"
               "light_columns_redone=%ld\n",
               L->cv.enable->b, L->task != NULL, L->task ? light_task_progress(L->task) : (L->baked ? 1.0 : 0.0),
               L->last_what ? L->last_what : "none", L->last.elements, L->last.particles, L->last.ms, L->relights,
               light_reach(&(light_params){ .steps = L->cv.steps->i, .step = L->cv.step->f,
                                             .radius = L->cv.radius->f }),
               L->pend_n, L->columns_redone);
        return 0;
    }
    log_error("usage: light bake | light stats");
    return 1;
}

static void *light_init(app *a)
{
    app_light *L = calloc(1, sizeof *L);
    if (!L) return NULL;
    L->a = a;
    L->jobs = a->jobs;
    L->bar = -1.f;
    int workers = job_pool_threads(a->jobs);
    /* two a worker: while the main thread lands one column and snapshots
     * the next, the worker is already baking its other one */
    L->ncols = workers < 1 ? 1 : 2 * workers > APP_LIGHT_COLUMN_JOBS ? APP_LIGHT_COLUMN_JOBS : 2 * workers;
    const cvar_validate_fn v = validate_param;
    cvar_desc d[] = {
        { "light.enable", "snowflake lighting (seed 000): shadows, dark caves; 0 = fixed directional shade", CVAR_BOOL, CVAR_ARCHIVE, "1" },
        { "light.sun_particles", "sun particles released per lit element", CVAR_INT, CVAR_ARCHIVE, "16", 0, LIGHT_MAX_PARTICLES, NULL, on_param, L, v },
        { "light.sky_particles", "sky particles released per lit element", CVAR_INT, CVAR_ARCHIVE, "16", 0, LIGHT_MAX_PARTICLES, NULL, on_param, L, v },
        { "light.steps", "steps a particle must wander without meeting a solid to bring light home", CVAR_INT, CVAR_ARCHIVE, "16", 1, LIGHT_MAX_STEPS, NULL, on_param, L, v },
        { "light.step", "length of one wandering step, in voxels", CVAR_FLOAT, CVAR_ARCHIVE, "1", 0.125, 4, NULL, on_param, L },
        { "light.radius", "wander radius in voxels: a particle this far from home has escaped (longer shadows, larger relight window)", CVAR_FLOAT, CVAR_ARCHIVE, "16", 1, LIGHT_MAX_RADIUS, NULL, on_param, L },
        { "light.sun_yaw", "sun direction, degrees (0 = towards -z, 90 = towards +x)", CVAR_FLOAT, CVAR_ARCHIVE, "125", 0, 360, NULL, on_param, L },
        { "light.sun_pitch", "sun elevation above the horizon, degrees", CVAR_FLOAT, CVAR_ARCHIVE, "50", 1, 90, NULL, on_param, L },
        { "light.jitter", "how far each step strays from its particle's heading (0 = straight lines)", CVAR_FLOAT, CVAR_ARCHIVE, "0.6", 0, 2, NULL, on_param, L },
        { "light.sun_color", "colour the sun set brings home (r g b)", CVAR_VEC3, CVAR_ARCHIVE, "0.78 0.72 0.6", 0, 4 },
        { "light.sky_color", "colour the sky set brings home (r g b)", CVAR_VEC3, CVAR_ARCHIVE, "0.36 0.42 0.52", 0, 4 },
        { "light.ambient", "light floor where no particle comes home (caves)", CVAR_FLOAT, CVAR_ARCHIVE, "0.05", 0, 1 },
        { "light.smooth", "smooth light: a face blends the elements around each point of it; 0 = each voxel's own", CVAR_BOOL, CVAR_ARCHIVE, "1" },
        { "light.wait", "a chunk is drawn once its column's light has landed; 0 = at once, unlit until it lands", CVAR_BOOL, CVAR_ARCHIVE, "1" },
    };
    cvar **slots[] = { &L->cv.enable, &L->cv.sun_particles, &L->cv.sky_particles, &L->cv.steps, &L->cv.step,
                       &L->cv.radius, &L->cv.sun_yaw, &L->cv.sun_pitch, &L->cv.jitter, &L->cv.sun_color,
                       &L->cv.sky_color, &L->cv.ambient, &L->cv.smooth, &L->cv.wait };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) *slots[i] = cvar_register(&d[i]);
    L->step_budget = cvar_register(&(cvar_desc){
        "stream.light_budget_ms",
        "streamed world: main-thread CPU time a frame gives landing columns' light and starting their bakes "
        "(one piece always runs; the rest waits for the next frame)",
        CVAR_FLOAT, CVAR_ARCHIVE, "0.5", 0, 100 });
    cmd_register(&(cmd_desc){ "light", "bake|stats", "bake the snowflake light of the whole world now, or report on it",
                              c_light, L });
    return L;
}

static bool light_gfx_init(void *self, app *a)
{
    app_light *L = self;
    if (L) L->gl = true;
    return L != NULL;
}

/* Whether the frame's budget (columns_step) is spent: checked before each
 * piece of work. */
static bool over_budget(cpu_budget *b) { return !cpu_budget_next(b); }

/* The world's window moved (streaming): the volume follows it. A bake in
 * flight lights the old window; it lands first, so the columns that stay
 * keep a finished light. */
static void follow_window(app_light *L)
{
    if (!L->vol || !L->w) return;
    int ox, oz;
    light_origin(L->vol, &ox, &oz);
    if (ox == world_x0(L->w) && oz == world_z0(L->w)) return;
    if (L->task) {
        land_bake(L); /* its pending edits' relight may have followed already */
        int nx, nz;
        light_origin(L->vol, &nx, &nz);
        if (nx != ox || nz != oz) return;
    }
    light_move(L->vol, world_x0(L->w), world_z0(L->w));
    int sx, sy, sz, nx, nz;
    light_size(L->vol, &sx, &sy, &sz);
    light_origin(L->vol, &nx, &nz);
    /* every column left: the volume is cleared whole, so is the texture;
     * otherwise the shaders leave out those that left (light_tex_sync_fresh) */
    bool all = llabs((long long)nx - ox) >= sx || llabs((long long)nz - oz) >= sz;
    if (L->gl && all) light_tex_fill(&L->tex, 0, 0); /* a clear, not 2 bytes a voxel read and copied */
}

/* A finite world's bake starts. When the world was regenerated with the
 * voxels, seed and light the volume and texture already hold (no edit and
 * no parameter change since that bake landed), that light is the world's,
 * byte for byte what the bake gives: it is drawn meanwhile rather than
 * the world hidden until the bake lands. Any other world waits hidden. */
static void keep_light(app_light *L, int old_seed, bool same_size)
{
    bool ok = L->lit_fp_ok && !L->rebake && same_size && old_seed == L->seed && L->cv.wait->b;
    uint64_t fp = L->lit_fp;
    start_bake(L);
    if (!ok || !L->task || L->bake_fp != fp) return;
    L->baked = true;
    light_land_all(&L->land, L->w, false);
}

static void light_new_world(void *self, app *a, world *w)
{
    app_light *L = self;
    if (!L) return;
    int seed = a->cv.seed->i, old_seed = L->seed;
    light_task_cancel(L->task);
    L->task = NULL;
    L->baked = false;
    columns_drop(L);
    L->w = w;
    L->seed = seed;
    if (!light_land_reset(&L->land, w)) log_warn("light: no memory to track which columns are lit: all are drawn");
    int sx = 0, sy = 0, sz = 0;
    if (L->vol) light_size(L->vol, &sx, &sy, &sz);
    if (!L->vol || sx != w->sx || sy != w->sy || sz != w->sz) {
        light_destroy(L->vol);
        light_tex_destroy(&L->tex);
        L->vol = light_create(w->sx, w->sy, w->sz);
        if (!L->vol) {
            log_error("light: no memory for a %dx%dx%d light volume: the world stays unlit", w->sx, w->sy, w->sz);
            return;
        }
        char err[256];
        if (L->gl && !light_tex_create(&L->tex, w->sx, w->sy, w->sz, err, sizeof err))
            log_error("light: %s: the world stays unlit", err);
    }
    if (world_window_empty(w)) { /* streamed, just begun: every column is lit as it arrives */
        light_move(L->vol, world_x0(w), world_z0(w));
        /* a new volume is dark already, but clearing it makes the system
         * hand over its pages now, not a column at a time as light lands
         * during play (1,700 page faults a column on the frame it lands) */
        light_clear(L->vol);
        if (L->gl) light_tex_fill(&L->tex, 0, 0);
        L->baked = true;
        L->last = (light_stats){ 0 }, L->last_what = NULL; /* `light stats`: nothing traced yet */
        return;
    }
    keep_light(L, old_seed, sx == w->sx && sy == w->sy && sz == w->sz);
    /* no bake: drawn unlit; a window resized (view.distance) is the same
     * world going on: drawn with the fixed shade while it bakes, not hidden */
    if ((!L->task && !L->baked) || a->world_resizing) light_land_all(&L->land, w, app_stream(a) != NULL);
    /* scripts see the final picture; the window plays on while it bakes */
    if (platform_headless(a->plat) && !L->background && L->task) land_bake(L);
}

/* An edit's box, or a streamed column's arrival (world_edit.generated),
 * which changes light the same way: relight it and the reach around it. */
static void light_edited(app_light *L, const int lo[3], const int hi[3])
{
    if (!L->vol) return;
    L->lit_fp_ok = false; /* the light is no longer that of the voxels it was baked from */
    follow_window(L);
    columns_touched(L, lo, hi);
    if (L->task) { /* the bake in flight reads an older occupancy: relight after it */
        for (int k = 0; k < 3; k++) {
            L->edit_lo[k] = L->pending_edit && L->edit_lo[k] < lo[k] ? L->edit_lo[k] : lo[k];
            L->edit_hi[k] = L->pending_edit && L->edit_hi[k] > hi[k] ? L->edit_hi[k] : hi[k];
        }
        L->pending_edit = true;
        return;
    }
    if (!L->baked) return;
    light_params p = params_from_cvars(L);
    int wl[3], wh[3];
    light_relight(L->vol, L->w, &p, L->jobs, lo, hi, wl, wh, &L->last);
    L->last_what = "relight";
    L->relights++;
    if (L->gl) light_tex_upload(&L->tex, L->vol, wl, wh);
}

/* ---- columns on the workers ---- */

static void column_job(void *arg)
{
    struct col_job *j = arg;
    light_column_bake(j->lc, &j->params); /* reads its snapshot alone */
    int cx, cz;
    light_column_where(j->lc, &cx, &cz);
    j->ec_ok = j->ec && emit_column_fill(j->ec, light_column_ring(j->lc), cx, cz);
}

/* Column (cx, cz) is to be baked: queued once (at the front when it is
 * baked again); a job baking it now bakes it again when it lands. */
static void column_queue(app_light *L, int cx, int cz, bool front)
{
    for (int i = 0; i < L->ncols; i++) {
        struct col_job *j = &L->cols[i];
        int x, z;
        if (!j->busy || j->epoch != L->col_epoch) continue;
        light_column_where(j->lc, &x, &z);
        if (x == cx && z == cz) {
            j->stale = true;
            return;
        }
    }
    for (int i = 0; i < L->pend_n; i++)
        if (L->pend_x[i] == cx && L->pend_z[i] == cz) return;
    if (L->pend_n == L->pend_cap) {
        int cap = L->pend_cap ? 2 * L->pend_cap : 64;
        int *x = realloc(L->pend_x, sizeof *x * (size_t)cap);
        if (x) L->pend_x = x;
        int *z = realloc(L->pend_z, sizeof *z * (size_t)cap);
        if (z) L->pend_z = z;
        if (!x || !z) {
            log_error("light: no memory to queue column %d %d: it stays dark", cx, cz);
            return;
        }
        L->pend_cap = cap;
    }
    int at = front ? 0 : L->pend_n;
    memmove(&L->pend_x[at + 1], &L->pend_x[at], sizeof *L->pend_x * (size_t)(L->pend_n - at));
    memmove(&L->pend_z[at + 1], &L->pend_z[at], sizeof *L->pend_z * (size_t)(L->pend_n - at));
    L->pend_x[at] = cx, L->pend_z[at] = cz;
    L->pend_n++;
}

/* Gives the waiting columns to free jobs, oldest first: each snapshots its
 * ring now (main thread), then bakes on a worker. A column whose ring left
 * the window is forgotten (its next arrival queues it again). No snapshot
 * starts once the budget since t0 is spent (columns_step). */
static void columns_start_within(app_light *L, cpu_budget *b)
{
    if (!L->vol || !L->w) return;
    int k = 0;
    for (int i = 0; i < L->ncols && k < L->pend_n; i++) {
        struct col_job *j = &L->cols[i];
        if (j->busy) continue;
        if (over_budget(b)) break;
        while (k < L->pend_n) {
            int cx = L->pend_x[k], cz = L->pend_z[k];
            k++;
            if (!stream_meshable(L->w, cx, cz)) continue;
            if (!j->lc) j->lc = light_column_create(L->w->cy);
            j->params = params_from_cvars(L);
            /* the snapshot holds what the block light reads too */
            const int reach = light_reach(&j->params) > EMIT_REACH ? light_reach(&j->params) : EMIT_REACH;
            if (!j->lc || !light_column_snapshot(j->lc, L->w, cx, cz, reach)) { /* another height: new scratch */
                light_column_destroy(j->lc);
                emit_column_destroy(j->ec);
                j->ec = NULL;
                j->lc = light_column_create(L->w->cy);
                if (!j->lc || !light_column_snapshot(j->lc, L->w, cx, cz, reach)) {
                    log_error("light: no memory to bake column %d %d: it stays dark", cx, cz);
                    continue;
                }
            }
            if (!j->ec) j->ec = emit_column_create(L->w->sy); /* (NULL: its block light is made on landing) */
            j->busy = true, j->stale = false, j->epoch = L->col_epoch;
            j->group = (job_group){ 0 };
            job_submit(L->jobs, &j->group, column_job, j);
            break;
        }
    }
    if (k == 0) return; /* (pend_x may be NULL: nothing was ever queued) */
    L->pend_n -= k;
    memmove(L->pend_x, L->pend_x + k, sizeof *L->pend_x * (size_t)L->pend_n);
    memmove(L->pend_z, L->pend_z + k, sizeof *L->pend_z * (size_t)L->pend_n);
}

static void columns_start(app_light *L) { columns_start_within(L, &(cpu_budget){ .ms = -1 }); }

/* Lands the finished columns: their light into the volume and the
 * texture; a stale one is baked again. None lands once the budget since
 * t0 is spent: it waits, done, in its job for the next frame. */
static void columns_land_within(app_light *L, cpu_budget *b)
{
    for (int i = 0; i < L->ncols; i++) {
        struct col_job *j = &L->cols[i];
        if (!j->busy || !job_group_done(L->jobs, &j->group)) continue;
        if (over_budget(b)) break;
        j->busy = false;
        if (j->epoch != L->col_epoch || !L->vol || !L->w) continue;
        int cx, cz;
        light_column_where(j->lc, &cx, &cz);
        if (!stream_meshable(L->w, cx, cz)) continue; /* it left the window */
        if (j->stale) {
            L->columns_redone++;
            column_queue(L, cx, cz, true);
            continue;
        }
        if (!light_column_land(j->lc, L->vol)) continue;
        if (j->ec_ok) app_emit_land_column(L->a, j->ec, cx, cz);
        else app_emit_queue_column(L->a, cx, cz);
        L->last = light_column_stats(j->lc);
        L->last_what = "column";
        L->relights++;
        light_land_set(&L->land, L->w, cx, cz, true);
        if (L->gl) {
            const int lo[3] = { cx * CHUNK_SIZE, 0, cz * CHUNK_SIZE };
            const int hi[3] = { lo[0] + CHUNK_SIZE, L->w->sy, lo[2] + CHUNK_SIZE };
            light_tex_upload(&L->tex, L->vol, lo, hi);
        }
    }
}

static void columns_land(app_light *L) { columns_land_within(L, &(cpu_budget){ .ms = -1 }); }

/* A frame's share of the streamed columns' light on the main thread, in
 * its own CPU time (stream.light_budget_ms): landings first (a column's
 * light into the volume, then into the texture), then the snapshots that
 * start the next bakes. Each piece is a fraction of the budget and the
 * first always runs, so a frame passes it by one piece at most and the
 * light never stops; the rest waits for the next frame, a finished bake
 * in its job, a column in `pend`. A column is drawn once its light has
 * landed (light.wait), so a frame's delay holds back a column at the edge
 * of the fog, no more; `stream wait` and the settles land everything
 * (columns_land, columns_start). */
static void columns_step(app_light *L)
{
    cpu_budget_begin(&L->budget, L->step_budget ? (double)L->step_budget->f : -1.0);
    columns_land_within(L, &L->budget);
    columns_start_within(L, &L->budget);
}

/* A whole bake or a new world: the columns in flight are not landed (their
 * jobs finish on their own) and those waiting are forgotten. */
static void columns_drop(app_light *L)
{
    L->col_epoch++;
    L->pend_n = 0;
}

/* An edit in [lo, hi): a column in flight whose ring it touches was
 * snapshotted before it, so its light would be stale: bake it again. */
static void columns_touched(app_light *L, const int lo[3], const int hi[3])
{
    for (int i = 0; i < L->ncols; i++) {
        struct col_job *j = &L->cols[i];
        if (!j->busy) continue;
        int cx, cz;
        light_column_where(j->lc, &cx, &cz);
        if (lo[0] < (cx + 2) * CHUNK_SIZE && hi[0] > (cx - 1) * CHUNK_SIZE && lo[2] < (cz + 2) * CHUNK_SIZE &&
            hi[2] > (cz - 1) * CHUNK_SIZE)
            j->stale = true;
    }
}

void app_light_pump(app *a)
{
    app_light *L = component_state(&a->comps, app_light_component.name);
    if (!L) return;
    columns_land(L);
    columns_start(L);
}

void app_light_settle(app *a)
{
    app_light *L = component_state(&a->comps, app_light_component.name);
    if (!L) return;
    /* Each column lands as soon as it is baked and its job takes the next
     * one; the others keep baking meanwhile. (Waiting for all of them
     * before starting any left a worker idle behind the slowest column
     * and both idle while the main thread landed and snapshotted.) Ends:
     * a column is baked again only after an edit, and none comes meanwhile. */
    for (;;) {
        columns_land(L);
        columns_start(L);
        job_group *busy[APP_LIGHT_COLUMN_JOBS];
        int n = 0;
        for (int i = 0; i < L->ncols; i++)
            if (L->cols[i].busy) busy[n++] = &L->cols[i].group;
        if (n == 0 && L->pend_n == 0) break;
        job_group_wait_any(L->jobs, busy, n);
    }
}

/* The columns of (cx, cz)'s ring that are whole: not landed (an arrival
 * made them whole and they are to be baked: not drawn until their light
 * lands, light_land) or landed (relit with the arrival, light_edited). */
static void ring_landed(app_light *L, int cx, int cz, bool landed)
{
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++)
            if (stream_meshable(L->w, cx + dx, cz + dz)) light_land_set(&L->land, L->w, cx + dx, cz + dz, landed);
}

/* A streamed column arrived. Light reads only voxels within its reach
 * (less than a column), so a column's light is final once it and the 8
 * columns around it are there: each column is baked exactly once, when the
 * last of its ring arrives (as meshing waits), instead of relighting the
 * arrival and its reach on every arrival (4 to 5 times the work, all of it
 * on the frame). The result is the whole bake's: the light tests compare. */
/* Whether an arrival now has its columns baked on the workers
 * (app_light_bakes_arrivals). */
static bool bakes_arrivals(const app_light *L)
{
    light_params p = params_from_cvars(L);
    return !L->task && L->baked && light_reach(&p) <= CHUNK_SIZE;
}

static void light_column_arrived(app_light *L, const world_edit *e)
{
    if (!L->vol) return;
    follow_window(L);
    /* a bake in flight (relit after it), or light that reaches past the
     * ring (light.radius raised): as an edit, the arrival and its reach */
    int cx = e->lo[0] >> CHUNK_BITS, cz = e->lo[2] >> CHUNK_BITS;
    ring_landed(L, cx, cz, false);
    if (!bakes_arrivals(L)) {
        light_edited(L, e->lo, e->hi);
        if (!L->task && L->baked) ring_landed(L, cx, cz, true); /* relit now */
        return;
    }
    const world *w = L->w;
    /* (nothing is read into the volume's occupancy bits: a later edit's
     * relight reads all it walks, light_relight) */
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++)
            if (stream_meshable(w, cx + dx, cz + dz)) column_queue(L, cx + dx, cz + dz, false);
    /* snapshotted by this frame's light_frame, within its budget */
}

static void light_on_edit(void *self, app *a, const world_edit *e)
{
    if (!self) return;
    /* a whole column of a streamed world, nothing else changed */
    bool column = e->generated && e->hi[0] - e->lo[0] == CHUNK_SIZE && e->hi[2] - e->lo[2] == CHUNK_SIZE &&
                  !(e->lo[0] & CHUNK_MASK) && !(e->lo[2] & CHUNK_MASK);
    if (column) light_column_arrived(self, e);
    else light_edited(self, e->lo, e->hi);
}

/* What is left to light in view after a new world, for the HUD: the bar
 * goes once every column in view has its light. */
static void bar_update(app_light *L, app *a)
{
    L->bar = -1.f;
    if (!L->vol || !L->w || !L->land.settling) return;
    int lit, baking, coming;
    light_land_count(&L->land, L->w, app_stream(a) != NULL, a->pl.pos[0], a->pl.pos[2], a->cv.distance->f, &lit,
                     &baking, &coming);
    if (baking + coming == 0) {
        L->land.settling = false;
        return;
    }
    snprintf(L->bar_label, sizeof L->bar_label, "terrain in view: %d column%s lighting, %d to come", baking,
             baking == 1 ? "" : "s", coming);
    L->bar = (float)lit / (float)(lit + baking + coming);
}

static void light_frame(void *self, app *a, double now, float dt)
{
    app_light *L = self;
    if (!L) return;
    if (L->task && light_task_done(L->task)) land_bake(L);
    follow_window(L);
    columns_step(L);
    bar_update(L, a);
    if (L->rebake) {
        start_bake(L);
        if (platform_headless(a->plat) && L->task) land_bake(L);
    }
}

static void light_shutdown(void *self, app *a)
{
    app_light *L = self;
    if (!L) return;
    /* the app destroys the worker pool (running every queued job) before
     * components shut down: the bake's jobs are done, its pool is gone */
    light_task_release(L->task);
    L->task = NULL;
    for (int i = 0; i < L->ncols; i++) { /* their jobs ran with the pool */
        light_column_destroy(L->cols[i].lc);
        emit_column_destroy(L->cols[i].ec);
    }
    free(L->pend_x);
    free(L->pend_z);
    light_destroy(L->vol);
    L->vol = NULL;
    light_land_free(&L->land);
    if (L->gl) light_tex_destroy(&L->tex);
    cmd_unregister("light");
    free(L);
}

const component app_light_component = {
    .name = "light",
    .init = light_init,
    .gfx_init = light_gfx_init,
    .on_new_world = light_new_world,
    .on_edit = light_on_edit,
    .on_frame = light_frame,
    .shutdown = light_shutdown,
};

static const app_light *state(const app *a) { return component_state(&a->comps, app_light_component.name); }

float app_light_progress(const app *a)
{
    const app_light *L = state(a);
    return L && L->task ? light_task_progress(L->task) : -1.f;
}

static void shading(const app_light *L, light_shading *out)
{
    memset(out, 0, sizeof *out);
    out->enabled = L->cv.enable->b && L->baked && L->tex.tex;
    out->texture = L->tex.tex, out->fresh = L->tex.fresh;
    out->size[0] = L->tex.sx, out->size[1] = L->tex.sy, out->size[2] = L->tex.sz;
    if (L->vol) { /* the texture holds the volume's slots: where its window is */
        light_origin(L->vol, &out->origin[0], &out->origin[2]);
        light_slot(L->vol, &out->slot[0], &out->slot[2]);
    }
    memcpy(out->sun_color, L->cv.sun_color->v, sizeof out->sun_color);
    memcpy(out->sky_color, L->cv.sky_color->v, sizeof out->sky_color);
    out->ambient = L->cv.ambient->f;
    out->smooth = L->cv.smooth->b;
}

bool app_light_bakes_arrivals(const app *a)
{
    const app_light *L = state(a);
    return L && L->vol && L->w == a->w && bakes_arrivals(L);
}

void app_light_settings(app *a, render_settings *s)
{
    app_light *L = component_state(&a->comps, app_light_component.name);
    if (!L) return;
    if (L->vol && L->gl) light_tex_sync_fresh(&L->tex, L->vol); /* as the volume is now, after the frame's moves and landings */
    shading(L, &s->light);
    light_params p = params_from_cvars(L); /* face shading and shadows agree on the sun */
    memcpy(s->sun, p.sun_dir, sizeof p.sun_dir);
}

float app_light_columns_progress(const app *a, const char **label)
{
    const app_light *L = state(a);
    if (!L || L->bar < 0) return -1.f;
    *label = L->bar_label;
    return L->bar;
}

const unsigned char *app_light_drawable(const app *a, const unsigned char *has)
{
    app_light *L = component_state(&a->comps, app_light_component.name);
    if (!L || !L->vol || L->w != a->w || !L->cv.enable->b || !L->cv.wait->b) return has;
    return light_land_mask(&L->land, L->w, has);
}

bool app_light_world_hidden(const app *a)
{
    const app_light *L = state(a);
    return L && L->vol && L->w == a->w && L->cv.enable->b && L->cv.wait->b && !L->baked;
}

void app_light_bake_in_background(app *a, bool on)
{
    app_light *L = component_state(&a->comps, app_light_component.name);
    if (L) L->background = on;
}
