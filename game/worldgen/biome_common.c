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
    b->sx = w->sx;
    b->sy = w->sy;
    b->sz = w->sz;
    b->heights = malloc(sizeof(int) * (size_t)w->sx * (size_t)w->sz);
    if (!b->heights) {
        snprintf(err, errlen, "out of memory for the height map");
        return false;
    }
    terrain_heightmap(&p, seed, w->sx, w->sy, w->sz, b->heights);
    int lo = b->heights[0], hi = b->heights[0];
    for (int i = 1; i < w->sx * w->sz; i++) {
        int h = b->heights[i];
        lo = h < lo ? h : lo;
        hi = h > hi ? h : hi;
    }
    b->lv.min_height = lo;
    b->lv.max_height = hi;
    /* levels a biome does not have stay empty ranges that no y can satisfy */
    b->lv.min_mesa = INT32_MAX;
    b->lv.playa_lo = b->lv.muskeg_lo = 1;
    b->lv.playa_hi = b->lv.muskeg_hi = 0;
    b->lv.tree_line = INT32_MAX;
    return true;
}

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

int *biome_pick_sites(const biome_plan *b, int64_t seed, const biome_sites_params *p, int *count)
{
    int sx = b->sx, sz = b->sz;
    *count = 0;
    float *place = malloc(sizeof(float) * (size_t)sx * (size_t)sz);
    int cap = 256, n = 0;
    int *sites = malloc(sizeof(int) * (size_t)cap);
    if (!place || !sites) {
        free(place);
        free(sites);
        return NULL;
    }
    /* The paper samples both fields with -seed (eq. 14, 15); the +0.5 keeps
     * samples off the lattice where Perlin noise is always exactly zero. */
    noise field;
    noise_init(&field, -seed);
    float pinv = 1.f / p->place_scale, zinv = 1.f / p->zone_scale;
    for (int z = 0; z < sz; z++)
        for (int x = 0; x < sx; x++)
            place[z * sx + x] = noise_perlin2_01(&field, ((float)x + 0.5f) * pinv, ((float)z + 0.5f) * pinv);
    int r = p->spacing;
    for (int z = 0; z < sz; z++) {
        for (int x = 0; x < sx; x++) {
            int i = z * sx + x;
            float v = place[i];
            if (!(v > p->place_threshold)) continue;
            bool peak = true;
            for (int dz = -r; dz <= r && peak; dz++) {
                int zz = z + dz;
                if (zz < 0 || zz >= sz) continue;
                for (int dx = -r; dx <= r; dx++) {
                    int xx = x + dx;
                    if (xx < 0 || xx >= sx || (dx == 0 && dz == 0)) continue;
                    int j = zz * sx + xx;
                    /* ties go to the lower index, so exactly one column of a plateau wins */
                    if (place[j] > v || (place[j] == v && j < i)) { peak = false; break; }
                }
            }
            if (!peak) continue;
            float zone = noise_perlin2_01(&field, ((float)x + 0.5f) * zinv, ((float)z + 0.5f) * zinv);
            if (!(zone > p->zone_threshold)) continue;
            if (n == cap) {
                cap *= 2;
                int *grown = realloc(sites, sizeof(int) * (size_t)cap);
                if (!grown) {
                    free(sites);
                    free(place);
                    return NULL;
                }
                sites = grown;
            }
            sites[n++] = i;
        }
    }
    free(place);
    *count = n;
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

bool flora_bin(flora_set *s, const flora_style *st, const world *w)
{
    int ncols = w->cx * w->cz;
    s->bin_start = calloc((size_t)ncols + 1, sizeof(int));
    if (!s->bin_start) return false;
    /* two passes (count, then fill) keep each bin in plant order */
    for (int pass = 0; pass < 2; pass++) {
        int *fill = NULL;
        if (pass == 1) {
            for (int c = 0; c < ncols; c++) s->bin_start[c + 1] += s->bin_start[c];
            s->bin_items = malloc(sizeof(int) * (size_t)(s->bin_start[ncols] > 0 ? s->bin_start[ncols] : 1));
            fill = calloc((size_t)ncols, sizeof(int));
            if (!s->bin_items || !fill) {
                free(fill);
                return false;
            }
        }
        for (int i = 0; i < s->count; i++) {
            const flora *f = &s->items[i];
            int r = flora_reach(f, st);
            int x0 = f->x - r < 0 ? 0 : f->x - r, x1 = f->x + r >= w->sx ? w->sx - 1 : f->x + r;
            int z0 = f->z - r < 0 ? 0 : f->z - r, z1 = f->z + r >= w->sz ? w->sz - 1 : f->z + r;
            for (int cz = z0 >> CHUNK_BITS; cz <= z1 >> CHUNK_BITS; cz++)
                for (int cx = x0 >> CHUNK_BITS; cx <= x1 >> CHUNK_BITS; cx++) {
                    int c = cz * w->cx + cx;
                    if (pass == 0) s->bin_start[c + 1]++;
                    else s->bin_items[s->bin_start[c] + fill[c]++] = i;
                }
        }
        free(fill);
    }
    return true;
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

void flora_draw_column(const flora_set *s, const flora_style *st, world *w, int cx, int cz)
{
    if (!s->bin_start) return;
    flora_clip cl = { cx * CHUNK_SIZE, (cx + 1) * CHUNK_SIZE, cz * CHUNK_SIZE, (cz + 1) * CHUNK_SIZE, w->sy };
    int c = cz * w->cx + cx;
    for (int k = s->bin_start[c]; k < s->bin_start[c + 1]; k++) flora_draw(&s->items[s->bin_items[k]], st, w, &cl);
}

void flora_free(flora_set *s)
{
    free(s->items);
    free(s->bin_start);
    free(s->bin_items);
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
    if (!col) return; /* 128 bytes for the default world; worldgen has no error path here */
    for (int lz = 0; lz < CHUNK_SIZE; lz++) {
        int z = cz * CHUNK_SIZE + lz;
        for (int lx = 0; lx < CHUNK_SIZE; lx++) {
            int x = cx * CHUNK_SIZE + lx;
            int h = b->heights[z * b->sx + x];
            for (int y = 0; y <= h && y < sy; y++) col[y] = mat(b, h, y, y + 2 > h);
            if (h + 1 < sy) memset(col + h + 1, MAT_AIR, (size_t)(sy - h - 1));
            biome_write_column(w, x, z, col);
        }
    }
    free(col);
    flora_draw_column(&b->flora, &b->style, w, cx, cz);
    if (feature == MAT_AIR || lo > hi) return;
    for (int lz = 0; lz < CHUNK_SIZE; lz++) {
        int z = cz * CHUNK_SIZE + lz;
        for (int lx = 0; lx < CHUNK_SIZE; lx++) {
            int x = cx * CHUNK_SIZE + lx;
            int h = b->heights[z * b->sx + x];
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
}

void biome_plan_release(biome_plan *b)
{
    free(b->heights);
    b->heights = NULL;
    flora_free(&b->flora);
}

const biome_levels *biome_plan_levels(const void *plan)
{
    return &((const biome_plan *)plan)->lv;
}

const flora *biome_plan_flora(const void *plan, int *count)
{
    const biome_plan *b = plan;
    *count = b->flora.count;
    return b->flora.items;
}
