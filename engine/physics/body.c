#include "physics/body.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/origin.h"

body_surface body_surface_of(uint8_t mat)
{
    /* slide: tan of the angle of repose (rock 35, soil 39, sand 33, wood 27
     * degrees); roll, spin: rougher and softer surfaces hold a turn harder */
    static const body_surface by_class[ECLASS_COUNT] = {
        [ECLASS_NONE] = { 0.6f, 0.3f, 0.3f },   [ECLASS_ROCK] = { 0.7f, 0.5f, 0.5f },
        [ECLASS_SOIL] = { 0.8f, 0.45f, 0.45f }, [ECLASS_SAND] = { 0.65f, 0.6f, 0.6f },
        [ECLASS_WOOD] = { 0.5f, 0.4f, 0.4f },   [ECLASS_LEAVES] = { 0.9f, 0.6f, 0.6f },
        [ECLASS_BOG] = { 0.3f, 0.6f, 0.6f },
    };
    uint8_t c = material_get(mat)->enhance.cls;
    return by_class[c < ECLASS_COUNT ? c : ECLASS_NONE];
}

body_surface body_surface_mix(body_surface a, body_surface b)
{
    return (body_surface){ sqrtf(a.slide * b.slide), 0.5f * (a.roll + b.roll), 0.5f * (a.spin + b.spin) };
}

void body_density_default(body_density *d)
{
    for (int m = 0; m < MAT_COUNT; m++) d->of[m] = material_table[m].density;
}

void body_destroy(body *b)
{
    if (!b) return;
    octree_destroy(b->tree);
    octree_destroy(b->shell);
    free(b->mat);
    free(b->tint);
    free(b);
}

void body_rotation(const body *b, float r[3][3])
{
    float x = b->rot[0], y = b->rot[1], z = b->rot[2], w = b->rot[3];
    r[0][0] = 1 - 2 * (y * y + z * z), r[0][1] = 2 * (x * y - z * w), r[0][2] = 2 * (x * z + y * w);
    r[1][0] = 2 * (x * y + z * w), r[1][1] = 1 - 2 * (x * x + z * z), r[1][2] = 2 * (y * z - x * w);
    r[2][0] = 2 * (x * z - y * w), r[2][1] = 2 * (y * z + x * w), r[2][2] = 1 - 2 * (x * x + y * y);
}

void body_to_world(const body *b, float r[3][3], const float p[3], float out[3])
{
    float d[3] = { p[0] - b->com[0], p[1] - b->com[1], p[2] - b->com[2] };
    for (int i = 0; i < 3; i++) out[i] = b->pos[i] + r[i][0] * d[0] + r[i][1] * d[1] + r[i][2] * d[2];
}

void body_world_pos(const body *b, double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = (double)b->org[i] + b->pos[i];
}

void body_octree_pose(const body *b, octree_pose *out)
{
    body_rotation(b, out->rot);
    const float pivot[3] = { (float)b->size[0] * 0.5f, (float)b->size[1] * 0.5f, (float)b->size[2] * 0.5f };
    body_to_world(b, out->rot, pivot, out->pos);
    memcpy(out->org, b->org, sizeof out->org); /* the body's frame */
}

/* Grid point 0 at world position `at`: the frame from origin_snap (0 near
 * the origin, so a body there computes what it always did), pos the rest. */
static void place_at(body *b, const double at[3])
{
    for (int i = 0; i < 3; i++) {
        b->org[i] = origin_snap(at[i]);
        b->pos[i] = (float)(at[i] - b->org[i]);
    }
}

/* Inverse of a symmetric 3x3 (the inertia tensor, positive definite: each
 * voxel adds its own cube's m/6 on the diagonal). */
static bool invert3(double m[3][3], float out[3][3])
{
    double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1], c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2],
           c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    if (!(fabs(det) > 1e-12)) return false;
    double inv[3][3] = {
        { c00, m[0][2] * m[2][1] - m[0][1] * m[2][2], m[0][1] * m[1][2] - m[0][2] * m[1][1] },
        { c01, m[0][0] * m[2][2] - m[0][2] * m[2][0], m[0][2] * m[1][0] - m[0][0] * m[1][2] },
        { c02, m[0][1] * m[2][0] - m[0][0] * m[2][1], m[0][0] * m[1][1] - m[0][1] * m[1][0] },
    };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out[i][j] = (float)(inv[i][j] / det);
    return true;
}

