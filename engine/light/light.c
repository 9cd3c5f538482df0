#include "light/light_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/origin.h"
#include "core/jobs.h"
#include "core/rng.h"
#include "core/timer.h"

light_params light_params_default(void)
{
    return (light_params){
        .sun_particles = 16, .sky_particles = 16, .steps = 16, .step = 1.0f, .radius = 16.f,
        .sun_dir = { 0.35f, 1.0f, 0.25f }, .jitter = 0.6f, .seed = 1,
    };
}

bool light_params_check(const light_params *p, char *err, size_t errlen)
{
    if (p->sun_particles < 0 || p->sun_particles > LIGHT_MAX_PARTICLES || p->sky_particles < 0 ||
        p->sky_particles > LIGHT_MAX_PARTICLES) {
        snprintf(err, errlen, "particles per element must be in [0, %d]", LIGHT_MAX_PARTICLES);
        return false;
    }
    if (p->steps < 1 || p->steps > LIGHT_MAX_STEPS) {
        snprintf(err, errlen, "steps must be in [1, %d]", LIGHT_MAX_STEPS);
        return false;
    }
    if (!(p->step >= 0.125f && p->step <= 4.f)) {
        snprintf(err, errlen, "step must be in [0.125, 4] voxels");
        return false;
    }
    if (!(p->radius >= 1.f && p->radius <= LIGHT_MAX_RADIUS)) {
        snprintf(err, errlen, "radius must be in [1, %g] voxels", (double)LIGHT_MAX_RADIUS);
        return false;
    }
    float len = sqrtf(p->sun_dir[0] * p->sun_dir[0] + p->sun_dir[1] * p->sun_dir[1] + p->sun_dir[2] * p->sun_dir[2]);
    if (!(len > 1e-6f) || !isfinite(len)) {
        snprintf(err, errlen, "the sun direction must be a non-zero vector");
        return false;
    }
    if (!(p->jitter >= 0.f && p->jitter <= 2.f)) {
        snprintf(err, errlen, "jitter must be in [0, 2]");
        return false;
    }
    long work = (long)(p->sun_particles + p->sky_particles) * p->steps;
    if (work > LIGHT_MAX_WORK) {
        /* ~1.2 ns a step on this 2-core machine, ~400k elements in the default world */
        snprintf(err, errlen,
                 "(sun + sky particles) x steps = %ld exceeds %d: a bake of the default world would take about %.0f s",
                 work, LIGHT_MAX_WORK, (double)work * 4e5 * 1.2e-9);
        return false;
    }
    return true;
}

int light_reach(const light_params *p)
{
    float d = fminf(p->radius, (float)p->steps * p->step);
    return (int)ceilf(d + 0.5f) + 1; /* +1: a changed neighbour changes whether a voxel is an element */
}

bool light_blocks(uint8_t m)
{
    const material *mt = material_get(m);
    return mt->render_self && !mt->render_neighbors;
}

light *light_create(int sx, int sy, int sz)
{
    /* whole chunks: read_world packs 32-voxel chunk rows into half words */
    if (sx <= 0 || sy <= 0 || sz <= 0 || sx % CHUNK_SIZE || sy % CHUNK_SIZE || sz % CHUNK_SIZE) return NULL;
    light *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->sx = sx, l->sy = sy, l->sz = sz;
    l->count = (size_t)sx * (size_t)sy * (size_t)sz;
    size_t words = (l->count + 63) / 64;
    l->opaque = calloc(words, sizeof *l->opaque);
    l->drawn = calloc(words, sizeof *l->drawn);
    l->rg = calloc(l->count, 2);
    l->stale = calloc((size_t)(sx / CHUNK_SIZE) * (size_t)(sz / CHUNK_SIZE), 1);
    if (!l->opaque || !l->drawn || !l->rg || !l->stale) {
        light_destroy(l);
        return NULL;
    }
    return l;
}

void light_destroy(light *l)
{
    if (!l) return;
    free(l->opaque);
    free(l->drawn);
    free(l->rg);
    free(l->stale);
    free(l);
}

void light_size(const light *l, int *sx, int *sy, int *sz)
{
    *sx = l->sx, *sy = l->sy, *sz = l->sz;
}

/* ---- reading the world ------------------------------------------------- */

typedef struct read_ctx {
    light *l;
    const world *w;
    int lo[3], hi[3];
    uint8_t opaque_lut[256], drawn_lut[256];
} read_ctx;

/* Whether the CHUNK_SIZE voxels of a row are one material. */
static bool row_uniform(const uint8_t *row)
{
    uint64_t v[CHUNK_SIZE / 8], same = 0, rep = row[0] * 0x0101010101010101ull;
    memcpy(v, row, sizeof v);
    for (int k = 0; k < CHUNK_SIZE / 8; k++) same |= v[k] ^ rep;
    return same == 0;
}

