/* ghost: draws the cutting tool's voxel shape semi-transparently where it
 * sits, so the player sees what a cut will remove. The shape's exposed faces
 * are merged greedily into rectangles (pure CPU, mesh/mesh_shape.h) and drawn with
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
#include "mesh/mesh_shape.h"
#include "physics/octree.h"

/* How the ghost blends (fractions of the caller's alpha):
 *   front faces in front of the terrain:  1      (the shape itself)
 *   back faces in front of the terrain:   0.5    (its far side, through it;
 *                                                  also what shows when the
 *                                                  eye is inside the tool)
 *   front faces behind the terrain:       0.35   (the buried part, x-ray) */
#define GHOST_BACK_ALPHA 0.5f
#define GHOST_HIDDEN_ALPHA 0.35f

typedef struct ghost_renderer ghost_renderer;

/* How the ghost is drawn. SOLID: the three blended passes above (the
 * shape as a tinted solid; on a software rasterizer about 1 ms per 3% of the
 * screen it covers). WIRE: its outline only (shape_outline_build: the edges
 * where the surface bends, each drawn once; those on its far side, both
 * faces turned from the eye, left out), strongly where they are in front
 * of the terrain and at GHOST_HIDDEN_ALPHA where buried: `tool.preview
 * wire` (a few thousand pixels; the solid ghost cost ~10 ms a frame on a
 * software rasterizer). */
/* FRONT: the near side only, where terrain does not hide it (what is
 * seen of voxels a fill adds, as they will be seen once added). */
typedef enum ghost_style { GHOST_SOLID, GHOST_WIRE, GHOST_FRONT } ghost_style;

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
/* The same in a chosen style (ghost_draw is GHOST_SOLID). */
void ghost_draw_style(ghost_renderer *g, const camera *cam, const octree_pose *pose, const float rgba[4],
                      unsigned framebuffer, int width, int height, ghost_style style);

#endif
