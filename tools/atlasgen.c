/* atlasgen: paints assets/atlas.png, the block texture atlas, as procedural
 * pixel art: one 16x16 tile per texture number of seed 001's voxel table.
 * Usage: atlasgen OUT.png. Output depends on nothing but this file (fixed
 * seeds, integer hashing, no time or rand()), so tests can regenerate it. */
#include "gfx/atlas.h"
#include "voxel/material.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image_write.h>

#define AG_N ATLAS_TILE

typedef struct ag_rgb { float r, g, b; } ag_rgb;

/* The canvas of one tile inside the whole atlas image. */
typedef struct ag_canvas {
    uint8_t *img;
    int ox, oy;
} ag_canvas;

/* ---- hashing and noise ---------------------------------------------------
 * Every pattern wraps at 16 pixels: greedy meshing repeats a tile across a
 * merged quad, so a seam inside a tile would show as a grid on the terrain. */

static uint32_t ag_hash(uint32_t seed, int x, int y, uint32_t salt)
{
    uint32_t h = seed * 0x9e3779b9u ^ (uint32_t)x * 0x85ebca6bu ^ (uint32_t)y * 0xc2b2ae35u ^ salt * 0x27d4eb2fu;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

static int ag_wrap(int v, int period) { return ((v % period) + period) % period; }

/* Uniform in [0, 1) per pixel, wrapping with the tile. */
static float ag_rand(uint32_t seed, int x, int y)
{
    return (float)(ag_hash(seed, ag_wrap(x, AG_N), ag_wrap(y, AG_N), 1) >> 8) / 16777216.0f;
}

static float ag_smooth(float t) { return t * t * (3.0f - 2.0f * t); }

/* Value noise on a lattice of cw x ch pixel cells; cw and ch divide 16 so
 * the lattice, and with it the noise, repeats every tile. Elongated cells
 * give streaks (bark grain). */
static float ag_vnoise(uint32_t seed, int x, int y, int cw, int ch)
{
    int px = AG_N / cw, py = AG_N / ch;
    float fx = ((float)ag_wrap(x, AG_N) + 0.5f) / (float)cw, fy = ((float)ag_wrap(y, AG_N) + 0.5f) / (float)ch;
    int ix = (int)fx, iy = (int)fy;
    float tx = ag_smooth(fx - (float)ix), ty = ag_smooth(fy - (float)iy);
    float v[4];
    for (int k = 0; k < 4; k++)
        v[k] = (float)(ag_hash(seed, ag_wrap(ix + (k & 1), px), ag_wrap(iy + (k >> 1), py), 2) >> 8) / 16777216.0f;
    float top = v[0] + (v[1] - v[0]) * tx, bot = v[2] + (v[3] - v[2]) * tx;
    return top + (bot - top) * ty;
}

/* Blotches at three scales, in [0, 1). */
static float ag_fbm(uint32_t seed, int x, int y)
{
    return 0.5f * ag_vnoise(seed, x, y, 8, 8) + 0.3f * ag_vnoise(seed + 1, x, y, 4, 4) +
           0.2f * ag_vnoise(seed + 2, x, y, 2, 2);
}

/* ---- colour --------------------------------------------------------------- */

static ag_rgb ag_hex(uint32_t c)
{
    return (ag_rgb){ (float)((c >> 16) & 255), (float)((c >> 8) & 255), (float)(c & 255) };
}

static ag_rgb ag_mix(ag_rgb a, ag_rgb b, float t)
{
    return (ag_rgb){ a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t };
}

static ag_rgb ag_scale(ag_rgb c, float k) { return (ag_rgb){ c.r * k, c.g * k, c.b * k }; }

/* Pixel art reads best with a few flat shades rather than smooth gradients:
 * v in [0, 1) picks one colour of a dark-to-light ramp. */
static ag_rgb ag_ramp(const uint32_t *pal, int n, float v)
{
    int i = (int)(v * (float)n);
    if (i < 0) i = 0;
    if (i >= n) i = n - 1;
    return ag_hex(pal[i]);
}

static uint8_t ag_byte(float v)
{
    v += 0.5f;
    return (uint8_t)(v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v);
}

static void ag_put(ag_canvas *cv, int x, int y, ag_rgb c, int a)
{
    x = ag_wrap(x, AG_N);
    y = ag_wrap(y, AG_N);
    uint8_t *p = cv->img + ((size_t)(cv->oy + y) * ATLAS_WIDTH + (size_t)(cv->ox + x)) * 4;
    p[0] = ag_byte(c.r);
    p[1] = ag_byte(c.g);
    p[2] = ag_byte(c.b);
    p[3] = (uint8_t)a;
}

static ag_rgb ag_get(const ag_canvas *cv, int x, int y)
{
    x = ag_wrap(x, AG_N);
    y = ag_wrap(y, AG_N);
    const uint8_t *p = cv->img + ((size_t)(cv->oy + y) * ATLAS_WIDTH + (size_t)(cv->ox + x)) * 4;
    return (ag_rgb){ p[0], p[1], p[2] };
}

/* A ground of mottled shades: blotches plus per-pixel grain. */
static void ag_ground(ag_canvas *cv, uint32_t seed, const uint32_t *pal, int n, float grain)
{
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            float v = (1.0f - grain) * ag_fbm(seed, x, y) + grain * ag_rand(seed + 7, x, y);
            /* stretch around the middle so every shade of the ramp appears */
            v = 0.5f + (v - 0.5f) * 1.6f;
            ag_put(cv, x, y, ag_ramp(pal, n, v), 255);
        }
}

