#include "gen/winding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INV_4PI 0.07957747154594767
#define LEAF_TRIS 8
#define TRI_STRIDE 16

/* Signed solid angle of triangle abc seen from q (Van Oosterom & Strackee):
 * positive when q is on the side its counter-clockwise winding faces away from. */
static double solid_angle(const double *a, const double *b, const double *c, const double q[3])
{
    double A[3], B[3], C[3];
    for (int k = 0; k < 3; k++) A[k] = a[k] - q[k], B[k] = b[k] - q[k], C[k] = c[k] - q[k];
    double la = sqrt(A[0] * A[0] + A[1] * A[1] + A[2] * A[2]), lb = sqrt(B[0] * B[0] + B[1] * B[1] + B[2] * B[2]),
           lc = sqrt(C[0] * C[0] + C[1] * C[1] + C[2] * C[2]);
    double det = A[0] * (B[1] * C[2] - B[2] * C[1]) - A[1] * (B[0] * C[2] - B[2] * C[0]) +
                 A[2] * (B[0] * C[1] - B[1] * C[0]);
    double den = la * lb * lc + (A[0] * B[0] + A[1] * B[1] + A[2] * B[2]) * lc +
                 (B[0] * C[0] + B[1] * C[1] + B[2] * C[2]) * la + (C[0] * A[0] + C[1] * A[1] + C[2] * A[2]) * lb;
    return 2.0 * atan2(det, den);
}

double winding_exact(const obj_mesh *m, const double q[3])
{
    double w = 0;
    for (int t = 0; t < m->nt; t++) {
        double p[3][3];
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) p[c][k] = m->v[3 * m->tri[3 * t + c] + k];
        w += solid_angle(p[0], p[1], p[2], q);
    }
    return w * INV_4PI;
}

typedef struct wnode {
    double lo[3], hi[3];
    double centre[3]; /* area-weighted centroid: where the dipole sits */
    double normal[3]; /* sum of area vectors: the dipole's moment */
    double r2;        /* squared radius about centre that holds the node */
    int first, count; /* leaf: triangles [first, first + count) */
    int left, right;  /* inner: children, -1 for a leaf */
} wnode;

struct winding_tree {
    wnode *nodes;
    int nn;
    double *tri; /* TRI_STRIDE doubles per triangle, in tree order: corners,
                    centroid, area vector, squared radius about the centroid */
    int nt;
};

typedef struct build_item {
    double c[3];
    int t;
} build_item;

/* Reorders it[0..n) so that it[k] is where sorting by c[axis] would put it,
 * with nothing greater before it and nothing smaller after (quickselect):
 * the median split of a node, without a full sort. */
static void select_nth(build_item *it, int n, int k, int axis)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = it[lo + (hi - lo) / 2].c[axis];
        int i = lo, j = hi;
        while (i <= j) {
            while (it[i].c[axis] < pivot) i++;
            while (it[j].c[axis] > pivot) j--;
            if (i <= j) {
                build_item t = it[i];
                it[i++] = it[j];
                it[j--] = t;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return;
    }
}

static int build(winding_tree *t, build_item *it, int first, int count, const obj_mesh *m)
{
    int id = t->nn++;
    wnode *n = &t->nodes[id];
    for (int k = 0; k < 3; k++) n->lo[k] = INFINITY, n->hi[k] = -INFINITY, n->centre[k] = 0, n->normal[k] = 0;
    double area = 0;
    for (int i = first; i < first + count; i++) {
        const int *tr = &m->tri[3 * it[i].t];
        double p[3][3];
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) {
                p[c][k] = m->v[3 * tr[c] + k];
                if (p[c][k] < n->lo[k]) n->lo[k] = p[c][k];
                if (p[c][k] > n->hi[k]) n->hi[k] = p[c][k];
            }
        double u[3], v[3], cr[3];
        for (int k = 0; k < 3; k++) u[k] = p[1][k] - p[0][k], v[k] = p[2][k] - p[0][k];
        cr[0] = u[1] * v[2] - u[2] * v[1], cr[1] = u[2] * v[0] - u[0] * v[2], cr[2] = u[0] * v[1] - u[1] * v[0];
        double a = 0.5 * sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
        area += a;
        for (int k = 0; k < 3; k++) {
            n->normal[k] += 0.5 * cr[k];
            n->centre[k] += a * (p[0][k] + p[1][k] + p[2][k]) / 3.0;
        }
    }
    for (int k = 0; k < 3; k++) n->centre[k] = area > 0 ? n->centre[k] / area : 0.5 * (n->lo[k] + n->hi[k]);
    n->r2 = 0;
    for (int c = 0; c < 8; c++) { /* the box's farthest corner bounds every triangle */
        double d2 = 0;
        for (int k = 0; k < 3; k++) {
            double e = ((c >> k) & 1 ? n->hi[k] : n->lo[k]) - n->centre[k];
            d2 += e * e;
        }
        if (d2 > n->r2) n->r2 = d2;
    }
    n->first = first, n->count = count, n->left = n->right = -1;
    if (count <= LEAF_TRIS) return id;
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (n->hi[k] - n->lo[k] > n->hi[axis] - n->lo[axis]) axis = k;
    int half = count / 2;
    select_nth(it + first, count, half, axis);
    int l = build(t, it, first, half, m);
    int r = build(t, it, first + half, count - half, m);
    t->nodes[id].left = l, t->nodes[id].right = r;
    return id;
}

