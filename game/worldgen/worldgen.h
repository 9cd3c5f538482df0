/* worldgen: world generation as a pure function of (kind, seed, cvars) and
 * global coordinates. A kind (hills, desert, taiga, deciduous, formula, ...)
 * reads its parameters once (the plan) and then fills any chunk column on
 * its own, planning what crosses columns (flora, the forest model, caves)
 * per deterministic region, lazily, in caches the workers share: a column's
 * voxels are the same bits whichever window, order or number of workers
 * produced them (docs/streaming.md). A worldgen_stream is that function for
 * the streaming manager; worldgen_generate and worldgen_start are loops of
 * it over a window's columns. */
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
/* 2: levels from the range eq. 9 can produce, plants and caves planned per
 * region (docs/streaming.md). */
/* 3: terrain and plant-site noise sampled in doubles (noise_perlin2d:
 * exact far out, the low bits change everywhere); the deciduous forest's
 * region key is the region's index on both sides of 0. */
/* 4: the plane's noise hashed per lattice point beyond the permutation's
 * square (noise_perlin2d), so terrain and plant sites no longer repeat
 * every 256 cells; inside the square nothing changed. */
#define WORLDGEN_VERSION 4

/* One point of the surface as the far rings see it (docs/streaming.md,
 * "The far rings"): the terrain's top voxel, and what stands on it seen
 * from afar (a forest's canopy as a coarse shape; caves left out). */
typedef struct worldgen_point {
    int16_t ground;     /* the terrain's top voxel (plants, caves and features left out) */
    int16_t top;        /* the top of what is seen from above: ground, or a canopy over it */
    uint8_t mat;        /* the material seen from above at top */
    uint8_t ground_mat; /* the terrain's top voxel's material */
} worldgen_point;

typedef struct worldgen_kind {
    const char *name; /* "hills", "desert", ... (the `biome NAME` argument) */
    const char *help;
    /* Reads its cvars, checks combinations (min > max, ...) and makes the
     * plan: parameters and empty region caches, nothing that grows with the
     * world. w gives the height of the worlds it will fill (and the formula
     * world its object's place: the middle of w's window). Runs on one
     * thread. Returns NULL and writes err on invalid parameters. */
    void *(*plan)(const world *w, int64_t seed, char *err, size_t errlen);
    /* Writes every voxel of global chunk column (cx, cz) (all cy) of any
     * window of that height holding it. Called concurrently for different
     * columns; writes only that column and reads no voxel outside it. */
    void (*fill_column)(void *plan, world *w, int cx, int cz);
    /* Optional second pass over a filled column (the taiga's muskegs). */
    void (*finish_column)(void *plan, world *w, int cx, int cz);
    /* Optional: the ground height of global columns [x0, x0 + n) x
     * [z0, z0 + n) (row by row) from the kind's height function alone,
     * without filling them: the caves' worms walk on it. Without it a pass
     * fills the column to measure its ground. */
    void (*ground)(void *plan, int x0, int z0, int n, int *out);
    /* Optional: the surface at the points (x0 + i * step, z0 + j * step),
     * i < nx, j < nz (row by row), from the kind's height and layer rules
     * alone, for the far rings: a pure function of the point, any thread.
     * Without it the far rings take `ground` and stone. */
    void (*surface)(void *plan, int x0, int z0, int step, int nx, int nz, worldgen_point *out);
    void (*free_plan)(void *plan);
    /* Name prefixes of the cvars only this kind reads ("taiga."), NULL-
     * terminated; NULL = none. Changing another kind's cvar must not
     * regenerate (and so wipe the edits of) the world being played. */
    const char *const *own_cvars;
    /* Ignores world.seed (the formula world): a new seed changes nothing,
     * so it does not regenerate, and F5 says why instead. */
    bool seedless;
    /* A finite object (the formula world, as seed 003 defines it): it is
     * never streamed; world.stream 1 leaves it a world of world.size_*. */
    bool finite;
} worldgen_kind;

/* A pass after a kind's fill (the caves of caves.c). prepare runs on the
 * caller's thread, reads its cvars and may refuse (NULL with a message) or
 * skip this kind (NULL, empty message); it gets the kind's plan, which it
 * uses (worldgen_fill_base) to generate the terrain under it. column then
 * writes every voxel of global column (cx, cz) in place of the kind's fill,
 * reading nothing of w outside it; concurrently for different columns. prepare_window, optional, may compute ahead (on the caller's
 * thread, with jobs) what the columns of window w will need; the bits must
 * not change. One slot: registering again replaces it; NULL removes it.
 * Its cvars start with cvar_prefix; affects says whether changing one
 * alters a world of `kind` (the pass may skip that kind), so a change that
 * cannot does not regenerate it and wipe the player's edits. */
typedef struct worldgen_pass {
    void *(*prepare)(const worldgen_kind *kind, void *plan, int64_t seed, const world *w, char *err, size_t errlen);
    void (*column)(void *state, world *w, int cx, int cz);
    void (*prepare_window)(void *state, const world *w, job_pool *jobs);
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

/* The kind's own voxels of column (cx, cz): fill_column, then finish_column. */
void worldgen_fill_base(const worldgen_kind *kind, void *plan, world *w, int cx, int cz);

/* Generation as a pure function of global coordinates, for the streaming
 * manager. create reads and validates the kind's and the pass's cvars on
 * the caller's thread (NULL with a message when refused); `shape` is a
 * world of the height the stream fills (see worldgen_kind.plan). column
 * writes every voxel of global column (cx, cz) of w (terrain, plants,
 * muskegs, caves, grammar passes) reading nothing of w outside it, and may
 * be called concurrently for different columns, in any order, on windows
 * anywhere: the bits depend only on (kind, seed, cvars, cx, cz). Plans that
 * cross columns are cached per region with a bounded size. */
typedef struct worldgen_stream worldgen_stream;
worldgen_stream *worldgen_stream_create(const worldgen_kind *kind, int64_t seed, const world *shape, char *err,
                                        size_t errlen);
void worldgen_stream_column(worldgen_stream *ws, world *w, int cx, int cz);
/* Optional, before the columns of window w: computes on the caller's thread
 * what they will share (the caves' tiles, each derivation on jobs, or on
 * the GPU where the app installed it, see caves_set_pass_derive); the
 * columns' bits are the same with or without it. */
void worldgen_stream_prepare(worldgen_stream *ws, const world *w, job_pool *jobs);
void worldgen_stream_destroy(worldgen_stream *ws);
/* The kind's surface (worldgen_kind.surface) at the points (x0 + i * step,
 * z0 + j * step): what the far rings are built from. Any thread,
 * concurrently; the same point gives the same values from any call. */
void worldgen_stream_surface(const worldgen_stream *ws, int x0, int z0, int step, int nx, int nz,
                             worldgen_point *out);

/* Synchronous generation of every column of w's window on the pool
 * (tests, bench, headless): worldgen_stream_prepare, then
 * worldgen_stream_column for each column. Returns false and logs when the
 * kind's parameters are refused. */
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
