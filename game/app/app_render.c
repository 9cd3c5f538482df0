#include "app_render.h"

#include <glad/gl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app_light.h"
#include "app_stream.h"
#include "core/log.h"
#include "core/timer.h"
#include "gfx/crosshair.h"
#include "gfx/renderer.h"
#include "gfx/shader.h"
#include "ui/cmd.h"

typedef struct render_comp {
    app *a;
    cvar *mode_cv;
    cvar *budget_cv;
    const render_mode *mode; /* the mode inst belongs to */
    void *inst;
    bool gl;                 /* gfx_init ran: modes may be created */
    int cx, cy, cz;          /* the grid inst was reset for */
    int *dirty;              /* scratch: dirty chunk indices */
    struct mesh_key { float key; int index; } *order; /* scratch: the budget's order */
    render_item *visible;    /* scratch: the visible set */
    int visible_n;           /* its size in the last frame drawn */
    /* per chunk slot, what the mode last built there: from which column
     * (x INT_MIN: nothing since the mode was reset), and whether that
     * column was ready (a mesh of it, not of nothing).
     * - A streamed slot is drawn only while that is the column in it now,
     *   so an old column's mesh is never drawn at its successor's place,
     *   whatever the budget deferred or a failed build left.
     * - An empty column's chunk is built (as nothing) only over a ready
     *   column's mesh, once: its neighbours' arrivals mark it dirty again
     *   and again, and rebuilding nothing took two thirds of a flight's
     *   builds. */
    struct slot_owner { int x, z; bool ready; } *owner;
    unsigned char *current; /* scratch: owner is the column there now */
    int cap;
    crosshair *xh;
    render_occlusion *occ;
} render_comp;

static render_comp *state(const app *a) { return component_state(&a->comps, app_render_component.name); }

static bool size_for(render_comp *r, const world *w)
{
    if (w->chunk_count <= r->cap) return true;
    int *d = realloc(r->dirty, sizeof *d * (size_t)w->chunk_count);
    if (d) r->dirty = d;
    render_item *v = realloc(r->visible, sizeof *v * (size_t)w->chunk_count);
    if (v) r->visible = v;
    struct mesh_key *o = realloc(r->order, sizeof *o * (size_t)w->chunk_count);
    if (o) r->order = o;
    struct slot_owner *own = realloc(r->owner, sizeof *own * (size_t)w->chunk_count);
    if (own) r->owner = own;
    unsigned char *cur = realloc(r->current, (size_t)w->chunk_count);
    if (cur) r->current = cur;
    if (!d || !v || !o || !own || !cur) return false;
    r->cap = w->chunk_count;
    return true;
}

/* The mode was reset: it holds nothing, from no column. */
static void forget_built(render_comp *r)
{
    for (int i = 0; r->owner && i < r->cap; i++) r->owner[i] = (struct slot_owner){ INT_MIN, INT_MIN, false };
}

/* Makes `m` the drawing mode: a new instance, sized for the world, every
 * chunk to be built again. The world, the player and the edits stay. */
static bool switch_mode(render_comp *r, const render_mode *m)
{
    char err[1024];
    void *inst = m->create(err, sizeof err);
    if (!inst) {
        log_error("render.mode %s: %s", m->name, err);
        return false;
    }
    if (r->inst) r->mode->destroy(r->inst);
    r->mode = m, r->inst = inst;
    r->cx = r->cy = r->cz = 0;
    app *a = r->a;
    if (a->w) {
        m->reset(inst, a->w->cx, a->w->cy, a->w->cz);
        forget_built(r);
        r->cx = a->w->cx, r->cy = a->w->cy, r->cz = a->w->cz;
        world_mark_all_dirty(a->w);
    }
    a->render_mode = m->name;
    return true;
}

static bool check_mode(const cvar *proposed, char *err, size_t errlen, void *user)
{
    if (render_mode_find(proposed->str)) return true;
    int n = snprintf(err, errlen, "unknown render mode '%s' (one of:", proposed->str);
    for (int i = 0; i < render_mode_count() && n > 0 && (size_t)n < errlen; i++)
        n += snprintf(err + n, errlen - (size_t)n, " %s", render_mode_at(i)->name);
    if (n > 0 && (size_t)n < errlen) snprintf(err + n, errlen - (size_t)n, ")");
    return false;
}

