#include "app_emit.h"
#include "app_light.h"
#include "app_light_land.h"
#include "app_stream.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu_budget.h"
#include "core/log.h"
#include "gfx/emit_tex.h"
#include "gfx/sky.h"
#include "voxel/stream.h"

/* ---- emit: block light ---- */

typedef struct app_emit {
    emit *vol;       /* NULL until a world exists */
    emit_tex tex;
    bool gl;
    const world *w;
    struct {
        cvar *enable, *color, *lamp, *lamp_range, *brightness;
    } cv;
    /* Streamed columns whose block light waits for a frame's budget
     * (stream.emit_budget_ms), oldest first: a ring as long as the window
     * has columns, made with the world, so nothing is allocated in flight. */
    int *wait_x, *wait_z, wait_cap, wait_head, wait_n;
    /* The columns whose bytes were made, by a fill with their ring of 8 in
     * the window or by their landing (app_emit_land_column): kept as the
     * light component keeps the columns whose light landed. */
    light_land made;
    cvar *budget;
    cpu_budget spend; /* a relight's running cost, frame to frame */
} app_emit;

static void *emit_init(app *a)
{
    (void)a;
    app_emit *E = calloc(1, sizeof *E);
    if (!E) return NULL;
    cvar_desc d[] = {
        { "light.emit", "light from emitters (lamps, glowing ore) spreading through the air", CVAR_BOOL, CVAR_ARCHIVE, "1" },
        { "light.emit_color", "colour emitters give at full level (r g b)", CVAR_VEC3, CVAR_ARCHIVE, "1.15 0.86 0.52", 0, 4 },
        { "player.lamp", "the player's headlamp: lights what the player faces (L toggles)", CVAR_BOOL, CVAR_ARCHIVE, "0" },
        { "player.lamp_range", "how far the headlamp reaches, voxels", CVAR_FLOAT, CVAR_ARCHIVE, "20", 4, 64 },
        { "view.brightness", "brightness: lifts the dark so caves stay legible (0 = none, 1 = brightest)", CVAR_FLOAT,
          CVAR_ARCHIVE, "0.5", 0, 1 },
    };
    cvar **slots[] = { &E->cv.enable, &E->cv.color, &E->cv.lamp, &E->cv.lamp_range, &E->cv.brightness };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) *slots[i] = cvar_register(&d[i]);
    E->budget = cvar_register(&(cvar_desc){
        "stream.emit_budget_ms",
        "streamed world: main-thread CPU time a frame gives the block light of arrived columns (one column always; "
        "the rest waits for the next frame)",
        CVAR_FLOAT, CVAR_ARCHIVE, "0.2", 0, 100 });
    return E;
}

static bool emit_gfx_init(void *self, app *a)
{
    (void)a;
    app_emit *E = self;
    if (E) E->gl = true;
    return E != NULL;
}

/* The volume follows the world's window (streaming). */
static void follow_window(app_emit *E)
{
    if (!E->vol || !E->w) return;
    int x0, z0;
    emit_origin(E->vol, &x0, &z0);
    if (x0 != world_x0(E->w) || z0 != world_z0(E->w)) emit_move(E->vol, world_x0(E->w), world_z0(E->w));
}

static void emit_new_world(void *self, app *a, world *w)
{
    app_emit *E = self;
    if (!E) return;
    E->w = w;
    E->wait_head = E->wait_n = 0;
    if (E->wait_cap != w->cx * w->cz) {
        free(E->wait_x), free(E->wait_z);
        E->wait_cap = w->cx * w->cz;
        E->wait_x = malloc(sizeof *E->wait_x * (size_t)E->wait_cap);
        E->wait_z = malloc(sizeof *E->wait_z * (size_t)E->wait_cap);
        if (!E->wait_x || !E->wait_z) E->wait_cap = 0; /* arrivals are then lit at once */
    }
    if (!light_land_reset(&E->made, w)) E->wait_cap = 0;
    emit_destroy(E->vol);
    if (E->gl) emit_tex_destroy(&E->tex);
    E->vol = emit_create(w->sx, w->sy, w->sz);
    if (!E->vol) {
        log_error("emit: no memory for a %dx%dx%d volume: emitters stay dark", w->sx, w->sy, w->sz);
        return;
    }
    emit_move(E->vol, world_x0(w), world_z0(w));
    char err[256];
    if (E->gl && !emit_tex_create(&E->tex, w->sx, w->sy, w->sz, err, sizeof err)) log_error("emit: %s", err);
    if (world_window_empty(w)) return; /* streamed: lit as columns arrive */
    emit_fill_all(E->vol, w);
    light_land_all(&E->made, w, app_stream(a) != NULL); /* exact where the ring is there */
    if (E->gl) emit_tex_upload(&E->tex, E->vol, NULL, NULL);
}

