#include "mesh/mesh_smooth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Occupancy for smoothing: everything the block renderer draws counts as
 * inside (leaves and bogs included), air and placeholders do not. */
static inline uint8_t occupied(uint8_t m) { return material_get(m)->pass != PASS_NONE; }

/* Tent weights 1 2 3 2 1 per axis: a 5^3 neighbourhood, total 9^3. */
#define BLUR_R 2
static const uint16_t k_tent[2 * BLUR_R + 1] = { 1, 2, 3, 2, 1 };
#define BLUR_TOTAL (9 * 9 * 9)

/* Where the voxels come from: the world, or (w NULL) a dense grid of
 * `size` cells with air outside (mesh_smooth_gather_grid). */
typedef struct voxel_src {
    const world *w;
    const uint8_t *mat, *tint;
    int size[3];
} voxel_src;

static inline uint8_t src_get(const voxel_src *v, int x, int y, int z, uint8_t *tint)
{
    if (v->w) {
        *tint = world_in_bounds(v->w, x, y, z) ? world_get_tint(v->w, x, y, z) : 0;
        return world_get(v->w, x, y, z);
    }
    if (x < 0 || y < 0 || z < 0 || x >= v->size[0] || y >= v->size[1] || z >= v->size[2]) {
        *tint = 0;
        return MAT_AIR;
    }
    size_t i = (size_t)x + (size_t)v->size[0] * ((size_t)z + (size_t)v->size[2] * (size_t)y);
    *tint = v->tint ? v->tint[i] : 0;
    return v->mat[i];
}

/* smooth_density_box, and when `raw` is not NULL the filtered occupancy
 * alone there (0.5 - filled fraction of the 5^3 tent: no own-voxel term,
 * no sign lock), what the coarse levels sample. */
static void density_box(const voxel_src *src, int x0, int y0, int z0, int nx, int ny, int nz, float sharpness,
                        float *d, uint8_t *mat, uint8_t *tint, float *raw)
{
    /* occupancy with a BLUR_R apron, then a separable tent blur in integers
     * (exact, so every box that holds a sample computes the same bits) */
    const int R = BLUR_R, ox = nx + 2 * R, oy = ny + 2 * R, oz = nz + 2 * R;
    const size_t on = (size_t)ox * oy * oz, ns = (size_t)nx * ny * nz;
    uint16_t *a = malloc(on * sizeof *a), *b = malloc(on * sizeof *b);
    uint8_t *own = malloc(ns);
    if (!a || !b || !own) {
        free(a), free(b), free(own);
        for (size_t i = 0; i < ns; i++) d[i] = 1.f, mat[i] = 0, tint[i] = 0;
        for (size_t i = 0; raw && i < ns; i++) raw[i] = 0.5f;
        return;
    }
#define OI(x, y, z) ((size_t)(x) + (size_t)ox * ((size_t)(y) + (size_t)oy * (size_t)(z)))
#define SI(x, y, z) ((size_t)(x) + (size_t)nx * ((size_t)(y) + (size_t)ny * (size_t)(z)))
    for (int z = 0; z < oz; z++)
        for (int y = 0; y < oy; y++)
            for (int x = 0; x < ox; x++) {
                uint8_t t, m = src_get(src, x0 + x - R, y0 + y - R, z0 + z - R, &t);
                a[OI(x, y, z)] = occupied(m);
                if (x >= R && y >= R && z >= R && x < nx + R && y < ny + R && z < nz + R) {
                    size_t s = SI(x - R, y - R, z - R);
                    own[s] = occupied(m);
                    mat[s] = m;
                    tint[s] = t;
                }
            }
    memset(b, 0, on * sizeof *b);
    for (int z = 0; z < oz; z++) /* along x: a -> b */
        for (int y = 0; y < oy; y++)
            for (int x = R; x < ox - R; x++) {
                unsigned s = 0;
                for (int k = -R; k <= R; k++) s += k_tent[k + R] * a[OI(x + k, y, z)];
                b[OI(x, y, z)] = (uint16_t)s;
            }
    for (int z = 0; z < oz; z++) /* along y: b -> a */
        for (int y = R; y < oy - R; y++)
            for (int x = R; x < ox - R; x++) {
                unsigned s = 0;
                for (int k = -R; k <= R; k++) s += k_tent[k + R] * b[OI(x, y + k, z)];
                a[OI(x, y, z)] = (uint16_t)s;
            }
    const float k = sharpness, blur = (1.f - sharpness) / (float)BLUR_TOTAL;
    for (int z = R; z < nz + R; z++) /* along z, straight into the density */
        for (int y = R; y < ny + R; y++)
            for (int x = R; x < nx + R; x++) {
                unsigned sum = 0;
                for (int q = -R; q <= R; q++) sum += k_tent[q + R] * a[OI(x, y, z + q)];
                size_t s = SI(x - R, y - R, z - R);
                /* own occupancy (+-k/2) plus the filtered rest; the sign
                 * stays the voxel's own, at least SMOOTH_MIN_MAGNITUDE away
                 * from zero so thin features keep some thickness */
                float v = (own[s] ? -0.5f * k : 0.5f * k) + (1.f - k) * 0.5f - blur * (float)sum;
                if (raw) raw[s] = 0.5f - (float)sum / (float)BLUR_TOTAL;
                if (own[s] && v > -SMOOTH_MIN_MAGNITUDE) v = -SMOOTH_MIN_MAGNITUDE;
                if (!own[s] && v < SMOOTH_MIN_MAGNITUDE) v = SMOOTH_MIN_MAGNITUDE;
                d[s] = v;
            }
#undef OI
#undef SI
    free(own);
    free(a);
    free(b);
}

