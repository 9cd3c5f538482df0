#include "mesh/mesh_world.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_lod.h"

typedef struct mesh_world_job {
    const world *w;
    const int *indices;
    chunk_mesh *out, *out_lod;
    bool greedy;
} mesh_world_job;

static_assert(MAT_AIR == 0, "an air chunk's bytes are all zero");
static_assert(CHUNK_VOLUME % 256 == 0, "chunk_all_air reads 256 bytes at a time");

/* Whether every voxel of chunk (cx, cy, cz) is air. Its mesh is then empty
 * whatever lies around it (mesh_build emits the faces of the chunk's own
 * voxels only: none renders itself; the LOD's cells are the chunk's own),
 * so it needs neither the gather nor a build: the sky over the ground, and
 * the columns a streamed window has just emptied (their old meshes go). */
static bool chunk_all_air(const world *w, int cx, int cy, int cz)
{
    const chunk *c = world_chunk(w, cx, cy, cz);
    if (!c) return false;
    for (size_t i = 0; i < CHUNK_VOLUME; i += 256) {
        uint64_t any = 0;
        for (size_t k = 0; k < 256; k += 8) {
            uint64_t x;
            memcpy(&x, c->vox + i + k, sizeof x);
            any |= x;
        }
        if (any) return false;
    }
    return true;
}

static void mesh_one(void *arg, int k)
{
    mesh_world_job *j = arg;
    int cx, cy, cz;
    world_chunk_coords(j->w, j->indices[k], &cx, &cy, &cz);
    if (chunk_all_air(j->w, cx, cy, cz)) {
        mesh_clear(&j->out[k]);
        if (j->out_lod) mesh_clear(&j->out_lod[k]);
        return;
    }
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