bool body_update_mass(body *b, const body_density *dens)
{
    /* one pass: mass, first and second moments about the grid's origin and
     * the voxels' box; the centre and the parallel-axis theorem follow */
    double M = 0, c[3] = { 0, 0, 0 }, S[3][3] = { { 0 } }, surf[3] = { 0, 0, 0 };
    long n = 0;
    int lo[3] = { b->size[0], b->size[1], b->size[2] }, hi[3] = { 0, 0, 0 };
    for (int y = 0; y < b->size[1]; y++)
        for (int z = 0; z < b->size[2]; z++)
            for (int x = 0; x < b->size[0]; x++) {
                uint8_t m = b->mat[body_index(b, x, y, z)];
                if (m == MAT_AIR) continue;
                double rho = m < MAT_COUNT ? dens->of[m] : 1.0;
                const double p[3] = { x + 0.5, y + 0.5, z + 0.5 };
                const int v[3] = { x, y, z };
                M += rho, n++;
                body_surface bs = body_surface_of(m);
                surf[0] += bs.slide, surf[1] += bs.roll, surf[2] += bs.spin;
                for (int i = 0; i < 3; i++) {
                    c[i] += rho * p[i];
                    for (int j = 0; j < 3; j++) S[i][j] += rho * p[i] * p[j];
                    if (v[i] < lo[i]) lo[i] = v[i];
                    if (v[i] + 1 > hi[i]) hi[i] = v[i] + 1;
                }
            }
    b->count = n;
    if (!(M > 0)) return false;
    b->surface = (body_surface){ (float)(surf[0] / n), (float)(surf[1] / n), (float)(surf[2] / n) };
    for (int i = 0; i < 3; i++) c[i] /= M;
    /* I = sum m ((d.d) E - d d^T) + m/6 E (each voxel's own cube), d = p - c */
    double I[3][3], tr = 0;
    for (int i = 0; i < 3; i++) tr += S[i][i] - M * c[i] * c[i];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) I[i][j] = (i == j ? tr + M / 6.0 : 0.0) - (S[i][j] - M * c[i] * c[j]);
    if (!invert3(I, b->inv_inertia)) return false;
    /* the grid keeps its place in the world while the centre moves */
    float r[3][3], newc[3] = { (float)c[0], (float)c[1], (float)c[2] }, at[3];
    body_rotation(b, r);
    body_to_world(b, r, newc, at);
    memcpy(b->pos, at, sizeof at);
    memcpy(b->com, newc, sizeof newc);
    double far2 = 0;
    for (int k = 0; k < 8; k++) {
        double dd = 0;
        for (int i = 0; i < 3; i++) {
            double e = (k >> i & 1 ? hi[i] : lo[i]) - c[i];
            dd += e * e;
        }
        if (dd > far2) far2 = dd;
    }
    b->mass = (float)M;
    b->inv_mass = (float)(1.0 / M);
    b->radius = (float)sqrt(far2);
    return true;
}

static body *body_alloc(const int size[3])
{
    body *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    memcpy(b->size, size, sizeof b->size);
    size_t n = (size_t)size[0] * (size_t)size[1] * (size_t)size[2];
    b->mat = calloc(n, 1);
    b->tint = calloc(n, 1);
    b->rot[3] = 1;
    if (!b->mat || !b->tint) {
        body_destroy(b);
        return NULL;
    }
    return b;
}

/* The voxels with a face open to air (or to the grid's edge): only they
 * can touch anything first, so contacts are searched among them alone. */
static octree *shell_tree(const body *b)
{
    const int *s = b->size;
    octree *o = octree_create(s[0], s[1], s[2]);
    if (!o) return NULL;
    for (int y = 0; y < s[1]; y++)
        for (int z = 0; z < s[2]; z++)
            for (int x = 0; x < s[0]; x++) {
                if (b->mat[body_index(b, x, y, z)] == MAT_AIR) continue;
                bool open = x == 0 || y == 0 || z == 0 || x == s[0] - 1 || y == s[1] - 1 || z == s[2] - 1;
                for (int f = 0; f < FACE_COUNT && !open; f++)
                    open = b->mat[body_index(b, x + face_normal[f][0], y + face_normal[f][1], z + face_normal[f][2])] ==
                           MAT_AIR;
                if (open) octree_set(o, x, y, z, true);
            }
    return o;
}