void smooth_density_box(const world *w, int x0, int y0, int z0, int nx, int ny, int nz, float sharpness, float *d,
                        uint8_t *mat, uint8_t *tint)
{
    const voxel_src src = { .w = w };
    density_box(&src, x0, y0, z0, nx, ny, nz, sharpness, d, mat, tint, NULL);
}

void mesh_smooth_mark_edit(world *w, const int lo[3], const int hi[3])
{
    const int r = SMOOTH_EDIT_REACH;
    for (int cy = (lo[1] - r) >> CHUNK_BITS; cy <= (hi[1] - 1 + r) >> CHUNK_BITS; cy++)
        for (int cz = (lo[2] - r) >> CHUNK_BITS; cz <= (hi[2] - 1 + r) >> CHUNK_BITS; cz++)
            for (int cx = (lo[0] - r) >> CHUNK_BITS; cx <= (hi[0] - 1 + r) >> CHUNK_BITS; cx++)
                world_mark_dirty(w, cx, cy, cz); /* ignores chunks outside the world */
}

int mesh_smooth_lod_for(float dist, float far)
{
    if (far <= 0 || dist <= far) return 0;
    return dist <= 2 * far ? 1 : 2;
}

void mesh_smooth_gather(const world *w, int cx, int cy, int cz, float sharpness, smooth_input *in)
{
    smooth_density_box(w, cx * CHUNK_SIZE - 1, cy * CHUNK_SIZE - 1, cz * CHUNK_SIZE - 1, SMOOTH_N, SMOOTH_N, SMOOTH_N,
                       sharpness, in->d, in->mat, in->tint);
    /* the window's low faces, not 0's: below 0 the chunk across owns them */
    in->own_lo[0] = cx > w->ocx, in->own_lo[1] = cy > 0, in->own_lo[2] = cz > w->ocz;
    in->n = SMOOTH_N, in->step = 1;
}

