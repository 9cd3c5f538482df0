#include "gen/voxelize.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "gen/winding.h"

__extension__ typedef __int128 i128;

#define FIX (1 << VOXELIZE_FIX_BITS)
/* Quantized coordinates stay within this, so every predicate below fits
 * its integer type (see the magnitudes noted at each). */
#define FIX_LIMIT ((int64_t)1 << 22)

/* ---- directions: Thomson relaxation (seed 002) ---- */

/* The Thomson problem's energy: the sum over pairs of 1 / distance. */
static double coulomb_energy(const float (*d)[3], int n)
{
    double e = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) s += ((double)d[i][k] - d[j][k]) * ((double)d[i][k] - d[j][k]);
            e += s > 1e-24 ? 1.0 / sqrt(s) : 1e12;
        }
    return e;
}

float voxelize_distribute(float (*dirs)[3], int n, float step)
{
    if (n <= 1) return 0.f;
    double f[VOXELIZE_MAX_DIRECTIONS][3], fmax = 0;
    for (int i = 1; i < n; i++) {
        double F[3] = { 0, 0, 0 };
        for (int j = 0; j < n; j++) {
            if (i == j) continue;
            double diff[3], s = 0;
            for (int k = 0; k < 3; k++) diff[k] = (double)dirs[i][k] - dirs[j][k], s += diff[k] * diff[k];
            if (s < 1e-24) continue; /* coincident: no direction to push along */
            double inv = 1.0 / (s * sqrt(s));
            for (int k = 0; k < 3; k++) F[k] += diff[k] * inv;
        }
        /* only the part along the sphere moves a unit vector */
        double radial = F[0] * dirs[i][0] + F[1] * dirs[i][1] + F[2] * dirs[i][2];
        for (int k = 0; k < 3; k++) f[i][k] = F[k] - radial * dirs[i][k];
        double m = sqrt(f[i][0] * f[i][0] + f[i][1] * f[i][1] + f[i][2] * f[i][2]);
        if (m > fmax) fmax = m;
    }
    if (!(fmax > 0)) return 0.f;
    float max_delta = 0.f;
    for (int i = 1; i < n; i++) {
        float old[3] = { dirs[i][0], dirs[i][1], dirs[i][2] };
        double v[3], len = 0;
        for (int k = 0; k < 3; k++) v[k] = dirs[i][k] + f[i][k] * (double)step / fmax, len += v[k] * v[k];
        len = sqrt(len);
        for (int k = 0; k < 3; k++) dirs[i][k] = (float)(v[k] / len);
        float d = sqrtf((old[0] - dirs[i][0]) * (old[0] - dirs[i][0]) + (old[1] - dirs[i][1]) * (old[1] - dirs[i][1]) +
                        (old[2] - dirs[i][2]) * (old[2] - dirs[i][2]));
        if (d > max_delta) max_delta = d;
    }
    return max_delta;
}

static voxelize_relax relax_or_default(const voxelize_relax *r)
{
    voxelize_relax d = { 0.05f, 1000, 0.001f };
    if (!r) return d;
    if (r->step > 0) d.step = r->step;
    if (r->iterations > 0) d.iterations = r->iterations;
    if (r->converge > 0) d.converge = r->converge;
    return d;
}

