/* mesh_blocks: turns a chunk of voxels into textured quads.
 * Hidden-face culling per seed 001/003 (a face is emitted only where the
 * render flags say it can be seen), then greedy merging of coplanar faces
 * with the same tile and tint, because on a software rasterizer triangle
 * count is frame time. Pure CPU: safe on worker threads. */
#ifndef STRATA_MESH_BLOCKS_H
#define STRATA_MESH_BLOCKS_H

#include <stdbool.h>
#include <stdint.h>

#include "voxel/material.h"
#include "voxel/world.h"

/* 8 bytes per vertex, 4 vertices per quad (indices are a shared pattern).
 *   a: x | y << 6 | z << 12 | face << 18      (x, y, z in 0..32, chunk-local corner)
 *   b: tile | tint << 8                        (tile = texture layer, tint 0 = none)
 * The shader derives texture coordinates from the world position and face,
 * so a merged W x H quad tiles its texture W x H times (GL_REPEAT).
 *
 * Corner order (every quad): v0 is the quad's minimum corner, v1 = v0 + W*U,
 * v2 = v0 + W*U + H*V, v3 = v0 + H*V, where per face
 *   back (+z): U = x, V = y      front (-z): U = y, V = x
 *   top  (+y): U = z, V = x      bottom (-y): U = x, V = z
 *   left (-x): U = z, V = y      right (+x): U = y, V = z
 * so U x V is the outward normal and both triangles (0,1,2) and (0,2,3)
 * are counter-clockwise seen from outside: draw with the shared index
 * pattern 0,1,2, 0,2,3 and glFrontFace(GL_CCW) + back-face culling. */
typedef struct mesh_vertex { uint32_t a, b; } mesh_vertex;

#define MESH_VERT_A(x, y, z, face) ((uint32_t)(x) | ((uint32_t)(y) << 6) | ((uint32_t)(z) << 12) | ((uint32_t)(face) << 18))
#define MESH_VERT_B(tile, tint) ((uint32_t)(tile) | ((uint32_t)(tint) << 8))

typedef struct mesh_buffer {
    mesh_vertex *v;
    int count; /* vertices; quads = count / 4 */
    int cap;
} mesh_buffer;

typedef struct chunk_mesh {
    mesh_buffer pass[PASS_COUNT]; /* opaque, cutout, translucent */
    int faces; /* visible voxel faces before merging */
    int quads; /* quads emitted after merging */
} chunk_mesh;

/* Voxels of one chunk plus a one-voxel border from its neighbours. */
#define MESH_PAD 34
typedef struct mesh_input {
    uint8_t vox[MESH_PAD * MESH_PAD * MESH_PAD];  /* x fastest, then z, then y; index (x+1, y+1, z+1) */
    uint8_t tint[MESH_PAD * MESH_PAD * MESH_PAD]; /* per cell; a face takes the tint of the cell it faces */
} mesh_input;
#define MESH_PAD_INDEX(x, y, z) (((x) + 1) + ((z) + 1) * MESH_PAD + ((y) + 1) * MESH_PAD * MESH_PAD)

/* Gathers chunk (cx, cy, cz) and its border from the world. */
void mesh_gather(const world *w, int cx, int cy, int cz, mesh_input *in);
/* Gathers a standalone 32^3 volume (x fastest, then z, then y) with air all round. */
void mesh_gather_volume(const uint8_t *vox, mesh_input *in);

/* Meshes the input into `out` (reusing its buffers; call mesh_free when done).
 * greedy = false emits one quad per visible face (for tests and comparison). */
void mesh_build(const mesh_input *in, bool greedy, chunk_mesh *out);
void mesh_clear(chunk_mesh *m);
void mesh_free(chunk_mesh *m);

#endif
