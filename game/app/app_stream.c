#include "app_stream.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_far.h"
#include "app_emit.h"
#include "app_light.h"
#include "app_render.h"
#include "app_save.h"
#include "app_world.h"
#include "core/hash.h"
#include "core/log.h"
#include "core/timer.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

/* The stream's generator: the kind's pure column function (worldgen.h). */
static bool column_gen_run(void *ctx, world *w, int cx, int cz)
{
    worldgen_stream_column(ctx, w, cx, cz);
    return true;
}

/* ---- the component ---- */

typedef struct stream_comp {
    stream *s;
    worldgen_stream *gen;         /* made by app_stream_begin, for the next world */
    worldgen_stream *gen_pending;
    struct {
        cvar *enable, *margin, *hysteresis, *memory_mb, *spawn_radius, *workers, *margin_workers;
    } cv;
    int *arrived_x, *arrived_z, arrived_cap;
} stream_comp;

static stream_comp *state(app *a) { return component_state(&a->comps, app_stream_component.name); }
static const stream_comp *cstate(const app *a) { return component_state(&a->comps, app_stream_component.name); }

stream *app_stream(app *a)
{
    stream_comp *c = state(a);
    return c && a->w && c->s && stream_world(c->s) == a->w ? c->s : NULL;
}

bool app_streaming(const app *a)
{
    const stream_comp *c = cstate(a);
    return c && c->cv.enable && c->cv.enable->b && !app_kind(a)->finite;
}

static int window_for(const stream_comp *c, float distance, int cy, char *err, size_t errlen)
{
    int n = stream_window_columns((int)ceilf(distance), c->cv.margin->i, c->cv.hysteresis->i);
    size_t bytes = stream_window_bytes(n, cy);
    double mb = (double)bytes / (1024.0 * 1024.0);
    if (mb > c->cv.memory_mb->f || (long long)n * n * cy > WORLD_MAX_STREAM_CHUNKS) {
        snprintf(err, errlen,
                 "view.distance %.0f needs a window of %dx%d columns of %d chunks: %.0f MiB of voxels, over "
                 "stream.memory_mb %.0f",
                 (double)distance, n, n, cy, mb, (double)c->cv.memory_mb->f);
        return 0;
    }
    return n;
}

int app_stream_window(const app *a, char *err, size_t errlen)
{
    const stream_comp *c = cstate(a);
    if (!c) return 0;
    return window_for(c, a->cv.distance->f, a->cv.size_y->i, err, errlen);
}

/* `set view.distance` while streaming: refused when the window it needs
 * would pass the memory budget (with the estimate). */
bool app_stream_validate_distance(const cvar *proposed, char *err, size_t errlen, void *user)
{
    app *a = user;
    const stream_comp *c = cstate(a);
    if (!c || !c->cv.enable || !c->cv.enable->b) return true;
    return window_for(c, proposed->f, a->cv.size_y->i, err, errlen) > 0;
}

/* Columns installed since the last frame, announced as edits of their boxes
 * (generated): the renderer re-meshes, light relights, nobody saves them. */
static void announce_arrivals(stream_comp *c, app *a)
{
    int n;
    while ((n = stream_take_arrived(c->s, c->arrived_x, c->arrived_z, c->arrived_cap)) > 0)
        for (int i = 0; i < n; i++) {
            world_edit e = { .source = &app_stream_component, .generated = true };
            e.lo[0] = c->arrived_x[i] * CHUNK_SIZE, e.lo[1] = 0, e.lo[2] = c->arrived_z[i] * CHUNK_SIZE;
            e.hi[0] = e.lo[0] + CHUNK_SIZE, e.hi[1] = a->w->sy, e.hi[2] = e.lo[2] + CHUNK_SIZE;
            component_edit_all(&a->comps, a, &e);
        }
}

void app_stream_announce(app *a)
{
    stream_comp *c = state(a);
    if (c && app_stream(a)) announce_arrivals(c, a);
}

static void settle_between(void *arg)
{
    app *a = arg;
    announce_arrivals(state(a), a);
    app_light_pump(a);
    app_render_mesh_dirty(a);
}

