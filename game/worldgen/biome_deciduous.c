/* biome_deciduous: seed 001's deciduous forest. Equation 9 rolling hills of
 * grass over dirt over stone, and oaks placed by the forest growth model: a
 * biomass map that each planted tree depletes around itself, grown outward
 * from a few initial trees by seed dispersal (docs/biomes.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "biome_common.h"
#include "ui/cvar.h"

typedef struct deciduous_plan {
    biome_plan b;
    int middle;     /* dirt to this depth below the grass */
    float *biomass; /* sx * sz soil fertility, 0..100; -1 marks a trunk */
} deciduous_plan;

enum { SALT_BIOMASS = 1, SALT_INITIAL, SALT_DISPERSE_X, SALT_DISPERSE_Z, SALT_GERMINATE, SALT_HEIGHT };

/* Figure 19 in the paper's order. */
static uint8_t deciduous_material(const biome_plan *b, int h, int y, bool open_above)
{
    (void)open_above;
    const deciduous_plan *p = (const deciduous_plan *)b;
    if (y == 0) return MAT_BEDROCK;
    if (y > h) return MAT_AIR;
    if (y == h) return MAT_GRASS;
    if (y > h - p->middle) return MAT_DIRT;
    return MAT_STONE;
}

typedef struct deciduous_params {
    int middle;
    int min_h, max_h;
    int initial, attempts;
    float r_neighbour, r_canopy, r_depletion, r_seed;
    float large, moderate, light;
} deciduous_params;

static bool deciduous_read(deciduous_params *q, flora_style *st, char *err, size_t n)
{
    return biome_param_i("deciduous.middle_soil_depth", &q->middle, err, n) &&
           biome_param_i("deciduous.min_tree_height", &q->min_h, err, n) &&
           biome_param_i("deciduous.max_tree_height", &q->max_h, err, n) &&
           biome_param_i("deciduous.leaf_radius", &st->oak_leaf_radius, err, n) &&
           biome_param_i("deciduous.initial_trees", &q->initial, err, n) &&
           biome_param_f("deciduous.neighbour_radius", &q->r_neighbour, err, n) &&
           biome_param_f("deciduous.canopy_radius", &q->r_canopy, err, n) &&
           biome_param_f("deciduous.depletion_radius", &q->r_depletion, err, n) &&
           biome_param_f("deciduous.neighbour_reduction", &q->large, err, n) &&
           biome_param_f("deciduous.canopy_reduction", &q->moderate, err, n) &&
           biome_param_f("deciduous.depletion_reduction", &q->light, err, n) &&
           biome_param_f("deciduous.seed_radius", &q->r_seed, err, n) &&
           biome_param_i("deciduous.seed_attempts", &q->attempts, err, n);
}

static bool deciduous_check(const deciduous_params *q, const flora_style *st, char *err, size_t n)
{
    if (q->min_h > q->max_h) {
        snprintf(err, n, "deciduous.min_tree_height (%d) is above deciduous.max_tree_height (%d)", q->min_h, q->max_h);
        return false;
    }
    if (q->min_h < 2 * st->oak_leaf_radius + 2) {
        snprintf(err, n, "deciduous.min_tree_height (%d) is too short for deciduous.leaf_radius %d: the leaf cube "
                 "would reach the ground (need at least %d)", q->min_h, st->oak_leaf_radius, 2 * st->oak_leaf_radius + 2);
        return false;
    }
    if (q->r_neighbour > q->r_canopy || q->r_canopy > q->r_depletion) {
        snprintf(err, n, "deciduous radii must nest: neighbour_radius (%g) <= canopy_radius (%g) <= depletion_radius (%g)",
                 (double)q->r_neighbour, (double)q->r_canopy, (double)q->r_depletion);
        return false;
    }
    if (q->r_seed < 1.f) {
        snprintf(err, n, "deciduous.seed_radius (%g) must reach at least one neighbouring column", (double)q->r_seed);
        return false;
    }
    return true;
}

/* A tree at cell (x, z): mark the trunk and deplete the soil around it, each
 * cell by the amount of the innermost ring it lies in. Values stop at 0 so
 * that -1 always means "trunk". */
