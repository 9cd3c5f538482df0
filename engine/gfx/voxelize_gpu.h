/* voxelize_gpu: seed 002's parity voxelization as a compute shader
 * (shaders/voxelize_parity.comp). The CPU plans each direction (lines and
 * bins, gen/voxelize.h); the GPU walks the lines. The result equals
 * voxelize_mesh's parity voxel for voxel. Main thread, GL 4.3+ with fp64. */
#ifndef STRATA_VOXELIZE_GPU_H
#define STRATA_VOXELIZE_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "gen/voxelize.h"

typedef struct voxelize_gpu voxelize_gpu;

/* NULL with the reason (no compute shaders, no doubles, shader errors). */
voxelize_gpu *voxelize_gpu_create(char *err, size_t errlen);
void voxelize_gpu_destroy(voxelize_gpu *v);

/* As voxelize_mesh with VOXELIZE_PARITY (d->method and d->pool are not
 * read). Also refused: a vertex more than 64 voxels outside the box of
 * the grid's first 256^3 cells, where the exact arithmetic would not fit a
 * double (grids fitted to the mesh never are). */
long voxelize_gpu_parity(voxelize_gpu *v, const obj_mesh *m, const voxelize_grid *g, const voxelize_desc *d,
                         uint8_t *out, char *err, size_t errlen);

#endif