/* The octrees and the mass, once the grid is filled; NULL (freed) if not. */
static body *body_finish(body *b, const body_density *dens)
{
    b->tree = octree_from_dense(b->mat, b->size[0], b->size[1], b->size[2]);
    b->shell = b->tree ? shell_tree(b) : NULL;
    if (!b->tree || !b->shell || !body_update_mass(b, dens)) {
        body_destroy(b);
        return NULL;
    }
    return b;
}

body *body_from_grid(const uint8_t *mat, const uint8_t *tint, const int size[3], const float origin[3],
                     const body_density *dens)
{
    const double at[3] = { origin[0], origin[1], origin[2] };
    return body_from_grid_at(mat, tint, size, at, dens);
}

body *body_from_grid_at(const uint8_t *mat, const uint8_t *tint, const int size[3], const double origin[3],
                        const body_density *dens)
{
    for (int i = 0; i < 3; i++)
        if (size[i] < 1 || size[i] > BODY_MAX_SIDE) return NULL;
    body *b = body_alloc(size);
    if (!b) return NULL;
    size_t n = (size_t)size[0] * (size_t)size[1] * (size_t)size[2];
    memcpy(b->mat, mat, n);
    if (tint) memcpy(b->tint, tint, n);
    /* before the mass: com 0 puts grid point 0 at pos */
    place_at(b, origin);
    return body_finish(b, dens);
}

typedef struct piece_box {
    int lo[3], hi[3]; /* voxels, inclusive */
} piece_box;

/* Labels the 6-connected groups of non-air cells of a grid the size of
 * b's: label[k] = group + 1 (0: air); box per group. Returns the groups,
 * or -1 when out of memory. */
static int label_groups(const body *b, const uint8_t *mat, int *label, piece_box **boxes)
{
    const int *s = b->size;
    size_t n = (size_t)s[0] * (size_t)s[1] * (size_t)s[2];
    int *stack = malloc(n * sizeof *stack);
    if (!stack) return -1;
    int groups = 0, cap = 0;
    *boxes = NULL;
    memset(label, 0, n * sizeof *label);
    for (size_t k0 = 0; k0 < n; k0++) {
        if (mat[k0] == MAT_AIR || label[k0]) continue;
        if (groups == cap) {
            cap = cap ? cap * 2 : 4;
            piece_box *nb = realloc(*boxes, sizeof *nb * (size_t)cap);
            if (!nb) {
                free(stack);
                return -1;
            }
            *boxes = nb;
        }
        piece_box *box = &(*boxes)[groups++];
        int top = 0;
        stack[top++] = (int)k0;
        label[k0] = groups;
        bool first = true;
        while (top) {
            int k = stack[--top];
            int c[3] = { k % s[0], k / (s[0] * s[2]), k / s[0] % s[2] };
            for (int a = 0; a < 3; a++) {
                if (first || c[a] < box->lo[a]) box->lo[a] = c[a];
                if (first || c[a] > box->hi[a]) box->hi[a] = c[a];
            }
            first = false;
            for (int f = 0; f < FACE_COUNT; f++) {
                int d[3] = { c[0] + face_normal[f][0], c[1] + face_normal[f][1], c[2] + face_normal[f][2] };
                if (d[0] < 0 || d[1] < 0 || d[2] < 0 || d[0] >= s[0] || d[1] >= s[1] || d[2] >= s[2]) continue;
                size_t kk = body_index(b, d[0], d[1], d[2]);
                if (mat[kk] == MAT_AIR || label[kk]) continue;
                label[kk] = groups;
                stack[top++] = (int)kk;
            }
        }
    }
    free(stack);
    return groups;
}

/* Group g (label g + 1) of b's cells as a body of its own, posed where b
 * has it and moving as that part of b moves. */
