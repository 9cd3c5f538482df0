#include "gen/meshmake.h"

#include <math.h>
#include <stdlib.h>

#include "core/rng.h"

#define PI 3.14159265358979323846

bool meshmake_cube(obj_mesh *m, const float lo[3], const float hi[3])
{
    int b = m->nv;
    for (int i = 0; i < 8; i++)
        if (obj_add_vertex(m, i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]) < 0) return false;
    /* outward, counter-clockwise seen from outside */
    static const int q[6][4] = { { 0, 4, 6, 2 }, { 1, 3, 7, 5 }, { 0, 1, 5, 4 },
                                 { 2, 6, 7, 3 }, { 0, 2, 3, 1 }, { 4, 5, 7, 6 } };
    for (int f = 0; f < 6; f++)
        if (obj_add_tri(m, b + q[f][0], b + q[f][1], b + q[f][2]) < 0 ||
            obj_add_tri(m, b + q[f][0], b + q[f][2], b + q[f][3]) < 0)
            return false;
    return true;
}

static double signed_volume(const obj_mesh *m, int t0)
{
    double v = 0;
    for (int t = t0; t < m->nt; t++) {
        const float *a = &m->v[3 * m->tri[3 * t]], *b = &m->v[3 * m->tri[3 * t + 1]], *c = &m->v[3 * m->tri[3 * t + 2]];
        v += (a[0] * ((double)b[1] * c[2] - (double)b[2] * c[1]) + a[1] * ((double)b[2] * c[0] - (double)b[0] * c[2]) +
              a[2] * ((double)b[0] * c[1] - (double)b[1] * c[0])) / 6.0;
    }
    return v;
}

/* Faces added since t0 wound so the part's normals point out. */
static void orient_outward(obj_mesh *m, int t0)
{
    if (signed_volume(m, t0) >= 0) return;
    for (int t = t0; t < m->nt; t++) {
        int s = m->tri[3 * t + 1];
        m->tri[3 * t + 1] = m->tri[3 * t + 2];
        m->tri[3 * t + 2] = s;
    }
}

/* A closed surface of revolution about +y through profile (r, y), whose
 * first and last points lie on the axis (r = 0, the poles). Rings listed in
 * `gap` get a second copy, scaled out by 3%, for the band above: a slit. */
static bool revolve(obj_mesh *m, const float *pf, int n, int slices, const bool *gap)
{
    const float(*prof)[2] = (const float(*)[2])pf;
    int t0 = m->nt;
    int *lower = malloc(sizeof(int) * (size_t)n), *upper = malloc(sizeof(int) * (size_t)n);
    bool ok = lower && upper;
    for (int i = 0; ok && i < n; i++) {
        bool pole = prof[i][0] == 0.f;
        lower[i] = m->nv;
        for (int k = 0; ok && k < (pole ? 1 : slices); k++) {
            double a = 2 * PI * k / slices;
            ok = obj_add_vertex(m, (float)(prof[i][0] * cos(a)), prof[i][1], (float)(prof[i][0] * sin(a))) >= 0;
        }
        upper[i] = lower[i];
        if (ok && gap && gap[i] && !pole) {
            upper[i] = m->nv;
            for (int k = 0; ok && k < slices; k++) {
                double a = 2 * PI * k / slices, r = prof[i][0] * 1.03;
                ok = obj_add_vertex(m, (float)(r * cos(a)), prof[i][1], (float)(r * sin(a))) >= 0;
            }
        }
    }
    for (int i = 0; ok && i + 1 < n; i++) {
        bool p0 = prof[i][0] == 0.f, p1 = prof[i + 1][0] == 0.f;
        int a0 = upper[i], b0 = lower[i + 1];
        for (int k = 0; ok && k < slices; k++) {
            int k1 = (k + 1) % slices;
            if (p0 && p1) break;
            if (p0) ok = obj_add_tri(m, a0, b0 + k1, b0 + k) >= 0;
            else if (p1) ok = obj_add_tri(m, a0 + k, a0 + k1, b0) >= 0;
            else
                ok = obj_add_tri(m, a0 + k, a0 + k1, b0 + k1) >= 0 && obj_add_tri(m, a0 + k, b0 + k1, b0 + k) >= 0;
        }
    }
    free(lower);
    free(upper);
    if (ok) orient_outward(m, t0);
    return ok;
}