/* Sparse single pixels (pebbles, grains, frost) over what is there. */
static void ag_sprinkle(ag_canvas *cv, uint32_t seed, float chance, uint32_t c0, uint32_t c1)
{
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++)
            if (ag_rand(seed, x, y) < chance)
                ag_put(cv, x, y, ag_hex(ag_rand(seed + 3, x, y) < 0.5f ? c0 : c1), 255);
}

/* ---- the tiles -------------------------------------------------------------- */

static void paint_null(ag_canvas *cv)
{
    /* the classic "missing texture" checker: impossible to mistake for terrain */
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++)
            ag_put(cv, x, y, ag_hex(((x / 8) ^ (y / 8)) & 1 ? 0x000000 : 0xff00ff), 255);
}

static void paint_bedrock(ag_canvas *cv)
{
    static const uint32_t pal[] = { 0x1b1b1d, 0x303033, 0x48484c, 0x66666a, 0x85858a };
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            /* coarse, high-contrast lumps: reads as "unbreakable" at a glance */
            float v = 0.45f * ag_vnoise(101, x, y, 4, 4) + 0.35f * ag_vnoise(102, x, y, 2, 2) +
                      0.2f * ag_rand(103, x, y);
            ag_put(cv, x, y, ag_ramp(pal, 5, 0.5f + (v - 0.5f) * 2.0f), 255);
        }
}

static const uint32_t stone_pal[] = { 0x6a6a6c, 0x78787a, 0x848486, 0x8f8f91, 0x9a9a9c };

static void paint_stone(ag_canvas *cv)
{
    ag_ground(cv, 200, stone_pal, 5, 0.35f);
    ag_sprinkle(cv, 205, 0.05f, 0x5c5c5e, 0x646466);
}

static void paint_dirt_with(ag_canvas *cv, uint32_t seed, const uint32_t *pal, uint32_t peb0, uint32_t peb1)
{
    ag_ground(cv, seed, pal, 4, 0.5f);
    ag_sprinkle(cv, seed + 50, 0.045f, peb0, peb1);
}

static const uint32_t dirt_pal[] = { 0x5e4029, 0x6f4d32, 0x7e5a3b, 0x8c6646 };
static void paint_dirt(ag_canvas *cv) { paint_dirt_with(cv, 300, dirt_pal, 0x8f8577, 0x4d3421); }

