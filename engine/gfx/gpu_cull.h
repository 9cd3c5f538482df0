/* gpu_cull: a mode's opaque pass (blocks, smooth) drawn from one vertex
 * buffer (gfx/mesh_arena) with one glMultiDrawElementsIndirect per ring,
 * the draws culled by a compute shader (shaders/chunk_cull.comp), nothing
 * read back and nothing waited for on the main thread.
 *
 * The mode lists the frame's draws as its CPU path would issue them
 * (visible chunks nearest first, each chunk's cells nearest first; the
 * blocks mode: the face directions that can face the eye, one command per
 * cell, pass and run of face directions; smooth: one per cell, and its
 * skirts), with the cell's box and the chunk's origin.
 * Commands come in rings by distance, as occlusion culling's read-backs
 * do (render.occlusion_near, then twice as far each): the first ring is
 * tested against the frustum only and drawn; before each further ring the
 * depth drawn so far is reduced to 8x8-pixel tiles on the GPU
 * (gfx/occlusion_gpu, its tiles left where they are) and the ring's boxes
 * are tested against them. Near rings first keeps the CPU path's
 * correctness argument: the tiles are the real depth of what is drawn.
 * A culled command keeps its slot with no instance, so the order of the
 * draws, and with it every tie of depth, is the CPU path's: the same
 * picture byte for byte.
 *
 * The origin of each chunk comes from an instanced attribute (location 2)
 * whose element is the command's baseInstance: core since GL 4.2, where
 * gl_DrawID or gl_BaseInstance need GL 4.6 or ARB_shader_draw_parameters.
 * Counts of what was drawn come back through a persistently mapped buffer
 * a frame or two later, polled by fence, never waited for.
 *
 * GL on the main thread only; needs GL 4.3 (compute, multi-draw indirect). */
#ifndef STRATA_GPU_CULL_H
#define STRATA_GPU_CULL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gfx/camera.h"
#include "gfx/occlusion_judge.h"

/* rings at most: the first and three tested against the tiles */
#define GPU_CULL_RINGS 4

typedef struct gpu_cull gpu_cull;

/* One draw of the opaque pass. */
typedef struct gpu_cull_cmd {
    uint32_t count;       /* indices */
    uint32_t first_index; /* where they start in the index buffer (blocks: 0, the shared quad pattern) */
    int32_t base_vertex;  /* in the arena */
    uint32_t box;        /* its cell's box, gpu_cull_frame.box */
    uint32_t inst;       /* its chunk, gpu_cull_frame.inst; | GPU_CULL_FIRST on the box's first command */
} gpu_cull_cmd;
#define GPU_CULL_FIRST 0x80000000u

/* A frame's draws, filled by the renderer (grown with gpu_cull_reserve). */
typedef struct gpu_cull_frame {
    gpu_cull_cmd *cmd;
    float (*box)[8];   /* lo xyz, 0, hi xyz, 0: relative to the render origin */
    float (*inst)[4];  /* chunk origin relative to the render origin, and the mode's own (blocks: its level) */
    int cmd_n, box_n, inst_n;
    int cmd_cap, box_cap, inst_cap;
    int ring_end[GPU_CULL_RINGS]; /* commands [ring_end[r-1], ring_end[r]) are ring r */
    int rings;                    /* used */
    int ring;                     /* the one being listed, and where the next begins */
    float next;
} gpu_cull_frame;

/* What the GPU counted for a frame that has come back. */
typedef struct gpu_cull_counts {
    long frame;      /* which (0: none yet) */
    long triangles;  /* drawn by the opaque pass */
    int tested, hidden, outside; /* cells tested against the tiles, hidden by them, outside the frustum */
} gpu_cull_counts;

/* NULL with err set where the path cannot run: GL older than 4.3, no
 * compute shaders, the shader does not compile, or STRATA_GL_NO_INDIRECT=1
 * (pretends the probe failed, to exercise the fallback). */
gpu_cull *gpu_cull_create(char *err, size_t errlen);
void gpu_cull_destroy(gpu_cull *g);
/* Room for n more commands, boxes and instances; false when out of memory. */
bool gpu_cull_reserve(gpu_cull_frame *f, int cmds, int boxes, int insts);
void gpu_cull_frame_free(gpu_cull_frame *f);
/* A frame's list begun empty, in the rings occlusion_rings_asked gives
 * (`rings`, 0: one ring, the frustum only; the first ends at `near`, each
 * next twice as far), as the read-back path reads. */
