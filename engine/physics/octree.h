/* octree: which voxels are occupied, as an octree with a bounding sphere at
 * every node (seed 003, "Collision Detection"). It answers the paper's
 * question — every intersecting voxel pair between the terrain and a rotated
 * cutting tool — and, with the same tree, ray picks and box/sphere queries.
 * Kept up to date one voxel at a time: an edit touches one path, never rebuilds. */
#ifndef STRATA_OCTREE_H
#define STRATA_OCTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voxel/world.h"

/* Shape of the tree. Voxel (x, y, z) occupies the unit cube [x, x+1) x
 * [y, y+1) x [z, z+1). A node of level k is the cube of side 2^k at cell
 * (i, j, l): [i 2^k, (i+1) 2^k) ...; level 0 nodes are voxels, the root has
 * the smallest level whose cube covers the whole domain (at least 1).
 *
 * Nodes are implicit: a node of level k >= 1 is one byte, the mask of its
 * non-empty children (bit dx | dy << 1 | dz << 2), so a level-1 node holds
 * the occupancy bits of its 2x2x2 voxels and "empty" is a zero byte at any
 * level. The whole tree is about a seventh of a byte per voxel.
 *
 * The bounding sphere of a node is the sphere around its cube: centre at
 * the cube's centre, radius 2^k * sqrt(3) / 2. It needs no storage, and
 * under a rotation only the centre moves, which is what makes a rotated
 * tool cheap (the paper's reason for spheres). */
typedef struct octree octree;

/* An empty tree over sx * sy * sz voxels (each side 1 .. 65536). */
octree *octree_create(int sx, int sy, int sz);
/* From a dense grid laid out like a chunk (x fastest, then z, then y); a
 * voxel is occupied when its byte is non-zero. */
octree *octree_from_dense(const uint8_t *vox, int sx, int sy, int sz);
/* Over the world's window, in the world's (global) coordinates: occupied =
 * not air. The tree's cells start at the window's first voxel (its
 * origin), and every call below takes and gives world coordinates. */
octree *octree_from_world(const world *w);
/* Over the part of the world's window in [lo, hi) (lo[0], lo[2] multiples
 * of CHUNK_SIZE; y is always the window's whole height): a tree around the
 * player in a streamed world, rebuilt as the player moves, costs its box,
 * not the window. NULL when the box holds no column of the window. */
octree *octree_from_world_box(const world *w, const int lo[3], const int hi[3]);
/* The same tree built a few chunk columns at a time (a streamed world's
 * tool tree, rebuilt as the eye travels, spread over frames): begin makes
 * it empty (NULL as octree_from_world_box); each fill reads up to
 * `columns` more of the box's columns from w, from the cursor *next (0 at
 * first), and returns true once every column is read and the levels above
 * are built: only then is the tree usable. The voxels of a column read
 * earlier must not have changed meanwhile (or start again). */
octree *octree_box_begin(const world *w, const int lo[3], const int hi[3]);
bool octree_box_fill(octree *o, const world *w, int *next, int columns);
/* Where the tree's first cell is in world coordinates (0 0 0 unless made
 * by octree_from_world for a window away from the origin). */
void octree_origin(const octree *o, int org[3]);
void octree_destroy(octree *o);

void octree_size(const octree *o, int size[3]);
int octree_root_level(const octree *o);
long octree_count(const octree *o); /* occupied voxels */
/* Changes with every voxel octree_set changes: what was found in the tree
 * still holds while this stays the same (bodies keep contact pairs). */
uint64_t octree_version(const octree *o);
bool octree_get(const octree *o, int x, int y, int z);
/* Marks one voxel occupied or empty, updating only the masks on its path
 * that change (the climb stops at the first ancestor whose emptiness is
 * unchanged). Returns true if the voxel changed; out of range is ignored. */
bool octree_set(octree *o, int x, int y, int z, bool occupied);
/* Re-reads the world voxels in [lo, hi) (occupied = not air) with
 * octree_set: call it for edits the tree did not see (grammar, load). */
void octree_sync_world(octree *o, const world *w, const int lo[3], const int hi[3]);
/* Same voxels and the same masks at every level (tests: incremental = rebuilt). */
bool octree_equal(const octree *a, const octree *b);

/* Where a tool sits: a point p of the tool's own grid (voxel units) is at
 * org + pos + rot * (p - pivot) in the world, pivot being the centre of the
 * tool's grid (size / 2). rot is a rotation, row-major (rot[row][col]).
 * org is an integer frame (core/origin.h) so that pos stays a small float
 * 10^7 voxels out, where a float world coordinate would step a whole voxel:
 * the voxels a pose selects relative to it are the same there as at the
 * origin. The constructors below leave org 0; octree_pose_place sets it. */
typedef struct octree_pose {
    float rot[3][3];
    float pos[3];
    int org[3];
} octree_pose;

void octree_pose_identity(octree_pose *p, const float pos[3]);
/* Puts the pose (rotation kept) at world position `at`: org from
 * origin_snap, pos the rest. */
