/* octree: building the occupancy octree (from dense voxels or the world,
 * a box at a time), editing it a voxel at a time, the tool's poses and the
 * paper's voxel pairs between two trees (octree.h). Its read-only queries
 * (rays, boxes, spheres, cells) are octree_query.c's. */
#include "physics/octree.h"

#include <math.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/origin.h"
#include "physics/octree_internal.h"

#define SQRT3_2 0.8660254037844386f
/* Float slack on sphere tests: coordinates stay below 2^16, so rounding is
 * far under this; a looser test only costs a few extra visits. */
#define SPHERE_SLACK 0.01f

octree *octree_create(int sx, int sy, int sz)
{
    if (sx < 1 || sy < 1 || sz < 1 || sx > 65536 || sy > 65536 || sz > 65536) return NULL;
    octree *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    /* versions of different trees never meet: a tree made where a freed one
     * was (the tool's terrain tree is replaced as the eye moves) must not
     * pass for it, or bodies would keep pairs found in the old one */
    static atomic_uint_fast64_t trees;
    o->version = (uint64_t)atomic_fetch_add(&trees, 1) << 32;
    o->size[0] = sx, o->size[1] = sy, o->size[2] = sz;
    int m = sx > sy ? sx : sy;
    if (sz > m) m = sz;
    int L = 1;
    while ((1 << L) < m) L++;
    o->levels = L;
    for (int k = 1; k <= L; k++) {
        size_t n = 1;
        for (int a = 0; a < 3; a++) {
            o->dim[k][a] = (o->size[a] + (1 << k) - 1) >> k;
            n *= (size_t)o->dim[k][a];
        }
        o->lev[k] = calloc(n, 1);
        if (!o->lev[k]) {
            octree_destroy(o);
            return NULL;
        }
    }
    return o;
}

void octree_destroy(octree *o)
{
    if (!o) return;
    for (int k = 1; k < OCTREE_MAX_LEVELS; k++) free(o->lev[k]);
    free(o);
}

/* The set bits of a byte (no popcnt instruction in the baseline x86-64 the
 * build targets: __builtin_popcount was a library call a byte). */
static inline int bits8(unsigned m)
{
    m = m - ((m >> 1) & 0x55u);
    m = (m & 0x33u) + ((m >> 2) & 0x33u);
    return (int)((m + (m >> 4)) & 0x0fu);
}

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "octree.c reads 8 voxels as one little-endian word (fill_chunk)"
#endif

/* The 8 voxels at p as a word with 1 in each byte that is not air (air
 * is 0) and 0 where it is: a byte's low 7 bits plus 0x7f carry into its
 * top bit exactly when one is set, never into the next byte. */
static inline uint64_t solid_bytes(const uint8_t *p)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return ((((v & low7) + low7) | v) >> 7) & 0x0101010101010101ull;
}

/* Voxels x and x+1 of such a word as bits 0 and 1 of the even byte x. */
static inline uint64_t pairs(uint64_t n) { return (n | n >> 7) & 0x0003000300030003ull; }

/* Packs four rows of children into n parent bytes: bit dx | dy << 1 |
 * dz << 2 (octant()) of out[i] says child 2i + dx of row dy | dz << 1 is
 * not 0. rows: dy = 0, dz = 0; dy = 1; dz = 1; both; NULL past the edge
 * (empty), as is a child at or past `len`. Voxels into leaves and level
 * k-1 into level k are the same packing. Returns the bits set. */