void gpu_cull_list_begin(gpu_cull_frame *f, int rings, float near);
/* The next chunk (nearest first, at distance `dist`), with room for
 * `cmds` more commands and `boxes` boxes: its instance (origin o relative
 * to the render origin, and w), or -1 when out of memory. */
int gpu_cull_list_chunk(gpu_cull_frame *f, float dist, int cmds, int boxes, const float o[3], float w);
/* The box (chunk-local lo, hi moved by o) of the commands listed since
 * cmd0, numbered f->box_n as they name it; nothing when there are none. */
void gpu_cull_list_box(gpu_cull_frame *f, int cmd0, const float o[3], const float lo[3], const float hi[3]);
/* Quads [at, at + 4 quads) of the vertex buffer (base vertex `at`,
 * indices from the shared quad pattern's start), of box `box` and
 * instance `inst`: merged into the last command listed since cmd0 where
 * they follow its quads in the buffer, else a command of their own (the
 * box's first flagged). */
void gpu_cull_list_quads(gpu_cull_frame *f, int cmd0, int32_t at, int quads, uint32_t box, uint32_t inst);
/* The list ends: the rings not reached are empty. */
void gpu_cull_list_end(gpu_cull_frame *f);
/* Culls and draws f's commands with the program bound now (its uniforms
 * set) through vertex array `vao`: its vertices and indices bound by the
 * mode, its binding 1 (divisor 1, a vec4 an instance) given f's instances
 * here. `test`: 0 draws every command, 1 culls by the frustum, 2 by the
 * frustum and, from the second ring on, the depth tiles of framebuffer
 * `fb` (w x h). Returns the draw calls issued; -1 with err set on a GL
 * error (what was drawn stays). */
int gpu_cull_draw(gpu_cull *g, const gpu_cull_frame *f, const camera *cam, int test, unsigned fb, int w, int h,
                  unsigned vao, char *err, size_t errlen);
/* The newest frame's counts that have come back. */
gpu_cull_counts gpu_cull_last(const gpu_cull *g);

/* render.gpu_cull for one mode: 0 the read-back path, 1 the GPU's, 2
 * whichever the frames' times favour (gfx/occlusion_judge, its "with" the
 * read-back path: a tie keeps it, and the first frames draw as they
 * always did; its first trial a trial's length after the occlusion
 * judge's, so that neither times the other's alternation). The cull is
 * made when first wanted; where it cannot run, or once it fails, the
 * read-back path for good, said once. */
typedef struct gpu_cull_pick {
    gpu_cull *gc;
    bool failed;
    occlusion_judge judge;
    uint64_t last_ns;  /* the last frame's start */
    bool said;
    int judged_for;    /* the setting the judge started for */
    const char *mode;  /* named in what is said */
} gpu_cull_pick;

void gpu_cull_pick_init(gpu_cull_pick *p, const char *mode);
void gpu_cull_pick_free(gpu_cull_pick *p);
/* Once a frame, before its opaque pass: whether it is drawn the GPU's way
 * (p->gc then ready), for render.gpu_cull `setting`. */
bool gpu_cull_pick_next(gpu_cull_pick *p, int setting);
/* The GPU path failed this frame (err): the read-back path from now on. */
void gpu_cull_pick_fail(gpu_cull_pick *p, const char *err);
/* Draws a listed frame the GPU's way (gpu_cull_draw, with the program
 * bound, through `vao`): the depth tiles are those of the framebuffer
 * bound for reading, as the read-back path's (a multisampled one has none
 * to tile, its blit would resolve: the frustum only; `rings` 0: no test).
 * Adds the draw calls, the newest counted frame's triangles and gpu_cull
 * to stats. False on a GL error (said; the read-back path from now on). */
struct render_stats;
bool gpu_cull_pick_draw(gpu_cull_pick *p, const gpu_cull_frame *f, const camera *cam, int w, int h, int rings,
                        unsigned vao, struct render_stats *stats);
/* How many times setting 2 has chosen, and whether the last chose the GPU. */
void gpu_cull_pick_verdicts(const gpu_cull_pick *p, int *verdicts, bool *gpu);

#endif
