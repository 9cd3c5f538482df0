#include "mesh/mesh_lod.h"

#include <string.h>

#include "voxel/chunk.h"

/* The cell's material: the most frequent non-air voxel of its upper layer,
 * else of its lower layer (first seen wins a tie); 0 when all air. */
static int cell_pick(const mesh_input *in, int x, int y, int z)
{
    for (int dy = 1; dy >= 0; dy--) {
        int idx[4] = { MESH_PAD_INDEX(x, y + dy, z), MESH_PAD_INDEX(x + 1, y + dy, z),
                       MESH_PAD_INDEX(x, y + dy, z + 1), MESH_PAD_INDEX(x + 1, y + dy, z + 1) };
        int best = -1, best_n = 0;
        for (int i = 0; i < 4; i++) {
            uint8_t m = in->vox[idx[i]];
            if (m == MAT_AIR) continue;
            int n = 0;
            for (int j = 0; j < 4; j++) n += in->vox[idx[j]] == m;
            if (n > best_n) best_n = n, best = idx[i];
        }
        if (best >= 0) return best;
    }
    return -1;
}

/* Whether the four rows of a (x across the chunk) at (y or y + 1, z or
 * z + 1) hold one byte, and which. */
static bool rows_one(const uint8_t *a, int y, int z, uint8_t *v)
{
    uint8_t same[CHUNK_SIZE];
    *v = a[MESH_PAD_INDEX(0, y, z)];
    memset(same, *v, sizeof same);
    for (int dy = 0; dy < 2; dy++)
        for (int dz = 0; dz < 2; dz++)
            if (memcmp(&a[MESH_PAD_INDEX(0, y + dy, z + dz)], same, sizeof same)) return false;
    return true;
}

void mesh_lod_coarsen(mesh_input *in)
{
    for (int y = 0; y < CHUNK_SIZE; y += 2)
        for (int z = 0; z < CHUNK_SIZE; z += 2) {
            /* A run of cells of one material and one tint (deep rock, open
             * air) coarsens to itself: each cell takes that material and
             * the tint of its voxel, or air and tint 0. Most runs are. */
            uint8_t rm, rt;
            if (rows_one(in->vox, y, z, &rm) && rows_one(in->tint, y, z, &rt) && (rm != MAT_AIR || rt == 0)) continue;
            for (int x = 0; x < CHUNK_SIZE; x += 2) {
                int src = cell_pick(in, x, y, z);
                uint8_t m = src < 0 ? MAT_AIR : in->vox[src], t = src < 0 ? 0 : in->tint[src];
                for (int dy = 0; dy < 2; dy++)
                    for (int dz = 0; dz < 2; dz++)
                        for (int dx = 0; dx < 2; dx++) {
                            int i = MESH_PAD_INDEX(x + dx, y + dy, z + dz);
                            in->vox[i] = m;
                            in->tint[i] = t;
                        }
            }
        }
}
