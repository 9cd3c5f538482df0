/* collide: axis-aligned boxes and rays against the voxel world.
 * Pure CPU and stateless, so the player (and later anything else that walks
 * or picks) shares one tunnel-proof answer to "where does this stop?". */
#ifndef STRATA_COLLIDE_H
#define STRATA_COLLIDE_H

#include <stdbool.h>

#include "voxel/world.h"

/* Gap kept between a box and the faces it stops against. Without it a box
 * resting flush on the ground would, by rounding, overlap the ground layer
 * and snag on it when sliding sideways. 1e-3 is well above double precision
 * for any coordinate of the 32-bit world (2e-9 at 10^7). */
#define COLLIDE_SKIN 1e-3f

/* Positions are double: at x = 10^7 a float's step is a whole voxel, a
 * double's 2e-9, so a box walks, stops and picks far from the origin as it
 * does at it. Sizes, deltas and distances stay float: they are small. */

/* Voxel (x, y, z) occupies [x, x+1) x [y, y+1) x [z, z+1); it blocks when
 * material_get(id)->solid. Outside the world: air at the sides and top,
 * bedrock below y = 0 (see world.h). */

/* True if the box [min, max) overlaps any solid voxel. An empty box (max <=
 * min on some axis) overlaps nothing. */
bool collide_box_hits(const world *w, const double min[3], const double max[3]);

/* An upright box anchored at the centre of its bottom face (an entity's feet):
 * x and z span pos -/+ size/2, y spans [pos.y, pos.y + size.y]. */
typedef struct collide_box_desc {
    float size[3];
    float skin; /* 0 picks COLLIDE_SKIN */
} collide_box_desc;

typedef struct collide_result {
    bool blocked[3]; /* that axis stopped against a face before its full delta */
    bool on_ground;  /* not moving up, and solid ground within the skin below the feet */
    float moved[3];  /* the displacement actually applied */
} collide_result;

/* Moves the box at `pos` by `delta`, one axis at a time in the order y, x, z,
 * each stopping at the first solid voxel layer it would enter (so a move of
 * any length stops at the first wall, never tunnels). y goes first so that a
 * box falling beside a wall lands before it slides, and walks at its final
 * height; separating the axes is what lets a diagonal move slide along a
 * wall. A box that already overlaps solid voxels can move out of them, never
 * further in. Non-finite input is ignored (nothing moves). `out` may be NULL. */
void collide_move(const world *w, double pos[3], const collide_box_desc *box, const float delta[3],
                  collide_result *out);

/* collide_move with an occupancy octree over the same world (octree.h:
 * occupied = not air, kept exact as voxels change) as its broad phase:
 * layers the tree says are empty are not scanned. Same results as
 * collide_move, bit for bit (tested); occ may be NULL. */
struct octree;
void collide_move_octree(const world *w, const struct octree *occ, double pos[3], const collide_box_desc *box,
                         const float delta[3], collide_result *out);

/* A grid finer than the voxels that a box can collide with instead: the
 * enhanced fragments near the player (seed 000 section 4.3: fragments, not
 * voxels, drive the physics). Cell (x, y, z) covers [x, x+1) / scale, etc.,
 * counted from the window's first voxel (x0, 0, z0), not the world's
 * origin, so cells stay small wherever the window is; solid() answers for
 * cells [0, size * scale) of the window; beyond it the world's rules hold
 * (air at the sides and top, solid below y = 0). */
typedef struct collide_grid {
    int scale; /* cells per voxel edge */
    bool (*solid)(void *user, int x, int y, int z);
    void *user;
} collide_grid;

/* collide_move against the grid's cells (positions and deltas stay in
 * voxels); a NULL grid or scale < 1 is collide_move. */
void collide_move_grid(const world *w, const collide_grid *g, double pos[3], const collide_box_desc *box,
                       const float delta[3], collide_result *out);
/* collide_box_hits against the grid's cells (the box in voxels). */
bool collide_grid_box_hits(const world *w, const collide_grid *g, const double min[3], const double max[3]);

/* Voxel ray cast (Amanatides & Woo DDA) from `origin` along `dir` (need not
 * be unit length) for at most `max_dist` world units. On a hit returns true
 * with the solid voxel in `hit`, the face the ray entered through in `normal`
 * (pointing out of the voxel toward the origin; all zero when the origin
 * itself is inside solid) and the distance in `dist`. Any output may be NULL. */
bool collide_raycast(const world *w, const double origin[3], const float dir[3], float max_dist, int hit[3],
                     int normal[3], float *dist);

#endif
