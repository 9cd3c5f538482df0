/* bench_worldgen: worldgen.desert, worldgen.taiga, worldgen.deciduous —
 * generate and mesh the whole default world (16x4x16 chunks) of each seed-001
 * biome on the bench's workers, grammar caves on. gen_ms and plan_ms split out generation so
 * the JSON shows where the time goes (plan = height map, sites, forest model;
 * the rest of gen_ms = column fills; the rest of the run = meshing). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "worldgen/biomes.h"
#include "worldgen/caves.h"
#include "core/timer.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

/* Provided by bench_world.c: meshes every chunk and notes the triangle count. */
void bench_mesh_world(struct world *w);

typedef struct gen_state {
    world *w;
    const worldgen_kind *kind;
    double plan_ms; /* the serial plan alone, measured once in setup */
} gen_state;

static void gen_teardown(void *state)
{
    gen_state *s = state;
    world_destroy(s->w);
    free(s);
}

static void *gen_setup(const char *name)
{
    terrain_register();
    biomes_register();
    caves_register(); /* the biomes' caves and overhangs are part of generation */
    gen_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->kind = worldgen_find(name);
    s->w = world_create(16, 4, 16);
    if (!s->kind || !s->w) {
        bench_skip("cannot create the default world");
        world_destroy(s->w);
        free(s);
        return NULL;
    }
    char err[256] = "";
    uint64_t t0 = timer_ns();
    void *plan = s->kind->plan(s->w, 1, err, sizeof err);
    s->plan_ms = timer_ms_since(t0);
    if (!plan) {
        bench_skip(err);
        gen_teardown(s);
        return NULL;
    }
    s->kind->free_plan(plan);
    return s;
}

static void *desert_setup(void) { return gen_setup("desert"); }
static void *taiga_setup(void) { return gen_setup("taiga"); }
static void *deciduous_setup(void) { return gen_setup("deciduous"); }

static void gen_run(void *state)
{
    gen_state *s = state;
    uint64_t t0 = timer_ns();
    worldgen_generate(s->w, s->kind, 1, bench_jobs());
    double gen_ms = timer_ms_since(t0);
    bench_mesh_world(s->w);
    bench_note("gen_ms", gen_ms);
    bench_note("plan_ms", s->plan_ms);
}

static const bench_case worldgen_cases[] = {
    { "worldgen.desert", desert_setup, gen_run, gen_teardown, 5 },
    { "worldgen.taiga", taiga_setup, gen_run, gen_teardown, 5 },
    { "worldgen.deciduous", deciduous_setup, gen_run, gen_teardown, 5 },
};
BENCH_REGISTER(worldgen_cases)
