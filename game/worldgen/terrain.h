/* terrain: the foundation's rolling hills, seed 001 equation 9.
 *   height = TerrainWeight * Perlin(Seed, TerrainScale) + SolidGroundHeight
 * with grass over dirt over stone over bedrock. The biomes build on the
 * same height map (see biome issue); this kind stays as "hills". */
#ifndef STRATA_TERRAIN_H
#define STRATA_TERRAIN_H

#include "core/noise.h"
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

/* Fills heights[z * nx + x] for the global columns [x0, x0 + nx) x
 * [z0, z0 + nz), clamped to [1, sy-1]: a pure function of (x, z), so any
 * two rectangles agree where they overlap. */
void terrain_heightmap(const terrain_heightmap_params *p, int64_t seed, int x0, int z0, int nx, int nz, int sy,
                       int *heights);

/* One column of equation 9, with the noise of `seed` (noise_init) in n:
 * for plans that need the height of a few scattered columns. */
int terrain_height_at(const terrain_heightmap_params *p, const noise *n, int x, int z, int sy);
/* The height before rounding and clamping (for tests of the field). */
float terrain_value_at(const terrain_heightmap_params *p, const noise *n, int x, int z);

/* The range equation 9 can produce anywhere (not what one map happens to
 * reach): noise_perlin2 is bounded by +-sqrt(1/2) (eight gradients of
 * length <= sqrt 2, scaled by 0.7071), so the normalised octave sum lies in
 * [0.5 - NOISE_HALF_RANGE, 0.5 + NOISE_HALF_RANGE]; the levels derived from
 * it (mesa floor, playas, tree line) are then constants of the settings,
 * the same from every chunk of an unbounded world. */
#define TERRAIN_NOISE_HALF_RANGE 0.35355339f
void terrain_height_range(const terrain_heightmap_params *p, int sy, int *min_h, int *max_h);

#endif