static void on_mode(cvar *c, void *user)
{
    render_comp *r = user;
    const render_mode *m = render_mode_find(c->str);
    if (!r->gl || !m || m == r->mode) return; /* before GL: gfx_init picks it up */
    if (!switch_mode(r, m) && r->mode) cvar_set_by_name(c->d.name, r->mode->name); /* say what is drawn */
}

static int c_cycle(void *u, int argc, char **argv)
{
    render_comp *r = u;
    const render_mode *next = render_mode_next(render_mode_find(r->mode_cv->str));
    if (!next) return 1;
    if (!cvar_set_by_name(r->mode_cv->d.name, next->name)) return 1;
    log_info("render.mode %s", r->mode_cv->str);
    return 0;
}

static void *render_init(app *a)
{
    render_comp *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->a = a;
    render_mode_register(&renderer_blocks_mode);
    cvar_desc d = { "render.mode", "how the world is drawn: blocks (more modes register themselves; F8 cycles)",
                    CVAR_STRING, CVAR_ARCHIVE, "blocks", 0, 0, NULL, on_mode, r, check_mode };
    r->mode_cv = cvar_register(&d);
    const cvar_desc more[] = {
        { "render.lod_distance", "chunks farther than this (voxels) are drawn with their 2x coarser mesh; 0 = never",
          CVAR_FLOAT, CVAR_ARCHIVE, "64", 0, 4096 },
        { "render.face_ranges", "leave out chunk faces that point away from the eye (same picture, fewer triangles)",
          CVAR_BOOL, 0, "1" },
        { "render.occlusion", "skip chunks hidden behind what is already drawn (same picture, fewer triangles)",
          CVAR_BOOL, CVAR_ARCHIVE, "1" },
        { "render.occlusion_near", "occlusion culling: chunks nearer than this (voxels) are drawn first, then the "
          "depth is read back and the rest tested against it",
          CVAR_FLOAT, 0, "48", 8, 1024 },
        { "render.occlusion_rings", "occlusion culling: depth read-backs per frame at most, each ring twice as far",
          CVAR_INT, 0, "3", 1, 8 },
        { "render.occlusion_gpu", "occlusion culling: 0 = the whole depth read back and reduced to tiles on the CPU, "
          "1 = reduced by a compute shader (GL 4.3) and only the tiles read back, 2 = whichever its first reads "
          "measure faster here",
          CVAR_INT, CVAR_ARCHIVE, "2", 0, 2 },
        { "render.occlusion_adaptive", "occlusion culling: a ring whose depth read hid little reads again only now "
          "and then (2, 4, ... then every 128 frames) until one pays; 0 = every ring reads every frame",
          CVAR_BOOL, 0, "1" },
        { "render.occlusion_judge", "occlusion culling: now and then time frames with the depth reads and without, "
          "and keep the faster for 10 s (the reads cost more than they hide in open views on some machines); "
          "0 = always read",
          CVAR_BOOL, 0, "1" },
        { "render.gpu_cull", "every mode's opaque pass: 0 = culled against the depth read back (one draw a chunk), "
          "1 = culled by a compute shader and drawn by a few indirect multi-draws (no read-back; GL 4.3), "
          "2 = whichever the frames' times favour here (said once)",
          CVAR_INT, CVAR_ARCHIVE, "2", 0, 2 },
        { "render.upload_budget", "blocks and smooth modes (and the enhanced mode's blocks): KiB of chunk meshes landed in the GPU's arena a frame at most, the "
          "rest the next frames; 0 = all at once",
          CVAR_INT, CVAR_ARCHIVE, "4096", 0, 1048576 },
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) cvar_register(&more[i]);
    const cvar_desc budget = { "stream.upload_budget",
                               "streamed world: chunks meshed and uploaded a frame at most, nearest first (those "
                               "within 0.75 x view.distance in view always); 0 = every dirty chunk at once",
                               CVAR_INT, CVAR_ARCHIVE, "12", 0, 4096 };
    r->budget_cv = cvar_register(&budget);
    const cmd_desc table[] = {
        { "render.cycle", "", "switch to the next render mode (render.mode); the world stays", c_cycle, r },
    };
    cmd_register_table(table, 1);
    return r;
}

