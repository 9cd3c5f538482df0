/* hash: 64-bit hashing of byte ranges, used for world_hash and caches.
 * Word-at-a-time so hashing the whole default world stays in milliseconds. */
#ifndef STRATA_HASH_H
#define STRATA_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_SEED 0xcbf29ce484222325ULL

uint64_t hash_bytes(uint64_t h, const void *data, size_t len);
uint64_t hash_u64(uint64_t h, uint64_t v);

#endif
