/* biome_deciduous: seed 001's deciduous forest. Equation 9 rolling hills of
 * grass over dirt over stone, and oaks placed by the forest growth model: a
 * biomass map that each planted tree depletes around itself, grown outward
 * from a few initial trees by seed dispersal (docs/biomes.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "biome_common.h"
#include "ui/cvar.h"

typedef struct deciduous_params {
    int middle; /* dirt to this depth below the grass */
    int min_h, max_h;
    int initial, attempts;
    float r_neighbour, r_canopy, r_depletion, r_seed;
    float large, moderate, light;
} deciduous_params;

typedef struct deciduous_plan {
    biome_plan b;
    deciduous_params q;
    int margin; /* columns around a region its growth model also runs on */
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
    if (y > h - p->q.middle) return MAT_DIRT;
    return MAT_STONE;
}

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

/* The growth model's field: soil fertility 0..100 (-1 marks a trunk) over
 * the columns [x0, x0 + n) x [z0, z0 + n). */
typedef struct biomass_map {
    int x0, z0, n;
    float *v;
} biomass_map;

/* A tree at global cell (x, z): mark the trunk and deplete the soil around
 * it, each cell by the amount of the innermost ring it lies in. Values stop
 * at 0 so that -1 always means "trunk". */
static void deciduous_deplete(biomass_map *m, const deciduous_params *q, int x, int z)
{
    int n = m->n, lx = x - m->x0, lz = z - m->z0;
    m->v[lz * n + lx] = -1.f;
    int r = (int)floorf(q->r_depletion);
    float n2 = q->r_neighbour * q->r_neighbour, c2 = q->r_canopy * q->r_canopy, d2 = q->r_depletion * q->r_depletion;
    for (int dz = -r; dz <= r; dz++) {
        int zz = lz + dz;
        if (zz < 0 || zz >= n) continue;
        for (int dx = -r; dx <= r; dx++) {
            int xx = lx + dx;
            float dd = (float)(dx * dx + dz * dz);
            if (xx < 0 || xx >= n || dd > d2) continue;
            float *v = &m->v[zz * n + xx];
            if (*v < 0.f) continue;
            float cut = dd <= n2 ? q->large : dd <= c2 ? q->moderate : q->light;
            *v = *v > cut ? *v - cut : 0.f;
        }
    }
}

/* The growth loop for one region (biome_plant_fn), run on the region and
 * `margin` columns around it: the region's initial trees go into a queue;
 * every tree in queue order casts seed_attempts seeds to random cells
 * within seed_radius, and a seed takes root with probability biomass /
 * 100, becoming a tree at the end of the queue. Depleted soil makes
 * germination unlikely near trees without forbidding it. The queue ends
 * because each tree takes a cell for good. Only the trees whose trunk lies
 * in the region are kept: each tree has one region that plans it, so it is
 * the same tree from every column; the margin's trees stand in for the
 * neighbours' so the soil near a border is depleted as the neighbours'
 * trees would (docs/streaming.md). */