static bool render_gfx_init(void *self, app *a)
{
    render_comp *r = self;
    if (!r) return false;
    char err[1024];
    r->xh = crosshair_create(err, sizeof err);
    if (!r->xh) log_warn("no crosshair: %s", err);
    r->gl = true;
    r->occ = occlusion_create();
    const render_mode *m = render_mode_find(r->mode_cv->str);
    if (m && switch_mode(r, m)) return true;
    /* a mode that cannot start: blocks always can (or nothing can) */
    if (!switch_mode(r, &renderer_blocks_mode)) return false;
    cvar_set_by_name(r->mode_cv->d.name, renderer_blocks_mode.name);
    return true;
}

static void render_new_world(void *self, app *a, world *w)
{
    render_comp *r = self;
    if (!size_for(r, w)) log_error("no memory for a %d-chunk world's draw lists", w->chunk_count);
    world_mark_all_dirty(w);
    if (!r->inst) return;
    r->mode->reset(r->inst, w->cx, w->cy, w->cz);
    forget_built(r);
    r->cx = w->cx, r->cy = w->cy, r->cz = w->cz;
    app_render_mesh_dirty(a);
}

/* world_set already marked the chunks of the box (and the neighbours whose
 * faces it changes); marking again is free and covers writers that bypass
 * it. */
static void render_on_edit(void *self, app *a, const world_edit *e)
{
    int lo[3], hi[3];
    for (int i = 0; i < 3; i++) lo[i] = (e->lo[i] - 1) >> 5, hi[i] = e->hi[i] >> 5; /* one voxel of border */
    for (int y = lo[1]; y <= hi[1]; y++)
        for (int z = lo[2]; z <= hi[2]; z++)
            for (int x = lo[0]; x <= hi[0]; x++)
                world_mark_dirty(a->w, x, y, z); /* chunks outside the window are ignored */
}

/* A streamed chunk is meshed once the 8 columns around its own are there
 * (stream.h): before, it would show faces toward terrain that has not come
 * yet, and its last neighbour's arrival marks it again. A column not there
 * itself is meshed (as nothing) where its slot holds an old column's mesh
 * (r->owner[].ready), and only there.
 * (A finite world's edge columns have no neighbours beyond: not for it.) */
static int keep_meshable(const world *w, const struct slot_owner *owner, int *idx, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, idx[i], &cx, &cy, &cz);
        bool ready = world_column_state(w, cx, cz) == WORLD_COL_READY;
        if (ready ? stream_meshable(w, cx, cz) : owner[idx[i]].ready) idx[k++] = idx[i];
    }
    return k;
}

