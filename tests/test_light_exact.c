/* The column bake is optimised (light_column.c: a reduced read, walks that
 * skip the voxel test where no opaque voxel can be met); it must still give
 * the light of the plain algorithm, byte for byte. This test holds that
 * plain algorithm, written from docs/light.md with nothing of the engine's
 * walk: materials read through world_get, floors through floorf, every
 * check on every step. It compares the centre column of rings of random
 * and of real biome voxels, near and far from the origin (where the walk
 * uses a frame, core/origin.h), for default and other params; the whole
 * bake of the same ring is compared too. The step tables and the sky's
 * normalisation are the engine's (light_trace_tables): they depend on the
 * params alone and no optimisation touches them. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/origin.h"
#include "core/rng.h"
#include "light/light_internal.h"
#include "voxel/world.h"
#include "worldgen/biomes.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

static bool blocks_at(const world *w, int x, int y, int z) { return light_blocks(world_get(w, x, y, z)); }

static bool drawn_at(const world *w, int x, int y, int z)
{
    return world_in_bounds(w, x, y, z) && material_get(world_get(w, x, y, z))->render_self;
}

static bool element_at(const world *w, int x, int y, int z)
{
    if (blocks_at(w, x, y, z)) return false;
    return drawn_at(w, x - 1, y, z) || drawn_at(w, x + 1, y, z) || drawn_at(w, x, y - 1, z) ||
           drawn_at(w, x, y + 1, z) || drawn_at(w, x, y, z - 1) || drawn_at(w, x, y, z + 1);
}

/* The random bits of one particle, drawn as it steps. */
typedef struct stream_bits {
    rng *r;
    uint64_t bits;
    int left, per_step;
} stream_bits;

static unsigned take(stream_bits *b)
{
    if (b->left < b->per_step) b->bits = rng_next(b->r), b->left = 64;
    unsigned v = (unsigned)(b->bits & ((1u << b->per_step) - 1));
    b->bits >>= b->per_step, b->left -= b->per_step;
    return v;
}

/* One particle from the centre of global voxel (x, y, z), as docs/light.md
 * tells it: positions in floats relative to the voxel's frame. */
static bool ref_walk(const world *w, const trace_ctx *c, const float (*dirs)[3], stream_bits *b, int x, int y, int z)
{
    const int fx = origin_snap(x), fz = origin_snap(z);
    const float home[3] = { (float)(x - fx) + 0.5f, (float)y + 0.5f, (float)(z - fz) + 0.5f };
    float pos[3] = { home[0], home[1], home[2] };
    for (int s = 0; s < c->p->steps; s++) {
        const float *d = dirs[take(b)];
        for (int a = 0; a < 3; a++) pos[a] += d[a];
        float dx = pos[0] - home[0], dy = pos[1] - home[1], dz = pos[2] - home[2];
        if (c->r2 >= 0 && dx * dx + dy * dy + dz * dz >= c->r2) return true;
        if (pos[1] < 0.f) return false;
        int vy = (int)floorf(pos[1]);
        if (vy >= w->sy) return true;
        if (blocks_at(w, (int)floorf(pos[0]) + fx, vy, (int)floorf(pos[2]) + fz)) return false;
    }
    return true;
}

static void ref_light(const world *w, const trace_ctx *c, int x, int y, int z, uint8_t *sun, uint8_t *sky)
{
    const light_params *p = c->p;
    *sun = *sky = 0;
    if (!element_at(w, x, y, z)) return;
    /* every element releases the same particles (one seed for all) */
    rng r = rng_make(p->seed * 0x9e3779b97f4a7c15ull ^ 0x5eed11647ull);
    int lit_sun = 0, lit_sky = 0;
    for (int n = 0; n < p->sun_particles; n++) {
        stream_bits b = { &r, 0, 0, 8 };
        lit_sun += ref_walk(w, c, (const float (*)[3])c->sun_d, &b, x, y, z);
    }
    for (int n = 0; n < p->sky_particles; n++) {
        uint64_t first = rng_next(&r);
        stream_bits b = { &r, first >> 8, 56, 4 };
        /* stratified: particle n's heading in the n-th of sky_particles
         * equal bands of the spiral, whose place k is sky_d[161 k mod 256] */
        unsigned band = (unsigned)((n << 8) + (int)(first & 255)) / (unsigned)p->sky_particles;
        lit_sky += ref_walk(w, c, (const float (*)[3])c->sky_d[(band * 161u) & 255u], &b, x, y, z);
    }
    float fs = p->sun_particles ? (float)lit_sun / (float)p->sun_particles : 0.f;
    float fk = p->sky_particles ? (float)lit_sky / (float)p->sky_particles / c->sky_norm : 0.f;
    /* an element's byte is 1 + 254 x its light, 0 is no data (docs/light.md) */
    *sun = (uint8_t)(1 + lrintf(fminf(fs, 1.f) * 254.f));
    *sky = (uint8_t)(1 + lrintf(fminf(fk, 1.f) * 254.f));
}

/* Bakes the centre column of the 3 x 3 ring w by light_column and by a
 * whole bake, and compares both with the reference, voxel by voxel. */
