#include "app_bodies.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "app_tool.h"
#include "app_render.h"
#include "app_stream.h"
#include "play/tool.h"
#include "app_world.h"
#include "core/log.h"
#include "gfx/body_draw.h"
#include "mesh/mesh_smooth.h"
#include "physics/collide.h"
#include "physics/bodies.h"
#include "physics/detach.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

/* Edited boxes waiting for the detach search: a frame of cuts is a few
 * boxes; past this many they are joined into the last. */
#define PENDING_MAX 32
/* Boxes waiting for their columns to be searched (bodies a window move
 * put back, or a load's): past this many, the oldest is forgotten (it
 * rests as it is). */
#define RETURNS_MAX APP_BODIES_SEARCHES_MAX
/* Steps one frame may run: a long frame slows the bodies down rather
 * than making the next frame longer still. */
#define MAX_STEPS_PER_FRAME 4

typedef struct box3 {
    int lo[3], hi[3];
} box3;

typedef struct bodies_comp {
    app *a;
    bodies set;
    detach det;
    body_density dens;
    box3 pending[PENDING_MAX];
    int pending_count;
    /* The boxes of bodies a window move put back into columns it was
     * leaving (bodies_window_moving): searched again once those columns
     * and the ones around them are back and ready, so a body put back in
     * mid-air falls on when the player returns instead of floating. */
    box3 returns[RETURNS_MAX];
    int return_count;
    double acc; /* simulated time not yet stepped */
    body_draw *draw;
    long first_tris; /* drawn before the world (render modes reset the stats) */
    long capped, too_big; /* loose groups left as terrain (logged) */
    struct {
        cvar *enable, *gravity, *max_bodies, *max_body_voxels, *substeps, *detach_limit;
        cvar *density[MAT_COUNT];
    } cv;
} bodies_comp;

static bodies_comp *state(const app *a) { return component_state(&a->comps, app_bodies_component.name); }

static void add_pending(bodies_comp *b, const int lo[3], const int hi[3])
{
    box3 *e = b->pending_count < PENDING_MAX ? &b->pending[b->pending_count++] : NULL;
    if (e) {
        memcpy(e->lo, lo, sizeof e->lo);
        memcpy(e->hi, hi, sizeof e->hi);
        return;
    }
    e = &b->pending[PENDING_MAX - 1];
    for (int i = 0; i < 3; i++) {
        if (lo[i] < e->lo[i]) e->lo[i] = lo[i];
        if (hi[i] > e->hi[i]) e->hi[i] = hi[i];
    }
}

/* The parameters as the cvars say now (each one checked by its veto). */
static void read_params(bodies_comp *b)
{
    b->set.p.gravity = b->cv.gravity->f;
    b->set.p.substeps = b->cv.substeps->i;
    for (int m = 0; m < MAT_COUNT; m++)
        b->dens.of[m] = b->cv.density[m] ? b->cv.density[m]->f : material_table[m].density;
}

/* Cuts what the pending edits left loose out of the world into bodies. */
static void run_detach(bodies_comp *b)
{
    app *a = b->a;
    if (!a->w || !b->cv.enable->b) {
        b->pending_count = 0;
        return;
    }
    read_params(b);
    b->det.unbounded = app_stream(a) != NULL; /* past the window is unknown, not air */
    long capped = 0, too_big = 0;
    for (int k = 0; k < b->pending_count; k++) {
        size_t n = detach_find(&b->det, a->w, b->pending[k].lo, b->pending[k].hi, b->cv.detach_limit->i);
        for (size_t g = 0; g < n; g++) {
            const detach_group *grp = &b->det.groups[g];
            if ((long)grp->count > b->cv.max_body_voxels->i) {
                too_big++;
                continue;
            }
            if (b->set.count >= b->cv.max_bodies->i) {
                capped++;
                continue;
            }
            int lo[3], hi[3];
            body *bd = body_cut_from_world(a->w, b->det.vox + 3 * grp->first, grp->count, &b->dens, lo, hi);
            if (!bd) {
                too_big++; /* wider than a body's grid, or no memory */
                continue;
            }
            if (!bodies_add(&b->set, bd)) { /* no memory: back where it was */
                long lost;
                int l2[3], h2[3];
                body_merge(bd, a->w, NULL, &lost, l2, h2);
                body_destroy(bd);
            }
            app_world_edited(a, lo, hi, &app_bodies_component);
        }
    }
    b->pending_count = 0;
    /* the stated fallback: what cannot be a body stays terrain */
    if (capped) log_info("physics: %ld loose group(s) stay terrain: physics.max_bodies (%d) reached", capped,
                         b->cv.max_bodies->i);
    if (too_big) log_info("physics: %ld loose group(s) stay terrain: over physics.max_body_voxels (%d) or %d a side",
                          too_big, b->cv.max_body_voxels->i, BODY_MAX_SIDE - 2);
    b->capped += capped, b->too_big += too_big;
}

