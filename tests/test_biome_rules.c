/* Seed 001's rules checked against our own reading of the paper, not the
 * biome code: the layer tables (figures 13, 18, 19) with the levels of
 * equations 10-12, 16 and 17 recomputed here from the eq. 9 height map; the
 * cactus and fir sites against the noise thresholds of eq. 14 and 15 sampled
 * here; and the shapes of the fir, the oak and the cacti drawn alone in an
 * empty world and compared voxel for voxel with the paper's description.
 * Each test names the rule it guards, so breaking a rule fails a test.
 * Last, where a new world puts the player: on the ground in every biome,
 * never on the forest's leaf roof, in a clearing when there is one. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worldgen/biome_common.h"
#include "worldgen/biomes.h"
#include "core/jobs.h"
#include "core/noise.h"
#include "physics/collide.h"
#include "play/player.h"
#include "worldgen/terrain.h"
#include "ui/cvar.h"

static job_pool *g_pool;

static int setup(void **state)
{
    (void)state;
    terrain_register();
    biomes_register();
    g_pool = job_pool_create(2);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    job_pool_destroy(g_pool);
    cvar_shutdown();
    return 0;
}

static float fvar(const char *name)
{
    const cvar *c = cvar_find(name);
    assert_non_null(c);
    return c->f;
}

static int ivar(const char *name)
{
    const cvar *c = cvar_find(name);
    assert_non_null(c);
    return c->i;
}

/* Equation 9 with the biome's own cvars: the raw height map, and the range
 * the equation can produce anywhere, which every level below is derived
 * from (docs/biomes.md): 2D Perlin noise with gradients no longer than
 * sqrt 2 lies in [-1, 1] (four corner terms of at most 1, blended), scaled
 * by 0.7071, so the 0..1 noise 0.5 * (n + 1), and any normalised sum of
 * octaves of it, lies in 0.5 +- 0.7071 / 2; the height in ground + weight
 * times that, rounded and clamped to [1, sy - 1] like the map. */
static int *eq9_heights(const world *w, const char *prefix, int64_t seed, int *min_h, int *max_h)
{
    char n[64];
    terrain_heightmap_params p = { .octaves = ivar("world.octaves") };
    snprintf(n, sizeof n, "%s.terrain_weight", prefix);
    p.weight = fvar(n);
    snprintf(n, sizeof n, "%s.terrain_scale", prefix);
    p.scale = fvar(n);
    snprintf(n, sizeof n, "%s.ground_height", prefix);
    p.ground = fvar(n);
    int *h = malloc(sizeof(int) * (size_t)w->sx * (size_t)w->sz);
    assert_non_null(h);
    terrain_heightmap(&p, seed, 0, 0, w->sx, w->sz, w->sy, h);
    float half = 0.7071f / 2.f; /* the 0..1 noise's distance from 0.5 at most */
    int lo = (int)lrintf(p.weight * (0.5f - half) + p.ground), hi = (int)lrintf(p.weight * (0.5f + half) + p.ground);
    *min_h = lo < 1 ? 1 : lo > w->sy - 1 ? w->sy - 1 : lo;
    *max_h = hi < 1 ? 1 : hi > w->sy - 1 ? w->sy - 1 : hi;
    for (int i = 0; i < w->sx * w->sz; i++) /* a bound, not a guess: the map stays inside it */
        assert_true(h[i] >= *min_h && h[i] <= *max_h);
    return h;
}

static world *generate(const char *kind, int c, int64_t seed)
{
    world *w = world_create(c, 4, c);
    assert_non_null(w);
    assert_true(worldgen_generate(w, worldgen_find(kind), seed, g_pool));
    return w;
}

static bool is_plant(uint8_t m)
{
    return m == MAT_CACTUS || m == MAT_FIR_LOG || m == MAT_FIR_LEAVES || m == MAT_OAK_LOG || m == MAT_OAK_LEAVES;
}

static bool solid(const world *w, int x, int y, int z) { return material_get(world_get(w, x, y, z))->solid; }

