/* biome_taiga: seed 001's boreal forest. Equation 9 hills with a tree line
 * of cracked stone (eq. 16), muskegs (eq. 17) laid as Structure Placeholder
 * and turned into translucent Muskeg only after every opaque voxel, and fir
 * trees spaced by the thresholds of eq. 14/15. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "biome_common.h"
#include "ui/cvar.h"

typedef struct taiga_params {
    int upper, middle; /* taiga dirt to `upper` below the surface, permafrost to `middle` */
    float tree_line, muskeg_chance;
    biome_sites_params sites;
    int min_h, max_h;
} taiga_params;

typedef struct taiga_plan {
    biome_plan b;
    taiga_params q;
} taiga_plan;

enum { SALT_HEIGHT = 1 };

/* Figure 18, rule by rule in the paper's order; the grass tops the dirt. */
static uint8_t taiga_material(const biome_plan *b, int h, int y, bool open_above)
{
    const taiga_plan *p = (const taiga_plan *)b;
    if (y == 0) return MAT_BEDROCK;
    if (y > h) return MAT_AIR;
    if (y >= b->lv.tree_line) return MAT_CRACKED_STONE;
    if (open_above && y >= b->lv.muskeg_lo && y <= b->lv.muskeg_hi) return MAT_PLACEHOLDER;
    if (y == h) return MAT_TAIGA_GRASS;
    if (y > h - p->q.upper) return MAT_TAIGA_DIRT;
    if (y > h - p->q.middle) return MAT_PERMAFROST;
    return MAT_STONE;
}

static bool taiga_read(taiga_params *q, flora_style *st, char *err, size_t n)
{
    return biome_param_i("taiga.upper_soil_depth", &q->upper, err, n) &&
           biome_param_i("taiga.middle_soil_depth", &q->middle, err, n) &&
           biome_param_f("taiga.tree_line", &q->tree_line, err, n) &&
           biome_param_f("taiga.muskeg_chance", &q->muskeg_chance, err, n) &&
           biome_param_f("taiga.zone_scale", &q->sites.zone_scale, err, n) &&
           biome_param_f("taiga.zone_threshold", &q->sites.zone_threshold, err, n) &&
           biome_param_f("taiga.placement_scale", &q->sites.place_scale, err, n) &&
           biome_param_f("taiga.placement_threshold", &q->sites.place_threshold, err, n) &&
           biome_param_i("taiga.min_tree_height", &q->min_h, err, n) &&
           biome_param_i("taiga.max_tree_height", &q->max_h, err, n) &&
           biome_param_f("taiga.fir_growth", &st->fir_growth, err, n) &&
           biome_param_i("taiga.fir_bare_trunk", &st->fir_bare, err, n);
}

static bool taiga_check(const taiga_params *q, const flora_style *st, char *err, size_t n)
{
    if (q->upper > q->middle) {
        snprintf(err, n, "taiga.upper_soil_depth (%d) is deeper than taiga.middle_soil_depth (%d): dirt must lie above permafrost",
                 q->upper, q->middle);
        return false;
    }
    if (q->min_h > q->max_h) {
        snprintf(err, n, "taiga.min_tree_height (%d) is above taiga.max_tree_height (%d)", q->min_h, q->max_h);
        return false;
    }
    if (st->fir_bare >= q->min_h) {
        snprintf(err, n, "taiga.fir_bare_trunk (%d) must be below taiga.min_tree_height (%d), or short firs grow no leaves",
                 st->fir_bare, q->min_h);
        return false;
    }
    return true;
}

/* Equations 16 and 17 on the range eq. 9 can produce (biome_heightmap). */
static void taiga_levels(taiga_plan *p, const taiga_params *q)
{
    biome_levels *lv = &p->b.lv;
    if (q->tree_line > 0.f) {
        float max_h = (float)lv->max_height;
        lv->tree_line = (int)ceilf(max_h - max_h * q->tree_line); /* eq. 16 */
    }
    if (q->muskeg_chance > 0.f) {
        /* Eq. 17 as printed has the upper bound below the lower one (as eq. 11 does); mirrored
         * about MinHeight, so muskegs fill the lowest MuskegChance fraction above the floor. */
        float min_h = (float)lv->min_height;
        lv->muskeg_lo = lv->min_height;
        /* above the tree line the cracked-stone rule comes first, so an overlap is harmless */
        lv->muskeg_hi = (int)floorf(min_h + min_h * q->muskeg_chance);
    }
}

/* The firs of one region (biome_plant_fn): eq. 14/15 sites on taiga grass. */
static bool taiga_plant(const biome_plan *b, int x0, int z0, flora_set *out, float *biomass)
{
    (void)biomass;
    const taiga_params *q = &((const taiga_plan *)b)->q;
    int count = 0;
    int *sites = biome_pick_sites(b->seed, &q->sites, x0, z0, BIOME_REGION, &count);
    bool ok = sites != NULL;
    for (int s = 0; s < count && ok; s++) {
        int x = sites[2 * s], z = sites[2 * s + 1], h = biome_height(b, x, z);
        /* firs root in taiga grass: never above the tree line, never in a muskeg */
        if (h + 1 >= b->sy || taiga_material(b, h, h, true) != MAT_TAIGA_GRASS) continue;
        flora f = { .x = x, .y = h + 1, .z = z, .kind = FLORA_FIR };
        f.height = (uint8_t)biome_hash_range(b->seed, SALT_HEIGHT, x, 0, z, q->min_h, q->max_h);
        ok = flora_push(out, &f);
    }
    free(sites);
    return ok;
}

