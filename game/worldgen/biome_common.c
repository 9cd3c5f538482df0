#include "biome_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/noise.h"
#include "core/rng.h"
#include "terrain.h"
#include "ui/cvar.h"

bool biome_param_f(const char *name, float *out, char *err, size_t errlen)
{
    const cvar *c = cvar_find(name);
    if (!c) {
        /* a missing cvar means biomes_register was not called: say so rather than guess a value */
        snprintf(err, errlen, "cvar %s is not registered (biomes_register not called?)", name);
        return false;
    }
    *out = c->f;
    return true;
}

bool biome_param_i(const char *name, int *out, char *err, size_t errlen)
{
    const cvar *c = cvar_find(name);
    if (!c) {
        snprintf(err, errlen, "cvar %s is not registered (biomes_register not called?)", name);
        return false;
    }
    *out = c->i;
    return true;
}

bool biome_heightmap(biome_plan *b, const world *w, const char *prefix, int64_t seed, char *err, size_t errlen)
{
    char name[64];
    terrain_heightmap_params p = { .octaves = cvar_int("world.octaves", 3) };
    snprintf(name, sizeof name, "%s.terrain_weight", prefix);
    if (!biome_param_f(name, &p.weight, err, errlen)) return false;
    snprintf(name, sizeof name, "%s.terrain_scale", prefix);
    if (!biome_param_f(name, &p.scale, err, errlen)) return false;
    snprintf(name, sizeof name, "%s.ground_height", prefix);
    if (!biome_param_f(name, &p.ground, err, errlen)) return false;
    if (p.ground >= (float)(w->sy - 1)) {
        snprintf(err, errlen, "%s.ground_height %g is at or above the top of the world (%d): nothing would be left to see",
                 prefix, (double)p.ground, w->sy - 1);
        return false;
    }
    b->hp = p;
    b->seed = seed;
    noise_init(&b->hn, seed);
    b->sy = w->sy;
    b->wx0 = world_x0(w);
    b->wz0 = world_z0(w);
    b->wsx = w->sx;
    b->wsz = w->sz;
    b->mesa_floor = INFINITY;
    terrain_height_range(&p, w->sy, &b->lv.min_height, &b->lv.max_height);
    /* levels a biome does not have stay empty ranges that no y can satisfy */
    b->lv.min_mesa = INT32_MAX;
    b->lv.playa_lo = b->lv.muskeg_lo = 1;
    b->lv.playa_hi = b->lv.muskeg_hi = 0;
    b->lv.tree_line = INT32_MAX;
    return true;
}

/* Eq. 9, then eq. 12: everything above the mesa floor rises. */
int biome_height(const biome_plan *b, int x, int z)
{
    int h = terrain_height_at(&b->hp, &b->hn, x, z, b->sy);
    if ((float)h > b->mesa_floor) h = h + b->mesa_offset > b->sy - 1 ? b->sy - 1 : h + b->mesa_offset;
    return h;
}

static void biome_heights(const biome_plan *b, int x0, int z0, int nx, int nz, int *out)
{
    for (int z = 0; z < nz; z++)
        for (int x = 0; x < nx; x++) out[z * nx + x] = biome_height(b, x0 + x, z0 + z);
}

bool biome_area_make(const biome_plan *b, int x0, int z0, int nx, int nz, biome_area *a)
{
    *a = (biome_area){ x0, z0, nx, nz, malloc(sizeof(int) * (size_t)nx * (size_t)nz) };
    if (!a->h) return false;
    biome_heights(b, x0, z0, nx, nz, a->h);
    return true;
}

void biome_ground(void *plan, int x0, int z0, int n, int *out) { biome_heights(plan, x0, z0, n, n, out); }

/* A region's plan: its plants, and (deciduous) its biomass cells. */
typedef struct biome_region {
    flora_set flora;
    float *biomass;
} biome_region;

static void *region_make(void *user, void *arg, int rx, int rz)
{
    (void)arg;
    const biome_plan *b = user;
    biome_region *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    if (b->keep_biomass) r->biomass = malloc(sizeof(float) * BIOME_REGION * BIOME_REGION);
    if ((b->keep_biomass && !r->biomass) || !b->plant(b, rx * BIOME_REGION, rz * BIOME_REGION, &r->flora, r->biomass)) {
        flora_free(&r->flora);
        free(r->biomass);
        free(r);
        return NULL;
    }
    return r;
}

