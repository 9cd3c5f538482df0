/* surfnets_compare: two surface-net meshes of the same field compared as
 * sets: vertices matched by the cell they belong to (positions and normals
 * within tolerances), triangles by their three cells with the winding kept
 * (rotated so the smallest cell comes first). Header-only test helper. */
#ifndef STRATA_SURFNETS_COMPARE_H
#define STRATA_SURFNETS_COMPARE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/surfnets.h"

typedef struct sn_tri { uint32_t c[3]; } sn_tri;
typedef struct sn_vert { uint32_t cell; int index; } sn_vert;

static inline int sn_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
static inline int sn_cmp_tri(const void *a, const void *b) { return memcmp(a, b, sizeof(sn_tri)); }
static inline int sn_cmp_vert(const void *a, const void *b)
{
    uint32_t x = ((const sn_vert *)a)->cell, y = ((const sn_vert *)b)->cell;
    return (x > y) - (x < y);
}

/* Triangles of m named by cells, canonical rotation, sorted. Caller frees. */
static inline sn_tri *sn_triangles(const surfnets_mesh *m)
{
    sn_tri *t = malloc(sizeof *t * (size_t)(m->triangles ? m->triangles : 1));
    for (int i = 0; i < m->triangles; i++) {
        uint32_t g[3] = { m->cell[m->idx[3 * i]], m->cell[m->idx[3 * i + 1]], m->cell[m->idx[3 * i + 2]] };
        int r = g[0] < g[1] ? (g[0] < g[2] ? 0 : 2) : (g[1] < g[2] ? 1 : 2);
        for (int k = 0; k < 3; k++) t[i].c[k] = g[(r + k) % 3];
    }
    qsort(t, (size_t)m->triangles, sizeof *t, sn_cmp_tri);
    return t;
}

static inline sn_vert *sn_vertices(const surfnets_mesh *m)
{
    sn_vert *v = malloc(sizeof *v * (size_t)(m->vertices ? m->vertices : 1));
    for (int i = 0; i < m->vertices; i++) v[i] = (sn_vert){ m->cell[i], i };
    qsort(v, (size_t)m->vertices, sizeof *v, sn_cmp_vert);
    return v;
}

static inline void surfnets_assert_same_mesh(const surfnets_mesh *a, const surfnets_mesh *b, float pos_tol, float nrm_tol)
{
    assert_int_equal(a->vertices, b->vertices);
    assert_int_equal(a->triangles, b->triangles);
    sn_vert *va = sn_vertices(a), *vb = sn_vertices(b);
    for (int i = 0; i < a->vertices; i++) {
        assert_int_equal(va[i].cell, vb[i].cell);
        if (i) assert_true(va[i].cell != va[i - 1].cell); /* one vertex per cell */
        for (int k = 0; k < 3; k++) {
            assert_true(fabsf(a->pos[3 * va[i].index + k] - b->pos[3 * vb[i].index + k]) <= pos_tol);
            assert_true(fabsf(a->nrm[3 * va[i].index + k] - b->nrm[3 * vb[i].index + k]) <= nrm_tol);
        }
    }
    sn_tri *ta = sn_triangles(a), *tb = sn_triangles(b);
    assert_memory_equal(ta, tb, sizeof *ta * (size_t)a->triangles);
    free(va), free(vb), free(ta), free(tb);
}

#endif
