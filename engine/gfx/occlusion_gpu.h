/* occlusion_gpu: occlusion culling's depth tiles reduced by a compute
 * shader (shaders/occlusion_tiles.comp) where the depth lies.
 *
 * The CPU way (occlusion.c) reads the whole depth image back, converting
 * every pixel on the main thread, then reduces it there: on llvmpipe the
 * rasterizer's threads sit idle through both, three times a frame, and on
 * a GPU the transfer of the image is most of the frame (render.frame.hills
 * on an NVIDIA H200: 2.99 ms of read-back and 1.61 ms of tiles in
 * 5.15). Here the depth drawn so far is copied into a texture (a blit: the
 * framebuffer may be the window's, which cannot be sampled), reduced to
 * 8x8-pixel tiles by the shader, and only the tiles come back: 1/64 of
 * the pixels. The result is the CPU reference's, occlusion_tiles_build on
 * the same depth, to the rounding of one conversion (tests/test_occlusion.c).
 *
 * GL on the main thread only; needs compute shaders (GL 4.3). */
#ifndef STRATA_OCCLUSION_GPU_H
#define STRATA_OCCLUSION_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "gfx/occlusion.h"

typedef struct occlusion_gpu occlusion_gpu;

/* NULL with err set when compute shaders are missing or the shader does
 * not compile. */
occlusion_gpu *occlusion_gpu_create(char *err, size_t errlen);
void occlusion_gpu_destroy(occlusion_gpu *g);

/* The depth of framebuffer `fb` (0: the default one), w x h pixels from
 * its origin, as drawn so far, reduced to tiles in a storage buffer of
 * the GPU's (*buf: (w+7)/8 x (h+7)/8 floats, rows from the bottom, valid
 * until the next call), nothing read back: a later shader reads them
 * (gfx/gpu_cull) after a storage barrier. False with err set when that
 * depth cannot be copied (no depth buffer, a format without a texture
 * twin) or GL raised an error; the tiles are then to be made the CPU way. The
 * program, the texture unit and the storage buffer binding it uses are
 * given back as they were, so a render mode goes on drawing. */
/* occlusion_gpu_reduce's tiles read back into t (a wait for the GPU). */
bool occlusion_gpu_reduce(occlusion_gpu *g, unsigned fb, int w, int h, unsigned *buf, char *err, size_t errlen);
bool occlusion_gpu_tiles(occlusion_gpu *g, unsigned fb, int w, int h, occlusion_tiles *t, char *err, size_t errlen);

#endif