static void region_free(void *user, void *value)
{
    (void)user;
    biome_region *r = value;
    flora_free(&r->flora);
    free(r->biomass);
    free(r);
}

bool biome_plan_regions(biome_plan *b, biome_plant_fn plant, bool keep_biomass, char *err, size_t errlen)
{
    b->plant = plant;
    b->keep_biomass = keep_biomass;
    /* 64 regions of 256 x 256 columns: a view 1024 voxels across needs at most 25 of them at once */
    b->regions = region_cache_create(64, region_make, region_free, b);
    if (!b->regions) snprintf(err, errlen, "out of memory");
    return b->regions != NULL;
}

/* Region index of global voxel coordinate v (floor division). */
static int region_of(int v) { return v >= 0 ? v / BIOME_REGION : -((-v - 1) / BIOME_REGION) - 1; }

uint64_t biome_hash(int64_t seed, uint32_t salt, int x, int y, int z)
{
    return rng_hash3((uint64_t)seed ^ ((uint64_t)salt * 0x9e3779b97f4a7c15ULL), x, y, z);
}

int biome_hash_range(int64_t seed, uint32_t salt, int x, int y, int z, int lo, int hi)
{
    if (hi <= lo) return lo;
    return lo + (int)(biome_hash(seed, salt, x, y, z) % (uint64_t)(hi - lo + 1));
}

double biome_hash_unit(int64_t seed, uint32_t salt, int x, int y, int z)
{
    return (double)(biome_hash(seed, salt, x, y, z) >> 11) * (1.0 / 9007199254740992.0);
}

float biome_site_noise(const noise *field, float scale, int x, int z)
{
    /* In doubles: (float)x + 0.5f is x itself or x + 1 from 2^23 on (10^7
     * included), and the samples would sit on column edges, two columns to
     * a value. */
    return noise_perlin2d_01(field, ((double)x + 0.5) / scale, ((double)z + 0.5) / scale);
}

int *biome_pick_sites(int64_t seed, const biome_sites_params *p, int x0, int z0, int n, int *count)
{
    int r = p->spacing, m = n + 2 * r;
    *count = 0;
    float *place = malloc(sizeof(float) * (size_t)m * (size_t)m);
    int cap = 256, k = 0;
    int *sites = malloc(sizeof(int) * 2 * (size_t)cap);
    if (!place || !sites) {
        free(place);
        free(sites);
        return NULL;
    }
    /* The paper samples both fields with -seed (eq. 14, 15); the +0.5 keeps
     * samples off the lattice where Perlin noise is always exactly zero. The
     * placement noise covers the region and `spacing` around it, which the
     * peak test reads. */
    noise field;
    noise_init(&field, -seed);
    for (int z = 0; z < m; z++)
        for (int x = 0; x < m; x++) place[z * m + x] = biome_site_noise(&field, p->place_scale, x0 - r + x, z0 - r + z);
    for (int z = r; z < n + r; z++) {
        for (int x = r; x < n + r; x++) {
            int i = z * m + x;
            float v = place[i];
            if (!(v > p->place_threshold)) continue;
            bool peak = true;
            for (int dz = -r; dz <= r && peak; dz++)
                for (int dx = -r; dx <= r; dx++) {
                    if (dx == 0 && dz == 0) continue;
                    int j = i + dz * m + dx;
                    /* ties go to the column first in scan order, so exactly one column of a plateau wins */
                    if (place[j] > v || (place[j] == v && j < i)) { peak = false; break; }
                }
            if (!peak) continue;
            int gx = x0 - r + x, gz = z0 - r + z;
            float zone = biome_site_noise(&field, p->zone_scale, gx, gz);
            if (!(zone > p->zone_threshold)) continue;
            if (k == cap) {
                cap *= 2;
                int *grown = realloc(sites, sizeof(int) * 2 * (size_t)cap);
                if (!grown) {
                    free(sites);
                    free(place);
                    return NULL;
                }
                sites = grown;
            }
            sites[2 * k] = gx;
            sites[2 * k + 1] = gz;
            k++;
        }
    }
    free(place);
    *count = k;
    return sites;
}

