/* light_internal: what light.c and light_column.c share and tests may
 * look at (the volume's layout and the trace's tables); not for the rest
 * of the engine, which speaks light.h. */
#ifndef STRATA_LIGHT_INTERNAL_H
#define STRATA_LIGHT_INTERNAL_H

#include <stdatomic.h>

#include "core/jobs.h"
#include "light/light.h"

#define LIGHT_SKY_JITTERS 16

struct light {
    int sx, sy, sz;
    size_t count;
    /* The window: global voxels [ox, ox + sx) x [0, sy) x [oz, oz + sz),
     * as the world's (ox, oz multiples of CHUNK_SIZE). */
    int ox, oz;
    /* Slot of the window's first voxel in rg: ox mod sx, oz mod sz. */
    int kx, kz;
    /* One bit per voxel in WINDOW order (local x = x - ox fastest, then y,
     * then local z): bit set = stops light. Window order, not slots, keeps
     * the particle walk's inner loop free of wrap-arounds. A scratch of
     * what the next bake reads (light_read_box), not kept across a move:
     * after one they hold an older window's bits (light_move). */
    uint64_t *opaque;
    /* one bit per voxel: the material's faces are drawn (an element's neighbour) */
    uint64_t *drawn;
    /* sun, sky per voxel, interleaved (an RG8 texture's layout), in SLOT
     * order (global x in slot x mod sx, as the world's columns): the
     * texture copies it as it is, and a move touches only the columns that
     * leave and enter. */
    uint8_t *rg;
    /* Per column slot (sx / 32 x sz / 32, slot order): what a move left in
     * rg there (light_move). A move marks the slots of the columns that
     * leave LIGHT_STALE instead of clearing their 32 x sy x 32 pairs on
     * the frame of the move; they read as dark (light_get, and in the
     * shaders by light_fresh_bits), are cleared before a bake reads or
     * writes them (light_flush_box), and are overwritten when their own
     * column's light lands. */
    uint8_t *stale;
};

enum {
    LIGHT_FRESH = 0,   /* rg (and the texture) hold this column's light, or none yet (zero) */
    LIGHT_STALE = 1,   /* rg still holds the light of the column that left */
    LIGHT_CLEARED = 2, /* cleared for a bake, which wrote part of it: not yet the column's light */
};

/* Clears the stale columns the global box [lo, hi) (the whole window when
 * NULL) touches: before a bake reads or writes it. rewritten: the caller
 * writes every pair of the box and copies the box out (a bake), so a
 * column the box covers whole is not cleared and is the column's own
 * light after it (LIGHT_FRESH); the others are cleared and left
 * LIGHT_CLEARED. */
void light_flush_box(light *l, const int lo[3], const int hi[3], bool rewritten);

/* Bit index of window voxel (x, y, z) (local coordinates). */
static inline size_t vidx(const light *l, int x, int y, int z)
{
    return (size_t)x + (size_t)l->sx * ((size_t)y + (size_t)l->sy * (size_t)z);
}

/* Slot of local coordinate c on an axis of n whose first voxel is in slot k. */
static inline int slot_of(int c, int k, int n)
{
    int s = c + k;
    return s >= n ? s - n : s;
}

/* Index in rg (pairs) of window voxel (x, y, z), local coordinates. */
static inline size_t ridx(const light *l, int x, int y, int z)
{
    return vidx(l, slot_of(x, l->kx, l->sx), y, slot_of(z, l->kz, l->sz));
}

/* a mod n in [0, n) for any sign of a. */
static inline int wrap_mod(int a, int n)
{
    int r = a % n;
    return r < 0 ? r + n : r;
}

/* The global box [lo, hi) (the whole window when NULL) in window
 * coordinates, clamped to the window. int64: a box's edge plus the reach
 * near the coordinate limit must not overflow. */
static inline void clamp_box(const light *l, const int lo[3], const int hi[3], int out_lo[3], int out_hi[3])
{
    const int size[3] = { l->sx, l->sy, l->sz };
    const int org[3] = { l->ox, 0, l->oz };
    for (int a = 0; a < 3; a++) {
        int64_t a0 = lo ? (int64_t)lo[a] - org[a] : 0, a1 = hi ? (int64_t)hi[a] - org[a] : size[a];
        if (a0 < 0) a0 = 0;
        if (a1 > size[a]) a1 = size[a];
        if (a1 < a0) a1 = a0;
        out_lo[a] = (int)a0, out_hi[a] = (int)a1;
    }
}

