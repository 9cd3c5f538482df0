/* biome_desert: seed 001's desert. Equation 9 dunes, mesas (eq. 10 and 12),
 * playas (eq. 11), the layer rules of figure 13 in the paper's order, and
 * pillar, barrel and saguaro cacti clumped by the thresholds of eq. 14/15. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "biome_common.h"
#include "ui/cvar.h"


enum { SALT_KIND = 1, SALT_HEIGHT, SALT_ARMS, SALT_DIRS, SALT_ARM_AT, SALT_ARM_LEN };

typedef struct desert_params {
    int upper, middle;
    float mesa_chance, playa_chance;
    int mesa_offset, mesa_bleed;
    biome_sites_params sites;
    int min_h, max_h;
    float pillar, barrel, saguaro;
    int min_arms, max_arms;
} desert_params;

typedef struct desert_plan {
    biome_plan b;
    desert_params q; /* upper, middle: soil depths below the surface: sand, then sandstone */
} desert_plan;

/* Figure 13, rule by rule in the paper's order. */
static uint8_t desert_material(const biome_plan *b, int h, int y, bool open_above)
{
    const desert_plan *p = (const desert_plan *)b;
    if (y == 0) return MAT_BEDROCK;
    if (y > h) return MAT_AIR;
    if (y >= b->lv.min_mesa) return MAT_MESA;
    if (open_above && y >= b->lv.playa_lo && y <= b->lv.playa_hi) return MAT_SALT_FLAT;
    if (y > h - p->q.upper) return MAT_SAND;
    if (y > h - p->q.middle) return MAT_SANDSTONE;
    return MAT_STONE;
}

static bool desert_read(desert_params *q, char *err, size_t n)
{
    return biome_param_i("desert.upper_soil_depth", &q->upper, err, n) &&
           biome_param_i("desert.middle_soil_depth", &q->middle, err, n) &&
           biome_param_f("desert.mesa_chance", &q->mesa_chance, err, n) &&
           biome_param_i("desert.mesa_height_offset", &q->mesa_offset, err, n) &&
           biome_param_i("desert.mesa_bleed_off", &q->mesa_bleed, err, n) &&
           biome_param_f("desert.playa_chance", &q->playa_chance, err, n) &&
           biome_param_f("desert.zone_scale", &q->sites.zone_scale, err, n) &&
           biome_param_f("desert.zone_threshold", &q->sites.zone_threshold, err, n) &&
           biome_param_f("desert.placement_scale", &q->sites.place_scale, err, n) &&
           biome_param_f("desert.placement_threshold", &q->sites.place_threshold, err, n) &&
           biome_param_i("desert.min_cactus_height", &q->min_h, err, n) &&
           biome_param_i("desert.max_cactus_height", &q->max_h, err, n) &&
           biome_param_f("desert.pillar_chance", &q->pillar, err, n) &&
           biome_param_f("desert.barrel_chance", &q->barrel, err, n) &&
           biome_param_f("desert.saguaro_chance", &q->saguaro, err, n) &&
           biome_param_i("desert.saguaro_min_arms", &q->min_arms, err, n) &&
           biome_param_i("desert.saguaro_max_arms", &q->max_arms, err, n);
}

/* Combinations that each cvar's range cannot catch on its own. */
static bool desert_check(const desert_params *q, char *err, size_t n)
{
    if (q->upper > q->middle) {
        snprintf(err, n, "desert.upper_soil_depth (%d) is deeper than desert.middle_soil_depth (%d): sand must lie above sandstone",
                 q->upper, q->middle);
        return false;
    }
    if (q->min_h > q->max_h) {
        snprintf(err, n, "desert.min_cactus_height (%d) is above desert.max_cactus_height (%d)", q->min_h, q->max_h);
        return false;
    }
    float sum = q->pillar + q->barrel + q->saguaro;
    if (sum > 1.0001f) {
        snprintf(err, n, "desert cactus chances sum to %.3g (pillar %.3g + barrel %.3g + saguaro %.3g); they must not exceed 1",
                 (double)sum, (double)q->pillar, (double)q->barrel, (double)q->saguaro);
        return false;
    }
    if (q->min_arms > q->max_arms) {
        snprintf(err, n, "desert.saguaro_min_arms (%d) is above desert.saguaro_max_arms (%d)", q->min_arms, q->max_arms);
        return false;
    }
    if (q->saguaro > 0.f && q->max_h < 4) {
        snprintf(err, n, "desert.max_cactus_height (%d) leaves saguaros no room for arms: it must be at least 4 "
                 "while desert.saguaro_chance > 0", q->max_h);
        return false;
    }
    return true;
}

/* Equations 10 and 12 (mesas) and 11 (playas) on the range eq. 9 can
 * produce (biome_heightmap), so they are constants of the settings. */
