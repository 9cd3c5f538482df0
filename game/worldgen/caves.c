/* caves: the seeding step (worm tunnels from the surface, chambers), the
 * grammar boxes that grow them, and the overhang tiles. Everything random is
 * a hash of (seed, biome, index), and boxes are derived one after another
 * in a fixed order (each on all workers), so the world is the same bits for
 * any number of workers. */
#include "caves.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/rng.h"
#include "gen/grammar_file.h"
#include "platform/platform.h"
#include "ui/cvar.h"
#include "cave_ore.h"
#include "region_cache.h"
#include "worldgen.h"

/* One definition of terrain: the grammar's class, which PAINT and FILL may
 * write and which carving turns into air. */
bool caves_is_terrain(uint8_t m) { return grammar_class_has(GCLASS_TERRAIN, m); }

/* Density of a material: terrain and the fixed floor (bedrock, muskeg) are
 * solid; air and plants are not, so trees never make walls for the rules. */
static float density_of(uint8_t m)
{
    return caves_is_terrain(m) || m == MAT_BEDROCK || m == MAT_MUSKEG || m == MAT_PLACEHOLDER ? 1.f : 0.f;
}

bool caves_load_grammar(const char *name, grammar *out, char *err, size_t errlen)
{
    FILE *f = fopen(name, "rb");
    if (f) {
        fclose(f);
        return grammar_load(name, out, err, errlen);
    }
    char rel[512];
    snprintf(rel, sizeof rel, "assets/grammars/%s", name);
    const char *path = strchr(name, '/') ? NULL : platform_find_asset(rel);
    if (!path) {
        snprintf(err, errlen, "%s: no such grammar file (nor under assets/grammars/)", name);
        return false;
    }
    return grammar_load(path, out, err, errlen);
}

static const char *const k_orient_names[] = { "x", "z", "xz", "all", NULL };

unsigned caves_orientation(void)
{
    static const unsigned flags[] = { GRAMMAR_ORIENT_X, GRAMMAR_ORIENT_Z, GRAMMAR_ORIENT_X | GRAMMAR_ORIENT_Z,
                                      GRAMMAR_ORIENT_ALL };
    int i = cvar_int("caves.orientation", 3);
    return flags[i >= 0 && i < 4 ? i : 3];
}

/* The commonest terrain material among the six neighbours in the box's
 * original materials (ties to the lower id), else the first terrain below. */
static uint8_t material_around(const uint8_t *mats, const int n[3], int x, int y, int z)
{
    int count[MAT_COUNT] = { 0 };
    static const int off[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
    for (int i = 0; i < 6; i++) {
        int px = x + off[i][0], py = y + off[i][1], pz = z + off[i][2];
        if (px < 0 || py < 0 || pz < 0 || px >= n[0] || py >= n[1] || pz >= n[2]) continue;
        uint8_t m = mats[(size_t)px + (size_t)n[0] * ((size_t)py + (size_t)n[1] * (size_t)pz)];
        if (caves_is_terrain(m)) count[m]++;
    }
    int best = 0;
    for (int m = 1; m < MAT_COUNT; m++)
        if (count[m] > count[best]) best = m;
    if (count[best] > 0) return (uint8_t)best;
    for (int py = y - 1; py >= 0; py--) {
        uint8_t m = mats[(size_t)x + (size_t)n[0] * ((size_t)py + (size_t)n[1] * (size_t)z)];
        if (caves_is_terrain(m)) return m;
    }
    return MAT_STONE;
}

static bool derive_on_workers(void *jobs, const grammar_program *prog, grammar_grid *grid, const grammar_params *p,
                              grammar_stats *stats, char *err, size_t errlen)
{
    return grammar_derive(prog, grid, p, jobs, stats, err, errlen);
}

bool caves_apply_box(world *w, const grammar_program *prog, const int lo[3], const int hi[3], const int stride[3],
                     int iterations, uint64_t seed, job_pool *jobs, caves_edit *out, char *err, size_t errlen)
{
    return caves_apply_box_with(w, prog, lo, hi, stride, iterations, seed, derive_on_workers, jobs, out, err, errlen);
}

/* The pass's derivation (caves_set_pass_derive): written once at start-up
 * by the app, read by generation afterwards, like the registries. */
static caves_pass_derive_fn g_pass_derive;
static void *g_pass_user;

void caves_set_pass_derive(caves_pass_derive_fn fn, void *user) { g_pass_derive = fn, g_pass_user = user; }

static bool derive_for_pass(void *jobs, const grammar_program *prog, grammar_grid *grid, const grammar_params *p,
                            grammar_stats *stats, char *err, size_t errlen)
{
    if (g_pass_derive) return g_pass_derive(g_pass_user, jobs, prog, grid, p, stats, err, errlen);
    return grammar_derive(prog, grid, p, jobs, stats, err, errlen);
}

/* caves_apply_box as the pass does it: with the installed derivation. */
static bool pass_apply_box(world *w, const grammar_program *prog, const int lo[3], const int hi[3], const int stride[3],
                           int iterations, uint64_t seed, job_pool *jobs, caves_edit *out, char *err, size_t errlen)
{
    return caves_apply_box_with(w, prog, lo, hi, stride, iterations, seed, derive_for_pass, jobs, out, err, errlen);
}

/* The voxels of box [lo, hi) (inside w) into out, x fastest, then y, then
 * z: row by row, a chunk's run of x at a time. */
static void read_box(const world *w, const int lo[3], const int hi[3], uint8_t *out)
{
    int n[3] = { hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2] };
    for (int z = 0; z < n[2]; z++)
        for (int y = 0; y < n[1]; y++) {
            int wy = lo[1] + y, wz = lo[2] + z;
            uint8_t *row = out + (size_t)n[0] * ((size_t)y + (size_t)n[1] * (size_t)z);
            for (int x = 0; x < n[0];) {
                int wx = lo[0] + x, run = CHUNK_SIZE - (wx & CHUNK_MASK);
                run = run < n[0] - x ? run : n[0] - x;
                const chunk *c = world_chunk(w, wx >> CHUNK_BITS, wy >> CHUNK_BITS, wz >> CHUNK_BITS);
                memcpy(row + x, &c->vox[CHUNK_INDEX(wx & CHUNK_MASK, wy & CHUNK_MASK, wz & CHUNK_MASK)], (size_t)run);
                x += run;
            }
        }
}