static int cmp_key(const void *a, const void *b)
{
    const struct mesh_key *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Reach of the chunks that are always meshed, whatever the budget: holes
 * are counted inside 0.75 x view.distance (the streaming targets); two columns more
 * cover the frames the eye travels before it looks again. */
static float must_reach(float distance) { return 0.75f * distance + 2.f * CHUNK_SIZE; }

/* The streamed world's budget (stream.upload_budget): of the n dirty
 * chunks, those near the eye in the frustum always, then the nearest
 * others up to the budget; the rest stay dirty for the next frames.
 * Arrivals land beyond the view distance, so a frame or two of delay
 * shows nothing, and a burst (the window moved, a row of columns came)
 * spreads over frames instead of landing on one. Returns how many of
 * r->dirty to build, now first in it. */
static int budget_dirty(render_comp *r, app *a, const camera *cam, float distance, int n, int budget)
{
    if (budget <= 0 || n <= budget) return n;
    world *w = a->w;
    const float reach = must_reach(distance);
    int musts = 0;
    for (int i = 0; i < n; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, r->dirty[i], &cx, &cy, &cz);
        /* in the camera's frame, as its eye and planes are (render origin:
         * 0 near the world's origin, the eye's frame beyond 4096 voxels) */
        float lo[3], hi[3];
        camera_rel(cam, cx * CHUNK_SIZE, 0, cz * CHUNK_SIZE, lo);
        hi[0] = lo[0] + CHUNK_SIZE, hi[1] = lo[1] + (float)w->sy, hi[2] = lo[2] + CHUNK_SIZE;
        float dx = fmaxf(fmaxf(lo[0] - cam->pos[0], cam->pos[0] - hi[0]), 0.f);
        float dz = fmaxf(fmaxf(lo[2] - cam->pos[2], cam->pos[2] - hi[2]), 0.f);
        float d2 = dx * dx + dz * dz;
        bool must = d2 <= reach * reach && camera_box_visible(cam, lo, hi);
        musts += must;
        r->order[i] = (struct mesh_key){ must ? -1.f : d2, r->dirty[i] };
    }
    qsort(r->order, (size_t)n, sizeof *r->order, cmp_key);
    int take = musts > budget ? musts : budget;
    for (int i = 0; i < n; i++) {
        r->dirty[i] = r->order[i].index;
        if (i < take) continue;
        int cx, cy, cz;
        world_chunk_coords(w, r->dirty[i], &cx, &cy, &cz);
        world_mark_dirty(w, cx, cy, cz); /* a later frame's */
    }
    return take;
}

/* Meshes and uploads the dirty chunks; with a camera and a budget, only
 * the budget's share of a streamed world's (budget_dirty). */
static int mesh_dirty(app *a, const camera *cam, float distance, int budget)
{
    render_comp *r = state(a);
    if (!a->w || a->w->dirty_count == 0 || !r || !r->inst || r->cap < a->w->chunk_count) return 0;
    if (r->cx != a->w->cx || r->cy != a->w->cy || r->cz != a->w->cz) return 0; /* not reset for this world yet */
    int n = world_take_dirty(a->w, r->dirty, a->w->chunk_count);
    if (app_stream(a)) {
        n = keep_meshable(a->w, r->owner, r->dirty, n);
        if (cam) n = budget_dirty(r, a, cam, distance, n, budget);
    }
    if (!r->mode->build(r->inst, a->w, a->jobs, r->dirty, n)) {
        /* no memory: nothing built, they stay as they were; again next frame */
        for (int i = 0; i < n; i++) {
            int cx, cy, cz;
            world_chunk_coords(a->w, r->dirty[i], &cx, &cy, &cz);
            world_mark_dirty(a->w, cx, cy, cz);
        }
        return 0;
    }
    r->mode->upload(r->inst, a->w, r->dirty, n);
    for (int i = 0; i < n; i++) {
        int cx, cy, cz;
        world_chunk_coords(a->w, r->dirty[i], &cx, &cy, &cz);
        r->owner[r->dirty[i]] = (struct slot_owner){ cx, cz, world_column_state(a->w, cx, cz) == WORLD_COL_READY };
    }
    return n;
}

/* Which slots of a streamed world hold a mesh of the column now in them
 * (r->owner); NULL for a finite world, whose slots never change hands. */
static const unsigned char *current_slots(render_comp *r, const world *w, bool streamed)
{
    if (!streamed || !r->current || !r->owner || r->cap < w->chunk_count) return NULL;
    for (int i = 0; i < w->chunk_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, i, &cx, &cy, &cz);
        bool own = r->owner[i].x == cx && r->owner[i].z == cz;
        r->current[i] = own ? RENDER_SLOT_DRAWN | (r->owner[i].ready ? RENDER_SLOT_GENERATED : 0) : 0;
    }
    return r->current;
}

void app_render_mesh_dirty(app *a) { (void)mesh_dirty(a, NULL, 0.f, 0); }