bool meshmake_sphere(obj_mesh *m, const float c[3], float r, int stacks, int slices)
{
    if (stacks < 2) stacks = 2;
    if (slices < 3) slices = 3;
    float (*prof)[2] = malloc(sizeof *prof * (size_t)(stacks + 1));
    if (!prof) return false;
    for (int i = 0; i <= stacks; i++) {
        double a = PI * i / stacks;
        prof[i][0] = i == 0 || i == stacks ? 0.f : (float)(r * sin(a));
        prof[i][1] = (float)(-r * cos(a));
    }
    int v0 = m->nv;
    bool ok = revolve(m, &prof[0][0], stacks + 1, slices, NULL);
    free(prof);
    for (int i = v0; ok && i < m->nv; i++)
        for (int k = 0; k < 3; k++) m->v[3 * i + k] += c[k];
    return ok;
}

bool meshmake_torus(obj_mesh *m, const float c[3], float major, float minor, int nu, int nv)
{
    if (nu < 3) nu = 3;
    if (nv < 3) nv = 3;
    int b = m->nv, t0 = m->nt;
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nv; j++) {
            double u = 2 * PI * i / nu, v = 2 * PI * j / nv, rr = major + minor * cos(v);
            if (obj_add_vertex(m, c[0] + (float)(rr * cos(u)), c[1] + (float)(minor * sin(v)),
                               c[2] + (float)(rr * sin(u))) < 0)
                return false;
        }
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nv; j++) {
            int a = b + i * nv + j, bb = b + ((i + 1) % nu) * nv + j, cc = b + ((i + 1) % nu) * nv + (j + 1) % nv,
                d = b + i * nv + (j + 1) % nv;
            if (obj_add_tri(m, a, bb, cc) < 0 || obj_add_tri(m, a, cc, d) < 0) return false;
        }
    orient_outward(m, t0);
    return true;
}

double meshmake_sphere_volume(float r) { return 4.0 / 3.0 * PI * (double)r * r * r; }
double meshmake_torus_volume(float major, float minor) { return 2 * PI * PI * (double)major * minor * minor; }

/* The pot's profile: flat bottom, a belly, a shoulder, the lid's dome and
 * its knob folded into one closed outline. Control points, resampled below. */
static const float pot_ctrl[][2] = {
    { 0.00f, 0.00f }, { 0.35f, 0.00f }, { 0.70f, 0.00f }, { 0.85f, 0.06f }, { 0.98f, 0.30f }, { 1.00f, 0.55f },
    { 0.93f, 0.85f }, { 0.78f, 1.08f }, { 0.70f, 1.15f }, { 0.60f, 1.20f }, { 0.40f, 1.30f }, { 0.16f, 1.36f },
    { 0.10f, 1.42f }, { 0.13f, 1.50f }, { 0.08f, 1.58f }, { 0.00f, 1.60f },
};
#define POT_CTRL ((int)(sizeof pot_ctrl / sizeof pot_ctrl[0]))