bool caves_apply_box_with(world *w, const grammar_program *prog, const int lo[3], const int hi[3], const int stride[3],
                          int iterations, uint64_t seed, caves_derive_fn derive, void *user, caves_edit *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    int first[3] = { world_x0(w), 0, world_z0(w) }, size[3] = { w->sx, w->sy, w->sz };
    for (int a = 0; a < 3; a++)
        if (lo[a] < first[a] || hi[a] > first[a] + size[a] || lo[a] >= hi[a]) {
            snprintf(err, errlen, "bounds [%d %d %d]..[%d %d %d] lie outside the world (%d x %d x %d)", lo[0], lo[1], lo[2],
                     hi[0], hi[1], hi[2], w->sx, w->sy, w->sz);
            return false;
        }
    int n[3] = { hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2] };
    size_t cells = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
    uint8_t *mats = malloc(cells);
    /* the material channel only for rulesets that read or write it: the others run as they always did */
    bool with_mats = prog->needs & GRAMMAR_NEEDS_MATERIAL;
    grammar_grid g = { n[0], n[1], n[2], malloc(cells * sizeof(float)), with_mats ? malloc(cells) : NULL };
    if (!mats || !g.d || (with_mats && !g.m)) {
        free(mats);
        free(g.d);
        free(g.m);
        snprintf(err, errlen, "out of memory for a %d x %d x %d grammar box", n[0], n[1], n[2]);
        return false;
    }
    float lut[256];
    for (int m = 0; m < 256; m++) lut[m] = density_of((uint8_t)m);
    read_box(w, lo, hi, mats);
    for (size_t i = 0; i < cells; i++) g.d[i] = lut[mats[i]];
    if (g.m) memcpy(g.m, mats, cells);
    grammar_params p = { { 0, 0, 0 }, { n[0], n[1], n[2] }, { stride[0], stride[1], stride[2] }, iterations, seed };
    grammar_stats st;
    if (!derive(user, prog, &g, &p, &st, err, errlen)) {
        free(mats);
        free(g.d);
        free(g.m);
        return false;
    }
    out->matches = st.matches;
    for (int a = 0; a < 3; a++) {
        out->lo[a] = INT32_MAX;
        out->hi[a] = INT32_MIN;
    }
    size_t i = 0;
    /* no match, no change: skip the pass over the box */
    for (int z = 0; z < n[2] && st.matches > 0; z++)
        for (int y = 0; y < n[1]; y++)
            for (int x = 0; x < n[0]; x++, i++) {
                uint8_t m = mats[i], to;
                /* what PAINT or FILL made of it: terrain only (the parser refuses the rest; a
                 * program built in code is held to it here) */
                uint8_t painted = g.m ? g.m[i] : m;
                bool solid = g.d[i] >= 0.5f;
                if (caves_is_terrain(m) && !solid) to = MAT_AIR;
                else if (solid && painted != m && caves_is_terrain(painted) && (caves_is_terrain(m) || m == MAT_AIR)) to = painted;
                else if (m == MAT_AIR && solid) to = material_around(mats, n, x, y, z);
                else continue; /* unchanged, or plants and the fixed floor, which the grammar never edits */
                int p3[3] = { lo[0] + x, lo[1] + y, lo[2] + z };
                world_set(w, p3[0], p3[1], p3[2], to);
                out->changed++;
                for (int a = 0; a < 3; a++) {
                    out->lo[a] = p3[a] < out->lo[a] ? p3[a] : out->lo[a];
                    out->hi[a] = p3[a] + 1 > out->hi[a] ? p3[a] + 1 : out->hi[a];
                }
            }
    if (!out->changed) memset(out->lo, 0, sizeof out->lo), memset(out->hi, 0, sizeof out->hi);
    free(mats);
    free(g.d);
    free(g.m);
    return true;
}

/* ---- the worldgen pass -------------------------------------------------- */

