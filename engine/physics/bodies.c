/* bodies.c: the dynamics of the voxel bodies (bodies.h): the set, the
 * sequential-impulse solver on islands, integration and the step that
 * runs them. What the step asks of the world (contacts with the terrain
 * and between bodies, bodies held where the terrain is not there, bodies
 * coming to rest) is in bodies_contact.c; the cutting tool and ray picks
 * on bodies are in bodies_cut.c. */
#include "physics/bodies_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Depth allowed before the solver pushes out (no jitter at rest), and the
 * fraction of the rest pushed out per substep (Baumgarte). */
#define SLOP 0.01f
#define BETA 0.2f
#define BOUNCE_SPEED 2.f
#define DAMPING 0.02f /* per second, linear and angular: settles a rocking body */

bodies_params bodies_params_default(void)
{
    return (bodies_params){
        .gravity = 20.f, .dt = 1.f / 60.f, .substeps = 4, .iterations = 8,
        .restitution = 0.15f, .sleep_speed = 0.25f, .sleep_time = 0.4f, .max_age = 20.f, .lost_y = -64.f,
    };
}

bool bodies_params_check(const bodies_params *p, char *err, size_t errlen)
{
    const char *why = NULL;
    if (!(isfinite(p->gravity) && fabsf(p->gravity) <= 1000.f)) why = "gravity must be finite, |g| <= 1000";
    else if (!(p->dt > 0 && p->dt <= 0.1f)) why = "the step must be in (0, 0.1] s";
    else if (p->substeps < 1 || p->substeps > 32) why = "substeps must be 1..32";
    else if (p->iterations < 1 || p->iterations > 64) why = "iterations must be 1..64";
    else if (!(p->restitution >= 0 && p->restitution <= 1)) why = "restitution must be 0..1";
    else if (!(p->sleep_speed >= 0 && p->sleep_time >= 0 && p->max_age > 0 && isfinite(p->max_age)))
        why = "sleep speed and time must be >= 0, max age > 0";
    if (why && err && errlen) snprintf(err, errlen, "%s", why);
    return why == NULL;
}

float bodies_max_speed(const bodies_params *p) { return 0.4f * (float)p->substeps / p->dt; }

void bodies_init(bodies *s)
{
    memset(s, 0, sizeof *s);
    s->p = bodies_params_default();
    s->next_id = 1;
}

void bodies_free(bodies *s)
{
    for (int i = 0; i < s->count; i++) body_destroy(s->v[i]);
    for (int i = 0; i < s->per_cap; i++) bodies_contacts_free(&s->per[i]);
    bodies_contacts_free(&s->all);
    free(s->per);
    free(s->solve);
    free(s->isl);
    free(s->isl_order);
    free(s->v);
    memset(s, 0, sizeof *s);
}

bool bodies_add(bodies *s, body *b)
{
    if (s->count == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        body **v = realloc(s->v, sizeof *v * (size_t)cap);
        if (!v) return false;
        s->v = v, s->cap = cap;
    }
    b->id = s->next_id++;
    s->v[s->count++] = b;
    return true;
}

body *bodies_take(bodies *s, int i)
{
    if (i < 0 || i >= s->count) return NULL;
    body *b = s->v[i];
    memmove(&s->v[i], &s->v[i + 1], sizeof *s->v * (size_t)(s->count - i - 1));
    s->count--;
    return b;
}

int bodies_awake(const bodies *s)
{
    int n = 0;
    for (int i = 0; i < s->count; i++) n += !s->v[i]->asleep;
    return n;
}

long bodies_voxels(const bodies *s)
{
    long n = 0;
    for (int i = 0; i < s->count; i++) n += s->v[i]->count;
    return n;
}

/* ---- the solver ---- */

