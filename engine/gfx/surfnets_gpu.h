/* surfnets_gpu: naive surface nets as seed 004's four GLSL compute passes
 * (ComputeCOM, ConstructVBuffer, ConstructIBuffer, ComputeNormals). The
 * vertex and index buffers are filled on the GPU through atomic counters
 * that double as an indirect draw command, so drawing needs no readback.
 * The CPU reference is engine/mesh/surfnets. GL on the main thread only. */
#ifndef STRATA_SURFNETS_GPU_H
#define STRATA_SURFNETS_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mesh/surfnets.h"

typedef struct surfnets_gpu surfnets_gpu;

/* GPU buffers of one extraction (reused by the next one with room).
 *   verts:   vec4 per vertex: position in grid units, w = the cell number's bits
 *   normals: vec4 per vertex: unit normal, w = material + 256 * tint of the
 *            cell (mesh_smooth_material_sample, mesh_smooth_cell_tint), an
 *            integer held exactly in the float; 0 without a material grid
 *   mats:    the material bytes, then the tint bytes from the next word
 *   indices: uint, 3 per triangle, counter-clockwise from outside
 *   counters: the DrawElementsIndirectCommand (index count first), then the vertex count */
typedef struct surfnets_gpu_mesh {
    unsigned field, mats, com, lut, verts, normals, indices, counters;
    long field_cap, mats_cap, com_cap, lut_cap, vcap, ncap, icap, ccap; /* elements each holds */
} surfnets_gpu_mesh;

/* True when the context has compute shaders (GL 4.3; see
 * shader_compute_supported for STRATA_GL_NO_COMPUTE=1). */
bool surfnets_gpu_supported(void);
/* NULL with err set when compute shaders are missing or do not compile. */
surfnets_gpu *surfnets_gpu_create(char *err, size_t errlen);
void surfnets_gpu_destroy(surfnets_gpu *g);

/* Uploads the field (and, if mats is not NULL, one material byte per
 * sample, same layout, and the tint bytes the same way: NULL = no tints)
 * and runs the four passes. max_vertices bounds the output: pass
 * surfnets_active_cells() (triangles are at most 6 per active cell).
 * Returns false if the buffers cannot be made. */
bool surfnets_gpu_extract(surfnets_gpu *g, const surfnets_field *f, const uint8_t *mats, const uint8_t *tints,
                          long max_vertices, surfnets_gpu_mesh *m);
/* Runs the four passes again on the field (and materials) the last
 * extract uploaded into m: the timed part of the benchmarks. */
bool surfnets_gpu_dispatch(surfnets_gpu *g, const surfnets_field *f, bool has_mats, long max_vertices,
                           surfnets_gpu_mesh *m);
/* Reads the result back (tests, the `surfnets` command; never the render
 * path): positions, normals, cells and indices in the GPU's order. */
bool surfnets_gpu_read(const surfnets_gpu_mesh *m, surfnets_mesh *out);
/* The material and tint of the first `vertices` vertices, in the same
 * order (tests; never the render path). */
bool surfnets_gpu_read_materials(const surfnets_gpu_mesh *m, int vertices, uint8_t *mat, uint8_t *tint);
void surfnets_gpu_mesh_free(surfnets_gpu_mesh *m);

#endif