static void relight(app_emit *E, const int lo[3], const int hi[3])
{
    int wl[3], wh[3];
    if (emit_relight(E->vol, E->w, lo, hi, wl, wh) && E->gl) emit_tex_upload(&E->tex, E->vol, wl, wh);
}

/* Column (cx, cz)'s block light from the world as it is (clipped away if
 * the window left it): exact, and made, when its ring is there. */
static void relight_column(app_emit *E, int cx, int cz)
{
    const int lo[3] = { cx * CHUNK_SIZE, 0, cz * CHUNK_SIZE };
    const int hi[3] = { lo[0] + CHUNK_SIZE, E->w->sy, lo[2] + CHUNK_SIZE };
    relight(E, lo, hi);
    if (stream_meshable(E->w, cx, cz)) light_land_set(&E->made, E->w, cx, cz, true);
}

/* The oldest waiting column's block light; false when none waits. */
static bool relight_waiting(app_emit *E)
{
    if (E->wait_n == 0) return false;
    const int cx = E->wait_x[E->wait_head], cz = E->wait_z[E->wait_head];
    E->wait_head = (E->wait_head + 1) % E->wait_cap, E->wait_n--;
    relight_column(E, cx, cz);
    return true;
}

/* Column (cx, cz) waits for a frame's budget (emit_frame); at once when
 * the queue is full. */
static void queue_column(app_emit *E, int cx, int cz)
{
    if (E->wait_n == E->wait_cap) {
        relight_column(E, cx, cz);
        return;
    }
    int at = (E->wait_head + E->wait_n++) % E->wait_cap;
    E->wait_x[at] = cx, E->wait_z[at] = cz;
}

/* A streamed column's arrival: its emitters are counted and what its slot
 * held (a column's that left) is cleared (emit_column_arrived). A column's
 * bytes are made once its ring of 8 is there. Where the light component
 * bakes this arrival's columns on the workers (app_light_bakes_arrivals),
 * they are made there too, from the same snapshots, and land with their
 * light (app_emit_land_column). Otherwise each column of the arrival's 3 x
 * 3 whose ring is now there and whose bytes were not made waits for a
 * frame's budget (emit_frame): its relight floods the emitters within
 * reach around it, up to a millisecond of the main thread where caves hold
 * glowing ore, and is exact when it comes, the fill reading the world as
 * it is then. Edits are relit at once. */
static void emit_on_edit(void *self, app *a, const world_edit *e)
{
    app_emit *E = self;
    if (!E || !E->vol) return;
    follow_window(E);
    bool column = e->generated && e->hi[0] - e->lo[0] == CHUNK_SIZE && e->hi[2] - e->lo[2] == CHUNK_SIZE &&
                  !(e->lo[0] & CHUNK_MASK) && !(e->lo[2] & CHUNK_MASK);
    if (!column || !E->wait_cap) {
        relight(E, e->lo, e->hi);
        return;
    }
    const int cx = e->lo[0] >> CHUNK_BITS, cz = e->lo[2] >> CHUNK_BITS;
    int wl[3], wh[3];
    if (emit_column_arrived(E->vol, E->w, cx, cz, wl, wh) && E->gl) emit_tex_upload(&E->tex, E->vol, wl, wh);
    light_land_set(&E->made, E->w, cx, cz, false);
    if (app_light_bakes_arrivals(a)) return;
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) {
            int x = cx + dx, z = cz + dz;
            if (stream_meshable(E->w, x, z) && !light_land_has(&E->made, E->w, x, z)) queue_column(E, x, z);
        }
}

static void emit_frame(void *self, app *a, double now, float dt)
{
    (void)a, (void)now, (void)dt;
    app_emit *E = self;
    if (!E || !E->vol) return;
    follow_window(E);
    cpu_budget_begin(&E->spend, E->budget->f);
    while (E->wait_n > 0 && cpu_budget_next(&E->spend)) relight_waiting(E);
}

void app_emit_land_column(app *a, const emit_column *c, int cx, int cz)
{
    app_emit *E = component_state(&a->comps, app_emit_component.name);
    if (!E || !E->vol) return;
    follow_window(E);
    int wl[3], wh[3];
    if (emit_column_land(c, E->vol, wl, wh) && E->gl) emit_tex_upload(&E->tex, E->vol, wl, wh);
    if (stream_meshable(E->w, cx, cz)) light_land_set(&E->made, E->w, cx, cz, true);
}

void app_emit_queue_column(app *a, int cx, int cz)
{
    app_emit *E = component_state(&a->comps, app_emit_component.name);
    if (!E || !E->vol) return;
    follow_window(E);
    queue_column(E, cx, cz);
}

