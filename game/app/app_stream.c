#include "app_stream.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_light.h"
#include "app_render.h"
#include "app_world.h"
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
        cvar *enable, *margin, *hysteresis, *memory_mb, *spawn_radius;
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
    return c && c->cv.enable && c->cv.enable->b;
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

static void update(stream_comp *c, app *a)
{
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
    if (c->s && stream_world(c->s) == a->w) update(c, a);
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
        int radius = (int)a->cv.distance->f;
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
        stream_wait(c->s, a->pl.pos[0], a->pl.pos[2], radius);
        announce_arrivals(c, a);
        /* generated, lit and meshed: what a script draws next is whole */
        app_light_settle(a);
        app_render_mesh_dirty(a);
        log_out("stream_wait_ms=%.1f", timer_ms_since(t0));
    } else if (argc >= 2) {
        log_error("usage: stream [wait [RADIUS]]");
        return 1;
    }
    app_stream_print_stats(a);
    return 0;
}

void app_stream_print_stats(app *a)
{
    stream *s = app_stream(a);
    if (!s) return;
    stream_stats st = stream_get_stats(s);
    const world *w = stream_world(s);
    log_out("stream_window=%dx%d", w->cx, w->cz);
    log_out("stream_origin=%d %d", w->ocx * CHUNK_SIZE, w->ocz * CHUNK_SIZE);
    log_out("stream_resident=%d", st.resident);
    log_out("stream_ready=%d", st.ready);
    log_out("stream_in_flight=%d", st.in_flight);
    log_out("stream_generated=%lld", st.generated);
    log_out("stream_retried=%lld", st.retried);
    log_out("stream_moves=%d", st.moves);
    log_out("stream_stored_chunks=%d", st.stored_chunks);
}

static void *stream_init(app *a)
{
    stream_comp *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    const cvar_desc vars[] = {
        { "world.stream", "an unbounded world streamed around the player (0: a finite world of world.size_*)", CVAR_BOOL, CVAR_ARCHIVE | CVAR_REGEN, "0" },
        { "stream.margin", "voxels kept resident beyond view.distance", CVAR_INT, CVAR_ARCHIVE, "64", 32, 512 },
        { "stream.hysteresis", "columns the player may drift from the window's centre before it follows", CVAR_INT, CVAR_ARCHIVE, "2", 0, 8 },
        { "stream.memory_mb", "the most memory the window's voxels may take", CVAR_FLOAT, CVAR_ARCHIVE, "1024", 16, 65536 },
        { "stream.spawn_radius", "voxels around the spawn generated before the player lands", CVAR_INT, CVAR_ARCHIVE, "96", 32, 512 },
    };
    cvar **slots[] = { &c->cv.enable, &c->cv.margin, &c->cv.hysteresis, &c->cv.memory_mb, &c->cv.spawn_radius };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) *slots[i] = cvar_register(&vars[i]);
    c->arrived_cap = 256;
    c->arrived_x = malloc(sizeof(int) * (size_t)c->arrived_cap);
    c->arrived_z = malloc(sizeof(int) * (size_t)c->arrived_cap);
    const cmd_desc table[] = {
        { "stream", "[wait [RADIUS]]",
          "the streamed world's state; wait: until every column within RADIUS voxels (default view.distance) is ready",
          c_stream, a, NULL, CMD_NEEDS_WORLD },
    };
    cmd_register_table(table, 1);
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
    free(c);
}

const component app_stream_component = {
    .name = "stream",
    .init = stream_init,
    .on_new_world = stream_new_world,
    .on_frame = stream_frame,
    .shutdown = stream_shutdown,
};
