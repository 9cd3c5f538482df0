#include "voxel/chunk.h"

#include <string.h>

bool chunk_is_uniform(const chunk *c)
{
    /* compare 8 bytes at a time against a broadcast of the first voxel */
    uint64_t pat = 0x0101010101010101ULL * c->vox[0];
    for (int i = 0; i < CHUNK_VOLUME; i += 8) {
        uint64_t v;
        memcpy(&v, c->vox + i, 8);
        if (v != pat) return false;
    }
    return true;
}