static long pack_rows(const uint8_t *const rows[4], int len, uint8_t *out, int n)
{
    long count = 0;
    int i = 0;
    for (; i + 4 <= n && 2 * i + 8 <= len; i += 4) { /* 8 children of each row, 4 parents, at once */
        /* spelled out: gcc -O2 kept a loop over the rows, with shifts by
         * a register, at twice the time */
        const uint64_t n0 = rows[0] ? solid_bytes(rows[0] + 2 * i) : 0, n1 = rows[1] ? solid_bytes(rows[1] + 2 * i) : 0;
        const uint64_t n2 = rows[2] ? solid_bytes(rows[2] + 2 * i) : 0, n3 = rows[3] ? solid_bytes(rows[3] + 2 * i) : 0;
        uint64_t m = pairs(n0) | pairs(n1) << 2 | pairs(n2) << 4 | pairs(n3) << 6;
        m = (m | m >> 8) & 0x0000ffff0000ffffull; /* the even bytes, packed */
        m = (m | m >> 16) & 0xffffffffull;
        const uint32_t m4 = (uint32_t)m;
        memcpy(out + i, &m4, sizeof m4);
        count += (long)(((n0 + n1 + n2 + n3) * 0x0101010101010101ull) >> 56); /* at most 4 a byte: fits the top one */
    }
    for (; i < n; i++) { /* the rest, a child at a time */
        unsigned m = 0;
        for (int r = 0; r < 4; r++)
            for (int dx = 0; dx < 2; dx++)
                if (rows[r] && 2 * i + dx < len && rows[r][2 * i + dx]) m |= 1u << (2 * r + dx);
        out[i] = (uint8_t)m;
        count += bits8(m);
    }
    return count;
}

/* After writing level-1 bytes directly: levels kfirst..klast over the
 * tree-local voxel box [lo, hi), each cell from its 8 children (a child
 * past the tree's edge is empty). */
static void rebuild_levels(octree *o, int kfirst, int klast, const int lo[3], const int hi[3])
{
    for (int k = kfirst < 2 ? 2 : kfirst; k <= klast && k <= o->levels; k++) {
        int a[3], b[3];
        for (int i = 0; i < 3; i++) {
            a[i] = lo[i] >> k;
            b[i] = hi[i] > lo[i] ? ((hi[i] - 1) >> k) + 1 : a[i];
            if (b[i] > o->dim[k][i]) b[i] = o->dim[k][i];
        }
        const int *d = o->dim[k - 1];
        const uint8_t *src = o->lev[k - 1];
        if (a[0] >= b[0]) continue;
        for (int y = a[1]; y < b[1]; y++)
            for (int z = a[2]; z < b[2]; z++) {
                const uint8_t *rows[4];
                for (int r = 0; r < 4; r++) {
                    int cy = 2 * y + (r & 1), cz = 2 * z + (r >> 1);
                    rows[r] = cy < d[1] && cz < d[2] ? &src[cell_index(o, k - 1, 2 * a[0], cy, cz)] : NULL;
                }
                pack_rows(rows, d[0] - 2 * a[0], &o->lev[k][cell_index(o, k, a[0], y, z)], b[0] - a[0]);
            }
    }
}

/* Every level above the leaves. */
static void rebuild_upper(octree *o)
{
    const int lo[3] = { 0, 0, 0 };
    rebuild_levels(o, 2, o->levels, lo, o->size);
}

static inline void set_bit1(octree *o, int x, int y, int z)
{
    o->lev[1][cell_index(o, 1, x >> 1, y >> 1, z >> 1)] |= (uint8_t)(1 << octant(x, y, z));
    o->count++;
}

octree *octree_from_dense(const uint8_t *vox, int sx, int sy, int sz)
{
    octree *o = octree_create(sx, sy, sz);
    if (!o) return NULL;
    for (int y = 0; y < sy; y++)
        for (int z = 0; z < sz; z++)
            for (int x = 0; x < sx; x++)
                if (*vox++) set_bit1(o, x, y, z);
    rebuild_upper(o);
    return o;
}

/* Chunk c at (cx, cy, cz) into the tree, whose origin is chunk aligned:
 * a uniform solid chunk fills its 16^3 level-1 bytes at once, a mixed one
 * packs each 2x2x2 group into its byte (8 voxels a store, not one). */
