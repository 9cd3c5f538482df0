#include "physics/detach.h"

#include <stdlib.h>
#include <string.h>

void detach_free(detach *d)
{
    free(d->key);
    free(d->stamp);
    free(d->search);
    free(d->stack);
    free(d->trail);
    free(d->vox);
    free(d->groups);
    free(d->label);
    free(d->queue);
    memset(d, 0, sizeof *d);
}

/* A voxel's key: x and z modulo 2^24, y modulo 2^16, in separate bits.
 * (x was once all 32 bits under y's: from x = 2^21 on, 10^7 voxels out or
 * at any negative x, two voxels could share a key and a search skipped
 * one.) Unique within any search: one visits at most detach_limit (4M)
 * voxels, so spans less than 2^24 on x or z; y is within the world. */
static inline uint64_t pack(int x, int y, int z)
{
    return ((uint64_t)(uint32_t)x & 0xffffffu) | ((uint64_t)(uint32_t)y & 0xffffu) << 24 |
           ((uint64_t)(uint32_t)z & 0xffffffu) << 40;
}

static inline size_t slot_of(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static bool grow_set(detach *d)
{
    size_t cap = d->cap ? d->cap * 2 : 4096;
    uint64_t *key = malloc(cap * sizeof *key);
    uint32_t *stamp = calloc(cap, sizeof *stamp);
    int32_t *search = malloc(cap * sizeof *search);
    if (!key || !stamp || !search) {
        free(key), free(stamp), free(search);
        return false;
    }
    /* the live entries move over; stamps restart at 1 in the new table */
    for (size_t i = 0; i < d->cap; i++) {
        if (d->stamp[i] != d->now) continue;
        size_t j = slot_of(d->key[i], cap);
        while (stamp[j]) j = (j + 1) & (cap - 1);
        key[j] = d->key[i], stamp[j] = 1, search[j] = d->search[i];
    }
    free(d->key), free(d->stamp), free(d->search);
    d->key = key, d->stamp = stamp, d->search = search, d->cap = cap, d->now = 1;
    return true;
}

/* The search that visited (x, y, z) this call, or -1. */
static inline int32_t visited_by(const detach *d, uint64_t k)
{
    if (!d->cap) return -1;
    for (size_t j = slot_of(k, d->cap);; j = (j + 1) & (d->cap - 1)) {
        if (d->stamp[j] != d->now) return -1;
        if (d->key[j] == k) return d->search[j];
    }
}

static bool mark(detach *d, uint64_t k, int32_t search)
{
    if ((d->used + 1) * 2 > d->cap && !grow_set(d)) return false;
    size_t j = slot_of(k, d->cap);
    while (d->stamp[j] == d->now) j = (j + 1) & (d->cap - 1);
    d->key[j] = k, d->stamp[j] = d->now, d->search[j] = search;
    d->used++;
    return true;
}

static bool reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 256;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q) return false;
    *p = q, *cap = c;
    return true;
}

static bool trail_push(detach *d, int x, int y, int z)
{
    if (!reserve((void **)&d->trail, &d->trail_cap, (d->trail_count + 1) * 3, sizeof *d->trail)) return false;
    int *e = d->trail + d->trail_count * 3;
    e[0] = x, e[1] = y, e[2] = z;
    d->trail_count++;
    return true;
}

static inline bool solid_at(const world *w, int x, int y, int z)
{
    return world_in_bounds(w, x, y, z) && world_get(w, x, y, z) != MAT_AIR;
}

/* Neighbours in the order they are pushed: the last one pushed is searched
 * first, so the search heads down (toward the floor) before it spreads:
 * from the top of a mountain it reaches y = 0 in about its height. */
static const int k_order[6][3] = { { 0, 1, 0 }, { 1, 0, 0 }, { -1, 0, 0 }, { 0, 0, 1 }, { 0, 0, -1 }, { 0, -1, 0 } };

static inline bool foliage_at(const world *w, int x, int y, int z)
{
    return world_in_bounds(w, x, y, z) && material_is_foliage(world_get(w, x, y, z));
}

/* Whether (x, y, z) touches a non-air voxel that is not foliage. */
static bool touches_wood(const world *w, int x, int y, int z)
{
    for (int n = 0; n < 6; n++) {
        int nx = x + k_order[n][0], ny = y + k_order[n][1], nz = z + k_order[n][2];
        if (solid_at(w, nx, ny, nz) && !foliage_at(w, nx, ny, nz)) return true;
    }
    return false;
}

/* One search from a seed no earlier search met. Returns 1 grounded, 0
 * loose, -1 out of memory; its voxels are in d->trail.
 * Foliage carries no load (a crown does not hang on its neighbour's), so
 * a normal search does not step from leaf to leaf: it holds together
 * wood, stone, earth and the leaves that touch them. A leafy search
 * (from a leaf that touches no such voxel) steps only through leaves, and
 * meeting anything else means the leaves belong to it: grounded. */