static const uint32_t grass_pal[] = { 0x4a8a2c, 0x579a33, 0x63a83b, 0x72b645 };

static void paint_grass_top_with(ag_canvas *cv, uint32_t seed, const uint32_t *pal, uint32_t blade0,
                                 uint32_t blade1)
{
    ag_ground(cv, seed, pal, 4, 0.6f);
    ag_sprinkle(cv, seed + 50, 0.07f, blade0, blade1);
}

static void paint_grass_top(ag_canvas *cv) { paint_grass_top_with(cv, 500, grass_pal, 0x3f7826, 0x86c556); }

/* Side of a grassy block: the block's own dirt with turf hanging over the
 * top edge in uneven tufts, and a shadow line under the turf for depth. */
static void paint_side_fringe(ag_canvas *cv, uint32_t seed, const uint32_t *pal, int min_len, int spread,
                              uint32_t tip, float shadow)
{
    for (int x = 0; x < AG_N; x++) {
        int len = min_len + (int)(ag_hash(seed, x, 0, 9) % (uint32_t)spread);
        /* neighbouring columns share some length so tufts look like clumps */
        if (ag_hash(seed, x, 1, 9) % 3 == 0) len = min_len + (int)(ag_hash(seed, ag_wrap(x - 1, AG_N), 0, 9) % (uint32_t)spread);
        for (int y = 0; y < len; y++) {
            float v = 0.5f * ag_rand(seed + 1, x, y) + 0.5f * ag_vnoise(seed + 2, x, y, 4, 4);
            ag_rgb c = ag_ramp(pal, 4, v);
            if (y == len - 1 && ag_rand(seed + 3, x, y) < 0.5f) c = ag_hex(tip);
            ag_put(cv, x, y, c, 255);
        }
        ag_put(cv, x, len, ag_scale(ag_get(cv, x, len), shadow), 255);
    }
}

static void paint_grass_side(ag_canvas *cv)
{
    paint_dirt(cv);
    paint_side_fringe(cv, 400, grass_pal, 3, 3, 0x3f7826, 0.72f);
}

static void paint_sand(ag_canvas *cv)
{
    static const uint32_t pal[] = { 0xd0c07e, 0xdacb8c, 0xe2d499, 0xeadda6 };
    ag_ground(cv, 600, pal, 4, 0.7f);
    ag_sprinkle(cv, 650, 0.05f, 0xbfa96a, 0xf3e9bf);
}

/* Horizontal strata that drift a pixel up or down across the tile. */
static void paint_bands(ag_canvas *cv, uint32_t seed, const uint32_t *bands, float jitter)
{
    for (int x = 0; x < AG_N; x++) {
        float w = ag_vnoise(seed, x, 0, 8, 16);
        int off = w < 0.3f ? -1 : w > 0.7f ? 1 : 0;
        for (int y = 0; y < AG_N; y++) {
            ag_rgb c = ag_hex(bands[ag_wrap(y + off, AG_N)]);
            float k = 1.0f + jitter * (ag_rand(seed + 1, x, y) - 0.5f) + 0.5f * jitter * (ag_vnoise(seed + 2, x, y, 4, 2) - 0.5f);
            ag_put(cv, x, y, ag_scale(c, k), 255);
        }
    }
}

static void paint_mesa(ag_canvas *cv)
{
    static const uint32_t bands[AG_N] = {
        0xb4543a, 0xb4543a, 0xbb5c40, 0xd8a27a, 0xc46a40, 0xc46a40, 0xc8703f, 0x8c3f2d,
        0x8c3f2d, 0xcd8a5e, 0xcd8a5e, 0xae5639, 0xae5639, 0xb35b3c, 0xe0b088, 0x9a4631,
    };
    paint_bands(cv, 700, bands, 0.14f);
}

