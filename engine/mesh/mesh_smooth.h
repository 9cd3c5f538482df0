/* mesh_smooth: surface nets meshes of world chunks for the smooth render
 * mode. The density is derived from the materials (no extra world data):
 * a filtered occupancy, sign-locked so thin features survive, sampled at
 * voxel centres; each chunk meshes its cells plus a border and owns the
 * grid edges that start inside it, so neighbours meet without cracks or
 * doubled triangles. Pure CPU: safe on worker threads. */
#ifndef STRATA_MESH_SMOOTH_H
#define STRATA_MESH_SMOOTH_H

#include <stdint.h>

#include "mesh/surfnets.h"
#include "voxel/world.h"

/* Samples per axis of a chunk's field: voxels -1 .. 32 of the chunk. */
#define SMOOTH_N (CHUNK_SIZE + 2)
#define SMOOTH_VOLUME (SMOOTH_N * SMOOTH_N * SMOOTH_N)

/* How much of the density is the voxel's own occupancy (+-0.5) and how
 * much the blurred 5^3 neighbourhood (0.5 - filled fraction): 1 gives the
 * 45 degree facets of binary data, lower values slopes; the sign is always
 * the voxel's own and at least SMOOTH_MIN_MAGNITUDE from zero, so nothing
 * solid disappears (docs/smooth.md has the measurements). */
#define SMOOTH_SHARPNESS_DEFAULT 0.1f
#define SMOOTH_MIN_MAGNITUDE 0.08f

/* Density (and the material and tint of each sample) of the box of voxels
 * [x0, x0+nx) x [y0, y0+ny) x [z0, z0+nz), in surfnets layout (x fastest,
 * then y, then z). Voxels outside the world read as world_get says. A
 * sample depends only on the world around it, so every box that contains
 * it computes the same value. */
void smooth_density_box(const world *w, int x0, int y0, int z0, int nx, int ny, int nz, float sharpness, float *d,
                        uint8_t *mat, uint8_t *tint);

typedef struct smooth_input {
    float d[SMOOTH_VOLUME];
    uint8_t mat[SMOOTH_VOLUME];
    uint8_t tint[SMOOTH_VOLUME];
    int own_lo[3]; /* 0 on the window's low faces (nobody else owns them), else 1 */
    int n;         /* samples per axis: SMOOTH_N_LOD(level) */
    int step;      /* voxels between samples: 2^level */
} smooth_input;

/* Levels of detail for distant chunks: level l samples every 2^l-th voxel
 * (cells of 2^l voxels a side, about 4^-l of the triangles). Coarse samples
 * lie on one grid fixed in the world (voxels -s, 0, s, .., 32 + s with
 * s = 2^l), so coarse chunks of one level meet exactly and nothing flickers
 * as the eye moves. A coarse sample is the filtered occupancy at its voxel
 * (the 5^3 tent low-passes it for the lattice) without the sign lock: a
 * coarse surface is a slope, not the lattice's staircase, and features
 * thinner than about half the filter (a trunk, a cactus) drop out. A
 * coarse chunk meshes all of its grid, a coarse cell past each face: where
 * it meets a finer chunk the surfaces overlap instead of leaving a crack.
 * A coarse sample's material is that of the highest voxel below the next
 * lattice row down to it that belongs to the bulk (two of its four horizontal
 * neighbours solid), so
 * a one-voxel grass layer stays on top and a cactus the level drops does
 * not paint the sand under it. Every level is built with the chunk; which
 * one is drawn is chosen per chunk and frame (mesh_smooth_lod_for). */
#define SMOOTH_LODS 3
#define SMOOTH_N_LOD(l) ((l) == 0 ? SMOOTH_N : CHUNK_SIZE / (1 << (l)) + 3)
/* Level 1 beyond this distance from the eye (voxels), level 2 beyond twice
 * it (render.smooth_lod_distance; docs/smooth.md has the measurements). */
#define SMOOTH_LOD_DISTANCE_DEFAULT 48
#define SMOOTH_LOD_DISTANCE_DEFAULT_STR "48"

/* 20 bytes: chunk-local position (voxel units; voxel (x, y, z) spans
 * [x, x+1)), unit normal as snorm8, material and tint of the cell
 * (mesh_smooth_material_sample, mesh_smooth_cell_tint). */
typedef struct smooth_vertex {
    float pos[3];
    int8_t nrm[4];
    uint8_t mat, tint, pad[2];
} smooth_vertex;

