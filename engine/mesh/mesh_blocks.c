/* mesh_blocks: hidden-face culling and greedy merging on bit masks.
 * Each row of 32 voxels along x becomes a few 32-bit masks (renders itself,
 * lets neighbours show), so culling a whole row against a neighbour row is
 * one AND; merging then walks set bits with ctz instead of visiting voxels. */
#include "mesh/mesh_blocks.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#define MESH_HAVE_SSE2 1
#endif

#define PAD MESH_PAD
#define PAD2 (MESH_PAD * MESH_PAD)
#define N CHUNK_SIZE

/* Materials whose flags differ from the common "solid block" class (renders
 * itself, hides neighbours). Rows are classified by comparing against just
 * these ids, which is a handful of byte compares per 16 voxels. */
#define MESH_MAX_EXCEPTIONS 6

typedef struct mesh_class {
    /* per id: bit 0 renders itself (and has a pass), bit 1 lets neighbours
     * show, bit 2 both (see-through: needs the same-material test) */
    uint8_t flags[256];
    /* merge key per face and id: tile | pass << 16 (tint << 8 is added per face) */
    uint32_t key[FACE_COUNT][256];
    uint8_t except_id[MESH_MAX_EXCEPTIONS];
    uint8_t except_flags[MESH_MAX_EXCEPTIONS];
    int except_count; /* -1: too many exceptions, classify with the table */
} mesh_class;

enum { MESH_RS = 1, MESH_RN = 2, MESH_ST = 4 };

/* Per-build scratch: about 42 KiB, too much for a worker's stack frame to
 * take lightly, so it lives in thread-local storage and is reused. */
typedef struct mesh_scratch {
    uint64_t rn[PAD][PAD];   /* [py][pz], bit px (0..33): lets neighbours show */
    uint32_t rs[N][N];       /* [y][z], bit x: renders itself */
    uint32_t st[N][N];       /* [y][z], bit x: see-through (renders self and neighbours) */
    /* visible faces per face and slice: rows are the slice's second axis,
     * bits its first (see mesh_slice_axes) */
    uint32_t vis[FACE_COUNT][N][N];
    uint32_t any[FACE_COUNT]; /* bit s: slice s has a visible face */
} mesh_scratch;

static _Thread_local mesh_scratch mesh_tls;

static void mesh_class_init(mesh_class *c)
{
    int nexc = 0;
    uint8_t null_flags = 0;
    for (int id = 0; id < 256; id++) {
        const material *m = material_get((uint8_t)id);
        uint8_t f = 0;
        if (m->render_self && m->pass != PASS_NONE) f |= MESH_RS;
        if (m->render_neighbors) f |= MESH_RN;
        if ((f & (MESH_RS | MESH_RN)) == (MESH_RS | MESH_RN)) f |= MESH_ST;
        c->flags[id] = f;
        for (int face = 0; face < FACE_COUNT; face++)
            c->key[face][id] = (uint32_t)m->tile[face] | (uint32_t)(m->pass < 0 ? 0 : m->pass) << 16;
        if (id == MAT_NULL) null_flags = f;
        if (id < MAT_COUNT && f != MESH_RS) {
            if (nexc < MESH_MAX_EXCEPTIONS) {
                c->except_id[nexc] = (uint8_t)id;
                c->except_flags[nexc] = f;
            }
            nexc++;
        }
    }
    /* ids past the table read as Null; the compare path assumes that is the
     * common class, so fall back to table lookups if it ever is not */
    c->except_count = (nexc <= MESH_MAX_EXCEPTIONS && null_flags == MESH_RS) ? nexc : -1;
}

/* Masks of one padded row of 34 voxels: rn over all 34, rs/st over the middle 32. */
static inline void mesh_classify_row(const mesh_class *c, const uint8_t *row, uint64_t *rn, uint32_t *rs,
                                     uint32_t *st)
{
#ifdef MESH_HAVE_SSE2
    if (c->except_count >= 0) {
        /* three overlapping 16-byte loads cover bytes 0..33 */
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)row);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(row + 16));
        __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(row + 18));
        uint64_t m_rn = 0, m_nrs = 0, m_st = 0;
        for (int i = 0; i < c->except_count; i++) {
            __m128i id = _mm_set1_epi8((char)c->except_id[i]);
            uint64_t eq = (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, id)) |
                          (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, id)) << 16 |
                          (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(d, id)) << 18;
            uint8_t f = c->except_flags[i];
            if (f & MESH_RN) m_rn |= eq;
            if (!(f & MESH_RS)) m_nrs |= eq;
            if (f & MESH_ST) m_st |= eq;
        }
        *rn = m_rn;
        *rs = ~(uint32_t)(m_nrs >> 1);
        *st = (uint32_t)(m_st >> 1);
        return;
    }