/* The pass is a pure function of global coordinates, computed per tile
 * (caves.tile, aligned on its multiples): a tile's voxels are its columns'
 * terrain, carved by every worm that reaches it, grown by the cave grammar
 * in each such worm's box clipped to the tile, then the overhang and
 * feature rulesets over the tile. Grammar windows never cross a tile edge,
 * so a tile reads nothing of its neighbours' voxels; worms cross tiles, so
 * they are planned per worm region from the ground heights alone and every
 * tile they reach carves its part of the same path. A column applies the
 * edits of the tiles it overlaps (docs/streaming.md). */

/* Worms are seeded per WORM_REGION x WORM_REGION columns: caves.worms per
 * 64 x 64, so 16 a region at the default, enough that the fraction of a
 * worm the hash rounds away is small. */
#define WORM_REGION 256

typedef struct box {
    int lo[3], hi[3];
} box;

typedef struct sphere {
    double p[3], r;
} sphere;

/* One worm: the spheres it carves, the box the cave grammar grows it in
 * (its spheres' box plus caves.margin, y clipped), its grammar seed. */
typedef struct worm {
    sphere *s;
    int n;
    box b;
    uint64_t seed;
} worm;

typedef struct worm_plan {
    worm *w;
    int n;
} worm_plan;

typedef struct caves_state {
    grammar_program cave, overhang, features;
    bool has_features; /* the kind's caves.features_KIND names a ruleset */
    uint64_t seed;
    int iterations, overhang_iterations, feature_iterations, stride[3], feature_stride[3], margin[3], tile, min_y, max_y;
    float worm_density, worm_radius, worm_dip, chamber_chance, glow_ore;
    int worm_length;
    const worldgen_kind *kind; /* the terrain under the caves, for scratch columns */
    void *plan;
    int cy, sy;
    int reach; /* horizontal distance from a worm's start that its box can reach */
    region_cache *surfaces; /* per chunk column: the ground height of its 32 x 32 columns */
    region_cache *worms;    /* per worm region: its worm_plan */
    region_cache *tiles;    /* per tile: the world of its chunk columns, the tile's part final */
} caves_state;

static double unit(uint64_t seed, int a, int b, int c)
{
    return (double)(rng_hash3(seed, a, b, c) >> 11) * (1.0 / 9007199254740992.0);
}

static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ' || p[-1] == ',') && (p[n] == '\0' || p[n] == ' ' || p[n] == ',')) return true;
    return false;
}

/* "none" (or nothing) turns a feature ruleset off. */
static bool is_none(const char *file) { return file[0] == '\0' || strcmp(file, "none") == 0; }

static bool compile_file(const char *cvar_name, unsigned orient, grammar_program *out, char *err, size_t errlen)
{
    const cvar *c = cvar_find(cvar_name);
    grammar *g = malloc(sizeof *g);
    bool ok = g && c && caves_load_grammar(c->str, g, err, errlen) && grammar_compile(g, orient, out, err, errlen);
    if (!g || !c) snprintf(err, errlen, "%s: out of memory or not registered", cvar_name);
    free(g);
    return ok;
}

static int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a - 1) / b) - 1; }

/* Highest terrain voxel of column (x, z) of w (plants are not ground), 0
 * when none; `air` flags the column's chunks that hold nothing but air. */
static int ground_y(const world *w, const bool *air, int x, int z)
{
    int lxz = CHUNK_INDEX(x & CHUNK_MASK, 0, z & CHUNK_MASK);
    for (int cy = w->cy - 1; cy >= 0; cy--) {
        if (air[cy]) continue; /* the sky: skip the whole chunk */
        /* down the column inside the chunk: a run of bytes CHUNK_AREA apart */
        const uint8_t *v = world_chunk(w, x >> CHUNK_BITS, cy, z >> CHUNK_BITS)->vox + lxz;
        for (int ly = CHUNK_MASK; ly >= 0; ly--) {
            int y = cy * CHUNK_SIZE + ly;
            if (y == 0) return 0;
            if (caves_is_terrain(v[ly * CHUNK_AREA])) return y;
        }
    }
    return 0;
}

static void air_chunks(const world *w, int cx, int cz, bool *air)
{
    for (int cy = 0; cy < w->cy; cy++) {
        const chunk *c = world_chunk(w, cx, cy, cz);
        air[cy] = c->vox[0] == MAT_AIR && chunk_is_uniform(c);
    }
}

/* The ground of chunk column (cx, cz) the worms walk on: the kind's height
 * function, or else the highest terrain of the kind's own fill of the
 * column in a world of its own; the same heights whoever asks. */
static void *surface_make(void *user, void *arg, int cx, int cz)
{
    (void)arg;
    const caves_state *s = user;
    int *h = malloc(sizeof(int) * CHUNK_AREA);
    if (h && s->kind->ground) { /* the height function: no column to fill */
        s->kind->ground(s->plan, cx * CHUNK_SIZE, cz * CHUNK_SIZE, CHUNK_SIZE, h);
        return h;
    }
    world *col = world_create_at(cx, cz, 1, s->cy, 1);
    bool air[64];
    if (!col || !h || s->cy > 64) {
        world_destroy(col);
        free(h);
        return NULL;
    }
    worldgen_fill_base(s->kind, s->plan, col, cx, cz);
    air_chunks(col, cx, cz, air);
    for (int lz = 0; lz < CHUNK_SIZE; lz++)
        for (int lx = 0; lx < CHUNK_SIZE; lx++)
            h[lz * CHUNK_SIZE + lx] = ground_y(col, air, cx * CHUNK_SIZE + lx, cz * CHUNK_SIZE + lz);
    world_destroy(col);
    return h;
}