/* Every voxel of every column against the expected material: at or below
 * the surface the layer rule, above it air or a plant. "No solid voxel two
 * units above" (playas, muskegs) is judged on the finished column: the
 * column's own ground, or a plant standing there (docs/biomes.md step 4). */
typedef uint8_t (*rule_fn)(const void *ctx, const world *w, int x, int z, int h, int y);

static void check_columns(const world *w, const int *heights, rule_fn rule, const void *ctx, uint64_t counts[MAT_COUNT])
{
    memset(counts, 0, sizeof(uint64_t) * MAT_COUNT);
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            int h = heights[z * w->sx + x];
            for (int y = 0; y < w->sy; y++) {
                uint8_t got = world_get(w, x, y, z);
                if (y > h) {
                    if (got != MAT_AIR && !is_plant(got))
                        fail_msg("(%d, %d, %d) above the surface %d is %s", x, y, z, h, material_get(got)->name);
                    continue;
                }
                uint8_t want = rule(ctx, w, x, z, h, y);
                if (got != want)
                    fail_msg("(%d, %d, %d), surface %d: %s, the paper's rule gives %s", x, y, z, h,
                             material_get(got)->name, material_get(want)->name);
                counts[got]++;
            }
        }
}

/* ---- desert: eq. 10, 11, 12 and figure 13 ---- */

typedef struct desert_ref {
    int min_mesa;           /* eq. 10 lowered by the bleed-off (eq. 12) */
    int playa_lo, playa_hi; /* eq. 11, mirrored about MinHeight (docs/biomes.md) */
    int upper, middle;
} desert_ref;

static uint8_t desert_rule(const void *ctx, const world *w, int x, int z, int h, int y)
{
    const desert_ref *r = ctx;
    if (y == 0) return MAT_BEDROCK;
    if (y >= r->min_mesa) return MAT_MESA;
    if (y >= r->playa_lo && y <= r->playa_hi && y + 2 > h && !solid(w, x, y + 2, z)) return MAT_SALT_FLAT;
    if (y > h - r->upper) return MAT_SAND;
    if (y > h - r->middle) return MAT_SANDSTONE;
    return MAT_STONE;
}

static void test_desert_layers_follow_eq10_to_13(void **state)
{
    (void)state;
    const int64_t seed = 1234;
    world *w = generate("desert", 8, seed);
    int min_h, max_h;
    int *h = eq9_heights(w, "desert", seed, &min_h, &max_h);
    /* eq. 10: MinMesaHeight = MaxHeight - MaxHeight * MesaChance */
    float mesa_floor = (float)max_h - (float)max_h * fvar("desert.mesa_chance");
    /* eq. 12: ground above it rises by the offset, then the floor sinks by the bleed-off */
    int offset = ivar("desert.mesa_height_offset"), raised = 0;
    for (int i = 0; i < w->sx * w->sz; i++)
        if ((float)h[i] > mesa_floor) {
            h[i] = h[i] + offset > w->sy - 1 ? w->sy - 1 : h[i] + offset;
            raised++;
        }
    desert_ref r = {
        .min_mesa = (int)ceilf(mesa_floor - (float)ivar("desert.mesa_bleed_off")),
        .playa_lo = min_h,
        .playa_hi = (int)floorf((float)min_h + (float)min_h * fvar("desert.playa_chance")),
        .upper = ivar("desert.upper_soil_depth"),
        .middle = ivar("desert.middle_soil_depth"),
    };
    uint64_t counts[MAT_COUNT];
    check_columns(w, h, desert_rule, &r, counts);
    printf("desert: raised %d, mesa %llu, salt flat %llu, sand %llu, sandstone %llu, stone %llu\n", raised,
           (unsigned long long)counts[MAT_MESA], (unsigned long long)counts[MAT_SALT_FLAT],
           (unsigned long long)counts[MAT_SAND], (unsigned long long)counts[MAT_SANDSTONE],
           (unsigned long long)counts[MAT_STONE]);
    /* every rule must have had something to say, or the check proves little */
    assert_true(raised > 0);
    assert_true(counts[MAT_MESA] > 0 && counts[MAT_SALT_FLAT] > 0 && counts[MAT_SAND] > 0);
    assert_true(counts[MAT_SANDSTONE] > 0 && counts[MAT_STONE] > 0);
    /* the sandstone band is MiddleSoil - UpperSoil voxels thick under the sand wherever the column is deep enough */
    int deep = 0;
    for (int i = 0; i < w->sx * w->sz; i++) {
        int x = i % w->sx, z = i / w->sx, top = h[i];
        if (top - r.middle < 1 || top >= r.min_mesa - 1 || (top >= r.playa_lo && top <= r.playa_hi)) continue;
        for (int y = top - r.middle + 1; y <= top - r.upper; y++) assert_int_equal(world_get(w, x, y, z), MAT_SANDSTONE);
        deep++;
    }
    assert_true(deep > 1000);
    free(h);
    world_destroy(w);
}

