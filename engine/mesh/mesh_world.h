/* mesh_world: meshes many chunks of a world on the worker pool.
 * Workers only read voxels and fill plain arrays; the caller (main thread)
 * uploads the results. The world must not be written while this runs. */
#ifndef STRATA_MESH_WORLD_H
#define STRATA_MESH_WORLD_H

#include <stdbool.h>

#include "core/jobs.h"
#include "mesh/mesh_blocks.h"

/* Meshes chunks indices[0..n) into out[0..n) (buffers reused across calls). */
void mesh_world_chunks(const world *w, job_pool *jobs, const int *indices, int n, bool greedy, chunk_mesh *out);

/* The same, and also the coarser level of each chunk (mesh_lod.h) into
 * out_lod[0..n) (NULL: none). */
void mesh_world_chunks_lod(const world *w, job_pool *jobs, const int *indices, int n, bool greedy, chunk_mesh *out,
                           chunk_mesh *out_lod);

#endif
