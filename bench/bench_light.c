/* bench_light: snowflake lighting (seed 000, 4.4).
 *   light.bake.world    every element of the default 512x128x512 hills world,
 *                       sun and sky sets, on the workers (occupancy read included)
 *   light.bake.taiga    the same for the taiga world (fir canopies: more elements)
 *   light.relight.cut   relight after one 8^3 ball is cut out of the hills
 *                       surface: read the changed box, trace the window it reaches
 *   light.column.<biome> a streamed column's bake on one thread (light_column,
 *                       what each worker does per arrival): the 9 inner
 *                       columns of a 5x5 window of the biome 10^5 voxels out,
 *                       as the stream bench places its windows; notes
 *                       bake_ms_per_column (the bakes' own timers) and
 *                       snapshot_ms_per_column (the ring's copy, which the
 *                       game makes on the main thread)
 *   light.read.column   a streamed column's occupancy read into the volume,
 *                       what the main thread does on each arrival: 16 columns
 *                       of the hills world a run, a different 16 each run
 *                       (arrivals land where the volume was not touched
 *                       lately); notes ms_per_column */
#include <stdlib.h>

#include "bench.h"
#include "core/timer.h"
#include "worldgen/biomes.h"
#include "light/light.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

typedef struct light_state {
    world *w;
    light *l;
    light_params p;
    int lo[3], hi[3];
} light_state;

static light_state *setup_kind(const worldgen_kind *kind)
{
    light_state *s = calloc(1, sizeof *s);
    s->w = world_create(16, 4, 16);
    if (!s->w || !worldgen_generate(s->w, kind, 1, bench_jobs())) {
        bench_skip("world generation failed");
        world_destroy(s->w);
        free(s);
        return NULL;
    }
    s->l = light_create(s->w->sx, s->w->sy, s->w->sz);
    s->p = light_params_default();
    return s;
}

static void *bake_setup(void)
{
    terrain_register();
    return setup_kind(&terrain_hills);
}
static void *bake_taiga_setup(void)
{
    biomes_register();
    const worldgen_kind *k = worldgen_find("taiga");
    if (!k) {
        bench_skip("no taiga kind");
        return NULL;
    }
    return setup_kind(k);
}

static void bake_run(void *p)
{
    light_state *s = p;
    light_stats st;
    light_read_world(s->l, s->w, NULL, NULL, bench_jobs());
    light_bake(s->l, &s->p, bench_jobs(), NULL, NULL, &st);
    bench_note("elements", (double)st.elements);
    bench_note("particles", (double)st.particles);
}

static void *relight_setup(void)
{
    light_state *s = bake_setup();
    if (!s) return NULL;
    light_read_world(s->l, s->w, NULL, NULL, bench_jobs());
    light_bake(s->l, &s->p, bench_jobs(), NULL, NULL, NULL);
    int cx = s->w->sx / 2, cz = s->w->sz / 2, cy = world_surface_y(s->w, cx, cz);
    for (int z = -4; z < 4; z++)
        for (int y = -4; y < 4; y++)
            for (int x = -4; x < 4; x++)
                if ((x + .5f) * (x + .5f) + (y + .5f) * (y + .5f) + (z + .5f) * (z + .5f) < 16.f)
                    world_set(s->w, cx + x, cy + y, cz + z, MAT_AIR);
    s->lo[0] = cx - 4, s->lo[1] = cy - 4, s->lo[2] = cz - 4;
    s->hi[0] = cx + 4, s->hi[1] = cy + 4, s->hi[2] = cz + 4;
    return s;
}

static void relight_run(void *p)
{
    light_state *s = p;
    light_stats st;
    int wl[3], wh[3];
    light_relight(s->l, s->w, &s->p, bench_jobs(), s->lo, s->hi, wl, wh, &st);
    bench_note("elements", (double)st.elements);
    bench_note("window_voxels", (double)(wh[0] - wl[0]) * (wh[1] - wl[1]) * (wh[2] - wl[2]));
}