void app_stream_settle(app *a, double x, double z, int radius)
{
    stream_comp *c = state(a);
    if (!c || !app_stream(a)) return;
    stream_wait_each(c->s, x, z, radius, settle_between, a);
    announce_arrivals(c, a);
    app_light_settle(a);
    app_emit_settle(a);
    app_render_mesh_dirty(a);
    app_far_settle(a); /* the far rings round the player too */
}

/* What the stream generates around the player: view.distance plus the
 * margin, the resident set (stream_set_radius); the window's
 * corners and hysteresis hold what is left behind. */
static int radius_for(const stream_comp *c, float distance) { return (int)ceilf(distance) + c->cv.margin->i; }

int app_stream_radius(const app *a)
{
    const stream_comp *c = cstate(a);
    return c ? radius_for(c, a->cv.distance->f) : 0;
}

static void set_radius(stream_comp *c, app *a) { stream_set_radius(c->s, radius_for(c, a->cv.distance->f)); }

/* The window is about to move (stream_set_moving): the columns it leaves
 * take their edits to the store, so what the components hold of them goes
 * back in first. */
static void window_moving(void *ctx, int ocx, int ocz)
{
    app *a = ctx;
    const int lo[2] = { ocx * CHUNK_SIZE, ocz * CHUNK_SIZE };
    const int hi[2] = { (ocx + a->w->cx) * CHUNK_SIZE, (ocz + a->w->cz) * CHUNK_SIZE };
    component_window_moving_all(&a->comps, a, lo, hi);
}

static void update(stream_comp *c, app *a)
{
    set_radius(c, a);
    /* only the margin's columns are held to fewer workers: what the
     * player can see comes as fast as every worker makes it */
    stream_set_margin_jobs(c->s, c->cv.margin_workers->i, (int)ceilf(a->cv.distance->f));
    if (!stream_update(c->s, a->pl.pos[0], a->pl.pos[2]))
        log_warn("stream: the player is at the edge of the 32-bit world; the world does not follow further");
    announce_arrivals(c, a);
}

bool app_stream_begin(app *a, world **out)
{
    stream_comp *c = state(a);
    char err[256];
    int n = c ? window_for(c, a->cv.distance->f, a->cv.size_y->i, err, sizeof err) : 0;
    if (!n) {
        log_error("stream: %s", c ? err : "no stream component");
        return false;
    }
    world *w = world_create_window(0, 0, n, a->cv.size_y->i, n);
    if (!w) return false;
    worldgen_stream *g = worldgen_stream_create(app_kind(a), a->cv.seed->i, w, err, sizeof err);
    if (!g) {
        log_error("stream: %s: %s", app_kind(a)->name, err);
        world_destroy(w);
        return false;
    }
    worldgen_stream_destroy(c->gen_pending);
    c->gen_pending = g;
    *out = w;
    return true;
}

void app_stream_distance_changed(cvar *cv, void *user)
{
    app *a = user;
    stream_comp *c = state(a);
    stream *old = app_stream(a);
    if (!c || !old) return;
    stream_set_radius(old, radius_for(c, cv->f)); /* kept when the window stays */
    char err[256];
    int n = window_for(c, cv->f, a->cv.size_y->i, err, sizeof err);
    if (!n || n == a->w->cx) return; /* the veto refused it already; or the same window */
    world *nw = world_create_window(0, 0, n, a->cv.size_y->i, n);
    stream *ns = nw ? stream_create(nw, a->jobs, column_gen_run, c->gen, 0, c->cv.hysteresis->i) : NULL;
    if (!ns) {
        log_error("view.distance %.0f: no memory for a window of %dx%d columns; it stays %dx%d", (double)cv->f, n, n,
                  a->w->cx, a->w->cz);
        world_destroy(nw);
        return;
    }
    /* as for any world left: saves write what is unsaved (if a file is
     * open), bodies settle into it; then the columns, their edit flags and
     * the store move to the new window, and every component hears of the
     * new world (save keeps its slot, the player stays where it is) */
    world *ow = a->w;
    a->world_resizing = true;
    component_world_leaving_all(&a->comps, a, ow);
    stream_adopt(ns, old, a->pl.pos[0], a->pl.pos[2]);
    stream_set_radius(ns, radius_for(c, cv->f));
    stream_set_moving(ns, window_moving, a);
    stream_destroy(old);
    c->s = ns;
    a->w = nw;
    component_new_world_all(&a->comps, a, nw);
    a->world_resizing = false;
    world_destroy(ow);
    log_dev("view.distance %.0f: the window is %dx%d columns", (double)cv->f, n, n);
}