/* ---- taiga: eq. 16, 17 and figure 18 ---- */

typedef struct taiga_ref {
    int tree_line;
    int muskeg_lo, muskeg_hi;
    int upper, middle;
} taiga_ref;

static uint8_t taiga_rule(const void *ctx, const world *w, int x, int z, int h, int y)
{
    const taiga_ref *r = ctx;
    if (y == 0) return MAT_BEDROCK;
    if (y >= r->tree_line) return MAT_CRACKED_STONE;
    if (y >= r->muskeg_lo && y <= r->muskeg_hi && y + 2 > h && !solid(w, x, y + 2, z)) return MAT_MUSKEG;
    if (y == h) return MAT_TAIGA_GRASS;
    if (y > h - r->upper) return MAT_TAIGA_DIRT;
    if (y > h - r->middle) return MAT_PERMAFROST;
    return MAT_STONE;
}

static void test_taiga_layers_follow_eq16_17_18(void **state)
{
    (void)state;
    const int64_t seed = 1234;
    world *w = generate("taiga", 8, seed);
    int min_h, max_h;
    int *h = eq9_heights(w, "taiga", seed, &min_h, &max_h);
    taiga_ref r = {
        /* eq. 16: TreeLineHeight = MaxHeight - MaxHeight * TreeLinePercentage */
        .tree_line = (int)ceilf((float)max_h - (float)max_h * fvar("taiga.tree_line")),
        .muskeg_lo = min_h,
        .muskeg_hi = (int)floorf((float)min_h + (float)min_h * fvar("taiga.muskeg_chance")),
        .upper = ivar("taiga.upper_soil_depth"),
        .middle = ivar("taiga.middle_soil_depth"),
    };
    uint64_t counts[MAT_COUNT];
    check_columns(w, h, taiga_rule, &r, counts);
    printf("taiga: cracked stone %llu, muskeg %llu, grass %llu, dirt %llu, permafrost %llu\n",
           (unsigned long long)counts[MAT_CRACKED_STONE], (unsigned long long)counts[MAT_MUSKEG],
           (unsigned long long)counts[MAT_TAIGA_GRASS], (unsigned long long)counts[MAT_TAIGA_DIRT],
           (unsigned long long)counts[MAT_PERMAFROST]);
    assert_true(counts[MAT_CRACKED_STONE] > 0 && counts[MAT_MUSKEG] > 0 && counts[MAT_TAIGA_GRASS] > 0);
    /* shallow dirt over deep permafrost: the paper's point, and the defaults show it */
    assert_true(counts[MAT_TAIGA_DIRT] > 0 && counts[MAT_PERMAFROST] > 4 * counts[MAT_TAIGA_DIRT]);
    free(h);
    world_destroy(w);
}

/* ---- deciduous: figure 19 ---- */

static uint8_t deciduous_rule(const void *ctx, const world *w, int x, int z, int h, int y)
{
    (void)w, (void)x, (void)z;
    int middle = *(const int *)ctx;
    if (y == 0) return MAT_BEDROCK;
    if (y == h) return MAT_GRASS;
    if (y > h - middle) return MAT_DIRT;
    return MAT_STONE;
}

