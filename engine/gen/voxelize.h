/* voxelize: which voxel centres of a grid lie inside a triangle mesh, for
 * meshes that are not watertight (seed 002). Two definitions of inside:
 *  - parity: a ray from the centre crosses the mesh an odd number of times,
 *    majority-voted over K directions spread by Thomson relaxation (the
 *    seed's method; ignores face orientation);
 *  - winding: the generalised winding number (Jacobson et al. 2013) exceeds
 *    1/2, evaluated with a hierarchy and a dipole far field (Barill et al.
 *    2018); closes holes without voting but reads face orientation.
 * Output is one byte per voxel (1 inside), laid out as a shape: x fastest,
 * then z, then y. Pure CPU; threaded on a job pool when one is given. */
#ifndef STRATA_VOXELIZE_H
#define STRATA_VOXELIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/jobs.h"
#include "gen/obj.h"

/* Largest grid side: 256^3 votes are 16 MiB, and shapes stop there too. */
#define VOXELIZE_MAX_RES 256
#define VOXELIZE_MAX_DIRECTIONS 64
/* Rays run along lattice directions with components up to this, so that a
 * ray from one voxel centre passes through others (see voxelize_lattice). */
#define VOXELIZE_LATTICE 4
/* Fixed-point bits per voxel of the exact crossing test. */
#define VOXELIZE_FIX_BITS 8

typedef enum voxelize_method { VOXELIZE_PARITY, VOXELIZE_WINDING } voxelize_method;

/* Voxel (x, y, z) has its centre at origin + (x + 1/2, y + 1/2, z + 1/2) * cell. */
typedef struct voxelize_grid {
    double origin[3];
    double cell;
    int nx, ny, nz;
} voxelize_grid;

/* The Thomson relaxation of the directions (voxelize_directions). */
typedef struct voxelize_relax {
    float step;     /* largest move of a direction in the first iteration (0.05) */
    int iterations; /* at most this many steps (1000, the seed's) */
    float converge; /* stop once the largest move has shrunk below this (0.001, the seed's) */
} voxelize_relax;

typedef struct voxelize_desc {
    voxelize_method method;
    int directions;          /* parity: K rays per voxel, 1..VOXELIZE_MAX_DIRECTIONS */
    voxelize_relax relax;    /* zero fields: the defaults */
    uint64_t seed;           /* the random start of the relaxation */
    job_pool *pool;          /* NULL: the calling thread only */
} voxelize_desc;

/* One step of the Thomson relaxation over n unit vectors (the first stays
 * put): each moves along the tangential part of its Coulomb repulsion
 * (the sum of (d_i - d_j) / |d_i - d_j|^3), the strongest pushed `step`
 * and the others in proportion. Returns the largest distance moved. */
float voxelize_distribute(float (*dirs)[3], int n, float step);
/* n directions: the first +y, the rest random from `seed`, relaxed by
 * distribute steps that lower the Coulomb energy (a step that raises it is
 * undone and halved, one that lowers it lets the next grow 1.2 times, up
 * to 4 times r->step) until the step falls below r->converge or
 * r->iterations run out. Returns the steps taken. */
int voxelize_directions(float (*dirs)[3], int n, const voxelize_relax *r, uint64_t seed);
/* The nearest primitive integer direction with components in
 * [-VOXELIZE_LATTICE, VOXELIZE_LATTICE]: rays along it step from voxel
 * centre to voxel centre, which is what lets one ray serve a whole line. */
void voxelize_lattice(const float d[3], int out[3]);
/* The K lattice directions the parity vote casts rays along: d's relaxed
 * directions, each snapped (voxelize_lattice); one that snaps onto a
 * direction already taken gets the nearest lattice direction not taken, so
 * no ray votes twice. Returns K (desc->directions, clamped to 1..64). */
int voxelize_ray_directions(const voxelize_desc *d, int (*out)[3]);

/* The mesh in the grid's fixed point (VOXELIZE_FIX_BITS per voxel), with
 * degenerate triangles dropped. Refused (false, message): a vertex more than
 * 16384 voxels from the grid's origin (the predicates' integers would
 * overflow), non-finite coordinates. */
typedef struct voxelize_tri { int64_t p[3][3]; } voxelize_tri;
bool voxelize_quantize(const obj_mesh *m, const voxelize_grid *g, voxelize_tri **out, int *count, char *err,
                       size_t errlen);
/* Fixed-point centre of voxel (x, y, z). */
void voxelize_centre(int x, int y, int z, int64_t out[3]);
/* The parity definition for one voxel and one triangle, exactly: does the
 * ray from centre c along lattice direction d cross t strictly ahead of c?
 * Möller–Trumbore's question answered with integer predicates; a ray along
 * an edge or through a vertex, or a centre on a face's plane, decided by
 * one symbolic perturbation of the centre, so a closed surface is crossed
 * exactly once there and every direction agrees about it. The brute-force reference
 * (tests) is this over every voxel, triangle and direction. */
bool voxelize_crosses(const voxelize_tri *t, const int64_t c[3], const int d[3]);

/* The work of one direction, shared by the CPU and the GPU: every grid
 * line along d (from the voxel whose predecessor lies outside the grid),
 * and the triangles binned by where they lie seen along d, so a line
 * tests only the triangles of its bin. */
typedef struct voxelize_plan {
    int d[3];
    int nlines;
    int *lines;      /* x y z bin per line; bin -1: the line meets no triangle */
    int cells;
    int *cell_start; /* bin c holds cell_tris[cell_start[c] .. cell_start[c + 1]) */
    int *cell_tris;
} voxelize_plan;
/* False when out of memory. Triangles edge-on to d are in no bin. */
bool voxelize_plan_build(const voxelize_tri *tris, int nt, const voxelize_grid *g, const int d[3], voxelize_plan *p);
void voxelize_plan_free(voxelize_plan *p);
/* votes (directions whose ray saw the voxel inside) -> 1 where a strict
 * majority did, in place; returns the count. */
long voxelize_majority(uint8_t *votes, size_t n, int directions);

/* The refusals of voxelize_mesh without the work: grid sides, cell size,
 * faces, direction count. */
bool voxelize_check(const obj_mesh *m, const voxelize_grid *g, const voxelize_desc *d, char *err, size_t errlen);

/* Fills out (nx * ny * nz bytes) and returns the number of inside voxels,
 * or -1 with a message (bad grid, bad desc, refused mesh, out of memory). */
long voxelize_mesh(const obj_mesh *m, const voxelize_grid *g, const voxelize_desc *d, uint8_t *out, char *err,
                   size_t errlen);


/* Voxelizes a and b on one grid over their joint bounds (res cells along
 * its longest side) and counts the voxels inside both: the seed's overlap
 * of two shapes. volume is in mesh units cubed. */
bool voxelize_overlap(const obj_mesh *a, const obj_mesh *b, int res, const voxelize_desc *d, long *voxels,
                      double *volume, char *err, size_t errlen);

/* A grid over the mesh's bounds with cubic cells, `res` cells along the
 * longest side and the others rounded up. Refused: res out of
 * 1..VOXELIZE_MAX_RES, empty or non-finite bounds, a flat bounding box. */
bool voxelize_grid_fit(const obj_mesh *m, int res, voxelize_grid *g, char *err, size_t errlen);
/* One grid over two meshes' joint bounds (overlap volumes). */
bool voxelize_grid_fit2(const obj_mesh *a, const obj_mesh *b, int res, voxelize_grid *g, char *err, size_t errlen);

#endif