static void fill_chunk(octree *o, const chunk *c, int cx, int cy, int cz)
{
    const int x0 = cx * CHUNK_SIZE - o->org[0], y0 = cy * CHUNK_SIZE - o->org[1], z0 = cz * CHUNK_SIZE - o->org[2];
    const int half = CHUNK_SIZE / 2;
    if (chunk_is_uniform(c)) {
        if (c->vox[0] == MAT_AIR) return;
        for (int y = 0; y < half; y++)
            for (int z = 0; z < half; z++)
                memset(&o->lev[1][cell_index(o, 1, x0 / 2, y0 / 2 + y, z0 / 2 + z)], 0xff, (size_t)half);
        o->count += CHUNK_VOLUME;
        return;
    }
    for (int y = 0; y < CHUNK_SIZE; y += 2)
        for (int z = 0; z < CHUNK_SIZE; z += 2) {
            const uint8_t *rows[4] = { &c->vox[CHUNK_INDEX(0, y, z)], &c->vox[CHUNK_INDEX(0, y + 1, z)],
                                       &c->vox[CHUNK_INDEX(0, y, z + 1)], &c->vox[CHUNK_INDEX(0, y + 1, z + 1)] };
            o->count += pack_rows(rows, CHUNK_SIZE, &o->lev[1][cell_index(o, 1, x0 / 2, (y0 + y) / 2, (z0 + z) / 2)],
                                  CHUNK_SIZE / 2);
        }
}

octree *octree_box_begin(const world *w, const int lo_in[3], const int hi_in[3])
{
    int lo[3] = { lo_in[0], 0, lo_in[2] }, hi[3] = { hi_in[0], w->sy, hi_in[2] };
    if (lo[0] < world_x0(w)) lo[0] = world_x0(w);
    if (lo[2] < world_z0(w)) lo[2] = world_z0(w);
    if (hi[0] > world_x0(w) + w->sx) hi[0] = world_x0(w) + w->sx;
    if (hi[2] > world_z0(w) + w->sz) hi[2] = world_z0(w) + w->sz;
    if (hi[0] <= lo[0] || hi[2] <= lo[2] || (lo[0] & CHUNK_MASK) || (lo[2] & CHUNK_MASK)) return NULL;
    octree *o = octree_create(hi[0] - lo[0], hi[1], hi[2] - lo[2]);
    if (!o) return NULL;
    o->org[0] = lo[0], o->org[2] = lo[2];
    return o;
}

bool octree_box_fill(octree *o, const world *w, int *next, int columns)
{
    const int ncx = (o->size[0] + CHUNK_MASK) >> CHUNK_BITS, ncz = (o->size[2] + CHUNK_MASK) >> CHUNK_BITS;
    const int cx0 = o->org[0] >> CHUNK_BITS, cz0 = o->org[2] >> CHUNK_BITS;
    for (; *next < ncx * ncz && columns > 0; ++*next, columns--) {
        int cx = cx0 + *next % ncx, cz = cz0 + *next / ncx;
        for (int cy = 0; cy < w->cy; cy++) {
            const chunk *c = world_chunk(w, cx, cy, cz);
            if (c) fill_chunk(o, c, cx, cy, cz); /* a column the window left since the box began: air */
        }
        /* the levels whose cells lie inside one column (a level-5 cell is
         * a column's 32 voxels wide; the origin is chunk aligned): with
         * the column, so the tree's last frame does not derive them all */
        const int lo[3] = { cx * CHUNK_SIZE - o->org[0], 0, cz * CHUNK_SIZE - o->org[2] };
        const int hi[3] = { lo[0] + CHUNK_SIZE, o->size[1], lo[2] + CHUNK_SIZE };
        rebuild_levels(o, 2, CHUNK_BITS, lo, hi);
    }
    if (*next < ncx * ncz) return false;
    if (*next == ncx * ncz) { /* once: the levels above a column's (a 64th of the leaves' bytes at most) */
        const int lo[3] = { 0, 0, 0 };
        rebuild_levels(o, CHUNK_BITS + 1, o->levels, lo, o->size);
        ++*next;
    }
    return true;
}

octree *octree_from_world_box(const world *w, const int lo[3], const int hi[3])
{
    octree *o = octree_box_begin(w, lo, hi);
    int next = 0;
    if (o) octree_box_fill(o, w, &next, INT_MAX);
    return o;
}

octree *octree_from_world(const world *w)
{
    const int lo[3] = { world_x0(w), 0, world_z0(w) }, hi[3] = { world_x0(w) + w->sx, w->sy, world_z0(w) + w->sz };
    return octree_from_world_box(w, lo, hi);
}