static void test_deciduous_layers_follow_fig19(void **state)
{
    (void)state;
    const int64_t seed = 1234;
    world *w = generate("deciduous", 6, seed);
    int min_h, max_h;
    int *h = eq9_heights(w, "deciduous", seed, &min_h, &max_h);
    int middle = ivar("deciduous.middle_soil_depth");
    uint64_t counts[MAT_COUNT];
    check_columns(w, h, deciduous_rule, &middle, counts);
    assert_true(counts[MAT_GRASS] == (uint64_t)w->sx * (uint64_t)w->sz && counts[MAT_DIRT] > 0 && counts[MAT_STONE] > 0);
    free(h);
    world_destroy(w);
}

/* ---- eq. 14 and 15: every plant site passes both noise thresholds ---- */

static void check_sites(const char *kind, int64_t seed, int min_sites)
{
    char n[64];
    snprintf(n, sizeof n, "%s.zone_scale", kind);
    float zone_scale = fvar(n);
    snprintf(n, sizeof n, "%s.zone_threshold", kind);
    float zone_thr = fvar(n);
    snprintf(n, sizeof n, "%s.placement_scale", kind);
    float place_scale = fvar(n);
    snprintf(n, sizeof n, "%s.placement_threshold", kind);
    float place_thr = fvar(n);
    world *w = world_create(8, 4, 8);
    char err[256] = "";
    const worldgen_kind *k = worldgen_find(kind);
    void *plan = k->plan(w, seed, err, sizeof err);
    assert_non_null(plan);
    /* PerlinNoise(position, -seed, scale), sampled at voxel centres */
    noise field;
    noise_init(&field, -seed);
    int count, below_zone = 0, below_place = 0;
    const flora *f = biome_plan_flora(plan, &count);
    assert_true(count >= min_sites);
    for (int i = 0; i < count; i++) {
        double px = f[i].x + 0.5, pz = f[i].z + 0.5;
        float zone = noise_perlin2d_01(&field, px / zone_scale, pz / zone_scale);
        float place = noise_perlin2d_01(&field, px / place_scale, pz / place_scale);
        if (!(zone > zone_thr)) fail_msg("%s plant at (%d, %d): zone noise %g not above %g (eq. 14)", kind, f[i].x, f[i].z,
                                         (double)zone, (double)zone_thr);
        if (!(place > place_thr))
            fail_msg("%s plant at (%d, %d): placement noise %g not above %g (eq. 15)", kind, f[i].x, f[i].z, (double)place,
                     (double)place_thr);
    }
    /* and the thresholds do select: plenty of columns fail each one, so a
     * missing test would show above */
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            below_zone += !(noise_perlin2d_01(&field, (x + 0.5) / zone_scale, (z + 0.5) / zone_scale) > zone_thr);
            below_place += !(noise_perlin2d_01(&field, (x + 0.5) / place_scale, (z + 0.5) / place_scale) > place_thr);
        }
    printf("%s: %d sites; columns failing eq. 14: %d, eq. 15: %d of %d\n", kind, count, below_zone, below_place,
           w->sx * w->sz);
    assert_true(below_zone > w->sx * w->sz / 50 && below_place > w->sx * w->sz / 10);
    k->free_plan(plan);
    world_destroy(w);
}

static void test_sites_pass_eq14_and_eq15(void **state)
{
    (void)state;
    check_sites("desert", 1234, 20);
    check_sites("desert", 99, 20);
    check_sites("taiga", 1234, 100);
}

/* ---- plant shapes, each drawn alone in an empty world ---- */

typedef struct vset {
    int n;
    struct { int x, y, z; uint8_t m; } v[1024];
} vset;

static void vput(vset *s, int x, int y, int z, uint8_t m)
{
    for (int i = 0; i < s->n; i++)
        if (s->v[i].x == x && s->v[i].y == y && s->v[i].z == z) {
            s->v[i].m = m;
            return;
        }
    assert_true(s->n < 1024);
    s->v[s->n].x = x, s->v[s->n].y = y, s->v[s->n].z = z, s->v[s->n].m = m;
    s->n++;
}