/* Toroidal distance, so cells near one edge continue across it. */
static float ag_tdist2(float ax, float ay, float bx, float by)
{
    float dx = fabsf(ax - bx), dy = fabsf(ay - by);
    if (dx > AG_N / 2) dx = AG_N - dx;
    if (dy > AG_N / 2) dy = AG_N - dy;
    return dx * dx + dy * dy;
}

static void paint_salt(ag_canvas *cv)
{
    static const uint32_t pal[] = { 0xe2e2dc, 0xebebe6, 0xf3f3ef, 0xfafaf7 };
    ag_ground(cv, 800, pal, 4, 0.6f);
    /* polygonal crust: Voronoi cells, cracks where two cells meet */
    enum { CELLS = 6 };
    float cx[CELLS], cy[CELLS];
    for (int i = 0; i < CELLS; i++) {
        cx[i] = (float)(ag_hash(810, i, 0, 3) % 1600) / 100.0f;
        cy[i] = (float)(ag_hash(810, i, 1, 3) % 1600) / 100.0f;
    }
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            float d1 = 1e9f, d2 = 1e9f;
            for (int i = 0; i < CELLS; i++) {
                float d = ag_tdist2((float)x + 0.5f, (float)y + 0.5f, cx[i], cy[i]);
                if (d < d1) {
                    d2 = d1;
                    d1 = d;
                } else if (d < d2) {
                    d2 = d;
                }
            }
            float edge = sqrtf(d2) - sqrtf(d1);
            if (edge < 0.55f) ag_put(cv, x, y, ag_hex(ag_rand(820, x, y) < 0.3f ? 0xa9a59a : 0xbdb9ae), 255);
            else if (edge < 1.1f && ag_rand(821, x, y) < 0.35f) ag_put(cv, x, y, ag_hex(0xffffff), 255);
        }
}

static void paint_sandstone(ag_canvas *cv)
{
    /* layers of unequal thickness with a darker seam on top of each */
    static const uint32_t bands[AG_N] = {
        0xc9b07a, 0xe0cc96, 0xe0cc96, 0xdcc790, 0xd8c28b, 0xbfa56f, 0xd4bd86, 0xd4bd86,
        0xd0b880, 0xd4bd86, 0xc2a872, 0xe2cf9b, 0xdfca94, 0xdfca94, 0xdac48e, 0xd6bf88,
    };
    paint_bands(cv, 900, bands, 0.08f);
    ag_sprinkle(cv, 950, 0.03f, 0xb89d66, 0xeadaa8);
}

static const uint32_t cactus_pal[] = { 0x2c5a22, 0x3a7a2c, 0x468c34, 0x5aa540 };

static void paint_cactus_side(ag_canvas *cv)
{
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            /* ribs every 4 columns: groove, flank, ridge, flank */
            static const float rib[4] = { 0.05f, 0.4f, 0.85f, 0.45f };
            float v = rib[x % 4] + 0.25f * (ag_rand(1000, x, y) - 0.5f) + 0.2f * (ag_vnoise(1001, x, y, 4, 8) - 0.5f);
            ag_put(cv, x, y, ag_ramp(cactus_pal, 4, v), 255);
        }
    /* spines on the ridges, staggered between neighbouring ribs: a bright
     * tip with its shadow beside it */
    for (int rib = 0; rib < 4; rib++)
        for (int y = (rib & 1) * 3 + 1; y < AG_N; y += 6) {
            int x = rib * 4 + 2;
            ag_put(cv, x, y, ag_hex(0xf2eec8), 255);
            ag_put(cv, x + 1, y + 1, ag_hex(0x2a5220), 255);
        }
}

/* A cut across the stem: rind at the edge with the side's rib notches, flesh
 * inside in soft rings. */