static void plain_free(void *user, void *value)
{
    (void)user;
    free(value);
}

/* Ground heights along a worm, holding one chunk column's at a time. */
typedef struct surface_memo {
    const caves_state *s;
    int cx, cz;
    const int *h;
} surface_memo;

static int surface_at(surface_memo *m, int x, int z)
{
    int cx = floor_div(x, CHUNK_SIZE), cz = floor_div(z, CHUNK_SIZE);
    if (!m->h || cx != m->cx || cz != m->cz) {
        if (m->h) region_cache_release(m->s->surfaces, m->h);
        m->h = region_cache_get(m->s->surfaces, cx, cz);
        m->cx = cx, m->cz = cz;
    }
    return m->h ? m->h[(z - cz * CHUNK_SIZE) * CHUNK_SIZE + (x - cx * CHUNK_SIZE)] : 0;
}

/* One worm's path from (x0, z0) on the surface: the spheres it carves. The
 * walk reads only ground heights, never voxels, so it is the same path from
 * every tile it reaches. */
static bool plan_worm(const caves_state *s, surface_memo *sm, uint64_t ws, int x0, int z0, worm *out)
{
    *out = (worm){ NULL, 0, { { INT32_MAX, INT32_MAX, INT32_MAX }, { INT32_MIN, INT32_MIN, INT32_MIN } }, ws };
    double pos[3] = { x0 + 0.5, surface_at(sm, x0, z0) + 1.0, z0 + 0.5 };
    double yaw = unit(ws, 0, 0, 3) * 6.283185307179586, pitch = -atan(s->worm_dip);
    if (pos[1] < s->min_y + 4) return true; /* no ground to tunnel into */
    out->s = malloc(sizeof(sphere) * (size_t)s->worm_length);
    if (!out->s) return false;
    /* on a slope the worm heads uphill, level at first: the mouth opens in the
     * hillside and its lip is an overhang over the lower ground in front */
    double gx = surface_at(sm, x0 + 4, z0) - surface_at(sm, x0 - 4, z0);
    double gz = surface_at(sm, x0, z0 + 4) - surface_at(sm, x0, z0 - 4);
    bool uphill = gx * gx + gz * gz >= 4.0;
    if (uphill) {
        yaw = atan2(gx, -gz);
        pitch = 0.0;
        pos[1] += s->worm_radius; /* the mouth's floor at the foot of the slope */
    }
    box *b = &out->b;
    for (int step = 0; step < s->worm_length; step++) {
        double r = s->worm_radius * (0.75 + 0.5 * unit(ws, step, 1, 0));
        if (step < 6) r *= 1.5; /* a wide mouth */
        if (step > 8 && unit(ws, step, 2, 0) < s->chamber_chance) r *= 2.5;
        out->s[out->n++] = (sphere){ { pos[0], pos[1], pos[2] }, r };
        for (int a = 0; a < 3; a++) {
            int lo = (int)floor(pos[a] - r), hi = (int)ceil(pos[a] + r);
            b->lo[a] = lo < b->lo[a] ? lo : b->lo[a];
            b->hi[a] = hi + 1 > b->hi[a] ? hi + 1 : b->hi[a];
        }
        /* wander: the yaw drifts; below the surface the tunnel levels out and meanders */
        yaw += (unit(ws, step, 3, 0) - 0.5) * 0.7;
        double depth = surface_at(sm, (int)floor(pos[0]), (int)floor(pos[2])) - pos[1];
        if (depth > 6.0) pitch = pitch * 0.85 + (unit(ws, step, 4, 0) - 0.55) * 0.35;
        else if (uphill && depth > 3.0 * s->worm_radius) pitch = -atan(s->worm_dip); /* inside the hill: dive */
        pos[0] += sin(yaw) * cos(pitch);
        pos[1] += sin(pitch);
        pos[2] -= cos(yaw) * cos(pitch);
        if (pos[1] < s->min_y + r) pos[1] = s->min_y + r;
    }
    for (int a = 0; a < 3; a++) {
        b->lo[a] -= s->margin[a];
        b->hi[a] += s->margin[a];
    }
    int top = s->sy < s->max_y ? s->sy : s->max_y;
    if (b->lo[1] < s->min_y) b->lo[1] = s->min_y;
    if (b->hi[1] > top) b->hi[1] = top;
    return true;
}

static void worms_free(void *user, void *value)
{
    (void)user;
    worm_plan *p = value;
    for (int i = 0; i < p->n; i++) free(p->w[i].s);
    free(p->w);
    free(p);
}

/* The worms seeded in worm region (rx, rz): caves.worms per 64 x 64
 * columns, the fraction decided by the region's hash. */
