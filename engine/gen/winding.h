/* winding: the generalised winding number of a triangle soup (Jacobson et
 * al. 2013), fast through a bounding volume hierarchy whose far nodes are
 * summed as one dipole each (Barill et al. 2018). voxelize's second method:
 * inside where the number exceeds 1/2. */
#ifndef STRATA_WINDING_H
#define STRATA_WINDING_H

#include <stddef.h>

#include "core/jobs.h"
#include "gen/obj.h"
#include "gen/voxelize.h"

/* Far-field acceptance: a node is one dipole when the query is farther
 * than this many node radii from its centre (Barill's beta). */
#define WINDING_BETA 2.0

/* Exact: the sum of every triangle's signed solid angle over 4 pi. */
double winding_exact(const obj_mesh *m, const double q[3]);

typedef struct winding_tree winding_tree;
winding_tree *winding_tree_build(const obj_mesh *m);
void winding_tree_destroy(winding_tree *t);
/* The hierarchical approximation at q (mesh units). */
double winding_eval(const winding_tree *t, const double q[3]);

/* voxelize_mesh for VOXELIZE_WINDING. Boxes of voxels that no triangle
 * comes near are decided by their corners and centre (the number is smooth
 * there; for a closed mesh, constant), the rest voxel by voxel. */
long winding_voxelize(const obj_mesh *m, const voxelize_grid *g, job_pool *pool, uint8_t *out, char *err,
                      size_t errlen);

#endif
