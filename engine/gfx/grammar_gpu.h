/* grammar_gpu: the voxel grammar derivation (seed 004) in a compute shader
 * (shaders/grammar_derive.comp), the future work of the paper's section 6.
 * grammar_derive in gen/grammar is the reference: the same program, grid,
 * bounds, strides and seed give the same bits after every step. GL thread
 * only; needs GL 4.3 compute shaders. docs/grammar.md says how the
 * sequential order of windows becomes parallel waves. */
#ifndef STRATA_GRAMMAR_GPU_H
#define STRATA_GRAMMAR_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/grammar.h"

typedef struct grammar_gpu grammar_gpu;

/* Whether the shader can derive every rule of prog: only the operators it
 * knows (Table 1 and 2), finite weights, and values 0 or 2^-100 <= |v| <=
 * 2^100 (far from the subnormals a GPU may flush and from overflow). False
 * with the reason otherwise: callers derive on the CPU instead, so
 * operators added to the grammar later stay correct before the shader
 * learns them. Pure CPU: needs no GL. */
bool grammar_gpu_supports(const grammar_program *prog, char *why, size_t whylen);

/* Compiles the shader; NULL with the reason when compute shaders are
 * missing (or hidden by STRATA_GL_NO_COMPUTE=1) or it does not compile. */
grammar_gpu *grammar_gpu_create(char *err, size_t errlen);
void grammar_gpu_destroy(grammar_gpu *g);

/* The whole derivation, as grammar_derive: uploads the grid, runs every
 * step, reads the grid back. Refuses (grid untouched) bad params, a
 * program grammar_gpu_supports refuses and a grid with a density outside
 * the same range as the values (the world's are 0 and 1). */
bool grammar_gpu_derive(grammar_gpu *g, const grammar_program *prog, grammar_grid *grid, const grammar_params *p,
                        grammar_stats *stats, char *err, size_t errlen);

/* The same in steps (tests compare every step with the CPU): upload the
 * program and grid, then step (iteration, group) in order, then read. */
bool grammar_gpu_upload(grammar_gpu *g, const grammar_program *prog, const grammar_grid *grid, char *err,
                        size_t errlen);
void grammar_gpu_step(grammar_gpu *g, const grammar_program *prog, const grammar_params *p, int iter, int group);
/* How a lane's windows are visited; every order gives the same bits (the
 * tests run each): GRAMMAR_GPU_AUTO walks a lane with fewer live windows
 * than waves on one invocation and runs the waves otherwise. */
typedef enum grammar_gpu_order { GRAMMAR_GPU_AUTO, GRAMMAR_GPU_WALK, GRAMMAR_GPU_WAVES } grammar_gpu_order;
void grammar_gpu_set_order(grammar_gpu *g, grammar_gpu_order order);

/* Reads the grid into grid->d; matches (may be NULL) gets the transforms
 * applied since the upload. */
bool grammar_gpu_read(grammar_gpu *g, grammar_grid *grid, long long *matches, char *err, size_t errlen);

#endif
