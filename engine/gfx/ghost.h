/* ghost: draws the cutting tool's voxel shape semi-transparently where it
 * sits, so the player sees what a cut will remove. The shape's exposed faces
 * are merged greedily into rectangles (pure CPU, ghost_build) and drawn with
 * exactly the tool's pose transform (octree.h), so what is seen is what the
 * octree cuts: a terrain voxel is cut iff its centre lies inside the drawn
 * solid. GL is used on the main thread only (ghost_create .. ghost_destroy). */
#ifndef STRATA_GHOST_H
#define STRATA_GHOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/shape.h"
#include "gfx/camera.h"
#include "physics/octree.h"

/* ---- pure CPU: the shape's surface as quads -------------------------------- */

/* Face ids: the axis times two, plus one for the positive side. */
enum { GHOST_NEG_X, GHOST_POS_X, GHOST_NEG_Y, GHOST_POS_Y, GHOST_NEG_Z, GHOST_POS_Z, GHOST_FACES };
/* Outward unit normal of each face id. */
extern const int ghost_face_normal[GHOST_FACES][3];

/* 16 bytes. pos is in the tool's own grid (voxel units; voxel (i, j, k) is
 * the cube [i, i+1) x [j, j+1) x [k, k+1)), so corners are whole numbers. */
typedef struct ghost_vertex {
    float pos[3];
    uint32_t face; /* GHOST_NEG_X .. GHOST_POS_Z, the same on all 4 corners */
} ghost_vertex;

/* Four vertices per quad, v[4q .. 4q+3]. v0 is the quad's minimum corner;
 * with the face on axis d and the in-plane axes u = (d+1) % 3, v = (d+2) % 3
 * (so u x v points along +d):
 *   positive face: v0, v0 + W u, v0 + W u + H v, v0 + H v
 *   negative face: v0, v0 + H v, v0 + W u + H v, v0 + W u
 * Both triangles (0,1,2) and (0,2,3) are counter-clockwise seen from
 * outside the solid: draw with indices 0,1,2, 0,2,3 and glFrontFace(GL_CCW). */
typedef struct ghost_mesh {
    ghost_vertex *v;
    int quads;
    int cap;    /* quads the buffer holds */
    long faces; /* exposed unit faces before merging */
} ghost_mesh;

/* Every face of a solid voxel whose neighbour that way is empty or outside
 * the grid, each covered by exactly one quad; coplanar faces of one slice
 * are merged greedily into rectangles (a 64^3 ball: 0.8M voxel faces, 19k
 * exposed, 8.5k quads). Reuses out's buffer; start from a zeroed ghost_mesh.
 * Returns false when out of memory, with out emptied (quads = 0). */
bool ghost_build(const shape *s, ghost_mesh *out);
void ghost_mesh_free(ghost_mesh *m);

/* ---- GL: drawing it -------------------------------------------------------- */

/* How the ghost blends (fractions of the caller's alpha):
 *   front faces in front of the terrain:  1      (the shape itself)
 *   back faces in front of the terrain:   0.5    (its far side, through it;
 *                                                  also what shows when the
 *                                                  eye is inside the tool)
 *   front faces behind the terrain:       0.35   (the buried part, x-ray) */
#define GHOST_BACK_ALPHA 0.5f
#define GHOST_HIDDEN_ALPHA 0.35f

typedef struct ghost_renderer ghost_renderer;

/* Loads shaders/ghost.vert and shaders/ghost.frag. NULL with err set. */
ghost_renderer *ghost_create(char *err, size_t errlen);
void ghost_destroy(ghost_renderer *g);

/* Meshes s and uploads it, replacing the previous shape. Call it when the
 * tool's shape changes (not per frame: a 64^3 ball takes about 2 ms). s may
 * be freed afterwards. s = NULL or an empty shape draws nothing. Returns
 * false when out of memory; then nothing is drawn rather than a stale shape. */
bool ghost_set_shape(ghost_renderer *g, const shape *s);
/* Quads of the current shape (for a debug overlay). */
int ghost_quads(const ghost_renderer *g);

/* Draws the current shape at `pose` (model = translate(pos) * rot *
 * translate(-size / 2), the octree's tool_to_world) into framebuffer
 * (0 = window) of width x height, blended over what is there. Call it after
 * the world is drawn, with the world's depth buffer still bound: terrain in
 * front hides the shape except for the faint x-ray pass; a tool face lying
 * exactly on a terrain face counts as in front. rgba: colour and alpha of
 * the front faces, components 0..1. Writes no depth. Leaves the
 * state renderer_draw expects: depth test on (GL_LESS) with depth writes,
 * back faces culled (CCW front), blending and polygon offset off. */
void ghost_draw(ghost_renderer *g, const camera *cam, const octree_pose *pose, const float rgba[4],
                unsigned framebuffer, int width, int height);

#endif