/* Draws `f` alone and compares every voxel of the world with `want`. */
static void check_plant(const flora *f, const flora_style *st, const vset *want)
{
    world *w = world_create(2, 2, 2);
    for (int cz = 0; cz < w->cz; cz++)
        for (int cx = 0; cx < w->cx; cx++) flora_draw_in_column(f, st, w, cx, cz);
    uint64_t counts[MAT_COUNT];
    world_count_materials(w, counts);
    assert_int_equal(counts[MAT_AIR], (uint64_t)w->sx * w->sy * w->sz - (uint64_t)want->n);
    for (int i = 0; i < want->n; i++) {
        uint8_t got = world_get(w, want->v[i].x, want->v[i].y, want->v[i].z);
        if (got != want->v[i].m)
            fail_msg("voxel (%d, %d, %d) is %s, want %s", want->v[i].x, want->v[i].y, want->v[i].z, material_get(got)->name,
                     material_get(want->v[i].m)->name);
    }
    world_destroy(w);
}

/* The fir (seed 001): a trunk, "a single fir leaf voxel on top of the trunk",
 * then downward an alternating pattern: a layer "directly next to the trunk
 * in the cardinal directions", then "a circular layer of leaves around the
 * trunk that expands based on a provided growth value" (the k-th circle has
 * radius 1 + growth * k), down to fir_bare_trunk voxels above the ground. */
static void test_fir_shape(void **state)
{
    (void)state;
    const flora_style st = { .fir_growth = 0.5f, .fir_bare = 2 };
    for (int height = 6; height <= 11; height += 5) {
        flora f = { .x = 32, .y = 5, .z = 32, .kind = FLORA_FIR, .height = (uint8_t)height };
        static vset want;
        want.n = 0;
        int top = f.y + height - 1;
        for (int y = f.y; y <= top; y++) vput(&want, 32, y, 32, MAT_FIR_LOG);
        vput(&want, 32, top + 1, 32, MAT_FIR_LEAVES);
        int layer = 0, circles = 0;
        for (int y = top; y >= f.y + st.fir_bare; y--, layer++) {
            if (layer % 2 == 0) {
                vput(&want, 33, y, 32, MAT_FIR_LEAVES);
                vput(&want, 31, y, 32, MAT_FIR_LEAVES);
                vput(&want, 32, y, 33, MAT_FIR_LEAVES);
                vput(&want, 32, y, 31, MAT_FIR_LEAVES);
            } else {
                double r = 1.0 + 0.5 * ++circles;
                for (int dz = -4; dz <= 4; dz++)
                    for (int dx = -4; dx <= 4; dx++)
                        if ((dx || dz) && dx * dx + dz * dz <= r * r) vput(&want, 32 + dx, y, 32 + dz, MAT_FIR_LEAVES);
            }
        }
        assert_true(circles >= 2);
        check_plant(&f, &st, &want);
    }
}

/* The oak: a trunk, "a single leaf voxel ... on top of the trunk", and "the
 * rest of the leaves are placed around the trunk in a simple cube": side
 * 2 * leaf_radius + 1, its top layer level with the top of the trunk. */
static void test_oak_shape(void **state)
{
    (void)state;
    for (int rad = 1; rad <= 2; rad++) {
        const flora_style st = { .oak_leaf_radius = rad };
        flora f = { .x = 30, .y = 3, .z = 33, .kind = FLORA_OAK, .height = 8 };
        static vset want;
        want.n = 0;
        int top = f.y + f.height - 1;
        for (int y = top - 2 * rad; y <= top; y++)
            for (int dz = -rad; dz <= rad; dz++)
                for (int dx = -rad; dx <= rad; dx++) vput(&want, 30 + dx, y, 33 + dz, MAT_OAK_LEAVES);
        for (int y = f.y; y <= top; y++) vput(&want, 30, y, 33, MAT_OAK_LOG);
        vput(&want, 30, top + 1, 33, MAT_OAK_LEAVES);
        assert_int_equal(want.n, (2 * rad + 1) * (2 * rad + 1) * (2 * rad + 1) + (f.height - 2 * rad - 1) + 1);
        check_plant(&f, &st, &want);
    }
}

/* The cacti: a pillar is `height` voxels straight up; the barrel is squat
 * and round, a plus of five on the ground capped by one (docs/biomes.md);
 * a saguaro is a pillar plus arms beside it. */