static int search(detach *d, const world *w, int sx, int sy, int sz, int32_t id, long limit, bool leafy)
{
    size_t top = 0;
    d->trail_count = 0;
    if (!mark(d, pack(sx, sy, sz), id) || !trail_push(d, sx, sy, sz)) return -1;
    /* the seed's own column too: one not generated yet is unknown */
    if (d->unbounded && !world_voxel_ready(w, sx, sz)) {
        d->unknown++;
        return 1;
    }
    if (!reserve((void **)&d->stack, &d->stack_cap, 3, sizeof *d->stack)) return -1;
    d->stack[0] = sx, d->stack[1] = sy, d->stack[2] = sz;
    top = 1;
    while (top) {
        top--;
        int x = d->stack[3 * top], y = d->stack[3 * top + 1], z = d->stack[3 * top + 2];
        if (y == 0) return 1; /* rests on the bedrock floor */
        bool leaf = foliage_at(w, x, y, z);
        for (int n = 0; n < 6; n++) {
            int nx = x + k_order[n][0], ny = y + k_order[n][1], nz = z + k_order[n][2];
            /* a step into another column: one the window lacks, or that is
             * not generated yet, may hold the ground this group rests on */
            int ncx = nx >> CHUNK_BITS, ncz = nz >> CHUNK_BITS;
            if (d->unbounded && (ncx != x >> CHUNK_BITS || ncz != z >> CHUNK_BITS) &&
                world_column_state(w, ncx, ncz) != WORLD_COL_READY) {
                d->unknown++;
                return 1;
            }
            if (!solid_at(w, nx, ny, nz)) continue;
            bool nleaf = foliage_at(w, nx, ny, nz);
            if (leafy && !nleaf) return 1;
            if (!leafy && leaf && nleaf) continue;
            uint64_t k = pack(nx, ny, nz);
            int32_t by = visited_by(d, k);
            if (by == id) continue;
            /* an earlier search that met this voxel finished: had it been
             * loose it would have met ours too, so it was grounded (or, for
             * leaves, they hang on something that is decided already) */
            if (by >= 0) return 1;
            if ((long)d->trail_count >= limit) {
                d->bounded++;
                return 1;
            }
            if (!mark(d, k, id)) return -1;
            if (!reserve((void **)&d->stack, &d->stack_cap, (top + 1) * 3, sizeof *d->stack)) return -1;
            d->stack[3 * top] = nx, d->stack[3 * top + 1] = ny, d->stack[3 * top + 2] = nz;
            top++;
            if (!trail_push(d, nx, ny, nz)) return -1;
        }
    }
    return 0;
}

/* A loose group takes the leaves that grow nearer to it than to anything
 * else: inside its box widened by `reach`, a breadth-first race through
 * leaves from two sides at once: the group's leaves, and every leaf that
 * touches other wood, stone or earth or that another search met (those
 * hang on something else; they start first and win ties, so what is
 * shared stays). What the group wins, at most `reach` steps out, goes
 * with it. */
static bool take_leaves(detach *d, const world *w, int32_t id, int reach)
{
    int lo[3], hi[3], n[3];
    /* the world's window, in world coordinates (a streamed one may be anywhere) */
    const int start[3] = { world_x0(w), 0, world_z0(w) }, end[3] = { start[0] + w->sx, w->sy, start[2] + w->sz };
    for (int a = 0; a < 3; a++) {
        lo[a] = hi[a] = d->trail[a];
        for (size_t i = 0; i < d->trail_count; i++) {
            int v = d->trail[3 * i + a];
            if (v < lo[a]) lo[a] = v;
            if (v > hi[a]) hi[a] = v;
        }
        lo[a] = lo[a] - reach < start[a] ? start[a] : lo[a] - reach;
        hi[a] = hi[a] + reach + 1 > end[a] ? end[a] : hi[a] + reach + 1;
        n[a] = hi[a] - lo[a];
    }
    size_t vol = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
    if (!reserve((void **)&d->label, &d->label_cap, vol, 1)) return false;
    if (!reserve((void **)&d->queue, &d->queue_cap, vol, sizeof *d->queue)) return false;
    memset(d->label, 0, vol);
#define BOX(x, y, z) ((size_t)((x) - lo[0]) + (size_t)n[0] * ((size_t)((z) - lo[2]) + (size_t)n[2] * (size_t)((y) - lo[1])))
    enum { FREE = 0, OURS = 1, THEIRS = 2, WALL = 3 };
    size_t head = 0, tail = 0;
    for (int y = lo[1]; y < hi[1]; y++)
        for (int z = lo[2]; z < hi[2]; z++)
            for (int x = lo[0]; x < hi[0]; x++) {
                size_t i = BOX(x, y, z);
                if (!foliage_at(w, x, y, z)) {
                    d->label[i] = WALL;
                    continue;
                }
                int32_t by = visited_by(d, pack(x, y, z));
                if (by == id) continue; /* ours: seeded below */
                if (by >= 0 || y == 0 || touches_wood(w, x, y, z)) d->label[i] = THEIRS, d->queue[tail++] = i;
            }
    for (size_t k = 0; k < d->trail_count; k++) {
        const int *v = &d->trail[3 * k];
        if (!foliage_at(w, v[0], v[1], v[2])) continue;
        size_t i = BOX(v[0], v[1], v[2]);
        d->label[i] = OURS, d->queue[tail++] = i;
    }
#undef BOX
    /* layers: the queue holds one distance after another */
    size_t layer_end = tail;
    int dist = 0;
    const size_t step[3] = { 1, (size_t)n[0] * (size_t)n[2], (size_t)n[0] };
    while (head < tail) {
        if (head == layer_end) {
            dist++;
            layer_end = tail;
        }
        size_t i = d->queue[head++];
        uint8_t who = d->label[i];
        if (who == OURS && dist >= reach) continue;
        int c[3] = { (int)(i % (size_t)n[0]), (int)(i / ((size_t)n[0] * (size_t)n[2])),
                     (int)(i / (size_t)n[0] % (size_t)n[2]) };
        const int nn[3] = { n[0], n[1], n[2] };
        for (int a = 0; a < 3; a++)
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                int q = c[a] + sgn;
                if (q < 0 || q >= nn[a]) continue;
                size_t j = sgn < 0 ? i - step[a] : i + step[a];
                if (d->label[j] != FREE) continue;
                d->label[j] = who;
                d->queue[tail++] = j;
                if (who == OURS) {
                    int x = lo[0] + (int)(j % (size_t)n[0]), y = lo[1] + (int)(j / ((size_t)n[0] * (size_t)n[2]));
                    int z = lo[2] + (int)(j / (size_t)n[0] % (size_t)n[2]);
                    if (!mark(d, pack(x, y, z), id) || !trail_push(d, x, y, z)) return false;
                }
            }
    }
    return true;
}