void octree_size(const octree *o, int size[3]) { memcpy(size, o->size, sizeof o->size); }
void octree_origin(const octree *o, int org[3]) { memcpy(org, o->org, sizeof o->org); }
int octree_root_level(const octree *o) { return o->levels; }
long octree_count(const octree *o) { return o->count; }
uint64_t octree_version(const octree *o) { return o->version; }

static inline bool in_range(const octree *o, int x, int y, int z)
{
    return x >= 0 && y >= 0 && z >= 0 && x < o->size[0] && y < o->size[1] && z < o->size[2];
}

/* The public calls take world coordinates; the tree's cells start at org. */
bool octree_get(const octree *o, int x, int y, int z)
{
    x -= o->org[0], y -= o->org[1], z -= o->org[2];
    if (!in_range(o, x, y, z)) return false;
    return (o->lev[1][cell_index(o, 1, x >> 1, y >> 1, z >> 1)] >> octant(x, y, z)) & 1;
}

bool octree_set(octree *o, int x, int y, int z, bool occupied)
{
    x -= o->org[0], y -= o->org[1], z -= o->org[2];
    if (!in_range(o, x, y, z)) return false;
    int k = 1;
    uint8_t *b = &o->lev[1][cell_index(o, 1, x >> 1, y >> 1, z >> 1)];
    uint8_t bit = (uint8_t)(1 << octant(x, y, z));
    uint8_t old = *b, now = occupied ? (uint8_t)(old | bit) : (uint8_t)(old & ~bit);
    if (old == now) return false;
    *b = now;
    o->count += occupied ? 1 : -1;
    o->version++;
    /* climb only while a node turns empty or stops being empty */
    while (k < o->levels && (old == 0) != (now == 0)) {
        x >>= 1, y >>= 1, z >>= 1;
        k++;
        b = &o->lev[k][cell_index(o, k, x >> 1, y >> 1, z >> 1)];
        bit = (uint8_t)(1 << octant(x, y, z));
        old = *b;
        now = occupied ? (uint8_t)(old | bit) : (uint8_t)(old & ~bit);
        *b = now;
    }
    return true;
}

void octree_sync_world(octree *o, const world *w, const int lo[3], const int hi[3])
{
    int a[3], b[3];
    for (int i = 0; i < 3; i++) {
        a[i] = lo[i] < o->org[i] ? o->org[i] : lo[i];
        b[i] = hi[i] > o->org[i] + o->size[i] ? o->org[i] + o->size[i] : hi[i];
    }
    for (int y = a[1]; y < b[1]; y++)
        for (int z = a[2]; z < b[2]; z++)
            for (int x = a[0]; x < b[0]; x++) octree_set(o, x, y, z, world_get(w, x, y, z) != MAT_AIR);
}

bool octree_equal(const octree *a, const octree *b)
{
    if (memcmp(a->size, b->size, sizeof a->size) != 0 || memcmp(a->org, b->org, sizeof a->org) != 0 || a->count != b->count || a->levels != b->levels) return false;
    for (int k = 1; k <= a->levels; k++) {
        size_t n = (size_t)a->dim[k][0] * a->dim[k][1] * a->dim[k][2];
        if (memcmp(a->lev[k], b->lev[k], n) != 0) return false;
    }
    return true;
}

/* ---- poses ---- */

void octree_pose_identity(octree_pose *p, const float pos[3])
{
    memset(p, 0, sizeof *p);
    p->rot[0][0] = p->rot[1][1] = p->rot[2][2] = 1.f;
    memcpy(p->pos, pos, sizeof p->pos);
}

void octree_pose_from_yaw_pitch(octree_pose *p, float yaw_deg, float pitch_deg, const float pos[3])
{
    const float d2r = 0.017453292519943295f;
    float sy = sinf(yaw_deg * d2r), cy = cosf(yaw_deg * d2r);
    float sp = sinf(pitch_deg * d2r), cp = cosf(pitch_deg * d2r);
    /* columns: right (cos y, 0, sin y), up (-sin y sin p, cos p, cos y sin p),
     * back = -forward (-sin y cos p, -sin p, cos y cos p) */
    const float r[3][3] = {
        { cy, -sy * sp, -sy * cp },
        { 0.f, cp, -sp },
        { sy, cy * sp, cy * cp },
    };
    memcpy(p->rot, r, sizeof r);
    memcpy(p->pos, pos, sizeof p->pos);
    memset(p->org, 0, sizeof p->org);
}