static void test_cactus_shapes(void **state)
{
    (void)state;
    const flora_style st = { 0 };
    static vset want;
    flora pillar = { .x = 10, .y = 4, .z = 40, .kind = FLORA_PILLAR, .height = 5 };
    want.n = 0;
    for (int k = 0; k < 5; k++) vput(&want, 10, 4 + k, 40, MAT_CACTUS);
    check_plant(&pillar, &st, &want);

    flora barrel = { .x = 40, .y = 4, .z = 31, .kind = FLORA_BARREL, .height = 2 };
    want.n = 0;
    vput(&want, 40, 4, 31, MAT_CACTUS);
    vput(&want, 41, 4, 31, MAT_CACTUS);
    vput(&want, 39, 4, 31, MAT_CACTUS);
    vput(&want, 40, 4, 32, MAT_CACTUS);
    vput(&want, 40, 4, 30, MAT_CACTUS);
    vput(&want, 40, 5, 31, MAT_CACTUS);
    check_plant(&barrel, &st, &want);

    /* one arm: leaves the trunk at level 2 and rises 3 voxels (2..5) beside it */
    flora saguaro = { .x = 20, .y = 4, .z = 20, .kind = FLORA_SAGUARO, .height = 7, .arms = 1 };
    saguaro.arm_dir[0] = 0;
    saguaro.arm_at[0] = 2;
    saguaro.arm_len[0] = 3;
    want.n = 0;
    for (int k = 0; k < 7; k++) vput(&want, 20, 4 + k, 20, MAT_CACTUS);
    for (int k = 0; k <= 3; k++)
        vput(&want, 20 + flora_cardinal[0][0], 4 + 2 + k, 20 + flora_cardinal[0][1], MAT_CACTUS);
    check_plant(&saguaro, &st, &want);
}

/* ---- where a new world puts the player (game/play/player.h) ---- */

/* The voxel the feet rest on, for every column under the box: the highest
 * one that supports it must be ground, and none may be a plant. */
static void assert_on_ground(const world *w, const player *p, const char *kind)
{
    double lo[3], hi[3];
    player_bounds(p, lo, hi);
    assert_false(collide_box_hits(w, lo, hi));
    int below = (int)floorf(p->pos[1] - 0.5f);
    bool supported = false;
    for (int z = (int)floorf(lo[2]); z < (int)ceilf(hi[2]); z++)
        for (int x = (int)floorf(lo[0]); x < (int)ceilf(hi[0]); x++) {
            uint8_t m = world_get(w, x, below, z);
            if (!material_get(m)->solid) continue;
            if (!player_is_ground(m))
                fail_msg("%s: the player stands on %s at (%d, %d, %d)", kind, material_get(m)->name, x, below, z);
            supported = true;
        }
    if (!supported) fail_msg("%s: nothing under the player's feet at y=%d", kind, below);
    assert_true(p->pos[1] - (float)(below + 1) < 0.05f);
}

static void test_spawn_on_ground_in_every_biome(void **state)
{
    (void)state;
    const char *kinds[] = { "hills", "desert", "taiga", "deciduous" };
    for (int k = 0; k < 4; k++) {
        for (int64_t seed = 1; seed <= 3; seed++) {
            world *w = world_create(16, 4, 16);
            assert_true(worldgen_generate(w, worldgen_find(kinds[k]), seed, g_pool));
            player p;
            memset(&p, 0, sizeof p);
            assert_true(player_spawn_ground(&p, w, w->sx * 0.5f, w->sz * 0.5f));
            assert_on_ground(w, &p, kinds[k]);
            /* a clearing: open sky over the spawn and its eight neighbours
             * (every default world has one within reach) */
            int x = (int)floorf(p.pos[0]), z = (int)floorf(p.pos[2]);
            for (int dz = -1; dz <= 1; dz++)
                for (int dx = -1; dx <= 1; dx++) {
                    int s = world_surface_y(w, x + dx, z + dz);
                    if (!player_is_ground(world_get(w, x + dx, s, z + dz)))
                        fail_msg("%s seed %d: column (%d, %d) beside the spawn is under %s", kinds[k], (int)seed, x + dx,
                                 z + dz, material_get(world_get(w, x + dx, s, z + dz))->name);
                }
            /* near the centre the player asked for */
            assert_true(fabs(p.pos[0] - w->sx * 0.5) < PLAYER_CLEARING_SEARCH + 1);
            /* and it rests there: a second of standing still moves nothing */
            double y0 = p.pos[1];
            player_input none = { 0 };
            player_update(&p, w, &none, 0.25f);
            player_update(&p, w, &none, 0.25f);
            assert_true(p.on_ground);
            assert_true(fabs(p.pos[1] - y0) < 0.05);
            world_destroy(w);
        }
    }
}