static void *worms_make(void *user, void *arg, int rx, int rz)
{
    (void)arg;
    const caves_state *s = user;
    double want = s->worm_density * (double)WORM_REGION * (double)WORM_REGION / 4096.0;
    int n = (int)want;
    uint64_t rs = rng_hash3(s->seed ^ 0x57a11ULL, rx, rz, -1);
    if (unit(rs, 0, 0, 0) < want - n) n++;
    worm_plan *p = calloc(1, sizeof *p);
    if (!p || !(p->w = calloc((size_t)(n > 0 ? n : 1), sizeof(worm)))) {
        free(p);
        return NULL;
    }
    surface_memo sm = { s, 0, 0, NULL };
    for (int i = 0; i < n; i++) {
        uint64_t ws = rng_hash3(s->seed ^ 0x57a11ULL, rx, rz, i);
        int x0 = rx * WORM_REGION + (int)(unit(ws, 0, 0, 1) * WORM_REGION);
        int z0 = rz * WORM_REGION + (int)(unit(ws, 0, 0, 2) * WORM_REGION);
        if (!plan_worm(s, &sm, ws, x0, z0, &p->w[p->n++])) {
            if (sm.h) region_cache_release(s->surfaces, sm.h);
            worms_free(NULL, p);
            return NULL;
        }
    }
    if (sm.h) region_cache_release(s->surfaces, sm.h);
    return p;
}

static bool box_empty(const box *b) { return b->lo[0] >= b->hi[0] || b->lo[1] >= b->hi[1] || b->lo[2] >= b->hi[2]; }

static box box_clip(box b, const box *to)
{
    for (int a = 0; a < 3; a++) {
        if (b.lo[a] < to->lo[a]) b.lo[a] = to->lo[a];
        if (b.hi[a] > to->hi[a]) b.hi[a] = to->hi[a];
    }
    return b;
}

/* A worm's spheres, clipped to box t: terrain inside them becomes air. */
static void carve_worm(const worm *wm, world *w, const box *t)
{
    for (int k = 0; k < wm->n; k++) {
        const sphere *sp = &wm->s[k];
        box b;
        for (int a = 0; a < 3; a++) {
            b.lo[a] = (int)floor(sp->p[a] - sp->r);
            b.hi[a] = (int)ceil(sp->p[a] + sp->r) + 1;
        }
        b = box_clip(b, t);
        for (int y = b.lo[1]; y < b.hi[1]; y++)
            for (int z = b.lo[2]; z < b.hi[2]; z++)
                for (int x = b.lo[0]; x < b.hi[0]; x++) {
                    double dx = x + 0.5 - sp->p[0], dy = y + 0.5 - sp->p[1], dz = z + 0.5 - sp->p[2];
                    if (dx * dx + dy * dy + dz * dz > sp->r * sp->r) continue;
                    chunk *c = world_chunk(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS);
                    uint8_t *v = &c->vox[CHUNK_INDEX(x & CHUNK_MASK, y & CHUNK_MASK, z & CHUNK_MASK)];
                    if (caves_is_terrain(*v)) *v = MAT_AIR;
                }
    }
}

/* A ruleset over tile t, from the tile's lowest ground (less the y margin)
 * to just above its highest. `salt` gives each ruleset its own tie-breaks
 * (0: the overhangs'). */
static void derive_tile(const caves_state *s, world *w, const box *t, int bottom, int top, job_pool *jobs,
                        const grammar_program *prog, int iterations, const int stride[3], uint64_t salt)
{
    if (iterations <= 0) return;
    box b = *t;
    b.hi[1] = top + 2 < b.hi[1] ? top + 2 : b.hi[1];
    if (bottom - s->margin[1] > b.lo[1]) b.lo[1] = bottom - s->margin[1];
    if (box_empty(&b)) return;
    char err[256];
    caves_edit e;
    uint64_t ts = rng_mix64(s->seed ^ salt ^ ((uint64_t)(uint32_t)t->lo[0] << 32 | (uint32_t)t->lo[2]));
    if (!pass_apply_box(w, prog, b.lo, b.hi, stride, iterations, ts, jobs, &e, err, sizeof err)) log_error("caves: %s", err);
}

static void fill_scratch(void *arg, int i)
{
    void **a = arg;
    const caves_state *s = a[0];
    world *w = a[1];
    worldgen_fill_base(s->kind, s->plan, w, w->ocx + i % w->cx, w->ocz + i / w->cx);
}

/* Tile (ti, tj): its columns' terrain in a world of their own, then the
 * worms, the cave grammar, the overhangs and the features, all inside the
 * tile; the voxels inside the tile are then final, and that world is the
 * plan. `arg` is the pool to derive on (NULL: this thread), which changes
 * only the speed. */
