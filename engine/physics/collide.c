/* collide: box sweeps and ray casts against the voxel grid. Work is done in
 * double so that rounding never eats the skin, and positions stay double on
 * the way out so that they do not round far from the origin. */
#include "physics/collide.h"

#include <math.h>

#include "physics/octree.h"

/* Positions and moves beyond this are refused: outside any world (a
 * streamed one reaches 2^30), and it keeps every coordinate exactly
 * representable as an int and keeps "kd += 1" loops in double exact.
 * (A lower limit of 1e8 froze the player 1e8 voxels out.) */
#define COLLIDE_COORD_LIMIT WORLD_POS_LIMIT
/* Longest ray we walk: picking needs a few voxels; this only stops a
 * careless caller (max_dist = INFINITY) from walking forever. */
#define COLLIDE_RAY_LIMIT 1.0e5

static inline bool collide_solid_at(const world *w, int x, int y, int z)
{
    return material_get(world_get(w, x, y, z))->solid;
}

static inline double collide_clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* First cell overlapping an interval that starts at v (half-open cells). */
static inline int collide_cell_lo(double v)
{
    return (int)floor(collide_clampd(v, -COLLIDE_COORD_LIMIT, COLLIDE_COORD_LIMIT));
}
/* Last cell overlapping an interval that ends at v: a box ending exactly on
 * a face does not touch the cell beyond it. */
static inline int collide_cell_hi(double v)
{
    return (int)ceil(collide_clampd(v, -COLLIDE_COORD_LIMIT, COLLIDE_COORD_LIMIT)) - 1;
}

/* Any solid voxel in the cells lo..hi (inclusive)? The ranges are cut to the
 * world first, so a huge box costs no more than the world itself. With an
 * occupancy octree the scan runs only where the tree has any voxel at all
 * (broad phase); the material test stays the judge, since occupied is "not
 * air" and some non-air voxels (bog, plants) do not block. */
static bool collide_cells_solid(const world *w, const octree *occ, const int lo_in[3], const int hi_in[3])
{
    int lo[3] = { lo_in[0], lo_in[1], lo_in[2] }, hi[3] = { hi_in[0], hi_in[1], hi_in[2] };
    for (int a = 0; a < 3; a++)
        if (hi[a] < lo[a]) return false;
    /* below y = 0 everything is bedrock, inside the world's columns or not */
    if (lo[1] < 0) return true;
    /* the world's window, in world coordinates (a streamed one may be anywhere) */
    const int start[3] = { world_x0(w), 0, world_z0(w) }, size[3] = { w->sx, w->sy, w->sz };
    for (int a = 0; a < 3; a++) {
        if (lo[a] < start[a]) lo[a] = start[a];
        if (hi[a] > start[a] + size[a] - 1) hi[a] = start[a] + size[a] - 1;
        if (hi[a] < lo[a]) return false; /* entirely outside: air */
    }
    if (occ && !octree_cells_occupied(occ, lo, hi)) return false;
    for (int y = lo[1]; y <= hi[1]; y++)
        for (int z = lo[2]; z <= hi[2]; z++)
            for (int x = lo[0]; x <= hi[0]; x++)
                if (collide_solid_at(w, x, y, z)) return true;
    return false;
}

/* What a sweep collides with: the world's voxels (with an optional octree),
 * or a finer grid of cells (collide_grid) in the same frame scaled by
 * g->scale. Outside the grid's extent it behaves as the world does: air at
 * the sides and top, solid below y = 0. */
typedef struct collide_space {
    const world *w;
    const octree *occ;
    const collide_grid *g;
    int start[3], extent[3]; /* cells [start, start + extent): the world's window */
} collide_space;