bool app_render_world(app *a, const camera *cam, const render_settings *s)
{
    render_comp *r = state(a);
    memset(&a->stats, 0, sizeof a->stats);
    if (!r || !r->inst || !a->w) return false;
    uint64_t t0 = timer_ns();
    int meshed = mesh_dirty(a, cam, s->view_distance, r->budget_cv->i);
    float mesh_ms = (float)timer_ms_since(t0);
    render_frame_begin(s);
    /* occluders first (falling bodies): the world behind them is then not
     * drawn, or fails early depth */
    component_draw_first_all(&a->comps, a, &(frame_draw){ cam, s });
    const world_grid grid = world_grid_of(a->w);
    const unsigned char *current = current_slots(r, a->w, app_stream(a) != NULL);
    /* a chunk is drawn once its column's light has landed, never first unlit */
    int n = render_visible_set(cam, s->view_distance, &grid, app_light_drawable(a, current), r->visible);
    r->visible_n = current ? n : 0;
    bool cull = cvar_int("render.occlusion", 1) && !s->wireframe; /* lines hide nothing */
    occlusion_set_gpu(r->occ, shader_compute_supported() ? cvar_int("render.occlusion_gpu", 2) : 0);
    occlusion_set_adaptive(r->occ, cvar_int("render.occlusion_adaptive", 1) != 0);
    occlusion_set_judged(r->occ, cvar_int("render.occlusion_judge", 1) != 0);
    occlusion_begin(r->occ, cam, s->width, s->height, cvar_float("render.occlusion_near", 48.f),
                    cull ? cvar_int("render.occlusion_rings", 3) : 0);
    render_view v = { cam, s, r->visible, n, grid, r->occ, current };
    r->mode->draw(r->inst, &v, &a->stats); /* (which zeroes the stats first) */
    a->stats.chunks_meshed = meshed, a->stats.mesh_ms = mesh_ms;
    a->stats.gpu_waits += occlusion_get_stats(r->occ).reads; /* each read waits for the GPU */
    /* a mode that misuses GL says so (scripts and tests grep for it) */
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) log_warn("GL error 0x%04x while drawing (render.mode %s)", e, r->mode->name);
    return true;
}

int app_render_drawn_columns(app *a, unsigned char *mask, int w, int h, int cx0, int cz0)
{
    render_comp *r = state(a);
    memset(mask, 0, (size_t)w * (size_t)h);
    if (!r || !a->w || !r->current) return 0;
    int count = 0;
    for (int k = 0; k < r->visible_n; k++) {
        int i = r->visible[k].index, cx, cy, cz;
        if (!(r->current[i] & RENDER_SLOT_GENERATED)) continue; /* a mesh of nothing: the column is still to come */
        world_chunk_coords(a->w, i, &cx, &cy, &cz);
        int x = cx - cx0, z = cz - cz0;
        if (x < 0 || z < 0 || x >= w || z >= h || mask[z * w + x]) continue;
        mask[z * w + x] = 1;
        count++;
    }
    return count;
}

void *app_render_instance(app *a, const render_mode **mode)
{
    render_comp *r = state(a);
    if (mode) *mode = r ? r->mode : NULL;
    return r ? r->inst : NULL;
}

occlusion_stats app_render_occlusion_stats(app *a)
{
    render_comp *r = state(a);
    return occlusion_get_stats(r ? r->occ : NULL);
}

bool app_render_occlusion_judge(app *a, int *verdicts, int *off)
{
    render_comp *r = state(a);
    return occlusion_judge_verdict(r ? r->occ : NULL, verdicts, off);
}

void app_render_crosshair(app *a, const render_settings *s)
{
    render_comp *r = state(a);
    if (r && r->xh) crosshair_draw(r->xh, s);
}

static void render_shutdown(void *self, app *a)
{
    render_comp *r = self;
    if (!r) return;
    if (r->inst) r->mode->destroy(r->inst);
    crosshair_destroy(r->xh);
    occlusion_destroy(r->occ);
    free(r->dirty);
    free(r->visible);
    free(r->order);
    free(r->owner);
    free(r->current);
    free(r);
}

const component app_render_component = {
    .name = "render",
    .init = render_init,
    .gfx_init = render_gfx_init,
    .on_new_world = render_new_world,
    .on_edit = render_on_edit,
    .shutdown = render_shutdown,
};
