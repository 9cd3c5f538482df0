#include "mesh/mesh_world.h"

#include <stdlib.h>

#include "mesh/mesh_lod.h"

typedef struct mesh_world_job {
    const world *w;
    const int *indices;
    chunk_mesh *out, *out_lod;
    bool greedy;
} mesh_world_job;

static void mesh_one(void *arg, int k)
{
    mesh_world_job *j = arg;
    int cx, cy, cz;
    world_chunk_coords(j->w, j->indices[k], &cx, &cy, &cz);
    /* ~78 KB of scratch per chunk: small next to the meshing itself, and it
     * keeps workers free of thread-local state */
    mesh_input *in = malloc(sizeof *in);
    if (!in) {
        mesh_clear(&j->out[k]);
        if (j->out_lod) mesh_clear(&j->out_lod[k]);
        return;
    }
    mesh_gather(j->w, cx, cy, cz, in);
    mesh_build(in, j->greedy, &j->out[k]);
    if (j->out_lod) {
        mesh_lod_coarsen(in);
        mesh_build(in, j->greedy, &j->out_lod[k]);
    }
    free(in);
}

void mesh_world_chunks(const world *w, job_pool *jobs, const int *indices, int n, bool greedy, chunk_mesh *out)
{
    mesh_world_job j = { w, indices, out, NULL, greedy };
    job_parallel_for_urgent(jobs, n, mesh_one, &j); /* a frame waits on it */
}

void mesh_world_chunks_lod(const world *w, job_pool *jobs, const int *indices, int n, bool greedy, chunk_mesh *out,
                           chunk_mesh *out_lod)
{
    mesh_world_job j = { w, indices, out, out_lod, greedy };
    job_parallel_for_urgent(jobs, n, mesh_one, &j); /* a frame waits on it */
}
