#include "tool.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "physics/bodies.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

/* the same colours as app_tint_palette (app_cmds.c), in bytes */
const uint8_t tool_palette[TOOL_COLORS + 1][3] = {
    { 255, 255, 255 }, /* 0: untinted */
    { 230, 51, 38 },   /* 1 red, the paper's first tunnel colour */
    { 51, 191, 64 },   /* 2 green */
    { 51, 102, 242 },  /* 3 blue */
    { 242, 217, 51 },  /* 4 yellow */
    { 217, 26, 204 },  /* 5 magenta */
};

bool tool_init(tool *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->color = 1;
    t->material = MAT_STONE;
    t->reach = TOOL_DEFAULT_REACH;
    return tool_set_shape(t, TOOL_DEFAULT_SHAPE, TOOL_DEFAULT_SIZE, err, errlen);
}

void tool_free(tool *t)
{
    shape_free(&t->shape);
    octree_destroy(t->tree);
    octree_destroy(t->terrain);
    octree_destroy(t->next_tree);
    octree_pairs_free(&t->pairs);
    free(t->removed);
    memset(t, 0, sizeof *t);
}

static bool check_limits(const char *formula, int size, char *err, size_t errlen)
{
    if (size < 1 || size > TOOL_MAX_SIZE) {
        snprintf(err, errlen, "tool size %d is refused: it must be 1 to %d voxels a side (the limit)", size,
                 TOOL_MAX_SIZE);
        return false;
    }
    if (strlen(formula) >= TOOL_FORMULA_MAX) {
        snprintf(err, errlen, "formula too long (at most %d characters)", TOOL_FORMULA_MAX - 1);
        return false;
    }
    return true;
}

/* Builds the shape formula and size make: false, with why, when the limits
 * or the formula refuse it, or when it selects no voxel (cuts would do
 * nothing, silently). */
static bool build_shape(shape *s, const char *formula, int size, char *err, size_t errlen)
{
    if (!check_limits(formula, size, err, errlen)) return false;
    *s = (shape){ 0 };
    if (!shape_from_formula(s, formula, size, size, size, err, errlen)) return false;
    if (s->count == 0) {
        shape_free(s);
        snprintf(err, errlen, "shape is empty at size %d (the formula selects no voxel)", size);
        return false;
    }
    return true;
}

bool tool_check_shape(const char *formula, int size, char *err, size_t errlen)
{
    /* an empty shape is only found by evaluating it: at most 64^3 voxels, milliseconds */
    shape s;
    if (!build_shape(&s, formula, size, err, errlen)) return false;
    shape_free(&s);
    return true;
}

bool tool_set_shape(tool *t, const char *formula, int size, char *err, size_t errlen)
{
    shape s;
    if (!build_shape(&s, formula, size, err, errlen)) return false;
    octree *tree = octree_from_dense(s.vox, s.sx, s.sy, s.sz);
    if (!tree) {
        shape_free(&s);
        snprintf(err, errlen, "out of memory for the tool's octree");
        return false;
    }
    shape_free(&t->shape);
    octree_destroy(t->tree);
    t->shape = s;
    t->tree = tree;
    t->size = size;
    t->shape_version++;
    snprintf(t->formula, sizeof t->formula, "%s", formula);
    t->mesh[0] = 0;
    return true;
}

bool tool_set_shape_voxels(tool *t, shape *s, const char *label, char *err, size_t errlen)
{
    int big = s->sx > s->sy ? (s->sx > s->sz ? s->sx : s->sz) : (s->sy > s->sz ? s->sy : s->sz);
    if (s->sx < 1 || s->sy < 1 || s->sz < 1 || big > TOOL_MAX_SIZE) {
        snprintf(err, errlen, "tool shape %dx%dx%d is refused: 1 to %d voxels a side (the limit)", s->sx, s->sy, s->sz,
                 TOOL_MAX_SIZE);
        return false;
    }
    octree *tree = octree_from_dense(s->vox, s->sx, s->sy, s->sz);
    if (!tree) {
        snprintf(err, errlen, "out of memory for the tool's octree");
        return false;
    }
    shape_free(&t->shape);
    octree_destroy(t->tree);
    t->shape = *s;
    memset(s, 0, sizeof *s);
    t->tree = tree;
    t->size = big;
    t->shape_version++;
    snprintf(t->mesh, sizeof t->mesh, "%s", label);
    return true;
}