#endif
    uint64_t m_rn = 0, m_rs = 0, m_st = 0;
    for (int x = 0; x < PAD; x++) {
        uint8_t f = c->flags[row[x]];
        m_rn |= (uint64_t)((f >> 1) & 1) << x;
        m_rs |= (uint64_t)(f & 1) << x;
        m_st |= (uint64_t)((f >> 2) & 1) << x;
    }
    *rn = m_rn;
    *rs = (uint32_t)(m_rs >> 1);
    *st = (uint32_t)(m_st >> 1);
}

/* See-through voxels (muskeg) hide faces towards the same material: clear
 * the candidate bits whose neighbour (at byte offset `off`) is equal. */
static inline uint32_t mesh_drop_same(uint32_t vis, uint32_t st, const uint8_t *row, ptrdiff_t off)
{
    uint32_t cand = vis & st;
    while (cand) {
        int x = __builtin_ctz(cand);
        cand &= cand - 1;
        if (row[x] == row[x + off]) vis &= ~(1u << x);
    }
    return vis;
}

/* 32x32 bit-matrix transpose: bit j of a[i] moves to bit i of a[j].
 * Swaps ever smaller off-diagonal blocks (16, 8, 4, 2, 1); each stage has
 * a constant shift so the compiler can unroll and vectorise it. */
static inline void mesh_transpose_stage(uint32_t a[32], int j, uint32_t m)
{
    for (int blk = 0; blk < 32; blk += 2 * j)
        for (int k = blk; k < blk + j; k++) {
            uint32_t t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
        }
}

static void mesh_transpose32(uint32_t a[32])
{
    mesh_transpose_stage(a, 16, 0x0000FFFFu);
    mesh_transpose_stage(a, 8, 0x00FF00FFu);
    mesh_transpose_stage(a, 4, 0x0F0F0F0Fu);
    mesh_transpose_stage(a, 2, 0x33333333u);
    mesh_transpose_stage(a, 1, 0x55555555u);
}

/* Mask of the 32 bytes at p that equal b. */
static inline uint32_t mesh_row_eq(const uint8_t *p, uint8_t b)
{
#ifdef MESH_HAVE_SSE2
    __m128i v = _mm_set1_epi8((char)b);
    uint32_t lo = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), v));
    uint32_t hi =
        (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)), v));
    return lo | hi << 16;
#else
    uint32_t m = 0;
    for (int i = 0; i < 32; i++) m |= (uint32_t)(p[i] == b) << i;
    return m;
#endif
}

