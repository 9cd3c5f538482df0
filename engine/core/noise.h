/* noise: seeded Perlin gradient noise (2D and 3D).
 * A noise object is a permutation table derived from a seed, so every biome
 * and feature draws its own independent field: noise(seed) vs noise(-seed). */
#ifndef STRATA_NOISE_H
#define STRATA_NOISE_H

#include <stdint.h>

typedef struct noise { uint8_t perm[512]; } noise;

void noise_init(noise *n, int64_t seed);
/* Classic improved Perlin noise, roughly in [-1, 1]; zero on integer lattice points. */
float noise_perlin2(const noise *n, float x, float y);
float noise_perlin3(const noise *n, float x, float y, float z);
/* The same mapped to [0, 1] and clamped (the range the seed paper's equations assume). */
float noise_perlin2_01(const noise *n, float x, float y);

#endif