/* The box of columns within terrain_radius of (x, z), chunk aligned. */
static void box_around(const tool *t, double x, double z, int lo[3], int hi[3])
{
    const int r = t->terrain_radius;
    lo[0] = ((int)floor(x) - r) & ~CHUNK_MASK, lo[1] = 0, lo[2] = ((int)floor(z) - r) & ~CHUNK_MASK;
    hi[0] = (((int)floor(x) + r) | CHUNK_MASK) + 1, hi[1] = 0, hi[2] = (((int)floor(z) + r) | CHUNK_MASK) + 1;
}

static void drop_next(tool *t)
{
    octree_destroy(t->next_tree);
    t->next_tree = NULL;
    t->next_of = NULL;
}

/* Voxels in [lo, hi) changed: the next tree, if it read them, is stale. */
static void next_touched(tool *t, const int lo[3], const int hi[3])
{
    if (t->next_tree && lo[0] < t->next_hi[0] && hi[0] > t->next_lo[0] && lo[2] < t->next_hi[2] &&
        hi[2] > t->next_lo[2])
        drop_next(t);
}

static bool bind_at(tool *t, const world *w, const double at[3])
{
    drop_next(t);
    octree_destroy(t->terrain);
    t->terrain = NULL;
    if (w && t->terrain_radius > 0 && at) {
        box_around(t, at[0], at[2], t->box_lo, t->box_hi);
        t->terrain = octree_from_world_box(w, t->box_lo, t->box_hi);
    } else if (w) {
        t->terrain = octree_from_world(w);
    }
    t->terrain_of = t->terrain ? w : NULL;
    return t->terrain != NULL;
}

bool tool_bind_world(tool *t, const world *w) { return bind_at(t, w, NULL); }

void tool_release_world(tool *t)
{
    drop_next(t);
    octree_destroy(t->terrain);
    t->terrain = NULL;
    t->terrain_of = NULL;
}

/* The tree covers the window it was built for: a streamed world's window
 * that moved needs a new one. With a radius, the tree follows the eye
 * instead (the window always holds more than the radius around it). */
static bool bound_to(const tool *t, const world *w)
{
    if (!t->terrain || t->terrain_of != w) return false;
    if (t->terrain_radius > 0) return true;
    int org[3];
    octree_origin(t->terrain, org);
    return org[0] == world_x0(w) && org[2] == world_z0(w);
}

/* Columns of the next tree read a frame: a box of 9 x 9 columns is read
 * in 7 frames, while the eye crosses a quarter radius (19 frames at 100
 * voxels a second). */
#define TOOL_TREE_COLUMNS 12

/* Whether (x, z) of `at` is at least m inside the box's sides. */
static bool inside_by(const int lo[3], const int hi[3], const double at[3], double m)
{
    return at[0] - m >= lo[0] && at[0] + m <= hi[0] && at[2] - m >= lo[2] && at[2] + m <= hi[2];
}

/* With a radius the tree follows the eye. Once the eye is less than 3/4 of
 * a radius from the box's side, the next tree (around the eye) is read a
 * few columns a frame and replaces the tree when done; only if the eye
 * comes within half a radius of the side first is the rest read at once
 * (the old rule, where the whole box was read on one frame). */
