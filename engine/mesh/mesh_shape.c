#include "mesh/mesh_shape.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const int shape_face_normal[SHAPE_FACES][3] = {
    { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 }, { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 },
};

void shape_mesh_free(shape_mesh *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}

static bool mesh_reserve(shape_mesh *m, int quads)
{
    if (quads <= m->cap) return true;
    int cap = m->cap ? m->cap : 256;
    while (cap < quads) {
        /* 4 vertices and 6 indices a quad are counted in ints downstream */
        if (cap > INT_MAX / 16) return false;
        cap *= 2;
    }
    shape_mesh_vertex *v = realloc(m->v, sizeof *v * 4 * (size_t)cap);
    if (!v) return false;
    m->v = v;
    m->cap = cap;
    return true;
}

/* One slice of one face direction: the faces on side pos (0 = negative,
 * 1 = positive) of axis d of the voxels in layer `layer`; its mask is
 * size[u] x size[v] over the in-plane axes, u fastest. */
typedef struct slice {
    int d, u, v, pos, layer;
    int size[3];
} slice;

static bool emit_quad(shape_mesh *m, const slice *sl, int u0, int v0, int w, int h)
{
    if (!mesh_reserve(m, m->quads + 1)) return false;
    float corner[4][3];
    /* corners in the order of the header: positive faces walk u then v,
     * negative faces v then u, so both wind CCW seen from outside */
    const int du[4] = { 0, w, w, 0 }, dv[4] = { 0, 0, h, h };
    for (int k = 0; k < 4; k++) {
        int kk = sl->pos ? k : (4 - k) % 4;
        corner[k][sl->d] = (float)(sl->layer + sl->pos);
        corner[k][sl->u] = (float)(u0 + du[kk]);
        corner[k][sl->v] = (float)(v0 + dv[kk]);
    }
    shape_mesh_vertex *out = &m->v[4 * (size_t)m->quads++];
    for (int k = 0; k < 4; k++) {
        memcpy(out[k].pos, corner[k], sizeof out[k].pos);
        out[k].face = (uint32_t)(2 * sl->d + sl->pos);
    }
    return true;
}

/* Marks the exposed faces of one slice; returns how many. Walks the voxel
 * bytes by strides: this loop runs 6 * sx * sy * sz times per build. */
static long fill_mask(const shape *s, const slice *sl, uint8_t *mask)
{
    const size_t stride[3] = { 1, (size_t)s->sx * (size_t)s->sz, (size_t)s->sx };
    int nu = sl->size[sl->u], nv = sl->size[sl->v];
    size_t su = stride[sl->u], sv = stride[sl->v];
    /* the neighbour across the face, or none at the grid's edge (empty) */
    int next = sl->layer + (sl->pos ? 1 : -1);
    bool inside = next >= 0 && next < sl->size[sl->d];
    ptrdiff_t off = sl->pos ? (ptrdiff_t)stride[sl->d] : -(ptrdiff_t)stride[sl->d];
    const uint8_t *base = s->vox + (size_t)sl->layer * stride[sl->d];
    long n = 0;
    for (int j = 0; j < nv; j++) {
        const uint8_t *row = base + (size_t)j * sv;
        uint8_t *m = mask + (size_t)j * (size_t)nu;
        for (int i = 0; i < nu; i++) {
            const uint8_t *c = row + (size_t)i * su;
            bool e = *c && !(inside && c[off]);
            m[i] = e;
            n += e;
        }
    }
    return n;
}

/* Greedy merge: grow each unclaimed cell along u as far as the row allows,
 * then along v while the whole run is set. Claimed cells are cleared, so
 * every cell lands in exactly one rectangle. */
static bool merge_mask(shape_mesh *m, const slice *sl, uint8_t *mask)
{
    int nu = sl->size[sl->u], nv = sl->size[sl->v];
    for (int j = 0; j < nv; j++) {
        for (int i = 0; i < nu; i++) {
            if (!mask[i + j * nu]) continue;
            int w = 1;
            while (i + w < nu && mask[i + w + j * nu]) w++;
            int h = 1;
            for (; j + h < nv; h++) {
                const uint8_t *row = mask + (size_t)(j + h) * (size_t)nu + i;
                int k = 0;
                while (k < w && row[k]) k++;
                if (k < w) break;
            }
            for (int y = 0; y < h; y++) memset(mask + (size_t)(j + y) * (size_t)nu + i, 0, (size_t)w);
            if (!emit_quad(m, sl, i, j, w, h)) return false;
            i += w - 1;
        }
    }
    return true;
}

bool shape_mesh_build(const shape *s, shape_mesh *out)
{
    out->quads = 0;
    out->faces = 0;
    if (!s || !s->vox || s->sx < 1 || s->sy < 1 || s->sz < 1) return true;
    int size[3] = { s->sx, s->sy, s->sz };
    int biggest = 0; /* largest slice area, for one mask reused by all */
    for (int d = 0; d < 3; d++) {
        int a = size[(d + 1) % 3] * size[(d + 2) % 3];
        if (a > biggest) biggest = a;
    }
    uint8_t *mask = malloc((size_t)biggest);
    if (!mask) return false;
    bool ok = true;
    for (int face = 0; face < SHAPE_FACES && ok; face++) {
        slice sl = { .d = face / 2, .pos = face & 1 };
        sl.u = (sl.d + 1) % 3, sl.v = (sl.d + 2) % 3;
        memcpy(sl.size, size, sizeof size);
        for (sl.layer = 0; sl.layer < size[sl.d] && ok; sl.layer++) {
            long n = fill_mask(s, &sl, mask);
            out->faces += n;
            if (n) ok = merge_mask(out, &sl, mask);
        }
    }
    free(mask);
    if (!ok) out->quads = 0, out->faces = 0;
    return ok;
}


