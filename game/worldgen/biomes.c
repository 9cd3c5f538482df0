/* biomes: one entry point that registers the three seed-001 biomes (their
 * cvars first, so a kind's plan can always find its parameters). */
#include "biomes.h"

#include "biome_common.h"

void biomes_register(void)
{
    biome_desert_register();
    biome_taiga_register();
    biome_deciduous_register();
    worldgen_register(&biome_desert);
    worldgen_register(&biome_taiga);
    worldgen_register(&biome_deciduous);
}
