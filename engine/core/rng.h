/* rng: small deterministic random numbers and position hashes.
 * Generation must be a pure function of (seed, position), so flora and noise
 * use hashes of coordinates rather than a shared sequential stream. */
#ifndef STRATA_RNG_H
#define STRATA_RNG_H

#include <stdint.h>

typedef struct rng { uint64_t s; } rng;

static inline uint64_t rng_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline rng rng_make(uint64_t seed) { rng r = { rng_mix64(seed + 0x9e3779b97f4a7c15ULL) }; return r; }

/* splitmix64: statistically fine for gameplay, trivially seedable. */
static inline uint64_t rng_next(rng *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    return rng_mix64(r->s);
}

/* As n calls of rng_next whose values are not wanted: splitmix64's state
 * only counts, so skipping is one multiply-add (the same state exactly). */
static inline void rng_skip(rng *r, uint64_t n) { r->s += n * 0x9e3779b97f4a7c15ULL; }

/* Uniform in [0, 1). */
static inline double rng_double(rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* Uniform integer in [lo, hi] (inclusive). */
static inline int rng_range(rng *r, int lo, int hi)
{
    if (hi <= lo) return lo;
    return lo + (int)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* rng_hash3's first step, which depends on the seed alone (a caller that
 * hashes many positions with one seed, or a shader, can take it once). */
static inline uint64_t rng_hash3_key(uint64_t seed) { return rng_mix64(seed ^ 0x51ed270b27d5a3c1ULL); }

/* Hash of a seed and a 3D integer position: the same inputs give the same bits. */
static inline uint64_t rng_hash3(uint64_t seed, int x, int y, int z)
{
    uint64_t h = rng_hash3_key(seed);
    h = rng_mix64(h ^ (uint64_t)(uint32_t)x);
    h = rng_mix64(h ^ ((uint64_t)(uint32_t)y << 1));
    return rng_mix64(h ^ ((uint64_t)(uint32_t)z << 2));
}

#endif