/* The planes of the box in one chunk's z (slab k, from the box's first
 * chunk), a chunk row (32 voxels) at a time: the world is 32 voxels a
 * chunk wide, so each chunk row is one aligned half of a 64-bit word, and
 * planes (sx*sy bits, a multiple of 1024) never share a word, so slabs can
 * be read in parallel. Within a slab the rows go z by z, each z up the
 * column: the volume's words of one z follow one another (x, then y), so
 * the writes are two streams the prefetcher follows, where y by y they
 * were 64 lines far apart at once (a miss a row); a chunk's rows a
 * kilobyte apart share their lines with the next z's and stay in the
 * cache until it comes (light.read.column: 0.93-1.30 ms for 16 columns,
 * 1.05-1.70 ms y by y). */
static void read_slab(void *arg, int k)
{
    read_ctx *c = arg;
    light *l = c->l;
    const int z0 = k == 0 ? c->lo[2] : (c->lo[2] & ~CHUNK_MASK) + k * CHUNK_SIZE;
    const int z1 = (c->lo[2] & ~CHUNK_MASK) + (k + 1) * CHUNK_SIZE < c->hi[2]
                       ? (c->lo[2] & ~CHUNK_MASK) + (k + 1) * CHUNK_SIZE
                       : c->hi[2];
    for (int x0 = c->lo[0]; x0 < c->hi[0]; x0 += CHUNK_SIZE)
        for (int z = z0; z < z1; z++) {
            const chunk *ch = NULL;
            for (int y = c->lo[1]; y < c->hi[1]; y++) {
                if (y == c->lo[1] || !(y & CHUNK_MASK))
                    ch = world_chunk(c->w, (x0 + l->ox) >> CHUNK_BITS, y >> CHUNK_BITS, (z0 + l->oz) >> CHUNK_BITS);
                uint64_t o = 0, d = 0;
                const uint8_t *row = ch ? &ch->vox[CHUNK_INDEX(0, y & CHUNK_MASK, (z + l->oz) & CHUNK_MASK)] : NULL;
                if (row && row_uniform(row)) {
                    /* deep rock and open air: one material the whole row */
                    o = c->opaque_lut[row[0]] ? 0xffffffffull : 0, d = c->drawn_lut[row[0]] ? 0xffffffffull : 0;
                } else if (row) {
                    for (int x = 0; x < CHUNK_SIZE; x++) {
                        o |= (uint64_t)c->opaque_lut[row[x]] << x;
                        d |= (uint64_t)c->drawn_lut[row[x]] << x;
                    }
                }
                size_t i = vidx(l, x0, y, z);
                int shift = (int)(i & 63);
                uint64_t keep = ~(0xffffffffull << shift);
                l->opaque[i >> 6] = (l->opaque[i >> 6] & keep) | (o << shift);
                l->drawn[i >> 6] = (l->drawn[i >> 6] & keep) | (d << shift);
            }
        }
}

void light_read_world(light *l, const world *w, const int lo[3], const int hi[3], struct job_pool *jobs)
{
    light_move(l, world_x0(w), world_z0(w)); /* the volume follows the world's window */
    light_read_box(l, w, lo, hi, jobs);
}

void light_read_box(light *l, const world *w, const int lo[3], const int hi[3], struct job_pool *jobs)
{
    read_ctx c = { .l = l, .w = w };
    clamp_box(l, lo, hi, c.lo, c.hi);
    /* re-reading voxels is harmless: widen x to whole chunk rows */
    c.lo[0] &= ~CHUNK_MASK;
    c.hi[0] = (c.hi[0] + CHUNK_MASK) & ~CHUNK_MASK;
    if (c.hi[0] > l->sx) c.hi[0] = l->sx;
    for (int m = 0; m < 256; m++) {
        c.opaque_lut[m] = light_blocks((uint8_t)m);
        c.drawn_lut[m] = material_get((uint8_t)m)->render_self;
    }
    /* slabs: the chunks' z the box meets (the window's oz is a multiple of CHUNK_SIZE) */
    int slabs = c.hi[2] > c.lo[2] ? ((c.hi[2] - 1) >> CHUNK_BITS) - (c.lo[2] >> CHUNK_BITS) + 1 : 0;
    job_parallel_for_urgent(jobs, slabs, read_slab, &c); /* the caller waits on it */
}

/* ---- tracing ----------------------------------------------------------- */

/* Elements under this many voxels from their frame on each axis (positions
 * under 2^14, an ulp at most 2^-9) may take their first step from the
 * table (fill_dirs: sun_first, sky_first). */
#define FIRST_MAX ((1 << 14) - 2)
/* A first step the table does not know (fill_dirs). */
#define FIRST_UNKNOWN 255

/* Unit vector k of n spread evenly over the sphere (a Fibonacci lattice). */
static void sphere_dir(int k, int n, float out[3])
{
    const float golden = 2.39996322972865332f;
    float y = 1.f - 2.f * ((float)k + 0.5f) / (float)n;
    float r = sqrtf(fmaxf(0.f, 1.f - y * y));
    float t = golden * (float)k;
    out[0] = r * cosf(t), out[1] = y, out[2] = r * sinf(t);
}

