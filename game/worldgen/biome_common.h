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
#include "voxel/world.h"

typedef enum biome_id { BIOME_DESERT, BIOME_TAIGA, BIOME_DECIDUOUS } biome_id;

/* Drawing parameters that are per biome rather than per plant. */
typedef struct flora_style {
    float fir_growth;   /* radius added per circular fir layer */
    int fir_bare;       /* trunk voxels above the ground left without leaves */
    int oak_leaf_radius; /* half-size of the oak's leaf cube */
} flora_style;

/* Plants binned by chunk column (CSR): column c's plants are
 * items[bin_items[bin_start[c]] .. bin_items[bin_start[c + 1] - 1]]. */
typedef struct flora_set {
    flora *items;
    int count, cap;
    int *bin_start;
    int *bin_items;
} flora_set;

/* First member of every biome plan, so the accessors in biomes.h work on any of them. */
typedef struct biome_plan {
    biome_id id;
    int sx, sy, sz;
    int *heights; /* final surface height per column, z * sx + x (mesa offset included) */
    biome_levels lv;
    flora_set flora;
    flora_style style;
} biome_plan;

/* Looks up a registered cvar's value; false with a message when it is missing. */
bool biome_param_f(const char *name, float *out, char *err, size_t errlen);
bool biome_param_i(const char *name, int *out, char *err, size_t errlen);

/* Equation 9 for the whole world into b->heights, with min/max in b->lv.
 * Reads PREFIX.terrain_weight/terrain_scale/ground_height and world.octaves. */
bool biome_heightmap(biome_plan *b, const world *w, const char *prefix, int64_t seed, char *err, size_t errlen);

/* Equations 14 and 15: columns whose zone noise and placement noise both pass
 * their thresholds. A threshold blob spans several neighbouring columns, so
 * only its peak (the strict maximum of the placement noise within `spacing`
 * columns) becomes a site: plants never share or touch a trunk column.
 * Returns the column indices (z * sx + x) in scan order; *count gets how many. */
typedef struct biome_sites_params {
    float zone_scale, zone_threshold;
    float place_scale, place_threshold;
    int spacing;
} biome_sites_params;
int *biome_pick_sites(const biome_plan *b, int64_t seed, const biome_sites_params *p, int *count);

/* Deterministic per-position random values (never a shared sequence). */
uint64_t biome_hash(int64_t seed, uint32_t salt, int x, int y, int z);
int biome_hash_range(int64_t seed, uint32_t salt, int x, int y, int z, int lo, int hi);
double biome_hash_unit(int64_t seed, uint32_t salt, int x, int y, int z);

bool flora_push(flora_set *s, const flora *f);
/* Horizontal reach of a plant from its trunk column (for binning). */
int flora_reach(const flora *f, const flora_style *st);
/* Bins every plant into each chunk column its reach overlaps. */
bool flora_bin(flora_set *s, const flora_style *st, const world *w);
/* Draws the plants of column (cx, cz), clipped to it. Trunks and cacti
 * replace air and leaves; leaves only fill air; so overlapping plants give
 * the same voxels in any order and the ground is never cut. */
void flora_draw_column(const flora_set *s, const flora_style *st, world *w, int cx, int cz);
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

/* Writes one column's materials (col[0 .. sy)) into the world's chunks. */
void biome_write_column(world *w, int x, int z, const uint8_t *col);

/* Per-biome registration of cvars (biomes_register calls all three). */
void biome_desert_register(void);
void biome_taiga_register(void);
void biome_deciduous_register(void);

/* Releases the common parts (height map, flora). */
void biome_plan_release(biome_plan *b);

#endif