static void taiga_free(void *plan)
{
    taiga_plan *p = plan;
    if (!p) return;
    biome_plan_release(&p->b);
    free(p);
}

static void *taiga_plan_make(const world *w, int64_t seed, char *err, size_t n)
{
    taiga_params q = { .sites.spacing = 2 };
    flora_style st = { 0 };
    if (n) err[0] = '\0';
    if (!taiga_read(&q, &st, err, n) || !taiga_check(&q, &st, err, n)) return NULL;
    taiga_plan *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    p->b.id = BIOME_TAIGA;
    p->b.style = st;
    p->q = q;
    flora tallest = { .kind = FLORA_FIR, .height = (uint8_t)q.max_h };
    p->b.reach = flora_reach(&tallest, &st); /* the widest fir: reach grows with height */
    bool ok = biome_heightmap(&p->b, w, "taiga", seed, err, n);
    if (ok) taiga_levels(p, &q);
    /* firs' crowns, about half their height above the ground on average */
    if (ok) biome_set_cover(&p->b, MAT_FIR_LEAVES, MAT_TAIGA_GRASS, (q.min_h + q.max_h) / 2, &q.sites);
    if (!ok || !biome_plan_regions(&p->b, taiga_plant, false, err, n)) {
        if (!err[0]) snprintf(err, n, "out of memory");
        taiga_free(p);
        return NULL;
    }
    return p;
}

static void taiga_fill_column(void *plan, world *w, int cx, int cz)
{
    const taiga_plan *p = plan;
    biome_fill_column(&p->b, w, cx, cz, taiga_material, MAT_PLACEHOLDER, p->b.lv.muskeg_lo, p->b.lv.muskeg_hi);
}

/* The paper's second pass: only once every opaque voxel (trees included) is
 * in place do the placeholders become translucent muskeg. A column's
 * placeholders depend on that column alone, so the pass runs per column
 * after its fill. Placeholders only occur within the muskeg bounds, so
 * only those y rows are scanned. */
static void taiga_finish_column(void *plan, world *w, int cx, int cz)
{
    const taiga_plan *p = plan;
    int lo = p->b.lv.muskeg_lo, hi = p->b.lv.muskeg_hi;
    if (lo < 1) lo = 1;
    if (hi > w->sy - 1) hi = w->sy - 1;
    for (int y = lo; y <= hi; y++) {
        uint8_t *v = world_chunk(w, cx, y >> CHUNK_BITS, cz)->vox + (y & CHUNK_MASK) * CHUNK_AREA;
        for (int i = 0; i < CHUNK_AREA; i++)
            if (v[i] == MAT_PLACEHOLDER) v[i] = MAT_MUSKEG;
    }
}

static void taiga_surface(void *plan, int x0, int z0, int step, int nx, int nz, worldgen_point *out)
{
    biome_surface(plan, taiga_material, x0, z0, step, nx, nz, out);
}

static const char *const k_own_cvars[] = { "taiga.", NULL };

const worldgen_kind biome_taiga = {
    .own_cvars = k_own_cvars,
    .name = "taiga",
    .help = "seed 001 boreal forest: fir trees, a tree line of cracked stone, muskegs",
    .plan = taiga_plan_make,
    .fill_column = taiga_fill_column,
    .finish_column = taiga_finish_column,
    .free_plan = taiga_free,
    .ground = biome_ground,
    .surface = taiga_surface,
};

void biome_taiga_register(void)
{
    static const cvar_desc vars[] = {
        { "taiga.terrain_weight", "TerrainWeight (eq. 9): taiga height map amplitude in voxels", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "64", 0, 512 },
        { "taiga.terrain_scale", "TerrainScale (eq. 9): voxels per noise period of the hills", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "192", 1, 4096 },
        { "taiga.ground_height", "SolidGroundHeight (eq. 9): base height of the taiga in voxels", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "24", 0, 1024 },
        { "taiga.upper_soil_depth", "UpperSoilDepth: grass and taiga dirt layers under the surface", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "2", 1, 64 },
        { "taiga.middle_soil_depth", "MiddleSoilDepth: depth where permafrost gives way to stone", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "16", 1, 128 },
        { "taiga.tree_line", "TreeLinePercentage (eq. 16): top fraction of the heights eq. 9 can produce above the tree line (0 = none)", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.25", 0, 1 },
        { "taiga.muskeg_chance", "MuskegChance (eq. 17): fraction of MinHeight (the lowest height eq. 9 can produce) above it that is muskeg (0 = none)", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.45", 0, 1 },
        { "taiga.zone_scale", "treeZoneScale (eq. 14): voxels per period of the fir zone noise", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "96", 1, 4096 },
        { "taiga.zone_threshold", "treeZoneThreshold (eq. 14): zone noise must exceed this for firs", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.3", 0, 1 },
        { "taiga.placement_scale", "treePlacementScale (eq. 15): voxels per period of the placement noise", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "6", 0.5, 256 },
        { "taiga.placement_threshold", "treePlacementThreshold (eq. 15): placement noise must exceed this", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.55", 0, 1 },
        { "taiga.min_tree_height", "shortest fir trunk in voxels", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "8", 2, 48 },
        { "taiga.max_tree_height", "tallest fir trunk in voxels", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "15", 2, 48 },
        { "taiga.fir_growth", "growth value: radius added to each circular fir leaf layer going down", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.5", 0, 4 },
        { "taiga.fir_bare_trunk", "fir trunk voxels above the ground left without leaves", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "2", 0, 16 },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
}
