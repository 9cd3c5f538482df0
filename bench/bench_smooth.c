/* bench_smooth: mesh.smooth.chunk, one hills terrain chunk with its border
 * (density gather + surface nets, CPU, one core), beside
 * mesh.blocks.terrain32; mesh.smooth.levels, the same chunk at every level
 * of detail from one gather (what the smooth mode builds). The smooth
 * frames (render.frame.smooth.*) drive the app: bench_frame.c. */
#include <stdlib.h>

#include "bench.h"
#include "core/jobs.h"
#include "mesh/mesh_smooth.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

typedef struct smooth_chunk_state {
    world *w;
    int cy; /* the chunk the runs mesh: (1, cy, 1) */
    smooth_input in, levels[SMOOTH_LODS];
    smooth_mesh mesh, lmesh[SMOOTH_LODS];
} smooth_chunk_state;

static void *chunk_setup(void)
{
    smooth_chunk_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    terrain_register();
    s->w = world_create(3, 4, 3);
    worldgen_generate(s->w, &terrain_hills, 1, bench_jobs());
    /* the chunk at the middle column that holds the most surface */
    int best = 1, most = -1;
    for (int cy = 0; cy < 4; cy++) {
        mesh_smooth_gather(s->w, 1, cy, 1, SMOOTH_SHARPNESS_DEFAULT, &s->in);
        mesh_smooth_build(&s->in, &s->mesh);
        if (s->mesh.triangles > most) most = s->mesh.triangles, best = cy;
    }
    bench_note("chunk_y", best);
    bench_note("triangles", most);
    s->cy = best;
    return s;
}

static void chunk_run(void *state)
{
    smooth_chunk_state *s = state;
    mesh_smooth_gather(s->w, 1, s->cy, 1, SMOOTH_SHARPNESS_DEFAULT, &s->in);
    mesh_smooth_build(&s->in, &s->mesh);
}

static void levels_run(void *state)
{
    smooth_chunk_state *s = state;
    smooth_input *lv[SMOOTH_LODS];
    for (int l = 0; l < SMOOTH_LODS; l++) lv[l] = &s->levels[l];
    mesh_smooth_gather_levels(s->w, 1, s->cy, 1, SMOOTH_SHARPNESS_DEFAULT, lv);
    for (int l = 0; l < SMOOTH_LODS; l++) mesh_smooth_build(&s->levels[l], &s->lmesh[l]);
}

static void chunk_teardown(void *state)
{
    smooth_chunk_state *s = state;
    if (!s) return;
    mesh_smooth_free(&s->mesh);
    for (int l = 0; l < SMOOTH_LODS; l++) mesh_smooth_free(&s->lmesh[l]);
    world_destroy(s->w);
    free(s);
}

static const bench_case bench_smooth_cases[] = {
    { "mesh.smooth.chunk", chunk_setup, chunk_run, chunk_teardown, 50 },
    { "mesh.smooth.levels", chunk_setup, levels_run, chunk_teardown, 50 },
};
BENCH_REGISTER(bench_smooth_cases)