/* bd's voxels into w at its pose, the player kept clear; what could not
 * be placed is said. Returns the voxels placed, lo/hi their box. */
static long merge_into(const app *a, const body *bd, world *w, int lo[3], int hi[3])
{
    double keep[6];
    player_bounds(&a->pl, keep, keep + 3);
    long lost = 0;
    long placed = body_merge(bd, w, keep, &lost, lo, hi);
    if (lost) log_warn("physics: body %u merged with %ld of its %ld voxels lost (no free cell near)", bd->id, lost,
                       bd->count);
    return placed;
}

/* The box [lo, hi) is searched once its columns are back (returns). */
static void search_later(bodies_comp *b, const int lo[3], const int hi[3])
{
    if (b->return_count == RETURNS_MAX) {
        log_info("physics: more than %d boxes wait for their columns to be searched; the oldest rests as it is",
                 RETURNS_MAX);
        memmove(b->returns, b->returns + 1, (RETURNS_MAX - 1) * sizeof *b->returns);
        b->return_count--;
    }
    box3 *e = &b->returns[b->return_count++];
    memcpy(e->lo, lo, sizeof e->lo);
    memcpy(e->hi, hi, sizeof e->hi);
}

/* Body i goes back into the world at its pose (the player kept clear);
 * what it lands on is searched again, as after any edit: now when
 * `search`, else once its columns come back (returns). */
static void put_back(bodies_comp *b, int i, bool search)
{
    app *a = b->a;
    body *bd = bodies_take(&b->set, i);
    int lo[3], hi[3];
    long placed = merge_into(a, bd, a->w, lo, hi);
    body_destroy(bd);
    if (!placed) return;
    app_world_edited(a, lo, hi, &app_bodies_component);
    if (search) {
        add_pending(b, lo, hi);
        return;
    }
    search_later(b, lo, hi);
}

static void merge_body(bodies_comp *b, int i) { put_back(b, i, true); }

/* Whether every column of [lo, hi) widened by a column is in the window
 * and generated (with its edits paged back in): a search there reads
 * what the body rests on, not a column still to come. A finite world's
 * columns are all there, and past its sides is nothing to wait for. */
static bool columns_back(app *a, const int lo[3], const int hi[3])
{
    const world *w = a->w;
    if (!app_stream(a)) return true;
    int cx0 = (lo[0] >> CHUNK_BITS) - 1, cx1 = ((hi[0] - 1) >> CHUNK_BITS) + 1;
    int cz0 = (lo[2] >> CHUNK_BITS) - 1, cz1 = ((hi[2] - 1) >> CHUNK_BITS) + 1;
    for (int cz = cz0; cz <= cz1; cz++)
        for (int cx = cx0; cx <= cx1; cx++)
            if (world_column_state(w, cx, cz) != WORLD_COL_READY) return false;
    return true;
}

/* The boxes whose columns are back go to the detach search, as many as
 * the frame's pending list holds (past it add_pending would join them
 * into one box, maybe the whole window); the rest on later frames. */
static void search_returns(bodies_comp *b)
{
    int kept = 0;
    for (int k = 0; k < b->return_count; k++) {
        const box3 *e = &b->returns[k];
        if (b->pending_count < PENDING_MAX && columns_back(b->a, e->lo, e->hi)) add_pending(b, e->lo, e->hi);
        else b->returns[kept++] = *e;
    }
    b->return_count = kept;
}

/* The window is about to leave the columns outside [lo, hi): a body over
 * any of them goes back into the world now, where it is, and leaves with
 * its columns (stored, saved and paged as any edit). Held there, it would
 * be merged by the next save into columns the window no longer has, and
 * its voxels lost. Not searched now: the search would read columns about
 * to go. It rests where it was put until its columns come back
 * (search_returns), and then falls on if nothing holds it. */
static void bodies_window_moving(void *self, app *a, const int lo[2], const int hi[2])
{
    (void)a;
    bodies_comp *b = self;
    for (int i = 0; i < b->set.count;) {
        const body *bd = b->set.v[i];
        double p[3];
        body_world_pos(bd, p);
        const double r = bd->radius;
        bool stays = p[0] - r >= lo[0] && p[0] + r < hi[0] && p[2] - r >= lo[1] && p[2] + r < hi[1];
        if (stays) i++;
        else put_back(b, i, false); /* takes it out of the set: i is the next one */
    }
}