static void drop_stream(stream_comp *c)
{
    stream_destroy(c->s);
    c->s = NULL;
    worldgen_stream_destroy(c->gen);
    c->gen = NULL;
}

/* The stream outlives its world's on_world_leaving (no hook there): the
 * save component, after this one in the table, writes the stored edits of
 * the world being left. The next world (or shutdown) drops it. */
static void stream_new_world(void *self, app *a, world *w)
{
    stream_comp *c = self;
    if (a->world_resizing) return; /* app_stream_distance_changed made its stream */
    drop_stream(c);
    a->pl.hold_unready = false;
    if (!c->gen_pending) return; /* a finite world */
    c->gen = c->gen_pending;
    c->gen_pending = NULL;
    c->s = stream_create(w, a->jobs, column_gen_run, c->gen, 0, c->cv.hysteresis->i);
    if (!c->s) {
        log_error("stream: out of memory");
        worldgen_stream_destroy(c->gen);
        c->gen = NULL;
        return;
    }
    stream_set_workers(c->s, c->cv.workers->i);
    set_radius(c, a);
    stream_set_moving(c->s, window_moving, a);
    /* the ground around the spawn first: the player lands on it */
    float sx = 0.5f, sz = 0.5f;
    stream_wait(c->s, sx, sz, c->cv.spawn_radius->i);
    if (!player_spawn_ground(&a->pl, w, sx, sz)) player_spawn(&a->pl, w, sx, sz);
    a->pl.hold_unready = true;
    /* the arrivals are announced by the first frame: the components after
     * this one have not heard of the new world yet */
}


static void stream_frame(void *self, app *a, double now, float dt)
{
    stream_comp *c = self;
    if (!c->s || stream_world(c->s) != a->w) return;
    stream_set_workers(c->s, c->cv.workers->i); /* live: a store, no more */
    update(c, a);
}

static int c_stream(void *u, int argc, char **argv)
{
    app *a = u;
    stream_comp *c = state(a);
    app_sync_world(a);
    if (!c || !app_stream(a)) {
        log_error("stream: this world is finite (set world.stream 1 for an unbounded one)");
        return 1;
    }
    if (argc >= 2 && strcmp(argv[1], "wait") == 0) {
        /* the whole set the stream makes, view.distance and its margin: a
         * column is meshed once its 8 neighbours are there, and the
         * renderer draws a chunk whose sphere reaches view.distance, so
         * only then is every column in view drawn (waiting for
         * view.distance alone, the outermost showed the far ring for a few
         * dozen frames, until the margin came) */
        int radius = app_stream_radius(a);
        if (argc >= 3) {
            char *end;
            long r = strtol(argv[2], &end, 10);
            if (*end || r < 0 || r > 1 << 16) {
                log_error("stream wait: radius '%s' is not a number of voxels (0..65536)", argv[2]);
                return 1;
            }
            radius = (int)r;
        }
        uint64_t t0 = timer_ns();
        /* generated, lit and meshed: what a script draws next is whole */
        app_stream_settle(a, a->pl.pos[0], a->pl.pos[2], radius);
        log_out("stream_wait_ms=%.1f", timer_ms_since(t0));
    } else if (argc >= 2) {
        log_error("usage: stream [wait [RADIUS]]");
        return 1;
    }
    app_stream_print_stats(a);
    return 0;
}

