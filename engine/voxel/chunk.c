#include "voxel/chunk.h"

#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

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

uint64_t chunk_fingerprint(const chunk *c)
{
    uint64_t h = hash_bytes(HASH_SEED, c->vox, CHUNK_VOLUME);
    if (c->tint) h = hash_bytes(h ^ 0x7469, c->tint, CHUNK_VOLUME);
    return h;
}

chunk *chunk_new(void)
{
    chunk *c = malloc(sizeof *c + CHUNK_VOLUME);
    if (!c) return NULL;
    c->vox = (uint8_t *)(c + 1);
    c->tint = NULL;
    memset(c->vox, 0, CHUNK_VOLUME); /* MAT_AIR */
    return c;
}