static void paint_cactus_end(ag_canvas *cv, uint32_t seed, const uint32_t *flesh, uint32_t core)
{
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            int edge = x < y ? x : y;
            int e2 = (AG_N - 1 - x) < (AG_N - 1 - y) ? AG_N - 1 - x : AG_N - 1 - y;
            if (e2 < edge) edge = e2;
            int along = (edge == x || edge == AG_N - 1 - x) ? y : x;
            ag_rgb c;
            if (edge == 0) c = ag_hex(along % 4 == 0 ? 0x24491c : 0x2f6326);
            else if (edge == 1) c = ag_hex(along % 4 == 0 ? 0x2f6326 : 0x3f822f);
            else {
                float dx = (float)x - 7.5f, dy = (float)y - 7.5f;
                float r = sqrtf(dx * dx + dy * dy) + 1.2f * (ag_vnoise(seed, x, y, 4, 4) - 0.5f);
                float v = (r < 2.0f ? 0.9f : ((int)(r / 2.0f) & 1) ? 0.35f : 0.65f) + 0.2f * (ag_rand(seed + 1, x, y) - 0.5f);
                c = ag_ramp(flesh, 4, v);
            }
            ag_put(cv, x, y, c, 255);
        }
    ag_put(cv, 7, 7, ag_hex(core), 255);
    ag_put(cv, 8, 8, ag_hex(core), 255);
    ag_put(cv, 7, 8, ag_hex(core), 255);
    ag_put(cv, 8, 7, ag_hex(core), 255);
}

static void paint_cactus_top(ag_canvas *cv)
{
    static const uint32_t flesh[] = { 0x4a9236, 0x56a03e, 0x63ad48, 0x70b852 };
    paint_cactus_end(cv, 1100, flesh, 0xd9d07a);
}

static void paint_cactus_bottom(ag_canvas *cv)
{
    /* the underside is pale and dry where it meets the sand */
    static const uint32_t flesh[] = { 0x8ea05c, 0x9cad66, 0xaab872, 0xb8c37e };
    paint_cactus_end(cv, 1200, flesh, 0x7c6a40);
}

static const uint32_t taiga_pal[] = { 0x2c5238, 0x355f40, 0x3f6c48, 0x4a7851 };
static const uint32_t taiga_dirt_pal[] = { 0x43372d, 0x4f4135, 0x5b4c3e, 0x675748 };

static void paint_taiga_dirt(ag_canvas *cv) { paint_dirt_with(cv, 1500, taiga_dirt_pal, 0x7d7a74, 0x352b23); }

static void paint_taiga_side(ag_canvas *cv)
{
    paint_taiga_dirt(cv);
    paint_side_fringe(cv, 1300, taiga_pal, 2, 3, 0x243f2c, 0.7f);
    /* a few frosted tips: the taiga is cold */
    for (int x = 0; x < AG_N; x++)
        if (ag_rand(1310, x, 0) < 0.2f) ag_put(cv, x, 0, ag_hex(0x9fb7a8), 255);
}

static void paint_taiga_top(ag_canvas *cv)
{
    paint_grass_top_with(cv, 1400, taiga_pal, 0x5e4a30, 0x6f8a6a);
}

static void paint_permafrost(ag_canvas *cv)
{
    static const uint32_t pal[] = { 0x5c6672, 0x69747f, 0x76818c, 0x838e98 };
    ag_ground(cv, 1600, pal, 4, 0.5f);
    /* frost crystals, a few in short streaks */
    ag_sprinkle(cv, 1650, 0.09f, 0xd8e4ee, 0xb4c6d6);
    for (int i = 0; i < 4; i++) {
        int x = (int)(ag_hash(1660, i, 0, 4) % AG_N), y = (int)(ag_hash(1660, i, 1, 4) % AG_N);
        for (int k = 0; k < 3; k++) ag_put(cv, x + k, y + (k == 2), ag_hex(0xe6eef5), 255);
    }
}

