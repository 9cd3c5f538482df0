/* worldgen: world generation as a pure function of (kind, seed, cvars).
 * A kind (default hills, desert, taiga, deciduous, formula, ...) plans its
 * global features once (height map, flora positions, forest model) and then
 * fills chunks independently, so the result is the same bits on any number
 * of worker threads. Generation can run in the background into a fresh
 * world while the current one stays playable. */
#ifndef STRATA_WORLDGEN_H
#define STRATA_WORLDGEN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/jobs.h"
#include "voxel/world.h"

/* Bump whenever any kind generates different voxels from the same inputs:
 * a saved world records it, and one made by another version is refused
 * (its edits would land on different terrain). Saves also keep the hash of
 * the generated world, which catches a forgotten bump. */
#define WORLDGEN_VERSION 1

typedef struct worldgen_kind {
    const char *name; /* "hills", "desert", ... (the `biome NAME` argument) */
    const char *help;
    /* Reads its cvars, checks combinations (min > max, ...) and builds the
     * global plan. Runs on one thread. Returns NULL and writes err on
     * invalid parameters. */
    void *(*plan)(const world *w, int64_t seed, char *err, size_t errlen);
    /* Writes every voxel of chunk column (cx, cz) (all cy). Called
     * concurrently for different columns; must only write that column. */
    void (*fill_column)(void *plan, world *w, int cx, int cz);
    /* Optional serial pass after all columns (kept deterministic). */
    void (*finish)(void *plan, world *w);
    void (*free_plan)(void *plan);
    /* Name prefixes of the cvars only this kind reads ("taiga."), NULL-
     * terminated; NULL = none. Changing another kind's cvar must not
     * regenerate (and so wipe the edits of) the world being played. */
    const char *const *own_cvars;
    /* Ignores world.seed (the formula world): a new seed changes nothing,
     * so it does not regenerate, and F5 says why instead. */
    bool seedless;
} worldgen_kind;

/* A pass over the whole world after a kind's columns and finish (the caves
 * of caves.c). prepare runs on the caller's thread, reads its cvars and
 * may refuse (NULL with a message) or skip this kind (NULL, empty message);
 * run may use the pool but its result must not depend on how many workers
 * it has. One slot: registering again replaces it; NULL removes it.
 * Its cvars start with cvar_prefix; affects says whether changing one
 * alters a world of `kind` (the pass may skip that kind), so a change that
 * cannot does not regenerate it and wipe the player's edits. */
typedef struct worldgen_pass {
    void *(*prepare)(const worldgen_kind *kind, int64_t seed, char *err, size_t errlen);
    void (*run)(void *state, world *w, job_pool *jobs);
    void (*free_state)(void *state);
    const char *cvar_prefix;
    bool (*affects)(const worldgen_kind *kind, const char *name);
} worldgen_pass;
void worldgen_set_pass(const worldgen_pass *pass);

/* Kinds register at start-up (game code tables); name lookup for `biome`. */
void worldgen_register(const worldgen_kind *kind);
const worldgen_kind *worldgen_find(const char *name);
int worldgen_kind_count(void);
const worldgen_kind *worldgen_kind_at(int i);

/* Whether changing cvar `name` changes what `current` generates: false when
 * another registered kind owns it (own_cvars) and current does not. Shared
 * parameters (world.seed, world.octaves, ...) affect every kind. */
bool worldgen_cvar_affects(const worldgen_kind *current, const char *name);

/* Synchronous generation on the pool (tests, bench, headless). Returns
 * false and logs when the kind's parameters are refused. */
bool worldgen_generate(world *w, const worldgen_kind *kind, int64_t seed, job_pool *jobs);

/* Background generation into a world of its own. */
typedef struct worldgen_task worldgen_task;
worldgen_task *worldgen_start(int cx, int cy, int cz, const worldgen_kind *kind, int64_t seed, job_pool *jobs,
                              char *err, size_t errlen);
/* 0..1 for the progress bar. */
float worldgen_progress(worldgen_task *t);
bool worldgen_done(worldgen_task *t);
/* Waits if needed, returns the finished world (ownership to caller) and frees the task. */
world *worldgen_finish(worldgen_task *t);

#endif