/* A body moving into the player pushes the player out (never into
 * terrain: collide_move stops at it), and one under the player carries
 * the player: the player stands on falling and sliding bodies. */
static void push_player(bodies_comp *b)
{
    app *a = b->a;
    double lo[3], hi[3];
    float push[3], carry[3];
    player_bounds(&a->pl, lo, hi);
    if (!bodies_push_box(&b->set, lo, hi, push, carry)) return;
    collide_box_desc box = player_box();
    collide_move(a->w, a->pl.pos, &box, push, NULL);
    if (push[1] > 0 && !a->pl.flying) {
        if (a->pl.vel[1] < carry[1]) a->pl.vel[1] = carry[1];
        a->pl.on_ground = true;
    }
}

/* Below the floor, or past a finite world's sides. A streamed world goes
 * on: a body beyond its window is held (bodies_step) until the player
 * comes back, never dropped. */
static bool left_world(const body *bd, const world *w, float lost_y, bool unbounded)
{
    double p[3];
    body_world_pos(bd, p);
    if (p[1] < lost_y) return true;
    if (unbounded) return false;
    const double x0 = world_x0(w), z0 = world_z0(w), r = bd->radius;
    return p[0] + r < x0 || p[2] + r < z0 || p[0] - r > x0 + w->sx || p[2] - r > z0 + w->sz;
}

static void bodies_frame(void *self, app *a, double now, float dt)
{
    bodies_comp *b = self;
    if (!a->w) return;
    if (b->return_count) search_returns(b);
    run_detach(b);
    if (!b->cv.enable->b || !b->set.count) {
        b->acc = 0;
        return;
    }
    b->acc += isfinite(dt) && dt > 0 ? dt : 0;
    int steps = 0;
    b->set.unbounded = app_stream(a) != NULL;
    while (b->acc >= b->set.p.dt && steps < MAX_STEPS_PER_FRAME) {
        bodies_step(&b->set, a->w, app_occupancy(a), a->jobs);
        b->acc -= b->set.p.dt;
        steps++;
    }
    if (b->acc > b->set.p.dt) b->acc = 0; /* behind: slow motion, never a spiral */
    push_player(b);
    for (int i = 0; i < b->set.count;) {
        body *bd = b->set.v[i];
        if (left_world(bd, a->w, b->set.p.lost_y, b->set.unbounded)) {
            log_info("physics: body %u (%ld voxels) fell out of the world and is gone", bd->id, bd->count);
            body_destroy(bodies_take(&b->set, i));
        } else if (bd->asleep) {
            merge_body(b, i);
        } else {
            i++;
        }
    }
    run_detach(b); /* a merged body resting on nothing falls on, this frame */
}

void app_bodies_settle(app *a)
{
    bodies_comp *b = state(a);
    if (!b || !a->w) return;
    while (b->set.count) merge_body(b, 0);
}

int app_bodies_awake(const app *a)
{
    const bodies_comp *b = state(a);
    int n = 0;
    /* a held body waits for the player (bodies_step), it does not settle:
     * autosave, which waits for what is settling, must not wait for it */
    for (int i = 0; b && i < b->set.count; i++) n += !b->set.v[i]->asleep && !b->set.v[i]->held;
    return n;
}

const bodies *app_bodies_set(const app *a)
{
    const bodies_comp *b = state(a);
    return b ? &b->set : NULL;
}

void app_bodies_counts(const app *a, int *count, int *awake, long *voxels)
{
    const bodies_comp *b = state(a);
    *count = b ? b->set.count : 0;
    *awake = b ? bodies_awake(&b->set) : 0;
    *voxels = b ? bodies_voxels(&b->set) : 0;
}

void app_bodies_print_stats(app *a)
{
    bodies_comp *b = state(a);
    if (!b) return;
    log_out("bodies=%d", b->set.count);
    log_out("bodies_awake=%d", bodies_awake(&b->set));
    log_out("body_voxels=%ld", bodies_voxels(&b->set));
    /* per material, as stats' material.NAME for the world: scripts check
     * that a cut takes from bodies exactly what it reports (cut.NAME) */
    long per[MAT_COUNT] = { 0 };
    for (int i = 0; i < b->set.count; i++) {
        const body *bd = b->set.v[i];
        size_t n = (size_t)bd->size[0] * (size_t)bd->size[1] * (size_t)bd->size[2];
        for (size_t k = 0; k < n; k++) per[bd->mat[k]]++;
    }
    for (int m = 1; m < MAT_COUNT; m++)
        if (per[m]) log_out("body_material.%s=%ld", material_table[m].name, per[m]);
}