static bool deciduous_grow(const biome_plan *b, int x0, int z0, flora_set *out, float *biomass)
{
    const deciduous_plan *p = (const deciduous_plan *)b;
    const deciduous_params *q = &p->q;
    int64_t seed = b->seed;
    int M = p->margin, n = BIOME_REGION + 2 * M, cells = n * n;
    biomass_map m = { x0 - M, z0 - M, n, malloc(sizeof(float) * (size_t)cells) };
    int *queue = malloc(sizeof(int) * (size_t)cells);
    if (!m.v || !queue) {
        free(m.v);
        free(queue);
        return false;
    }
    for (int z = 0; z < n; z++)
        for (int x = 0; x < n; x++) m.v[z * n + x] = (float)(100.0 * biome_hash_unit(seed, SALT_BIOMASS, m.x0 + x, 0, m.z0 + z));
    int nq = 0;
    int rx = x0 / BIOME_REGION, rz = z0 / BIOME_REGION; /* exact: a region starts at a multiple */
    for (int i = 0; i < q->initial; i++) {
        /* initial_trees per region, inside it */
        uint64_t c = biome_hash(seed, SALT_INITIAL, i, rx, rz) % (uint64_t)(BIOME_REGION * BIOME_REGION);
        int x = x0 + (int)(c % BIOME_REGION), z = z0 + (int)(c / BIOME_REGION);
        if (m.v[(z - m.z0) * n + (x - m.x0)] < 0.f) continue; /* two initial trees drew the same cell */
        deciduous_deplete(&m, q, x, z);
        queue[nq++] = (z - m.z0) * n + (x - m.x0);
    }
    int r = (int)floorf(q->r_seed);
    float r2 = q->r_seed * q->r_seed;
    for (int i = 0; i < nq; i++) {
        int tx = m.x0 + queue[i] % n, tz = m.z0 + queue[i] / n;
        for (int k = 0; k < q->attempts; k++) {
            int dx = biome_hash_range(seed, SALT_DISPERSE_X, tx, k, tz, -r, r);
            int dz = biome_hash_range(seed, SALT_DISPERSE_Z, tx, k, tz, -r, r);
            int lx = tx + dx - m.x0, lz = tz + dz - m.z0;
            if ((float)(dx * dx + dz * dz) > r2 || lx < 0 || lz < 0 || lx >= n || lz >= n) continue;
            float v = m.v[lz * n + lx];
            if (v <= 0.f || 100.0 * biome_hash_unit(seed, SALT_GERMINATE, tx, k, tz) >= (double)v) continue;
            deciduous_deplete(&m, q, tx + dx, tz + dz);
            queue[nq++] = lz * n + lx;
        }
    }
    /* plants in queue order (the order the forest grew), the region's own only */
    bool ok = true;
    for (int i = 0; i < nq && ok; i++) {
        int x = m.x0 + queue[i] % n, z = m.z0 + queue[i] / n;
        if (x < x0 || z < z0 || x >= x0 + BIOME_REGION || z >= z0 + BIOME_REGION) continue;
        int h = biome_height(b, x, z);
        if (h + 1 >= b->sy) continue;
        flora f = { .x = x, .y = h + 1, .z = z, .kind = FLORA_OAK };
        f.height = (uint8_t)biome_hash_range(seed, SALT_HEIGHT, x, 0, z, q->min_h, q->max_h);
        ok = flora_push(out, &f);
    }
    for (int z = 0; z < BIOME_REGION && biomass; z++)
        for (int x = 0; x < BIOME_REGION; x++) biomass[z * BIOME_REGION + x] = m.v[(z + M) * n + x + M];
    free(queue);
    free(m.v);
    return ok;
}

static void deciduous_free(void *plan)
{
    deciduous_plan *p = plan;
    if (!p) return;
    biome_plan_release(&p->b);
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
    p->q = q;
    p->b.reach = st.oak_leaf_radius;
    /* a neighbour's tree within seed_radius can seed into the region, and
     * its depletion reaches depletion_radius further: run the model that
     * far around the region so those trees are there to deplete the soil */
    p->margin = (int)ceilf(q.r_seed + q.r_depletion);
    if (!biome_heightmap(&p->b, w, "deciduous", seed, err, n) || !biome_plan_regions(&p->b, deciduous_grow, true, err, n)) {
        if (!err[0]) snprintf(err, n, "out of memory");
        deciduous_free(p);
        return NULL;
    }
    /* the growth model fills the forest: oak crowns over all of its grass */
    biome_set_cover(&p->b, MAT_OAK_LEAVES, MAT_GRASS, (q.min_h + q.max_h) / 2 + st.oak_leaf_radius, NULL);
    return p;
}

static void deciduous_fill_column(void *plan, world *w, int cx, int cz)
{
    const deciduous_plan *p = plan;
    biome_fill_column(&p->b, w, cx, cz, deciduous_material, MAT_AIR, 1, 0);
}

static void deciduous_surface(void *plan, int x0, int z0, int step, int nx, int nz, worldgen_point *out)
{
    biome_surface(plan, deciduous_material, x0, z0, step, nx, nz, out);
}

static const char *const k_own_cvars[] = { "deciduous.", NULL };

const worldgen_kind biome_deciduous = {
    .own_cvars = k_own_cvars,
    .name = "deciduous",
    .help = "seed 001 deciduous forest: rolling hills and oaks placed by the forest growth model",
    .plan = deciduous_plan_make,
    .fill_column = deciduous_fill_column,
    .free_plan = deciduous_free,
    .ground = biome_ground,
    .surface = deciduous_surface,
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
        { "deciduous.initial_trees", "trees placed at random in each 256 x 256 region to start the forest growth model", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "16", 1, 100000 },
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