/* Bark: grain streaks (tall noise cells) with dark fissures between plates. */
static void paint_bark(ag_canvas *cv, uint32_t seed, const uint32_t *pal, int cell_w, int cell_h, float fissure)
{
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            float v = 0.55f * ag_vnoise(seed, x, y, cell_w, cell_h) + 0.25f * ag_vnoise(seed + 1, x, y, 2, 8) +
                      0.2f * ag_rand(seed + 2, x, y);
            v = 0.5f + (v - 0.5f) * 1.8f;
            /* fissures wander a pixel sideways as they run down the trunk */
            int sx = x + (ag_vnoise(seed + 3, x, y, 16, 4) > 0.5f ? 1 : 0);
            if (ag_vnoise(seed + 4, sx, y, 2, 16) < fissure) v = 0.0f;
            ag_put(cv, x, y, ag_ramp(pal, 5, v), 255);
        }
}

static const uint32_t oak_bark_pal[] = { 0x3b2818, 0x523823, 0x64462c, 0x735234, 0x82603d };
static const uint32_t fir_bark_pal[] = { 0x2e1c14, 0x43291c, 0x553524, 0x66412c, 0x744c33 };

static void paint_oak_bark(ag_canvas *cv) { paint_bark(cv, 1700, oak_bark_pal, 4, 8, 0.22f); }
static void paint_fir_bark(ag_canvas *cv) { paint_bark(cv, 1900, fir_bark_pal, 8, 4, 0.3f); }

/* Log end: bark rim, then growth rings around a dark pith. */
static void paint_rings(ag_canvas *cv, uint32_t seed, const uint32_t *bark, uint32_t light, uint32_t dark,
                        uint32_t pith, float ring_w)
{
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            int rim = x == 0 || y == 0 || x == AG_N - 1 || y == AG_N - 1;
            if (rim) {
                ag_put(cv, x, y, ag_ramp(bark, 5, 0.15f + 0.6f * ag_rand(seed, x, y)), 255);
                continue;
            }
            float dx = (float)x - 7.5f, dy = (float)y - 7.5f;
            float r = sqrtf(dx * dx + dy * dy) + 0.9f * (ag_vnoise(seed + 1, x, y, 4, 4) - 0.5f);
            ag_rgb c = ((int)(r / ring_w) & 1) ? ag_hex(dark) : ag_hex(light);
            if (r < 1.3f) c = ag_hex(pith);
            c = ag_scale(c, 1.0f + 0.08f * (ag_rand(seed + 2, x, y) - 0.5f));
            ag_put(cv, x, y, c, 255);
        }
}

static void paint_oak_end(ag_canvas *cv) { paint_rings(cv, 1800, oak_bark_pal, 0xb99463, 0x9c774a, 0x6e5232, 1.6f); }
static void paint_fir_end(ag_canvas *cv) { paint_rings(cv, 2000, fir_bark_pal, 0xd2b27f, 0xb39061, 0x8a6a42, 1.25f); }

static void paint_oak_leaves(ag_canvas *cv)
{
    static const uint32_t pal[] = { 0x2a5e1e, 0x367028, 0x428232, 0x52933c, 0x63a548 };
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            float clump = ag_vnoise(2100, x, y, 4, 4), grain = ag_rand(2101, x, y);
            float v = 0.6f * clump + 0.4f * grain;
            /* holes between clumps; transparent texels keep a leaf colour so
             * nothing dark can creep in through filtering */
            if (v < 0.3f) {
                ag_put(cv, x, y, ag_hex(pal[1]), 0);
                continue;
            }
            /* light from above: leaves with an opening below them are darker */
            float shade = 0.5f + (v - 0.5f) * 1.4f;
            ag_put(cv, x, y, ag_ramp(pal, 5, shade), 255);
        }
}