static void *tile_make(void *user, void *arg, int ti, int tj)
{
    const caves_state *s = user;
    job_pool *jobs = arg;
    int top = s->sy < s->max_y ? s->sy : s->max_y;
    box t = { { ti * s->tile, s->min_y, tj * s->tile }, { (ti + 1) * s->tile, top, (tj + 1) * s->tile } };
    int ocx = floor_div(t.lo[0], CHUNK_SIZE), ocz = floor_div(t.lo[2], CHUNK_SIZE);
    world *w = world_create_at(ocx, ocz, floor_div(t.hi[0] - 1, CHUNK_SIZE) - ocx + 1, s->cy,
                               floor_div(t.hi[2] - 1, CHUNK_SIZE) - ocz + 1);
    if (!w) return NULL;
    void *fa[2] = { (void *)s, w };
    job_parallel_for(jobs, w->cx * w->cz, fill_scratch, fa);
    if (box_empty(&t)) return w; /* a world below caves.min_y: terrain only */
    /* the band the rulesets derive in: the tile's ground before any carving */
    int ground_lo = s->sy, ground_hi = 0;
    bool air[64];
    for (int cz = w->ocz; cz < w->ocz + w->cz; cz++)
        for (int cx = w->ocx; cx < w->ocx + w->cx; cx++) {
            air_chunks(w, cx, cz, air);
            int x0 = cx * CHUNK_SIZE > t.lo[0] ? cx * CHUNK_SIZE : t.lo[0], x1 = (cx + 1) * CHUNK_SIZE < t.hi[0] ? (cx + 1) * CHUNK_SIZE : t.hi[0];
            int z0 = cz * CHUNK_SIZE > t.lo[2] ? cz * CHUNK_SIZE : t.lo[2], z1 = (cz + 1) * CHUNK_SIZE < t.hi[2] ? (cz + 1) * CHUNK_SIZE : t.hi[2];
            for (int z = z0; z < z1; z++)
                for (int x = x0; x < x1; x++) {
                    int h = ground_y(w, air, x, z);
                    ground_lo = h < ground_lo ? h : ground_lo;
                    ground_hi = h > ground_hi ? h : ground_hi;
                }
        }
    /* worms: every region whose worms can reach the tile, in a fixed order;
     * each carves, then the cave grammar grows it in its box, in the tile */
    char err[256];
    caves_edit e;
    for (int rz = floor_div(t.lo[2] - s->reach, WORM_REGION); rz <= floor_div(t.hi[2] - 1 + s->reach, WORM_REGION); rz++)
        for (int rx = floor_div(t.lo[0] - s->reach, WORM_REGION); rx <= floor_div(t.hi[0] - 1 + s->reach, WORM_REGION);
             rx++) {
            const worm_plan *wp = region_cache_get(s->worms, rx, rz);
            for (int i = 0; wp && i < wp->n; i++) {
                const worm *wm = &wp->w[i];
                box b = box_clip(wm->b, &t);
                if (box_empty(&b)) continue;
                carve_worm(wm, w, &t);
                if (s->iterations > 0 && !pass_apply_box(w, &s->cave, b.lo, b.hi, s->stride, s->iterations, wm->seed, jobs,
                                                         &e, err, sizeof err))
                    log_error("caves: %s", err);
            }
            region_cache_release(s->worms, wp);
        }
    derive_tile(s, w, &t, ground_lo, ground_hi, jobs, &s->overhang, s->overhang_iterations, s->stride, 0);
    /* the biome's own features last, on the terrain the caves and overhangs left */
    if (s->has_features)
        derive_tile(s, w, &t, ground_lo, ground_hi, jobs, &s->features, s->feature_iterations, s->feature_stride, 0xfea7u);
    cave_ore_grow(w, t.lo, t.hi, top, s->seed, s->glow_ore);
    return w;
}

static void tiles_free(void *user, void *value)
{
    (void)user;
    world_destroy(value);
}

/* Column (cx, cz): the part of it each tile holds, copied from the tile's
 * world (whole chunks when the tile covers the column). */
static void caves_column(void *state, world *w, int cx, int cz)
{
    caves_state *s = state;
    int T = s->tile, x0 = cx * CHUNK_SIZE, z0 = cz * CHUNK_SIZE;
    for (int tj = floor_div(z0, T); tj <= floor_div(z0 + CHUNK_SIZE - 1, T); tj++)
        for (int ti = floor_div(x0, T); ti <= floor_div(x0 + CHUNK_SIZE - 1, T); ti++) {
            const world *tw = region_cache_get(s->tiles, ti, tj);
            if (!tw) continue;
            int lx0 = ti * T > x0 ? ti * T - x0 : 0, lx1 = (ti + 1) * T < x0 + CHUNK_SIZE ? (ti + 1) * T - x0 : CHUNK_SIZE;
            int lz0 = tj * T > z0 ? tj * T - z0 : 0, lz1 = (tj + 1) * T < z0 + CHUNK_SIZE ? (tj + 1) * T - z0 : CHUNK_SIZE;
            for (int cy = 0; cy < w->cy; cy++) {
                const uint8_t *src = world_chunk(tw, cx, cy, cz)->vox;
                uint8_t *dst = world_chunk(w, cx, cy, cz)->vox;
                if (lx0 == 0 && lz0 == 0 && lx1 == CHUNK_SIZE && lz1 == CHUNK_SIZE) {
                    memcpy(dst, src, CHUNK_VOLUME);
                    continue;
                }
                for (int ly = 0; ly < CHUNK_SIZE; ly++)
                    for (int lz = lz0; lz < lz1; lz++)
                        memcpy(dst + CHUNK_INDEX(lx0, ly, lz), src + CHUNK_INDEX(lx0, ly, lz), (size_t)(lx1 - lx0));
            }
            region_cache_release(s->tiles, tw);
        }
}

typedef struct window_tiles {
    caves_state *s;
    int ti0, tj0, nti;
} window_tiles;

static void tile_on_worker(void *arg, int i)
{
    window_tiles *wt = arg;
    region_cache *c = wt->s->tiles;
    region_cache_release(c, region_cache_get(c, wt->ti0 + i % wt->nti, wt->tj0 + i / wt->nti));
}