static bool ensure_bound_at(tool *t, const world *w, const double at[3])
{
    if (!w) return false;
    if (bound_to(t, w)) {
        if (t->terrain_radius <= 0 || !at) return true;
        const double r = t->terrain_radius;
        if (inside_by(t->box_lo, t->box_hi, at, 0.75 * r)) return true;
        if (t->next_tree && t->next_of != w) drop_next(t);
        if (!t->next_tree) {
            box_around(t, at[0], at[2], t->next_lo, t->next_hi);
            t->next_tree = octree_box_begin(w, t->next_lo, t->next_hi);
            t->next_of = t->next_tree ? w : NULL;
            t->next_col = 0;
        }
        bool must = !inside_by(t->box_lo, t->box_hi, at, 0.5 * r);
        if (t->next_tree && octree_box_fill(t->next_tree, w, &t->next_col, must ? INT_MAX : TOOL_TREE_COLUMNS)) {
            if (inside_by(t->next_lo, t->next_hi, at, 0.5 * r)) {
                octree_destroy(t->terrain);
                t->terrain = t->next_tree;
                memcpy(t->box_lo, t->next_lo, sizeof t->box_lo);
                memcpy(t->box_hi, t->next_hi, sizeof t->box_hi);
                t->next_tree = NULL, t->next_of = NULL;
                return true;
            }
            drop_next(t); /* the eye outran it */
            must = true;
        }
        if (!must) return true;
    }
    return bind_at(t, w, at);
}

void tool_world_edited(tool *t, const world *w, const int lo[3], const int hi[3])
{
    next_touched(t, lo, hi);
    if (bound_to(t, w)) octree_sync_world(t->terrain, w, lo, hi);
}

const octree *tool_terrain(const tool *t) { return t->terrain; }

const octree *tool_terrain_of(const tool *t, const world *w) { return bound_to(t, w) ? t->terrain : NULL; }

const octree *tool_terrain_at(tool *t, const world *w, const double at[3])
{
    return ensure_bound_at(t, w, at) ? t->terrain : NULL;
}

void tool_bind_bodies(tool *t, bodies *set, const body_density *dens)
{
    t->bodies = set && dens ? set : NULL;
    t->dens = t->bodies ? dens : NULL;
}

bool tool_place(tool *t, const tool_view *v, octree_pose *out)
{
    const float d2r = 0.017453292519943295f;
    float yaw = v->yaw * d2r, pitch = v->pitch * d2r;
    float fwd[3] = { sinf(yaw) * cosf(pitch), sinf(pitch), -cosf(yaw) * cosf(pitch) };
    float d = t->reach, hit_d;
    bool hit = ensure_bound_at(t, v->w, v->eye) && octree_raycast(t->terrain, v->eye, fwd, t->reach, NULL, NULL, &hit_d);
    if (hit) d = hit_d;
    /* a body in front of the terrain: the tool eats into the body */
    if (t->bodies && bodies_raycast(t->bodies, v->eye, fwd, d, &hit_d) >= 0) hit = true, d = hit_d;
    /* The tool turns with the camera, so the eye lies on its local z axis:
     * beyond half the grid's depth it is outside the tool. Half a depth
     * more keeps the tool from filling the whole view when the player looks
     * at nearby ground (an 8^3 ball then spans ~75 degrees, not ~125). Near
     * ground is still cut: the tool reaches under it, so digging down works. */
    float min_d = (float)t->shape.sz * 0.75f + 0.5f;
    if (d < min_d) d = min_d;
    const double pos[3] = { v->eye[0] + fwd[0] * d, v->eye[1] + fwd[1] * d, v->eye[2] + fwd[2] * d };
    octree_pose_from_yaw_pitch(out, v->yaw, v->pitch, (const float[3]){ 0, 0, 0 });
    octree_pose_place(out, pos); /* an integer frame and a small float: exact far out */
    return hit;
}

