/* cave_ore: glowing ore, a light source (light/emit.h), on the rock of cave walls:
 * a hash of each 4^3 cell's global place picks veins (caves.glow_ore per
 * thousand cells), and in a vein a rock voxel with open air beside it and a
 * roof over that air (terrain within 24 voxels above) turns to ore, one
 * in two by a hash of its own place. Everything is read inside the tile,
 * its edge voxels left alone, so the ore is the same in any tile order. */

#ifndef STRATA_CAVE_ORE_H
#define STRATA_CAVE_ORE_H

#include <stdint.h>

#include "voxel/world.h"

/* Grows the ore in the tile [lo, hi) of w (the tile's whole columns are in
 * w), below y = top; per_thousand veins per thousand cells (0: none). */
void cave_ore_grow(world *w, const int lo[3], const int hi[3], int top, uint64_t seed, float per_thousand);

#endif