static void paint_fir_leaves(ag_canvas *cv)
{
    static const uint32_t pal[] = { 0x143826, 0x1d4630, 0x27553a, 0x316446 };
    /* shadowed inner boughs fill part of the gaps so the crown is dense
     * enough to read as a tree, not a lattice */
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            float v = 0.65f * ag_vnoise(2190, x, y, 4, 4) + 0.35f * ag_rand(2191, x, y);
            ag_put(cv, x, y, ag_hex(pal[0]), v > 0.5f ? 255 : 0);
        }
    /* sprigs: a short twig with needles swept down and out on both sides,
     * one per 4x4 cell with some jitter, so the tile reads as a fir bough */
    for (int cy = 0; cy < 4; cy++)
        for (int cx = 0; cx < 4; cx++) {
            uint32_t h = ag_hash(2200, cx, cy, 5);
            int x = cx * 4 + (int)(h % 3) + (cy & 1) * 2, y = cy * 4 + (int)((h >> 4) % 2);
            int arm = 2 + (int)((h >> 8) % 2);
            uint32_t col = pal[1 + (h >> 12) % 2];
            for (int k = 0; k < 3; k++) ag_put(cv, x, y + k, ag_hex(pal[0]), 255);
            for (int k = 1; k <= arm; k++) {
                ag_rgb c = ag_hex(k == arm ? pal[3] : col);
                ag_put(cv, x - k, y + k, c, 255);
                ag_put(cv, x + k, y + k, c, 255);
            }
        }
}

static void paint_cracked_stone(ag_canvas *cv)
{
    paint_stone(cv);
    /* cracks: thin random walks that keep a main heading; a lit lip on some
     * steps makes them read as cut into the surface rather than painted */
    for (int i = 0; i < 4; i++) {
        int x = (int)(ag_hash(2300, i, 0, 6) % AG_N), y = (int)(ag_hash(2300, i, 1, 6) % AG_N);
        int dx = (ag_hash(2300, i, 2, 6) & 1) ? 1 : -1;
        int len = 7 + (int)(ag_hash(2300, i, 3, 6) % 6);
        for (int k = 0; k < len; k++) {
            ag_put(cv, x, y, ag_hex(0x3a3a3c), 255);
            if (ag_hash(2302, i, k, 6) % 3 == 0) ag_put(cv, x, y + 1, ag_hex(0xa2a2a4), 255);
            uint32_t h = ag_hash(2301, i, k, 6) % 5;
            if (h == 0) y++;
            else if (h == 1) y--;
            else if (h == 2) { /* a straight drop, so cracks are not all diagonal */
                y++;
                continue;
            }
            x += dx;
        }
    }
}

static void paint_muskeg(ag_canvas *cv)
{
    static const uint32_t pal[] = { 0x2e3a24, 0x38462a, 0x425231, 0x4d5e38 };
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            float v = 0.7f * ag_fbm(2400, x, y) + 0.3f * ag_rand(2401, x, y);
            ag_rgb c = ag_ramp(pal, 4, 0.5f + (v - 0.5f) * 1.6f);
            /* murkier where darker: alpha 160 (clear patches) .. 190 (silt) */
            int a = 190 - (int)(v * 30.0f);
            ag_put(cv, x, y, c, a < 160 ? 160 : a > 190 ? 190 : a);
        }
    /* ripples: short bright streaks, and a few bits of floating peat */
    for (int i = 0; i < 5; i++) {
        int x = (int)(ag_hash(2410, i, 0, 7) % AG_N), y = (int)(ag_hash(2410, i, 1, 7) % AG_N);
        int len = 2 + (int)(ag_hash(2410, i, 2, 7) % 3);
        for (int k = 0; k < len; k++) ag_put(cv, x + k, y, ag_mix(ag_hex(0x6d7a48), ag_hex(0x8a9660), k == 1 ? 1.0f : 0.0f), 180);
    }
    ag_sprinkle(cv, 2420, 0.03f, 0x4a3a22, 0x5a4528);
    /* the sprinkle writes opaque peat; keep it in the translucent range */
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            uint8_t *p = cv->img + ((size_t)(cv->oy + y) * ATLAS_WIDTH + (size_t)(cv->ox + x)) * 4;
            if (p[3] > 190) p[3] = 190;
        }
}