static inline void cross3(const float a[3], const float b[3], float o[3])
{
    float x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    o[0] = x, o[1] = y, o[2] = z;
}
static inline void mat_vec(float m[3][3], const float v[3], float o[3])
{
    for (int i = 0; i < 3; i++) o[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
}

typedef struct bodies_solve {
    float inv_i[3][3]; /* world frame */
    float inv_m;
    float v[3], w[3];  /* the body's velocities while the solver runs: one cache line a body */
} solve_body;

static void world_inv_inertia(const body *b, float out[3][3])
{
    float r[3][3], t[3][3];
    body_rotation(b, r);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = r[i][0] * b->inv_inertia[0][j] + r[i][1] * b->inv_inertia[1][j] + r[i][2] * b->inv_inertia[2][j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out[i][j] = t[i][0] * r[j][0] + t[i][1] * r[j][1] + t[i][2] * r[j][2];
}

/* The velocity change of a unit impulse along dir at r: w gets the
 * angular part (I^-1 (r x dir)), the return value the inverse mass seen
 * along dir. */
static float response(const solve_body *S, const float r[3], const float dir[3], float w[3])
{
    float c[3];
    cross3(r, dir, c);
    mat_vec((float(*)[3])S->inv_i, c, w);
    cross3(w, r, c);
    return S->inv_m + dot3(c, dir);
}

static inline void rel_vel(const solve_body *A, const solve_body *B, const float ra[3], const float rb[3], float v[3])
{
    float w[3];
    cross3(A->w, ra, w);
    for (int i = 0; i < 3; i++) v[i] = A->v[i] + w[i];
    if (B) {
        cross3(B->w, rb, w);
        for (int i = 0; i < 3; i++) v[i] -= B->v[i] + w[i];
    }
}

/* Impulse j along dir: wa, wb are the angular responses response() gave. */
static inline void apply(solve_body *A, solve_body *B, const float wa[3], const float wb[3], const float dir[3], float j)
{
    /* a sleeping body (no inverse mass) is not written: islands that
     * share one may be solved at once on different workers */
    if (A->inv_m > 0)
        for (int i = 0; i < 3; i++) A->v[i] += dir[i] * j * A->inv_m, A->w[i] += wa[i] * j;
    if (B && B->inv_m > 0)
        for (int i = 0; i < 3; i++) B->v[i] -= dir[i] * j * B->inv_m, B->w[i] -= wb[i] * j;
}

/* Both friction impulses dj along the contact's tangents at once. */
static inline void apply_friction(solve_body *A, solve_body *B, const bodies_contact *c, const float dj[2])
{
    for (int i = 0; i < 3; i++) {
        float lin = c->t[0][i] * dj[0] + c->t[1][i] * dj[1];
        if (A->inv_m > 0) A->v[i] += lin * A->inv_m, A->w[i] += c->wa[1][i] * dj[0] + c->wa[2][i] * dj[1];
        if (B && B->inv_m > 0) B->v[i] -= lin * B->inv_m, B->w[i] -= c->wb[1][i] * dj[0] + c->wb[2][i] * dj[1];
    }
}

/* An angular impulse j about axis u (unit): turns A by I_A^-1 u j and B back. */
static inline void apply_turn(solve_body *A, solve_body *B, const float u[3], float j)
{
    float w[3];
    if (A->inv_m > 0) {
        mat_vec(A->inv_i, u, w);
        for (int i = 0; i < 3; i++) A->w[i] += w[i] * j;
    }
    if (B && B->inv_m > 0) {
        mat_vec(B->inv_i, u, w);
        for (int i = 0; i < 3; i++) B->w[i] -= w[i] * j;
    }
}

/* 1 / (the angular speed about u that a unit angular impulse about u makes) */
static float turn_mass(const solve_body *A, const solve_body *B, const float u[3])
{
    float w[3], k;
    mat_vec((float(*)[3])A->inv_i, u, w);
    k = dot3(w, u);
    if (B) {
        mat_vec((float(*)[3])B->inv_i, u, w);
        k += dot3(w, u);
    }
    return k > 1e-12f ? 1.f / k : 0.f;
}

static void tangents(const float n[3], float t0[3], float t1[3])
{
    const float up[3] = { 0, 1, 0 }, side[3] = { 1, 0, 0 };
    cross3(n, fabsf(n[1]) < 0.9f ? up : side, t0);
    float l = sqrtf(dot3(t0, t0));
    for (int i = 0; i < 3; i++) t0[i] /= l;
    cross3(n, t0, t1);
}

/* The contacts idx[0 .. n) of one island, in their order in s->all. */
static void solve_island(bodies *s, solve_body *sb, float h, const int *idx, int n)
{
    bodies_contacts *C = &s->all;
    for (int q = 0; q < n; q++) {
        bodies_contact *c = &C->v[idx[q]];
        body *A = s->v[c->a], *B = c->b >= 0 ? s->v[c->b] : NULL;
        for (int i = 0; i < 3; i++) { /* p is in A's frame */
            c->ra[i] = c->p[i] - A->pos[i];
            c->rb[i] = B ? (c->p[i] - B->pos[i]) + (float)(A->org[i] - B->org[i]) : 0.f;
        }
        tangents(c->n, c->t[0], c->t[1]);
        solve_body *SA = &sb[c->a], *SB = B ? &sb[c->b] : NULL;
        for (int d = 0; d < 3; d++) { /* n, t0, t1: kept for every pass */
            const float *dir = d == 0 ? c->n : c->t[d - 1];
            float inv = response(SA, c->ra, dir, c->wa[d]);
            if (SB) inv += response(SB, c->rb, dir, c->wb[d]);
            float m = inv > 1e-12f ? 1.f / inv : 0.f;
            if (d == 0) c->mass_n = m;
            else c->mass_t[d - 1] = m;
        }
        /* a friction impulse turns the bodies, which changes the normal
         * speed at the contact by this much per unit (n . (w x r)) */
        for (int d = 0; d < 2; d++) {
            float x[3];
            cross3(c->wa[d + 1], c->ra, x);
            c->kn[d] = dot3(x, c->n);
            if (SB) {
                cross3(c->wb[d + 1], c->rb, x);
                c->kn[d] += dot3(x, c->n);
            }
        }
        float v[3];
        rel_vel(SA, SB, c->ra, c->rb, v);
        float vn = dot3(v, c->n);
        /* the normal speed the solver aims for: close a gap no faster than
         * it can be closed this substep, push out of depth past the slop,
         * bounce off a hard impact */
        if (c->depth < 0) c->target = c->depth / h;
        else c->target = c->depth > SLOP ? BETA * (c->depth - SLOP) / h : 0.f;
        if (vn < -BOUNCE_SPEED && -s->p.restitution * vn > c->target) c->target = -s->p.restitution * vn;
        c->jn = c->jt[0] = c->jt[1] = 0;
        c->mass_spin = turn_mass(SA, SB, c->n);
        c->mass_roll[0] = turn_mass(SA, SB, c->t[0]);
        c->mass_roll[1] = turn_mass(SA, SB, c->t[1]);
        c->jspin = c->jroll[0] = c->jroll[1] = 0;
    }
    for (int it = 0; it < s->p.iterations; it++)
        for (int q = 0; q < n; q++) {
            bodies_contact *c = &C->v[idx[q]];
            solve_body *SA = &sb[c->a], *SB = c->b >= 0 ? &sb[c->b] : NULL;
            float v[3], dj[2], lim = c->surf.slide * c->jn;
            rel_vel(SA, SB, c->ra, c->rb, v);
            /* friction first, bounded by the normal impulse so far; both
             * tangents from the same velocity, applied at once */
            for (int t = 0; t < 2; t++) {
                float j = -dot3(v, c->t[t]) * c->mass_t[t], old = c->jt[t];
                c->jt[t] = fminf(fmaxf(old + j, -lim), lim);
                dj[t] = c->jt[t] - old;
            }
            apply_friction(SA, SB, c, dj);
            /* the normal speed after them: t . n = 0, so only the turning counts */
            float vn = dot3(v, c->n) + dj[0] * c->kn[0] + dj[1] * c->kn[1];
            float j = (c->target - vn) * c->mass_n, old = c->jn;
            c->jn = fmaxf(old + j, 0.f);
            apply(SA, SB, c->wa[0], c->wb[0], c->n, c->jn - old);
            /* rolling and spinning friction: angular impulses against the
             * turning across and about the normal, each bounded by its lever
             * arm times the normal impulse (a torque of roll * N at most) */
            float w[3];
            for (int i = 0; i < 3; i++) w[i] = SA->w[i] - (SB ? SB->w[i] : 0.f);
            float jo = c->jspin, js = -dot3(w, c->n) * c->mass_spin, slim = c->surf.spin * c->jn;
            c->jspin = fminf(fmaxf(jo + js, -slim), slim);
            apply_turn(SA, SB, c->n, c->jspin - jo);
            float jr[2], rlim = c->surf.roll * c->jn, len = 0;
            for (int t = 0; t < 2; t++) jr[t] = c->jroll[t] - dot3(w, c->t[t]) * c->mass_roll[t], len += jr[t] * jr[t];
            len = sqrtf(len);
            if (len > rlim) jr[0] *= rlim / len, jr[1] *= rlim / len;
            for (int t = 0; t < 2; t++) {
                apply_turn(SA, SB, c->t[t], jr[t] - c->jroll[t]);
                c->jroll[t] = jr[t];
            }
        }
}

/* Bodies that touch (awake, through contacts) form an island; islands
 * share no moving body, so each is solved alone, on the workers, in the
 * order its contacts have in s->all: Gauss-Seidel over independent sets
 * gives the same bits as one pass over every contact, on any number of
 * workers. */
typedef struct solve_job {
    bodies *s;
    solve_body *sb;
    float h;
    const int *start;
} solve_job;

static void solve_one(void *arg, int i)
{
    solve_job *j = arg;
    solve_island(j->s, j->sb, j->h, j->s->isl_order + j->start[i], j->start[i + 1] - j->start[i]);
}

static int island_root(int *parent, int i)
{
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

/* The awake body of contact c (a sleeping one is not moved by it). */
static int moving_body(const bodies *s, const bodies_contact *c) { return bodies_fixed(s->v[c->a]) ? c->b : c->a; }

static void solve(bodies *s, solve_body *sb, float h, job_pool *jobs)
{
    bodies_contacts *C = &s->all;
    int n = s->count;
    size_t need = 4 * (size_t)n + 1; /* parent, island of a root, island starts, cursors */
    if (need > s->isl_cap) {
        int *v = realloc(s->isl, need * sizeof *v);
        if (!v) return;
        s->isl = v, s->isl_cap = need;
    }
    if ((size_t)C->count > s->isl_order_cap) {
        int *v = realloc(s->isl_order, (size_t)C->count * sizeof *v);
        if (!v) return;
        s->isl_order = v, s->isl_order_cap = (size_t)C->count;
    }
    int *parent = s->isl, *id = parent + n, *start = id + n, *cur = start + n + 1;
    for (int i = 0; i < n; i++) parent[i] = i, id[i] = -1;
    for (int k = 0; k < C->count; k++) {
        const bodies_contact *c = &C->v[k];
        if (c->b < 0 || bodies_fixed(s->v[c->a]) || bodies_fixed(s->v[c->b])) continue;
        int ra = island_root(parent, c->a), rb = island_root(parent, c->b);
        if (ra < rb) parent[rb] = ra;
        else if (rb < ra) parent[ra] = rb;
    }
    /* islands numbered as their first contact comes; count, offsets, place */
    int islands = 0;
    start[0] = 0;
    for (int k = 0; k < C->count; k++) {
        int r = island_root(parent, moving_body(s, &C->v[k]));
        if (id[r] < 0) id[r] = islands++, start[islands] = 0;
        start[id[r] + 1]++;
    }
    for (int i = 0; i < islands; i++) start[i + 1] += start[i], cur[i] = start[i];
    for (int k = 0; k < C->count; k++) s->isl_order[cur[id[island_root(parent, moving_body(s, &C->v[k]))]]++] = k;
    for (int i = 0; i < n; i++) {
        memcpy(sb[i].v, s->v[i]->vel, sizeof sb[i].v);
        memcpy(sb[i].w, s->v[i]->ang, sizeof sb[i].w);
    }
    solve_job j = { s, sb, h, start };
    if (jobs) job_parallel_for(jobs, islands, solve_one, &j);
    else for (int i = 0; i < islands; i++) solve_one(&j, i);
    for (int i = 0; i < n; i++)
        if (!bodies_fixed(s->v[i])) {
            memcpy(s->v[i]->vel, sb[i].v, sizeof sb[i].v);
            memcpy(s->v[i]->ang, sb[i].w, sizeof sb[i].w);
        }
}

static bool size_per(bodies *s)
{
    if (s->count <= s->per_cap) return true;
    bodies_contacts *p = realloc(s->per, sizeof *p * (size_t)s->count);
    if (!p) return false;
    memset(p + s->per_cap, 0, sizeof *p * (size_t)(s->count - s->per_cap));
    s->per = p, s->per_cap = s->count;
    return true;
}

static void integrate(body *b, float h, float vmax)
{
    float sp = sqrtf(dot3(b->vel, b->vel));
    if (sp > vmax) for (int i = 0; i < 3; i++) b->vel[i] *= vmax / sp;
    float w = sqrtf(dot3(b->ang, b->ang));
    if (w * b->radius > vmax) for (int i = 0; i < 3; i++) b->ang[i] *= vmax / (w * b->radius);
    for (int i = 0; i < 3; i++) b->pos[i] += b->vel[i] * h;
    /* q += 1/2 (w, 0) q h, then back to unit length */
    float *q = b->rot, x = q[0], y = q[1], z = q[2], qw = q[3];
    float ax = b->ang[0] * 0.5f * h, ay = b->ang[1] * 0.5f * h, az = b->ang[2] * 0.5f * h;
    q[0] += ax * qw + ay * z - az * y;
    q[1] += ay * qw + az * x - ax * z;
    q[2] += az * qw + ax * y - ay * x;
    q[3] -= ax * x + ay * y + az * z;
    float l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++) q[i] /= l;
}

void bodies_step(bodies *s, const world *w, const octree *terrain, job_pool *jobs)
{
    memset(&s->stats, 0, sizeof s->stats);
    if (!s->count || !size_per(s)) return;
    if (s->count > s->solve_cap) { /* kept between steps: a steady scene allocates nothing */
        solve_body *n = realloc(s->solve, sizeof *n * (size_t)s->count);
        if (!n) return;
        s->solve = n, s->solve_cap = s->count;
    }
    solve_body *sb = s->solve;
    float h = s->p.dt / (float)s->p.substeps, vmax = bodies_max_speed(&s->p);
    /* a body whose terrain is not there (outside the terrain octree's box,
     * or over a column not generated) is held where it is for this step:
     * it would find no contacts and fall through the ground. Reach: what a
     * contact and a kept pair need, plus the most it can move in a step. */
    float hold_reach = BODIES_REACH + BODIES_KEEP_REACH + vmax * s->p.dt + 1.f;
    for (int i = 0; i < s->count; i++) {
        body *b = s->v[i];
        b->held = !b->asleep && !bodies_terrain_there(s, b, w, terrain, hold_reach);
    }
    float keep = 1.f - DAMPING * h;
    for (int sub = 0; sub < s->p.substeps; sub++) {
        for (int i = 0; i < s->count; i++) {
            body *b = s->v[i];
            sb[i].inv_m = bodies_fixed(b) ? 0.f : b->inv_mass;
            if (bodies_fixed(b)) memset(sb[i].inv_i, 0, sizeof sb[i].inv_i);
            else world_inv_inertia(b, sb[i].inv_i);
            if (bodies_fixed(b)) continue;
            b->vel[1] -= s->p.gravity * h;
            for (int k = 0; k < 3; k++) b->vel[k] *= keep, b->ang[k] *= keep;
        }
        bodies_gather_contacts(s, w, terrain, jobs);
        solve(s, sb, h, jobs);
        for (int i = 0; i < s->count; i++)
            if (!bodies_fixed(s->v[i])) integrate(s->v[i], h, vmax);
    }
    bodies_settle(s);
    s->stats.awake = bodies_awake(s);
}