static void deciduous_deplete(deciduous_plan *p, const deciduous_params *q, int x, int z)
{
    int sx = p->b.sx, sz = p->b.sz;
    p->biomass[z * sx + x] = -1.f;
    int r = (int)floorf(q->r_depletion);
    float n2 = q->r_neighbour * q->r_neighbour, c2 = q->r_canopy * q->r_canopy, d2 = q->r_depletion * q->r_depletion;
    for (int dz = -r; dz <= r; dz++) {
        int zz = z + dz;
        if (zz < 0 || zz >= sz) continue;
        for (int dx = -r; dx <= r; dx++) {
            int xx = x + dx;
            float dd = (float)(dx * dx + dz * dz);
            if (xx < 0 || xx >= sx || dd > d2) continue;
            float *v = &p->biomass[zz * sx + xx];
            if (*v < 0.f) continue;
            float cut = dd <= n2 ? q->large : dd <= c2 ? q->moderate : q->light;
            *v = *v > cut ? *v - cut : 0.f;
        }
    }
}

/* The growth loop: the initial trees go into a queue; every tree in queue
 * order casts seed_attempts seeds to random cells within seed_radius, and a
 * seed takes root with probability biomass / 100, becoming a tree at the end
 * of the queue. Depleted soil makes germination unlikely near trees without
 * forbidding it. The queue ends because each tree takes a cell for good. */
static bool deciduous_grow(deciduous_plan *p, const deciduous_params *q, int64_t seed, char *err, size_t n)
{
    biome_plan *b = &p->b;
    int cells = b->sx * b->sz;
    p->biomass = malloc(sizeof(float) * (size_t)cells);
    int *queue = malloc(sizeof(int) * (size_t)cells);
    if (!p->biomass || !queue) {
        free(queue);
        snprintf(err, n, "out of memory for the biomass map");
        return false;
    }
    for (int z = 0; z < b->sz; z++)
        for (int x = 0; x < b->sx; x++)
            p->biomass[z * b->sx + x] = (float)(100.0 * biome_hash_unit(seed, SALT_BIOMASS, x, 0, z));
    int nq = 0;
    for (int i = 0; i < q->initial; i++) {
        int c = (int)(biome_hash(seed, SALT_INITIAL, i, 0, 0) % (uint64_t)cells);
        if (p->biomass[c] < 0.f) continue; /* two initial trees drew the same cell */
        deciduous_deplete(p, q, c % b->sx, c / b->sx);
        queue[nq++] = c;
    }
    int r = (int)floorf(q->r_seed);
    float r2 = q->r_seed * q->r_seed;
    for (int i = 0; i < nq; i++) {
        int tx = queue[i] % b->sx, tz = queue[i] / b->sx;
        for (int k = 0; k < q->attempts; k++) {
            int dx = biome_hash_range(seed, SALT_DISPERSE_X, tx, k, tz, -r, r);
            int dz = biome_hash_range(seed, SALT_DISPERSE_Z, tx, k, tz, -r, r);
            int x = tx + dx, z = tz + dz;
            if ((float)(dx * dx + dz * dz) > r2 || x < 0 || z < 0 || x >= b->sx || z >= b->sz) continue;
            float v = p->biomass[z * b->sx + x];
            if (v <= 0.f || 100.0 * biome_hash_unit(seed, SALT_GERMINATE, tx, k, tz) >= (double)v) continue;
            deciduous_deplete(p, q, x, z);
            queue[nq++] = z * b->sx + x;
        }
    }
    /* plants in queue order: the order the forest grew */
    for (int i = 0; i < nq; i++) {
        int x = queue[i] % b->sx, z = queue[i] / b->sx, h = b->heights[queue[i]];
        if (h + 1 >= b->sy) continue;
        flora f = { .x = x, .y = h + 1, .z = z, .kind = FLORA_OAK };
        f.height = (uint8_t)biome_hash_range(seed, SALT_HEIGHT, x, 0, z, q->min_h, q->max_h);
        if (!flora_push(&b->flora, &f)) {
            free(queue);
            snprintf(err, n, "out of memory planning oak trees");
            return false;
        }
    }
    free(queue);
    return true;
}

