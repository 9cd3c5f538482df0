#include "voxel/material.h"

#include <string.h>

#define ALL(t) { t, t, t, t, t, t }
/* Enhancement (class, even, odd, percent), chosen so each material reads as
 * itself: sand slumps into ramps (1: any neighbour grows a fragment), rock
 * keeps the paper's crisp strata (3 and 4 alternating), soil rounds its
 * edges (2: corners filled and kept, flat ground stays flat), wood keeps its
 * shape exactly (2: a lone trunk neither grows nor erodes), leaves stay ragged
 * (2 and 4: every other fragment layer keeps the crown's outline, the next
 * erodes it; 1 would swell crowns into one blob). */
#define E_ROCK { ECLASS_ROCK, 3, 4, 35 }
#define E_SOIL { ECLASS_SOIL, 2, 2, 25 }
#define E_SAND { ECLASS_SAND, 1, 1, 15 }
#define E_WOOD { ECLASS_WOOD, 2, 2, 30 }
#define E_LEAVES { ECLASS_LEAVES, 2, 4, 40 }
#define E_NONE { ECLASS_NONE, 1, 1, 25 }
/* name, display, tiles (back, front, top, bottom, left, right), render self, render neighbours, solid, pass,
 * enhance, density (voxel bodies: stone heavier than earth, than wood, than leaves) */
const material material_table[MAT_COUNT] = {
    [MAT_AIR] = { "air", "Air", ALL(0), false, true, false, PASS_NONE, E_NONE, 0.0f },
    [MAT_NULL] = { "null", "Null", ALL(0), true, false, true, PASS_OPAQUE, E_NONE, 2.5f },
    [MAT_PLACEHOLDER] = { "structure_placeholder", "Structure Placeholder", ALL(0), false, true, false, PASS_NONE, E_NONE, 0.0f },
    [MAT_BEDROCK] = { "bedrock", "Bedrock", ALL(1), true, false, true, PASS_OPAQUE, E_ROCK, 3.0f },
    [MAT_STONE] = { "stone", "Stone", ALL(2), true, false, true, PASS_OPAQUE, E_ROCK, 2.6f },
    [MAT_DIRT] = { "dirt", "Dirt", ALL(3), true, false, true, PASS_OPAQUE, E_SOIL, 1.5f },
    /* The paper lists tile 2 (stone) for the grass bottom; we keep its table. */
    [MAT_GRASS] = { "grass", "Grass", { 4, 4, 5, 2, 4, 4 }, true, false, true, PASS_OPAQUE, E_SOIL, 1.5f },
    [MAT_SAND] = { "sand", "Sand", ALL(6), true, false, true, PASS_OPAQUE, E_SAND, 1.6f },
    [MAT_SANDSTONE] = { "sandstone", "Sandstone", ALL(9), true, false, true, PASS_OPAQUE, E_ROCK, 2.3f },
    [MAT_MESA] = { "mesa", "Mesa", ALL(7), true, false, true, PASS_OPAQUE, E_ROCK, 2.2f },
    [MAT_SALT_FLAT] = { "salt_flat", "Saltflat", ALL(8), true, false, true, PASS_OPAQUE, E_SAND, 2.1f },
    [MAT_TAIGA_DIRT] = { "taiga_dirt", "Taiga Dirt", ALL(15), true, false, true, PASS_OPAQUE, E_SOIL, 1.4f },
    [MAT_TAIGA_GRASS] = { "taiga_grass", "Taiga Grass", { 13, 13, 14, 15, 13, 13 }, true, false, true, PASS_OPAQUE, E_SOIL, 1.4f },
    [MAT_PERMAFROST] = { "permafrost", "Permafrost", ALL(16), true, false, true, PASS_OPAQUE, E_SOIL, 1.8f },
    [MAT_CACTUS] = { "cactus", "Cactus", { 10, 10, 11, 12, 10, 10 }, true, false, true, PASS_OPAQUE, E_WOOD, 0.6f },
    [MAT_OAK_LOG] = { "oak_log", "Oak Log", { 17, 17, 18, 18, 17, 17 }, true, false, true, PASS_OPAQUE, E_WOOD, 0.75f },
    [MAT_FIR_LOG] = { "fir_log", "Fir Log", { 19, 19, 20, 20, 19, 19 }, true, false, true, PASS_OPAQUE, E_WOOD, 0.55f },
    [MAT_OAK_LEAVES] = { "oak_leaves", "Oak Leaves", ALL(21), true, false, true, PASS_CUTOUT, E_LEAVES, 0.15f },
    [MAT_FIR_LEAVES] = { "fir_leaves", "Fir Leaves", ALL(22), true, false, true, PASS_CUTOUT, E_LEAVES, 0.12f },
    [MAT_CRACKED_STONE] = { "cracked_stone", "Cracked Stone", ALL(23), true, false, true, PASS_OPAQUE, E_ROCK, 2.4f },
    /* Semi-transparent bog: renders its neighbours, and the player wades through it. */
    [MAT_MUSKEG] = { "muskeg", "Muskeg", ALL(24), true, true, false, PASS_TRANSLUCENT, { ECLASS_BOG, 2, 2, 25 }, 1.1f },
    /* Emitters block light as stone does; the lamp keeps its cube when enhanced, as wood does. */
    [MAT_LAMP] = { "lamp", "Lamp", ALL(25), true, false, true, PASS_OPAQUE, E_WOOD, 1.2f },
    [MAT_GLOW_ORE] = { "glow_ore", "Glowing Ore", ALL(26), true, false, true, PASS_OPAQUE, E_ROCK, 2.7f },
};
#undef E_ROCK
#undef E_SOIL
#undef E_SAND
#undef E_WOOD
#undef E_LEAVES
#undef E_NONE

int material_find(const char *name)
{
    for (int i = 0; i < MAT_COUNT; i++)
        if (strcmp(material_table[i].name, name) == 0) return i;
    return -1;
}
