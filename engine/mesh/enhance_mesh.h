/* enhance_mesh: the fine fragments of one enhanced chunk (gen/enhance) as
 * flat-shaded cubes: faces between two solid fragments are culled and
 * coplanar faces of one material are merged greedily, on bit rows of a
 * dense fragment grid (rows along x and, transposed, along z), so the work
 * follows the visible faces. Pure CPU: safe on worker threads. */
#ifndef STRATA_ENHANCE_MESH_H
#define STRATA_ENHANCE_MESH_H

#include <stdint.h>

#include "gen/enhance.h"

/* 8 bytes per vertex, 4 per quad (corner order as in mesh_blocks.h):
 *   a: x | y << 10 | z << 20   (chunk-local corner in fragments, 0..32F)
 *   b: material | tint << 8 | face << 16 */
typedef struct enhance_vertex { uint32_t a, b; } enhance_vertex;

typedef struct enhance_mesh {
    enhance_vertex *v;
    int count, cap; /* vertices */
    long faces;     /* visible fragment faces before merging */
    int quads;
} enhance_mesh;

/* Meshes chunk `c` (built from `in`). nb[face] is the enhanced neighbour
 * chunk across each face (face_id order) or NULL, in which case its
 * voxels count as their material says (solid or empty) - unless bit face
 * of `open` is set: then nothing there hides this chunk's border faces (a
 * neighbour drawn another way, whose surface need not meet these
 * fragments, so the border is closed from this side). */
void enhance_mesh_build(const enhance_chunk *c, const enhance_input *in, const enhance_chunk *const nb[6],
                        unsigned open, enhance_mesh *out);
void enhance_mesh_free(enhance_mesh *m);

#endif
