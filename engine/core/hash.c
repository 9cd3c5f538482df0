#include "core/hash.h"

#include <string.h>

static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v * 0x9e3779b97f4a7c15ULL;
    h = (h << 27) | (h >> 37);
    return h * 0xff51afd7ed558ccdULL + 0x2545f4914f6cdd1dULL;
}

uint64_t hash_u64(uint64_t h, uint64_t v) { return mix(h, v); }

uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        h = mix(h, v);
    }
    uint64_t tail = 0;
    for (size_t k = 0; i < len; i++, k++) tail |= (uint64_t)p[i] << (8 * k);
    h = mix(h, tail ^ ((uint64_t)len << 56));
    h ^= h >> 33;
    return h;
}