/* ---- outline ---------------------------------------------------------------- */

void shape_outline_free(shape_outline *o)
{
    free(o->v);
    memset(o, 0, sizeof *o);
}

/* The voxel at (a, u, v) coordinates along the three axes of an edge. */
static bool cell(const shape *s, int axis, int a, int u, int v)
{
    int p[3];
    p[axis] = a, p[(axis + 1) % 3] = u, p[(axis + 2) % 3] = v;
    return shape_get(s, p[0], p[1], p[2]);
}

/* The four voxels around the edge along `axis` at grid line (u, v), slice a:
 * bit du + 2 dv is voxel (a, u - 1 + du, v - 1 + dv). */
static int edge_config(const shape *s, int axis, int a, int u, int v)
{
    return cell(s, axis, a, u - 1, v - 1) | cell(s, axis, a, u, v - 1) << 1 | cell(s, axis, a, u - 1, v) << 2 |
           cell(s, axis, a, u, v) << 3;
}

/* A crease: one or three voxels of four, or two at a diagonal. Two side by
 * side make a flat face, none or four no surface. */
static bool config_bends(int c) { return c != 0 && c != 15 && c != 3 && c != 12 && c != 5 && c != 10; }

/* The exposed faces beside the edge, for shading and for leaving out edges
 * the eye cannot see: the first in the low byte, the second in the next
 * (SHAPE_OUTLINE_ANY for two voxels at a diagonal, whose four faces look
 * every way). */
static uint32_t config_faces(int c, int axis)
{
    int u = (axis + 1) % 3, v = (axis + 2) % 3;
    if (c == 6 || c == 9) { /* diagonal: voxels 1 and 2, or 0 and 3 */
        int k = c == 6 ? 1 : 0, du = k & 1;
        return (uint32_t)(2 * u + (du == 0)) | (uint32_t)SHAPE_OUTLINE_ANY << 8;
    }
    /* one voxel alone (or one empty): its two faces across u and across v */
    bool single = c == 1 || c == 2 || c == 4 || c == 8;
    for (int k = 0; k < 4; k++) {
        bool corner = single ? (c >> k & 1) : !(c >> k & 1);
        if (!corner) continue;
        int du = k & 1, dv = k >> 1;
        /* a lone voxel's faces point away from the other three cells; a
         * lone empty cell is looked into by its two solid neighbours */
        uint32_t fu = (uint32_t)(2 * u + (single ? du == 0 : du == 1));
        uint32_t fv = (uint32_t)(2 * v + (single ? dv == 0 : dv == 1));
        return fu | fv << 8;
    }
    return 0;
}

static bool emit_segment(shape_outline *o, int axis, int u, int v, int a0, int a1, uint32_t face)
{
    if (o->segments >= o->cap) {
        if (o->cap > INT_MAX / 4) return false;
        int cap = o->cap ? 2 * o->cap : 256;
        shape_mesh_vertex *nv = realloc(o->v, sizeof *nv * 2 * (size_t)cap);
        if (!nv) return false;
        o->v = nv, o->cap = cap;
    }
    shape_mesh_vertex *e = &o->v[2 * (size_t)o->segments++];
    for (int k = 0; k < 2; k++) {
        e[k].pos[axis] = (float)(k ? a1 : a0);
        e[k].pos[(axis + 1) % 3] = (float)u;
        e[k].pos[(axis + 2) % 3] = (float)v;
        e[k].face = face;
    }
    return true;
}

bool shape_outline_build(const shape *s, shape_outline *out)
{
    out->segments = 0;
    out->edges = 0;
    if (!s || !s->vox || s->sx < 1 || s->sy < 1 || s->sz < 1) return true;
    const int size[3] = { s->sx, s->sy, s->sz };
    for (int axis = 0; axis < 3; axis++) {
        int nu = size[(axis + 1) % 3], nv = size[(axis + 2) % 3], na = size[axis];
        for (int v = 0; v <= nv; v++)
            for (int u = 0; u <= nu; u++) {
                /* runs of the same bending configuration become one segment */
                int start = -1, run = 0;
                for (int a = 0; a <= na; a++) {
                    int c = a < na ? edge_config(s, axis, a, u, v) : 0;
                    if (start >= 0 && c == run) {
                        out->edges++;
                        continue;
                    }
                    if (start >= 0 && !emit_segment(out, axis, u, v, start, a, config_faces(run, axis))) {
                        shape_outline_free(out);
                        return false;
                    }
                    start = config_bends(c) ? a : -1, run = c;
                    out->edges += start >= 0;
                }
            }
    }
    return true;
}