static bool desert_levels(desert_plan *p, const desert_params *q, char *err, size_t n)
{
    biome_plan *b = &p->b;
    biome_levels *lv = &b->lv;
    if (q->mesa_chance > 0.f) {
        float max_h = (float)lv->max_height;
        float min_mesa = max_h - max_h * q->mesa_chance; /* eq. 10 */
        b->mesa_floor = min_mesa; /* eq. 12: biome_area_make raises everything above it */
        b->mesa_offset = q->mesa_offset;
        /* then lower the floor by the bleed-off so the mesas stand on mesa rock */
        lv->min_mesa = (int)ceilf(min_mesa - (float)q->mesa_bleed);
        if (lv->min_mesa <= lv->min_height) {
            snprintf(err, n, "desert.mesa_bleed_off (%d) lowers the mesa floor to y=%d, at or below the lowest ground "
                     "(y=%d): the whole desert would be mesa", q->mesa_bleed, lv->min_mesa, lv->min_height);
            return false;
        }
    }
    if (q->playa_chance > 0.f) {
        /* Eq. 11 as printed (MinHeight - MinHeight * PlayaChance) puts the upper bound below the
         * lower one, and the chance would then change nothing; we mirror it about MinHeight
         * so the playas fill the lowest PlayaChance fraction above the floor, as eq. 10 does
         * for the mesas at the top. */
        float min_h = (float)lv->min_height;
        lv->playa_lo = lv->min_height;
        /* Where this range reaches the mesa floor (a small world with little relief), the mesa
         * rule comes first, as in the paper, so the overlap is mesa rather than an error. */
        lv->playa_hi = (int)floorf(min_h + min_h * q->playa_chance);
    }
    return true;
}

/* The cacti of one region (biome_plant_fn): eq. 14/15 sites, then a kind
 * each. Reads the heights of the sites and their neighbours (saguaro arms
 * look at them). */