bool flora_push(flora_set *s, const flora *f)
{
    if (s->count == s->cap) {
        int cap = s->cap ? s->cap * 2 : 256;
        flora *grown = realloc(s->items, sizeof(flora) * (size_t)cap);
        if (!grown) return false;
        s->items = grown;
        s->cap = cap;
    }
    s->items[s->count++] = *f;
    return true;
}

/* Circular fir layers below the top: one every second leaf level. */
static int fir_circle_layers(const flora *f, const flora_style *st)
{
    int levels = (int)f->height - st->fir_bare;
    return levels > 0 ? levels / 2 : 0;
}

int flora_reach(const flora *f, const flora_style *st)
{
    switch ((flora_kind)f->kind) {
    case FLORA_PILLAR: return 0;
    case FLORA_BARREL:
    case FLORA_SAGUARO: return 1;
    case FLORA_FIR: {
        float r = 1.f + st->fir_growth * (float)fir_circle_layers(f, st);
        int reach = (int)floorf(r);
        return reach < 1 ? 1 : reach;
    }
    case FLORA_OAK: return st->oak_leaf_radius;
    }
    return 0;
}

/* The box of voxels one fill_column call may write. */
typedef struct flora_clip { int x0, x1, z0, z1, sy; } flora_clip;

static void flora_put(world *w, const flora_clip *cl, int x, int y, int z, uint8_t m, bool leaf)
{
    if (x < cl->x0 || x >= cl->x1 || z < cl->z0 || z >= cl->z1 || y < 0 || y >= cl->sy) return;
    chunk *c = &w->chunks[world_chunk_index(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS)];
    uint8_t *v = &c->vox[CHUNK_INDEX(x & CHUNK_MASK, y & CHUNK_MASK, z & CHUNK_MASK)];
    if (*v == MAT_AIR || (!leaf && (*v == MAT_OAK_LEAVES || *v == MAT_FIR_LEAVES))) *v = m;
}

static void flora_draw(const flora *f, const flora_style *st, world *w, const flora_clip *cl)
{
    int x = f->x, y = f->y, z = f->z, h = f->height, top = y + h - 1;
    switch ((flora_kind)f->kind) {
    case FLORA_PILLAR:
        for (int k = 0; k < h; k++) flora_put(w, cl, x, y + k, z, MAT_CACTUS, false);
        break;
    case FLORA_BARREL:
        /* squat and round: a plus on the ground capped by one voxel */
        flora_put(w, cl, x, y, z, MAT_CACTUS, false);
        for (int d = 0; d < 4; d++) flora_put(w, cl, x + flora_cardinal[d][0], y, z + flora_cardinal[d][1], MAT_CACTUS, false);
        flora_put(w, cl, x, y + 1, z, MAT_CACTUS, false);
        break;
    case FLORA_SAGUARO:
        for (int k = 0; k < h; k++) flora_put(w, cl, x, y + k, z, MAT_CACTUS, false);
        for (int a = 0; a < f->arms; a++) {
            int ax = x + flora_cardinal[f->arm_dir[a]][0], az = z + flora_cardinal[f->arm_dir[a]][1];
            int ay = y + f->arm_at[a];
            for (int k = 0; k <= f->arm_len[a]; k++) flora_put(w, cl, ax, ay + k, az, MAT_CACTUS, false);
        }
        break;
    case FLORA_FIR: {
        for (int k = 0; k < h; k++) flora_put(w, cl, x, y + k, z, MAT_FIR_LOG, false);
        flora_put(w, cl, x, top + 1, z, MAT_FIR_LEAVES, true);
        /* grown downward from the top: even levels hug the trunk, odd levels are circles that widen */
        for (int i = 0; top - i >= y + st->fir_bare; i++) {
            int ly = top - i;
            if ((i & 1) == 0) {
                for (int d = 0; d < 4; d++)
                    flora_put(w, cl, x + flora_cardinal[d][0], ly, z + flora_cardinal[d][1], MAT_FIR_LEAVES, true);
            } else {
                float r = 1.f + st->fir_growth * (float)(i / 2 + 1);
                int ri = (int)floorf(r);
                for (int dz = -ri; dz <= ri; dz++)
                    for (int dx = -ri; dx <= ri; dx++)
                        if ((dx || dz) && (float)(dx * dx + dz * dz) <= r * r)
                            flora_put(w, cl, x + dx, ly, z + dz, MAT_FIR_LEAVES, true);
            }
        }
        break;
    }
    case FLORA_OAK: {
        int r = st->oak_leaf_radius;
        for (int k = 0; k < h; k++) flora_put(w, cl, x, y + k, z, MAT_OAK_LOG, false);
        flora_put(w, cl, x, top + 1, z, MAT_OAK_LEAVES, true);
        for (int ly = top - 2 * r; ly <= top; ly++)
            for (int dz = -r; dz <= r; dz++)
                for (int dx = -r; dx <= r; dx++) flora_put(w, cl, x + dx, ly, z + dz, MAT_OAK_LEAVES, true);
        break;
    }
    }
}

