/* stream_synth: the synthetic generator the stream tests share (header
 * only: each test is one executable): ground of varying height with
 * pillars across column borders, a pure function of the coordinates, a
 * column callback that can be told to fail, and a window and a stream
 * over it. */
#ifndef STRATA_TEST_STREAM_SYNTH_H
#define STRATA_TEST_STREAM_SYNTH_H

#include <stdatomic.h>
#include <stdbool.h>

#include "core/hash.h"
#include "voxel/material.h"
#include "voxel/stream.h"
#include "voxel/world.h"

/* Ground of varying height with stone pillars that cross column borders:
 * a pure function of the voxel's coordinates. */
static inline uint8_t synth(int x, int y, int z)
{
    int h = 10 + (int)(hash_u64((uint64_t)(uint32_t)(x >> 3), (uint64_t)(uint32_t)(z >> 3)) % 12);
    if (y < h) return y < h - 3 ? MAT_STONE : MAT_DIRT;
    bool pillar = ((x + 3) & 63) < 5 && ((z + 3) & 63) < 5 && y < 50;
    return pillar ? MAT_SAND : MAT_AIR;
}

static atomic_int g_calls;
static atomic_int g_fail_every; /* > 0: every nth call fails */

static inline bool synth_column(void *ctx, world *col, int cx, int cz)
{
    (void)ctx;
    int n = atomic_fetch_add(&g_calls, 1) + 1;
    int every = atomic_load(&g_fail_every);
    if (every > 0 && n % every == 0) return false;
    for (int y = 0; y < col->sy; y++)
        for (int z = cz * 32; z < cz * 32 + 32; z++)
            for (int x = cx * 32; x < cx * 32 + 32; x++) world_set(col, x, y, z, synth(x, y, z));
    return true;
}

static inline world *window_for(int distance, int hysteresis)
{
    int n = stream_window_columns(distance, 32, hysteresis);
    return world_create(n, 2, n);
}

/* A stream of the synthetic generator over w, hysteresis 1. */
static inline stream *synth_stream(world *w, job_pool *jobs) { return stream_create(w, jobs, synth_column, NULL, 0, 1); }

#endif