static body *piece_of(const body *b, const uint8_t *mat, const uint8_t *tint, const int *label, int g,
                      const piece_box *box, const body_density *dens)
{
    int size[3], o[3];
    for (int a = 0; a < 3; a++) {
        o[a] = box->lo[a] - 1;
        size[a] = box->hi[a] - box->lo[a] + 3;
        if (size[a] > BODY_MAX_SIDE) return NULL;
    }
    body *p = body_alloc(size);
    if (!p) return NULL;
    for (int y = 0; y < size[1]; y++)
        for (int z = 0; z < size[2]; z++)
            for (int x = 0; x < size[0]; x++) {
                int q[3] = { x + o[0], y + o[1], z + o[2] };
                if (q[0] < 0 || q[1] < 0 || q[2] < 0 || q[0] >= b->size[0] || q[1] >= b->size[1] || q[2] >= b->size[2])
                    continue;
                size_t kb = body_index(b, q[0], q[1], q[2]), kp = body_index(p, x, y, z);
                if (label[kb] == g + 1) p->mat[kp] = mat[kb];
                else if (mat[kb] == MAT_AIR) p->tint[kp] = tint[kb];
            }
    /* b's pose with the grid shifted by o; body_update_mass then moves
     * the centre to the piece's own, keeping the grid's place */
    memcpy(p->rot, b->rot, sizeof p->rot);
    memcpy(p->org, b->org, sizeof p->org); /* b's frame: its pieces compute as it did */
    memcpy(p->pos, b->pos, sizeof p->pos);
    for (int a = 0; a < 3; a++) p->com[a] = b->com[a] - (float)o[a];
    p = body_finish(p, dens);
    if (!p) return NULL;
    float r[3] = { p->pos[0] - b->pos[0], p->pos[1] - b->pos[1], p->pos[2] - b->pos[2] };
    p->vel[0] = b->vel[0] + b->ang[1] * r[2] - b->ang[2] * r[1];
    p->vel[1] = b->vel[1] + b->ang[2] * r[0] - b->ang[0] * r[2];
    p->vel[2] = b->vel[2] + b->ang[0] * r[1] - b->ang[1] * r[0];
    memcpy(p->ang, b->ang, sizeof p->ang);
    p->age = b->age;
    return p;
}

int body_split(const body *b, const uint8_t *mat, const uint8_t *tint, const body_density *dens, body ***out)
{
    *out = NULL;
    size_t n = (size_t)b->size[0] * (size_t)b->size[1] * (size_t)b->size[2];
    int *label = malloc(n * sizeof *label);
    piece_box *boxes = NULL;
    int groups = label ? label_groups(b, mat, label, &boxes) : -1;
    body **pieces = groups > 0 ? calloc((size_t)groups, sizeof *pieces) : NULL;
    if (groups > 0 && !pieces) groups = -1;
    for (int g = 0; g < groups; g++)
        if (!(pieces[g] = piece_of(b, mat, tint, label, g, &boxes[g], dens))) {
            for (int k = 0; k < g; k++) body_destroy(pieces[k]);
            free(pieces);
            pieces = NULL;
            groups = -1;
        }
    free(label);
    free(boxes);
    *out = pieces;
    return groups;
}

body *body_cut_from_world(world *w, const int *vox, size_t count, const body_density *dens, int lo[3], int hi[3])
{
    if (!count) return NULL;
    int blo[3], bhi[3];
    for (int a = 0; a < 3; a++) blo[a] = bhi[a] = vox[a];
    for (size_t i = 0; i < count; i++)
        for (int a = 0; a < 3; a++) {
            int v = vox[3 * i + a];
            if (v < blo[a]) blo[a] = v;
            if (v > bhi[a]) bhi[a] = v;
        }
    int size[3];
    for (int a = 0; a < 3; a++) {
        size[a] = bhi[a] - blo[a] + 3;
        if (size[a] > BODY_MAX_SIDE) return NULL;
    }
    body *b = body_alloc(size);
    if (!b) return NULL;
    for (size_t i = 0; i < count; i++) {
        const int *v = &vox[3 * i];
        b->mat[body_index(b, v[0] - blo[0] + 1, v[1] - blo[1] + 1, v[2] - blo[2] + 1)] = world_get(w, v[0], v[1], v[2]);
    }
    /* the tints of the cells round the body: the colours of its faces */
    for (int y = 0; y < size[1]; y++)
        for (int z = 0; z < size[2]; z++)
            for (int x = 0; x < size[0]; x++) {
                size_t k = body_index(b, x, y, z);
                if (b->mat[k] == MAT_AIR) b->tint[k] = world_get_tint(w, blo[0] - 1 + x, blo[1] - 1 + y, blo[2] - 1 + z);
            }
    const double at[3] = { blo[0] - 1, blo[1] - 1, blo[2] - 1 };
    place_at(b, at);
    b = body_finish(b, dens);
    if (!b) return NULL;
    for (size_t i = 0; i < count; i++) world_set(w, vox[3 * i], vox[3 * i + 1], vox[3 * i + 2], MAT_AIR);
    for (int a = 0; a < 3; a++) lo[a] = blo[a], hi[a] = bhi[a] + 1;
    return b;
}

