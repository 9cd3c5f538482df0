/* octree_internal: the octree's layout, shared by octree.c (building,
 * editing, poses and the tool's pairs) and octree_query.c (rays, boxes,
 * spheres and cells). Not for callers: they use octree.h. */
#ifndef STRATA_OCTREE_INTERNAL_H
#define STRATA_OCTREE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "physics/octree.h"

#define OCTREE_MAX_LEVELS 17 /* 2^16 voxels a side */

struct octree {
    int size[3];
    int org[3];                 /* world coordinates of cell (0, 0, 0) */
    int levels;                 /* root level L >= 1 */
    int dim[OCTREE_MAX_LEVELS][3];
    uint8_t *lev[OCTREE_MAX_LEVELS]; /* lev[k] for k in 1..L: child masks */
    long count;
    uint64_t version; /* bumped by every octree_set that changes a voxel */
};

static inline size_t cell_index(const octree *o, int k, int x, int y, int z)
{
    return (size_t)x + (size_t)o->dim[k][0] * ((size_t)z + (size_t)o->dim[k][2] * (size_t)y);
}

static inline int octant(int x, int y, int z) { return (x & 1) | ((y & 1) << 1) | ((z & 1) << 2); }

#endif