static void check_ring(const world *w, const light_params *p)
{
    const int cx = w->ocx + 1, cz = w->ocz + 1;
    trace_ctx *c = calloc(1, sizeof *c);
    assert_non_null(c);
    light_trace_tables(c, p);
    light_column *lc = light_column_create(w->cy);
    light *vol = light_create(w->sx, w->sy, w->sz);
    assert_non_null(lc);
    assert_non_null(vol);
    light_move(vol, world_x0(w), world_z0(w));
    assert_true(light_column_snapshot(lc, w, cx, cz, light_reach(p)));
    assert_true(light_column_bake(lc, p));
    assert_true(light_column_land(lc, vol));
    light *whole = test_light_bake(w, p, NULL);
    long lit = 0, partly = 0, elements = 0;
    for (int z = cz * CHUNK_SIZE; z < (cz + 1) * CHUNK_SIZE; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = cx * CHUNK_SIZE; x < (cx + 1) * CHUNK_SIZE; x++) {
                uint8_t rs, rk, s, k, ws, wk;
                ref_light(w, c, x, y, z, &rs, &rk);
                light_get(vol, x, y, z, &s, &k);
                light_get(whole, x, y, z, &ws, &wk);
                if (s != rs || k != rk || ws != rs || wk != rk)
                    fail_msg("(%d, %d, %d): reference %u %u, column %u %u, whole %u %u", x, y, z, rs, rk, s, k, ws,
                             wk);
                elements += element_at(w, x, y, z);
                lit += rs > 1 || rk > 1;
                partly += (rs > 1 && rs < 255) || (rk > 1 && rk < 255);
            }
    /* the comparison compares light, not darkness: a third of the elements
     * or more are lit, and some partly (particles met voxels and escaped) */
    print_message("%ld elements, %ld lit, %ld partly\n", elements, lit, partly);
    assert_true(elements > 500);
    assert_true(lit > elements / 3);
    assert_true(partly > elements / 10);
    light_destroy(whole);
    light_destroy(vol);
    light_column_destroy(lc);
    free(c);
}

/* Random blocks: a ragged floor, floating stone and leaf clusters, water
 * pools, so particles meet voxels at every height and step count. */
static void random_ring(world *w, uint64_t seed)
{
    for (int z = world_z0(w); z < world_z0(w) + w->sz; z++)
        for (int x = world_x0(w); x < world_x0(w) + w->sx; x++) {
            int ground = 6 + (int)(rng_hash3(seed, x >> 2, 0, z >> 2) % 10);
            for (int y = 0; y < w->sy; y++) {
                uint64_t h = rng_hash3(seed + 1, x, y, z);
                uint8_t m = MAT_AIR;
                if (y < ground) m = h % 9 == 0 ? MAT_AIR : MAT_STONE;
                else if (y < ground + 2 && h % 5 == 0) m = MAT_MUSKEG;
                else if (y < 40 && h % 23 == 0) m = MAT_STONE;
                else if (y < 40 && rng_hash3(seed + 2, x >> 1, y >> 1, z >> 1) % 13 == 0) m = MAT_OAK_LEAVES;
                world_set(w, x, y, z, m);
            }
        }
}

static light_params params_variant(int v)
{
    light_params p = light_params_default();
    switch (v) {
    case 1: /* a radius that ends walks early, short jittered steps */
        p.radius = 6.5f, p.step = 0.5f, p.steps = 24, p.jitter = 1.3f, p.seed = 99;
        break;
    case 2: /* straight rays, long steps, a low sun, more particles */
        p.jitter = 0.f, p.step = 1.75f, p.steps = 9, p.sun_dir[0] = -1.f, p.sun_dir[1] = 0.3f, p.sun_dir[2] = 0.4f;
        p.sun_particles = 40, p.sky_particles = 7;
        break;
    case 3: /* the widest reach a column bake takes (32) */
        p.radius = 30.f, p.steps = 40, p.step = 0.75f, p.sun_particles = 5, p.sky_particles = 9;
        break;
    default:
        break;
    }
    char err[200];
    assert_true(light_params_check(&p, err, sizeof err));
    assert_true(light_reach(&p) <= CHUNK_SIZE);
    return p;
}

static void test_random_rings(void **state)
{
    (void)state;
    /* origin windows walk without a frame; 10^5 out and below zero with one */
    const int origins[][2] = { { 0, 0 }, { 3125, -7 }, { -6, 4 }, { 124, 0 } };
    for (int o = 0; o < 4; o++) {
        world *w = world_create_at(origins[o][0], origins[o][1], 3, 2, 3);
        assert_non_null(w);
        random_ring(w, 5 + (uint64_t)o);
        for (int v = 0; v < 4; v++) {
            light_params p = params_variant(v);
            check_ring(w, &p);
        }
        world_destroy(w);
    }
}

static void test_biome_rings(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    const char *kinds[] = { "hills", "desert", "taiga", "deciduous" };
    for (int k = 0; k < 4; k++) {
        const worldgen_kind *kind = worldgen_find(kinds[k]);
        assert_non_null(kind);
        /* as the stream bench's windows, 10^5 voxels out; hills at the origin too */
        int ocx = k == 0 ? 0 : 3125 + 7 * k;
        world *w = world_create_at(ocx, -2, 3, 4, 3);
        assert_non_null(w);
        assert_true(worldgen_generate(w, kind, 1, NULL));
        light_params p = params_variant(0);
        check_ring(w, &p);
        p = params_variant(1 + k % 3);
        check_ring(w, &p);
        world_destroy(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_rings),
        cmocka_unit_test(test_biome_rings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