void mesh_smooth_gather_grid(const uint8_t *mat, const uint8_t *tint, const int size[3], int x0, int y0, int z0,
                             float sharpness, smooth_input *in)
{
    const voxel_src src = { NULL, mat, tint, { size[0], size[1], size[2] } };
    density_box(&src, x0 - 1, y0 - 1, z0 - 1, SMOOTH_N, SMOOTH_N, SMOOTH_N, sharpness, in->d, in->mat, in->tint, NULL);
    in->own_lo[0] = x0 > 0, in->own_lo[1] = y0 > 0, in->own_lo[2] = z0 > 0;
    in->n = SMOOTH_N, in->step = 1;
}

bool mesh_smooth_grid(const uint8_t *mat, const uint8_t *tint, const int size[3], float sharpness, smooth_input *in,
                      smooth_mesh *tile, smooth_mesh *out)
{
    out->vertices = out->triangles = 0;
    for (int ty = 0; ty < size[1]; ty += CHUNK_SIZE)
        for (int tz = 0; tz < size[2]; tz += CHUNK_SIZE)
            for (int tx = 0; tx < size[0]; tx += CHUNK_SIZE) {
                mesh_smooth_gather_grid(mat, tint, size, tx, ty, tz, sharpness, in);
                if (!mesh_smooth_build(in, tile)) goto fail;
                int nv = out->vertices + tile->vertices, nt = out->triangles + tile->triangles;
                if (nv > out->vcap) {
                    smooth_vertex *v = realloc(out->v, sizeof *v * (size_t)nv * 2);
                    if (!v) goto fail;
                    out->v = v, out->vcap = nv * 2;
                }
                if (nt > out->tcap) {
                    uint32_t *t = realloc(out->idx, sizeof *t * 3 * (size_t)nt * 2);
                    if (!t) goto fail;
                    out->idx = t, out->tcap = nt * 2;
                }
                const float o[3] = { (float)tx, (float)ty, (float)tz };
                for (int i = 0; i < tile->vertices; i++) {
                    smooth_vertex v = tile->v[i];
                    for (int k = 0; k < 3; k++) v.pos[k] += o[k];
                    out->v[out->vertices + i] = v;
                }
                for (int i = 0; i < 3 * tile->triangles; i++)
                    out->idx[3 * out->triangles + i] = tile->idx[i] + (uint32_t)out->vertices;
                out->vertices = nv, out->triangles = nt;
            }
    for (int k = 0; k < 7; k++) out->skirt[k] = out->triangles;
    return true;
fail:
    out->vertices = out->triangles = 0;
    for (int k = 0; k < 7; k++) out->skirt[k] = 0;
    return false;
}

/* The fine density of voxels -M .. 32 + M of a chunk: M is the coarsest
 * level's step s plus s - 1, so the voxels up to the next lattice row above
 * every coarse sample lie inside and a sample reads the same in every chunk
 * that holds it. Every level is cut from it. */
#define LEVEL_MARGIN (2 * (1 << (SMOOTH_LODS - 1)) - 1)
#define LEVEL_FULL (CHUNK_SIZE + 2 * LEVEL_MARGIN + 1)

static inline int solid(uint8_t m) { return material_get(m)->pass != PASS_NONE; }

/* Part of the bulk: solid with at least two of its four horizontal
 * neighbours (a grass layer even on a convex corner), not a one-voxel
 * cactus or trunk, which the coarse levels drop and which would paint the
 * ground under it. i indexes an F^3 box, x fastest, then y, then z. */
static bool bulk(const uint8_t *fm, size_t i, int F)
{
    size_t dz = (size_t)F * (size_t)F;
    return solid(fm[i]) && solid(fm[i - 1]) + solid(fm[i + 1]) + solid(fm[i - dz]) + solid(fm[i + dz]) >= 2;
}