/* step * normalize(base + jitter * w): a step that wanders about a heading. */
static void jittered(const float base[3], const float w[3], float jitter, float step, float out[3])
{
    float v[3];
    for (int a = 0; a < 3; a++) v[a] = base[a] + jitter * w[a];
    float vl = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int a = 0; a < 3; a++) out[a] = vl > 1e-6f ? v[a] / vl * step : base[a] * step;
}

/* With a random index per step the walk needs no sqrt or division. */
static void fill_dirs(trace_ctx *c)
{
    const light_params *p = c->p;
    float s[3] = { p->sun_dir[0], p->sun_dir[1], p->sun_dir[2] };
    float sl = sqrtf(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int a = 0; a < 3; a++) s[a] /= sl;
    for (int k = 0; k < LIGHT_DIRS; k++) {
        float u[3], head[3];
        sphere_dir(k, LIGHT_DIRS, u);
        jittered(s, u, p->jitter, p->step, c->sun_d[k]);
        /* headings: the same even spread, but shuffled so any 8 bits pick any part of the sky */
        sphere_dir((k * 97) % LIGHT_DIRS, LIGHT_DIRS, head);
        for (int j = 0; j < LIGHT_SKY_JITTERS; j++) {
            float w[3];
            sphere_dir(j * (LIGHT_DIRS / LIGHT_SKY_JITTERS) + k % (LIGHT_DIRS / LIGHT_SKY_JITTERS), LIGHT_DIRS, w);
            jittered(head, w, p->jitter, p->step, c->sky_d[k][j]);
        }
    }
    c->r2 = (float)p->steps * p->step > p->radius ? p->radius * p->radius : -1.f;
    /* How far from home a walk can test a voxel, on any axis: while
     * within the radius when it ends walks (r2 >= 0), else after at most
     * every step at the longest component, plus the floats' rounding (a
     * position under 2^13 rounds by under 2^-11 a step, at most 128 steps:
     * under 1/16 of a voxel; the margin is 1/4). */
    float step_max = 0.f;
    for (int k = 0; k < LIGHT_DIRS; k++)
        for (int a = 0; a < 3; a++) {
            step_max = fmaxf(step_max, fabsf(c->sun_d[k][a]));
            for (int j = 0; j < LIGHT_SKY_JITTERS; j++) step_max = fmaxf(step_max, fabsf(c->sky_d[k][j][a]));
        }
    c->reach_max = (c->r2 >= 0 ? p->radius : (float)p->steps * step_max) + 0.25f;
    /* a tested position is under reach_max from home (x + 1/2) on each
     * axis, so its voxel within this many of the element's */
    c->reach_cells = (int)ceilf(c->reach_max);
    /* A first step from an element's centre n + 1/2 (n an integer, the
     * same on each axis) ends at n + 1/2 + d, rounded: in the voxel n +
     * floor(1/2 + d) unless the rounding crosses an integer, which needs
     * 1/2 + d within half an ulp of one. Under FIRST_MAX an ulp is at most
     * 2^-9: a step whose every component is at least 2^-8 from a half (and
     * at most a voxel long) enters the table's voxel from every element;
     * the few others are FIRST_UNKNOWN, and tested as any step. */
    for (int k = 0; k < LIGHT_DIRS; k++)
        for (int j = -1; j < LIGHT_SKY_JITTERS; j++) {
            const float *d = j < 0 ? c->sun_d[k] : c->sky_d[k][j];
            int idx = 0;
            for (int a = 0, scale = 1; a < 3; a++, scale *= 3) {
                double v = 0.5 + (double)d[a];
                if (!(fabs(v) > 1.0 / 256 && fabs(v - 1.0) > 1.0 / 256 && fabs(d[a]) <= 1.f)) idx = FIRST_UNKNOWN;
                if (idx != FIRST_UNKNOWN) idx += ((int)floor(v) + 1) * scale;
            }
            if (j < 0) c->sun_first[k] = (uint8_t)idx;
            else c->sky_first[k][j] = (uint8_t)idx;
        }
    c->sun_fall = c->sun_rise = 0.f;
    for (int k = 0; k < LIGHT_DIRS; k++) {
        c->sun_fall = fmaxf(c->sun_fall, -c->sun_d[k][1]), c->sun_rise = fmaxf(c->sun_rise, c->sun_d[k][1]);
        c->sky_fall[k] = c->sky_rise[k] = 0.f;
        for (int j = 0; j < LIGHT_SKY_JITTERS; j++) {
            c->sky_fall[k] = fmaxf(c->sky_fall[k], -c->sky_d[k][j][1]);
            c->sky_rise[k] = fmaxf(c->sky_rise[k], c->sky_d[k][j][1]);
        }
    }
}


/* An element's generator with its next number already made: the same
 * numbers in the same order as rng_next. Most particles end where the
 * branch predictor did not guess, and the core then starts the next
 * particle with nothing in flight: its first step's direction waits for a
 * random number, and splitmix64's mix (two multiplies, three shifts) is
 * a dozen cycles on that path. The state only counts, so the draw after
 * the current one is known long before the walk needs it; made then, off
 * the path, it is ready when the next particle starts. */