int tool_cut(tool *t, world *w, const octree_pose *pose)
{
    t->last_removed = t->last_tinted = t->last_removed_bodies = 0;
    memset(t->last_removed_mat, 0, sizeof t->last_removed_mat);
    double at[3];
    octree_pose_world(pose, at);
    if (!ensure_bound_at(t, w, at)) return 0;
    octree_intersect(t->terrain, t->tree, pose, &t->pairs);
    if (t->pairs.count * 4 > t->removed_cap) {
        size_t cap = t->pairs.count * 4;
        int *r = realloc(t->removed, cap * sizeof *r);
        if (!r) return 0;
        t->removed = r;
        t->removed_cap = cap;
    }
    /* The colour goes into the carved cell (world.h): every face that looks
     * into it was hidden by the removed voxel, so it is newly exposed, and
     * faces exposed earlier (by other cuts, into other cells) keep theirs.
     * A see-through voxel (muskeg) hid no other material's faces, so the
     * cell it leaves stays untinted: what showed through it keeps its colour. */
    int n = 0;
    for (size_t i = 0; i < t->pairs.count; i++) {
        const int *p = t->pairs.v[i].t;
        uint8_t m = world_get(w, p[0], p[1], p[2]);
        /* several tool voxels may claim one terrain voxel only at rounding edges: the first wins */
        if (m == MAT_AIR || m == MAT_BEDROCK) continue;
        world_set(w, p[0], p[1], p[2], MAT_AIR);
        octree_set(t->terrain, p[0], p[1], p[2], false);
        int *r = &t->removed[4 * n++];
        r[0] = p[0], r[1] = p[1], r[2] = p[2], r[3] = m;
        t->last_removed_mat[m]++;
    }
    /* Paint a carved cell only where a face now looks into it: a cell deep
     * inside the cut shows nothing, and a fill next to it later is not a
     * face a cut exposed. last_tinted counts the faces painted. */
    int tinted = 0;
    int lo[3] = { INT_MAX, INT_MAX, INT_MAX }, hi[3] = { INT_MIN, INT_MIN, INT_MIN };
    for (int i = 0; i < n; i++) {
        const int *r = &t->removed[4 * i];
        for (int k = 0; k < 3; k++) { /* the removed voxel and the neighbours whose faces it shows */
            if (r[k] - 1 < lo[k]) lo[k] = r[k] - 1;
            if (r[k] + 2 > hi[k]) hi[k] = r[k] + 2;
        }
        if (material_get((uint8_t)r[3])->render_neighbors) continue;
        int faces = 0;
        for (int f = 0; f < FACE_COUNT; f++)
            faces += material_face_visible(world_get(w, r[0] + face_normal[f][0], r[1] + face_normal[f][1],
                                                     r[2] + face_normal[f][2]),
                                           MAT_AIR);
        if (faces) world_set_tint(w, r[0], r[1], r[2], (uint8_t)t->color);
        tinted += faces;
    }
    if (n) next_touched(t, lo, hi);
    if (n && t->edited) t->edited(t->edited_user, lo, hi);
    /* the bodies in flight, by the same test (their own pieces, no world edit) */
    if (t->bodies)
        t->last_removed_bodies =
            (int)bodies_cut(t->bodies, t->tree, pose, t->dens, (uint8_t)t->color, t->last_removed_mat, &t->pairs);
    t->last_removed = n + t->last_removed_bodies;
    t->last_tinted = tinted;
    return t->last_removed;
}

/* The box of voxels a tool at `pose` can cover: its bounding sphere,
 * clamped to the world's window (wherever a streamed one is). */
static void tool_reach_box(const tool *t, const world *w, const octree_pose *pose, int lo[3], int hi[3])
{
    const shape *s = &t->shape;
    double at[3];
    octree_pose_world(pose, at);
    float rad = sqrtf((float)(s->sx * s->sx + s->sy * s->sy + s->sz * s->sz)) * 0.5f + 1.f;
    const int start[3] = { world_x0(w), 0, world_z0(w) }, size[3] = { w->sx, w->sy, w->sz };
    for (int i = 0; i < 3; i++) {
        /* clamp while still double: a pose far outside the world (tp 3e9 ...)
         * must not reach an int conversion out of range */
        const double a = start[i], b = (double)start[i] + size[i];
        double l = floor(at[i] - rad), h = ceil(at[i] + rad);
        lo[i] = !(l > a) ? start[i] : l > b ? start[i] + size[i] : (int)l;
        hi[i] = !(h > a) ? start[i] : h > b ? start[i] + size[i] : (int)h;
    }
}