void flora_draw_in_column(const flora *f, const flora_style *st, world *w, int cx, int cz)
{
    flora_clip cl = { cx * CHUNK_SIZE, (cx + 1) * CHUNK_SIZE, cz * CHUNK_SIZE, (cz + 1) * CHUNK_SIZE, w->sy };
    flora_draw(f, st, w, &cl);
}

void flora_draw_column(const biome_plan *b, world *w, int cx, int cz)
{
    if (!b->regions) return;
    flora_clip cl = { cx * CHUNK_SIZE, (cx + 1) * CHUNK_SIZE, cz * CHUNK_SIZE, (cz + 1) * CHUNK_SIZE, w->sy };
    /* every region whose plants may reach into the column: its own, and
     * those within the widest reach of it */
    int rx0 = region_of(cl.x0 - b->reach), rx1 = region_of(cl.x1 - 1 + b->reach);
    int rz0 = region_of(cl.z0 - b->reach), rz1 = region_of(cl.z1 - 1 + b->reach);
    for (int rz = rz0; rz <= rz1; rz++)
        for (int rx = rx0; rx <= rx1; rx++) {
            const biome_region *r = region_cache_get(b->regions, rx, rz);
            if (!r) continue;
            for (int i = 0; i < r->flora.count; i++) {
                const flora *f = &r->flora.items[i];
                int reach = flora_reach(f, &b->style);
                if (f->x + reach >= cl.x0 && f->x - reach < cl.x1 && f->z + reach >= cl.z0 && f->z - reach < cl.z1)
                    flora_draw(f, &b->style, w, &cl);
            }
            region_cache_release(b->regions, r);
        }
}

void flora_free(flora_set *s)
{
    free(s->items);
    memset(s, 0, sizeof *s);
}

void biome_write_column(world *w, int x, int z, const uint8_t *col)
{
    int lxz = (x & CHUNK_MASK) | ((z & CHUNK_MASK) << CHUNK_BITS);
    for (int cy = 0; cy < w->cy; cy++) {
        uint8_t *v = w->chunks[world_chunk_index(w, x >> CHUNK_BITS, cy, z >> CHUNK_BITS)].vox + lxz;
        const uint8_t *src = col + cy * CHUNK_SIZE;
        for (int ly = 0; ly < CHUNK_SIZE; ly++) v[ly * CHUNK_AREA] = src[ly];
    }
}

void biome_fill_column(const biome_plan *b, world *w, int cx, int cz, biome_material_fn mat, uint8_t feature, int lo,
                       int hi)
{
    int sy = w->sy;
    uint8_t *col = malloc((size_t)sy);
    biome_area a;
    /* 128 bytes and 4 KiB for the default world; worldgen has no error path here */
    if (!col || !biome_area_make(b, cx * CHUNK_SIZE, cz * CHUNK_SIZE, CHUNK_SIZE, CHUNK_SIZE, &a)) {
        free(col);
        return;
    }
    for (int lz = 0; lz < CHUNK_SIZE; lz++) {
        int z = cz * CHUNK_SIZE + lz;
        for (int lx = 0; lx < CHUNK_SIZE; lx++) {
            int x = cx * CHUNK_SIZE + lx;
            int h = biome_area_h(&a, x, z);
            for (int y = 0; y <= h && y < sy; y++) col[y] = mat(b, h, y, y + 2 > h);
            if (h + 1 < sy) memset(col + h + 1, MAT_AIR, (size_t)(sy - h - 1));
            biome_write_column(w, x, z, col);
        }
    }
    free(col);
    flora_draw_column(b, w, cx, cz);
    if (feature == MAT_AIR || lo > hi) {
        free(a.h);
        return;
    }
    for (int lz = 0; lz < CHUNK_SIZE; lz++) {
        int z = cz * CHUNK_SIZE + lz;
        for (int lx = 0; lx < CHUNK_SIZE; lx++) {
            int x = cx * CHUNK_SIZE + lx;
            int h = biome_area_h(&a, x, z);
            /* only the top two voxels of a column can have open air two above */
            for (int y = h - 1; y <= h; y++) {
                if (y < lo || y > hi || y < 1 || world_get(w, x, y, z) != feature) continue;
                if (material_get(world_get(w, x, y + 2, z))->solid) {
                    chunk *c = &w->chunks[world_chunk_index(w, cx, y >> CHUNK_BITS, cz)];
                    c->vox[CHUNK_INDEX(lx, y & CHUNK_MASK, lz)] = mat(b, h, y, false);
                }
            }
        }
    }
    free(a.h);
}

