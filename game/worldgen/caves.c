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

bool caves_apply_box_with(world *w, const grammar_program *prog, const int lo[3], const int hi[3], const int stride[3],
                          int iterations, uint64_t seed, caves_derive_fn derive, void *user, caves_edit *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    int size[3] = { w->sx, w->sy, w->sz };
    for (int a = 0; a < 3; a++)
        if (lo[a] < 0 || hi[a] > size[a] || lo[a] >= hi[a]) {
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
    /* row by row, a chunk's run of x at a time */
    for (int z = 0; z < n[2]; z++)
        for (int y = 0; y < n[1]; y++) {
            int wy = lo[1] + y, wz = lo[2] + z;
            uint8_t *row = mats + (size_t)n[0] * ((size_t)y + (size_t)n[1] * (size_t)z);
            for (int x = 0; x < n[0];) {
                int wx = lo[0] + x, run = CHUNK_SIZE - (wx & CHUNK_MASK);
                run = run < n[0] - x ? run : n[0] - x;
                const chunk *c = world_chunk(w, wx >> CHUNK_BITS, wy >> CHUNK_BITS, wz >> CHUNK_BITS);
                memcpy(row + x, &c->vox[CHUNK_INDEX(wx & CHUNK_MASK, wy & CHUNK_MASK, wz & CHUNK_MASK)], (size_t)run);
                x += run;
            }
        }
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

typedef struct caves_state {
    grammar_program cave, overhang, features;
    bool has_features; /* the kind's caves.features_KIND names a ruleset */
    uint64_t seed;
    int iterations, overhang_iterations, feature_iterations, stride[3], feature_stride[3], margin[3], tile, min_y, max_y;
    float worm_density, worm_radius, worm_dip, chamber_chance;
    int worm_length;
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

static void *caves_prepare(const worldgen_kind *kind, int64_t seed, char *err, size_t errlen)
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
    return s;
}

typedef struct surface_job {
    const world *w;
    int *h;
    uint8_t *air; /* per chunk: nothing but air */
} surface_job;

static void air_chunk(void *arg, int i)
{
    surface_job *j = arg;
    const chunk *c = &j->w->chunks[i];
    j->air[i] = c->vox[0] == MAT_AIR && chunk_is_uniform(c);
}

/* Highest terrain voxel of every column of row z (plants are not ground). */
static void surface_row(void *arg, int z)
{
    surface_job *j = arg;
    const world *w = j->w;
    for (int x = 0; x < w->sx; x++) {
        int y = w->sy - 1;
        /* straight into the chunks: a column is a run of strided bytes */
        while (y > 0) {
            int ci = world_chunk_index(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS);
            if (j->air[ci]) { /* the sky: skip the whole chunk */
                y = (y & ~CHUNK_MASK) - 1;
                continue;
            }
            const chunk *c = &w->chunks[ci];
            if (caves_is_terrain(c->vox[CHUNK_INDEX(x & CHUNK_MASK, y & CHUNK_MASK, z & CHUNK_MASK)])) break;
            y--;
        }
        j->h[z * w->sx + x] = y;
    }
}

typedef struct box {
    int lo[3], hi[3];
} box;

/* Carves one worm's spheres; returns the box its spheres span. */
static box carve_worm(const caves_state *s, world *w, const int *surface, int index)
{
    uint64_t ws = rng_mix64(s->seed ^ (0x57a11ULL + (uint64_t)index));
    box b = { { INT32_MAX, INT32_MAX, INT32_MAX }, { INT32_MIN, INT32_MIN, INT32_MIN } };
    int x0 = (int)(unit(ws, 0, 0, 1) * w->sx), z0 = (int)(unit(ws, 0, 0, 2) * w->sz);
    double pos[3] = { x0 + 0.5, surface[z0 * w->sx + x0] + 1.0, z0 + 0.5 };
    double yaw = unit(ws, 0, 0, 3) * 6.283185307179586, pitch = -atan(s->worm_dip);
    if (pos[1] < s->min_y + 4) return b; /* no ground to tunnel into */
    /* on a slope the worm heads uphill, level at first: the mouth opens in the
     * hillside and its lip is an overhang over the lower ground in front */
    int ax = x0 - 4 < 0 ? 0 : x0 - 4, bx = x0 + 4 >= w->sx ? w->sx - 1 : x0 + 4;
    int az = z0 - 4 < 0 ? 0 : z0 - 4, bz = z0 + 4 >= w->sz ? w->sz - 1 : z0 + 4;
    double gx = surface[z0 * w->sx + bx] - surface[z0 * w->sx + ax], gz = surface[bz * w->sx + x0] - surface[az * w->sx + x0];
    bool uphill = gx * gx + gz * gz >= 4.0;
    if (uphill) {
        yaw = atan2(gx, -gz);
        pitch = 0.0;
        pos[1] += s->worm_radius; /* the mouth's floor at the foot of the slope */
    }
    for (int step = 0; step < s->worm_length; step++) {
        double r = s->worm_radius * (0.75 + 0.5 * unit(ws, step, 1, 0));
        if (step < 6) r *= 1.5; /* a wide mouth */
        if (step > 8 && unit(ws, step, 2, 0) < s->chamber_chance) r *= 2.5;
        int lo[3], hi[3];
        for (int a = 0; a < 3; a++) {
            lo[a] = (int)floor(pos[a] - r);
            hi[a] = (int)ceil(pos[a] + r);
        }
        for (int y = lo[1] < s->min_y ? s->min_y : lo[1]; y <= hi[1] && y < s->max_y; y++)
            for (int z = lo[2]; z <= hi[2]; z++)
                for (int x = lo[0]; x <= hi[0]; x++) {
                    double dx = x + 0.5 - pos[0], dy = y + 0.5 - pos[1], dz = z + 0.5 - pos[2];
                    if (dx * dx + dy * dy + dz * dz > r * r || !caves_is_terrain(world_get(w, x, y, z))) continue;
                    world_set(w, x, y, z, MAT_AIR);
                }
        for (int a = 0; a < 3; a++) {
            b.lo[a] = lo[a] < b.lo[a] ? lo[a] : b.lo[a];
            b.hi[a] = hi[a] + 1 > b.hi[a] ? hi[a] + 1 : b.hi[a];
        }
        /* wander: the yaw drifts; below the surface the tunnel levels out and meanders */
        yaw += (unit(ws, step, 3, 0) - 0.5) * 0.7;
        int cx = (int)pos[0], cz = (int)pos[2];
        double depth = surface[cz * w->sx + cx] - pos[1];
        if (depth > 6.0) pitch = pitch * 0.85 + (unit(ws, step, 4, 0) - 0.55) * 0.35;
        else if (uphill && depth > 3.0 * s->worm_radius) pitch = -atan(s->worm_dip); /* inside the hill: dive */
        pos[0] += sin(yaw) * cos(pitch);
        pos[1] += sin(pitch);
        pos[2] -= cos(yaw) * cos(pitch);
        if (pos[1] < s->min_y + r) pos[1] = s->min_y + r;
        if (pos[0] < 1 || pos[2] < 1 || pos[0] >= w->sx - 1 || pos[2] >= w->sz - 1) break;
    }
    return b;
}

static void clip_box(box *b, const world *w, int min_y, int max_y)
{
    int size[3] = { w->sx, w->sy < max_y ? w->sy : max_y, w->sz };
    for (int a = 0; a < 3; a++) {
        int floor_a = a == 1 ? min_y : 0;
        if (b->lo[a] < floor_a) b->lo[a] = floor_a;
        if (b->hi[a] > size[a]) b->hi[a] = size[a];
    }
}

static bool box_empty(const box *b) { return b->lo[0] >= b->hi[0] || b->lo[1] >= b->hi[1] || b->lo[2] >= b->hi[2]; }

/* A ruleset over all the terrain, a tile at a time, from the tile's lowest
 * ground (less the y margin) to just above its highest. `salt` gives each
 * ruleset its own tie-breaks (0: the overhangs', as they always were). */
static void derive_tiles(const caves_state *s, world *w, const int *surface, job_pool *jobs, const grammar_program *prog,
                         int iterations, const int stride[3], uint64_t salt)
{
    char err[256];
    caves_edit e;
    for (int tz = 0; tz < w->sz && iterations > 0; tz += s->tile)
        for (int tx = 0; tx < w->sx; tx += s->tile) {
            box b = { { tx, s->min_y, tz }, { tx + s->tile, 0, tz + s->tile } };
            clip_box(&b, w, s->min_y, s->max_y);
            /* the band from the tile's lowest ground (less the y margin) to just above its highest */
            int top = 0, bottom = w->sy;
            for (int z = b.lo[2]; z < b.hi[2]; z++)
                for (int x = b.lo[0]; x < b.hi[0]; x++) {
                    int h = surface[z * w->sx + x];
                    top = h > top ? h : top;
                    bottom = h < bottom ? h : bottom;
                }
            b.hi[1] = top + 2 < w->sy ? top + 2 : w->sy;
            if (bottom - s->margin[1] > b.lo[1]) b.lo[1] = bottom - s->margin[1];
            if (b.hi[1] > s->max_y) b.hi[1] = s->max_y;
            if (box_empty(&b)) continue;
            uint64_t ts = rng_mix64(s->seed ^ salt ^ ((uint64_t)(uint32_t)tx << 32 | (uint32_t)tz));
            if (!pass_apply_box(w, prog, b.lo, b.hi, stride, iterations, ts, jobs, &e, err, sizeof err))
                log_error("caves: %s", err);
        }
}

static void caves_run(void *state, world *w, job_pool *jobs)
{
    caves_state *s = state;
    int *surface = malloc(sizeof(int) * (size_t)w->sx * (size_t)w->sz);
    if (!surface) return;
    uint8_t *air = malloc((size_t)w->chunk_count);
    if (!air) {
        free(surface);
        return;
    }
    surface_job sj = { w, surface, air };
    job_parallel_for(jobs, w->chunk_count, air_chunk, &sj);
    job_parallel_for(jobs, w->sz, surface_row, &sj);
    free(air);
    char err[256];
    caves_edit e;
    /* seeding: worms from the surface, then the cave grammar grows each one in its box */
    int worms = (int)lround(s->worm_density * (double)w->sx * (double)w->sz / 4096.0);
    for (int i = 0; i < worms; i++) {
        box b = carve_worm(s, w, surface, i);
        for (int a = 0; a < 3; a++) {
            b.lo[a] -= s->margin[a];
            b.hi[a] += s->margin[a];
        }
        clip_box(&b, w, s->min_y, s->max_y);
        if (box_empty(&b) || s->iterations == 0) continue;
        if (!pass_apply_box(w, &s->cave, b.lo, b.hi, s->stride, s->iterations, s->seed + (uint64_t)i, jobs, &e, err,
                             sizeof err))
            log_error("caves: %s", err);
    }
    derive_tiles(s, w, surface, jobs, &s->overhang, s->overhang_iterations, s->stride, 0);
    /* the biome's own features last, on the terrain the caves and overhangs left */
    if (s->has_features)
        derive_tiles(s, w, surface, jobs, &s->features, s->feature_iterations, s->feature_stride, 0xfea7u);
    free(surface);
}

static void caves_free(void *state) { free(state); }

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

static const worldgen_pass k_pass = { caves_prepare, caves_run, caves_free, "caves.", caves_affect };

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
