/* biomes: the three biomes of seed 001 ("Voxel Environments") as worldgen
 * kinds: "desert" (mesas, playas, cacti), "taiga" (tree line, muskegs, firs)
 * and "deciduous" (oaks placed by the forest growth model).
 * Each biome has its own height-map cvars (desert.terrain_weight, ...) rather
 * than sharing world.terrain_*, because the paper's biomes want different
 * relief: flat dunes, high taiga hills, rolling forest. world.octaves is shared.
 * The accessors below read a plan (from kind->plan) so tests can check the
 * generated world against the levels and plants it was built from. */
#ifndef STRATA_BIOMES_H
#define STRATA_BIOMES_H

#include <stdint.h>

#include "worldgen.h"

/* Registers every desert./taiga./deciduous. cvar and the three kinds. */
void biomes_register(void);

extern const worldgen_kind biome_desert;
extern const worldgen_kind biome_taiga;
extern const worldgen_kind biome_deciduous;

/* Heights derived from the height map; a level a biome lacks is an empty range. */
typedef struct biome_levels {
    int min_height, max_height; /* of the eq. 9 height map, before the mesa offset */
    int min_mesa;               /* desert: eq. 10 lowered by the bleed-off (eq. 12) */
    int playa_lo, playa_hi;     /* desert: eq. 11, inclusive */
    int tree_line;              /* taiga: eq. 16 */
    int muskeg_lo, muskeg_hi;   /* taiga: eq. 17, inclusive */
} biome_levels;

typedef enum flora_kind { FLORA_PILLAR, FLORA_BARREL, FLORA_SAGUARO, FLORA_FIR, FLORA_OAK } flora_kind;

/* One planned plant. (x, y, z) is its first voxel above the ground. */
typedef struct flora {
    int x, y, z;
    uint8_t kind;   /* flora_kind */
    uint8_t height; /* trunk or pillar voxels */
    uint8_t arms;   /* saguaro: number of arms, 1..4 */
    uint8_t arm_dir[4]; /* index into the four cardinal directions, all different */
    uint8_t arm_at[4];  /* trunk level (0 = base) the arm leaves from */
    uint8_t arm_len[4]; /* voxels the arm rises after its elbow */
} flora;

/* The four cardinal directions, in the order arm_dir indexes them. */
static const int flora_cardinal[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };

const biome_levels *biome_plan_levels(const void *plan);
const flora *biome_plan_flora(const void *plan, int *count);
/* Deciduous plan only: the biomass map after the growth model (-1 = trunk). */
float biome_plan_biomass(const void *plan, int x, int z);

#endif
