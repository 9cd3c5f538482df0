#include "mesh/mesh_world.h"

#include <stdlib.h>

typedef struct mesh_world_job {
    const world *w;
    const int *indices;
    chunk_mesh *out;
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
        return;
    }
    mesh_gather(j->w, cx, cy, cz, in);
    mesh_build(in, j->greedy, &j->out[k]);
    free(in);
}

void mesh_world_chunks(const world *w, job_pool *jobs, const int *indices, int n, bool greedy, chunk_mesh *out)
{
    mesh_world_job j = { w, indices, out, greedy };
    job_parallel_for(jobs, n, mesh_one, &j);
}