int voxelize_directions(float (*dirs)[3], int n, const voxelize_relax *relax, uint64_t seed)
{
    voxelize_relax r = relax_or_default(relax);
    rng g = rng_make(seed);
    for (int i = 0; i < n; i++) {
        if (i == 0) { /* the seed keeps one direction fixed: up */
            dirs[0][0] = 0.f, dirs[0][1] = 1.f, dirs[0][2] = 0.f;
            continue;
        }
        float len;
        do { /* uniform on the sphere: rejection from the cube */
            for (int k = 0; k < 3; k++) dirs[i][k] = (float)(rng_double(&g) * 2.0 - 1.0);
            len = sqrtf(dirs[i][0] * dirs[i][0] + dirs[i][1] * dirs[i][1] + dirs[i][2] * dirs[i][2]);
        } while (len > 1.f || len < 1e-3f);
        for (int k = 0; k < 3; k++) dirs[i][k] /= len;
    }
    /* Descent on the energy with a step that adapts: a step that lowers
     * the energy is kept and the next one may be 1.2 times longer (up to 4
     * times the first), one that raises it is undone and halved. Moves
     * scale with the step, not with n, so every K separates; it stops when
     * the step (the largest move) has shrunk below r.converge. */
    float keep[VOXELIZE_MAX_DIRECTIONS][3];
    double e = coulomb_energy((const float (*)[3])dirs, n);
    float step = r.step;
    int it = 0;
    while (it < r.iterations && step >= r.converge && n > 1) {
        memcpy(keep, dirs, sizeof(float[3]) * (size_t)n);
        voxelize_distribute(dirs, n, step);
        it++;
        double e2 = coulomb_energy((const float (*)[3])dirs, n);
        if (e2 < e) {
            e = e2;
            step = fminf(step * 1.2f, 4.f * r.step);
        } else {
            memcpy(dirs, keep, sizeof(float[3]) * (size_t)n);
            step *= 0.5f;
        }
    }
    return it;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a, b = b < 0 ? -b : b;
    while (b) {
        int64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

void voxelize_lattice(const float d[3], int out[3])
{
    float m = fmaxf(fabsf(d[0]), fmaxf(fabsf(d[1]), fabsf(d[2])));
    if (!(m > 0.f)) {
        out[0] = 0, out[1] = 1, out[2] = 0;
        return;
    }
    /* among the scalings that put the largest component at 1..LATTICE,
     * the integer vector closest in angle */
    double best = -2;
    for (int s = 1; s <= VOXELIZE_LATTICE; s++) {
        int v[3];
        double len = 0, dot = 0;
        for (int k = 0; k < 3; k++) {
            v[k] = (int)lrintf(d[k] / m * (float)s);
            len += (double)v[k] * v[k];
            dot += (double)v[k] * d[k];
        }
        if (len == 0) continue;
        double c = dot / sqrt(len);
        if (c > best + 1e-9) {
            best = c;
            int64_t g = gcd64(gcd64(v[0], v[1]), v[2]);
            for (int k = 0; k < 3; k++) out[k] = (int)(v[k] / g);
        }
    }
}

static bool lattice_taken(const int (*out)[3], int n, const int v[3])
{
    for (int i = 0; i < n; i++)
        if (out[i][0] == v[0] && out[i][1] == v[1] && out[i][2] == v[2]) return true;
    return false;
}

int voxelize_ray_directions(const voxelize_desc *d, int (*out)[3])
{
    float dirs[VOXELIZE_MAX_DIRECTIONS][3];
    int n = d->directions < 1 ? 1 : d->directions > VOXELIZE_MAX_DIRECTIONS ? VOXELIZE_MAX_DIRECTIONS : d->directions;
    voxelize_directions(dirs, n, &d->relax, d->seed);
    for (int i = 0; i < n; i++) {
        voxelize_lattice(dirs[i], out[i]);
        if (!lattice_taken((const int (*)[3])out, i, out[i])) continue;
        /* a direction already voting would count twice: take the nearest
         * primitive lattice direction no earlier one has */
        const int L = VOXELIZE_LATTICE;
        double best = -2;
        for (int x = -L; x <= L; x++)
            for (int y = -L; y <= L; y++)
                for (int z = -L; z <= L; z++) {
                    int v[3] = { x, y, z };
                    if (gcd64(gcd64(x, y), z) != 1 || lattice_taken((const int (*)[3])out, i, v)) continue;
                    double c = (x * (double)dirs[i][0] + y * (double)dirs[i][1] + z * (double)dirs[i][2]) /
                               sqrt((double)(x * x + y * y + z * z));
                    if (c > best + 1e-12) best = c, out[i][0] = x, out[i][1] = y, out[i][2] = z;
                }
    }
    return n;
}

/* ---- exact predicates ---- */

static int dominant_axis(const int d[3])
{
    int m = 0;
    for (int k = 1; k < 3; k++)
        if (abs(d[k]) > abs(d[m])) m = k;
    return m;
}

static int sgn64(int64_t v) { return (v > 0) - (v < 0); }
static int sgn128(i128 v) { return (v > 0) - (v < 0); }

/* det[u, v, w] for small vectors (|u|, |v| < 2^24, |w| <= 4): < 2^51 */
static int64_t det3(const int64_t u[3], const int64_t v[3], const int64_t w[3])
{
    return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
}

/* Points exactly on an edge's line or a face's plane are decided as if the
 * voxel centre were moved by eps * x + eps^2 * y + eps^3 * z (symbolic
 * perturbation): one move for every direction, so every ray from one
 * centre agrees about a closed surface, and it lies on exactly one side of
 * every shared edge, so that surface is crossed exactly once there. */

/* The sign of edge a->b seen from the line through p along d; never zero
 * unless b - a is parallel to d (the triangle is then edge-on, rejected). */
static int edge_side(const int64_t a[3], const int64_t b[3], const int64_t p[3], const int d[3])
{
    int64_t ap[3] = { a[0] - p[0], a[1] - p[1], a[2] - p[2] }, bp[3] = { b[0] - p[0], b[1] - p[1], b[2] - p[2] };
    int64_t dd[3] = { d[0], d[1], d[2] };
    int64_t s = det3(ap, bp, dd);
    if (s) return sgn64(s);
    int64_t ba[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
    for (int axis = 0; axis < 3; axis++) {
        int64_t e[3] = { 0, 0, 0 };
        e[axis] = 1;
        int64_t t = det3(e, dd, ba);
        if (t) return sgn64(t);
    }
    return 0;
}

/* The sign n.(a - p) takes when p sits exactly on the plane, perturbed. */
static int plane_tie(const int64_t n[3])
{
    for (int k = 0; k < 3; k++)
        if (n[k]) return -sgn64(n[k]);
    return 0;
}

static void tri_normal(const voxelize_tri *t, int64_t n[3])
{
    int64_t u[3], v[3];
    for (int k = 0; k < 3; k++) u[k] = t->p[1][k] - t->p[0][k], v[k] = t->p[2][k] - t->p[0][k];
    n[0] = u[1] * v[2] - u[2] * v[1]; /* |u|, |v| < 2^23: < 2^47 */
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
}

bool voxelize_crosses(const voxelize_tri *t, const int64_t c[3], const int d[3])
{
    int64_t n[3];
    tri_normal(t, n);
    i128 nd = (i128)n[0] * d[0] + (i128)n[1] * d[1] + (i128)n[2] * d[2];
    if (nd == 0) return false; /* the ray runs in the triangle's plane: Möller–Trumbore's det = 0 */
    int s0 = edge_side(t->p[0], t->p[1], c, d), s1 = edge_side(t->p[1], t->p[2], c, d),
        s2 = edge_side(t->p[2], t->p[0], c, d);
    if (s0 != s1 || s1 != s2) return false;
    /* ahead of c: n.(a - c) has the sign of n.d (t > 0) */
    i128 h = (i128)n[0] * (t->p[0][0] - c[0]) + (i128)n[1] * (t->p[0][1] - c[1]) + (i128)n[2] * (t->p[0][2] - c[2]);
    return (h != 0 ? sgn128(h) : plane_tie(n)) == sgn128(nd);
}

void voxelize_centre(int x, int y, int z, int64_t out[3])
{
    out[0] = ((int64_t)x * 2 + 1) * (FIX / 2);
    out[1] = ((int64_t)y * 2 + 1) * (FIX / 2);
    out[2] = ((int64_t)z * 2 + 1) * (FIX / 2);
}

bool voxelize_quantize(const obj_mesh *m, const voxelize_grid *g, voxelize_tri **out, int *count, char *err,
                       size_t errlen)
{
    *out = NULL;
    *count = 0;
    voxelize_tri *t = malloc(sizeof *t * (size_t)(m->nt > 0 ? m->nt : 1));
    if (!t) {
        snprintf(err, errlen, "out of memory for %d triangles", m->nt);
        return false;
    }
    int n = 0;
    for (int i = 0; i < m->nt; i++) {
        voxelize_tri *q = &t[n];
        for (int c = 0; c < 3; c++) {
            int vi = m->tri[3 * i + c];
            if (vi < 0 || vi >= m->nv) {
                snprintf(err, errlen, "triangle %d refers to vertex %d of %d", i, vi, m->nv);
                free(t);
                return false;
            }
            for (int k = 0; k < 3; k++) {
                double f = ((double)m->v[3 * vi + k] - g->origin[k]) / g->cell * FIX;
                if (!isfinite(f) || fabs(f) > (double)FIX_LIMIT) {
                    snprintf(err, errlen, "vertex %d lies too far outside the grid (or is not finite)", vi);
                    free(t);
                    return false;
                }
                q->p[c][k] = (int64_t)llround(f);
            }
        }
        int64_t nn[3];
        tri_normal(q, nn);
        if (nn[0] || nn[1] || nn[2]) n++; /* zero area after rounding: no ray crosses it */
    }
    *out = t;
    *count = n;
    return true;
}

/* ---- the fast parity: bins of triangles seen along each direction ---- */

/* Per direction, what the crossing test needs of each triangle, so a line
 * costs three dot products: side(a, b) = K - p.E exactly, E = d x (a - b),
 * K = (a x b).d; ties take the perturbation's sign tb. */
typedef struct dir_tri {
    int64_t E[3][3];
    int64_t K[3];
    int8_t tb[3];
    bool tie_ahead; /* a centre on the plane counts the hit */
    int64_t n[3];
    i128 na, nD; /* n.a and n.(d * FIX): the hit's place along the line */
} dir_tri;

/* Looking along d, a point and every point d-multiples away from it land
 * on the same spot of the plane through the origin across d's dominant axis. */
static void project(const int d[3], const int64_t p[3], double out[2])
{
    int m = dominant_axis(d), i = (m + 1) % 3, j = (m + 2) % 3;
    double r = ((double)p[m] / FIX) / d[m];
    out[0] = (double)p[i] / FIX - r * d[i];
    out[1] = (double)p[j] / FIX - r * d[j];
}

static bool edge_on(const voxelize_tri *t, const int d[3])
{
    int64_t n[3];
    tri_normal(t, n);
    return n[0] * (i128)d[0] + n[1] * (i128)d[1] + n[2] * (i128)d[2] == 0;
}

void voxelize_plan_free(voxelize_plan *p)
{
    free(p->lines);
    free(p->cell_start);
    free(p->cell_tris);
    memset(p, 0, sizeof *p);
}

bool voxelize_plan_build(const voxelize_tri *tris, int nt, const voxelize_grid *g, const int d[3], voxelize_plan *p)
{
    memset(p, 0, sizeof *p);
    memcpy(p->d, d, sizeof p->d);
    double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
    for (int i = 0; i < nt; i++) {
        if (edge_on(&tris[i], d)) continue;
        for (int c = 0; c < 3; c++) {
            double pr[2];
            project(d, tris[i].p[c], pr);
            for (int k = 0; k < 2; k++) lo[k] = fmin(lo[k], pr[k]), hi[k] = fmax(hi[k], pr[k]);
        }
    }
    if (!(lo[0] <= hi[0])) return true; /* every triangle edge-on: no line crosses anything */
    /* square bins about a voxel wide, wider when the mesh is far larger than the grid */
    double cs = 1.0, w = hi[0] - lo[0], h = hi[1] - lo[1];
    while ((w / cs + 2) * (h / cs + 2) > 4.0 * 1024 * 1024) cs *= 2;
    double blo[2] = { lo[0] - 0.5 * cs, lo[1] - 0.5 * cs };
    int bw = (int)(w / cs) + 2, bh = (int)(h / cs) + 2;
    p->cells = bw * bh;
    p->cell_start = calloc((size_t)p->cells + 1, sizeof *p->cell_start);
    int *box = malloc(sizeof *box * 4 * (size_t)(nt > 0 ? nt : 1));
    long total = 0;
    for (int i = 0; p->cell_start && box && i < nt; i++) {
        int *b = &box[4 * i];
        b[0] = 1, b[1] = 0, b[2] = 1, b[3] = 0;
        if (edge_on(&tris[i], d)) continue;
        double tl[2] = { INFINITY, INFINITY }, th[2] = { -INFINITY, -INFINITY };
        for (int c = 0; c < 3; c++) {
            double pr[2];
            project(d, tris[i].p[c], pr);
            for (int k = 0; k < 2; k++) tl[k] = fmin(tl[k], pr[k]), th[k] = fmax(th[k], pr[k]);
        }
        /* a margin far above rounding: the exact test decides, bins only must not miss */
        const double eps = 1e-6;
        b[0] = (int)floor((tl[0] - eps - blo[0]) / cs), b[1] = (int)floor((th[0] + eps - blo[0]) / cs);
        b[2] = (int)floor((tl[1] - eps - blo[1]) / cs), b[3] = (int)floor((th[1] + eps - blo[1]) / cs);
        if (b[0] < 0) b[0] = 0;
        if (b[2] < 0) b[2] = 0;
        if (b[1] >= bw) b[1] = bw - 1;
        if (b[3] >= bh) b[3] = bh - 1;
        for (int y = b[2]; y <= b[3]; y++)
            for (int x = b[0]; x <= b[1]; x++) p->cell_start[x + y * bw + 1]++;
        total += (long)(b[1] - b[0] + 1) * (b[3] - b[2] + 1);
    }
    size_t maxl = (size_t)g->nx * g->ny * g->nz;
    if (p->cell_start && box && total <= INT32_MAX) {
        p->cell_tris = malloc(sizeof *p->cell_tris * (size_t)(total > 0 ? total : 1));
        p->lines = malloc(sizeof *p->lines * 4 * maxl);
    }
    int *fill = p->cell_tris && p->lines ? malloc(sizeof *fill * (size_t)p->cells) : NULL;
    if (!fill) {
        free(box);
        voxelize_plan_free(p);
        return false;
    }
    for (int c = 0; c < p->cells; c++) p->cell_start[c + 1] += p->cell_start[c];
    memcpy(fill, p->cell_start, sizeof *fill * (size_t)p->cells);
    for (int i = 0; i < nt; i++) {
        const int *b = &box[4 * i];
        for (int y = b[2]; y <= b[3]; y++)
            for (int x = b[0]; x <= b[1]; x++) p->cell_tris[fill[x + y * bw]++] = i;
    }
    free(fill);
    free(box);
    /* line starts: voxels whose predecessor along d is outside the grid */
    int nl = 0;
    for (int y = 0; y < g->ny; y++)
        for (int z = 0; z < g->nz; z++) {
            bool all = y - d[1] < 0 || y - d[1] >= g->ny || z - d[2] < 0 || z - d[2] >= g->nz;
            int x0 = 0, x1 = g->nx;
            if (!all) {
                if (d[0] == 0) continue;
                if (d[0] > 0) x1 = d[0] < g->nx ? d[0] : g->nx;
                else x0 = g->nx + d[0] > 0 ? g->nx + d[0] : 0;
            }
            for (int x = x0; x < x1; x++) {
                int64_t c[3];
                double pr[2];
                voxelize_centre(x, y, z, c);
                project(d, c, pr);
                int cx = (int)floor((pr[0] - blo[0]) / cs), cy = (int)floor((pr[1] - blo[1]) / cs);
                int *l = &p->lines[4 * nl++];
                l[0] = x, l[1] = y, l[2] = z;
                l[3] = cx < 0 || cy < 0 || cx >= bw || cy >= bh ? -1 : cx + cy * bw;
            }
        }
    p->nlines = nl;
    return true;
}

typedef struct parity_job {
    const voxelize_grid *g;
    const voxelize_plan *plan;
    const dir_tri *dt;
    int chunks;
    uint8_t *votes;
} parity_job;

static void parity_lines(void *arg, int chunk)
{
    const parity_job *j = arg;
    const voxelize_grid *g = j->g;
    const voxelize_plan *pl = j->plan;
    const int *d = pl->d;
    int lo = (int)((long)pl->nlines * chunk / j->chunks), hi = (int)((long)pl->nlines * (chunk + 1) / j->chunks);
    uint8_t flip[VOXELIZE_MAX_RES + 2];
    size_t idx[VOXELIZE_MAX_RES + 1];
    for (int l = lo; l < hi; l++) {
        const int *s = &pl->lines[4 * l];
        int cell = s[3];
        if (cell < 0 || pl->cell_start[cell] == pl->cell_start[cell + 1]) continue; /* meets no triangle */
        int64_t p0[3];
        voxelize_centre(s[0], s[1], s[2], p0);
        int len = 0;
        for (int x = s[0], y = s[1], z = s[2]; x >= 0 && y >= 0 && z >= 0 && x < g->nx && y < g->ny && z < g->nz;
             x += d[0], y += d[1], z += d[2])
            idx[len++] = (size_t)x + (size_t)g->nx * ((size_t)z + (size_t)g->nz * (size_t)y);
        memset(flip, 0, (size_t)len + 1);
        bool any = false;
        for (int c = pl->cell_start[cell]; c < pl->cell_start[cell + 1]; c++) {
            const dir_tri *t = &j->dt[pl->cell_tris[c]];
            int side[3];
            for (int e = 0; e < 3; e++) {
                int64_t v = t->K[e] - (p0[0] * t->E[e][0] + p0[1] * t->E[e][1] + p0[2] * t->E[e][2]);
                side[e] = v ? sgn64(v) : t->tb[e];
            }
            if (side[0] != side[1] || side[1] != side[2]) continue;
            /* voxel k sees the hit ahead iff s * (n.a - n.p0 - k n.D) > 0, s = sign n.D */
            i128 num = t->na - ((i128)t->n[0] * p0[0] + (i128)t->n[1] * p0[1] + (i128)t->n[2] * p0[2]);
            i128 den = t->nD;
            if (den < 0) num = -num, den = -den;
            i128 k; /* voxels 0..k-1 lie behind the hit */
            if (t->tie_ahead) {
                if (num < 0) continue;
                k = num / den + 1; /* k den <= num */
            } else {
                if (num <= 0) continue;
                k = (num - 1) / den + 1; /* k den < num */
            }
            int kk = k > len ? len : (int)k;
            flip[kk] ^= 1;
            any = true;
        }
        if (!any) continue;
        uint8_t par = 0;
        for (int k = len - 1; k >= 0; k--) {
            par ^= flip[k + 1];
            j->votes[idx[k]] += par;
        }
    }
}

static void dir_tris(const voxelize_tri *tris, int nt, const int d[3], dir_tri *dt)
{
    int64_t dd[3] = { d[0], d[1], d[2] };
    for (int i = 0; i < nt; i++) {
        const voxelize_tri *t = &tris[i];
        dir_tri *o = &dt[i];
        tri_normal(t, o->n);
        o->nD = ((i128)o->n[0] * dd[0] + (i128)o->n[1] * dd[1] + (i128)o->n[2] * dd[2]) * FIX;
        o->tie_ahead = plane_tie(o->n) == sgn128(o->nD);
        o->na = (i128)o->n[0] * t->p[0][0] + (i128)o->n[1] * t->p[0][1] + (i128)o->n[2] * t->p[0][2];
        for (int e = 0; e < 3; e++) {
            const int64_t *a = t->p[e], *b = t->p[(e + 1) % 3];
            int64_t amb[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
            o->E[e][0] = dd[1] * amb[2] - dd[2] * amb[1];
            o->E[e][1] = dd[2] * amb[0] - dd[0] * amb[2];
            o->E[e][2] = dd[0] * amb[1] - dd[1] * amb[0];
            int64_t axb[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
            o->K[e] = axb[0] * dd[0] + axb[1] * dd[1] + axb[2] * dd[2];
            int64_t ba[3] = { -amb[0], -amb[1], -amb[2] };
            o->tb[e] = 0; /* edge_side's perturbation, which does not depend on p */
            for (int axis = 0; axis < 3 && !o->tb[e]; axis++) {
                int64_t ax[3] = { 0, 0, 0 };
                ax[axis] = 1;
                o->tb[e] = (int8_t)sgn64(det3(ax, dd, ba));
            }
        }
    }
}

long voxelize_majority(uint8_t *votes, size_t n, int directions)
{
    long inside = 0;
    for (size_t i = 0; i < n; i++) {
        votes[i] = 2 * votes[i] > directions; /* a tie is outside */
        inside += votes[i];
    }
    return inside;
}

static long parity_voxelize(const obj_mesh *m, const voxelize_grid *g, const voxelize_desc *d, uint8_t *out,
                            char *err, size_t errlen)
{
    voxelize_tri *tris;
    int nt;
    if (!voxelize_quantize(m, g, &tris, &nt, err, errlen)) return -1;
    int rays[VOXELIZE_MAX_DIRECTIONS][3];
    int nd = voxelize_ray_directions(d, rays);
    size_t n = (size_t)g->nx * g->ny * g->nz;
    dir_tri *dt = malloc(sizeof *dt * (size_t)(nt > 0 ? nt : 1));
    bool ok = dt != NULL;
    memset(out, 0, n); /* the votes, then the verdict in place */
    for (int k = 0; k < nd && ok; k++) {
        const int *ld = rays[k];
        voxelize_plan plan;
        ok = voxelize_plan_build(tris, nt, g, ld, &plan);
        if (!ok || plan.nlines == 0) {
            voxelize_plan_free(&plan);
            continue;
        }
        dir_tris(tris, nt, ld, dt);
        parity_job j = { g, &plan, dt, d->pool ? 64 : 1, out };
        if (d->pool) job_parallel_for(d->pool, j.chunks, parity_lines, &j);
        else parity_lines(&j, 0);
        voxelize_plan_free(&plan);
    }
    free(dt);
    free(tris);
    if (!ok) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return voxelize_majority(out, n, nd);
}

bool voxelize_check(const obj_mesh *m, const voxelize_grid *g, const voxelize_desc *d, char *err, size_t errlen)
{
    if (g->nx < 1 || g->ny < 1 || g->nz < 1 || g->nx > VOXELIZE_MAX_RES || g->ny > VOXELIZE_MAX_RES ||
        g->nz > VOXELIZE_MAX_RES) {
        snprintf(err, errlen, "grid %dx%dx%d refused: each side must be 1 to %d (the limit)", g->nx, g->ny, g->nz,
                 VOXELIZE_MAX_RES);
        return false;
    }
    if (!(g->cell > 0) || !isfinite(g->cell) || !isfinite(g->origin[0]) || !isfinite(g->origin[1]) ||
        !isfinite(g->origin[2])) {
        snprintf(err, errlen, "grid cell size or origin is not a positive finite number");
        return false;
    }
    if (m->nt < 1) {
        snprintf(err, errlen, "the mesh has no faces");
        return false;
    }
    if (d->method == VOXELIZE_PARITY && (d->directions < 1 || d->directions > VOXELIZE_MAX_DIRECTIONS)) {
        snprintf(err, errlen, "%d directions refused: 1 to %d", d->directions, VOXELIZE_MAX_DIRECTIONS);
        return false;
    }
    return true;
}

long voxelize_mesh(const obj_mesh *m, const voxelize_grid *g, const voxelize_desc *d, uint8_t *out, char *err,
                   size_t errlen)
{
    if (!voxelize_check(m, g, d, err, errlen)) return -1;
    if (d->method == VOXELIZE_WINDING) return winding_voxelize(m, g, d->pool, out, err, errlen);
    return parity_voxelize(m, g, d, out, err, errlen);
}

/* ---- grids over bounds ---- */

static bool fit_bounds(const float lo[3], const float hi[3], int res, voxelize_grid *g, char *err, size_t errlen)
{
    if (res < 1 || res > VOXELIZE_MAX_RES) {
        snprintf(err, errlen, "resolution %d refused: 1 to %d (the limit)", res, VOXELIZE_MAX_RES);
        return false;
    }
    double ext = 0;
    for (int k = 0; k < 3; k++) {
        if (!isfinite(lo[k]) || !isfinite(hi[k])) {
            snprintf(err, errlen, "the mesh's bounds are not finite");
            return false;
        }
        if (!(hi[k] > lo[k])) {
            snprintf(err, errlen, "degenerate bounding box: flat along %c (%g to %g), no volume to fill", "xyz"[k],
                     (double)lo[k], (double)hi[k]);
            return false;
        }
        ext = fmax(ext, (double)hi[k] - lo[k]);
    }
    g->cell = ext / res;
    int *n[3] = { &g->nx, &g->ny, &g->nz };
    for (int k = 0; k < 3; k++) {
        double e = (double)hi[k] - lo[k];
        int c = (int)ceil(e / g->cell - 1e-9);
        if (c < 1) c = 1;
        if (c > res) c = res;
        *n[k] = c;
        /* centred: the rounding up shares its slack on both sides */
        g->origin[k] = lo[k] + 0.5 * (e - c * g->cell);
    }
    return true;
}

bool voxelize_grid_fit(const obj_mesh *m, int res, voxelize_grid *g, char *err, size_t errlen)
{
    float lo[3], hi[3];
    if (!obj_bounds(m, lo, hi)) {
        snprintf(err, errlen, "the mesh has no faces");
        return false;
    }
    return fit_bounds(lo, hi, res, g, err, errlen);
}

bool voxelize_grid_fit2(const obj_mesh *a, const obj_mesh *b, int res, voxelize_grid *g, char *err, size_t errlen)
{
    float lo[3], hi[3], lo2[3], hi2[3];
    if (!obj_bounds(a, lo, hi) || !obj_bounds(b, lo2, hi2)) {
        snprintf(err, errlen, "a mesh has no faces");
        return false;
    }
    for (int k = 0; k < 3; k++) lo[k] = fminf(lo[k], lo2[k]), hi[k] = fmaxf(hi[k], hi2[k]);
    return fit_bounds(lo, hi, res, g, err, errlen);
}

bool voxelize_overlap(const obj_mesh *a, const obj_mesh *b, int res, const voxelize_desc *d, long *voxels,
                      double *volume, char *err, size_t errlen)
{
    voxelize_grid g;
    if (!voxelize_grid_fit2(a, b, res, &g, err, errlen)) return false;
    size_t n = (size_t)g.nx * g.ny * g.nz;
    uint8_t *va = malloc(n), *vb = malloc(n);
    bool ok = va && vb;
    if (!ok) snprintf(err, errlen, "out of memory for two %dx%dx%d grids", g.nx, g.ny, g.nz);
    ok = ok && voxelize_mesh(a, &g, d, va, err, errlen) >= 0 && voxelize_mesh(b, &g, d, vb, err, errlen) >= 0;
    long both = 0;
    for (size_t i = 0; ok && i < n; i++) both += va[i] & vb[i];
    free(va);
    free(vb);
    if (!ok) return false;
    *voxels = both;
    *volume = (double)both * g.cell * g.cell * g.cell;
    return true;
}