/* Level l >= 1 of the fine box (raw, fm, ft: LEVEL_FULL^3, voxel -M at 0). */
static void coarse_level(const float *raw, const uint8_t *fm, const uint8_t *ft, int l, smooth_input *in)
{
    const int s = 1 << l, n = SMOOTH_N_LOD(l), F = LEVEL_FULL;
    in->n = n, in->step = s;
    in->own_lo[0] = in->own_lo[1] = in->own_lo[2] = 0; /* a coarse chunk meshes its whole grid */
#define FI(x, y, z) ((size_t)(x) + (size_t)F * ((size_t)(y) + (size_t)F * (size_t)(z)))
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                /* sample voxel -s + s x, at LEVEL_MARGIN - s + s x in the box */
                int bx = LEVEL_MARGIN - s + s * x, by = LEVEL_MARGIN - s + s * y, bz = LEVEL_MARGIN - s + s * z;
                /* the filtered occupancy at the lattice voxel: the 5^3
                 * tent low-passed it for a 2- or 4-voxel lattice, and with
                 * no sign lock a coarse surface is a slope, not the
                 * lattice's staircase */
                float v = raw[FI(bx, by, bz)];
                if (v == 0.f) v = SMOOTH_MIN_MAGNITUDE; /* exactly half full: air, as a tie */
                size_t o = (size_t)x + (size_t)n * ((size_t)y + (size_t)n * (size_t)z);
                /* a thin feature the filter drops (a cactus, a trunk)
                 * stays where it stands on the lattice and on something
                 * this level keeps (the sample below, made first): a thin
                 * blob at distance, and no specks floating where a fir's
                 * crown thinned away under its tip */
                if (v > 0.f && y > 0 && in->d[o - (size_t)n] < 0.f && solid(fm[FI(bx, by, bz)]) &&
                    !bulk(fm, FI(bx, by, bz), F))
                    v = -SMOOTH_MIN_MAGNITUDE;
                in->d[o] = v;
                /* the material of the highest voxel below the next lattice
                 * row that belongs to the bulk (the sample stands for its
                 * column up to there); else its own, or the first solid
                 * one under it */
                size_t pick = FI(bx, by, bz);
                for (int yy = by + s - 1; yy > by; yy--)
                    if (bulk(fm, FI(bx, yy, bz), F)) {
                        pick = FI(bx, yy, bz);
                        break;
                    }
                /* an inside sample can be an air voxel (filtered occupancy
                 * over half in a crease): the solid below it, never air's
                 * missing tile */
                for (int yy = by - 1; !solid(fm[pick]) && yy > by - s; yy--)
                    if (solid(fm[FI(bx, yy, bz)])) pick = FI(bx, yy, bz);
                /* none in the column (a canopy's filtered mass beside an
                 * air voxel): the nearest solid voxel the sample stands
                 * for, within a lattice step on every axis (the box's
                 * margin holds them) */
                for (int r2 = 1, best = 1 << 30; !solid(fm[pick]) && r2 < s; r2++)
                    for (int dz = -r2; dz <= r2; dz++)
                        for (int dy = -r2; dy <= r2; dy++)
                            for (int dx = -r2; dx <= r2; dx++) {
                                int dd = dx * dx + dy * dy + dz * dz;
                                size_t q = FI(bx + dx, by + dy, bz + dz);
                                if (dd < best && solid(fm[q])) best = dd, pick = q;
                            }
                in->mat[o] = fm[pick];
                in->tint[o] = ft[pick];
            }
#undef FI
}

