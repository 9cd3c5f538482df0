/* bench_save: worlds that persist.
 *   save.world  1000 edited chunks of the default 16x4x16 hills world to a
 *               world file, end to end (copies, compression, SQLite commit
 *               with fsync in WAL mode). Notes the main thread's share,
 *               main_ms: queueing the chunks by reference and the commit
 *               (the writer copies each chunk under the world's guard)
 *   load.world  the same world back: generation from its inputs, the check
 *               hash, reading and decoding the 1000 chunks. Notes gen_ms and
 *               extra_ms (the load's cost beyond generation) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "core/timer.h"
#include "io/save.h"
#include "worldgen/terrain.h"
#include "voxel/world.h"

#define EDITED 1000

typedef struct save_state {
    world *w;
    save_file *f;
    char path[256];
} save_state;

static world *edited_world(void)
{
    terrain_register();
    world *w = world_create(16, 4, 16);
    if (!w) return NULL;
    worldgen_generate(w, &terrain_hills, 1, bench_jobs());
    /* one cut-like edit in each of 1000 chunks: a voxel and a tint */
    for (int i = 0; i < EDITED; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, i, &cx, &cy, &cz);
        int x = cx * CHUNK_SIZE + 7, y = cy * CHUNK_SIZE + 9, z = cz * CHUNK_SIZE + 11;
        world_set(w, x, y, z, world_get(w, x, y, z) == MAT_AIR ? MAT_STONE : MAT_AIR);
        world_set_tint(w, x, y + 1, z, 2);
    }
    return w;
}

static void *save_setup(void)
{
    save_state *s = calloc(1, sizeof *s);
    snprintf(s->path, sizeof s->path, "/tmp/strata-bench-save-%d.strata", (int)getpid());
    unlink(s->path);
    s->w = edited_world();
    char note[1024], err[1024];
    s->f = s->w ? save_open(s->path, note, sizeof note, err, sizeof err) : NULL;
    if (!s->f) {
        bench_skip(s->w ? err : "no world");
        world_destroy(s->w);
        free(s);
        return NULL;
    }
    return s;
}

static void save_teardown(void *p)
{
    save_state *s = p;
    save_close(s->f);
    world_destroy(s->w);
    char wal[300];
    unlink(s->path);
    snprintf(wal, sizeof wal, "%s-wal", s->path), unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", s->path), unlink(wal);
    free(s);
}

static uint64_t save_all(save_state *s, double *main_ms)
{
    world_mark_edited_unsaved(s->w);
    uint64_t t0 = timer_ns();
    save_begin(s->f, "hills", false);
    save_put_unsaved(s->f, s->w, EDITED);
    save_slot meta = { .name = "hills", .inputs = "generator 1\nworld.seed 1\n", .state = "pos 0 0 0\nlook 0 0\n" };
    uint64_t t = save_commit(s->f, &meta, true);
    *main_ms = timer_ms_since(t0);
    return t;
}

static void save_run(void *p)
{
    save_state *s = p;
    double main_ms;
    char err[1024];
    uint64_t t = save_all(s, &main_ms);
    if (!save_wait(s->f, t, err, sizeof err)) fprintf(stderr, "save.world: %s\n", err);
    bench_note("main_ms", main_ms);
    bench_note("chunks", EDITED);
}

static void *load_setup(void)
{
    save_state *s = save_setup();
    if (!s) return NULL;
    double a;
    char err[1024];
    if (!save_wait(s->f, save_all(s, &a), err, sizeof err)) {
        bench_skip(err);
        save_teardown(s);
        return NULL;
    }
    save_release_world(s->f, s->w);
    world_destroy(s->w);
    s->w = NULL;
    return s;
}

static void load_run(void *p)
{
    save_state *s = p;
    uint64_t t0 = timer_ns();
    world *w = world_create(16, 4, 16);
    worldgen_generate(w, &terrain_hills, 1, bench_jobs());
    double gen = timer_ms_since(t0);
    volatile uint64_t h = save_world_fingerprint(w, bench_jobs()); /* the game checks it against the file */
    (void)h;
    char err[1024];
    int n = save_load_chunks(s->f, "hills", w, bench_jobs(), err, sizeof err);
    if (n != EDITED) fprintf(stderr, "load.world: %d chunks (%s)\n", n, err);
    double total = timer_ms_since(t0);
    world_destroy(w);
    bench_note("gen_ms", gen);
    bench_note("extra_ms", total - gen);
}

static const bench_case k_save_cases[] = {
    { "save.world", save_setup, save_run, save_teardown, 5 },
    { "load.world", load_setup, load_run, save_teardown, 5 },
};
BENCH_REGISTER(k_save_cases)