/* The lamp: a warm pane in a dark iron frame, brightest at its centre, so
 * it reads as the light source it is (light/emit.h) in every mode. */
static void paint_lamp(ag_canvas *cv)
{
    for (int y = 0; y < AG_N; y++)
        for (int x = 0; x < AG_N; x++) {
            bool frame = x < 2 || y < 2 || x >= AG_N - 2 || y >= AG_N - 2 || x == 7 || x == 8 || y == 7 || y == 8;
            if (frame) {
                ag_put(cv, x, y, ag_mix(ag_hex(0x2c2926), ag_hex(0x45403a), ag_rand(2500, x, y)), 255);
                continue;
            }
            float dx = ((float)x - 7.5f) / 7.5f, dy = ((float)y - 7.5f) / 7.5f;
            float glow = 1.0f - 0.45f * (dx * dx + dy * dy) + 0.08f * (ag_rand(2501, x, y) - 0.5f);
            ag_put(cv, x, y, ag_mix(ag_hex(0xd8902c), ag_hex(0xfff1b8), glow < 0 ? 0 : glow > 1 ? 1 : glow), 255);
        }
}

/* Glowing ore: stone with amber crystals, in clusters, lit from within. */
static void paint_glow_ore(ag_canvas *cv)
{
    paint_stone(cv);
    for (int i = 0; i < 6; i++) {
        int x = (int)(ag_hash(2600, i, 0, 8) % AG_N), y = (int)(ag_hash(2600, i, 1, 8) % AG_N);
        int r = 1 + (int)(ag_hash(2600, i, 2, 8) % 2);
        for (int dy = -r; dy <= r; dy++)
            for (int dx = -r; dx <= r; dx++) {
                if (abs(dx) + abs(dy) > r) continue;
                uint32_t c = dx == 0 && dy == 0 ? 0xfff0a0 : (ag_hash(2601, i, dx * 5 + dy, 8) & 1) ? 0xffb347 : 0xe8902a;
                ag_put(cv, ag_wrap(x + dx, AG_N), ag_wrap(y + dy, AG_N), ag_hex(c), 255);
            }
    }
}

typedef void (*ag_painter)(ag_canvas *cv);

/* Index = texture number of seed 001's voxel table. */
static const ag_painter ag_tiles[] = {
    paint_null,         paint_bedrock,       paint_stone,      paint_dirt,         paint_grass_side,
    paint_grass_top,    paint_sand,          paint_mesa,       paint_salt,         paint_sandstone,
    paint_cactus_side,  paint_cactus_top,    paint_cactus_bottom, paint_taiga_side, paint_taiga_top,
    paint_taiga_dirt,   paint_permafrost,    paint_oak_bark,   paint_oak_end,      paint_fir_bark,
    paint_fir_end,      paint_oak_leaves,    paint_fir_leaves, paint_cracked_stone, paint_muskeg,
    paint_lamp,         paint_glow_ore, /* ours: the light sources */
};

_Static_assert(sizeof ag_tiles / sizeof ag_tiles[0] == MATERIAL_TILE_COUNT, "one painter per texture number");

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    static uint8_t img[ATLAS_WIDTH * ATLAS_HEIGHT * 4]; /* unused tiles stay transparent */
    memset(img, 0, sizeof img);
    int count = (int)(sizeof ag_tiles / sizeof ag_tiles[0]);
    for (int n = 0; n < count; n++) {
        ag_canvas cv = { img, 0, 0 };
        atlas_tile_origin(n, &cv.ox, &cv.oy);
        ag_tiles[n](&cv);
    }
    if (!stbi_write_png(argv[1], ATLAS_WIDTH, ATLAS_HEIGHT, 4, img, ATLAS_WIDTH * 4)) {
        fprintf(stderr, "atlasgen: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