/* Parses argv[i] as a whole number in [lo, hi]; says which argument failed. */
static bool arg_long(const char *cmd, const char *name, const char *text, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < lo || v > hi) {
        log_error("%s: %s '%s' is not a whole number in %ld..%ld", cmd, name, text, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

/* The columns whose square comes within r voxels of (x, z), in coordinate
 * order, folded into *h: a streamed world's as the stream installs them
 * (generated with their stored edits where not resident), a finite world's
 * as they are (nothing beyond its edges). False with err when a column
 * fails to generate or there is no memory. */
static bool hash_disc(app *a, double x, double z, double r, uint64_t *h, int *columns, int *generated, char *err,
                      size_t errlen)
{
    stream *s = app_stream(a);
    world *w = a->w;
    world *scratch = s ? world_create_window(0, 0, 1, w->cy, 1) : NULL;
    if (s && !scratch) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    *columns = *generated = 0;
    int x0 = (int)floor((x - r) / CHUNK_SIZE), x1 = (int)floor((x + r) / CHUNK_SIZE);
    int z0 = (int)floor((z - r) / CHUNK_SIZE), z1 = (int)floor((z + r) / CHUNK_SIZE);
    for (int cz = z0; cz <= z1; cz++)
        for (int cx = x0; cx <= x1; cx++) {
            double dx = fmax(fmax((double)cx * CHUNK_SIZE - x, x - (cx + 1.0) * CHUNK_SIZE), 0);
            double dz = fmax(fmax((double)cz * CHUNK_SIZE - z, z - (cz + 1.0) * CHUNK_SIZE), 0);
            if (dx * dx + dz * dz > r * r) continue;
            if (s) {
                *generated += world_column_state(w, cx, cz) != WORLD_COL_READY;
                if (!stream_hash_column(s, scratch, cx, cz, h)) {
                    snprintf(err, errlen, "column %d,%d failed to generate", cx, cz);
                    world_destroy(scratch);
                    return false;
                }
            } else {
                /* a finite world: its columns, nothing beyond them */
                if (cx < w->ocx || cx >= w->ocx + w->cx || cz < w->ocz || cz >= w->ocz + w->cz) continue;
                *h = hash_u64(*h, ((uint64_t)(uint32_t)cx << 32) | (uint32_t)cz);
                for (int cy = 0; cy < w->cy; cy++) *h = world_hash_chunk(*h, &w->chunks[world_chunk_index(w, cx, cy, cz)]);
            }
            (*columns)++;
        }
    world_destroy(scratch);
    return true;
}

/* `hash X Z R`: one hash of the voxels and tints of every chunk column whose
 * square comes within R voxels of (X, Z) (hash_disc). Tests compare regions
 * across runs, flights and worker counts with it. */
static int c_hash(void *u, int argc, char **argv)
{
    app *a = u;
    app_sync_world(a);
    long x, z, r;
    if (argc != 4) {
        log_error("usage: hash X Z RADIUS");
        return 1;
    }
    if (!arg_long("hash", "X", argv[1], -WORLD_COORD_LIMIT, WORLD_COORD_LIMIT, &x) ||
        !arg_long("hash", "Z", argv[2], -WORLD_COORD_LIMIT, WORLD_COORD_LIMIT, &z) ||
        !arg_long("hash", "RADIUS", argv[3], 0, 4096, &r))
        return 1;
    uint64_t h = HASH_SEED;
    int columns, generated;
    char err[128];
    if (!hash_disc(a, (double)x, (double)z, (double)r, &h, &columns, &generated, err, sizeof err)) {
        log_error("hash: %s", err);
        return 1;
    }
    log_out("hash_columns=%d", columns);
    log_out("hash_generated=%d", generated);
    log_out("hash=%016llx", (unsigned long long)h);
    return 0;
}

uint64_t app_world_hash(app *a)
{
    if (!app_stream(a)) return world_hash(a->w);
    uint64_t h = HASH_SEED;
    int columns, generated;
    char err[128];
    if (!hash_disc(a, a->pl.pos[0], a->pl.pos[2], ceil((double)a->cv.distance->f), &h, &columns, &generated, err,
                   sizeof err)) {
        log_warn("world_hash: %s; hashing the window as it is", err);
        return world_hash(a->w);
    }
    return h;
}

/* A chunk of the column waits to be meshed (stream.upload_budget left it
 * for a later frame): counted as a hole, though a chunk meshed before
 * still draws its old mesh meanwhile. */
static bool mesh_pending(const world *w, int cx, int cz)
{
    for (int cy = 0; cy < w->cy; cy++)
        if (world_chunk_valid(w, cx, cy, cz) && w->dirty[world_chunk_index(w, cx, cy, cz)]) return true;
    return false;
}

int app_stream_holes(app *a)
{
    const world *w = a->w;
    if (!app_stream(a)) return 0;
    const float reach = 0.75f * a->cv.distance->f;
    /* the eye in world voxels; boxes relative to the render origin (camera.h) */
    const double ex = a->cam.origin[0] + (double)a->cam.pos[0], ez = a->cam.origin[2] + (double)a->cam.pos[2];
    int x0 = (int)floor((ex - reach) / CHUNK_SIZE), x1 = (int)floor((ex + reach) / CHUNK_SIZE);
    int z0 = (int)floor((ez - reach) / CHUNK_SIZE), z1 = (int)floor((ez + reach) / CHUNK_SIZE);
    int n = 0;
    for (int cz = z0; cz <= z1; cz++)
        for (int cx = x0; cx <= x1; cx++) {
            float lo[3];
            camera_rel(&a->cam, cx * CHUNK_SIZE, 0, cz * CHUNK_SIZE, lo);
            float hi[3] = { lo[0] + CHUNK_SIZE, lo[1] + (float)w->sy, lo[2] + CHUNK_SIZE };
            float dx = fmaxf(fmaxf(lo[0] - a->cam.pos[0], a->cam.pos[0] - hi[0]), 0.f);
            float dz = fmaxf(fmaxf(lo[2] - a->cam.pos[2], a->cam.pos[2] - hi[2]), 0.f);
            if (dx * dx + dz * dz > reach * reach || !camera_box_visible(&a->cam, lo, hi)) continue;
            n += !stream_meshable(w, cx, cz) || mesh_pending(w, cx, cz);
        }
    return n;
}

float app_stream_progress(app *a, const char **label)
{
    stream *s = app_stream(a);
    if (!s) return -1.f;
    const stream_comp *c = cstate(a);
    double x = a->pl.pos[0], z = a->pl.pos[2];
    float f = stream_ready_fraction(s, x, z, c->cv.spawn_radius->i);
    if (f >= 1.f) return -1.f;
    int cx = (int)floor(x / CHUNK_SIZE), cz = (int)floor(z / CHUNK_SIZE);
    *label = world_column_state(a->w, cx, cz) == WORLD_COL_READY ? "terrain arriving"
                                                                 : "terrain arriving: you are held until it comes";
    return f;
}

void app_stream_print_stats(app *a)
{
    stream *s = app_stream(a);
    const world *w = a->w;
    /* the stats' names, finite worlds included: everything resident, nothing streams */
    stream_stats st = s ? stream_get_stats(s) : (stream_stats){ 0 };
    int ready_chunks = w->chunk_count;
    if (s) ready_chunks = st.ready * w->cy;
    log_out("chunks_resident=%d", ready_chunks);
    log_out("chunks_generating=%d", st.in_flight * w->cy);
    log_out("chunks_evicted=%lld", st.evicted * w->cy);
    log_out("chunks_paged=%d", st.paged_chunks); /* edited chunks that live only in the world file */
    size_t bytes = (size_t)w->chunk_count * (sizeof(chunk) + CHUNK_VOLUME) + world_tint_bytes(w) + st.stored_bytes;
    log_out("resident_bytes=%zu", bytes);
    if (!s) return;
    const char *label = "";
    float near = app_stream_progress(a, &label);
    log_out("stream_near_ready=%.3f", near < 0 ? 1.0 : (double)near); /* the HUD's bar */
    log_out("stream_held=%d", strstr(label, "held") != NULL);
    log_out("stream_window=%dx%d", w->cx, w->cz);
    log_out("stream_origin=%d %d", w->ocx * CHUNK_SIZE, w->ocz * CHUNK_SIZE);
    log_out("stream_resident=%d", st.resident);
    log_out("stream_ready=%d", st.ready);
    log_out("stream_in_flight=%d", st.in_flight);
    log_out("stream_generated=%lld", st.generated);
    log_out("stream_retried=%lld", st.retried);
    log_out("stream_moves=%d", st.moves);
    log_out("stream_evicted=%lld", st.evicted);
    log_out("stream_stored_chunks=%d", st.stored_chunks);
    log_out("stream_stored_unsaved=%d", st.stored_unsaved);
    log_out("stream_paged_chunks=%d", st.paged_chunks);
    log_out("stream_paged_in=%lld", st.paged_in);
    log_out("stream_page_in_ms=%.2f", st.page_in_ms);
    log_out("stream_page_in_ms_max=%.2f", st.page_in_ms_max); /* read on the workers */
    log_out("stream_page_in_main_ms_max=%.2f", st.page_in_main_ms_max); /* the main thread's install of such a column */
    log_out("stream_page_in_redone=%lld", st.page_in_redone);
    int saves;
    double save_ms_max;
    app_save_paging_stats(&saves, &save_ms_max);
    log_out("stream_page_saves=%d", saves); /* saves made because edited chunks left the window */
    log_out("stream_page_save_ms_max=%.2f", save_ms_max);
}

static void *stream_init(app *a)
{
    stream_comp *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    const cvar_desc vars[] = {
        { "world.stream", "an unbounded world streamed around the player (0: a finite world of world.size_*)", CVAR_BOOL, CVAR_ARCHIVE | CVAR_REGEN, "1" },
        { "stream.margin", "voxels kept resident beyond view.distance", CVAR_INT, CVAR_ARCHIVE, "64", 32, 512 },
        { "stream.hysteresis", "columns the player may drift from the window's centre before it follows", CVAR_INT, CVAR_ARCHIVE, "2", 0, 8 },
        { "stream.memory_mb", "the most memory the window's voxels may take", CVAR_FLOAT, CVAR_ARCHIVE, "1024", 16, 65536 },
        { "stream.spawn_radius", "voxels around the spawn generated before the player lands", CVAR_INT, CVAR_ARCHIVE, "96", 32, 512 },
        { "stream.workers", "columns generated at once on the worker threads (0: every worker, kept busy)", CVAR_INT, CVAR_ARCHIVE, "0", 0, 64 },
        { "stream.margin_workers", "columns generated at once while everything within view.distance is there or coming (0: as many as stream.workers)", CVAR_INT, CVAR_ARCHIVE, "1", 0, 64 },
    };
    cvar **slots[] = { &c->cv.enable, &c->cv.margin, &c->cv.hysteresis, &c->cv.memory_mb, &c->cv.spawn_radius, &c->cv.workers, &c->cv.margin_workers };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) *slots[i] = cvar_register(&vars[i]);
    c->arrived_cap = 256;
    c->arrived_x = malloc(sizeof(int) * (size_t)c->arrived_cap);
    c->arrived_z = malloc(sizeof(int) * (size_t)c->arrived_cap);
    const cmd_desc table[] = {
        { "stream", "[wait [RADIUS]]",
          "the streamed world's state; wait: until every column within RADIUS voxels (default view.distance + stream.margin: all the stream makes) is ready",
          c_stream, a, NULL, CMD_NEEDS_WORLD },
        { "hash", "X Z RADIUS",
          "hash of the voxels and tints of every chunk column within RADIUS voxels of (X, Z), generating what is not resident",
          c_hash, a, NULL, CMD_NEEDS_WORLD },
    };
    cmd_register_table(table, 2);
    return c;
}

static void stream_shutdown(void *self, app *a)
{
    stream_comp *c = self;
    if (!c) return;
    if (c->s) stream_jobs_joined(c->s); /* the app destroyed the job pool before its components */
    drop_stream(c);
    worldgen_stream_destroy(c->gen_pending);
    free(c->arrived_x);
    free(c->arrived_z);
    cmd_unregister("stream");
    cmd_unregister("hash");
    free(c);
}

const component app_stream_component = {
    .name = "stream",
    .init = stream_init,
    .on_new_world = stream_new_world,
    .on_frame = stream_frame,
    .shutdown = stream_shutdown,
};
