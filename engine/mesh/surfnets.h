/* surfnets: naive surface nets (seed 004, section 4.3) on a float density
 * field, on the CPU: the reference the GPU passes are tested against, and
 * the fast path the smooth render mode meshes chunks with. Pure CPU. */
#ifndef STRATA_SURFNETS_H
#define STRATA_SURFNETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest samples per axis accepted (the `surfnets` command's N + 1). */
#define SURFNETS_MAX_SAMPLES 1025

/* A mesh of nets. Vertex i sits at pos[3i..3i+2] in grid units (sample
 * (x, y, z) is the point (x, y, z)), with unit normal nrm[3i..] pointing out
 * of the solid and cell[i] = x + y*(nx-1) + z*(nx-1)*(ny-1), the cell it
 * belongs to. Triangles are idx[3t..3t+2], counter-clockwise seen from
 * outside. The scratch fields are the mesher's and are reused by the next
 * call; surfnets_free releases everything. */
typedef struct surfnets_mesh {
    float *pos, *nrm;
    uint32_t *cell;
    uint32_t *idx;
    int vertices, triangles;
    int vcap, tcap;
    /* scratch */
    uint64_t *masks;
    int32_t *lut;
    size_t masks_cap, lut_cap;
} surfnets_mesh;

/* The field: nx * ny * nz samples, x fastest, then y, then z; negative is
 * inside the solid, zero and above outside.
 *
 * Every cell (2x2x2 samples) whose corners differ in sign gets one vertex at
 * the mean of its edges' crossings (linear interpolation); every grid edge
 * with a sign change whose four surrounding cells exist gets a quad (two
 * triangles, split 0-1-2 / 0-2-3) through their vertices. own_lo (may be
 * NULL = all zero) says, per axis, the first sample an edge along that axis
 * may start at: a chunk sets 1 where its neighbour owns the shared face, so
 * every edge of a world is meshed by exactly one chunk.
 *
 * Order is deterministic: vertices by cell (x fastest, then y, then z), each
 * cell's quads after its vertex (its x, y, z edge in that order).
 * Returns false (mesh emptied) on a bad size or out of memory. */
typedef struct surfnets_field {
    const float *d;
    int nx, ny, nz;
    int own_lo[3];
} surfnets_field;

bool surfnets_extract(const surfnets_field *f, surfnets_mesh *out);
/* Cells with a sign change (= vertices surfnets_extract makes), counted
 * from the sign masks alone: a cheap upper bound for sizing GPU buffers
 * (triangles <= 6 per active cell). Returns -1 on a bad size. */
long surfnets_active_cells(const surfnets_field *f, surfnets_mesh *scratch);
void surfnets_free(surfnets_mesh *m);

/* The 12 cell edges as corner pairs (corner bit 0 = +x, 1 = +y, 2 = +z),
 * in the order the vertex position sums them (the GPU pass sums in the
 * same order so the two agree to rounding). */
extern const uint8_t surfnets_edge_corners[12][2];

#endif
