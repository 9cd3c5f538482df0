/* octree_query: what the occupancy octree answers without changing it:
 * the first voxel a ray meets, the voxels in a box or a sphere, and
 * whether any cell of a box is occupied. Split from octree.c, which builds
 * and edits the tree and intersects it with the tool's. */
#include <math.h>
#include <string.h>

#include "physics/octree_internal.h"

/* ---- ray ---- */

typedef struct ray_ctx {
    const octree *o;
    float org[3], dir[3], inv[3];
    float max_t;
    int hit[3], normal[3];
    float t;
} ray_ctx;

/* Entry and exit of the ray through the box [lo, lo + size)^3; the axis it
 * entered through in *axis (-1: it starts inside). */
static bool ray_box(const ray_ctx *r, const float lo[3], float size, float *t0, float *t1, int *axis)
{
    float a = -INFINITY, b = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; i++) {
        float l = lo[i], h = lo[i] + size;
        if (r->dir[i] == 0.f) {
            if (r->org[i] < l || r->org[i] >= h) return false;
            continue;
        }
        float u = (l - r->org[i]) * r->inv[i], v = (h - r->org[i]) * r->inv[i];
        if (u > v) { float s = u; u = v; v = s; }
        if (u > a) { a = u; ax = i; }
        if (v < b) b = v;
    }
    if (a > b || b < 0.f || a > r->max_t) return false;
    if (a < 0.f) ax = -1;
    *t0 = a;
    *t1 = b;
    *axis = ax;
    return true;
}

static bool ray_node(ray_ctx *r, int k, const int c[3])
{
    const octree *o = r->o;
    uint8_t m = o->lev[k][cell_index(o, k, c[0], c[1], c[2])];
    struct { float t; int axis; int ch[3]; } order[8];
    int n = 0;
    float size = (float)(1 << (k - 1));
    for (int i = 0; i < 8; i++) {
        if (!(m >> i & 1)) continue;
        int ch[3] = { c[0] * 2 + (i & 1), c[1] * 2 + (i >> 1 & 1), c[2] * 2 + (i >> 2 & 1) };
        float lo[3] = { (float)ch[0] * size, (float)ch[1] * size, (float)ch[2] * size }, t0, t1;
        int ax;
        if (!ray_box(r, lo, size, &t0, &t1, &ax)) continue;
        /* insertion sort by entry: children are disjoint, so the first hit found is the nearest */
        int j = n++;
        while (j > 0 && order[j - 1].t > t0) { order[j] = order[j - 1]; j--; }
        order[j].t = t0;
        order[j].axis = ax;
        memcpy(order[j].ch, ch, sizeof ch);
    }
    for (int i = 0; i < n; i++) {
        if (k - 1 > 0) {
            if (ray_node(r, k - 1, order[i].ch)) return true;
            continue;
        }
        memcpy(r->hit, order[i].ch, sizeof r->hit);
        memset(r->normal, 0, sizeof r->normal);
        int ax = order[i].axis;
        if (ax >= 0) r->normal[ax] = r->dir[ax] > 0.f ? -1 : 1;
        r->t = order[i].t < 0.f ? 0.f : order[i].t;
        return true;
    }
    return false;
}

bool octree_raycast(const octree *o, const double origin[3], const float dir[3], float max_dist, int hit[3],
                    int normal[3], float *dist)
{
    float len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!(len > 0.f) || !isfinite(len) || !(max_dist >= 0.f) || o->count == 0) return false;
    for (int i = 0; i < 3; i++)
        if (!isfinite(origin[i])) return false;
    ray_ctx r = { .o = o, .max_t = max_dist };
    for (int i = 0; i < 3; i++) {
        /* in the tree's cells: small, whatever the origin's distance out */
        r.org[i] = (float)(origin[i] - o->org[i]);
        r.dir[i] = dir[i] / len;
        r.inv[i] = r.dir[i] != 0.f ? 1.f / r.dir[i] : 0.f;
    }
    float root = (float)(1 << o->levels), lo[3] = { 0, 0, 0 }, t0, t1;
    int ax;
    if (!ray_box(&r, lo, root, &t0, &t1, &ax)) return false;
    const int zero[3] = { 0, 0, 0 };
    if (!ray_node(&r, o->levels, zero)) return false;
    if (hit)
        for (int i = 0; i < 3; i++) hit[i] = r.hit[i] + o->org[i];
    if (normal) memcpy(normal, r.normal, sizeof r.normal);
    if (dist) *dist = r.t;
    return true;
}

/* ---- box and sphere ---- */

typedef struct region_ctx {
    const octree *o;
    float lo[3], hi[3]; /* box, or the sphere's bounds */
    bool sphere;
    float c[3], r2;
    octree_visit_fn fn;
    void *user;
} region_ctx;

/* Does the cube [lo, lo + size) meet the region? */
static bool region_meets(const region_ctx *q, const float lo[3], float size)
{
    for (int i = 0; i < 3; i++)
        if (!(lo[i] < q->hi[i] && lo[i] + size > q->lo[i])) return false;
    if (!q->sphere) return true;
    float d2 = 0.f;
    for (int i = 0; i < 3; i++) {
        float v = q->c[i] < lo[i] ? lo[i] - q->c[i] : q->c[i] > lo[i] + size ? q->c[i] - (lo[i] + size) : 0.f;
        d2 += v * v;
    }
    return d2 <= q->r2;
}