void mesh_smooth_gather_levels(const world *w, int cx, int cy, int cz, float sharpness, smooth_input *in[SMOOTH_LODS])
{
    const int F = LEVEL_FULL;
    const size_t count = (size_t)F * F * F;
    float *f = malloc(sizeof *f * count), *raw = malloc(sizeof *raw * count);
    uint8_t *fm = malloc(count), *ft = malloc(count);
    if (!f || !raw || !fm || !ft) { /* no memory: every level empty (all air) */
        free(f), free(raw), free(fm), free(ft);
        for (int l = 0; l < SMOOTH_LODS; l++) {
            int n = SMOOTH_N_LOD(l);
            in[l]->n = n, in[l]->step = 1 << l;
            in[l]->own_lo[0] = in[l]->own_lo[1] = in[l]->own_lo[2] = 1;
            for (int i = 0; i < n * n * n; i++) in[l]->d[i] = 1.f, in[l]->mat[i] = 0, in[l]->tint[i] = 0;
        }
        return;
    }
    const int M = LEVEL_MARGIN;
    const voxel_src from = { .w = w };
    density_box(&from, cx * CHUNK_SIZE - M, cy * CHUNK_SIZE - M, cz * CHUNK_SIZE - M, F, F, F, sharpness, f, fm, ft, raw);
    /* level 0: voxels -1 .. 33, as mesh_smooth_gather (a sample depends
     * only on the world around it, so cutting it from a bigger box is exact) */
    smooth_input *z = in[0];
    for (int k = 0; k < SMOOTH_N; k++)
        for (int j = 0; j < SMOOTH_N; j++) {
            size_t src = (size_t)(M - 1) + (size_t)F * ((size_t)(M - 1 + j) + (size_t)F * (size_t)(M - 1 + k));
            size_t dst = (size_t)SMOOTH_N * ((size_t)j + (size_t)SMOOTH_N * (size_t)k);
            memcpy(&z->d[dst], &f[src], sizeof *f * SMOOTH_N);
            memcpy(&z->mat[dst], &fm[src], SMOOTH_N);
            memcpy(&z->tint[dst], &ft[src], SMOOTH_N);
        }
    z->own_lo[0] = cx > w->ocx, z->own_lo[1] = cy > 0, z->own_lo[2] = cz > w->ocz; /* as mesh_smooth_gather */
    z->n = SMOOTH_N, z->step = 1;
    for (int l = 1; l < SMOOTH_LODS; l++) coarse_level(raw, fm, ft, l, in[l]);
    free(f), free(raw), free(fm), free(ft);
}

void mesh_smooth_gather_lod(const world *w, int cx, int cy, int cz, float sharpness, int lod, smooth_input *in)
{
    if (lod <= 0) {
        mesh_smooth_gather(w, cx, cy, cz, sharpness, in);
        return;
    }
    if (lod >= SMOOTH_LODS) lod = SMOOTH_LODS - 1;
    smooth_input *tmp = malloc(sizeof *tmp * SMOOTH_LODS);
    if (!tmp) {
        in->n = SMOOTH_N_LOD(lod), in->step = 1 << lod;
        in->own_lo[0] = in->own_lo[1] = in->own_lo[2] = 0;
        for (int i = 0; i < in->n * in->n * in->n; i++) in->d[i] = 1.f, in->mat[i] = 0, in->tint[i] = 0;
        return;
    }
    smooth_input *lv[SMOOTH_LODS];
    for (int l = 0; l < SMOOTH_LODS; l++) lv[l] = l == lod ? in : &tmp[l];
    mesh_smooth_gather_levels(w, cx, cy, cz, sharpness, lv);
    free(tmp);
}

/* The cell's 8 samples, upper corners first (corner order 2 3 6 7 0 1 4 5). */
static void cell_samples(int nx, int ny, uint32_t cell, size_t s[8])
{
    static const uint8_t order[8] = { 2, 3, 6, 7, 0, 1, 4, 5 };
    uint32_t cxn = (uint32_t)nx - 1, cyn = (uint32_t)ny - 1;
    uint32_t x = cell % cxn, y = (cell / cxn) % cyn, z = cell / (cxn * cyn);
    size_t base = (size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * z);
    for (int k = 0; k < 8; k++) {
        int c = order[k];
        s[k] = base + (size_t)(c & 1) + (size_t)nx * ((size_t)((c >> 1) & 1) + (size_t)ny * (size_t)(c >> 2));
    }
}