winding_tree *winding_tree_build(const obj_mesh *m)
{
    winding_tree *t = calloc(1, sizeof *t);
    build_item *it = malloc(sizeof *it * (size_t)(m->nt > 0 ? m->nt : 1));
    if (t) t->nodes = malloc(sizeof *t->nodes * (size_t)(2 * m->nt + 1));
    if (t) t->tri = malloc(sizeof(double) * TRI_STRIDE * (size_t)(m->nt > 0 ? m->nt : 1));
    if (!t || !it || !t->nodes || !t->tri) {
        free(it);
        winding_tree_destroy(t);
        return NULL;
    }
    for (int i = 0; i < m->nt; i++) {
        it[i].t = i;
        for (int k = 0; k < 3; k++)
            it[i].c[k] = ((double)m->v[3 * m->tri[3 * i] + k] + m->v[3 * m->tri[3 * i + 1] + k] +
                          m->v[3 * m->tri[3 * i + 2] + k]) / 3.0;
    }
    t->nt = m->nt;
    if (m->nt > 0) build(t, it, 0, m->nt, m);
    for (int i = 0; i < m->nt; i++) {
        double *p = &t->tri[TRI_STRIDE * i];
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) p[3 * c + k] = m->v[3 * m->tri[3 * it[i].t + c] + k];
        double u[3], v[3];
        for (int k = 0; k < 3; k++) {
            p[9 + k] = (p[k] + p[3 + k] + p[6 + k]) / 3.0;
            u[k] = p[3 + k] - p[k], v[k] = p[6 + k] - p[k];
        }
        p[12] = 0.5 * (u[1] * v[2] - u[2] * v[1]);
        p[13] = 0.5 * (u[2] * v[0] - u[0] * v[2]);
        p[14] = 0.5 * (u[0] * v[1] - u[1] * v[0]);
        p[15] = 0;
        for (int c = 0; c < 3; c++) {
            double d2 = 0;
            for (int k = 0; k < 3; k++) d2 += (p[3 * c + k] - p[9 + k]) * (p[3 * c + k] - p[9 + k]);
            if (d2 > p[15]) p[15] = d2;
        }
    }
    free(it);
    return t;
}

void winding_tree_destroy(winding_tree *t)
{
    if (!t) return;
    free(t->nodes);
    free(t->tri);
    free(t);
}

double winding_eval(const winding_tree *t, const double q[3])
{
    if (t->nn == 0) return 0;
    int stack[128], sp = 0;
    stack[sp++] = 0;
    double w = 0;
    const double beta2 = WINDING_BETA * WINDING_BETA;
    while (sp) {
        const wnode *n = &t->nodes[stack[--sp]];
        double d[3] = { n->centre[0] - q[0], n->centre[1] - q[1], n->centre[2] - q[2] };
        double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (d2 > beta2 * n->r2) { /* far: the whole node as one dipole */
            w += (n->normal[0] * d[0] + n->normal[1] * d[1] + n->normal[2] * d[2]) / (d2 * sqrt(d2));
            continue;
        }
        if (n->left < 0 || sp + 2 > 128) {
            for (int i = n->first; i < n->first + n->count; i++) {
                /* the same far-field test per triangle: only the nearest
                 * few pay for an exact solid angle (its atan2 dominates) */
                const double *p = &t->tri[TRI_STRIDE * i];
                double e[3] = { p[9] - q[0], p[10] - q[1], p[11] - q[2] };
                double e2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
                if (e2 > beta2 * p[15]) w += (p[12] * e[0] + p[13] * e[1] + p[14] * e[2]) / (e2 * sqrt(e2));
                else w += solid_angle(p, p + 3, p + 6, q);
            }
            continue;
        }
        stack[sp++] = n->left;
        stack[sp++] = n->right;
    }
    return w * INV_4PI;
}

