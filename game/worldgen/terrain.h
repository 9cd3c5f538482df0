/* terrain: the foundation's rolling hills, seed 001 equation 9.
 *   height = TerrainWeight * Perlin(Seed, TerrainScale) + SolidGroundHeight
 * with grass over dirt over stone over bedrock. The biomes build on the
 * same height map (see biome issue); this kind stays as "hills". */
#ifndef STRATA_TERRAIN_H
#define STRATA_TERRAIN_H

#include "worldgen.h"

void terrain_register(void);
extern const worldgen_kind terrain_hills;

/* Equation 9 for one column, shared by every kind that uses the height map. */
typedef struct terrain_heightmap_params {
    float weight;      /* TerrainWeight: amplitude in voxels */
    float scale;       /* TerrainScale: voxels per noise period */
    float ground;      /* SolidGroundHeight: base height in voxels */
    int octaves;       /* 1 = the paper's single Perlin sample */
} terrain_heightmap_params;

/* Fills heights[z * sx + x] for the whole world (sx * sz ints), clamped to [1, sy-1]. */
void terrain_heightmap(const terrain_heightmap_params *p, int64_t seed, int sx, int sy, int sz, int *heights);

#endif