typedef struct rng_ahead {
    rng r;
    uint64_t next; /* what rng_next(&r) would give */
} rng_ahead;

static inline rng_ahead ahead_make(uint64_t seed)
{
    rng r = rng_make(seed), t = r;
    return (rng_ahead){ r, rng_next(&t) };
}

static inline uint64_t ahead_next(rng_ahead *a)
{
    uint64_t v = a->next;
    rng_skip(&a->r, 1);
    rng t = a->r;
    a->next = rng_next(&t);
    return v;
}

static inline void ahead_skip(rng_ahead *a, uint64_t n)
{
    rng_skip(&a->r, n);
    rng t = a->r;
    a->next = rng_next(&t);
}

/* How a walk finds the voxel under a position (one compiled walk each). */
typedef enum walk_kind {
    /* the window lies at x, z >= 0 inside the home frame (frame 0), where
     * truncation is the floor and a position left of the window is beside it */
    WALK_HOME,
    /* a frame, and no position the walk tests can be below the frame's 0
     * (walk_kind_of): truncation is the floor there too */
    WALK_FRAME,
    /* a frame, positions on either side of its 0: a floor below zero */
    WALK_FRAME_SIGNED,
} walk_kind;

/* One particle from the centre of (x, y, z) (global coordinates, so a
 * voxel's light is the same whatever window holds it), stepping by
 * dirs[random & mask] (bits random bits a step): true when it comes home lit.
 * When fast, its first step's voxel is first[random & mask] of the opaque
 * bits nbr around the element (first_voxels), where the table knows it.
 * Positions are relative to the integer frame (frx, frz) (core/origin.h):
 * 0 near the origin, so the walk there is what it always was; 10^7 out a
 * float world coordinate steps a whole voxel and the particle would never
 * move, so there it walks from the frame, exact as at the origin. The
 * kind only changes how the same floats become a voxel (see walk_kind):
 * a floor is two more instructions an axis, and on the chain every step's
 * test waits for. */
static inline __attribute__((always_inline)) bool walk(const trace_ctx *c, const float (*dirs)[3],
                                                        const uint8_t *first, uint32_t nbr, bool fast, unsigned mask,
                                                        int bits_per_step, uint64_t bits, int bits_left, rng_ahead *r,
                                                        int x, int y, int z, int frx, int frz, float fall,
                                                        float rise, float hcut, const walk_kind kind,
                                                        const bool inside)
{
    const light *l = c->l;
    float px = (float)(x - frx) + 0.5f, py = (float)y + 0.5f, pz = (float)(z - frz) + 0.5f;
    const float ox = px, oy = py, oz = pz;
    /* locals, not fields: the compiler cannot prove rng_next's stores leave
     * them alone, and reloading them every step costs */
    const float fx0 = c->fx0, fz0 = c->fz0, r2 = c->r2, fsy = (float)l->sy;
    const int xe = c->xe, ze = c->ze, wx0 = l->ox, wz0 = l->oz, sy = l->sy, steps = c->p->steps;
    const unsigned usx = (unsigned)l->sx, uplane = (unsigned)l->sx * (unsigned)l->sy, off = c->off;
    const uint64_t *opaque = l->opaque;
    /* an end known in advance needs no radius that could end it first */
    const bool settle = r2 < 0 && hcut < fsy;
    /* after step s, n = steps - 1 - s steps are left: low = hcut + 1/4 +
     * n * fall, high = top - 1/4 - n * rise (kept by sums: heights under
     * 2^10 round by under 2^-14 a sum, so at most 128 steps take under
     * 1/64 from the margins of 1/4, as they do from py) */
    float low = hcut + 0.25f + (float)steps * fall, high = fsy - 0.25f - (float)steps * rise;
    for (int s = 0; s < steps; s++) {
        if (settle) low -= fall, high += rise;
        if (bits_left < bits_per_step) bits = ahead_next(r), bits_left = 64;
        const unsigned k = (unsigned)bits & mask;
        const float *d = dirs[k];
        bits >>= bits_per_step, bits_left -= bits_per_step;
        px += d[0], py += d[1], pz += d[2];
        bool hit;
        if (fast && s == 0 && first[k] != FIRST_UNKNOWN) {
            /* the first voxel's bit, known before the particle started
             * (first_voxels): fast walks are inside, with no radius */
            hit = (nbr >> first[k]) & 1u;
        } else {
            if (r2 >= 0) {
                float dx = px - ox, dy = py - oy, dz = pz - oz;
                if (dx * dx + dy * dy + dz * dz >= r2) return true; /* wandered off: escaped */
            }
            /* inside: none of these four can happen (trace_plane) */
            if (!inside && py < 0.f) return false;   /* the bedrock floor under the world */
            int iy = (int)py;
            if (!inside && iy >= sy) return true;    /* out of the top: open sky */
            /* beyond the window's sides is open air */
            int ix, iz;
            if (kind == WALK_HOME) {
                if (!inside && (px < fx0 || pz < fz0)) continue;
                ix = (int)px, iz = (int)pz;
            } else {
                ix = (int)px, iz = (int)pz;
                /* the floor, below zero too */
                if (kind == WALK_FRAME_SIGNED) ix -= (float)ix > px, iz -= (float)iz > pz;
                ix += frx, iz += frz;
                if (!inside && (ix < wx0 || iz < wz0)) continue;
            }
            if (!inside && (ix >= xe || iz >= ze)) continue;
            /* vidx of the window coordinates, the window's offset folded into
             * one constant: unsigned arithmetic is modular, so exact for any
             * sign, and 32 bits hold every index (WORLD_MAX_CHUNKS voxels); the
             * two products are independent, so neither waits for the other */
            hit = bit_get(opaque, (unsigned)ix + usx * (unsigned)iy + uplane * (unsigned)iz - off);
        }
        if (hit) return false;
        /* The rest of the walk, n steps, keeps py within n * fall below
         * and n * rise above this one (and the rounding): at or above hcut it meets no
         * opaque voxel, nor the bedrock, below the top it does not leave.
         * So it ends lit, after its last step: what is left is to draw
         * the random numbers those steps would have drawn. */
        if (settle && py >= low && py < high) {
            int left = steps - 1 - s - bits_left / bits_per_step, per = 64 / bits_per_step;
            if (left > 0) ahead_skip(r, (uint64_t)((left + per - 1) / per));
            return true;
        }
    }
    return true;
}