/* winding_eval for up to 9 points at once (a box of voxels by the surface):
 * one walk of the tree serves them all. A node is a dipole for every point
 * when it is far from all of them, otherwise it is opened for all. */
#define MANY_MAX 9
static void winding_eval_many(const winding_tree *t, const double (*q)[3], int n, double *w)
{
    for (int i = 0; i < n; i++) w[i] = 0;
    if (t->nn == 0) return;
    int stack[128], sp = 0;
    stack[sp++] = 0;
    const double beta2 = WINDING_BETA * WINDING_BETA;
    while (sp) {
        const wnode *nd = &t->nodes[stack[--sp]];
        double d[MANY_MAX][3], d2[MANY_MAX];
        bool far = true;
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) d[i][k] = nd->centre[k] - q[i][k];
            d2[i] = d[i][0] * d[i][0] + d[i][1] * d[i][1] + d[i][2] * d[i][2];
            far &= d2[i] > beta2 * nd->r2;
        }
        if (far) {
            for (int i = 0; i < n; i++)
                w[i] += (nd->normal[0] * d[i][0] + nd->normal[1] * d[i][1] + nd->normal[2] * d[i][2]) /
                        (d2[i] * sqrt(d2[i]));
            continue;
        }
        if (nd->left < 0 || sp + 2 > 128) {
            for (int j = nd->first; j < nd->first + nd->count; j++) {
                const double *p = &t->tri[TRI_STRIDE * j];
                for (int i = 0; i < n; i++) {
                    double e[3] = { p[9] - q[i][0], p[10] - q[i][1], p[11] - q[i][2] };
                    double e2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
                    if (e2 > beta2 * p[15]) w[i] += (p[12] * e[0] + p[13] * e[1] + p[14] * e[2]) / (e2 * sqrt(e2));
                    else w[i] += solid_angle(p, p + 3, p + 6, q[i]);
                }
            }
            continue;
        }
        stack[sp++] = nd->left;
        stack[sp++] = nd->right;
    }
    for (int i = 0; i < n; i++) w[i] *= INV_4PI;
}

/* Does any triangle's box come within `margin` of box [lo, hi]? */
static bool near_surface(const winding_tree *t, const double lo[3], const double hi[3], double margin)
{
    if (t->nn == 0) return false;
    int stack[128], sp = 0;
    stack[sp++] = 0;
    while (sp) {
        const wnode *n = &t->nodes[stack[--sp]];
        bool overlap = true;
        for (int k = 0; k < 3; k++) overlap &= n->lo[k] <= hi[k] + margin && n->hi[k] >= lo[k] - margin;
        if (!overlap) continue;
        if (n->left < 0) {
            for (int i = n->first; i < n->first + n->count; i++) {
                const double *p = &t->tri[TRI_STRIDE * i];
                bool o = true;
                for (int k = 0; k < 3 && o; k++) {
                    double a = fmin(p[k], fmin(p[3 + k], p[6 + k])), b = fmax(p[k], fmax(p[3 + k], p[6 + k]));
                    o = a <= hi[k] + margin && b >= lo[k] - margin;
                }
                if (o) return true;
            }
            continue;
        }
        if (sp + 2 > 128) return true; /* deeper than any balanced tree: say yes, the caller refines */
        stack[sp++] = n->left;
        stack[sp++] = n->right;
    }
    return false;
}

typedef struct wjob {
    const winding_tree *t;
    const voxelize_grid *g;
    uint8_t *out;
    int block, bx, by, bz;
} wjob;

static void centre_of(const voxelize_grid *g, int x, int y, int z, double q[3])
{
    q[0] = g->origin[0] + (x + 0.5) * g->cell;
    q[1] = g->origin[1] + (y + 0.5) * g->cell;
    q[2] = g->origin[2] + (z + 0.5) * g->cell;
}

static void put(const wjob *j, int x, int y, int z, uint8_t v)
{
    const voxelize_grid *g = j->g;
    j->out[(size_t)x + (size_t)g->nx * ((size_t)z + (size_t)g->nz * (size_t)y)] = v;
}