void app_emit_settle(app *a)
{
    app_emit *E = component_state(&a->comps, app_emit_component.name);
    if (!E || !E->vol) return;
    follow_window(E);
    while (relight_waiting(E)) {
    }
}

static void emit_shutdown(void *self, app *a)
{
    (void)a;
    app_emit *E = self;
    if (!E) return;
    emit_destroy(E->vol);
    if (E->gl) emit_tex_destroy(&E->tex);
    free(E->wait_x), free(E->wait_z);
    light_land_free(&E->made);
    free(E);
}

const component app_emit_component = {
    .name = "emit",
    .init = emit_init,
    .gfx_init = emit_gfx_init,
    .on_new_world = emit_new_world,
    .on_edit = emit_on_edit,
    .on_frame = emit_frame,
    .shutdown = emit_shutdown,
};

const emit *app_emit_volume(const app *a)
{
    const app_emit *E = component_state(&a->comps, app_emit_component.name);
    return E ? E->vol : NULL;
}

static int mod(int v, int n)
{
    int r = v % n;
    return r < 0 ? r + n : r;
}

void app_emit_settings(const app *a, render_settings *s, const camera *cam)
{
    compose_look *c = &s->look;
    *c = compose_look_plain();
    const cvar *sky_on = cvar_find("render.sky"), *clouds = cvar_find("render.clouds");
    c->sky = sky_on && sky_on->b;
    c->clouds = clouds && clouds->b;
    static const float zenith[3] = { 0.30f, 0.50f, 0.84f }, horizon[3] = { 0.70f, 0.80f, 0.92f },
                       sun[3] = { 1.0f, 0.93f, 0.76f };
    memcpy(c->zenith, zenith, sizeof zenith);
    memcpy(c->horizon, horizon, sizeof horizon);
    memcpy(c->sun_color, sun, sizeof sun);
    c->sun_radius_deg = 2.2f;
    const app_emit *E = component_state(&a->comps, app_emit_component.name);
    if (!E) return;
    c->brightness = E->cv.brightness->f;
    c->lamp = E->cv.lamp->b;
    c->lamp_range = E->cv.lamp_range->f;
    static const float lamp[3] = { 1.05f, 0.98f, 0.86f };
    memcpy(c->lamp_color, lamp, sizeof lamp);
    vec3 fwd;
    camera_forward(cam->yaw, cam->pitch, fwd);
    memcpy(c->lamp_dir, fwd, sizeof c->lamp_dir);
    c->emit = E->cv.enable->b && E->vol && E->tex.tex && emit_any_lit(E->vol);
    if (!c->emit) return;
    c->emit_tex = E->tex.tex;
    int x0, z0;
    emit_size(E->vol, &c->emit_size[0], &c->emit_size[1], &c->emit_size[2]);
    emit_origin(E->vol, &x0, &z0);
    c->emit_lo[0] = x0 - cam->origin[0], c->emit_lo[1] = -cam->origin[1], c->emit_lo[2] = z0 - cam->origin[2];
    c->emit_shift[0] = mod(cam->origin[0], c->emit_size[0]);
    c->emit_shift[1] = cam->origin[1];
    c->emit_shift[2] = mod(cam->origin[2], c->emit_size[2]);
    memcpy(c->emit_color, E->cv.color->v, sizeof c->emit_color);
}

/* ---- sky ---- */

typedef struct app_sky {
    sky *k;
} app_sky;

static void *sky_init(app *a)
{
    (void)a;
    app_sky *K = calloc(1, sizeof *K);
    if (!K) return NULL;
    cvar_desc d[] = {
        { "render.sky", "a sky: gradient, the sun's disc at light.sun_yaw/pitch, fog to the sky's colour (0 = flat colour)",
          CVAR_BOOL, CVAR_ARCHIVE, "1" },
        { "render.clouds", "a few cheap soft clouds in the sky (made on the sky's coarse grid: blurry)", CVAR_BOOL, CVAR_ARCHIVE, "0" },
    };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) cvar_register(&d[i]);
    return K;
}

static bool sky_gfx_init(void *self, app *a)
{
    (void)a;
    app_sky *K = self;
    if (!K) return false;
    char err[512];
    K->k = sky_create(err, sizeof err);
    if (!K->k) log_error("sky: %s: the sky stays one colour", err);
    return true;
}

static void sky_component_draw(void *self, app *a, const frame_draw *f)
{
    (void)a;
    app_sky *K = self;
    if (K) sky_draw(K->k, f->cam, f->s);
}

static void sky_shutdown(void *self, app *a)
{
    (void)a;
    app_sky *K = self;
    if (!K) return;
    sky_destroy(K->k);
    free(K);
}

const component app_sky_component = {
    .name = "sky",
    .init = sky_init,
    .gfx_init = sky_gfx_init,
    .draw = sky_component_draw,
    .shutdown = sky_shutdown,
};