/* A coarse level's triangles are the surface, then its skirts grouped by
 * the chunk face they hang over (-x +x -y +y -z +z): skirt f is triangles
 * [skirt[f], skirt[f + 1]), the surface [0, skirt[0]), skirt[6] the total.
 * A skirt hangs from the rim (the open edges one coarse cell past that
 * face) SMOOTH_SKIRT_DEPTH coarse cells into the solid along the vertex
 * normals, facing out through the face: where the rim lies above a finer
 * neighbour's surface, the eye (on that nearer, finer side) would
 * otherwise look under it into culled back faces, a slit of sky along the
 * seam. Only skirts toward a finer neighbour need drawing. Level 0 has
 * none (skirt[f] = triangles). */
typedef struct smooth_mesh {
    smooth_vertex *v;
    uint32_t *idx;
    int vertices, triangles;
    int skirt[7];
    int vcap, tcap;
    surfnets_mesh nets; /* the raw nets (scratch, and for tests) */
} smooth_mesh;
#define SMOOTH_SKIRT_DEPTH 1.f

/* An edit changes the nets of every chunk within SMOOTH_EDIT_REACH voxels
 * of it: the filter reads 2 voxels around a sample, a cell spans one more. */
#define SMOOTH_EDIT_REACH 3
/* Marks dirty every chunk within SMOOTH_EDIT_REACH of the box [lo, hi). */
void mesh_smooth_mark_edit(world *w, const int lo[3], const int hi[3]);
/* The level to draw a chunk whose centre is `dist` voxels from the eye: 0
 * within far, 1 within 2 far, else 2; far <= 0 is always 0. */
int mesh_smooth_lod_for(float dist, float far);

void mesh_smooth_gather(const world *w, int cx, int cy, int cz, float sharpness, smooth_input *in);
/* mesh_smooth_gather for a dense grid instead of the world (a falling
 * body's, physics/body.h): `size` cells, cell (x, y, z) at x + size[0] *
 * (z + size[2] * y) as in a chunk, air (tint 0) outside; tint may be NULL.
 * The tile's voxels are [x0, x0 + 32) etc. (multiples of 32): tiles of
 * one grid meet as chunks do, and a grid with air round its voxels meshes
 * to a closed net. */
void mesh_smooth_gather_grid(const uint8_t *mat, const uint8_t *tint, const int size[3], int x0, int y0, int z0,
                             float sharpness, smooth_input *in);
/* The nets of a whole grid (as mesh_smooth_gather_grid), tile after tile,
 * into one mesh whose positions are grid coordinates (cell (x, y, z)
 * spans [x, x+1) etc.). `in` and `tile` are scratch. Tiles do not share
 * vertices: where two meet, each has its own copy of the seam's vertices
 * (equal positions). False (out empty) when out of memory. */
bool mesh_smooth_grid(const uint8_t *mat, const uint8_t *tint, const int size[3], float sharpness, smooth_input *in,
                      smooth_mesh *tile, smooth_mesh *out);
/* Every level of detail at once (in[l] for level l), from one pass of the
 * fine density; in[0] equals mesh_smooth_gather's. */
void mesh_smooth_gather_levels(const world *w, int cx, int cy, int cz, float sharpness, smooth_input *in[SMOOTH_LODS]);
/* One level (0 = every voxel): what mesh_smooth_gather_levels gives in[lod]. */
void mesh_smooth_gather_lod(const world *w, int cx, int cy, int cz, float sharpness, int lod, smooth_input *in);
/* Meshes the input; false (mesh empty) when out of memory. */
bool mesh_smooth_build(const smooth_input *in, smooth_mesh *out);
void mesh_smooth_free(smooth_mesh *m);

/* The material rule the GPU pass shares: the cell's highest inside corner
 * (corner order 2 3 6 7 0 1 4 5); returns the corner's sample index. */
size_t mesh_smooth_material_sample(const float *d, int nx, int ny, uint32_t cell);
/* The tint rule the GPU pass shares: a cut stores its colour in the cells
 * it carves (world.h: a face takes the tint of the cell it looks into), so
 * a vertex takes the tint of its cell's first outside corner that has one,
 * in the same corner order; 0 when none has. */
uint8_t mesh_smooth_cell_tint(const float *d, const uint8_t *tint, int nx, int ny, uint32_t cell);

#endif