/* Pass 1: visible-face masks for every face. Returns whether there is any. */
static bool mesh_cull(const mesh_class *c, const mesh_input *in, mesh_scratch *s)
{
    const uint8_t *vox = in->vox;
    bool any_st = false;
    uint32_t any_rs = 0;
    for (int py = 0; py < PAD; py++) {
        for (int pz = 0; pz < PAD; pz++) {
            uint32_t rs, st;
            mesh_classify_row(c, vox + pz * PAD + py * PAD2, &s->rn[py][pz], &rs, &st);
            if (py >= 1 && py <= N && pz >= 1 && pz <= N) {
                s->rs[py - 1][pz - 1] = rs;
                s->st[py - 1][pz - 1] = st;
                any_st |= st != 0;
                any_rs |= rs;
            }
        }
    }
    memset(s->any, 0, sizeof s->any);
    if (!any_rs) return false; /* nothing renders itself: all air / placeholders */

    uint32_t anyvis = 0;
    for (int y = 0; y < N; y++) {
        for (int z = 0; z < N; z++) {
            uint32_t rs = s->rs[y][z];
            /* rn bit px is voxel x = px - 1: >> 1 aligns a row with x */
            uint32_t right = rs & (uint32_t)(s->rn[y + 1][z + 1] >> 2);
            uint32_t left = rs & (uint32_t)(s->rn[y + 1][z + 1]);
            uint32_t top = rs & (uint32_t)(s->rn[y + 2][z + 1] >> 1);
            uint32_t bottom = rs & (uint32_t)(s->rn[y][z + 1] >> 1);
            uint32_t back = rs & (uint32_t)(s->rn[y + 1][z + 2] >> 1);
            uint32_t front = rs & (uint32_t)(s->rn[y + 1][z] >> 1);
            if (any_st && s->st[y][z]) {
                uint32_t st = s->st[y][z];
                const uint8_t *row = vox + MESH_PAD_INDEX(0, y, z);
                right = mesh_drop_same(right, st, row, 1);
                left = mesh_drop_same(left, st, row, -1);
                top = mesh_drop_same(top, st, row, PAD2);
                bottom = mesh_drop_same(bottom, st, row, -PAD2);
                back = mesh_drop_same(back, st, row, PAD);
                front = mesh_drop_same(front, st, row, -PAD);
            }
            /* y faces: slice y, rows z, bits x.  z faces: slice z, rows y, bits x.
             * x faces: stored [y][z] for now, transposed below. */
            s->vis[FACE_TOP][y][z] = top;
            s->vis[FACE_BOTTOM][y][z] = bottom;
            s->vis[FACE_BACK][z][y] = back;
            s->vis[FACE_FRONT][z][y] = front;
            s->vis[FACE_RIGHT][y][z] = right;
            s->vis[FACE_LEFT][y][z] = left;
            anyvis |= top | bottom | back | front | right | left;
        }
    }
    if (!anyvis) return false;

    /* x faces: per y, [z] bit x -> [x] bit z; then slice x, rows y, bits z */
    static const int xf[2] = { FACE_RIGHT, FACE_LEFT };
    for (int f = 0; f < 2; f++) {
        uint32_t(*v)[N] = s->vis[xf[f]];
        uint32_t tmp[N][N];
        for (int y = 0; y < N; y++) {
            uint32_t o = 0;
            for (int z = 0; z < N; z++) o |= v[y][z];
            if (o) mesh_transpose32(v[y]); /* all-zero stays all-zero */
            for (int x = 0; x < N; x++) tmp[x][y] = v[y][x];
        }
        memcpy(v, tmp, sizeof tmp);
    }
    for (int f = 0; f < FACE_COUNT; f++) {
        uint32_t any = 0;
        for (int sl = 0; sl < N; sl++) {
            uint32_t o = 0;
            for (int r = 0; r < N; r++) o |= s->vis[f][sl][r];
            any |= (uint32_t)(o != 0) << sl;
        }
        s->any[f] = any;
    }
    return true;
}

static bool mesh_reserve(mesh_buffer *b, int extra)
{
    if (b->count + extra <= b->cap) return true;
    int cap = b->cap ? b->cap : 1024;
    while (cap < b->count + extra) cap *= 2;
    mesh_vertex *v = realloc(b->v, (size_t)cap * sizeof *v);
    if (!v) {
        log_error("mesh: out of memory growing a vertex buffer to %d vertices", cap);
        return false;
    }
    b->v = v;
    b->cap = cap;
    return true;
}

/* Where a slice's (u = bit, v = row) grid lies in 3D, per face. */
typedef struct mesh_slice_axes {
    int axis_d, axis_u, axis_v; /* 0 = x, 1 = y, 2 = z */
    int step_u, step_v;         /* padded-index strides */
} mesh_slice_axes;

static const mesh_slice_axes mesh_axes[FACE_COUNT] = {
    [FACE_BACK] = { 2, 0, 1, 1, PAD2 },
    [FACE_FRONT] = { 2, 0, 1, 1, PAD2 },
    [FACE_TOP] = { 1, 0, 2, 1, PAD },
    [FACE_BOTTOM] = { 1, 0, 2, 1, PAD },
    [FACE_LEFT] = { 0, 2, 1, PAD, PAD2 },
    [FACE_RIGHT] = { 0, 2, 1, PAD, PAD2 },
};

/* Corner order, per face: c0 is the rectangle's minimum corner, c1 = c0 + W*U,
 * c2 = c0 + W*U + H*V, c3 = c0 + H*V, where (U, V) are the face's axes chosen
 * so that U x V is the outward normal. Then (0,1,2) and (0,2,3) are both
 * counter-clockwise seen from outside. Entry [face] = (U axis, V axis). */
static const int mesh_uv[FACE_COUNT][2] = {
    [FACE_BACK] = { 0, 1 },   /* +z: x then y */
    [FACE_FRONT] = { 1, 0 },  /* -z: y then x */
    [FACE_TOP] = { 2, 0 },    /* +y: z then x */
    [FACE_BOTTOM] = { 0, 2 }, /* -y: x then z */
    [FACE_LEFT] = { 2, 1 },   /* -x: z then y */
    [FACE_RIGHT] = { 1, 2 },  /* +x: y then z */
};