static inline bool bit_get(const uint64_t *bits, size_t i) { return (bits[i >> 6] >> (i & 63)) & 1u; }

typedef struct trace_ctx {
    light *l;
    light_params params;
    const light_params *p; /* &params: the caller's copy may go away during a background bake */
    int lo[3], hi[3];
    /* Step vectors, already scaled by the step length. A sun particle draws
     * each step from sun_d (8 random bits); a sky particle first draws its
     * own heading (8 bits), then each step from that heading's 16 (4 bits). */
    float sun_d[LIGHT_DIRS][3];
    float sky_d[LIGHT_DIRS][LIGHT_SKY_JITTERS][3];
    float r2;                   /* radius squared; <0: radius never reached */
    /* The window, for the walk: its low sides as floats (exact below 2^24),
     * its high sides, the bit index offset (gidx), and whether it lies at
     * x, z >= 0 inside the home frame (core/origin.h). */
    float fx0, fz0;
    int xe, ze;
    unsigned off;
    bool nonneg;
    float sky_norm;             /* survival of a sky particle over an open plain */
    uint64_t particle_seed;     /* light_particle_seed: every element's */
    float reach_max;            /* walks test voxels less than this from home on every axis */
    int reach_cells;            /* ... so voxels at most this many from the element's */
    /* The most a step of the sun table, or of sky heading k's, goes down
     * (fall) and up (rise), at least 0: bounds on where a walk can go. */
    float sun_fall, sun_rise, sky_fall[LIGHT_DIRS], sky_rise[LIGHT_DIRS];
    /* The voxel a particle's first step enters, from its element's, as a
     * bit of the element's 3x3x3 neighbourhood ((dx+1) + 3 (dy+1) + 9
     * (dz+1)), for each sun step and each sky heading's: the same for
     * every element near enough its frame, or unknown (fill_dirs). */
    uint8_t sun_first[LIGHT_DIRS], sky_first[LIGHT_DIRS][LIGHT_SKY_JITTERS];
    /* Optional (the column bake): for the elements of the box [lo, hi),
     * hcut[(z - lo z) * (hi x - lo x) + x - lo x] is a height at and above
     * which no opaque voxel within reach_max of the element lies; NULL:
     * none known (walk). */
    const float *hcut;
    long *elements, *particles; /* per z plane */
    /* background bakes */
    job_pool *jobs;
    job_group group;
    atomic_int planes_done;
    atomic_bool cancel;
    uint64_t t0;
} trace_ctx;

/* Every element releases the same particles: one generator seed for all
 * (from the world seed alone), so identical surroundings give identical
 * light and an open plane is even (docs/light.md, "One set of particles"). */
static inline uint64_t light_particle_seed(uint64_t world_seed) { return world_seed * 0x9e3779b97f4a7c15ull ^ 0x5eed11647ull; }

/* The heading (index into sky_d) of sky particle n of count, from 8 random
 * bits: stratified, particle n in the n-th of count equal bands of the
 * heading spiral (sky_d[k] lies at spiral place 97 k mod 256, and 161 is
 * 97's inverse mod 256), so a small set still covers the whole sky. */
static inline unsigned light_sky_heading(int n, int count, uint64_t bits)
{
    unsigned band = (unsigned)(((unsigned)n << 8) + (unsigned)(bits & 255)) / (unsigned)count;
    return (band * 161u) & 255u;
}

/* The tables a bake with params p walks by (what depends on p alone). */
void light_trace_tables(trace_ctx *c, const light_params *p);
/* The box [lo, hi) (global, clamped) of volume l, and the window's sides
 * as the walk reads them. */
void light_trace_window(trace_ctx *c, light *l, const int lo[3], const int hi[3]);
/* Traces z plane k of the box (a job: arg is the trace_ctx). */
void light_trace_plane(void *arg, int k);
/* light_read_world without the move: reads [lo, hi) (global, clamped). */
void light_read_box(light *l, const world *w, const int lo[3], const int hi[3], struct job_pool *jobs);
/* Puts the window at (x0, z0) leaving bits and light as they are: for a
 * caller that rewrites everything it will read (the column bake). */
void light_place(light *l, int x0, int z0);

#endif