/* Whether a fill at `pose` puts material into air voxel (x, y, z): a
 * generated column, outside keep_out, its centre in a tool voxel. */
static bool tool_fills(const tool *t, const world *w, const octree_pose *pose, const tool_box *keep_out, int x, int y,
                       int z)
{
    const shape *s = &t->shape;
    const float pivot[3] = { s->sx * 0.5f, s->sy * 0.5f, s->sz * 0.5f };
    if (world_get(w, x, y, z) != MAT_AIR) return false;
    /* a column not generated yet reads as air, but is not: its
     * terrain would land over the fill, or a fill stored
     * before it came would land over its terrain as a hole */
    if (!world_voxel_ready(w, x, z)) return false;
    if (keep_out && x + 1 > keep_out->lo[0] && x < keep_out->hi[0] && y + 1 > keep_out->lo[1] &&
        y < keep_out->hi[1] && z + 1 > keep_out->lo[2] && z < keep_out->hi[2])
        return false;
    /* which tool voxel holds this centre: invert the pose, then confirm with
     * the cut's own test (neighbours too, for centres on a cell boundary) */
    /* in the pose's frame (octree.h): small, exact far out */
    float d[3] = { (float)(x - pose->org[0]) + 0.5f - pose->pos[0], (float)(y - pose->org[1]) + 0.5f - pose->pos[1],
                   (float)(z - pose->org[2]) + 0.5f - pose->pos[2] };
    int c[3];
    bool edge = false;
    for (int i = 0; i < 3; i++) {
        float l = pose->rot[0][i] * d[0] + pose->rot[1][i] * d[1] + pose->rot[2][i] * d[2] + pivot[i];
        c[i] = (int)floorf(l);
        float fr = l - floorf(l);
        edge |= fr < 1e-3f || fr > 1.f - 1e-3f;
    }
    const int t3[3] = { x, y, z };
    for (int k = 0; k < (edge ? 27 : 1); k++) {
        int cc[3] = { c[0] + (edge ? k % 3 - 1 : 0), c[1] + (edge ? k / 3 % 3 - 1 : 0), c[2] + (edge ? k / 9 - 1 : 0) };
        if (shape_get(s, cc[0], cc[1], cc[2]) && octree_voxel_pair_hit(pose, pivot, t3, cc)) return true;
    }
    return false;
}

int tool_fill(tool *t, world *w, const octree_pose *pose, uint8_t mat, const tool_box *keep_out)
{
    t->last_filled = 0;
    double at[3];
    octree_pose_world(pose, at);
    if (!ensure_bound_at(t, w, at) || mat == MAT_AIR || mat >= MAT_COUNT) return 0;
    int lo[3], hi[3];
    tool_reach_box(t, w, pose, lo, hi);
    int n = 0;
    int elo[3] = { INT_MAX, INT_MAX, INT_MAX }, ehi[3] = { INT_MIN, INT_MIN, INT_MIN };
    for (int y = lo[1]; y < hi[1]; y++)
        for (int z = lo[2]; z < hi[2]; z++)
            for (int x = lo[0]; x < hi[0]; x++) {
                if (!tool_fills(t, w, pose, keep_out, x, y, z)) continue;
                world_set(w, x, y, z, mat); /* clears the cell's tint */
                octree_set(t->terrain, x, y, z, true);
                const int p[3] = { x, y, z };
                for (int k = 0; k < 3; k++) {
                    if (p[k] < elo[k]) elo[k] = p[k];
                    if (p[k] + 1 > ehi[k]) ehi[k] = p[k] + 1;
                }
                n++;
            }
    t->last_filled = n;
    if (n) next_touched(t, elo, ehi);
    if (n && t->edited) t->edited(t->edited_user, elo, ehi);
    return n;
}