void octree_pose_place(octree_pose *p, const double at[3])
{
    for (int i = 0; i < 3; i++) {
        p->org[i] = origin_snap(at[i]);
        p->pos[i] = (float)(at[i] - p->org[i]);
    }
}

void octree_pose_world(const octree_pose *p, double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = (double)p->org[i] + p->pos[i];
}

/* World position of a point of the tool grid. Every path that places a
 * tool voxel uses this one function, so the octree and the brute force
 * see bit-identical centres. */
static inline void tool_to_world(const octree_pose *p, const float pivot[3], float lx, float ly, float lz, float out[3])
{
    float a = lx - pivot[0], b = ly - pivot[1], c = lz - pivot[2];
    for (int i = 0; i < 3; i++) out[i] = p->pos[i] + (p->rot[i][0] * a + p->rot[i][1] * b + p->rot[i][2] * c);
}

/* The voxel test given the tool voxel's world centre. */
static inline bool pair_hit_at(const octree_pose *p, const float cw[3], const int t[3])
{
    float d0 = ((float)t[0] + 0.5f) - cw[0], d1 = ((float)t[1] + 0.5f) - cw[1], d2 = ((float)t[2] + 0.5f) - cw[2];
    for (int i = 0; i < 3; i++) {
        /* column i of rot is the tool's axis i: the local coordinate is a dot product */
        float l = p->rot[0][i] * d0 + p->rot[1][i] * d1 + p->rot[2][i] * d2;
        if (!(l >= -0.5f && l < 0.5f)) return false;
    }
    return true;
}

bool octree_voxel_pair_hit(const octree_pose *pose, const float pivot[3], const int t[3], const int c[3])
{
    float cw[3];
    tool_to_world(pose, pivot, (float)c[0] + 0.5f, (float)c[1] + 0.5f, (float)c[2] + 0.5f, cw);
    /* in the pose's frame, where both are small */
    const int tr[3] = { t[0] - pose->org[0], t[1] - pose->org[1], t[2] - pose->org[2] };
    return pair_hit_at(pose, cw, tr);
}

/* ---- pairs ---- */

void octree_pairs_free(octree_pairs *p)
{
    free(p->v);
    memset(p, 0, sizeof *p);
}

static inline void pairs_push(octree_pairs *p, const int t[3], const int c[3])
{
    if (p->count == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 256;
        octree_pair *v = realloc(p->v, cap * sizeof *v);
        if (!v) {
            p->out_of_memory = true;
            return;
        }
        p->v = v;
        p->cap = cap;
    }
    octree_pair *e = &p->v[p->count++];
    memcpy(e->t, t, sizeof e->t);
    memcpy(e->c, c, sizeof e->c);
}