/* Bit position of each axis in a vertex's `a` word. Coordinates are at most
 * 32 and never negative, so the packed word is linear in them: corners are
 * the min corner's word plus shifted extents, no unpacking. */
static const int mesh_shift[3] = { 0, 6, 12 };

static inline void mesh_emit(chunk_mesh *out, int face, int slice, int u0, int v0, int w, int h, uint32_t key)
{
    const mesh_slice_axes *ax = &mesh_axes[face];
    mesh_buffer *b = &out->pass[(key >> 16) & 3];
    out->faces += w * h; /* counted even if the quad is lost to a failed allocation */
    if (b->count + 4 > b->cap && !mesh_reserve(b, 4)) return;
    const int plane = slice + (face_normal[face][ax->axis_d] > 0);
    uint32_t a0 = (uint32_t)plane << mesh_shift[ax->axis_d] | (uint32_t)u0 << mesh_shift[ax->axis_u] |
                  (uint32_t)v0 << mesh_shift[ax->axis_v] | (uint32_t)face << 18;
    /* the slice grid's (w along bits, h along rows) mapped to the face's (U, V) */
    uint32_t ew = (uint32_t)w << mesh_shift[ax->axis_u], eh = (uint32_t)h << mesh_shift[ax->axis_v];
    uint32_t dU = mesh_uv[face][0] == ax->axis_u ? ew : eh;
    uint32_t dV = mesh_uv[face][0] == ax->axis_u ? eh : ew;
    uint32_t vb = MESH_VERT_B(key & 255, (key >> 8) & 255);
    mesh_vertex *dst = b->v + b->count;
    dst[0] = (mesh_vertex){ a0, vb };
    dst[1] = (mesh_vertex){ a0 + dU, vb };
    dst[2] = (mesh_vertex){ a0 + dU + dV, vb };
    dst[3] = (mesh_vertex){ a0 + dV, vb };
    b->count += 4;
    out->quads++;
}

/* Pass 2: per slice, grow each face into the widest run of equal keys, then
 * down the rows while the whole run matches (greedy; not optimal, but
 * deterministic and close). Without `greedy` every face is its own quad. */
static void mesh_merge(const mesh_class *c, const mesh_input *in, mesh_scratch *s, bool greedy, chunk_mesh *out)
{
    for (int face = 0; face < FACE_COUNT; face++) {
        const mesh_slice_axes *ax = &mesh_axes[face];
        const uint32_t *keyof = c->key[face];
        const int su = ax->step_u, sv = ax->step_v;
        const int sd = ax->axis_d == 0 ? 1 : ax->axis_d == 1 ? PAD2 : PAD;
        uint32_t slices = s->any[face];
        while (slices) {
            int sl = __builtin_ctz(slices);
            slices &= slices - 1;
            uint32_t *m = s->vis[face][sl];
            /* padded index of (u, v) = (0, 0) in this slice */
            const int base = MESH_PAD_INDEX(0, 0, 0) + sl * sd;
            /* a face's tint is the tint of the cell it looks into (world.h:
             * a cut colours the space it carves), so read tints one step
             * along the normal; equal keys still mean equal tile and tint */
            const int nb = face_normal[face][0] + face_normal[face][1] * PAD2 + face_normal[face][2] * PAD;
            const uint8_t *vox = in->vox + base, *tint = in->tint + base + nb;
#define MESH_KEY(u, v) ((uint32_t)keyof[vox[(u) * su + (v) * sv]] | (uint32_t)tint[(u) * su + (v) * sv] << 8)
            for (int v = 0; v < N; v++) {
                while (m[v]) {
                    int u = __builtin_ctz(m[v]);
                    uint32_t k = MESH_KEY(u, v);
                    if (!greedy) {
                        m[v] &= m[v] - 1;
                        mesh_emit(out, face, sl, u, v, 1, 1, k);
                        continue;
                    }
                    /* Where a slice row is contiguous in memory (y and z faces),
                     * voxels with the same id and tint as the first share its key:
                     * find those 32 at a time and look up keys only elsewhere. */
                    const uint8_t id0 = vox[u * su + v * sv], t0 = tint[u * su + v * sv];
#define MESH_SAME(row) (su == 1 ? mesh_row_eq(vox + (row) * sv, id0) & mesh_row_eq(tint + (row) * sv, t0) : 0u)
                    /* run of set bits from u, then cut it where the key changes */
                    int run = __builtin_ctzll(~((uint64_t)m[v] >> u));
                    uint64_t same = run > 1 ? MESH_SAME(v) : 0u; /* lone faces (checker) skip it */
                    int w = 1;
                    while (w < run) {
                        int skip = __builtin_ctzll(~(same >> (u + w)));
                        if (skip) w += skip;
                        else if (MESH_KEY(u + w, v) == k) w++;
                        else break;
                    }
                    if (w > run) w = run;
                    uint32_t span = (uint32_t)((((uint64_t)1 << w) - 1) << u);
                    m[v] &= ~span;
                    int h = 1;
                    while (v + h < N && (m[v + h] & span) == span) {
                        uint32_t need = span & ~(uint32_t)MESH_SAME(v + h);
                        while (need && MESH_KEY(__builtin_ctz(need), v + h) == k) need &= need - 1;
                        if (need) break;
                        m[v + h] &= ~span;
                        h++;
                    }
#undef MESH_SAME
                    mesh_emit(out, face, sl, u, v, w, h, k);
                }
            }
#undef MESH_KEY
        }
    }
}