/* The n bits (1 to 64) from bit i, bit 0 first. */
static inline uint64_t bits_from(const uint64_t *bits, size_t i, int n)
{
    const size_t w = i >> 6;
    const int sh = (int)(i & 63);
    uint64_t v = bits[w] >> sh;
    if (sh && sh + n > 64) v |= bits[w + 1] << (64 - sh); /* only when its bits are wanted: in the array */
    return n == 64 ? v : v & ((1ull << n) - 1);
}

/* Which of the n voxels (1 to 64) from (x, y, z) along x are elements, as
 * a mask (bit j: x + j): not opaque, and a drawn face of some neighbour
 * looks at it. A word at a time instead of up to 7 tests a voxel, whose
 * early outs the branch predictor could not guess. */
static uint64_t row_elements(const light *l, int x, int y, int z, int n)
{
    const size_t i = vidx(l, x, y, z), row = (size_t)l->sx, plane = (size_t)l->sx * (size_t)l->sy;
    const uint64_t all = n == 64 ? ~0ull : (1ull << n) - 1;
    const uint64_t d = bits_from(l->drawn, i, n);
    /* the neighbours on x: the same bits moved by one, and the bit past
     * each end where the window has it */
    uint64_t near = (d << 1 | d >> 1) & all;
    if (x > 0) near |= (uint64_t)bit_get(l->drawn, i - 1);
    if (x + n < l->sx) near |= (uint64_t)bit_get(l->drawn, i + (size_t)n) << (n - 1);
    if (y > 0) near |= bits_from(l->drawn, i - row, n);
    if (y + 1 < l->sy) near |= bits_from(l->drawn, i + row, n);
    if (z > 0) near |= bits_from(l->drawn, i - plane, n);
    if (z + 1 < l->sz) near |= bits_from(l->drawn, i + plane, n);
    return near & ~bits_from(l->opaque, i, n);
}

/* Any bit set among the n bits from i (whole words: may say yes wrongly, never no). */
static bool bits_any(const uint64_t *bits, size_t i, size_t n)
{
    for (size_t w = i >> 6, e = (i + n - 1) >> 6; w <= e; w++)
        if (bits[w]) return true;
    return false;
}

/* Whether a row of the box can hold an element: some drawn voxel in it
 * (or just past its ends: a box's end voxel may be lit by a face beyond
 * it) or in the four rows beside it. Most rows are deep rock or open air. */
static bool row_may_light(const light *l, int x0, int x1, int y, int z)
{
    if (x0 > 0) x0--;
    if (x1 < l->sx) x1++;
    size_t n = (size_t)(x1 - x0);
    if (bits_any(l->drawn, vidx(l, x0, y, z), n)) return true;
    if (y > 0 && bits_any(l->drawn, vidx(l, x0, y - 1, z), n)) return true;
    if (y + 1 < l->sy && bits_any(l->drawn, vidx(l, x0, y + 1, z), n)) return true;
    if (z > 0 && bits_any(l->drawn, vidx(l, x0, y, z - 1), n)) return true;
    if (z + 1 < l->sz && bits_any(l->drawn, vidx(l, x0, y, z + 1), n)) return true;
    return false;
}

/* Zeroes the light of window row [x0, x1) at (y, z): in slots it may wrap
 * around the volume's edge, in two pieces. */
