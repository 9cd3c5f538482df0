/* surfnets_fields: the density fields the surface-nets tests, benchmarks
 * and the `surfnets` command share (a sphere, 4-octave noise), so every
 * comparison (CPU vs GPU, ours vs other implementations) meshes the same
 * numbers. Layout as surfnets_field: x fastest, then y, then z. */
#ifndef STRATA_SURFNETS_FIELDS_H
#define STRATA_SURFNETS_FIELDS_H

#include <stdint.h>

/* n^3 samples of |p - centre| - radius (negative inside). */
void surfnets_field_sphere(float *out, int n, float cx, float cy, float cz, float radius);
/* n^3 samples of 4-octave Perlin noise, base wavelength 32 samples: about
 * half the volume inside, in blobs and tunnels of every size. */
void surfnets_field_noise(float *out, int n, int64_t seed);

#endif