bool meshmake_teapot(obj_mesh *m, int slices, unsigned damage, uint64_t seed)
{
    if (slices < 16) slices = 16;
    if (slices > 1024) slices = 1024;
    /* rings along the outline: about 2/5 as many as around it */
    int per = slices * 2 / 5 / (POT_CTRL - 1);
    if (per < 1) per = 1;
    int n = (POT_CTRL - 1) * per + 1;
    float (*prof)[2] = malloc(sizeof *prof * (size_t)n);
    bool *gap = calloc((size_t)n, sizeof *gap);
    if (!prof || !gap) {
        free(prof);
        free(gap);
        return false;
    }
    for (int i = 0; i < n; i++) {
        int s = i / per;
        float f = (float)(i % per) / (float)per;
        if (s >= POT_CTRL - 1) s = POT_CTRL - 2, f = 1.f;
        prof[i][0] = pot_ctrl[s][0] + (pot_ctrl[s + 1][0] - pot_ctrl[s][0]) * f;
        prof[i][1] = pot_ctrl[s][1] + (pot_ctrl[s + 1][1] - pot_ctrl[s][1]) * f;
    }
    if (damage & MESHMAKE_GAPS) gap[n / 3] = gap[2 * n / 3] = true;
    int t0 = m->nt;
    bool ok = revolve(m, &prof[0][0], n, slices, gap);
    free(prof);
    free(gap);
    rng r = rng_make(seed);
    if (ok && (damage & MESHMAKE_HOLES)) {
        /* drop the bottom's inner disc (the faces touching the first
         * control point's rings) and a few faces at random */
        int keep = t0;
        float bottom_r = pot_ctrl[2][0] * 0.75f;
        for (int t = t0; t < m->nt; t++) {
            const int *tr = &m->tri[3 * t];
            bool low = true;
            for (int k = 0; k < 3; k++) {
                const float *p = &m->v[3 * tr[k]];
                low &= p[1] == 0.f && p[0] * p[0] + p[2] * p[2] < bottom_r * bottom_r;
            }
            if (low || rng_double(&r) < 0.03) continue;
            m->tri[3 * keep] = tr[0], m->tri[3 * keep + 1] = tr[1], m->tri[3 * keep + 2] = tr[2];
            keep++;
        }
        m->nt = keep;
    }
    for (int p = 0; ok && (damage & MESHMAKE_OVERLAPS) && p < 3; p++) ok = meshmake_teapot_part(m, p, slices / 2);
    if (ok && (damage & MESHMAKE_FLIPS))
        for (int t = t0; t < m->nt; t++)
            if (rng_double(&r) < 0.3) {
                int s = m->tri[3 * t + 1];
                m->tri[3 * t + 1] = m->tri[3 * t + 2];
                m->tri[3 * t + 2] = s;
            }
    return ok;
}

bool meshmake_teapot_part(obj_mesh *m, int part, int slices)
{
    if (slices < 8) slices = 8;
    if (part == 2) { /* a knob ball sunk into the lid */
        const float c[3] = { 0.f, 1.55f, 0.f };
        return meshmake_sphere(m, c, 0.14f, slices / 2, slices);
    }
    if (part == 1) { /* the handle: a ring standing in the xy plane, half inside the body */
        int v0 = m->nv, t0 = m->nt;
        const float c[3] = { 0, 0, 0 };
        if (!meshmake_torus(m, c, 0.38f, 0.08f, slices, slices / 2)) return false;
        for (int i = v0; i < m->nv; i++) { /* torus about y -> about z, then out to the side */
            float *p = &m->v[3 * i], y = p[1], z = p[2];
            p[1] = z + 0.65f, p[2] = y;
            p[0] -= 0.95f;
        }
        orient_outward(m, t0); /* swapping y and z mirrored it */
        return true;
    }
    /* the spout: a tapering tube, its base buried in the belly, tilted out */
    static const float sp[][2] = { { 0.f, 0.f }, { 0.20f, 0.f }, { 0.16f, 0.5f }, { 0.10f, 1.0f }, { 0.f, 1.0f } };
    int v0 = m->nv;
    if (!revolve(m, &sp[0][0], 5, slices, NULL)) return false;
    double a = -0.8; /* radians: leaning away from the handle */
    for (int i = v0; i < m->nv; i++) {
        float *p = &m->v[3 * i];
        double x = p[0], y = p[1];
        p[0] = (float)(x * cos(a) - y * sin(a)) + 0.7f;
        p[1] = (float)(x * sin(a) + y * cos(a)) + 0.35f;
    }
    return true;
}