static bool add_group(detach *d)
{
    if (!reserve((void **)&d->groups, &d->group_cap, d->group_count + 1, sizeof *d->groups)) return false;
    if (!reserve((void **)&d->vox, &d->vox_cap, (d->vox_count + d->trail_count) * 3, sizeof *d->vox)) return false;
    detach_group *g = &d->groups[d->group_count++];
    g->first = d->vox_count;
    g->count = d->trail_count;
    for (int a = 0; a < 3; a++) g->lo[a] = d->trail[a], g->hi[a] = d->trail[a] + 1;
    for (size_t i = 0; i < d->trail_count; i++)
        for (int a = 0; a < 3; a++) {
            int v = d->trail[3 * i + a];
            if (v < g->lo[a]) g->lo[a] = v;
            if (v + 1 > g->hi[a]) g->hi[a] = v + 1;
        }
    memcpy(d->vox + d->vox_count * 3, d->trail, d->trail_count * 3 * sizeof *d->vox);
    d->vox_count += d->trail_count;
    return true;
}

size_t detach_find(detach *d, const world *w, const int lo_in[3], const int hi_in[3], long limit)
{
    d->vox_count = d->group_count = 0;
    d->visited = 0;
    d->bounded = d->unknown = 0;
    d->out_of_memory = false;
    d->used = 0;
    if (++d->now == 0) { /* stamps wrapped: forget them all once */
        if (d->stamp) memset(d->stamp, 0, d->cap * sizeof *d->stamp);
        d->now = 1;
    }
    if (limit < 1) limit = 1;
    const int start[3] = { world_x0(w), 0, world_z0(w) }, end[3] = { start[0] + w->sx, w->sy, start[2] + w->sz };
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = lo_in[a] - 1 < start[a] ? start[a] : lo_in[a] - 1;
        hi[a] = hi_in[a] + 1 > end[a] ? end[a] : hi_in[a] + 1;
        if (lo[a] >= hi[a]) return 0;
    }
    int32_t searches = 0;
    int reach = d->leaf_reach > 0 ? d->leaf_reach : DETACH_LEAF_REACH;
    /* wood, stone and earth first (with the leaves they carry), then the
     * leaves left over, so a crown's leaves go with its branches */
    for (int leafy = 0; leafy < 2; leafy++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int z = lo[2]; z < hi[2]; z++)
                for (int x = lo[0]; x < hi[0]; x++) {
                    if (world_get(w, x, y, z) == MAT_AIR || visited_by(d, pack(x, y, z)) >= 0) continue;
                    bool seed_leafy = foliage_at(w, x, y, z) && !touches_wood(w, x, y, z);
                    if (seed_leafy != (bool)leafy) continue;
                    int32_t id = searches++;
                    int r = search(d, w, x, y, z, id, limit, seed_leafy);
                    if (r == 0 && !seed_leafy && !take_leaves(d, w, id, reach)) r = -1;
                    d->visited += (long)d->trail_count;
                    if (r < 0 || (r == 0 && !add_group(d))) {
                        d->out_of_memory = true;
                        d->group_count = d->vox_count = 0;
                        return 0;
                    }
                }
    return d->group_count;
}