static void bodies_on_edit(void *self, app *a, const world_edit *e)
{
    bodies_comp *b = self;
    if (e->source == &app_bodies_component) return; /* our own cuts and merges are searched as they happen */
    if (e->generated) return; /* a streamed column's arrival: terrain as generated, nothing was cut */
    if (b->cv.enable->b) add_pending(b, e->lo, e->hi);
}

/* The bodies and the edits waiting for a search go; the boxes waiting
 * for their columns stay (a new world's are the ones its load asked for). */
static void drop_bodies(bodies_comp *b)
{
    for (int i = 0; i < b->set.count; i++) body_destroy(b->set.v[i]);
    b->set.count = 0;
    b->pending_count = 0;
    b->acc = 0;
}

static void bodies_world_leaving(void *self, app *a, world *old)
{
    /* saves (earlier in the table) merged them into the world first when a
     * file is open; without one, a view.distance resize carries the world's
     * voxels over (stream_adopt), so they go back into it too, quietly:
     * the components before this one have let go of the old world */
    bodies_comp *b = self;
    for (int i = 0; i < b->set.count; i++) {
        int lo[3], hi[3];
        if (merge_into(a, b->set.v[i], old, lo, hi) && a->world_resizing) search_later(b, lo, hi);
    }
    if (a->world_resizing) /* the same world goes on: what waited to be searched still does */
        for (int k = 0; k < b->pending_count; k++) search_later(b, b->pending[k].lo, b->pending[k].hi);
    else
        b->return_count = 0; /* boxes of the old world */
    drop_bodies(b);
}

static void bodies_new_world(void *self, app *a, world *w)
{
    /* a generated or loaded world starts at rest; the load (saves, earlier
     * in the table) has put the boxes the file asks to search in returns */
    drop_bodies(self);
}

int app_bodies_searches(const app *a, int (*box)[6], int max)
{
    const bodies_comp *b = state(a);
    int n = 0;
    for (int k = 0; b && k < b->pending_count + b->return_count && n < max; k++) {
        const box3 *e = k < b->pending_count ? &b->pending[k] : &b->returns[k - b->pending_count];
        memcpy(box[n], e->lo, sizeof e->lo);
        memcpy(box[n] + 3, e->hi, sizeof e->hi);
        n++;
    }
    return n;
}

void app_bodies_search_later(app *a, const int lo[3], const int hi[3])
{
    bodies_comp *b = state(a);
    if (b) search_later(b, lo, hi);
}

static void bodies_draw_first(void *self, app *a, const frame_draw *f)
{
    bodies_comp *b = self;
    /* the smooth mode draws bodies as their own nets, the others as blocks */
    const render_mode *mode = NULL;
    app_render_instance(a, &mode);
    body_draw_style st = { mode && strcmp(mode->name, "smooth") == 0,
                           cvar_float("render.smooth_sharpness", SMOOTH_SHARPNESS_DEFAULT) };
    b->first_tris = b->draw ? body_draw_opaque(b->draw, b->set.v, b->set.count, f->cam, f->s, st) : 0;
}

static void bodies_draw(void *self, app *a, const frame_draw *f)
{
    bodies_comp *b = self;
    if (b->draw) a->stats.triangles += b->first_tris + body_draw_translucent(b->draw, f->cam, f->s);
    b->first_tris = 0;
}

static int c_bodies(void *u, int argc, char **argv)
{
    bodies_comp *b = u;
    log_out("bodies=%d", b->set.count);
    log_out("bodies_awake=%d", bodies_awake(&b->set));
    log_out("body_voxels=%ld", bodies_voxels(&b->set));
    for (int i = 0; i < b->set.count; i++) {
        const body *bd = b->set.v[i];
        float v = sqrtf(bd->vel[0] * bd->vel[0] + bd->vel[1] * bd->vel[1] + bd->vel[2] * bd->vel[2]);
        double p[3];
        body_world_pos(bd, p);
        log_out("body.%u=voxels %ld mass %.2f speed %.2f asleep %d held %d pos %.2f %.2f %.2f", bd->id, bd->count,
                (double)bd->mass, (double)v, bd->asleep, bd->held, p[0], p[1], p[2]);
    }
    return 0;
}