static void clear_row(light *l, int x0, int x1, int y, int z)
{
    if (x1 <= x0) return;
    int s0 = slot_of(x0, l->kx, l->sx), n = x1 - x0, first = n < l->sx - s0 ? n : l->sx - s0;
    size_t row = vidx(l, 0, y, slot_of(z, l->kz, l->sz));
    memset(&l->rg[2 * (row + (size_t)s0)], 0, 2 * (size_t)first);
    if (n > first) memset(&l->rg[2 * row], 0, 2 * (size_t)(n - first));
}

/* The particles of the element at global (x, y, z) from frame (frx, frz),
 * drawing from seed (light_particle_seed: the same set for every
 * element). */
static inline __attribute__((always_inline)) void trace_element(const trace_ctx *c, int x, int y, int z, int frx,
                                                                 int frz, float hcut, uint64_t seed, uint32_t nbr,
                                                                 int *sun, int *sky, const walk_kind kind,
                                                                 const bool inside)
{
    const light_params *p = c->p;
    rng_ahead r = ahead_make(seed);
    /* nbr: the opaque bits of the element's 3x3x3 neighbourhood (first_voxels) */
    const bool fast = inside && c->r2 < 0 && abs(x - frx) < FIRST_MAX && y < FIRST_MAX &&
                      abs(z - frz) < FIRST_MAX;
    for (int n = 0; n < p->sun_particles; n++)
        *sun += walk(c, (const float (*)[3])c->sun_d, c->sun_first, nbr, fast, LIGHT_DIRS - 1, 8, 0, 0, &r, x, y, z,
                     frx, frz, c->sun_fall, c->sun_rise, hcut, kind, inside);
    for (int n = 0; n < p->sky_particles; n++) {
        uint64_t bits = ahead_next(&r); /* the heading, then the first 14 steps */
        const unsigned h = light_sky_heading(n, p->sky_particles, bits);
        *sky += walk(c, (const float (*)[3])c->sky_d[h], c->sky_first[h], nbr, fast, LIGHT_SKY_JITTERS - 1, 4,
                     bits >> 8, 56, &r, x, y, z, frx, frz, c->sky_fall[h], c->sky_rise[h], hcut, kind, inside);
    }
}

/* The opaque bits of the 3x3x3 voxels around window voxel (x, y, z), bit
 * (dx+1) + 3 (dy+1) + 9 (dz+1): with the tables, a particle's first test
 * is a shift of a register instead of a chain of a load, a sum, a
 * conversion, an index and a load that the restart after the last
 * particle's mispredicted end waited for. */
static uint32_t first_voxels(const light *l, int x, int y, int z)
{
    uint32_t m = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            m |= (uint32_t)bits_from(l->opaque, vidx(l, x - 1, y + dy, z + dz), 3) << (3 * (dy + 1) + 9 * (dz + 1));
    return m;
}

/* Which walk serves the element at global (x, z) from frame (frx, frz). A
 * walk tests voxels only while its particle is less than c->reach_max from
 * home on each axis: so an element that far from its frame's 0 on x and z
 * never tests a position below it. */
static walk_kind walk_kind_of(const trace_ctx *c, int x, int z, int frx, int frz)
{
    if (c->nonneg) return WALK_HOME;
    float dx = (float)(x - frx) + 0.5f, dz = (float)(z - frz) + 0.5f;
    return dx >= c->reach_max && dz >= c->reach_max ? WALK_FRAME : WALK_FRAME_SIGNED;
}

/* Voxels of a row looked at together (light_trace_plane). */
#define ROW_BATCH 64