/* Box [x0, x1) x [y0, y1) x [z0, z1) of voxels. */
static void solve_box(const wjob *j, const int lo[3], const int hi[3])
{
    const voxelize_grid *g = j->g;
    int n = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    if (n <= 8) {
        double q[MANY_MAX][3], w[MANY_MAX];
        int c = 0;
        for (int y = lo[1]; y < hi[1]; y++)
            for (int z = lo[2]; z < hi[2]; z++)
                for (int x = lo[0]; x < hi[0]; x++) centre_of(g, x, y, z, q[c++]);
        winding_eval_many(j->t, (const double(*)[3])q, n, w);
        c = 0;
        for (int y = lo[1]; y < hi[1]; y++)
            for (int z = lo[2]; z < hi[2]; z++)
                for (int x = lo[0]; x < hi[0]; x++) put(j, x, y, z, w[c++] > 0.5);
        return;
    }
    double blo[3], bhi[3];
    centre_of(g, lo[0], lo[1], lo[2], blo);
    centre_of(g, hi[0] - 1, hi[1] - 1, hi[2] - 1, bhi);
    if (!near_surface(j->t, blo, bhi, 1e-9 * g->cell)) {
        /* no surface in the box: the number is harmonic there, and its
         * corners and centre agreeing decides the whole box */
        double q[9][3], w[9];
        for (int c = 0; c < 9; c++)
            for (int k = 0; k < 3; k++) q[c][k] = c == 8 ? 0.5 * (blo[k] + bhi[k]) : ((c >> k) & 1 ? bhi[k] : blo[k]);
        winding_eval_many(j->t, (const double(*)[3])q, 9, w);
        int votes = 0;
        for (int c = 0; c < 9; c++) votes += w[c] > 0.5;
        if (votes == 0 || votes == 9) {
            for (int y = lo[1]; y < hi[1]; y++)
                for (int z = lo[2]; z < hi[2]; z++)
                    for (int x = lo[0]; x < hi[0]; x++) put(j, x, y, z, votes == 9);
            return;
        }
    }
    /* split the longest side */
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (hi[k] - lo[k] > hi[axis] - lo[axis]) axis = k;
    int mid = (lo[axis] + hi[axis]) / 2;
    int h1[3] = { hi[0], hi[1], hi[2] }, l2[3] = { lo[0], lo[1], lo[2] };
    h1[axis] = mid, l2[axis] = mid;
    solve_box(j, lo, h1);
    solve_box(j, l2, hi);
}

static void solve_block(void *arg, int b)
{
    wjob *j = arg;
    const voxelize_grid *g = j->g;
    int bx = b % j->bx, bz = b / j->bx % j->bz, by = b / (j->bx * j->bz);
    int lo[3] = { bx * j->block, by * j->block, bz * j->block };
    int hi[3] = { lo[0] + j->block, lo[1] + j->block, lo[2] + j->block };
    if (hi[0] > g->nx) hi[0] = g->nx;
    if (hi[1] > g->ny) hi[1] = g->ny;
    if (hi[2] > g->nz) hi[2] = g->nz;
    solve_box(j, lo, hi);
}

long winding_voxelize(const obj_mesh *m, const voxelize_grid *g, job_pool *pool, uint8_t *out, char *err,
                      size_t errlen)
{
    for (int i = 0; i < 3 * m->nv; i++)
        if (!isfinite(m->v[i])) {
            snprintf(err, errlen, "vertex %d is not finite", i / 3);
            return -1;
        }
    winding_tree *t = winding_tree_build(m);
    if (!t) {
        snprintf(err, errlen, "out of memory for the winding-number tree");
        return -1;
    }
    wjob j = { 0 };
    j.t = t, j.g = g, j.out = out;
    j.block = 16;
    j.bx = (g->nx + j.block - 1) / j.block, j.by = (g->ny + j.block - 1) / j.block,
    j.bz = (g->nz + j.block - 1) / j.block;
    int blocks = j.bx * j.by * j.bz;
    if (pool) job_parallel_for(pool, blocks, solve_block, &j);
    else
        for (int b = 0; b < blocks; b++) solve_block(&j, b);
    winding_tree_destroy(t);
    long inside = 0;
    size_t n = (size_t)g->nx * g->ny * g->nz;
    for (size_t i = 0; i < n; i++) inside += out[i];
    return inside;
}
