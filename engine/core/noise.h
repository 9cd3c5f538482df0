/* noise: seeded Perlin gradient noise (2D and 3D).
 * A noise object is a permutation table derived from a seed, so every biome
 * and feature draws its own independent field: noise(seed) vs noise(-seed). */
#ifndef STRATA_NOISE_H
#define STRATA_NOISE_H

#include <stdint.h>

typedef struct noise {
    uint8_t perm[512];
    uint64_t key; /* noise_perlin2d's lattice beyond the permutation's square */
} noise;

void noise_init(noise *n, int64_t seed);
/* Classic improved Perlin noise, roughly in [-1, 1]; zero on integer lattice points. */
float noise_perlin2(const noise *n, float x, float y);
float noise_perlin3(const noise *n, float x, float y, float z);
/* The same mapped to [0, 1] and clamped (the range the seed paper's equations assume). */
float noise_perlin2_01(const noise *n, float x, float y);

/* noise_perlin2 at a place given in doubles, for an unbounded plane
 * (terrain and plant fields): the cell is the exact floor and only the
 * place inside it goes to float. In floats 10^7 voxels at a scale of 100
 * has 1/128 of a cell left (0.78 voxels), and neighbouring columns would
 * share samples. The same field as noise_perlin2 wherever that one's
 * input was exact and within 256 cells of 0 on both axes (x, y in
 * [-256, 255)); beyond, the lattice is hashed per point and does not
 * repeat, where noise_perlin2 repeats every 256 cells. */
float noise_perlin2d(const noise *n, double x, double y);
/* The same mapped to [0, 1] and clamped. */
float noise_perlin2d_01(const noise *n, double x, double y);

#endif