void biome_plan_release(biome_plan *b)
{
    region_cache_destroy(b->regions);
    b->regions = NULL;
    flora_free(&b->window);
}

const biome_levels *biome_plan_levels(const void *plan)
{
    return &((const biome_plan *)plan)->lv;
}

/* The plants of the plan's window: those of the regions it overlaps whose
 * trunk lies inside it, region by region. Made once, on the first call. */
const flora *biome_plan_flora(const void *plan, int *count)
{
    biome_plan *b = (biome_plan *)plan;
    if (!b->window_ready && b->regions) {
        b->window_ready = true;
        int x1 = b->wx0 + b->wsx, z1 = b->wz0 + b->wsz;
        for (int rz = region_of(b->wz0); rz <= region_of(z1 - 1); rz++)
            for (int rx = region_of(b->wx0); rx <= region_of(x1 - 1); rx++) {
                const biome_region *r = region_cache_get(b->regions, rx, rz);
                for (int i = 0; r && i < r->flora.count; i++) {
                    const flora *f = &r->flora.items[i];
                    if (f->x >= b->wx0 && f->x < x1 && f->z >= b->wz0 && f->z < z1) flora_push(&b->window, f);
                }
                region_cache_release(b->regions, r);
            }
    }
    *count = b->window.count;
    return b->window.items;
}

float biome_plan_biomass(const void *plan, int x, int z)
{
    const biome_plan *b = plan;
    if (!b->keep_biomass || !b->regions) return 0.f;
    int rx = region_of(x), rz = region_of(z);
    const biome_region *r = region_cache_get(b->regions, rx, rz);
    if (!r) return 0.f;
    float v = r->biomass[(z - rz * BIOME_REGION) * BIOME_REGION + (x - rx * BIOME_REGION)];
    region_cache_release(b->regions, r);
    return v;
}

void biome_set_cover(biome_plan *b, uint8_t mat, uint8_t on, int height, const biome_sites_params *zone)
{
    b->cover_mat = mat;
    b->cover_on = on;
    b->cover_h = height;
    b->cover_zone = zone != NULL;
    if (zone) {
        b->zone_scale = zone->zone_scale;
        b->zone_threshold = zone->zone_threshold;
        noise_init(&b->zone, -b->seed);
    }
}

void biome_surface(const biome_plan *b, biome_material_fn mat, int x0, int z0, int step, int nx, int nz,
                   worldgen_point *out)
{
    for (int j = 0; j < nz; j++)
        for (int i = 0; i < nx; i++) {
            int x = x0 + i * step, z = z0 + j * step, h = biome_height(b, x, z);
            uint8_t m = mat(b, h, h, true);
            if (m == MAT_PLACEHOLDER) m = MAT_MUSKEG; /* what the second pass makes of it */
            worldgen_point p = { (int16_t)h, (int16_t)h, m, m };
            /* a forest seen from afar is its canopy: plants root only on
             * cover_on ground, and only where the zone noise passes */
            if (b->cover_mat && m == b->cover_on &&
                (!b->cover_zone || biome_site_noise(&b->zone, b->zone_scale, x, z) > b->zone_threshold)) {
                int top = h + b->cover_h;
                p.top = (int16_t)(top > b->sy - 1 ? b->sy - 1 : top);
                p.mat = b->cover_mat;
            }
            out[j * nx + i] = p;
        }
}