/* ---- preview: what a cut or fill would change, without changing it ---- */

static bool mask_reset(tool_mask *m, const int lo[3], const int hi[3])
{
    size_t n = 1;
    for (int k = 0; k < 3; k++) {
        m->lo[k] = lo[k];
        m->size[k] = hi[k] > lo[k] ? hi[k] - lo[k] : 0;
        n *= (size_t)m->size[k];
    }
    m->count = 0;
    if (n > m->cap) {
        uint8_t *v = realloc(m->v, n);
        if (!v) {
            m->size[0] = m->size[1] = m->size[2] = 0;
            return false;
        }
        m->v = v;
        m->cap = n;
    }
    if (n) memset(m->v, 0, n);
    return true;
}

static void mask_mark(tool_mask *m, int x, int y, int z)
{
    x -= m->lo[0], y -= m->lo[1], z -= m->lo[2];
    uint8_t *c = &m->v[(size_t)x + (size_t)m->size[0] * ((size_t)z + (size_t)m->size[2] * (size_t)y)];
    m->count += *c != TOOL_MASK_IN;
    *c = TOOL_MASK_IN;
}

bool tool_preview_cut(tool *t, const world *w, const octree_pose *pose, tool_mask *out)
{
    double at[3];
    octree_pose_world(pose, at);
    mask_reset(out, (const int[3]){ 0, 0, 0 }, (const int[3]){ 0, 0, 0 });
    if (!ensure_bound_at(t, w, at)) return false;
    octree_intersect(t->terrain, t->tree, pose, &t->pairs);
    int lo[3] = { INT_MAX, INT_MAX, INT_MAX }, hi[3] = { INT_MIN, INT_MIN, INT_MIN };
    size_t n = 0;
    for (size_t i = 0; i < t->pairs.count; i++) {
        const int *p = t->pairs.v[i].t;
        uint8_t m = world_get(w, p[0], p[1], p[2]);
        if (m == MAT_AIR || m == MAT_BEDROCK) continue; /* what tool_cut leaves */
        for (int k = 0; k < 3; k++) {
            if (p[k] < lo[k]) lo[k] = p[k];
            if (p[k] + 1 > hi[k]) hi[k] = p[k] + 1;
        }
        n++;
    }
    if (!n || !mask_reset(out, lo, hi)) return false;
    for (size_t i = 0; i < t->pairs.count; i++) {
        const int *p = t->pairs.v[i].t;
        uint8_t m = world_get(w, p[0], p[1], p[2]);
        if (m != MAT_AIR && m != MAT_BEDROCK) mask_mark(out, p[0], p[1], p[2]);
    }
    /* what stays solid around them: a preview finds which voxel a surface is of */
    uint8_t *c = out->v;
    for (int y = lo[1]; y < hi[1]; y++)
        for (int z = lo[2]; z < hi[2]; z++)
            for (int x = lo[0]; x < hi[0]; x++, c++)
                if (!*c && material_get(world_get(w, x, y, z))->solid) *c = TOOL_MASK_SOLID;
    return true;
}

bool tool_preview_fill(tool *t, const world *w, const octree_pose *pose, const tool_box *keep_out, tool_mask *out)
{
    double at[3];
    octree_pose_world(pose, at);
    mask_reset(out, (const int[3]){ 0, 0, 0 }, (const int[3]){ 0, 0, 0 });
    if (!ensure_bound_at(t, w, at)) return false;
    int lo[3], hi[3];
    tool_reach_box(t, w, pose, lo, hi);
    if (!mask_reset(out, lo, hi)) return false;
    for (int y = lo[1]; y < hi[1]; y++)
        for (int z = lo[2]; z < hi[2]; z++)
            for (int x = lo[0]; x < hi[0]; x++)
                if (tool_fills(t, w, pose, keep_out, x, y, z)) mask_mark(out, x, y, z);
    return out->count > 0;
}

