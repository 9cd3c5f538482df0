/* biome_common: what the three seed-001 biomes (desert, taiga, deciduous)
 * share: the plan header (height map and the levels derived from it), the
 * flora list planned globally and binned by chunk column so each column
 * draws only its own voxels, and the threshold site picker of eq. 14/15. */
#ifndef STRATA_BIOME_COMMON_H
#define STRATA_BIOME_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "biomes.h"
#include "region_cache.h"
#include "terrain.h"
#include "voxel/world.h"

typedef enum biome_id { BIOME_DESERT, BIOME_TAIGA, BIOME_DECIDUOUS } biome_id;

/* Drawing parameters that are per biome rather than per plant. */
typedef struct flora_style {
    float fir_growth;   /* radius added per circular fir layer */
    int fir_bare;       /* trunk voxels above the ground left without leaves */
    int oak_leaf_radius; /* half-size of the oak's leaf cube */
} flora_style;

/* A list of plants. */
typedef struct flora_set {
    flora *items;
    int count, cap;
} flora_set;

/* Plants are planned per region of BIOME_REGION x BIOME_REGION columns,
 * aligned on multiples of it: a region plans the plants whose trunk lies in
 * it (docs/streaming.md gives each biome's margin), and a column draws the
 * plants of every region within the widest plant's reach. 256 keeps a
 * region's plan cheap (a few ms) and the deciduous margin small beside it. */
#define BIOME_REGION 256

typedef struct biome_plan biome_plan;
/* Plans into `out` the plants whose trunk lies in region [x0, x0 +
 * BIOME_REGION) x [z0, z0 + BIOME_REGION); biomass, when not NULL, takes
 * the region's BIOME_REGION^2 biomass cells (deciduous). */
typedef bool (*biome_plant_fn)(const biome_plan *b, int x0, int z0, flora_set *out, float *biomass);

/* First member of every biome plan, so the accessors in biomes.h work on
 * any of them. Everything but the region cache is constant once made. */
struct biome_plan {
    biome_id id;
    int sy;
    int64_t seed;
    terrain_heightmap_params hp; /* eq. 9 with the biome's cvars */
    noise hn;                    /* its noise (of seed), for biome_height */
    /* eq. 12: ground above mesa_floor rises by mesa_offset (desert; +inf elsewhere) */
    float mesa_floor;
    int mesa_offset;
    biome_levels lv;
    flora_style style;
    int reach;              /* widest horizontal reach of any plant it can plan */
    biome_plant_fn plant;
    bool keep_biomass;      /* regions keep their biomass cells (deciduous) */
    struct region_cache *regions;
    /* the window the plan was made for, and its plants once asked (biome_plan_flora) */
    int wx0, wz0, wsx, wsz;
    flora_set window;
    bool window_ready;
    /* The far rings' coarse forest (biome_surface): a canopy of cover_mat
     * cover_h voxels over ground of cover_on, where, with cover_zone, the
     * zone noise of eq. 14 passes (the only place sites are planned).
     * cover_mat 0: bare. */
    uint8_t cover_mat, cover_on;
    int cover_h;
    bool cover_zone;
    float zone_scale, zone_threshold;
    noise zone; /* noise_init(-seed), eq. 14's field */
};

/* Looks up a registered cvar's value; false with a message when it is missing. */
bool biome_param_f(const char *name, float *out, char *err, size_t errlen);
bool biome_param_i(const char *name, int *out, char *err, size_t errlen);

/* Reads PREFIX.terrain_weight/terrain_scale/ground_height and world.octaves
 * into b->hp, with lv.min_height/max_height the range eq. 9 can produce
 * (terrain_height_range), and remembers w's window for the accessors. */
bool biome_heightmap(biome_plan *b, const world *w, const char *prefix, int64_t seed, char *err, size_t errlen);
/* Starts planning plants per region with `plant` (after the levels are set). */
bool biome_plan_regions(biome_plan *b, biome_plant_fn plant, bool keep_biomass, char *err, size_t errlen);

/* Final surface heights (eq. 9, then the mesa raise of eq. 12) of the
 * global columns [x0, x0 + nx) x [z0, z0 + nz), row by row. */
