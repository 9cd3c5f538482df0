#include "worldgen.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

#define MAX_KINDS 16
static const worldgen_kind *g_kinds[MAX_KINDS];
static int g_nkinds;
static const worldgen_pass *g_pass;

void worldgen_set_pass(const worldgen_pass *pass) { g_pass = pass; }

void worldgen_register(const worldgen_kind *kind)
{
    for (int i = 0; i < g_nkinds; i++)
        if (strcmp(g_kinds[i]->name, kind->name) == 0) { g_kinds[i] = kind; return; }
    if (g_nkinds < MAX_KINDS) g_kinds[g_nkinds++] = kind;
}

const worldgen_kind *worldgen_find(const char *name)
{
    for (int i = 0; i < g_nkinds; i++)
        if (strcmp(g_kinds[i]->name, name) == 0) return g_kinds[i];
    return NULL;
}

int worldgen_kind_count(void) { return g_nkinds; }
const worldgen_kind *worldgen_kind_at(int i) { return (i >= 0 && i < g_nkinds) ? g_kinds[i] : NULL; }

void worldgen_fill_base(const worldgen_kind *kind, void *plan, world *w, int cx, int cz)
{
    kind->fill_column(plan, w, cx, cz);
    if (kind->finish_column) kind->finish_column(plan, w, cx, cz);
}

struct worldgen_stream {
    const worldgen_kind *kind;
    void *plan;
    const worldgen_pass *pass;
    void *pass_state; /* NULL: no pass for this kind */
};

worldgen_stream *worldgen_stream_create(const worldgen_kind *kind, int64_t seed, const world *shape, char *err,
                                        size_t errlen)
{
    if (errlen) err[0] = '\0';
    worldgen_stream *ws = calloc(1, sizeof *ws);
    if (!ws) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    ws->kind = kind;
    ws->pass = g_pass;
    ws->plan = kind->plan(shape, seed, err, errlen);
    if (!ws->plan) {
        free(ws);
        return NULL;
    }
    if (g_pass) {
        err[0] = '\0';
        ws->pass_state = g_pass->prepare(kind, ws->plan, seed, shape, err, errlen);
        if (!ws->pass_state && err[0]) { /* refused, rather than skipped for this kind */
            kind->free_plan(ws->plan);
            free(ws);
            return NULL;
        }
    }
    return ws;
}

void worldgen_stream_column(worldgen_stream *ws, world *w, int cx, int cz)
{
    if (ws->pass_state) ws->pass->column(ws->pass_state, w, cx, cz);
    else worldgen_fill_base(ws->kind, ws->plan, w, cx, cz);
}

void worldgen_stream_surface(const worldgen_stream *ws, int x0, int z0, int step, int nx, int nz,
                             worldgen_point *out)
{
    if (ws->kind->surface) {
        ws->kind->surface(ws->plan, x0, z0, step, nx, nz, out);
        return;
    }
    for (int j = 0; j < nz; j++)
        for (int i = 0; i < nx; i++) {
            int h = 1;
            if (ws->kind->ground) ws->kind->ground(ws->plan, x0 + i * step, z0 + j * step, 1, &h);
            out[j * nx + i] = (worldgen_point){ (int16_t)h, (int16_t)h, MAT_STONE, MAT_STONE };
        }
}

void worldgen_stream_prepare(worldgen_stream *ws, const world *w, job_pool *jobs)
{
    if (ws->pass_state && ws->pass->prepare_window) ws->pass->prepare_window(ws->pass_state, w, jobs);
}

void worldgen_stream_destroy(worldgen_stream *ws)
{
    if (!ws) return;
    if (ws->pass_state) ws->pass->free_state(ws->pass_state);
    ws->kind->free_plan(ws->plan);
    free(ws);
}

struct worldgen_task {
    world *w;
    worldgen_stream *ws;
    job_pool *jobs;
    atomic_int columns_done;
    int columns;
    atomic_bool done;
    pthread_t thread;
};

static void fill_one(void *arg, int index)
{
    worldgen_task *t = arg;
    world *w = t->w;
    worldgen_stream_column(t->ws, w, w->ocx + index % w->cx, w->ocz + index / w->cx);
    world_set_column_state(w, w->ocx + index % w->cx, w->ocz + index / w->cx, WORLD_COL_READY);
    atomic_fetch_add(&t->columns_done, 1);
}

/* shared plans first, then the columns in parallel; the world's bits
 * depend only on the column, never on which thread ran it */
static void run_columns(worldgen_task *t)
{
    worldgen_stream_prepare(t->ws, t->w, t->jobs);
    job_parallel_for(t->jobs, t->columns, fill_one, t);
    worldgen_stream_destroy(t->ws);
    t->ws = NULL;
    world_mark_all_dirty(t->w);
}

bool worldgen_generate(world *w, const worldgen_kind *kind, int64_t seed, job_pool *jobs)
{
    char err[256] = "";
    worldgen_stream *ws = worldgen_stream_create(kind, seed, w, err, sizeof err);
    if (!ws) {
        log_error("%s: %s", kind->name, err);
        return false;
    }
    worldgen_task t = { .w = w, .ws = ws, .jobs = jobs, .columns = w->cx * w->cz };
    run_columns(&t);
    return true;
}

static void *task_main(void *arg)
{
    worldgen_task *t = arg;
    run_columns(t);
    atomic_store(&t->done, true);
    return NULL;
}

worldgen_task *worldgen_start(int cx, int cy, int cz, const worldgen_kind *kind, int64_t seed, job_pool *jobs,
                              char *err, size_t errlen)
{
    world *w = world_create(cx, cy, cz);
    if (!w) {
        snprintf(err, errlen, "cannot create a %dx%dx%d chunk world", cx, cy, cz);
        return NULL;
    }
    /* plan on the caller: it validates parameters, so errors come back at once */
    worldgen_stream *ws = worldgen_stream_create(kind, seed, w, err, errlen);
    if (!ws) {
        world_destroy(w);
        return NULL;
    }
    worldgen_task *t = calloc(1, sizeof *t);
    t->w = w;
    t->ws = ws;
    t->jobs = jobs;
    t->columns = cx * cz;
    if (pthread_create(&t->thread, NULL, task_main, t) != 0) {
        worldgen_stream_destroy(ws);
        world_destroy(w);
        free(t);
        snprintf(err, errlen, "cannot start the generation thread");
        return NULL;
    }
    return t;
}

float worldgen_progress(worldgen_task *t)
{
    return t->columns ? (float)atomic_load(&t->columns_done) / (float)t->columns : 1.f;
}

bool worldgen_done(worldgen_task *t) { return atomic_load(&t->done); }

world *worldgen_finish(worldgen_task *t)
{
    pthread_join(t->thread, NULL);
    world *w = t->w;
    free(t);
    return w;
}

static bool kind_owns(const worldgen_kind *k, const char *name)
{
    for (const char *const *p = k->own_cvars; p && *p; p++)
        if (strncmp(name, *p, strlen(*p)) == 0) return true;
    return false;
}

bool worldgen_cvar_affects(const worldgen_kind *current, const char *name)
{
    if (current && current->seedless && strcmp(name, "world.seed") == 0) return false;
    if (current && g_pass && g_pass->cvar_prefix && g_pass->affects &&
        strncmp(name, g_pass->cvar_prefix, strlen(g_pass->cvar_prefix)) == 0)
        return g_pass->affects(current, name);
    if (current && kind_owns(current, name)) return true;
    for (int i = 0; i < worldgen_kind_count(); i++)
        if (worldgen_kind_at(i) != current && kind_owns(worldgen_kind_at(i), name)) return false;
    return true;
}