void octree_pose_place(octree_pose *p, const double at[3]);
/* The pose's world position, org + pos. */
void octree_pose_world(const octree_pose *p, double out[3]);
/* The camera's rotation, in the player's convention (game/play/player.h): yaw
 * 0 looks toward -z and grows toward +x, pitch > 0 looks up. The tool's +x
 * is the view's right, +y its up and -z its forward, so a tool that is not
 * round keeps facing the way the player looks. */
void octree_pose_from_yaw_pitch(octree_pose *p, float yaw_deg, float pitch_deg, const float pos[3]);

/* One intersecting pair: terrain voxel t (terrain coordinates) and tool voxel
 * c (the tool's grid). */
typedef struct octree_pair {
    int t[3];
    int c[3];
} octree_pair;

/* A growable list the caller keeps between queries, so steady-state cuts
 * allocate nothing. */
typedef struct octree_pairs {
    octree_pair *v;
    size_t count, cap;
    bool out_of_memory; /* some pairs were dropped */
} octree_pairs;

void octree_pairs_free(octree_pairs *p);
/* Sorts by terrain voxel, then tool voxel (to compare two lists). */
void octree_pairs_sort(octree_pairs *p);

/* When two voxels intersect. The paper puts a bounding sphere round each
 * voxel too, but two unit spheres of radius sqrt(3)/2 overlap for face,
 * edge and corner neighbours alike, so a cut would come out a voxel fatter
 * than the tool all round. The spheres stay as the broad phase at every
 * level; at the voxels the pair test is exact: terrain voxel t and tool
 * voxel c intersect iff the centre of t lies inside the (rotated) cube of c,
 * each local coordinate in [-1/2, 1/2). This voxelises the rotated tool:
 * an unrotated tool at a whole-voxel offset removes exactly its own shape,
 * and each terrain voxel pairs with at most one tool voxel. */
bool octree_voxel_pair_hit(const octree_pose *pose, const float pivot[3], const int t[3], const int c[3]);

/* The paper's recursive algorithm: while the bounding spheres of the
 * current terrain node and tool node intersect, descend the terrain to
 * single voxels, then the tool, and emit the pairs that pass the voxel
 * test — all pairs in one traversal, never restarting from the roots.
 * Terrain spheres shrink by a voxel's half-diagonal (only terrain voxel
 * centres matter to the pair test), which prunes one more shell. Replaces
 * out's contents; returns the number of pairs. */
size_t octree_intersect(const octree *terrain, const octree *tool, const octree_pose *pose, octree_pairs *out);
/* Reference: every occupied terrain voxel against every tool voxel. */
size_t octree_intersect_brute(const octree *terrain, const octree *tool, const octree_pose *pose,
                              octree_pairs *out);

/* The same traversal with the paper's own leaf test, for contacts between
 * voxel bodies: every pair whose voxel centres lie at most `reach` apart
 * (the tool voxel rotated by the pose). Bounding spheres of voxels of
 * radius r overlap when reach = 2r; a body's contact generation asks for
 * the pairs near enough to touch and decides the contact itself. A reach
 * that is not a positive finite number is 0. Replaces out's contents. */
size_t octree_intersect_near(const octree *terrain, const octree *tool, const octree_pose *pose, float reach,
                             octree_pairs *out);
/* Reference: every voxel against every voxel with the same test. */
size_t octree_intersect_near_brute(const octree *terrain, const octree *tool, const octree_pose *pose, float reach,
                                   octree_pairs *out);

/* First occupied voxel along a ray from `origin` in direction `dir` (any
 * length) within `max_dist`, visiting nodes front to back and skipping
 * empty ones. Conventions of collide_raycast: hit voxel, the face entered
 * through as an outward normal (all zero when the origin is inside an
 * occupied voxel), distance along the normalised direction. NULL outputs
 * are allowed. */
bool octree_raycast(const octree *o, const double origin[3], const float dir[3], float max_dist, int hit[3],
                    int normal[3], float *dist);

/* Visits occupied voxels; return false to stop. */
typedef bool (*octree_visit_fn)(void *user, int x, int y, int z);
/* Every occupied voxel whose cube overlaps the box [lo, hi) (an empty box
 * overlaps nothing). Returns false if the visitor stopped it. */
bool octree_query_box(const octree *o, const float lo[3], const float hi[3], octree_visit_fn fn, void *user);
/* Every occupied voxel whose cube meets the ball |p - centre| <= radius. */
bool octree_query_sphere(const octree *o, const float centre[3], float radius, octree_visit_fn fn, void *user);
/* Whether any occupied voxel overlaps the box [lo, hi): player collision. */
bool octree_box_occupied(const octree *o, const float lo[3], const float hi[3]);
/* The same for the voxel cells lo..hi, inclusive (cut to the tree's
 * domain). Starts at the level where the box meets at most 8 nodes, so a
 * small box costs a few byte reads: collide's broad phase. */
bool octree_cells_occupied(const octree *o, const int lo[3], const int hi[3]);

#endif
