/* bodies.c: the dynamics of the voxel bodies (bodies.h): the set, contacts
 * with the terrain and between bodies (octree pairs, the narrow phase,
 * pairs kept across substeps), bodies held where the terrain is not
 * there, the sequential-impulse solver on islands, integration and sleep.
 * The cutting tool and ray picks on bodies are in bodies_cut.c. */
#include "physics/bodies.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every voxel of a body is a ball of this radius round its centre for
 * contacts: a ball rolls over terrain edges and its contacts are one
 * normal each. A body resting flat stands on its voxels' lower faces. */
#define VOXEL_R 0.5f
/* Contacts are made this far before touching (speculative), so a body
 * arriving is stopped at the surface rather than after sinking in. */
#define MARGIN 0.05f
/* Depth allowed before the solver pushes out (no jitter at rest), and the
 * fraction of the rest pushed out per substep (Baumgarte). */
#define SLOP 0.01f
#define BETA 0.2f
#define BOUNCE_SPEED 2.f
#define MAX_CONTACTS 256 /* per body and per pair: a deterministic spread is kept */
#define DAMPING 0.02f    /* per second, linear and angular: settles a rocking body */
/* Voxel centres within this of a voxel's centre may touch it: a ball's
 * reach past the cube's half-diagonal. */
#define REACH (VOXEL_R + MARGIN + 0.8660254f)
/* A body's terrain pairs are found this much farther out and kept until
 * one of its voxels has moved this far: a body at rest or tumbling
 * slowly queries the octree once in many substeps instead of in each. */
#define KEEP_REACH 0.5f