static bool region_node(const region_ctx *q, int k, const int c[3])
{
    const octree *o = q->o;
    uint8_t m = o->lev[k][cell_index(o, k, c[0], c[1], c[2])];
    float size = (float)(1 << (k - 1));
    for (int i = 0; i < 8; i++) {
        if (!(m >> i & 1)) continue;
        int ch[3] = { c[0] * 2 + (i & 1), c[1] * 2 + (i >> 1 & 1), c[2] * 2 + (i >> 2 & 1) };
        float lo[3] = { (float)ch[0] * size, (float)ch[1] * size, (float)ch[2] * size };
        if (!region_meets(q, lo, size)) continue;
        if (k - 1 > 0) {
            if (!region_node(q, k - 1, ch)) return false;
        } else if (!q->fn(q->user, ch[0] + o->org[0], ch[1] + o->org[1], ch[2] + o->org[2])) {
            return false;
        }
    }
    return true;
}

bool octree_query_box(const octree *o, const float lo[3], const float hi[3], octree_visit_fn fn, void *user)
{
    region_ctx q = { .o = o, .fn = fn, .user = user };
    for (int i = 0; i < 3; i++) {
        if (!(lo[i] < hi[i])) return true;
        q.lo[i] = lo[i] - (float)o->org[i], q.hi[i] = hi[i] - (float)o->org[i];
    }
    const int zero[3] = { 0, 0, 0 };
    return region_node(&q, o->levels, zero);
}

bool octree_query_sphere(const octree *o, const float centre[3], float radius, octree_visit_fn fn, void *user)
{
    if (!(radius >= 0.f)) return true;
    region_ctx q = { .o = o, .fn = fn, .user = user, .sphere = true, .r2 = radius * radius };
    for (int i = 0; i < 3; i++) {
        q.c[i] = centre[i] - (float)o->org[i];
        /* closed ball: widen the half-open bounds by a hair so a touching cube counts */
        q.lo[i] = nextafterf(q.c[i] - radius, -INFINITY);
        q.hi[i] = nextafterf(q.c[i] + radius, INFINITY);
    }
    const int zero[3] = { 0, 0, 0 };
    return region_node(&q, o->levels, zero);
}

/* Any occupied voxel of node (k, c) inside the cells lo..hi (inclusive)? */
static bool cells_node(const octree *o, int k, const int c[3], const int lo[3], const int hi[3])
{
    uint8_t m = o->lev[k][cell_index(o, k, c[0], c[1], c[2])];
    const int half = k - 1; /* children are cubes of side 2^half */
    for (int i = 0; m && i < 8; i++) {
        if (!(m >> i & 1)) continue;
        int ch[3] = { c[0] * 2 + (i & 1), c[1] * 2 + (i >> 1 & 1), c[2] * 2 + (i >> 2 & 1) };
        bool meets = true;
        for (int a = 0; a < 3 && meets; a++) meets = ch[a] << half <= hi[a] && ((ch[a] + 1) << half) - 1 >= lo[a];
        if (!meets) continue;
        if (half == 0 || cells_node(o, half, ch, lo, hi)) return true;
    }
    return false;
}

bool octree_cells_occupied(const octree *o, const int lo_in[3], const int hi_in[3])
{
    int lo[3], hi[3], k = 1;
    for (int a = 0; a < 3; a++) {
        int l = lo_in[a] - o->org[a], h = hi_in[a] - o->org[a];
        lo[a] = l < 0 ? 0 : l;
        hi[a] = h > o->size[a] - 1 ? o->size[a] - 1 : h;
        if (hi[a] < lo[a]) return false;
    }
    /* Start at the lowest level whose nodes are at least as wide as the
     * box, so it meets at most 2 x 2 x 2 of them: a player-sized query reads
     * a few bytes instead of walking down from the root. */
    while (k < o->levels && ((hi[0] - lo[0]) >> k || (hi[1] - lo[1]) >> k || (hi[2] - lo[2]) >> k)) k++;
    for (int y = lo[1] >> k; y <= hi[1] >> k; y++)
        for (int z = lo[2] >> k; z <= hi[2] >> k; z++)
            for (int x = lo[0] >> k; x <= hi[0] >> k; x++) {
                const int c[3] = { x, y, z };
                if (cells_node(o, k, c, lo, hi)) return true;
            }
    return false;
}

bool octree_box_occupied(const octree *o, const float lo[3], const float hi[3])
{
    int clo[3], chi[3];
    for (int a = 0; a < 3; a++) {
        if (!(lo[a] < hi[a])) return false; /* empty, or NaN */
        /* half-open: a box ending exactly on a face does not touch the cell beyond */
        float l = floorf(lo[a]) - (float)o->org[a], h = ceilf(hi[a]) - 1.f - (float)o->org[a];
        if (h < 0.f || l > (float)(o->size[a] - 1)) return false;
        clo[a] = (l < 0.f ? 0 : (int)l) + o->org[a];
        chi[a] = (h > (float)(o->size[a] - 1) ? o->size[a] - 1 : (int)h) + o->org[a];
    }
    return octree_cells_occupied(o, clo, chi);
}
