/* enhance_gpu: voxel detail enhancement of one chunk in a compute shader
 * (shaders/enhance_subdivide.comp, enhance_resample.comp). The CPU operators
 * in gen/enhance are the reference: the same input gives the same bits.
 * GL thread only; needs GL 4.3+ compute shaders. */
#ifndef STRATA_ENHANCE_GPU_H
#define STRATA_ENHANCE_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/enhance.h"

typedef struct enhance_gpu enhance_gpu;

/* Compiles both shaders; NULL with the driver's message when they fail. */
enhance_gpu *enhance_gpu_create(char *err, size_t errlen);
void enhance_gpu_destroy(enhance_gpu *g);

/* Runs the context's operator on the chunk. rows gets F*F rows for every
 * voxel (CHUNK_INDEX order; only mixed voxels are written), mixed one flag
 * per voxel. Both may be NULL when only `out` is wanted. */
bool enhance_gpu_run(enhance_gpu *g, const enhance_ctx *e, const enhance_input *in, uint16_t *rows, uint8_t *mixed,
                     char *err, size_t errlen);
/* Runs and compacts into the same form as enhance_chunk_build. */
bool enhance_gpu_build(enhance_gpu *g, const enhance_ctx *e, const enhance_input *in, enhance_chunk *out, char *err,
                       size_t errlen);

#endif