static bool cell_free(const world *w, const double keep_out[6], int x, int y, int z)
{
    if (keep_out && !(x + 1 > keep_out[0] && x < keep_out[3] && y + 1 > keep_out[1] &&
                      y < keep_out[4] && z + 1 > keep_out[2] && z < keep_out[5]))
        keep_out = NULL; /* outside the box: only the world decides */
    if (!world_in_bounds(w, x, y, z) || world_get(w, x, y, z) != MAT_AIR) return false;
    /* a streamed column not generated yet is not air: its terrain comes
     * over what is put there now (or, stored before it came, goes over
     * its terrain) */
    if (!world_voxel_ready(w, x, z)) return false;
    return keep_out == NULL;
}

/* When a voxel's own cell c is taken: the nearest free cell within two
 * cells, upward before downward (a voxel settles on what is below), in a
 * fixed order so merges are deterministic. */
static bool nearest_free(const world *w, const double keep_out[6], int c[3])
{
    for (int len = 1; len <= 12; len++)
        for (int dy = 2; dy >= -2; dy--)
            for (int dz = -2; dz <= 2; dz++)
                for (int dx = -2; dx <= 2; dx++)
                    if (dx * dx + dy * dy + dz * dz == len && cell_free(w, keep_out, c[0] + dx, c[1] + dy, c[2] + dz)) {
                        c[0] += dx, c[1] += dy, c[2] += dz;
                        return true;
                    }
    return false;
}

long body_merge(const body *b, world *w, const double keep_out[6], long *lost, int lo[3], int hi[3])
{
    float r[3][3];
    body_rotation(b, r);
    long placed = 0, gone = 0;
    for (int a = 0; a < 3; a++) lo[a] = 0, hi[a] = 0;
    for (int y = 0; y < b->size[1]; y++)
        for (int z = 0; z < b->size[2]; z++)
            for (int x = 0; x < b->size[0]; x++) {
                uint8_t m = b->mat[body_index(b, x, y, z)];
                if (m == MAT_AIR) continue;
                float p[3] = { (float)x + 0.5f, (float)y + 0.5f, (float)z + 0.5f }, q[3];
                body_to_world(b, r, p, q); /* in the body's frame */
                /* far outside the world (or not a number): nowhere to go */
                bool ok = fabsf(q[0]) < 1e6f && fabsf(q[1]) < 1e6f && fabsf(q[2]) < 1e6f;
                int c[3] = { 0, 0, 0 };
                if (ok) {
                    for (int a = 0; a < 3; a++) c[a] = b->org[a] + (int)floorf(q[a]);
                    ok = cell_free(w, keep_out, c[0], c[1], c[2]) || nearest_free(w, keep_out, c);
                }
                if (!ok) {
                    gone++;
                    continue;
                }
                world_set(w, c[0], c[1], c[2], m);
                for (int a = 0; a < 3; a++) {
                    if (!placed || c[a] < lo[a]) lo[a] = c[a];
                    if (!placed || c[a] + 1 > hi[a]) hi[a] = c[a] + 1;
                }
                placed++;
            }
    /* the colours of its faces: each tinted cell round the body goes to the
     * open cell its centre lands in (after the voxels, so it never takes a
     * cell a voxel wanted) */
    for (int y = 0; y < b->size[1] && placed; y++)
        for (int z = 0; z < b->size[2]; z++)
            for (int x = 0; x < b->size[0]; x++) {
                size_t k = body_index(b, x, y, z);
                if (b->mat[k] != MAT_AIR || !b->tint[k]) continue;
                float p[3] = { (float)x + 0.5f, (float)y + 0.5f, (float)z + 0.5f }, q[3];
                body_to_world(b, r, p, q);
                if (!(fabsf(q[0]) < 1e6f && fabsf(q[1]) < 1e6f && fabsf(q[2]) < 1e6f)) continue;
                int c[3] = { b->org[0] + (int)floorf(q[0]), b->org[1] + (int)floorf(q[1]),
                             b->org[2] + (int)floorf(q[2]) };
                if (world_in_bounds(w, c[0], c[1], c[2]) && world_get(w, c[0], c[1], c[2]) == MAT_AIR &&
                    world_set_tint(w, c[0], c[1], c[2], b->tint[k]))
                    for (int a = 0; a < 3; a++) {
                        if (c[a] < lo[a]) lo[a] = c[a];
                        if (c[a] + 1 > hi[a]) hi[a] = c[a] + 1;
                    }
            }
    if (lost) *lost = gone;
    return placed;
}