size_t mesh_smooth_material_sample(const float *d, int nx, int ny, uint32_t cell)
{
    size_t s[8];
    cell_samples(nx, ny, cell, s);
    for (int k = 0; k < 8; k++)
        if (d[s[k]] < 0.f) return s[k];
    return s[4]; /* corner 0 */
}

uint8_t mesh_smooth_cell_tint(const float *d, const uint8_t *tint, int nx, int ny, uint32_t cell)
{
    size_t s[8];
    cell_samples(nx, ny, cell, s);
    for (int k = 0; k < 8; k++)
        if (d[s[k]] >= 0.f && tint[s[k]]) return tint[s[k]];
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The chunk face a boundary cell of an n^3 sample grid lies past (0..5:
 * -x +x -y +y -z +z), or -1 inside. */
static int cell_face(uint32_t cell, int n)
{
    uint32_t c = (uint32_t)n - 1, p[3] = { cell % c, (cell / c) % c, cell / (c * c) };
    for (int a = 0; a < 3; a++) {
        if (p[a] == 0) return 2 * a;
        if (p[a] == c - 1) return 2 * a + 1;
    }
    return -1;
}

/* Coarse levels: skirts (smooth_mesh) from every open edge, grouped by
 * face. depth is in voxels. */
static bool add_skirts(smooth_mesh *out, int n, float depth)
{
    const int t = out->triangles, nv = out->vertices;
    /* every edge once per triangle, keyed by its two vertices; an edge
     * whose key occurs once is open. The low bit keeps its direction. */
    uint64_t *e = malloc(sizeof *e * 3 * (size_t)(t ? t : 1));
    int32_t *low = malloc(sizeof *low * (size_t)(nv ? nv : 1)); /* rim vertex -> its copy below */
    if (!e || !low) {
        free(e), free(low);
        return false;
    }
    for (int i = 0; i < 3 * t; i++) {
        uint32_t a = out->idx[i], b = out->idx[i - i % 3 + (i % 3 + 1) % 3];
        uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
        e[i] = (uint64_t)lo << 32 | (uint64_t)hi << 1 | (a > b); /* vertices < 2^31 */
    }
    qsort(e, 3 * (size_t)t, sizeof *e, cmp_u64);
    int open = 0;
    for (int i = 0; i < 3 * t; i++) {
        bool dup = (i > 0 && e[i] >> 1 == e[i - 1] >> 1) || (i + 1 < 3 * t && e[i] >> 1 == e[i + 1] >> 1);
        if (!dup) e[open++] = e[i];
    }
    for (int i = 0; i < nv; i++) low[i] = -1;
    int extra_v = 0;
    for (int i = 0; i < open; i++) {
        uint32_t lo = (uint32_t)(e[i] >> 32), hi = (uint32_t)(e[i] >> 1) & 0x7fffffffu;
        if (low[lo] < 0) low[lo] = nv + extra_v++;
        if (low[hi] < 0) low[hi] = nv + extra_v++;
    }
    int vneed = nv + extra_v, tneed = t + 2 * open;
    if (vneed > out->vcap) {
        smooth_vertex *v = realloc(out->v, sizeof *v * (size_t)vneed);
        if (!v) goto fail;
        out->v = v, out->vcap = vneed;
    }
    if (tneed > out->tcap) {
        uint32_t *ix = realloc(out->idx, sizeof *ix * 3 * (size_t)tneed);
        if (!ix) goto fail;
        out->idx = ix, out->tcap = tneed;
    }
    for (int i = 0; i < nv; i++) {
        if (low[i] < 0) continue;
        smooth_vertex d = out->v[i];
        for (int k = 0; k < 3; k++) d.pos[k] -= (float)d.nrm[k] / 127.f * depth;
        out->v[low[i]] = d;
    }
    /* one pass per face keeps each face's skirts together */
    uint32_t *ix = out->idx + 3 * (size_t)t;
    int made = t;
    for (int f = 0; f < 6; f++) {
        out->skirt[f] = made;
        for (int i = 0; i < open; i++) {
            uint32_t a = (uint32_t)(e[i] >> 32), b = (uint32_t)(e[i] >> 1) & 0x7fffffffu;
            /* open edges lie in the grid's boundary cells (inside, the
             * nets are closed); an edge along a corner goes with its first
             * vertex's face */
            int fe = cell_face(out->nets.cell[a], n);
            if (fe < 0) fe = cell_face(out->nets.cell[b], n);
            if ((fe < 0 ? 0 : fe) != f) continue;
            uint32_t a2 = (uint32_t)low[a], b2 = (uint32_t)low[b];
            /* facing out through face f: the quad's normal along its axis */
            const float *pa = out->v[a].pos, *pb = out->v[b].pos, *pc = out->v[b2].pos;
            float u[3] = { pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2] };
            float w[3] = { pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2] };
            float nrm[3] = { u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0] };
            bool flip = (f & 1 ? nrm[f / 2] : -nrm[f / 2]) < 0;
            const uint32_t q[6] = { a, flip ? b2 : b, flip ? b : b2, a, flip ? a2 : b2, flip ? b2 : a2 };
            memcpy(ix, q, sizeof q);
            ix += 6, made += 2;
        }
    }
    out->skirt[6] = made;
    out->vertices = vneed, out->triangles = made;
    free(e), free(low);
    return true;