/* A finite window: its tiles before its columns, so the columns only copy
 * (the cache grows to hold them). Without an installed derivation, a tile
 * per worker; with one (the app's, which may use the GPU on the GL
 * thread), one tile after another, each derivation on the pool, as the
 * whole-world pass always did. Same bits either way. */
static void caves_prepare_window(void *state, const world *w, job_pool *jobs)
{
    caves_state *s = state;
    int T = s->tile;
    int ti0 = floor_div(world_x0(w), T), ti1 = floor_div(world_x0(w) + w->sx - 1, T);
    int tj0 = floor_div(world_z0(w), T), tj1 = floor_div(world_z0(w) + w->sz - 1, T);
    region_cache_reserve(s->tiles, (ti1 - ti0 + 1) * (tj1 - tj0 + 1));
    if (!g_pass_derive) {
        window_tiles wt = { s, ti0, tj0, ti1 - ti0 + 1 };
        job_parallel_for(jobs, (ti1 - ti0 + 1) * (tj1 - tj0 + 1), tile_on_worker, &wt);
        return;
    }
    for (int tj = tj0; tj <= tj1; tj++)
        for (int ti = ti0; ti <= ti1; ti++) region_cache_release(s->tiles, region_cache_get_with(s->tiles, ti, tj, jobs));
}

static void caves_free(void *state)
{
    caves_state *s = state;
    region_cache_destroy(s->tiles);
    region_cache_destroy(s->worms);
    region_cache_destroy(s->surfaces);
    free(s);
}

static void *caves_prepare(const worldgen_kind *kind, void *plan, int64_t seed, const world *w, char *err, size_t errlen)
{
    const cvar *biomes = cvar_find("caves.biomes");
    if (!cvar_int("caves.enable", 0) || !biomes || !listed(biomes->str, kind->name)) return NULL;
    caves_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    unsigned orient = caves_orientation();
    char features[64];
    snprintf(features, sizeof features, "caves.features_%s", kind->name);
    const cvar *fc = cvar_find(features);
    s->feature_iterations = cvar_int("caves.features_iterations", 1);
    s->has_features = fc && !is_none(fc->str) && s->feature_iterations > 0;
    if (!compile_file("caves.grammar", orient, &s->cave, err, errlen) ||
        !compile_file("caves.overhang_grammar", orient, &s->overhang, err, errlen) ||
        (s->has_features && !compile_file(features, orient, &s->features, err, errlen))) {
        free(s);
        return NULL;
    }
    /* the biome's name salts the seed: the same seed gives each biome its own caves */
    uint64_t salt = 0;
    for (const char *p = kind->name; *p; p++) salt = rng_mix64(salt ^ (uint8_t)*p);
    s->seed = rng_mix64((uint64_t)seed ^ salt);
    s->iterations = cvar_int("caves.iterations", 2);
    s->overhang_iterations = cvar_int("caves.overhang_iterations", 2);
    const cvar *st = cvar_find("caves.stride"), *mg = cvar_find("caves.margin"), *fs = cvar_find("caves.features_stride");
    for (int a = 0; a < 3; a++) {
        s->stride[a] = st ? (int)st->v[a] : 1;
        s->feature_stride[a] = fs ? (int)fs->v[a] : 1;
        s->margin[a] = mg ? (int)mg->v[a] : 6;
    }
    s->tile = cvar_int("caves.tile", 64);
    s->min_y = cvar_int("caves.min_y", 3);
    s->max_y = cvar_int("caves.max_y", 1024);
    if (s->min_y >= s->max_y) {
        snprintf(err, errlen, "caves.min_y (%d) is not below caves.max_y (%d)", s->min_y, s->max_y);
        free(s);
        return NULL;
    }
    s->worm_density = cvar_float("caves.worms", 1.f);
    s->worm_length = cvar_int("caves.worm_length", 70);
    s->worm_radius = cvar_float("caves.worm_radius", 2.2f);
    s->worm_dip = cvar_float("caves.worm_dip", 0.35f);
    s->chamber_chance = cvar_float("caves.chamber_chance", 0.04f);
    s->glow_ore = cvar_float("caves.glow_ore", 20.f);
    s->kind = kind;
    s->plan = plan;
    s->cy = w->cy;
    s->sy = w->sy;
    /* a step moves at most one voxel across; a sphere reaches 1.25 * 2.5 radii (a chamber) */
    int margin_xz = s->margin[0] > s->margin[2] ? s->margin[0] : s->margin[2];
    s->reach = s->worm_length + (int)ceil(3.125 * s->worm_radius) + 2 + margin_xz;
    s->surfaces = region_cache_create(1024, surface_make, plain_free, s);
    s->worms = region_cache_create(64, worms_make, worms_free, s);
    s->tiles = region_cache_create(64, tile_make, tiles_free, s);
    if (!s->surfaces || !s->worms || !s->tiles || s->cy > 64) {
        snprintf(err, errlen, "out of memory");
        caves_free(s);
        return NULL;
    }
    return s;
}


/* A caves.* change alters only kinds the pass carves: listed in
 * caves.biomes, with caves.enable on. The list itself and the switch may
 * add or remove this kind's caves either way: they always count. */
