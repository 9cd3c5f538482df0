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

struct worldgen_task {
    world *w;
    const worldgen_kind *kind;
    void *plan;
    const worldgen_pass *pass;
    void *pass_state; /* NULL: no pass for this kind */
    job_pool *jobs;
    atomic_int columns_done;
    int columns;
    atomic_bool done;
    pthread_t thread;
};

static void fill_one(void *arg, int index)
{
    worldgen_task *t = arg;
    t->kind->fill_column(t->plan, t->w, index % t->w->cx, index / t->w->cx);
    atomic_fetch_add(&t->columns_done, 1);
}

/* plan -> columns in parallel -> serial finish; the world's bits depend
 * only on the plan and the column, never on which thread ran it. */
static void run_columns(worldgen_task *t)
{
    job_parallel_for(t->jobs, t->columns, fill_one, t);
    if (t->kind->finish) t->kind->finish(t->plan, t->w);
    t->kind->free_plan(t->plan);
    t->plan = NULL;
    if (t->pass_state) {
        t->pass->run(t->pass_state, t->w, t->jobs);
        t->pass->free_state(t->pass_state);
        t->pass_state = NULL;
    }
    world_mark_all_dirty(t->w);
}

/* The pass's state for this kind; false (plan freed) when it refuses. */
static bool prepare_pass(const worldgen_kind *kind, int64_t seed, void *plan, void **state, char *err, size_t errlen)
{
    *state = NULL;
    if (!g_pass) return true;
    err[0] = '\0';
    *state = g_pass->prepare(kind, seed, err, errlen);
    if (*state || !err[0]) return true;
    kind->free_plan(plan);
    return false;
}

bool worldgen_generate(world *w, const worldgen_kind *kind, int64_t seed, job_pool *jobs)
{
    char err[256] = "";
    void *plan = kind->plan(w, seed, err, sizeof err);
    void *pass_state = NULL;
    if (!plan || !prepare_pass(kind, seed, plan, &pass_state, err, sizeof err)) {
        log_error("%s: %s", kind->name, err);
        return false;
    }
    worldgen_task t = { .w = w, .kind = kind, .plan = plan, .pass = g_pass, .pass_state = pass_state, .jobs = jobs,
                        .columns = w->cx * w->cz };
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
    void *plan = kind->plan(w, seed, err, errlen);
    void *pass_state = NULL;
    if (!plan || !prepare_pass(kind, seed, plan, &pass_state, err, errlen)) {
        world_destroy(w);
        return NULL;
    }
    worldgen_task *t = calloc(1, sizeof *t);
    t->pass = g_pass;
    t->pass_state = pass_state;
    t->w = w;
    t->kind = kind;
    t->plan = plan;
    t->jobs = jobs;
    t->columns = cx * cz;
    if (pthread_create(&t->thread, NULL, task_main, t) != 0) {
        kind->free_plan(plan);
        if (pass_state) t->pass->free_state(pass_state);
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