static bool collide_space_solid(const collide_space *s, const int lo_in[3], const int hi_in[3])
{
    if (!s->g) return collide_cells_solid(s->w, s->occ, lo_in, hi_in);
    int lo[3] = { lo_in[0], lo_in[1], lo_in[2] }, hi[3] = { hi_in[0], hi_in[1], hi_in[2] };
    for (int a = 0; a < 3; a++)
        if (hi[a] < lo[a]) return false;
    if (lo[1] < 0) return true;
    for (int a = 0; a < 3; a++) {
        if (lo[a] < s->start[a]) lo[a] = s->start[a];
        if (hi[a] > s->start[a] + s->extent[a] - 1) hi[a] = s->start[a] + s->extent[a] - 1;
        if (hi[a] < lo[a]) return false;
    }
    for (int y = lo[1]; y <= hi[1]; y++)
        for (int z = lo[2]; z <= hi[2]; z++)
            for (int x = lo[0]; x <= hi[0]; x++)
                if (s->g->solid(s->g->user, x, y, z)) return true;
    return false;
}

bool collide_box_hits(const world *w, const double min[3], const double max[3])
{
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        if (!(max[a] > min[a])) return false; /* empty, or NaN */
        lo[a] = collide_cell_lo(min[a]);
        hi[a] = collide_cell_hi(max[a]);
    }
    return collide_cells_solid(w, NULL, lo, hi);
}

static void collide_bounds(const double p[3], const float size[3], double lo[3], double hi[3])
{
    lo[0] = p[0] - 0.5 * size[0], hi[0] = p[0] + 0.5 * size[0];
    lo[1] = p[1], hi[1] = p[1] + size[1];
    lo[2] = p[2] - 0.5 * size[2], hi[2] = p[2] + 0.5 * size[2];
}

/* Sweeps the box [lo, hi] along axis a by d and returns how far it may go.
 * It walks the voxel layers the leading face would enter, one by one, so no
 * speed can skip a layer. Layers the box already overlaps are not checked:
 * that is what lets a box stuck in a wall walk out of it. */
static double collide_sweep_axis(const collide_space *sp, const double lo[3], const double hi[3], int a, double d,
                                 double skin, bool *blocked)
{
    const int u = (a + 1) % 3, v = (a + 2) % 3;
    int clo[3], chi[3];
    clo[u] = collide_cell_lo(lo[u]), chi[u] = collide_cell_hi(hi[u]);
    clo[v] = collide_cell_lo(lo[v]), chi[v] = collide_cell_hi(hi[v]);
    *blocked = false;
    if (chi[u] < clo[u] || chi[v] < clo[v]) return d; /* no cross-section: a plane touches nothing */

    const int start = sp->start[a], end = sp->start[a] + sp->extent[a];
    /* Whether layers beyond the world on this axis are all air: true for the
     * sides and top, unless the box reaches below y = 0 where the endless
     * bedrock is (then the first layer blocks anyway). */
    const bool outside_is_air = a == 1 || clo[1] >= 0;

    if (d > 0) {
        const double face = hi[a], target = face + d;
        double kd = ceil(face);
        /* layers before the world's start on a side axis are air: skip them */
        if (a != 1 && kd < start && outside_is_air) kd = start;
        for (; kd < target; kd += 1) {
            if (kd >= end && outside_is_air) break;
            clo[a] = chi[a] = (int)collide_clampd(kd, -COLLIDE_COORD_LIMIT, COLLIDE_COORD_LIMIT);
            if (collide_space_solid(sp, clo, chi)) {
                *blocked = true;
                double stop = kd - skin;
                /* already within the skin of this face: stay, never back off */
                return stop > face ? stop - face : 0.0;
            }
        }
        return d;
    }
    const double face = lo[a], target = face + d;
    double kd = floor(face) - 1;
    if (kd > end - 1 && outside_is_air) kd = end - 1; /* above / beyond the world: air */
    for (; kd + 1 > target; kd -= 1) {
        if (a != 1 && kd < start && outside_is_air) break;
        clo[a] = chi[a] = (int)collide_clampd(kd, -COLLIDE_COORD_LIMIT, COLLIDE_COORD_LIMIT);
        if (collide_space_solid(sp, clo, chi)) {
            *blocked = true;
            double stop = kd + 1 + skin;
            return stop < face ? stop - face : 0.0;
        }
    }
    return d;
}