fail:
    free(e), free(low);
    return false;
}

bool mesh_smooth_build(const smooth_input *in, smooth_mesh *out)
{
    out->vertices = out->triangles = 0;
    for (int f = 0; f < 7; f++) out->skirt[f] = 0;
    const int n = in->n ? in->n : SMOOTH_N, step = in->step ? in->step : 1;
    surfnets_field f = { in->d, n, n, n, { in->own_lo[0], in->own_lo[1], in->own_lo[2] } };
    if (!surfnets_extract(&f, &out->nets)) return false;
    /* sample 0 is the centre of voxel -step: local = grid * step - step + 0.5 */
    const float scale = (float)step, shift = 0.5f - (float)step;
    const surfnets_mesh *nets = &out->nets;
    if (nets->vertices > out->vcap) {
        smooth_vertex *v = realloc(out->v, sizeof *v * (size_t)nets->vertices);
        if (!v) return false;
        out->v = v, out->vcap = nets->vertices;
    }
    if (nets->triangles > out->tcap) {
        uint32_t *t = realloc(out->idx, sizeof *t * 3 * (size_t)nets->triangles);
        if (!t) return false;
        out->idx = t, out->tcap = nets->triangles;
    }
    for (int i = 0; i < nets->vertices; i++) {
        smooth_vertex *v = &out->v[i];
        for (int k = 0; k < 3; k++) {
            v->pos[k] = nets->pos[3 * i + k] * scale + shift;
            v->nrm[k] = (int8_t)lrintf(nets->nrm[3 * i + k] * 127.f);
        }
        v->nrm[3] = 0;
        v->mat = in->mat[mesh_smooth_material_sample(in->d, n, n, nets->cell[i])];
        v->tint = mesh_smooth_cell_tint(in->d, in->tint, n, n, nets->cell[i]);
        v->pad[0] = v->pad[1] = 0;
    }
    if (nets->triangles) memcpy(out->idx, nets->idx, sizeof *out->idx * 3 * (size_t)nets->triangles);
    out->vertices = nets->vertices, out->triangles = nets->triangles;
    for (int k = 0; k < 7; k++) out->skirt[k] = out->triangles;
    if (step > 1 && !add_skirts(out, n, SMOOTH_SKIRT_DEPTH * (float)step)) {
        out->vertices = out->triangles = 0;
        for (int k = 0; k < 7; k++) out->skirt[k] = 0;
    }
    return true;
}

void mesh_smooth_free(smooth_mesh *m)
{
    free(m->v);
    free(m->idx);
    surfnets_free(&m->nets);
    memset(m, 0, sizeof *m);
}
