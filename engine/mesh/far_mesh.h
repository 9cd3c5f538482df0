/* far_mesh: the geometry of the far rings (docs/streaming.md, "The far
 * rings"), pure CPU. Beyond the near window the terrain is drawn as nested
 * square rings of a height field, each ring's cell twice the one inside it,
 * built from the generator's surface at the ring's grid points (no voxels
 * are kept). This module lays the rings out for a player position and turns
 * one ring's grid of samples into triangles: two a cell, a wall on the outer
 * edge from the ring's own edge to the next ring's coarser edge (so no sky
 * shows between them) with a skirt hanging below it, and the cells grouped
 * in tiles with boxes, for frustum culling. No GL. */
#ifndef STRATA_FAR_MESH_H
#define STRATA_FAR_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAR_RING_MAX 12
/* Cells a ring keeps in its tiles' sides: tiles of FAR_TILE x FAR_TILE cells. */
#define FAR_TILE 4

typedef struct far_ring {
    int cell;     /* voxels a cell: a power of two, doubling ring by ring */
    int x0, z0;   /* the ring's first grid point (global voxels) */
    int n;        /* cells a side (even, a multiple of FAR_TILE) */
    int hole;     /* the static hole: the cells within `hole` of the middle (each axis) are left out */
    float cut;    /* cells whose nearest point lies farther than this from the middle are left out */
    bool outer;   /* the outermost ring: no wall on its outer edge */
} far_ring;

typedef struct far_layout {
    int count;
    int half_cells; /* cells from a ring's middle to its edge */
    far_ring ring[FAR_RING_MAX];
} far_layout;

/* The rings reaching `far` voxels around (px, pz) beyond a near window
 * drawn to `near` voxels, half_cells cells from each ring's middle to its
 * edge (even, at least 8): ring 0's cell is the least power of two >= 2
 * with half_cells cells reaching near + 64 (the near field's chunks reach
 * past its distance), each next ring's twice that, until one reaches far.
 * A ring's middle is the position rounded to twice its cell, so ring k-1's
 * edges lie on ring k's grid lines and ring k-1 covers ring k's static hole
 * wherever the player stands. A pure function of its arguments. Returns
 * the count (0 when far <= near). */
int far_layout_make(float near, float far, int half_cells, double px, double pz, far_layout *out);
/* The square ring r covers (global voxels, [x0, x1) x [z0, z1)). */
void far_ring_box(const far_ring *r, int box[4]);

/* One ring's samples: (n + 3)^2 grid points, row by row, point (i, j) at
 * (x0 + (i - 1) * cell, z0 + (j - 1) * cell): the ring's points and one
 * more round them for the normals. */
typedef struct far_grid {
    const float *h;     /* the surface's height (the top of its top voxel) */
    const uint8_t *mat; /* the material seen from above there */
} far_grid;

/* 16 bytes: the position relative to the ring's first grid point, then the
 * top face's tile | the side's tile << 8 | normal x << 16 | normal z << 24
 * (signed bytes, x 127; y follows). */
typedef struct far_vertex {
    float x, y, z;
    uint32_t info;
} far_vertex;

typedef struct far_tile {
    uint32_t first, count; /* indices */
    float lo[3], hi[3];    /* box of its vertices, relative to the ring's first grid point */
} far_tile;

typedef struct far_mesh {
    far_vertex *v;
    int nv;
    uint32_t *idx;
    int ni;
    far_tile *tiles;
    int ntiles;
} far_mesh;

/* The packed info of a vertex (far_vertex.info) of material mat whose
 * normal is (nx, sqrt(1 - nx^2 - nz^2), nz). */
uint32_t far_vertex_info(uint8_t mat, float nx, float nz);

/* The curtain round the near field: ring 0 leaves out, fragment by
 * fragment, the columns the near field drew, and where its surface stands
 * above the near terrain at their edge (the canopy it keeps as its surface
 * over the near field's thinned firs, say) a ray over that edge would pass
 * under it. Along every edge between a drawn column of `mask` (mw x mh
 * columns of 32 voxels, the first at global voxels (mx, mz)) and an
 * undrawn one whose side of the edge ring 0 draws, a wall from ring 0's
 * surface (h, mat: its (n + 1)^2 grid points) down `drop` voxels, facing
 * the drawn column: a quad for each piece of the edge over which the
 * surface is straight (split at the grid lines and where a cell's diagonal
 * crosses it), two triangles, six vertices, relative to the ring's first
 * grid point as its mesh is. So the wall's top is the surface's edge
 * exactly whatever ring 0's cell: one that divides a column (16 or 32
 * voxels) has the edges on its grid lines, a coarser one (64: view.distance
 * past 448, or few far.cells) across its cells. Writes at most cap
 * vertices; returns how many it needed (more than cap: call again with
 * room for them). */
int far_curtain_build(const far_ring *r, const float *h, const uint8_t *mat, const unsigned char *mask, int mw, int mh,
                      int mx, int mz, float drop, far_vertex *out, int cap);

/* Builds ring r from g (false when out of memory, nothing kept). */
bool far_mesh_build(const far_ring *r, const far_grid *g, far_mesh *out);
void far_mesh_free(far_mesh *m);
/* The bytes one ring of n cells a side takes at most (vertices, indices,
 * tiles), for the memory budget. */
size_t far_mesh_bytes(int n);

#endif