static bool caves_affect(const worldgen_kind *kind, const char *name)
{
    if (strcmp(name, "caves.biomes") == 0 || strcmp(name, "caves.enable") == 0) return true;
    const cvar *biomes = cvar_find("caves.biomes");
    if (!cvar_int("caves.enable", 0) || !biomes || !listed(biomes->str, kind->name)) return false;
    /* caves.features_KIND belongs to one kind (caves.features_iterations, _stride to all) */
    static const char features[] = "caves.features_";
    if (strncmp(name, features, sizeof features - 1) == 0 && worldgen_find(name + sizeof features - 1))
        return strcmp(name + sizeof features - 1, kind->name) == 0;
    return true;
}

static const worldgen_pass k_pass = { caves_prepare, caves_column, caves_prepare_window, caves_free, "caves.", caves_affect };

/* A grammar file cvar refuses a file that does not parse, with file:line:col. */
static bool validate_grammar(const cvar *proposed, char *err, size_t errlen, void *user);

/* A feature ruleset may also be "none". */
static bool validate_features(const cvar *proposed, char *err, size_t errlen, void *user)
{
    return is_none(proposed->str) || validate_grammar(proposed, err, errlen, user);
}

static bool validate_grammar(const cvar *proposed, char *err, size_t errlen, void *user)
{
    grammar *g = malloc(sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = caves_load_grammar(proposed->str, g, err, errlen);
    free(g);
    return ok;
}

void caves_register(void)
{
    const unsigned F = CVAR_ARCHIVE | CVAR_REGEN;
    const cvar_desc vars[] = {
        { "caves.enable", "carve grammar caves and overhangs into the biomes listed in caves.biomes", CVAR_BOOL, F, "1" },
        { "caves.biomes", "world kinds that get caves (space separated)", CVAR_STRING, F, "desert taiga deciduous" },
        { "caves.grammar", "cave ruleset grown around each tunnel (a file, or a name under assets/grammars)", CVAR_STRING, F,
          "cave.grammar", .validate = validate_grammar },
        { "caves.overhang_grammar", "overhang ruleset derived over all the terrain", CVAR_STRING, F, "overhang.grammar",
          .validate = validate_grammar },
        { "caves.iterations", "derivations of the cave grammar per tunnel box (0 = bare tunnels)", CVAR_INT, F, "2", 0, 16 },
        { "caves.overhang_iterations", "derivations of the overhang grammar per tile (0 = none); each erodes walls one voxel deeper",
          CVAR_INT, F, "2", 0, 16 },
        { "caves.stride", "window stride x y z of both grammars (1 1 1 = every position)", CVAR_VEC3, F, "1 1 1", 1, 8 },
        { "caves.orientation", "vertical planes the 2D rules apply in: x (the paper's), z, xz (both), all (both, mirrored too)",
          CVAR_ENUM, F, "all", .values = k_orient_names },
        { "caves.margin", "voxels x y z added around each tunnel's box for the cave grammar", CVAR_VEC3, F, "6 6 6", 0, 64 },
        { "caves.tile", "side in voxels of the overhang grammar's tiles (windows never cross a tile edge)", CVAR_INT, F, "64", 16, 512 },
        { "caves.min_y", "lowest y the caves and grammars touch (keeps the floor whole)", CVAR_INT, F, "3", 1, 1024 },
        { "caves.max_y", "y the caves and grammars stay below", CVAR_INT, F, "1024", 2, 4096 },
        { "caves.worms", "worm tunnels per 64 x 64 columns; each starts at the surface (an entrance)", CVAR_FLOAT, F, "1", 0, 16 },
        { "caves.worm_length", "steps (voxels) a worm tunnels", CVAR_INT, F, "70", 1, 1000 },
        { "caves.worm_radius", "tunnel radius in voxels (varies +-25% per step)", CVAR_FLOAT, F, "2.2", 0.5, 16 },
        { "caves.worm_dip", "downward slope of a worm leaving the surface", CVAR_FLOAT, F, "0.35", 0, 4 },
        { "caves.chamber_chance", "chance per step that a worm opens a chamber 2.5x its radius", CVAR_FLOAT, F, "0.04", 0, 1 },
        { "caves.glow_ore", "veins of glowing ore (a light source) per thousand 4x4x4 cells, grown on cave walls under a roof",
          CVAR_FLOAT, F, "20", 0, 1000 },
        /* rulesets in abstract terms (materials, slopes), derived last over the terrain like the overhangs */
        { "caves.features_desert", "desert feature ruleset after the overhangs (none = off): sandstone alcoves and sand drifts at the mesas",
          CVAR_STRING, F, "alcove.grammar", .validate = validate_features },
        { "caves.features_taiga", "taiga feature ruleset after the overhangs (none = off)", CVAR_STRING, F, "none",
          .validate = validate_features },
        { "caves.features_deciduous", "deciduous feature ruleset after the overhangs (none = off)", CVAR_STRING, F, "none",
          .validate = validate_features },
        { "caves.features_iterations", "derivations of the feature rulesets per tile (0 = none)", CVAR_INT, F, "1", 0, 16 },
        { "caves.features_stride", "window stride x y z of the feature rulesets: larger = fewer alcoves and drifts", CVAR_VEC3, F,
          "1 1 1", 1, 8 },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
    worldgen_set_pass(&k_pass);
}