static bool desert_plant(const biome_plan *b, int x0, int z0, flora_set *out, float *biomass)
{
    (void)biomass;
    const desert_plan *p = (const desert_plan *)b;
    const desert_params *q = &p->q;
    int64_t seed = b->seed;
    int count = 0;
    int *sites = biome_pick_sites(seed, &q->sites, x0, z0, BIOME_REGION, &count);
    if (!sites) return false;
    bool ok = true;
    for (int s = 0; s < count && ok; s++) {
        int x = sites[2 * s], z = sites[2 * s + 1], h = biome_height(b, x, z);
        /* cacti root in sand: not on mesa rock, not on the salt crust */
        if (h + 1 >= b->sy || desert_material(b, h, h, true) != MAT_SAND) continue;
        double u = biome_hash_unit(seed, SALT_KIND, x, 0, z);
        flora f = { .x = x, .y = h + 1, .z = z };
        if (u < q->pillar) f.kind = FLORA_PILLAR;
        else if (u < q->pillar + q->barrel) f.kind = FLORA_BARREL;
        else if (u < q->pillar + q->barrel + q->saguaro) f.kind = FLORA_SAGUARO;
        else continue; /* chances below 1 in sum leave some sites bare */
        int lo = q->min_h;
        if (f.kind == FLORA_SAGUARO && lo < 4) lo = 4;
        f.height = (uint8_t)biome_hash_range(seed, SALT_HEIGHT, x, 0, z, lo, q->max_h);
        if (f.kind == FLORA_SAGUARO) {
            /* an arm may only leave towards ground no higher than ours, so it never sinks into a dune */
            int order[4] = { 0, 1, 2, 3 };
            for (int i = 3; i > 0; i--) {
                int j = biome_hash_range(seed, SALT_DIRS, x, i, z, 0, i);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            int want = biome_hash_range(seed, SALT_ARMS, x, 0, z, q->min_arms, q->max_arms);
            for (int i = 0; i < 4 && f.arms < want; i++) {
                int nx = x + flora_cardinal[order[i]][0], nz = z + flora_cardinal[order[i]][1];
                if (biome_height(b, nx, nz) > h) continue;
                int k = f.arms++;
                f.arm_dir[k] = (uint8_t)order[i];
                f.arm_at[k] = (uint8_t)biome_hash_range(seed, SALT_ARM_AT, x, k, z, 1, f.height - 3);
                f.arm_len[k] = (uint8_t)biome_hash_range(seed, SALT_ARM_LEN, x, k, z, 1, f.height - 2 - f.arm_at[k]);
            }
            if (f.arms < q->min_arms) { /* hemmed in by higher ground: grows as a plain pillar */
                f.kind = FLORA_PILLAR;
                f.arms = 0;
            }
        }
        ok = flora_push(out, &f);
    }
    free(sites);
    return ok;
}

static void desert_free(void *plan)
{
    desert_plan *p = plan;
    if (!p) return;
    biome_plan_release(&p->b);
    free(p);
}

static void *desert_plan_make(const world *w, int64_t seed, char *err, size_t n)
{
    desert_params q = { .sites.spacing = 2 };
    if (n) err[0] = '\0';
    if (!desert_read(&q, err, n) || !desert_check(&q, err, n)) return NULL;
    desert_plan *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    p->b.id = BIOME_DESERT;
    p->q = q;
    p->b.reach = 1; /* a barrel's plus, a saguaro's arms */
    if (!biome_heightmap(&p->b, w, "desert", seed, err, n) || !desert_levels(p, &q, err, n) ||
        !biome_plan_regions(&p->b, desert_plant, false, err, n)) {
        if (!err[0]) snprintf(err, n, "out of memory");
        desert_free(p);
        return NULL;
    }
    return p;
}

static void desert_fill_column(void *plan, world *w, int cx, int cz)
{
    const desert_plan *p = plan;
    biome_fill_column(&p->b, w, cx, cz, desert_material, MAT_SALT_FLAT, p->b.lv.playa_lo, p->b.lv.playa_hi);
}

/* Cacti are too sparse to show from afar: dunes, mesas and playas alone. */
static void desert_surface(void *plan, int x0, int z0, int step, int nx, int nz, worldgen_point *out)
{
    biome_surface(plan, desert_material, x0, z0, step, nx, nz, out);
}

static const char *const k_own_cvars[] = { "desert.", NULL };

const worldgen_kind biome_desert = {
    .own_cvars = k_own_cvars,
    .name = "desert",
    .help = "seed 001 desert: dunes, mesas, playas and clumped cacti",
    .plan = desert_plan_make,
    .fill_column = desert_fill_column,
    .free_plan = desert_free,
    .ground = biome_ground,
    .surface = desert_surface,
};

void biome_desert_register(void)
{
    static const cvar_desc vars[] = {
        { "desert.terrain_weight", "TerrainWeight (eq. 9): desert height map amplitude in voxels", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "48", 0, 512 },
        { "desert.terrain_scale", "TerrainScale (eq. 9): voxels per noise period of the dunes", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "160", 1, 4096 },
        { "desert.ground_height", "SolidGroundHeight (eq. 9): base height of the desert in voxels", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "24", 0, 1024 },
        { "desert.upper_soil_depth", "UpperSoilDepth: sand layers under the surface", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "4", 1, 64 },
        { "desert.middle_soil_depth", "MiddleSoilDepth: depth where sandstone gives way to stone", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "14", 1, 128 },
        { "desert.mesa_chance", "MesaChance (eq. 10): top fraction of the heights eq. 9 can produce that becomes mesa (0 = none)", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.22", 0, 1 },
        { "desert.mesa_height_offset", "MesaHeightOffset (eq. 12): voxels added to ground above the mesa floor", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "18", 0, 128 },
        { "desert.mesa_bleed_off", "MesaBleedOff (eq. 12): voxels the mesa floor is lowered to ground the mesas", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "3", 0, 128 },
        { "desert.playa_chance", "PlayaChance (eq. 11): fraction of MinHeight (the lowest height eq. 9 can produce) above it that is salt flat (0 = none)", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.3", 0, 1 },
        { "desert.zone_scale", "treeZoneScale (eq. 14): voxels per period of the cactus zone noise", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "48", 1, 4096 },
        { "desert.zone_threshold", "treeZoneThreshold (eq. 14): zone noise must exceed this for cacti", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.6", 0, 1 },
        { "desert.placement_scale", "treePlacementScale (eq. 15): voxels per period of the placement noise", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "3", 0.5, 256 },
        { "desert.placement_threshold", "treePlacementThreshold (eq. 15): placement noise must exceed this", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.6", 0, 1 },
        { "desert.min_cactus_height", "shortest pillar and saguaro trunk in voxels", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "3", 2, 32 },
        { "desert.max_cactus_height", "tallest pillar and saguaro trunk in voxels", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "7", 2, 32 },
        { "desert.pillar_chance", "chance a cactus site grows a pillar cactus", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.4", 0, 1 },
        { "desert.barrel_chance", "chance a cactus site grows a barrel cactus", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.25", 0, 1 },
        { "desert.saguaro_chance", "chance a cactus site grows a saguaro (pillar plus arms)", CVAR_FLOAT, CVAR_ARCHIVE | CVAR_REGEN, "0.35", 0, 1 },
        { "desert.saguaro_min_arms", "fewest arms on a saguaro", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "1", 1, 4 },
        { "desert.saguaro_max_arms", "most arms on a saguaro", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "4", 1, 4 },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
}