/* A forest with no clearing at all: the player goes under the canopy, onto
 * the ground, not onto the roof. */
static void test_spawn_under_a_closed_canopy(void **state)
{
    (void)state;
    world *w = world_create(2, 1, 2);
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            for (int y = 0; y <= 5; y++) world_set(w, x, y, z, y == 0 ? MAT_BEDROCK : y == 5 ? MAT_GRASS : MAT_DIRT);
            for (int y = 12; y <= 14; y++) world_set(w, x, y, z, MAT_OAK_LEAVES);
        }
    player p;
    memset(&p, 0, sizeof p);
    assert_true(player_spawn_ground(&p, w, 32, 32));
    assert_on_ground(w, &p, "closed canopy");
    assert_true(p.pos[1] < 7);
    /* no ground at all: refused, the player stays */
    world *empty = world_create(1, 1, 1);
    p.pos[1] = 50;
    assert_false(player_spawn_ground(&p, empty, 16, 16));
    assert_true(p.pos[1] == 50);
    world_destroy(empty);
    world_destroy(w);
}

/* A streamed window below 0: the clearing is found where it is, west and
 * north of the spawn point too (the search once stopped at x, z < 0, a
 * finite world's sides, and put the player under the canopy), and a
 * column not generated yet is no clearing. */
static void test_spawn_in_a_clearing_below_zero(void **state)
{
    (void)state;
    world *w = world_create_at(-2, -2, 4, 1, 4);
    assert_non_null(w);
    for (int z = -64; z < 64; z++)
        for (int x = -64; x < 64; x++) {
            for (int y = 0; y <= 5; y++) world_set(w, x, y, z, y == 0 ? MAT_BEDROCK : y == 5 ? MAT_GRASS : MAT_DIRT);
            bool open = x >= -12 && x <= -8 && z >= -12 && z <= -8;
            for (int y = 12; y <= 14 && !open; y++) world_set(w, x, y, z, MAT_OAK_LEAVES);
        }
    player p;
    memset(&p, 0, sizeof p);
    assert_true(player_spawn_ground(&p, w, 0.5, 0.5));
    assert_on_ground(w, &p, "clearing below 0");
    assert_true(p.pos[0] >= -10.5 && p.pos[0] <= -8.5 && p.pos[2] >= -10.5 && p.pos[2] <= -8.5); /* columns -11 .. -9 */
    /* the clearing's column still arriving: under the canopy instead */
    world_set_column_state(w, -1, -1, WORLD_COL_EMPTY);
    assert_true(player_spawn_ground(&p, w, 0.5, 0.5));
    assert_on_ground(w, &p, "clearing not generated");
    assert_true(p.pos[1] < 7);
    assert_false(p.pos[0] < 0 && p.pos[2] < 0 && p.pos[0] >= -32 && p.pos[2] >= -32);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_desert_layers_follow_eq10_to_13),
        cmocka_unit_test(test_taiga_layers_follow_eq16_17_18),
        cmocka_unit_test(test_deciduous_layers_follow_fig19),
        cmocka_unit_test(test_sites_pass_eq14_and_eq15),
        cmocka_unit_test(test_fir_shape),
        cmocka_unit_test(test_oak_shape),
        cmocka_unit_test(test_cactus_shapes),
        cmocka_unit_test(test_spawn_on_ground_in_every_biome),
        cmocka_unit_test(test_spawn_under_a_closed_canopy),
        cmocka_unit_test(test_spawn_in_a_clearing_below_zero),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