void tool_mask_free(tool_mask *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* ---- console ---- */

static const char *g_material_names[MAT_COUNT + 1];

bool tool_material_placeable(int id)
{
    return id > MAT_AIR && id < MAT_COUNT && id != MAT_NULL && id != MAT_PLACEHOLDER;
}

static bool get_view(tool *t, tool_view *v)
{
    memset(v, 0, sizeof *v);
    if (!t->view || !t->view(t->view_user, v) || !v->w) {
        log_error("no world to edit yet");
        return false;
    }
    return true;
}

/* Explicit X Y Z: the tool unrotated with its centre there (scripts and
 * tests); none: where the view puts it. */
static bool pose_from_args(tool *t, const tool_view *v, int argc, char **argv, octree_pose *pose)
{
    if (argc == 0) {
        tool_place(t, v, pose);
        return true;
    }
    if (argc != 3) return false;
    double pos[3];
    for (int i = 0; i < 3; i++) {
        char *end;
        double d = strtod(argv[i], &end);
        /* anywhere in the 32-bit world (a streamed world reaches it) */
        if (end == argv[i] || *end || !isfinite(d) || fabs(d) > 2.0e9) {
            log_error("'%s' is not a coordinate", argv[i]);
            return false;
        }
        pos[i] = d;
    }
    octree_pose_identity(pose, (const float[3]){ 0, 0, 0 });
    octree_pose_place(pose, pos);
    return true;
}

static int cmd_cut(void *user, int argc, char **argv)
{
    tool *t = user;
    tool_view v;
    octree_pose pose;
    if (argc != 1 && argc != 4) { log_error("usage: cut [X Y Z]"); return 1; }
    if (!get_view(t, &v) || !pose_from_args(t, &v, argc - 1, argv + 1, &pose)) return 1;
    tool_cut(t, v.w, &pose);
    log_out("cut_voxels=%d", t->last_removed);
    log_out("cut_body_voxels=%d", t->last_removed_bodies);
    for (int m = 0; m < MAT_COUNT; m++) /* what a script checks conservation against */
        if (t->last_removed_mat[m]) log_out("cut.%s=%ld", material_table[m].name, t->last_removed_mat[m]);
    log_out("exposed_faces=%d", t->last_tinted);
    return 0;
}

static int cmd_fill(void *user, int argc, char **argv)
{
    tool *t = user;
    tool_view v;
    octree_pose pose;
    uint8_t m = t->material;
    int first = 1;
    if (argc == 2 || argc == 5) {
        int id = material_find(argv[1]);
        if (!tool_material_placeable(id)) {
            /* null and structure_placeholder are generation's internals, refused as tool.material refuses them */
            log_error("'%s' is not a material fill can place (see 'help tool.material')", argv[1]);
            return 1;
        }
        m = (uint8_t)id;
        first = 2;
    } else if (argc != 1 && argc != 4) {
        log_error("usage: fill [MATERIAL] [X Y Z]");
        return 1;
    }
    if (!get_view(t, &v) || !pose_from_args(t, &v, argc - first, argv + first, &pose)) return 1;
    tool_fill(t, v.w, &pose, m, v.has_body ? &v.body : NULL);
    log_out("fill_voxels=%d", t->last_filled);
    return 0;
}

static int cmd_info(void *user, int argc, char **argv)
{
    (void)argc, (void)argv;
    tool *t = user;
    char post[1024];
    expr_to_postfix(&t->shape.prog, post, sizeof post);
    log_out("tool_voxels=%ld", t->shape.count);
    log_out("tool_size=%d", t->size);
    log_out("tool_shape=%s", t->mesh[0] ? t->mesh : t->formula);
    log_out("tool_syntax=%s", t->shape.prog.syntax == EXPR_POSTFIX ? "postfix" : "infix");
    log_out("tool_postfix=%s", post);
    log_out("tool_color=%d", t->color);
    return 0;
}

/* The veto on tool.shape and tool.size: the proposed pair must build a
 * shape, so a typo is refused by 'set' itself with its column, and the
 * cvar never holds a formula the tool is not using. */
static bool validate_shape(const cvar *proposed, char *err, size_t errlen, void *user)
{
    tool *t = user;
    bool is_size = strcmp(proposed->d.name, "tool.size") == 0;
    return tool_check_shape(is_size ? t->formula : proposed->str, is_size ? proposed->i : t->size, err, errlen);
}

static void on_shape(cvar *c, void *user)
{
    tool *t = user;
    cvar *size = cvar_find("tool.size"), *formula = cvar_find("tool.shape");
    char err[256];
    if (!tool_set_shape(t, formula ? formula->str : t->formula, size ? size->i : t->size, err, sizeof err))
        log_error("%s: %s (the old shape stays)", c->d.name, err); /* validated, so only out of memory */
}

static void on_simple(cvar *c, void *user)
{
    tool *t = user;
    if (strcmp(c->d.name, "tool.color") == 0) t->color = c->i;
    else if (strcmp(c->d.name, "tool.reach") == 0) t->reach = c->f;
    else if (strcmp(c->d.name, "tool.material") == 0) {
        int id = material_find(c->str);
        if (id > MAT_AIR) t->material = (uint8_t)id;
    }
}

void tool_register(tool *t, tool_view_fn view, void *user)
{
    t->view = view;
    t->view_user = user;
    int n = 0;
    for (int i = 0; i < MAT_COUNT; i++)
        if (tool_material_placeable(i)) g_material_names[n++] = material_table[i].name;
    g_material_names[n] = NULL;
    char size_def[16];
    snprintf(size_def, sizeof size_def, "%d", TOOL_DEFAULT_SIZE);
    const cvar_desc vars[] = {
        { "tool.color", "cutting tool colour 1-5 (keys 1-5): the tint of faces a cut exposes", CVAR_INT, CVAR_ARCHIVE,
          "1", 1, TOOL_COLORS, NULL, on_simple, t },
        { "tool.shape", "cutting tool formula, postfix or infix (seed 003), e.g. 'sr < r'", CVAR_STRING, CVAR_ARCHIVE,
          TOOL_DEFAULT_SHAPE, 0, 0, NULL, on_shape, t, validate_shape },
        { "tool.size", "cutting tool grid side in voxels", CVAR_INT, CVAR_ARCHIVE, size_def, 1, TOOL_MAX_SIZE, NULL,
          on_shape, t, validate_shape },
        { "tool.reach", "farthest the cutting tool sits from the eye, in voxels", CVAR_FLOAT, CVAR_ARCHIVE, TOOL_DEFAULT_REACH_STR, 1, 64,
          NULL, on_simple, t },
        { "tool.material", "what 'fill' and the right button put down", CVAR_ENUM, CVAR_ARCHIVE, "stone", 0, 0,
          g_material_names, on_simple, t },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        cvar *c = cvar_register(&vars[i]);
        /* a config file may have set them before the tool existed: adopt those values */
        if (c && c->d.on_change) c->d.on_change(c, t);
    }
    const cmd_desc cmds[] = {
        { "cut", "[X Y Z]", "cut with the tool where the view puts it, or centred at X Y Z (unrotated)", cmd_cut, t, NULL, CMD_NEEDS_WORLD },
        { "fill", "[MATERIAL] [X Y Z]", "fill the tool's shape with tool.material (or MATERIAL)", cmd_fill, t, NULL,
          CMD_NEEDS_WORLD },
        { "tool.info", "", "print the cutting tool's voxel count, size and formula", cmd_info, t },
    };
    cmd_register_table(cmds, (int)(sizeof cmds / sizeof cmds[0]));
}
