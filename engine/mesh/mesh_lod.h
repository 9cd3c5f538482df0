/* mesh_lod: a coarser level of detail for distant chunks. Each 2x2x2 cell
 * of a chunk becomes one material (any solid voxel makes the cell solid, the
 * upper layer's material wins so grass stays on top), written back at full
 * resolution so the ordinary greedy mesher merges it into about a quarter
 * of the quads. The one-voxel border from the neighbours stays fine, so a
 * face on the chunk's boundary is hidden only where the neighbour's own
 * voxel covers it: a coarse chunk next to a fine one leaves no hole.
 * Pure CPU: safe on worker threads. */
#ifndef STRATA_MESH_LOD_H
#define STRATA_MESH_LOD_H

#include "mesh/mesh_blocks.h"

/* Coarsens the 32^3 interior of `in` in place (the border is left as is).
 * Every solid voxel of the input lies in a solid cell of the output. */
void mesh_lod_coarsen(mesh_input *in);

#endif
