#include "cave_ore.h"

#include "core/rng.h"
#include "gen/grammar.h"

/* How far above the air beside a wall a roof is looked for. */
#define ORE_ROOF 24

static bool ore_rock(uint8_t m) { return grammar_class_has(GCLASS_ROCK, m); }
static bool ore_roof(uint8_t m) { return grammar_class_has(GCLASS_TERRAIN, m); }

void cave_ore_grow(world *w, const int lo[3], const int hi[3], int top, uint64_t seed, float per_thousand)
{
    if (per_thousand <= 0.f) return;
    const uint64_t chance = (uint64_t)(per_thousand / 1000.0 * 18446744073709551615.0);
    const uint64_t key = seed ^ 0x6c6f775f6f7265ull;
    static const int off[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 0, 1 }, { 0, 0, -1 }, { 0, 1, 0 }, { 0, -1, 0 } };
    int ylo = lo[1] > 1 ? lo[1] : 1, yhi = top - ORE_ROOF - 1;
    for (int cz = lo[2] >> 2; cz <= (hi[2] - 1) >> 2; cz++)
        for (int cy = ylo >> 2; cy <= (yhi - 1) >> 2; cy++)
            for (int cx = lo[0] >> 2; cx <= (hi[0] - 1) >> 2; cx++) {
                if (rng_hash3(key, cx, cy, cz) > chance) continue;
                for (int z = cz * 4; z < cz * 4 + 4; z++)
                    for (int y = cy * 4; y < cy * 4 + 4; y++)
                        for (int x = cx * 4; x < cx * 4 + 4; x++) {
                            if (x <= lo[0] || x >= hi[0] - 1 || z <= lo[2] || z >= hi[2] - 1 || y < ylo ||
                                y >= yhi || !ore_rock(world_get(w, x, y, z)) || (rng_hash3(key + 1, x, y, z) & 1))
                                continue;
                            bool wall = false;
                            for (int k = 0; k < 6 && !wall; k++) {
                                int ax = x + off[k][0], ay = y + off[k][1], az = z + off[k][2];
                                if (world_get(w, ax, ay, az) != MAT_AIR) continue;
                                for (int up = ay + 1; up <= ay + ORE_ROOF && !wall; up++)
                                    wall = ore_roof(world_get(w, ax, up, az));
                            }
                            if (wall) world_set(w, x, y, z, MAT_GLOW_ORE);
                        }
            }
}
