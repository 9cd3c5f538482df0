#include "terrain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/noise.h"
#include "ui/cvar.h"

void terrain_heightmap(const terrain_heightmap_params *p, int64_t seed, int sx, int sy, int sz, int *heights)
{
    noise n;
    noise_init(&n, seed);
    float inv = 1.f / (p->scale > 0.001f ? p->scale : 0.001f);
    for (int z = 0; z < sz; z++) {
        for (int x = 0; x < sx; x++) {
            /* octaves beyond the first add detail at half amplitude, double frequency */
            float v = 0.f, amp = 1.f, freq = inv, norm = 0.f;
            for (int o = 0; o < (p->octaves < 1 ? 1 : p->octaves); o++) {
                v += amp * noise_perlin2_01(&n, (float)x * freq + 0.5f, (float)z * freq + 0.5f);
                norm += amp;
                amp *= 0.5f;
                freq *= 2.f;
            }
            int h = (int)lrintf(p->weight * (v / norm) + p->ground);
            heights[z * sx + x] = h < 1 ? 1 : h > sy - 1 ? sy - 1 : h;
        }
    }
}

typedef struct hills_plan {
    int sx, sz;
    int soil; /* dirt depth under the grass */
    int *heights;
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
    pl->sx = w->sx;
    pl->sz = w->sz;
    pl->soil = cvar_int("world.soil_depth", 4);
    pl->heights = malloc(sizeof(int) * (size_t)w->sx * (size_t)w->sz);
    if (!pl->heights) {
        snprintf(err, errlen, "out of memory for the height map");
        free(pl);
        return NULL;
    }
    terrain_heightmap(&p, seed, w->sx, w->sy, w->sz, pl->heights);
    return pl;
}

static void hills_fill_column(void *plan, world *w, int cx, int cz)
{
    hills_plan *pl = plan;
    for (int cy = 0; cy < w->cy; cy++) {
        chunk *c = world_chunk(w, cx, cy, cz);
        int y0 = cy * CHUNK_SIZE;
        /* y, then z, then x: the innermost loop walks contiguous memory (seed 003) */
        uint8_t *v = c->vox;
        for (int ly = 0; ly < CHUNK_SIZE; ly++) {
            int y = y0 + ly;
            for (int lz = 0; lz < CHUNK_SIZE; lz++) {
                const int *hrow = &pl->heights[(cz * CHUNK_SIZE + lz) * pl->sx + cx * CHUNK_SIZE];
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

static void hills_free(void *plan)
{
    hills_plan *pl = plan;
    free(pl->heights);
    free(pl);
}

static const char *const k_own_cvars[] = { "world.terrain_", "world.ground_height", "world.soil_depth", NULL };

const worldgen_kind terrain_hills = {
    .own_cvars = k_own_cvars,
    .name = "hills",
    .help = "rolling grass hills (seed 001 equation 9)",
    .plan = hills_plan_make,
    .fill_column = hills_fill_column,
    .free_plan = hills_free,
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
