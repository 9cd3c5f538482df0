/* body: a voxel body, what an edit cut loose (detach.h). It owns its
 * voxels (materials, and the tints of the cells round them) in a small
 * grid, its mass, centre of mass and inertia tensor from the voxels and a
 * density per material, its pose and velocities. bodies.h moves it; here
 * are taking it out of the world and putting it back (merge). Pure CPU. */
#ifndef STRATA_BODY_H
#define STRATA_BODY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physics/octree.h"
#include "voxel/world.h"

/* A body's grid is its voxels' box plus one cell all round (the cells its
 * faces look into carry their tints), at most this many cells a side. */
#define BODY_MAX_SIDE 250

/* How a material's surface resists motion where it touches (docs/physics.md):
 * slide is the Coulomb coefficient (its angle of repose is atan(slide));
 * roll and spin are lengths in voxels, the lever arm with which a contact's
 * normal force resists turning across and about the normal. By the
 * material's class: rock, soil, sand, wood, foliage. A contact uses the
 * geometric mean of the two slides and the mean of the rolls and spins. */
typedef struct body_surface {
    float slide, roll, spin;
} body_surface;

typedef struct body {
    int size[3];       /* grid cells; x fastest, then z, then y (as a chunk) */
    uint8_t *mat;      /* per cell: material, air outside the body */
    uint8_t *tint;     /* per cell: the tint faces looking into it take */
    long count;        /* voxels */
    octree *tree;      /* occupancy of the grid (seed 003): ray picks, cuts */
    octree *shell;     /* the voxels with a face open to air: contacts (an
                        * interior voxel is never the first to touch) */
    float mass, inv_mass;
    float com[3];      /* centre of mass, grid coordinates */
    float inv_inertia[3][3]; /* about the centre of mass, in the grid's axes */
    float radius;      /* farthest voxel corner from the centre of mass */
    body_surface surface; /* its voxels' mean (body_surface_of) */
    /* pose: grid point p is at org + pos + R(rot) (p - com) in the world.
     * org is an integer frame (core/origin.h, fixed for the body's life):
     * pos stays a small float 10^7 voxels out, where a float world
     * coordinate steps a whole voxel, and a body there computes the same
     * floats as at the origin (org is 0 near the origin). Every float
     * position of the body (contacts, its octree pose's pos) is in it. */
    int org[3];
    float pos[3];
    float rot[4];      /* unit quaternion x, y, z, w */
    float vel[3], ang[3]; /* linear and angular velocity, world frame */
    float still;       /* seconds it has stayed within the sleep drift of rest_pos/rest_rot */
    float rest_pos[3], rest_rot[4]; /* the pose it is measured still against */
    float age;         /* seconds since it was cut loose */
    bool asleep;       /* at rest: bodies_step leaves it; the game merges it */
    bool held;         /* the last step held it: the terrain round it was not
                        * there to collide with (bodies_step) */
    uint32_t id;
} body;

body_surface body_surface_of(uint8_t mat);
body_surface body_surface_mix(body_surface a, body_surface b);

/* Mass per voxel for every material (material_table's density, or the
 * game's overrides). */
typedef struct body_density {
    float of[MAT_COUNT];
} body_density;
void body_density_default(body_density *d);

/* Takes voxels vox[0 .. count) (x y z triples, e.g. a detach group) out
 * of the world into a new body at rest at the same place: the world
 * cells become air (world_set: chunks dirty, edits recorded), their
 * materials and the tints round them go to the body. NULL (the world
 * untouched) when the voxels' box has a side over BODY_MAX_SIDE - 2,
 * there is no mass, or no memory. lo/hi: the box the world changed in. */
body *body_cut_from_world(world *w, const int *vox, size_t count, const body_density *dens, int lo[3], int hi[3]);
/* A body from a grid of materials (and tints, may be NULL), placed with
 * its grid's origin at `origin`, unrotated and at rest. Takes copies. */
body *body_from_grid(const uint8_t *mat, const uint8_t *tint, const int size[3], const float origin[3],
                     const body_density *dens);
/* The same at a world position in double (far from the origin). */
body *body_from_grid_at(const uint8_t *mat, const uint8_t *tint, const int size[3], const double origin[3],
                        const body_density *dens);
void body_destroy(body *b);

static inline size_t body_index(const body *b, int x, int y, int z)
{
    return (size_t)x + (size_t)b->size[0] * ((size_t)z + (size_t)b->size[2] * (size_t)y);
}

/* Row-major rotation matrix of the body's quaternion. */
void body_rotation(const body *b, float r[3][3]);
/* Position of grid point p in the body's frame (world minus b->org). */
void body_to_world(const body *b, float r[3][3], const float p[3], float out[3]);
/* The body's centre of mass in world coordinates (org + pos). */
void body_world_pos(const body *b, double out[3]);
/* The body's octree pose (octree.h: the tree's pivot is its grid centre). */
void body_octree_pose(const body *b, octree_pose *out);
/* Recomputes mass, centre of mass (keeping the world position of the
 * grid), inertia, radius and surface from the voxels: after voxels changed. False
 * when no mass is left. */
bool body_update_mass(body *b, const body_density *dens);

/* The pieces body b falls into when its cells are `mat` (grid-sized, b's
 * grid: b's own cells with some made air, e.g. by a cut) and their tints
 * `tint`: one new body per 6-connected group of voxels, each in a grid of
 * its own (its box plus one cell round, the tints of those cells kept),
 * where b had those voxels in the world, turning as b turned, moving as
 * that point of b moved (b's velocity plus its angular velocity across to
 * the piece's centre) and as old as b. *out gets a new array of the pieces
 * (free it; the pieces are the caller's). Returns how many (0: no voxel
 * left), or -1 (nothing made) when out of memory or a piece would be too
 * large a grid. */
int body_split(const body *b, const uint8_t *mat, const uint8_t *tint, const body_density *dens, body ***out);

/* Puts the body's voxels back into the world at its pose: each voxel goes
 * to the cell its centre is in, or, when that cell is taken (by terrain,
 * another of its voxels, the keep-out box, the world's edge or a streamed
 * column not generated yet, which only looks empty), to the
 * nearest free cell within two cells, upward first. Voxels with no free
 * cell are lost and counted; the tints round it go to the open cells they
 * land in, so its cut faces keep their colours. keep_out (NULL: none) is a box [lo, hi) (lo xyz, then hi xyz) in
 * world units the voxels stay out of (the player). The cells are found in
 * the body's frame and then offset by its org, so a body 10^7 out lands
 * in the same cells relative to it as at the origin. Returns the voxels
 * placed; lo/hi: the box the world changed in (empty when none). */
long body_merge(const body *b, world *w, const double keep_out[6], long *lost, int lo[3], int hi[3]);

#endif
