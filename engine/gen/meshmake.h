/* meshmake: the test meshes of seed 002, made here rather than downloaded.
 * Closed primitives (cube, sphere, torus) with known volumes, and a
 * teapot-like pot whose broken variants have the Utah teapot's defects:
 * holes, gaps between patches, flipped faces, parts overlapping the body. */
#ifndef STRATA_MESHMAKE_H
#define STRATA_MESHMAKE_H

#include <stdbool.h>
#include <stdint.h>

#include "gen/obj.h"

/* Each appends to m (so parts can be combined) and returns false only when
 * out of memory. */
bool meshmake_cube(obj_mesh *m, const float lo[3], const float hi[3]);
bool meshmake_sphere(obj_mesh *m, const float c[3], float r, int stacks, int slices);
bool meshmake_torus(obj_mesh *m, const float c[3], float major, float minor, int nu, int nv);

/* What is broken in a teapot (bit flags). */
enum {
    MESHMAKE_HOLES = 1,    /* the bottom left open (as in the Utah teapot) and ~3% of faces missing */
    MESHMAKE_GAPS = 2,     /* two seams of the body split, one side moved out: slits */
    MESHMAKE_FLIPS = 4,    /* ~30% of the faces wound the other way */
    MESHMAKE_OVERLAPS = 8, /* spout, handle and knob as separate closed parts overlapping the body */
};

/* The pot: a closed surface of revolution about +y, base at y = 0, about
 * 2 wide and 1.6 tall, with `slices` around (16..1024); ~4 * slices * slices / 5
 * triangles at the default profile sampling. Defects from `damage`, placed
 * by `seed`. */
bool meshmake_teapot(obj_mesh *m, int slices, unsigned damage, uint64_t seed);
/* The parts the MESHMAKE_OVERLAPS teapot adds, each closed, in the same frame:
 * part 0 the spout, 1 the handle, 2 the knob. */
bool meshmake_teapot_part(obj_mesh *m, int part, int slices);

/* Exact volumes of the closed primitives (the meshes approach them as
 * their tessellation grows). */
double meshmake_sphere_volume(float r);
double meshmake_torus_volume(float major, float minor);

#endif