void mesh_build(const mesh_input *in, bool greedy, chunk_mesh *out)
{
    mesh_clear(out);
    /* the class tables depend only on the constant material table: build
     * them once per thread (a few microseconds, too much to pay per chunk) */
    static _Thread_local mesh_class c;
    static _Thread_local bool c_ready;
    if (!c_ready) {
        mesh_class_init(&c);
        c_ready = true;
    }
    mesh_scratch *s = &mesh_tls;
    if (!mesh_cull(&c, in, s)) return;
    mesh_merge(&c, in, s, greedy, out);
}

void mesh_clear(chunk_mesh *m)
{
    for (int p = 0; p < PASS_COUNT; p++) m->pass[p].count = 0;
    m->faces = 0;
    m->quads = 0;
}

void mesh_free(chunk_mesh *m)
{
    for (int p = 0; p < PASS_COUNT; p++) {
        free(m->pass[p].v);
        m->pass[p] = (mesh_buffer){ 0 };
    }
    m->faces = 0;
    m->quads = 0;
}

void mesh_gather_volume(const uint8_t *vox, mesh_input *in)
{
    memset(in->vox, MAT_AIR, sizeof in->vox);
    memset(in->tint, 0, sizeof in->tint);
    for (int y = 0; y < N; y++)
        for (int z = 0; z < N; z++) memcpy(in->vox + MESH_PAD_INDEX(0, y, z), vox + CHUNK_INDEX(0, y, z), N);
}

/* n voxels and tints from global (x, y, z) along x, all in one chunk: a
 * copy from the chunk when the window holds it, else voxel by voxel
 * (world_get's rule outside: bedrock below, air beside and above). */
static void gather_run(const world *w, int x, int y, int z, int n, uint8_t *dv, uint8_t *dt)
{
    const chunk *c = y >= 0 ? world_chunk(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS) : NULL;
    if (!c) {
        for (int k = 0; k < n; k++) dv[k] = world_get(w, x + k, y, z), dt[k] = world_get_tint(w, x + k, y, z);
        return;
    }
    const int i = CHUNK_INDEX(x & CHUNK_MASK, y & CHUNK_MASK, z & CHUNK_MASK);
    memcpy(dv, c->vox + i, (size_t)n);
    if (c->tint) memcpy(dt, c->tint + i, (size_t)n);
    else memset(dt, 0, (size_t)n);
}

void mesh_gather(const world *w, int cx, int cy, int cz, mesh_input *in)
{
    const int ox = cx * N, oy = cy * N, oz = cz * N;
    /* each padded row: the x border voxel on either side and the chunk's
     * row between them, each a copy from whichever chunk holds it (the
     * y and z border rows come from the chunks below, above and beside) */
    for (int py = 0; py < PAD; py++)
        for (int pz = 0; pz < PAD; pz++) {
            const int y = oy + py - 1, z = oz + pz - 1;
            uint8_t *dv = in->vox + pz * PAD + py * PAD2;
            uint8_t *dt = in->tint + pz * PAD + py * PAD2;
            gather_run(w, ox - 1, y, z, 1, dv, dt);
            gather_run(w, ox, y, z, N, dv + 1, dt + 1);
            gather_run(w, ox + N, y, z, 1, dv + PAD - 1, dt + PAD - 1);
        }
}