static void deciduous_free(void *plan)
{
    deciduous_plan *p = plan;
    if (!p) return;
    biome_plan_release(&p->b);
    free(p->biomass);
    free(p);
}

static void *deciduous_plan_make(const world *w, int64_t seed, char *err, size_t n)
{
    deciduous_params q = { 0 };
    flora_style st = { 0 };
    if (n) err[0] = '\0';
    if (!deciduous_read(&q, &st, err, n) || !deciduous_check(&q, &st, err, n)) return NULL;
    deciduous_plan *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    p->b.id = BIOME_DECIDUOUS;
    p->b.style = st;
    p->middle = q.middle;
    if (!biome_heightmap(&p->b, w, "deciduous", seed, err, n) || !deciduous_grow(p, &q, seed, err, n) ||
        !flora_bin(&p->b.flora, &p->b.style, w)) {
        if (!err[0]) snprintf(err, n, "out of memory");
        deciduous_free(p);
        return NULL;
    }
    return p;
}

static void deciduous_fill_column(void *plan, world *w, int cx, int cz)
{
    const deciduous_plan *p = plan;
    biome_fill_column(&p->b, w, cx, cz, deciduous_material, MAT_AIR, 1, 0);
}

float biome_plan_biomass(const void *plan, int x, int z)
{
    const deciduous_plan *p = plan;
    if (p->b.id != BIOME_DECIDUOUS || x < 0 || z < 0 || x >= p->b.sx || z >= p->b.sz) return 0.f;
    return p->biomass[z * p->b.sx + x];
}

static const char *const k_own_cvars[] = { "deciduous.", NULL };

const worldgen_kind biome_deciduous = {
    .own_cvars = k_own_cvars,
    .name = "deciduous",
    .help = "seed 001 deciduous forest: rolling hills and oaks placed by the forest growth model",
    .plan = deciduous_plan_make,
    .fill_column = deciduous_fill_column,
    .free_plan = deciduous_free,
};

void biome_deciduous_register(void)
{
    static const cvar_desc vars[] = {
        { "deciduous.terrain_weight", "TerrainWeight (eq. 9): forest height map amplitude in voxels", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "64", 0, 512 },
        { "deciduous.terrain_scale", "TerrainScale (eq. 9): voxels per noise period of the rolling hills", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "128", 1, 4096 },
        { "deciduous.ground_height", "SolidGroundHeight (eq. 9): base height of the forest in voxels", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "16", 0, 1024 },
        { "deciduous.middle_soil_depth", "MiddleSoilDepth: grass and dirt layers above the stone", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "5", 1, 128 },
        { "deciduous.min_tree_height", "shortest oak trunk in voxels", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "6", 2, 48 },
        { "deciduous.max_tree_height", "tallest oak trunk in voxels", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "9", 2, 48 },
        { "deciduous.leaf_radius", "half-size of the oak's cube of leaves", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "2", 0, 8 },
        { "deciduous.initial_trees", "trees placed at random to start the forest growth model", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "16", 1, 100000 },
        { "deciduous.neighbour_radius", "biomass cells within this many voxels of a trunk lose the large amount", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "2", 0, 32 },
        { "deciduous.canopy_radius", "biomass cells within this radius (outside the neighbour one) lose the moderate amount", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "3.5", 0, 32 },
        { "deciduous.depletion_radius", "biomass cells within this radius (outside the canopy one) lose the light amount", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "6", 0, 32 },
        { "deciduous.neighbour_reduction", "large biomass reduction next to a new tree (biomass is 0..100)", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "70", 0, 100 },
        { "deciduous.canopy_reduction", "moderate biomass reduction under a new tree's canopy", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "35", 0, 100 },
        { "deciduous.depletion_reduction", "light biomass reduction in a new tree's depletion ring", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "12", 0, 100 },
        { "deciduous.seed_radius", "growth model: how far from its tree a seed can land, in voxels", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "8", 1, 64 },
        { "deciduous.seed_attempts", "growth model: seeds each tree casts (each roots with chance biomass/100)", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "12", 1, 64 },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
}
