/* bodies_internal: what the two halves of the voxel bodies' dynamics share,
 * bodies.c (the set, the solver, the step) and bodies_contact.c (contacts,
 * held bodies, rest). Not for callers: they use bodies.h. */
#ifndef STRATA_BODIES_INTERNAL_H
#define STRATA_BODIES_INTERNAL_H

#include "physics/bodies.h"

/* Every voxel of a body is a ball of this radius round its centre for
 * contacts: a ball rolls over terrain edges and its contacts are one
 * normal each. A body resting flat stands on its voxels' lower faces. */
#define BODIES_VOXEL_R 0.5f
/* Contacts are made this far before touching (speculative), so a body
 * arriving is stopped at the surface rather than after sinking in. */
#define BODIES_MARGIN 0.05f
/* Voxel centres within this of a voxel's centre may touch it: a ball's
 * reach past the cube's half-diagonal. */
#define BODIES_REACH (BODIES_VOXEL_R + BODIES_MARGIN + 0.8660254f)
/* A body's terrain pairs are found this much farther out and kept until
 * one of its voxels has moved this far: a body at rest or tumbling
 * slowly queries the octree once in many substeps instead of in each.
 * The step holds a body whose terrain is not there within both reaches. */
#define BODIES_KEEP_REACH 0.5f

static inline float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* A body the step does not move: asleep, or held (its terrain is not
 * there to collide with). Both are static to the others. */
static inline bool bodies_fixed(const body *b) { return b->asleep || b->held; }

/* Whether the terrain body b may touch within one step is there: every
 * column within its radius plus `reach` (x and z) is inside the terrain
 * octree's box and generated. A finite world asks only about the columns
 * inside its window (beyond its sides a body falls out); a world that
 * goes on (s->unbounded) about every one. */
bool bodies_terrain_there(const bodies *s, const body *b, const world *w, const octree *terrain, float reach);

/* One substep's contacts of every body into s->all, in body order (terrain,
 * then the bodies after it), found on the workers; s->per must hold a list
 * for each body. Adds to s->stats.pairs and .contacts. */
void bodies_gather_contacts(bodies *s, const world *w, const octree *terrain, job_pool *jobs);

/* After a step: the bodies that have been still long enough (or moved too
 * long) fall asleep where they are. */
void bodies_settle(bodies *s);

#endif