static void light_teardown(void *p)
{
    light_state *s = p;
    light_destroy(s->l);
    world_destroy(s->w);
    free(s);
}

typedef struct column_state {
    world *w;
    light_column *lc;
    light_params p;
} column_state;

#define COLUMN_OX 3125 /* 10^5 voxels: the stream bench's windows are as far out */

static void *column_setup(const char *biome)
{
    terrain_register();
    biomes_register();
    const worldgen_kind *k = worldgen_find(biome);
    column_state *s = calloc(1, sizeof *s);
    if (!k || !s) {
        bench_skip("no such kind");
        free(s);
        return NULL;
    }
    s->w = world_create_at(COLUMN_OX, 0, 5, 4, 5);
    s->lc = light_column_create(4);
    s->p = light_params_default();
    if (!s->w || !s->lc || !worldgen_generate(s->w, k, 1, bench_jobs())) {
        bench_skip("world generation failed");
        light_column_destroy(s->lc);
        world_destroy(s->w);
        free(s);
        return NULL;
    }
    return s;
}

static void *column_hills(void) { return column_setup("hills"); }
static void *column_desert(void) { return column_setup("desert"); }
static void *column_taiga(void) { return column_setup("taiga"); }
static void *column_deciduous(void) { return column_setup("deciduous"); }

static void column_run(void *p)
{
    column_state *s = p;
    double ms = 0, snap_ms = 0;
    long elements = 0;
    for (int z = 1; z <= 3; z++)
        for (int x = COLUMN_OX + 1; x <= COLUMN_OX + 3; x++) {
            uint64_t t0 = timer_ns();
            light_column_snapshot(s->lc, s->w, x, z, light_reach(&s->p));
            snap_ms += timer_ms_since(t0);
            light_column_bake(s->lc, &s->p);
            light_stats st = light_column_stats(s->lc);
            ms += st.ms, elements += st.elements;
        }
    bench_note("bake_ms_per_column", ms / 9);
    bench_note("snapshot_ms_per_column", snap_ms / 9); /* on the main thread in the game */
    bench_note("elements_per_column", (double)elements / 9);
}

static void column_teardown(void *p)
{
    column_state *s = p;
    light_column_destroy(s->lc);
    world_destroy(s->w);
    free(s);
}

static void *read_setup(void)
{
    light_state *s = bake_setup();
    if (s) light_read_world(s->l, s->w, NULL, NULL, bench_jobs());
    return s;
}

static void read_run(void *p)
{
    light_state *s = p;
    enum { COLUMNS = 16 };
    const int ncx = s->w->sx / CHUNK_SIZE, ncz = s->w->sz / CHUNK_SIZE;
    uint64_t t0 = timer_ns();
    for (int k = 0; k < COLUMNS; k++, s->lo[0]++) { /* lo[0]: the columns read so far */
        int cx = s->lo[0] % ncx, cz = (s->lo[0] / ncx * 7 + s->lo[0]) % ncz;
        const int lo[3] = { cx * CHUNK_SIZE, 0, cz * CHUNK_SIZE }, hi[3] = { lo[0] + CHUNK_SIZE, s->w->sy, lo[2] + CHUNK_SIZE };
        light_read_world(s->l, s->w, lo, hi, bench_jobs());
    }
    bench_note("ms_per_column", timer_ms_since(t0) / COLUMNS);
}

static const bench_case light_cases[] = {
    { "light.bake.world", bake_setup, bake_run, light_teardown, 5 },
    { "light.bake.taiga", bake_taiga_setup, bake_run, light_teardown, 5 },
    { "light.relight.cut", relight_setup, relight_run, light_teardown, 30 },
    { "light.read.column", read_setup, read_run, light_teardown, 40 },
    { "light.column.hills", column_hills, column_run, column_teardown, 5 },
    { "light.column.desert", column_desert, column_run, column_teardown, 5 },
    { "light.column.taiga", column_taiga, column_run, column_teardown, 5 },
    { "light.column.deciduous", column_deciduous, column_run, column_teardown, 5 },
};
BENCH_REGISTER(light_cases)
