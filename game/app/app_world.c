#include "app_world.h"

#include <stdlib.h>

#include "app_stream.h"
#include "core/log.h"
#include "worldgen/terrain.h"

const worldgen_kind *app_kind(const app *a)
{
    const worldgen_kind *k = worldgen_find(a->cv.biome->str);
    return k ? k : &terrain_hills;
}

/* Installs a freshly generated world: the components let go of the old
 * one (saves write its edits), the player spawns, then every component
 * hears of the new world (a saved one puts its edits and player back). */
static void install_world(app *a, world *w, bool streamed)
{
    if (a->w) component_world_leaving_all(&a->comps, a, a->w);
    world_destroy(a->w);
    a->w = w;
    a->world_seed = a->cv.seed->i;
    a->world_kind = app_kind(a);
    /* on the ground near the centre, in a clearing if there is one (never
     * on the leaf roof); a streamed window starts with no ground at all:
     * the stream spawns the player once the ground around the spawn is
     * there (app_stream.c), and searching every column of the empty window
     * for a floor held each F1-F4 for most of a second */
    a->pl.yaw = 0, a->pl.pitch = 0;
    player_look(&a->pl, APP_DEFAULT_YAW, APP_DEFAULT_PITCH); /* first: the spawn looks for an open view along it */
    if (streamed || !player_spawn_ground(&a->pl, w, (float)w->sx * 0.5f, (float)w->sz * 0.5f))
        player_spawn(&a->pl, w, (float)w->sx * 0.5f, (float)w->sz * 0.5f);
    component_new_world_all(&a->comps, a, w);
}

bool app_regenerate(app *a)
{
    a->regen_pending = false;
    if (a->gen_task) { /* a background generation is superseded */
        world_destroy(worldgen_finish(a->gen_task));
        a->gen_task = NULL;
    }
    if (app_streaming(a)) { /* the window starts empty: the stream fills it as the player nears */
        world *sw;
        if (!app_stream_begin(a, &sw)) return false;
        install_world(a, sw, true);
        return true;
    }
    world *w = world_create(a->cv.size_x->i, a->cv.size_y->i, a->cv.size_z->i);
    if (!w) return false;
    if (!worldgen_generate(w, app_kind(a), a->cv.seed->i, a->jobs)) {
        world_destroy(w);
        return false;
    }
    install_world(a, w, false);
    return true;
}

bool app_regenerate_async(app *a)
{
    if (app_streaming(a)) return app_regenerate(a); /* streaming is asynchronous by itself */
    a->regen_pending = false;
    if (a->gen_task) world_destroy(worldgen_finish(a->gen_task));
    char err[256];
    a->gen_task = worldgen_start(a->cv.size_x->i, a->cv.size_y->i, a->cv.size_z->i, app_kind(a), a->cv.seed->i,
                                 a->jobs, err, sizeof err);
    if (!a->gen_task) {
        log_error("%s: %s", app_kind(a)->name, err);
        return false;
    }
    return true;
}

bool app_sync_world(app *a)
{
    if (a->gen_task) {
        world *w = worldgen_finish(a->gen_task);
        a->gen_task = NULL;
        if (!w) return false;
        install_world(a, w, false);
    }
    if (a->regen_pending) return app_regenerate(a);
    return true;
}

void app_world_edited(app *a, const int lo[3], const int hi[3], const component *source)
{
    if (!a->w) return;
    world_edit e = { .source = source };
    /* clipped to the window (global coordinates: a streamed one may be anywhere) */
    const int wlo[3] = { world_x0(a->w), 0, world_z0(a->w) };
    const int whi[3] = { wlo[0] + a->w->sx, a->w->sy, wlo[2] + a->w->sz };
    for (int i = 0; i < 3; i++) {
        e.lo[i] = lo[i] < wlo[i] ? wlo[i] : lo[i];
        e.hi[i] = hi[i] > whi[i] ? whi[i] : hi[i];
        if (e.lo[i] >= e.hi[i]) return; /* nothing of the world changed */
    }
    component_edit_all(&a->comps, a, &e);
}