void light_trace_plane(void *arg, int k)
{
    trace_ctx *c = arg;
    if (atomic_load_explicit(&c->cancel, memory_order_relaxed)) return;
    light *l = c->l;
    const light_params *p = c->p;
    int z = c->lo[2] + k;
    long elements = 0;
    for (int y = c->lo[1]; y < c->hi[1]; y++) {
        if (!row_may_light(l, c->lo[0], c->hi[0], y, z)) {
            clear_row(l, c->lo[0], c->hi[0], y, z);
            continue;
        }
        /* the row's start in rg; x's slot wraps once (slot_of) */
        const size_t row = vidx(l, 0, y, slot_of(z, l->kz, l->sz));
        /* A batch of the row at a time: first which voxels are elements,
         * then their walks, every one from the same seed. */
        for (int b0 = c->lo[0]; b0 < c->hi[0]; b0 += ROW_BATCH) {
            const int b1 = b0 + ROW_BATCH < c->hi[0] ? b0 + ROW_BATCH : c->hi[0];
            int xs[ROW_BATCH], n = 0;
            for (uint64_t m = row_elements(l, b0, y, z, b1 - b0), x = 0; x < (uint64_t)(b1 - b0); x++) {
                /* dark unless an element; an element's light is written below */
                size_t i = row + (size_t)slot_of(b0 + (int)x, l->kx, l->sx);
                l->rg[2 * i] = l->rg[2 * i + 1] = 0;
                xs[n] = b0 + (int)x, n += (int)(m >> x & 1); /* no branch to guess */
            }
            elements += n;
            for (int j = 0; j < n; j++) {
                const int x = xs[j];
                const size_t i = row + (size_t)slot_of(x, l->kx, l->sx);
                int sun = 0, sky = 0;
                /* the frame depends on the element alone: taken once for its particles */
                const int gx = x + l->ox, gz = z + l->oz;
                const int frx = c->nonneg ? 0 : origin_snap(gx), frz = c->nonneg ? 0 : origin_snap(gz);
                const int bw = c->hi[0] - c->lo[0];
                const float hcut = c->hcut ? c->hcut[(z - c->lo[2]) * bw + x - c->lo[0]] : INFINITY;
                /* The walk tests voxels within reach_cells of the element on
                 * each axis: inside the window, over the bedrock and under the
                 * top, it needs none of those tests. */
                const int rc = c->reach_cells;
                const bool inside = x >= rc && x + rc < l->sx && z >= rc && z + rc < l->sz && y >= rc && y + rc < l->sy;
                const walk_kind kind = walk_kind_of(c, gx, gz, frx, frz);
                const uint64_t seed = c->particle_seed;
                const uint32_t nbr = inside ? first_voxels(l, x, y, z) : 0;
                if (inside) { /* one compiled walk each */
                    if (kind == WALK_HOME)
                        trace_element(c, gx, y, gz, frx, frz, hcut, seed, nbr, &sun, &sky, WALK_HOME, true);
                    else if (kind == WALK_FRAME)
                        trace_element(c, gx, y, gz, frx, frz, hcut, seed, nbr, &sun, &sky, WALK_FRAME, true);
                    else
                        trace_element(c, gx, y, gz, frx, frz, hcut, seed, nbr, &sun, &sky, WALK_FRAME_SIGNED, true);
                } else {
                    if (kind == WALK_HOME)
                        trace_element(c, gx, y, gz, frx, frz, hcut, seed, nbr, &sun, &sky, WALK_HOME, false);
                    else if (kind == WALK_FRAME)
                        trace_element(c, gx, y, gz, frx, frz, hcut, seed, nbr, &sun, &sky, WALK_FRAME, false);
                    else
                        trace_element(c, gx, y, gz, frx, frz, hcut, seed, nbr, &sun, &sky, WALK_FRAME_SIGNED, false);
                }
                float fs = p->sun_particles ? (float)sun / (float)p->sun_particles : 0.f;
                float fk = p->sky_particles ? (float)sky / (float)p->sky_particles / c->sky_norm : 0.f;
                l->rg[2 * i] = light_encode(fs);
                l->rg[2 * i + 1] = light_encode(fk);
            }
        }
    }
    c->elements[k] = elements;
    c->particles[k] = elements * (p->sun_particles + p->sky_particles);
    atomic_fetch_add_explicit(&c->planes_done, 1, memory_order_release);
}

/* The sky set's survival over an endless open plain: the real walk of an
 * element resting on the bedrock of an empty window (beyond its sides is
 * open air, above it open sky), so dividing by it makes an open field's
 * elements exactly full sky: they release these very particles. */
static float plain_survival(trace_ctx *c)
{
    light *l = light_create(CHUNK_SIZE, CHUNK_SIZE, CHUNK_SIZE);
    trace_ctx *t = l ? malloc(sizeof *t) : NULL;
    if (!t) {
        light_destroy(l);
        return 1.f;
    }
    *t = *c;
    t->p = &t->params;
    t->hcut = NULL;
    light_trace_window(t, l, NULL, NULL);
    int sun = 0, sky = 0;
    const int m = CHUNK_SIZE / 2;
    trace_element(t, m, 0, m, 0, 0, INFINITY, t->particle_seed, 0, &sun, &sky, WALK_HOME, false);
    free(t);
    light_destroy(l);
    return sky > 0 ? (float)sky / (float)c->p->sky_particles : 1.f;
}

/* The tables a bake with params p walks by (what depends on p alone). */
void light_trace_tables(trace_ctx *c, const light_params *p)
{
    c->params = *p, c->p = &c->params;
    fill_dirs(c);
    c->particle_seed = light_particle_seed(p->seed);
    c->sky_norm = plain_survival(c);
}

/* The box [lo, hi) (global, clamped) of volume l, and the window's sides
 * as the walk reads them. */
void light_trace_window(trace_ctx *c, light *l, const int lo[3], const int hi[3])
{
    c->l = l;
    clamp_box(l, lo, hi, c->lo, c->hi);
    c->fx0 = (float)l->ox, c->fz0 = (float)l->oz;
    c->xe = l->ox + l->sx, c->ze = l->oz + l->sz;
    c->off = (unsigned)l->ox + (unsigned)l->sx * (unsigned)l->sy * (unsigned)l->oz;
    /* the fast walk needs the frame 0 (core/origin.h) for every voxel */
    c->nonneg = l->ox >= 0 && l->oz >= 0 && l->ox + l->sx <= ORIGIN_HOME && l->oz + l->sz <= ORIGIN_HOME;
}

