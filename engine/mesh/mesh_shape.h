/* mesh_shape: the surface of a voxel shape (gen/shape.h) as merged quads in
 * the shape's own grid, for drawing it at any pose (the cutting tool's
 * ghost, gfx/ghost.h). Pure CPU: the GL side only uploads the result. */
#ifndef STRATA_MESH_SHAPE_H
#define STRATA_MESH_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/shape.h"

/* Face ids: the axis times two, plus one for the positive side. */
enum { SHAPE_NEG_X, SHAPE_POS_X, SHAPE_NEG_Y, SHAPE_POS_Y, SHAPE_NEG_Z, SHAPE_POS_Z, SHAPE_FACES };
/* Outward unit normal of each face id. */
extern const int shape_face_normal[SHAPE_FACES][3];

/* 16 bytes. pos is in the tool's own grid (voxel units; voxel (i, j, k) is
 * the cube [i, i+1) x [j, j+1) x [k, k+1)), so corners are whole numbers. */
typedef struct shape_mesh_vertex {
    float pos[3];
    uint32_t face; /* SHAPE_NEG_X .. SHAPE_POS_Z, the same on all 4 corners */
} shape_mesh_vertex;

/* Four vertices per quad, v[4q .. 4q+3]. v0 is the quad's minimum corner;
 * with the face on axis d and the in-plane axes u = (d+1) % 3, v = (d+2) % 3
 * (so u x v points along +d):
 *   positive face: v0, v0 + W u, v0 + W u + H v, v0 + H v
 *   negative face: v0, v0 + H v, v0 + W u + H v, v0 + W u
 * Both triangles (0,1,2) and (0,2,3) are counter-clockwise seen from
 * outside the solid: draw with indices 0,1,2, 0,2,3 and glFrontFace(GL_CCW). */
typedef struct shape_mesh {
    shape_mesh_vertex *v;
    int quads;
    int cap;    /* quads the buffer holds */
    long faces; /* exposed unit faces before merging */
} shape_mesh;

/* Every face of a solid voxel whose neighbour that way is empty or outside
 * the grid, each covered by exactly one quad; coplanar faces of one slice
 * are merged greedily into rectangles (a 64^3 ball: 0.8M voxel faces, 19k
 * exposed, 8.5k quads). Reuses out's buffer; start from a zeroed shape_mesh.
 * Returns false when out of memory, with out emptied (quads = 0). */
bool shape_mesh_build(const shape *s, shape_mesh *out);
void shape_mesh_free(shape_mesh *m);

/* The shape's outline: the voxel-grid edges where its surface bends (the
 * exposed faces that touch the edge are not all coplanar: a convex or
 * concave crease, or two voxels meeting at a diagonal), merged into maximal
 * straight segments. Seams between coplanar faces — wherever the greedy
 * merge happened to split a plane — are not lines of the shape and are left
 * out, so every outline pixel is drawn once (the ghost's wire style). A
 * segment is v[2s] .. v[2s+1], lying along one axis; face holds the two
 * exposed faces beside it, the first in bits 0-7, the second in bits 8-15
 * (SHAPE_OUTLINE_ANY where two voxels meet at a diagonal: four faces that
 * look every way), so a renderer can leave out edges whose faces all turn
 * away from the eye. */
#define SHAPE_OUTLINE_ANY 6
typedef struct shape_outline {
    shape_mesh_vertex *v;
    int segments;
    int cap;   /* segments the buffer holds */
    long edges; /* unit edges before merging */
} shape_outline;

/* Reuses out's buffer; start from a zeroed shape_outline. Returns false when
 * out of memory, with out emptied. */
bool shape_outline_build(const shape *s, shape_outline *out);
void shape_outline_free(shape_outline *o);

#endif