bodies_params bodies_params_default(void)
{
    return (bodies_params){
        .gravity = 20.f, .dt = 1.f / 60.f, .substeps = 4, .iterations = 8, .friction = 0.6f,
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
    else if (!(p->friction >= 0 && p->friction <= 10)) why = "friction must be 0..10";
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

void bodies_contacts_free(bodies_contacts *c)
{
    free(c->v);
    octree_pairs_free(&c->pairs);
    octree_pairs_free(&c->near);
    for (int k = 0; k < c->kept_cap; k++) octree_pairs_free(&c->kept_pairs[k].pairs);
    free(c->kept_pairs);
    memset(c, 0, sizeof *c);
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

/* ---- small vector helpers ---- */

static inline float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static inline void cross3(const float a[3], const float b[3], float o[3])
{
    float x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    o[0] = x, o[1] = y, o[2] = z;
}
static inline void mat_vec(float m[3][3], const float v[3], float o[3])
{
    for (int i = 0; i < 3; i++) o[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
}

/* ---- contacts ---- */

static bodies_contact *contact_push(bodies_contacts *c)
{
    if (c->count == c->cap) {
        int cap = c->cap ? c->cap * 2 : 64;
        bodies_contact *v = realloc(c->v, sizeof *v * (size_t)cap);
        if (!v) return NULL;
        c->v = v, c->cap = cap;
    }
    bodies_contact *k = &c->v[c->count++];
    memset(k, 0, sizeof *k);
    return k;
}

/* Whether a cell next to a voxel is solid (a world's, or a body grid's). */
typedef bool (*solid_fn)(const void *grid, const int c[3]);

/* What stops a body: solid terrain that carries load. Foliage carries
 * none (detach.h), so a falling crown crashes through its neighbours'
 * leaves instead of coming to rest on them and being cut loose again. */
static bool blocks_bodies(uint8_t m) { return material_get(m)->solid && !material_is_foliage(m); }

static bool world_solid(const void *grid, const int c[3])
{
    return c[1] < 0 || blocks_bodies(world_get(grid, c[0], c[1], c[2]));
}

static bool grid_solid(const void *grid, const int c[3])
{
    const body *b = grid;
    if (c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= b->size[0] || c[1] >= b->size[1] || c[2] >= b->size[2])
        return false;
    return b->mat[body_index(b, c[0], c[1], c[2])] != MAT_AIR;
}

/* Ball (centre q, radius VOXEL_R) against the unit cube of voxel t, both
 * in a frame that is `org` in the grid's coordinates (a body's frame
 * against the world, 0 against a body's grid): false when they are
 * farther apart than the margin; else the normal (from the cube to the
 * ball) and the depth. */
static bool ball_cube(const float q[3], const int t[3], solid_fn solid, const void *grid, const int org[3], float n[3],
                      float *depth)
{
    float d[3], dd = 0;
    for (int i = 0; i < 3; i++) {
        float lo = (float)t[i], hi = lo + 1.f;
        float p = q[i] < lo ? lo : q[i] > hi ? hi : q[i];
        d[i] = q[i] - p;
        dd += d[i] * d[i];
    }
    float reach = VOXEL_R + MARGIN;
    if (dd > reach * reach) return false;
    n[0] = 0, n[1] = 1, n[2] = 0;
    if (dd > 1e-12f) {
        float dist = sqrtf(dd);
        for (int i = 0; i < 3; i++) n[i] = d[i] / dist;
        *depth = VOXEL_R - dist;
        return true;
    }
    /* the centre is inside the voxel: out through the nearest face whose
     * neighbour is open (the way it most likely came in) */
    float best = 1e9f;
    for (int i = 0; i < 3; i++)
        for (int s = -1; s <= 1; s += 2) {
            int nb[3] = { org[0] + t[0], org[1] + t[1], org[2] + t[2] };
            nb[i] += s;
            if (solid(grid, nb)) continue;
            float gap = s < 0 ? q[i] - (float)t[i] : (float)t[i] + 1.f - q[i];
            if (gap < best) best = gap, n[0] = n[1] = n[2] = 0, n[i] = (float)s;
        }
    if (best > 1e8f) best = 1.f - (q[1] - (float)t[1]); /* buried: up */
    *depth = VOXEL_R + best;
    return true;
}

/* Keeps at most MAX_CONTACTS of the contacts from `from` on, evenly
 * spread over the list (the order is the octree's, so deterministic). */
static void thin(bodies_contacts *c, int from)
{
    int n = c->count - from;
    if (n <= MAX_CONTACTS) return;
    for (int k = 0; k < MAX_CONTACTS; k++) c->v[from + k] = c->v[from + (int)((long)k * n / MAX_CONTACTS)];
    c->count = from + MAX_CONTACTS;
}

/* The contacts of body b (index i) with the terrain voxels of `pairs`
 * (body voxel c, terrain voxel t) at its pose now. */
static void pairs_to_contacts(const body *b, int i, const world *w, const octree_pairs *pairs, float rot[3][3],
                              bodies_contacts *out)
{
    for (size_t k = 0; k < pairs->count; k++) {
        const octree_pair *pr = &pairs->v[k];
        float c[3] = { (float)pr->c[0] + 0.5f, (float)pr->c[1] + 0.5f, (float)pr->c[2] + 0.5f }, q[3], n[3], depth;
        body_to_world(b, rot, c, q);
        /* the terrain voxel in the body's frame: an integer difference */
        const int t[3] = { pr->t[0] - b->org[0], pr->t[1] - b->org[1], pr->t[2] - b->org[2] };
        if (!ball_cube(q, t, world_solid, w, b->org, n, &depth)) continue;
        if (!blocks_bodies(world_get(w, pr->t[0], pr->t[1], pr->t[2]))) continue; /* bog, leaves */
        bodies_contact *kc = contact_push(out);
        if (!kc) return;
        kc->a = i, kc->b = -1, kc->depth = depth;
        for (int a = 0; a < 3; a++) kc->n[a] = n[a], kc->p[a] = q[a] - n[a] * VOXEL_R;
    }
}

/* How far any voxel of b may have moved since the pose (pos, rot): the
 * centre's way plus the chord a corner at b->radius sweeps, which is
 * 2 r sin(angle / 2) <= 2 r |q - q0| (q0's sign taken nearer q). */
static float moved_since(const body *b, const float pos[3], const float rot[4])
{
    float d[3] = { b->pos[0] - pos[0], b->pos[1] - pos[1], b->pos[2] - pos[2] };
    float sgn = b->rot[0] * rot[0] + b->rot[1] * rot[1] + b->rot[2] * rot[2] + b->rot[3] * rot[3] < 0 ? -1.f : 1.f;
    float dq = 0;
    for (int k = 0; k < 4; k++) dq += (b->rot[k] - sgn * rot[k]) * (b->rot[k] - sgn * rot[k]);
    return sqrtf(dot3(d, d)) + 2.f * b->radius * sqrtf(dq);
}

/* Body i's terrain contacts, appended to out. keep: use the pairs out kept
 * from an earlier query while they still hold (else query with the wider
 * reach and keep them); otherwise one query at the contact reach. */
static void terrain_contacts(const bodies *s, int i, const world *w, const octree *terrain, bodies_contacts *out,
                             bool keep)
{
    const body *b = s->v[i];
    octree_pose pose;
    body_octree_pose(b, &pose);
    int from = out->count;
    if (terrain) {
        bool still = keep && out->kept && out->id == b->id && out->terrain == terrain &&
                     out->version == octree_version(terrain) &&
                     moved_since(b, out->at_pos, out->at_rot) <= KEEP_REACH;
        if (!still) {
            float reach = REACH + (keep ? KEEP_REACH : 0.f);
            if (out->brute) octree_intersect_near_brute(terrain, b->shell, &pose, reach, &out->pairs);
            else octree_intersect_near(terrain, b->shell, &pose, reach, &out->pairs);
            out->pair_count += (long)out->pairs.count;
            out->kept = keep && !out->pairs.out_of_memory;
            out->id = b->id, out->terrain = terrain, out->version = octree_version(terrain);
            memcpy(out->at_pos, b->pos, sizeof out->at_pos);
            memcpy(out->at_rot, b->rot, sizeof out->at_rot);
        }
        pairs_to_contacts(b, i, w, &out->pairs, pose.rot, out);
    }
    /* the bedrock floor below y = 0 is in no octree (in the body's frame
     * it is at y = -org[1]) */
    const float floor_y = (float)-b->org[1];
    if (b->pos[1] - b->radius < floor_y + VOXEL_R + MARGIN)
        for (int y = 0; y < b->size[1]; y++)
            for (int z = 0; z < b->size[2]; z++)
                for (int x = 0; x < b->size[0]; x++) {
                    if (b->mat[body_index(b, x, y, z)] == MAT_AIR) continue;
                    float c[3] = { (float)x + 0.5f, (float)y + 0.5f, (float)z + 0.5f }, q[3];
                    body_to_world(b, pose.rot, c, q);
                    /* the floor is under the world; past its sides a body falls out */
                    double wx = (double)b->org[0] + q[0], wz = (double)b->org[2] + q[2];
                    if (q[1] > floor_y + VOXEL_R + MARGIN || wx < world_x0(w) || wz < world_z0(w) ||
                        wx >= (double)world_x0(w) + w->sx || wz >= (double)world_z0(w) + w->sz)
                        continue;
                    bodies_contact *k = contact_push(out);
                    if (!k) return;
                    k->a = i, k->b = -1, k->depth = VOXEL_R - (q[1] - floor_y);
                    k->n[1] = 1;
                    k->p[0] = q[0], k->p[1] = q[1] - VOXEL_R, k->p[2] = q[2];
                }
    thin(out, from);
}

void bodies_terrain_contacts(const bodies *s, int i, const world *w, const octree *terrain, bodies_contacts *out)
{
    terrain_contacts(s, i, w, terrain, out, false);
}

/* Body i against body j (i < j): j's voxels as balls against i's voxels
 * as cubes, in i's grid (as against the terrain), so flat faces stack flat
 * whatever the offset between the grids. */
/* The kept pairs of out's body with body B, a fresh slot if none. */
static bodies_kept *kept_with(bodies_contacts *out, const body *B)
{
    for (int k = 0; k < out->kept_count; k++)
        if (out->kept_pairs[k].id == B->id) return &out->kept_pairs[k];
    if (out->kept_count == out->kept_cap) {
        int cap = out->kept_cap ? out->kept_cap * 2 : 8;
        bodies_kept *v = realloc(out->kept_pairs, sizeof *v * (size_t)cap);
        if (!v) return NULL;
        memset(v + out->kept_cap, 0, sizeof *v * (size_t)(cap - out->kept_cap));
        out->kept_pairs = v, out->kept_cap = cap;
    }
    bodies_kept *e = &out->kept_pairs[out->kept_count++];
    e->id = B->id;
    e->at[0][3] = 2.f; /* not a pose: found again */
    e->pairs.count = 0;
    return e;
}

static void pose_of(const body *b, float at[7])
{
    memcpy(at, b->pos, sizeof b->pos);
    memcpy(at + 3, b->rot, sizeof b->rot);
}

static void pair_contacts(const bodies *s, int i, int j, bodies_contacts *out, bool keep)
{
    const body *A = s->v[i], *B = s->v[j];
    /* B's frame in A's: an integer shift (0 when both are in one frame, as
     * near the origin, and then the floats are what they always were) */
    float sh[3];
    for (int r = 0; r < 3; r++) sh[r] = (float)(B->org[r] - A->org[r]);
    float d[3] = { (A->pos[0] - B->pos[0]) - sh[0], (A->pos[1] - B->pos[1]) - sh[1], (A->pos[2] - B->pos[2]) - sh[2] };
    float rr = A->radius + B->radius + MARGIN;
    if (dot3(d, d) > rr * rr) return;
    float ra[3][3], rb[3][3];
    body_rotation(A, ra);
    body_rotation(B, rb);
    /* B's grid in A's grid: p_A = com_A + Ra^T (x - pos_A), x = B's world point */
    octree_pose pose = { .org = { 0, 0, 0 } }; /* in A's grid: small */
    octree_pose pb;
    body_octree_pose(B, &pb);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            pose.rot[r][c] = ra[0][r] * rb[0][c] + ra[1][r] * rb[1][c] + ra[2][r] * rb[2][c];
    float rel[3] = { (pb.pos[0] - A->pos[0]) + sh[0], (pb.pos[1] - A->pos[1]) + sh[1], (pb.pos[2] - A->pos[2]) + sh[2] };
    for (int r = 0; r < 3; r++) pose.pos[r] = A->com[r] + ra[0][r] * rel[0] + ra[1][r] * rel[1] + ra[2][r] * rel[2];
    bodies_kept *e = keep && !s->brute ? kept_with(out, B) : NULL;
    const octree_pairs *pairs = &out->near;
    if (e) {
        e->used = true;
        pairs = &e->pairs;
        if (!(e->at[0][3] <= 1.f &&
              moved_since(A, e->at[0], e->at[0] + 3) + moved_since(B, e->at[1], e->at[1] + 3) <= KEEP_REACH)) {
            octree_intersect_near(A->shell, B->shell, &pose, REACH + KEEP_REACH, &e->pairs);
            out->pair_count += (long)e->pairs.count;
            pose_of(A, e->at[0]);
            pose_of(B, e->at[1]);
            if (e->pairs.out_of_memory) e->at[0][3] = 2.f;
        }
    } else {
        if (s->brute) octree_intersect_near_brute(A->shell, B->shell, &pose, REACH, &out->near);
        else octree_intersect_near(A->shell, B->shell, &pose, REACH, &out->near);
        out->pair_count += (long)out->near.count;
    }
    int from = out->count;
    const float pivot[3] = { (float)B->size[0] * 0.5f, (float)B->size[1] * 0.5f, (float)B->size[2] * 0.5f };
    for (size_t k = 0; k < pairs->count; k++) {
        const octree_pair *pr = &pairs->v[k];
        /* B's voxel centre in A's grid, as the octree placed it */
        float cb[3] = { (float)pr->c[0] + 0.5f - pivot[0], (float)pr->c[1] + 0.5f - pivot[1],
                        (float)pr->c[2] + 0.5f - pivot[2] }, q[3];
        for (int r = 0; r < 3; r++)
            q[r] = pose.pos[r] + pose.rot[r][0] * cb[0] + pose.rot[r][1] * cb[1] + pose.rot[r][2] * cb[2];
        float nl[3], depth;
        if (!ball_cube(q, pr->t, grid_solid, A, (const int[3]){ 0, 0, 0 }, nl, &depth)) continue;
        bodies_contact *c = contact_push(out);
        if (!c) return;
        /* the normal points from B to A in the world: A's grid normal points to the ball (B) */
        float pl[3] = { q[0] - nl[0] * VOXEL_R, q[1] - nl[1] * VOXEL_R, q[2] - nl[2] * VOXEL_R };
        c->a = i, c->b = j, c->depth = depth;
        for (int r = 0; r < 3; r++) c->n[r] = -(ra[r][0] * nl[0] + ra[r][1] * nl[1] + ra[r][2] * nl[2]);
        body_to_world(A, ra, pl, c->p); /* in A's frame, as every contact point of A */
    }
    thin(out, from);
}

bool bodies_push_box(const bodies *s, const double lo_w[3], const double hi_w[3], float push[3], float carry[3])
{
    float most[3] = { 0, 0, 0 }, least[3] = { 0, 0, 0 }, up = 0;
    bool touched = false;
    memset(carry, 0, sizeof(float) * 3);
    for (int i = 0; i < s->count; i++) {
        const body *b = s->v[i];
        float lo[3], hi[3]; /* the box in the body's frame */
        for (int a = 0; a < 3; a++) lo[a] = (float)(lo_w[a] - b->org[a]), hi[a] = (float)(hi_w[a] - b->org[a]);
        /* the body's sphere against the box first */
        float dd = 0;
        for (int a = 0; a < 3; a++) {
            float c = fminf(fmaxf(b->pos[a], lo[a]), hi[a]) - b->pos[a];
            dd += c * c;
        }
        if (dd > (b->radius + VOXEL_R) * (b->radius + VOXEL_R)) continue;
        float r[3][3];
        body_rotation(b, r);
        for (int y = 0; y < b->size[1]; y++)
            for (int z = 0; z < b->size[2]; z++)
                for (int x = 0; x < b->size[0]; x++) {
                    if (b->mat[body_index(b, x, y, z)] == MAT_AIR) continue;
                    float g[3] = { (float)x + 0.5f, (float)y + 0.5f, (float)z + 0.5f }, q[3], d[3];
                    body_to_world(b, r, g, q);
                    float e = 0;
                    for (int a = 0; a < 3; a++) {
                        d[a] = fminf(fmaxf(q[a], lo[a]), hi[a]) - q[a]; /* from the ball to the box */
                        e += d[a] * d[a];
                    }
                    if (e >= VOXEL_R * VOXEL_R) continue;
                    float mv[3] = { 0, 0, 0 };
                    if (e > 1e-12f) {
                        float dist = sqrtf(e);
                        for (int a = 0; a < 3; a++) mv[a] = d[a] / dist * (VOXEL_R - dist);
                    } else {
                        /* the ball's centre is inside the box: out the shortest way */
                        float best = 1e9f;
                        for (int a = 0; a < 3; a++) {
                            float outp = hi[a] - q[a] + VOXEL_R, outn = q[a] - lo[a] + VOXEL_R;
                            if (outn < best) best = outn, mv[0] = mv[1] = mv[2] = 0, mv[a] = outn;
                            if (outp < best) best = outp, mv[0] = mv[1] = mv[2] = 0, mv[a] = -outp;
                        }
                    }
                    touched = true;
                    for (int a = 0; a < 3; a++) {
                        if (mv[a] > most[a]) most[a] = mv[a];
                        if (mv[a] < least[a]) least[a] = mv[a];
                    }
                    if (mv[1] > up) up = mv[1], memcpy(carry, b->vel, sizeof b->vel);
                }
    }
    for (int a = 0; a < 3; a++) push[a] = most[a] + least[a];
    return touched;
}

/* ---- bodies held where the terrain is not there ---- */

/* A body the step does not move: asleep, or held (its terrain is not
 * there to collide with). Both are static to the others. */
static inline bool fixed(const body *b) { return b->asleep || b->held; }

static long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Whether the terrain body b may touch within one step is there: every
 * column within its radius plus `reach` (x and z) is inside the terrain
 * octree's box and generated. A finite world asks only about the columns
 * inside its window (beyond its sides a body falls out); a world that
 * goes on (s->unbounded) about every one. */
static bool terrain_there(const bodies *s, const body *b, const world *w, const octree *terrain, float reach)
{
    double c[3];
    body_world_pos(b, c);
    double r = (double)b->radius + reach;
    long lo[2], hi[2];
    int org[3] = { 0, 0, 0 }, size[3] = { 0, 0, 0 };
    if (terrain) octree_origin(terrain, org), octree_size(terrain, size);
    const long win_lo[2] = { world_x0(w), world_z0(w) };
    const long win_hi[2] = { (long)world_x0(w) + w->sx - 1, (long)world_z0(w) + w->sz - 1 };
    for (int k = 0; k < 2; k++) {
        int a = 2 * k; /* x, z */
        if (!isfinite(c[a])) return false;
        double l = floor(c[a] - r), h = floor(c[a] + r);
        const double lim = 2.5e9; /* past 32-bit voxels: never there */
        if (l < -lim || h > lim) return false;
        lo[k] = (long)l, hi[k] = (long)h;
        if (!s->unbounded) {
            if (lo[k] < win_lo[k]) lo[k] = win_lo[k];
            if (hi[k] > win_hi[k]) hi[k] = win_hi[k];
            if (lo[k] > hi[k]) return true; /* wholly past the sides: it falls out */
        }
    }
    if (!terrain) return !s->unbounded; /* a finite world's floor only, as ever */
    for (int k = 0; k < 2; k++) {
        int a = 2 * k;
        if (lo[k] < org[a] || hi[k] >= (long)org[a] + size[a]) return false;
    }
    for (long cz = floor_div(lo[1], CHUNK_SIZE); cz <= floor_div(hi[1], CHUNK_SIZE); cz++)
        for (long cx = floor_div(lo[0], CHUNK_SIZE); cx <= floor_div(hi[0], CHUNK_SIZE); cx++)
            if (world_column_state(w, (int)cx, (int)cz) != WORLD_COL_READY) return false;
    return true;
}

/* ---- the solver ---- */

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
    }
    for (int it = 0; it < s->p.iterations; it++)
        for (int q = 0; q < n; q++) {
            bodies_contact *c = &C->v[idx[q]];
            solve_body *SA = &sb[c->a], *SB = c->b >= 0 ? &sb[c->b] : NULL;
            float v[3], dj[2], lim = s->p.friction * c->jn;
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
static int moving_body(const bodies *s, const bodies_contact *c) { return fixed(s->v[c->a]) ? c->b : c->a; }

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
        if (c->b < 0 || fixed(s->v[c->a]) || fixed(s->v[c->b])) continue;
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
        if (!fixed(s->v[i])) {
            memcpy(s->v[i]->vel, sb[i].v, sizeof sb[i].v);
            memcpy(s->v[i]->ang, sb[i].w, sizeof sb[i].w);
        }
}

typedef struct find_job {
    bodies *s;
    const world *w;
    const octree *terrain;
} find_job;

static void find_one(void *arg, int i)
{
    find_job *f = arg;
    bodies_contacts *c = &f->s->per[i];
    c->count = 0;
    c->pair_count = 0;
    c->brute = f->s->brute;
    const bodies *s = f->s;
    if (!fixed(s->v[i])) terrain_contacts(s, i, f->w, f->terrain, c, !s->fresh);
    /* then against every body after it that is near (bounding spheres),
     * with the pairs kept from earlier substeps while they hold */
    if (c->kept_owner != s->v[i]->id) c->kept_count = 0, c->kept_owner = s->v[i]->id;
    for (int j = i + 1; j < s->count; j++)
        if (!(fixed(s->v[i]) && fixed(s->v[j]))) pair_contacts(s, i, j, c, !s->fresh);
    for (int k = 0; k < c->kept_count;) { /* drop the bodies no longer near (their buffers stay for reuse) */
        if (c->kept_pairs[k].used) {
            c->kept_pairs[k++].used = false;
            continue;
        }
        bodies_kept gone = c->kept_pairs[k];
        c->kept_pairs[k] = c->kept_pairs[--c->kept_count];
        c->kept_pairs[c->kept_count] = gone;
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
    float hold_reach = REACH + KEEP_REACH + vmax * s->p.dt + 1.f;
    for (int i = 0; i < s->count; i++) {
        body *b = s->v[i];
        b->held = !b->asleep && !terrain_there(s, b, w, terrain, hold_reach);
    }
    float keep = 1.f - DAMPING * h;
    for (int sub = 0; sub < s->p.substeps; sub++) {
        for (int i = 0; i < s->count; i++) {
            body *b = s->v[i];
            sb[i].inv_m = fixed(b) ? 0.f : b->inv_mass;
            if (fixed(b)) memset(sb[i].inv_i, 0, sizeof sb[i].inv_i);
            else world_inv_inertia(b, sb[i].inv_i);
            if (fixed(b)) continue;
            b->vel[1] -= s->p.gravity * h;
            for (int k = 0; k < 3; k++) b->vel[k] *= keep, b->ang[k] *= keep;
        }
        /* each body's contacts (terrain, then the bodies after it) on the
         * workers, into its own list; joined in body order */
        find_job f = { s, w, terrain };
        if (jobs) job_parallel_for(jobs, s->count, find_one, &f);
        else for (int i = 0; i < s->count; i++) find_one(&f, i);
        bodies_contacts *C = &s->all;
        C->count = 0;
        for (int i = 0; i < s->count; i++) {
            bodies_contacts *c = &s->per[i];
            s->stats.pairs += c->pair_count;
            for (int k = 0; k < c->count; k++) {
                bodies_contact *d = contact_push(C);
                if (d) *d = c->v[k];
            }
        }
        s->stats.contacts += C->count;
        solve(s, sb, h, jobs);
        for (int i = 0; i < s->count; i++)
            if (!fixed(s->v[i])) integrate(s->v[i], h, vmax);
    }
    for (int i = 0; i < s->count; i++) {
        body *b = s->v[i];
        if (fixed(b)) continue;
        b->age += s->p.dt;
        float turn = sqrtf(dot3(b->ang, b->ang)) * b->radius;
        if (sqrtf(dot3(b->vel, b->vel)) < s->p.sleep_speed && turn < s->p.sleep_speed) b->still += s->p.dt;
        else b->still = 0;
        if (b->still >= s->p.sleep_time || b->age >= s->p.max_age) {
            b->asleep = true;
            memset(b->vel, 0, sizeof b->vel);
            memset(b->ang, 0, sizeof b->ang);
        }
    }
    s->stats.awake = bodies_awake(s);
}