/* A background bake: one job per z plane of the box, so the pool stays
 * free for meshing between planes and progress is exact. */
struct light_task {
    trace_ctx c;
    int planes;
    struct plane_job { trace_ctx *c; int k; } *jobs;
};

static void plane_job(void *arg)
{
    struct plane_job *j = arg;
    light_trace_plane(j->c, j->k);
}

light_task *light_bake_start(light *l, const light_params *p, job_pool *jobs, const int lo[3], const int hi[3])
{
    light_task *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    trace_ctx *c = &t->c;
    c->t0 = timer_ns();
    c->jobs = jobs;
    light_trace_tables(c, p);
    light_trace_window(c, l, lo, hi);
    t->planes = c->hi[2] - c->lo[2];
    c->elements = calloc((size_t)t->planes + 1, sizeof *c->elements);
    c->particles = calloc((size_t)t->planes + 1, sizeof *c->particles);
    t->jobs = calloc((size_t)t->planes + 1, sizeof *t->jobs);
    if (!c->elements || !c->particles || !t->jobs) {
        light_task_finish(t, NULL);
        return NULL;
    }
    /* the bake writes every pair of its box (light_trace_plane) and its
     * callers copy the box out: stale columns it covers whole need
     * nothing, those it covers in part are cleared first. Only once it
     * will run: a column marked right and then not written would show
     * the light of the column that left. */
    light_flush_box(l, lo, hi, true);
    if (!jobs || job_pool_threads(jobs) == 0) {
        for (int k = 0; k < t->planes; k++) light_trace_plane(c, k);
        return t;
    }
    for (int k = 0; k < t->planes; k++) {
        t->jobs[k] = (struct plane_job){ c, k };
        job_submit(jobs, &c->group, plane_job, &t->jobs[k]);
    }
    return t;
}

float light_task_progress(light_task *t)
{
    if (!t || t->planes == 0) return 1.f;
    return (float)atomic_load_explicit(&t->c.planes_done, memory_order_acquire) / (float)t->planes;
}

bool light_task_done(light_task *t)
{
    return !t || !t->c.jobs || job_group_done(t->c.jobs, &t->c.group);
}

void light_task_finish(light_task *t, light_stats *stats)
{
    if (!t) return;
    trace_ctx *c = &t->c;
    if (c->jobs) job_group_wait(c->jobs, &c->group);
    if (stats) {
        stats->elements = stats->particles = 0;
        for (int k = 0; k < t->planes && c->elements; k++) {
            stats->elements += c->elements[k];
            stats->particles += c->particles[k];
        }
        stats->ms = timer_ms_since(c->t0);
    }
    free(c->elements);
    free(c->particles);
    free(t->jobs);
    free(t);
}

void light_task_release(light_task *t)
{
    if (!t) return;
    t->c.jobs = NULL; /* its pool is gone, every job having run: nothing to wait for */
    light_task_finish(t, NULL);
}

void light_task_cancel(light_task *t)
{
    if (!t) return;
    atomic_store(&t->c.cancel, true);
    light_task_finish(t, NULL);
}

void light_bake(light *l, const light_params *p, job_pool *jobs, const int lo[3], const int hi[3],
                light_stats *stats)
{
    light_task_finish(light_bake_start(l, p, jobs, lo, hi), stats);
}

void light_relight(light *l, const world *w, const light_params *p, job_pool *jobs, const int lo[3],
                   const int hi[3], int win_lo[3], int win_hi[3], light_stats *stats)
{
    int reach = light_reach(p);
    /* The bake lights [lo - reach, hi + reach); its walks test voxels less
     * than reach from their elements (and row_elements their neighbours),
     * so it reads all of [lo - 2 reach, hi + 2 reach) now: the volume's
     * bits elsewhere may be a moved window's (light_move keeps none). */
    int rl[3], rh[3];
    for (int k = 0; k < 3; k++) {
        int64_t a0 = (int64_t)lo[k] - 2 * (int64_t)reach, b0 = (int64_t)hi[k] + 2 * (int64_t)reach;
        rl[k] = a0 < INT32_MIN ? INT32_MIN : (int)a0;
        rh[k] = b0 > INT32_MAX ? INT32_MAX : (int)b0;
    }
    light_read_world(l, w, rl, rh, jobs);
    int a[3], b[3], wl[3], wh[3];
    for (int k = 0; k < 3; k++) a[k] = lo[k] - reach, b[k] = hi[k] + reach;
    clamp_box(l, a, b, wl, wh);
    /* back to global coordinates, which light_bake and the caller speak */
    wl[0] += l->ox, wh[0] += l->ox, wl[2] += l->oz, wh[2] += l->oz;
    light_bake(l, p, jobs, wl, wh, stats);
    if (win_lo) memcpy(win_lo, wl, sizeof wl);
    if (win_hi) memcpy(win_hi, wh, sizeof wh);
}
