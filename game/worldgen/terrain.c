#include "terrain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/noise.h"
#include "ui/cvar.h"

static int clamp_height(float h, int sy)
{
    int v = (int)lrintf(h);
    return v < 1 ? 1 : v > sy - 1 ? sy - 1 : v;
}

void terrain_height_range(const terrain_heightmap_params *p, int sy, int *min_h, int *max_h)
{
    *min_h = clamp_height(p->weight * (0.5f - TERRAIN_NOISE_HALF_RANGE) + p->ground, sy);
    *max_h = clamp_height(p->weight * (0.5f + TERRAIN_NOISE_HALF_RANGE) + p->ground, sy);
}

float terrain_value_at(const terrain_heightmap_params *p, const noise *n, int x, int z)
{
    /* The sample's place is a double: (float)x * freq keeps no fraction of
     * a cell far out at a scale that is not a power of two (0.78 voxels a
     * step at 10^7 and a scale of 100), and the hills would be stairs. */
    double freq = 1.0 / (p->scale > 0.001f ? p->scale : 0.001f);
    /* octaves beyond the first add detail at half amplitude, double frequency */
    float v = 0.f, amp = 1.f, norm = 0.f;
    for (int o = 0; o < (p->octaves < 1 ? 1 : p->octaves); o++) {
        v += amp * noise_perlin2d_01(n, (double)x * freq + 0.5, (double)z * freq + 0.5);
        norm += amp;
        amp *= 0.5f;
        freq *= 2.0;
    }
    return p->weight * (v / norm) + p->ground;
}

int terrain_height_at(const terrain_heightmap_params *p, const noise *n, int x, int z, int sy)
{
    return clamp_height(terrain_value_at(p, n, x, z), sy);
}

void terrain_heightmap(const terrain_heightmap_params *p, int64_t seed, int x0, int z0, int nx, int nz, int sy,
                       int *heights)
{
    noise n;
    noise_init(&n, seed);
    for (int iz = 0; iz < nz; iz++)
        for (int ix = 0; ix < nx; ix++) heights[iz * nx + ix] = terrain_height_at(p, &n, x0 + ix, z0 + iz, sy);
}

typedef struct hills_plan {
    terrain_heightmap_params p;
    int64_t seed;
    int sy;
    int soil; /* dirt depth under the grass */
    noise n;  /* of seed, for the far rings' scattered points */
} hills_plan;

static void *hills_plan_make(const world *w, int64_t seed, char *err, size_t errlen)
{
    terrain_heightmap_params p = {
        .weight = cvar_float("world.terrain_weight", 48.f),
        .scale = cvar_float("world.terrain_scale", 128.f),
        .ground = cvar_float("world.ground_height", 40.f),
        .octaves = cvar_int("world.octaves", 3),
    };
    hills_plan *pl = calloc(1, sizeof *pl);
    if (!pl) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pl->p = p;
    pl->seed = seed;
    pl->sy = w->sy;
    pl->soil = cvar_int("world.soil_depth", 4);
    noise_init(&pl->n, seed);
    return pl;
}

static void hills_fill_column(void *plan, world *w, int cx, int cz)
{
    hills_plan *pl = plan;
    int heights[CHUNK_AREA];
    terrain_heightmap(&pl->p, pl->seed, cx * CHUNK_SIZE, cz * CHUNK_SIZE, CHUNK_SIZE, CHUNK_SIZE, pl->sy, heights);
    for (int cy = 0; cy < w->cy; cy++) {
        chunk *c = world_chunk(w, cx, cy, cz);
        int y0 = cy * CHUNK_SIZE;
        /* y, then z, then x: the innermost loop walks contiguous memory (seed 003) */
        uint8_t *v = c->vox;
        for (int ly = 0; ly < CHUNK_SIZE; ly++) {
            int y = y0 + ly;
            for (int lz = 0; lz < CHUNK_SIZE; lz++) {
                const int *hrow = &heights[lz * CHUNK_SIZE];
                for (int lx = 0; lx < CHUNK_SIZE; lx++) {
                    int h = hrow[lx];
                    uint8_t m;
                    if (y == 0) m = MAT_BEDROCK;
                    else if (y > h) m = MAT_AIR;
                    else if (y == h) m = MAT_GRASS;
                    else if (y > h - pl->soil) m = MAT_DIRT;
                    else m = MAT_STONE;
                    *v++ = m;
                }
            }
        }
    }
}

static void hills_free(void *plan) { free(plan); }

static void hills_ground(void *plan, int x0, int z0, int n, int *out)
{
    const hills_plan *pl = plan;
    terrain_heightmap(&pl->p, pl->seed, x0, z0, n, n, pl->sy, out);
}

/* Grass on equation 9, nothing standing on it. */
static void hills_surface(void *plan, int x0, int z0, int step, int nx, int nz, worldgen_point *out)
{
    const hills_plan *pl = plan;
    for (int j = 0; j < nz; j++)
        for (int i = 0; i < nx; i++) {
            int16_t h = (int16_t)terrain_height_at(&pl->p, &pl->n, x0 + i * step, z0 + j * step, pl->sy);
            out[j * nx + i] = (worldgen_point){ h, h, MAT_GRASS, MAT_GRASS };
        }
}

static const char *const k_own_cvars[] = { "world.terrain_", "world.ground_height", "world.soil_depth", NULL };

const worldgen_kind terrain_hills = {
    .own_cvars = k_own_cvars,
    .name = "hills",
    .help = "rolling grass hills (seed 001 equation 9)",
    .plan = hills_plan_make,
    .fill_column = hills_fill_column,
    .free_plan = hills_free,
    .ground = hills_ground,
    .surface = hills_surface,
};

void terrain_register(void)
{
    static const cvar_desc vars[] = {
        { "world.terrain_weight", "TerrainWeight: height map amplitude in voxels", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "48", 0, 512 },
        { "world.terrain_scale", "TerrainScale: voxels per noise period", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "128", 1, 4096 },
        { "world.ground_height", "SolidGroundHeight: base height in voxels", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "40", 1, 1024 },
        { "world.octaves", "noise octaves of the height map (1 = the paper's single sample)", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "3", 1, 8 },
        { "world.soil_depth", "dirt depth under the grass of the hills world", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "4", 1, 64 },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
    worldgen_register(&terrain_hills);
}