static bool collide_sane(double v) { return isfinite(v) && fabs(v) < COLLIDE_COORD_LIMIT; }

void collide_move(const world *w, double pos[3], const collide_box_desc *box, const float delta[3],
                  collide_result *out)
{
    collide_move_octree(w, NULL, pos, box, delta, out);
}

/* The move in the space's cells: positions, sizes and the skin are scaled
 * by `scale` cells per voxel on the way in and back on the way out (scale
 * 1 for voxels: exact, so the voxel results are what they always were). */
static void collide_move_space(const collide_space *sp, double scale, double pos[3], const collide_box_desc *box,
                               const float delta[3], collide_result *out)
{
    collide_result res = { 0 };
    const double skin = (box->skin > 0 ? box->skin : COLLIDE_SKIN) * scale;
    for (int a = 0; a < 3; a++) {
        if (!collide_sane(pos[a]) || !collide_sane(delta[a]) || !collide_sane(box->size[a]) || box->size[a] < 0) {
            if (out) *out = res;
            return;
        }
    }

    double p[3] = { pos[0] * scale, pos[1] * scale, pos[2] * scale }, lo[3], hi[3];
    const float size[3] = { (float)(box->size[0] * scale), (float)(box->size[1] * scale), (float)(box->size[2] * scale) };
    static const int order[3] = { 1, 0, 2 };
    for (int i = 0; i < 3; i++) {
        const int a = order[i];
        if (delta[a] == 0) continue;
        collide_bounds(p, size, lo, hi);
        const double moved = collide_sweep_axis(sp, lo, hi, a, delta[a] * scale, skin, &res.blocked[a]);
        p[a] += moved;
        res.moved[a] = (float)(moved / scale);
    }

    /* Ground contact is probed rather than taken from "y was blocked": a box
     * standing still (delta y = 0) is on the ground too. The probe slab is
     * twice the skin deep, so a box resting at the skin finds its floor. */
    if (delta[1] <= 0) {
        collide_bounds(p, size, lo, hi);
        int clo[3] = { collide_cell_lo(lo[0]), collide_cell_lo(p[1] - 2 * skin), collide_cell_lo(lo[2]) };
        int chi[3] = { collide_cell_hi(hi[0]), collide_cell_hi(p[1]), collide_cell_hi(hi[2]) };
        res.on_ground = collide_space_solid(sp, clo, chi);
    }
    for (int a = 0; a < 3; a++) pos[a] = p[a] / scale;
    if (out) *out = res;
}

void collide_move_octree(const world *w, const octree *occ, double pos[3], const collide_box_desc *box,
                         const float delta[3], collide_result *out)
{
    const collide_space sp = { w, occ, NULL, { world_x0(w), 0, world_z0(w) }, { w->sx, w->sy, w->sz } };
    collide_move_space(&sp, 1.0, pos, box, delta, out);
}

/* A grid's cells count from the window's first voxel (x0, 0, z0), so they
 * stay small wherever the window is: in the world's frame, 16 cells a
 * voxel at x = 10^7 are past COLLIDE_COORD_LIMIT (and x0 * 16 past an
 * int at 1.3 * 10^8). Positions are moved into that frame (x - x0, exact
 * for the integer x0) and back. */
static collide_space grid_space(const world *w, const collide_grid *g, double org[3])
{
    org[0] = world_x0(w), org[1] = 0, org[2] = world_z0(w);
    return (collide_space){ w, NULL, g, { 0, 0, 0 }, { w->sx * g->scale, w->sy * g->scale, w->sz * g->scale } };
}