typedef struct biome_area {
    int x0, z0, nx, nz;
    int *h;
} biome_area;
bool biome_area_make(const biome_plan *b, int x0, int z0, int nx, int nz, biome_area *a);
/* The same for one column (plans that need a few scattered ones). */
int biome_height(const biome_plan *b, int x, int z);
/* worldgen_kind.ground of every biome: the heights above (a muskeg or a
 * salt flat on top counts as ground). */
void biome_ground(void *plan, int x0, int z0, int n, int *out);
static inline int biome_area_h(const biome_area *a, int x, int z) { return a->h[(z - a->z0) * a->nx + (x - a->x0)]; }

/* Equations 14 and 15: columns whose zone noise and placement noise both pass
 * their thresholds. A threshold blob spans several neighbouring columns, so
 * only its peak (the strict maximum of the placement noise within `spacing`
 * columns) becomes a site: plants never share or touch a trunk column.
 * The test reads the noise `spacing` columns around each site, never a
 * plan, so a region decides its sites alone (its margin is `spacing`).
 * Returns the sites of region [x0, x0 + n) x [z0, z0 + n) as global (x, z)
 * pairs in scan order; *count gets how many. */
typedef struct biome_sites_params {
    float zone_scale, zone_threshold;
    float place_scale, place_threshold;
    int spacing;
} biome_sites_params;
int *biome_pick_sites(int64_t seed, const biome_sites_params *p, int x0, int z0, int n, int *count);
/* Equations 14 and 15's noise at column (x, z)'s centre: the field is
 * noise_init(-seed), scale the zone's or the placement's. */
float biome_site_noise(const noise *field, float scale, int x, int z);

/* Deterministic per-position random values (never a shared sequence). */
uint64_t biome_hash(int64_t seed, uint32_t salt, int x, int y, int z);
int biome_hash_range(int64_t seed, uint32_t salt, int x, int y, int z, int lo, int hi);
double biome_hash_unit(int64_t seed, uint32_t salt, int x, int y, int z);

bool flora_push(flora_set *s, const flora *f);
/* Horizontal reach of a plant from its trunk column. */
int flora_reach(const flora *f, const flora_style *st);
/* Draws the plants of every region within reach of column (cx, cz),
 * clipped to it. Trunks and cacti replace air and leaves; leaves only fill
 * air; so overlapping plants give the same voxels in any order and the
 * ground is never cut. */
void flora_draw_column(const biome_plan *b, world *w, int cx, int cz);
/* One plant's voxels inside column (cx, cz). */
void flora_draw_in_column(const flora *f, const flora_style *st, world *w, int cx, int cz);
void flora_free(flora_set *s);

/* A biome's layer rules: the material at height y of a column whose surface
 * is h. open_above says there is no solid voxel two above y (rules for
 * playas and muskegs); only y <= h is asked, everything above is air. */
typedef uint8_t (*biome_material_fn)(const biome_plan *b, int h, int y, bool open_above);

/* fill_column shared by the biomes: the layer rules for every column, judging
 * "two above" against the terrain; then the plants; then each voxel of
 * `feature` (salt flat, muskeg placeholder) in [lo, hi] that a plant now
 * covers two above is given the material the rules give without the
 * feature, so the check holds against the final column. */
void biome_fill_column(const biome_plan *b, world *w, int cx, int cz, biome_material_fn mat, uint8_t feature, int lo,
                       int hi);

/* worldgen_kind.surface of a biome with layer rules `mat`: heights as
 * biome_height, the top voxel's material as the rules give it (a muskeg's
 * placeholder as muskeg), and the plan's coarse forest (cover_*) on top. */
void biome_surface(const biome_plan *b, biome_material_fn mat, int x0, int z0, int step, int nx, int nz,
                   worldgen_point *out);
/* Sets the coarse forest of the far rings (the cover_* fields). */
void biome_set_cover(biome_plan *b, uint8_t mat, uint8_t on, int height, const biome_sites_params *zone);

/* Writes one column's materials (col[0 .. sy)) into the world's chunks. */
void biome_write_column(world *w, int x, int z, const uint8_t *col);

/* Per-biome registration of cvars (biomes_register calls all three). */
void biome_desert_register(void);
void biome_taiga_register(void);
void biome_deciduous_register(void);

/* Releases the common parts (region plans, the window's plants). */
void biome_plan_release(biome_plan *b);

#endif
