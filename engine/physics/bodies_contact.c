/* bodies_contact.c: where the voxel bodies (bodies.h) touch the world and
 * each other, and where they stop: contacts with the terrain and between
 * bodies (octree pairs, the ball-against-cube narrow phase, pairs kept
 * across substeps), the push of bodies on a box (the player), whether a
 * body's terrain is there (else it is held), and bodies coming to rest
 * (sleep). The solver that answers the contacts is in bodies.c. */
#include "physics/bodies_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CONTACTS 256 /* per body and per pair: a deterministic spread is kept */

void bodies_contacts_free(bodies_contacts *c)
{
    free(c->v);
    octree_pairs_free(&c->pairs);
    octree_pairs_free(&c->near);
    for (int k = 0; k < c->kept_cap; k++) octree_pairs_free(&c->kept_pairs[k].pairs);
    free(c->kept_pairs);
    memset(c, 0, sizeof *c);
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

/* Ball (centre q, radius BODIES_VOXEL_R) against the unit cube of voxel t, both
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
    float reach = BODIES_VOXEL_R + BODIES_MARGIN;
    if (dd > reach * reach) return false;
    n[0] = 0, n[1] = 1, n[2] = 0;
    if (dd > 1e-12f) {
        float dist = sqrtf(dd);
        for (int i = 0; i < 3; i++) n[i] = d[i] / dist;
        *depth = BODIES_VOXEL_R - dist;
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
    *depth = BODIES_VOXEL_R + best;
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
        kc->surf = body_surface_mix(b->surface, body_surface_of(world_get(w, pr->t[0], pr->t[1], pr->t[2])));
        for (int a = 0; a < 3; a++) kc->n[a] = n[a], kc->p[a] = q[a] - n[a] * BODIES_VOXEL_R;
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
                     moved_since(b, out->at_pos, out->at_rot) <= BODIES_KEEP_REACH;
        if (!still) {
            float reach = BODIES_REACH + (keep ? BODIES_KEEP_REACH : 0.f);
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
    if (b->pos[1] - b->radius < floor_y + BODIES_VOXEL_R + BODIES_MARGIN)
        for (int y = 0; y < b->size[1]; y++)
            for (int z = 0; z < b->size[2]; z++)
                for (int x = 0; x < b->size[0]; x++) {
                    if (b->mat[body_index(b, x, y, z)] == MAT_AIR) continue;
                    float c[3] = { (float)x + 0.5f, (float)y + 0.5f, (float)z + 0.5f }, q[3];
                    body_to_world(b, pose.rot, c, q);
                    /* the floor is under the world; past its sides a body falls out */
                    double wx = (double)b->org[0] + q[0], wz = (double)b->org[2] + q[2];
                    if (q[1] > floor_y + BODIES_VOXEL_R + BODIES_MARGIN || wx < world_x0(w) || wz < world_z0(w) ||
                        wx >= (double)world_x0(w) + w->sx || wz >= (double)world_z0(w) + w->sz)
                        continue;
                    bodies_contact *k = contact_push(out);
                    if (!k) return;
                    k->a = i, k->b = -1, k->depth = BODIES_VOXEL_R - (q[1] - floor_y);
                    k->surf = body_surface_mix(b->surface, body_surface_of(MAT_BEDROCK));
                    k->n[1] = 1;
                    k->p[0] = q[0], k->p[1] = q[1] - BODIES_VOXEL_R, k->p[2] = q[2];
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
    float rr = A->radius + B->radius + BODIES_MARGIN;
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
              moved_since(A, e->at[0], e->at[0] + 3) + moved_since(B, e->at[1], e->at[1] + 3) <= BODIES_KEEP_REACH)) {
            octree_intersect_near(A->shell, B->shell, &pose, BODIES_REACH + BODIES_KEEP_REACH, &e->pairs);
            out->pair_count += (long)e->pairs.count;
            pose_of(A, e->at[0]);
            pose_of(B, e->at[1]);
            if (e->pairs.out_of_memory) e->at[0][3] = 2.f;
        }
    } else {
        if (s->brute) octree_intersect_near_brute(A->shell, B->shell, &pose, BODIES_REACH, &out->near);
        else octree_intersect_near(A->shell, B->shell, &pose, BODIES_REACH, &out->near);
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
        float pl[3] = { q[0] - nl[0] * BODIES_VOXEL_R, q[1] - nl[1] * BODIES_VOXEL_R, q[2] - nl[2] * BODIES_VOXEL_R };
        c->a = i, c->b = j, c->depth = depth;
        c->surf = body_surface_mix(A->surface, B->surface);
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
        if (dd > (b->radius + BODIES_VOXEL_R) * (b->radius + BODIES_VOXEL_R)) continue;
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
                    if (e >= BODIES_VOXEL_R * BODIES_VOXEL_R) continue;
                    float mv[3] = { 0, 0, 0 };
                    if (e > 1e-12f) {
                        float dist = sqrtf(e);
                        for (int a = 0; a < 3; a++) mv[a] = d[a] / dist * (BODIES_VOXEL_R - dist);
                    } else {
                        /* the ball's centre is inside the box: out the shortest way */
                        float best = 1e9f;
                        for (int a = 0; a < 3; a++) {
                            float outp = hi[a] - q[a] + BODIES_VOXEL_R, outn = q[a] - lo[a] + BODIES_VOXEL_R;
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

static long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* (bodies_internal.h) */
bool bodies_terrain_there(const bodies *s, const body *b, const world *w, const octree *terrain, float reach)
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
    if (!bodies_fixed(s->v[i])) terrain_contacts(s, i, f->w, f->terrain, c, !s->fresh);
    /* then against every body after it that is near (bounding spheres),
     * with the pairs kept from earlier substeps while they hold */
    if (c->kept_owner != s->v[i]->id) c->kept_count = 0, c->kept_owner = s->v[i]->id;
    for (int j = i + 1; j < s->count; j++)
        if (!(bodies_fixed(s->v[i]) && bodies_fixed(s->v[j]))) pair_contacts(s, i, j, c, !s->fresh);
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

/* Each body's contacts on the workers, into its own list, then joined:
 * the same order on any number of workers. */
void bodies_gather_contacts(bodies *s, const world *w, const octree *terrain, job_pool *jobs)
{
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
}

/* ---- rest ---- */

/* After a step: a body whose every voxel stays within sleep_speed *
 * sleep_time of where it was (its pose then, rest_pos/rest_rot) for
 * sleep_time falls asleep where it is, its velocities zeroed; once it
 * strays further, the pose it is measured against is the one it has now.
 * Measuring the way travelled, not the speed, lets a body rocking on a
 * stair edge or jittering between two contacts sleep, while one that
 * slides or rolls on leaves its pose behind. A body moving for max_age
 * sleeps where it is. */
void bodies_settle(bodies *s)
{
    const float drift = s->p.sleep_speed * s->p.sleep_time;
    for (int i = 0; i < s->count; i++) {
        body *b = s->v[i];
        if (bodies_fixed(b)) continue;
        b->age += s->p.dt;
        if (b->still > 0 && moved_since(b, b->rest_pos, b->rest_rot) <= drift) {
            b->still += s->p.dt;
        } else {
            memcpy(b->rest_pos, b->pos, sizeof b->rest_pos);
            memcpy(b->rest_rot, b->rot, sizeof b->rest_rot);
            b->still = s->p.dt * 0.5f; /* measured from here */
        }
        if (b->still >= s->p.sleep_time || b->age >= s->p.max_age) {
            b->asleep = true;
            memset(b->vel, 0, sizeof b->vel);
            memset(b->ang, 0, sizeof b->ang);
        }
    }
}