static int pair_cmp(const void *a, const void *b)
{
    const octree_pair *x = a, *y = b;
    const int kx[6] = { x->t[1], x->t[2], x->t[0], x->c[1], x->c[2], x->c[0] };
    const int ky[6] = { y->t[1], y->t[2], y->t[0], y->c[1], y->c[2], y->c[0] };
    for (int i = 0; i < 6; i++)
        if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

void octree_pairs_sort(octree_pairs *p)
{
    if (p->count > 1) qsort(p->v, p->count, sizeof *p->v, pair_cmp);
}

typedef struct isect_ctx {
    const octree *t, *c;
    const octree_pose *pose;
    float pivot[3];
    float tr[OCTREE_MAX_LEVELS]; /* terrain radius per level: bounds voxel centres */
    float cr[OCTREE_MAX_LEVELS]; /* tool radius per level: bounds voxel cubes */
    float reach; /* < 0: the cube test; else voxel centres at most this far apart (octree_intersect_near) */
    octree_pairs *out;
} isect_ctx;

/* The leaf test of a query: the tool voxel's world centre cw against
 * terrain voxel t. */
static inline bool leaf_hit(const isect_ctx *x, const float cw[3], const int t[3])
{
    if (x->reach < 0) return pair_hit_at(x->pose, cw, t);
    float d0 = ((float)t[0] + 0.5f) - cw[0], d1 = ((float)t[1] + 0.5f) - cw[1], d2 = ((float)t[2] + 0.5f) - cw[2];
    return d0 * d0 + d1 * d1 + d2 * d2 <= x->reach * x->reach;
}

/* One step of the paper's algorithm: terrain node (tk, tc), tool node
 * (ck, cc) whose sphere centre in the world is cw. */
static void isect(const isect_ctx *x, int tk, const int tc[3], int ck, const int cc[3], const float cw[3])
{
    float half = (float)(1 << tk) * 0.5f;
    float dx = ((float)tc[0] * 2.f + 1.f) * half - cw[0];
    float dy = ((float)tc[1] * 2.f + 1.f) * half - cw[1];
    float dz = ((float)tc[2] * 2.f + 1.f) * half - cw[2];
    float rr = x->tr[tk] + x->cr[ck] + SPHERE_SLACK + (x->reach > 0 ? x->reach : 0.f);
    if (dx * dx + dy * dy + dz * dz > rr * rr) return;
    /* The paper descends the terrain to voxels before the tool. The near
     * query (bodies) descends the larger node first instead: a body lying
     * on terrain has thousands of terrain voxels within its root sphere,
     * and most of them are pruned by the body's smaller spheres before any
     * reaches a voxel (the same pairs, about 4x fewer sphere tests). */
    bool terrain_first = x->reach < 0 ? tk > 0 : tk > 0 && tk > ck;
    if (terrain_first) {
        uint8_t m = x->t->lev[tk][cell_index(x->t, tk, tc[0], tc[1], tc[2])];
        for (int i = 0; i < 8; i++) {
            if (!(m >> i & 1)) continue;
            int ch[3] = { tc[0] * 2 + (i & 1), tc[1] * 2 + (i >> 1 & 1), tc[2] * 2 + (i >> 2 & 1) };
            isect(x, tk - 1, ch, ck, cc, cw);
        }
        return;
    }
    if (ck == 0) {
        if (leaf_hit(x, cw, tc)) pairs_push(x->out, tc, cc);
        return;
    }
    uint8_t m = x->c->lev[ck][cell_index(x->c, ck, cc[0], cc[1], cc[2])];
    float s = (float)(1 << (ck - 1));
    for (int i = 0; i < 8; i++) {
        if (!(m >> i & 1)) continue;
        int ch[3] = { cc[0] * 2 + (i & 1), cc[1] * 2 + (i >> 1 & 1), cc[2] * 2 + (i >> 2 & 1) };
        float w[3];
        /* voxel centres are x + 0.5, as octree_voxel_pair_hit places them */
        tool_to_world(x->pose, x->pivot, ((float)ch[0] + 0.5f) * s, ((float)ch[1] + 0.5f) * s,
                      ((float)ch[2] + 0.5f) * s, w);
        isect(x, tk, tc, ck - 1, ch, w);
    }
}

static void isect_setup(isect_ctx *x, const octree *terrain, const octree *tool, const octree_pose *pose,
                        octree_pairs *out)
{
    x->t = terrain, x->c = tool, x->pose = pose, x->out = out, x->reach = -1.f;
    for (int i = 0; i < 3; i++) x->pivot[i] = (float)tool->size[i] * 0.5f;
    for (int k = 0; k < OCTREE_MAX_LEVELS; k++) {
        x->tr[k] = (float)((1 << k) - 1) * SQRT3_2;
        x->cr[k] = (float)(1 << k) * SQRT3_2;
    }
    out->count = 0;
    out->out_of_memory = false;
}

static size_t intersect(const octree *terrain, const octree *tool, const octree_pose *pose, float reach,
                        octree_pairs *out)
{
    isect_ctx x;
    isect_setup(&x, terrain, tool, pose, out);
    x.reach = reach;
    if (terrain->count == 0 || tool->count == 0) return 0;
    int L = tool->levels;
    float s = (float)(1 << L) * 0.5f, w[3];
    tool_to_world(pose, x.pivot, s, s, s, w);
    const int zero[3] = { 0, 0, 0 };
    isect(&x, terrain->levels, zero, L, zero, w);
    return out->count;
}

typedef size_t (*intersect_fn)(const octree *, const octree *, const octree_pose *, float, octree_pairs *);

/* The pose moved into the terrain's cells, and the terrain voxels found
 * moved back to world coordinates. */
static size_t intersect_world(intersect_fn fn, const octree *terrain, const octree *tool, const octree_pose *pose,
                              float reach, octree_pairs *out)
{
    const int *org = terrain->org;
    /* the pose's frame to the terrain's: an integer shift, small when the
     * tree is near the tool (it is built around the eye) */
    const int shift[3] = { pose->org[0] - org[0], pose->org[1] - org[1], pose->org[2] - org[2] };
    if (!shift[0] && !shift[1] && !shift[2] && !org[0] && !org[1] && !org[2])
        return fn(terrain, tool, pose, reach, out);
    octree_pose p = *pose;
    for (int i = 0; i < 3; i++) p.pos[i] += (float)shift[i];
    size_t n = fn(terrain, tool, &p, reach, out);
    for (size_t k = 0; k < out->count; k++)
        for (int i = 0; i < 3; i++) out->v[k].t[i] += org[i];
    return n;
}

size_t octree_intersect(const octree *terrain, const octree *tool, const octree_pose *pose, octree_pairs *out)
{
    return intersect_world(intersect, terrain, tool, pose, -1.f, out);
}

size_t octree_intersect_near(const octree *terrain, const octree *tool, const octree_pose *pose, float reach,
                             octree_pairs *out)
{
    return intersect_world(intersect, terrain, tool, pose, reach > 0 && isfinite(reach) ? reach : 0.f, out);
}

/* Occupied voxels of a tree, in index order. */
static int *list_voxels(const octree *o, size_t *n)
{
    int *v = malloc(sizeof(int) * 3 * (size_t)(o->count > 0 ? o->count : 1));
    size_t k = 0;
    if (!v) { *n = 0; return NULL; }
    const int *d = o->dim[1];
    for (int y = 0; y < d[1]; y++)
        for (int z = 0; z < d[2]; z++)
            for (int x = 0; x < d[0]; x++) {
                uint8_t m = o->lev[1][cell_index(o, 1, x, y, z)];
                for (int i = 0; m && i < 8; i++)
                    if (m >> i & 1) {
                        v[3 * k] = x * 2 + (i & 1), v[3 * k + 1] = y * 2 + (i >> 1 & 1), v[3 * k + 2] = z * 2 + (i >> 2 & 1);
                        k++;
                    }
            }
    *n = k;
    return v;
}

static size_t intersect_brute(const octree *terrain, const octree *tool, const octree_pose *pose, float reach,
                              octree_pairs *out)
{
    isect_ctx x;
    isect_setup(&x, terrain, tool, pose, out);
    x.reach = reach;
    size_t nt, nc;
    int *tv = list_voxels(terrain, &nt), *cv = list_voxels(tool, &nc);
    float *cw = malloc(sizeof(float) * 3 * (nc ? nc : 1));
    if (tv && cv && cw) {
        for (size_t j = 0; j < nc; j++)
            tool_to_world(pose, x.pivot, (float)cv[3 * j] + 0.5f, (float)cv[3 * j + 1] + 0.5f,
                          (float)cv[3 * j + 2] + 0.5f, &cw[3 * j]);
        for (size_t i = 0; i < nt; i++)
            for (size_t j = 0; j < nc; j++)
                if (leaf_hit(&x, &cw[3 * j], &tv[3 * i])) pairs_push(out, &tv[3 * i], &cv[3 * j]);
    } else {
        out->out_of_memory = true;
    }
    free(tv);
    free(cv);
    free(cw);
    return out->count;
}

size_t octree_intersect_brute(const octree *terrain, const octree *tool, const octree_pose *pose, octree_pairs *out)
{
    return intersect_world(intersect_brute, terrain, tool, pose, -1.f, out);
}

size_t octree_intersect_near_brute(const octree *terrain, const octree *tool, const octree_pose *pose, float reach,
                                   octree_pairs *out)
{
    return intersect_world(intersect_brute, terrain, tool, pose, reach > 0 && isfinite(reach) ? reach : 0.f, out);
}