bool collide_grid_box_hits(const world *w, const collide_grid *g, const double min[3], const double max[3])
{
    if (!g || g->scale < 1) return collide_box_hits(w, min, max);
    double org[3];
    const collide_space sp = grid_space(w, g, org);
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        if (!(max[a] > min[a])) return false;
        lo[a] = collide_cell_lo((min[a] - org[a]) * g->scale);
        hi[a] = collide_cell_hi((max[a] - org[a]) * g->scale);
    }
    return collide_space_solid(&sp, lo, hi);
}

void collide_move_grid(const world *w, const collide_grid *g, double pos[3], const collide_box_desc *box,
                       const float delta[3], collide_result *out)
{
    if (!g || g->scale < 1) {
        collide_move_octree(w, NULL, pos, box, delta, out);
        return;
    }
    double org[3];
    const collide_space sp = grid_space(w, g, org);
    double rel[3] = { pos[0] - org[0], pos[1] - org[1], pos[2] - org[2] };
    collide_move_space(&sp, (double)g->scale, rel, box, delta, out);
    for (int a = 0; a < 3; a++) pos[a] = rel[a] + org[a];
}

/* True once the ray can meet nothing solid any more: it is not descending
 * (so bedrock is out of reach) and it has left the world on a side it is
 * not heading back from. Without this a miss would walk to max_dist. */
static bool collide_ray_escaped(const world *w, const int v[3], const int step[3])
{
    if (step[1] < 0 || v[1] < 0) return false;
    if (v[1] >= w->sy) return true;
    const int x0 = world_x0(w), z0 = world_z0(w);
    if ((v[0] < x0 && step[0] <= 0) || (v[0] >= x0 + w->sx && step[0] >= 0)) return true;
    if ((v[2] < z0 && step[2] <= 0) || (v[2] >= z0 + w->sz && step[2] >= 0)) return true;
    return false;
}

bool collide_raycast(const world *w, const double origin[3], const float dir[3], float max_dist, int hit[3],
                     int normal[3], float *dist)
{
    double len2 = 0;
    for (int a = 0; a < 3; a++) {
        if (!collide_sane(origin[a]) || !isfinite(dir[a])) return false;
        len2 += (double)dir[a] * dir[a];
    }
    if (!(len2 > 0) || !(max_dist >= 0)) return false;
    const double len = sqrt(len2);
    const double max_t = max_dist > COLLIDE_RAY_LIMIT ? COLLIDE_RAY_LIMIT : max_dist;

    int v[3], step[3], n[3] = { 0, 0, 0 };
    double t_max[3], t_delta[3], t = 0;
    for (int a = 0; a < 3; a++) {
        const double o = origin[a], d = dir[a] / len;
        v[a] = (int)floor(o);
        /* t_max: distance to the first face crossed on this axis;
         * t_delta: distance between successive faces on it. */
        if (d > 0) {
            step[a] = 1, t_max[a] = (v[a] + 1 - o) / d, t_delta[a] = 1 / d;
        } else if (d < 0) {
            step[a] = -1, t_max[a] = (o - v[a]) / -d, t_delta[a] = -1 / d;
        } else {
            step[a] = 0, t_max[a] = INFINITY, t_delta[a] = INFINITY;
        }
    }

    for (;;) {
        if (collide_solid_at(w, v[0], v[1], v[2])) {
            if (hit) hit[0] = v[0], hit[1] = v[1], hit[2] = v[2];
            if (normal) normal[0] = n[0], normal[1] = n[1], normal[2] = n[2];
            if (dist) *dist = (float)t;
            return true;
        }
        if (collide_ray_escaped(w, v, step)) return false;
        int a = 0;
        if (t_max[1] < t_max[a]) a = 1;
        if (t_max[2] < t_max[a]) a = 2;
        if (t_max[a] > max_t) return false;
        t = t_max[a];
        v[a] += step[a];
        t_max[a] += t_delta[a];
        n[0] = n[1] = n[2] = 0;
        n[a] = -step[a];
    }
}