/* `set` refuses what would not make a stable simulation. */
static bool check_param(const cvar *proposed, char *err, size_t errlen, void *user)
{
    const bodies_comp *b = user;
    bodies_params p = b->set.p;
    if (strcmp(proposed->d.name, "physics.gravity") == 0) p.gravity = proposed->f;
    else if (strcmp(proposed->d.name, "physics.substeps") == 0) p.substeps = proposed->i;
    return bodies_params_check(&p, err, errlen);
}

static void *bodies_init_comp(app *a)
{
    bodies_comp *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->a = a;
    bodies_init(&b->set);
    body_density_default(&b->dens);
    cvar_desc d[] = {
        { "physics.enable", "edits cut loose what no longer reaches the ground, and it falls (voxel bodies)",
          CVAR_BOOL, CVAR_ARCHIVE, "1" },
        { "physics.gravity", "voxel bodies: gravity, voxels per second squared (downward)", CVAR_FLOAT, CVAR_ARCHIVE,
          "20", -200, 200, NULL, NULL, b, check_param },
        { "physics.max_bodies", "voxel bodies falling at once at most; more loose groups stay terrain", CVAR_INT,
          CVAR_ARCHIVE, "64", 0, 4096 },
        { "physics.max_body_voxels", "a loose group larger than this stays terrain", CVAR_INT, CVAR_ARCHIVE, "20000",
          1, 1000000 },
        { "physics.substeps", "voxel bodies: substeps per 1/60 s step (more: stiffer stacks, more time)", CVAR_INT,
          CVAR_ARCHIVE, "4", 1, 32, NULL, NULL, b, check_param },
        { "physics.detach_limit", "voxels a search for loose groups visits before it counts as ground", CVAR_INT,
          CVAR_ARCHIVE, "65536", 64, 4000000 },
    };
    b->cv.enable = cvar_register(&d[0]);
    b->cv.gravity = cvar_register(&d[1]);
    b->cv.max_bodies = cvar_register(&d[2]);
    b->cv.max_body_voxels = cvar_register(&d[3]);
    b->cv.substeps = cvar_register(&d[4]);
    b->cv.detach_limit = cvar_register(&d[5]);
    for (int m = 0; m < MAT_COUNT; m++) {
        if (m == MAT_AIR || m == MAT_PLACEHOLDER) continue;
        char name[64], def[32];
        snprintf(name, sizeof name, "physics.density.%s", material_table[m].name);
        snprintf(def, sizeof def, "%g", (double)material_table[m].density);
        cvar_desc dd = { name, "voxel bodies: mass of one voxel of this material (water = 1)", CVAR_FLOAT,
                         CVAR_ARCHIVE, def, 0.01, 100 };
        b->cv.density[m] = cvar_register(&dd);
    }
    /* the tool picks and cuts bodies in flight too (the tool sits before us
     * in the table, so it is ready; it outlives us: shutdown runs backwards) */
    tool *t = app_tool(a);
    if (t) tool_bind_bodies(t, &b->set, &b->dens);
    const cmd_desc table[] = {
        { "bodies", "", "list the falling voxel bodies: voxels, mass, speed, asleep, position", c_bodies, b },
    };
    cmd_register_table(table, 1);
    return b;
}

static bool bodies_gfx_init(void *self, app *a)
{
    bodies_comp *b = self;
    char err[1024];
    if (!b) return false;
    b->draw = body_draw_create(err, sizeof err);
    if (!b->draw) log_warn("falling bodies will not be drawn: %s", err); /* they still fall and merge */
    return b->draw != NULL;
}

static void bodies_shutdown(void *self, app *a)
{
    bodies_comp *b = self;
    if (!b) return;
    tool *t = app_tool(a);
    if (t && t->bodies == &b->set) tool_bind_bodies(t, NULL, NULL);
    body_draw_destroy(b->draw);
    bodies_free(&b->set);
    detach_free(&b->det);
    free(b);
}

const component app_bodies_component = {
    .name = "bodies",
    .init = bodies_init_comp,
    .gfx_init = bodies_gfx_init,
    .on_new_world = bodies_new_world,
    .on_edit = bodies_on_edit,
    .on_frame = bodies_frame,
    .draw_first = bodies_draw_first,
    .draw = bodies_draw,
    .shutdown = bodies_shutdown,
    .on_world_leaving = bodies_world_leaving,
    .on_window_moving = bodies_window_moving,
    .pauses = true, /* nothing falls behind the menu */
};
