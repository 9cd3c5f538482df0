#include "core/noise.h"

#include <math.h>

#include "core/rng.h"

void noise_init(noise *n, int64_t seed)
{
    rng r = rng_make((uint64_t)seed);
    for (int i = 0; i < 256; i++) n->perm[i] = (uint8_t)i;
    for (int i = 255; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(rng_next(&r) % (uint64_t)(i + 1));
        uint8_t t = n->perm[i];
        n->perm[i] = n->perm[j];
        n->perm[j] = t;
    }
    for (int i = 0; i < 256; i++) n->perm[256 + i] = n->perm[i];
    n->key = rng_next(&r);
}

static inline float fade(float t) { return t * t * t * (t * (t * 6.f - 15.f) + 10.f); }
static inline float lerpf(float a, float b, float t) { return a + t * (b - a); }
static inline int fastfloor(float x) { int i = (int)x; return (x < (float)i) ? i - 1 : i; }

static inline float grad2(int h, float x, float y)
{
    /* eight directions: axes and diagonals */
    switch (h & 7) {
    case 0: return x + y;
    case 1: return -x + y;
    case 2: return x - y;
    case 3: return -x - y;
    case 4: return x;
    case 5: return -x;
    case 6: return y;
    default: return -y;
    }
}

static inline float grad3(int h, float x, float y, float z)
{
    int k = h & 15;
    float u = k < 8 ? x : y;
    float v = k < 4 ? y : (k == 12 || k == 14) ? x : z;
    return ((k & 1) ? -u : u) + ((k & 2) ? -v : v);
}

/* The noise in a cell from its corners' gradient hashes (aa at the low
 * corner, ba one step in x, ab one in y) and the place in it (xf, yf). */
static float perlin2_corners(int aa, int ab, int ba, int bb, float xf, float yf)
{
    float u = fade(xf), v = fade(yf);
    float x1 = lerpf(grad2(aa, xf, yf), grad2(ba, xf - 1.f, yf), u);
    float x2 = lerpf(grad2(ab, xf, yf - 1.f), grad2(bb, xf - 1.f, yf - 1.f), u);
    return lerpf(x1, x2, v) * 0.7071f;
}

float noise_perlin2(const noise *n, float x, float y)
{
    int xi = fastfloor(x), yi = fastfloor(y);
    int X = xi & 255, Y = yi & 255;
    const uint8_t *p = n->perm;
    return perlin2_corners(p[p[X] + Y], p[p[X] + Y + 1], p[p[X + 1] + Y], p[p[X + 1] + Y + 1], x - (float)xi,
                           y - (float)yi);
}

/* The gradient hash of lattice point (X, Y) of the unbounded plane. The
 * permutation alone repeats every 256 points (32,768 voxels at the hills'
 * scale): inside the square of points [-256, 256) it is still the hash, so
 * every world near the origin is what it was, and outside it each point
 * hashes its own coordinates with the field's key, so nothing repeats.
 * One hash per point keeps the field continuous across the square's edge. */
static int lattice2(const noise *n, int64_t X, int64_t Y)
{
    if (X >= -256 && X < 256 && Y >= -256 && Y < 256) {
        const uint8_t *p = n->perm;
        return p[p[X & 255] + (Y & 255)];
    }
    uint64_t h = rng_mix64(n->key ^ (uint64_t)X);
    return (int)(rng_mix64(h ^ (uint64_t)Y * 0x9e3779b97f4a7c15ull) >> 56);
}

float noise_perlin2d(const noise *n, double x, double y)
{
    double fx = floor(x), fy = floor(y);
    int64_t X = (int64_t)fx, Y = (int64_t)fy;
    return perlin2_corners(lattice2(n, X, Y), lattice2(n, X, Y + 1), lattice2(n, X + 1, Y), lattice2(n, X + 1, Y + 1),
                           (float)(x - fx), (float)(y - fy));
}

float noise_perlin3(const noise *n, float x, float y, float z)
{
    int xi = fastfloor(x), yi = fastfloor(y), zi = fastfloor(z);
    float xf = x - (float)xi, yf = y - (float)yi, zf = z - (float)zi;
    int X = xi & 255, Y = yi & 255, Z = zi & 255;
    const uint8_t *p = n->perm;
    int A = p[X] + Y, AA = p[A] + Z, AB = p[A + 1] + Z;
    int B = p[X + 1] + Y, BA = p[B] + Z, BB = p[B + 1] + Z;
    float u = fade(xf), v = fade(yf), w = fade(zf);
    return lerpf(lerpf(lerpf(grad3(p[AA], xf, yf, zf), grad3(p[BA], xf - 1, yf, zf), u),
                       lerpf(grad3(p[AB], xf, yf - 1, zf), grad3(p[BB], xf - 1, yf - 1, zf), u), v),
                 lerpf(lerpf(grad3(p[AA + 1], xf, yf, zf - 1), grad3(p[BA + 1], xf - 1, yf, zf - 1), u),
                       lerpf(grad3(p[AB + 1], xf, yf - 1, zf - 1), grad3(p[BB + 1], xf - 1, yf - 1, zf - 1), u), v),
                 w);
}

/* [-1, 1] to [0, 1], clamped */
static inline float unit01(float signed_value)
{
    float v = 0.5f * (signed_value + 1.f);
    return v < 0.f ? 0.f : v > 1.f ? 1.f : v;
}

float noise_perlin2_01(const noise *n, float x, float y) { return unit01(noise_perlin2(n, x, y)); }

float noise_perlin2d_01(const noise *n, double x, double y) { return unit01(noise_perlin2d(n, x, y)); }
