#include "mesh/surfnets_fields.h"

#include <math.h>
#include <stddef.h>

#include "core/noise.h"

void surfnets_field_sphere(float *out, int n, float cx, float cy, float cz, float radius)
{
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                float dx = (float)x - cx, dy = (float)y - cy, dz = (float)z - cz;
                out[(size_t)x + (size_t)n * ((size_t)y + (size_t)n * (size_t)z)] = sqrtf(dx * dx + dy * dy + dz * dz) - radius;
            }
}

void surfnets_field_noise(float *out, int n, int64_t seed)
{
    noise nz;
    noise_init(&nz, seed);
    /* the +0.37 offsets keep samples off the lattice, where Perlin is zero */
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                float v = 0, amp = 1, f = 1.f / 32.f;
                for (int o = 0; o < 4; o++) {
                    v += amp * noise_perlin3(&nz, ((float)x + 0.37f) * f, ((float)y + 0.37f) * f, ((float)z + 0.37f) * f);
                    amp *= 0.5f, f *= 2.f;
                }
                out[(size_t)x + (size_t)n * ((size_t)y + (size_t)n * (size_t)z)] = v;
            }
}
