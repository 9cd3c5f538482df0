/* app_internal: the app's state, shared by app.c (lifecycle), app_loop.c
 * (the windowed frame loop and input) and app_cmds.c (commands). */
#ifndef STRATA_APP_INTERNAL_H
#define STRATA_APP_INTERNAL_H

#include <stdbool.h>

#include "app.h"
#include "core/jobs.h"
#include "gfx/camera.h"
#include "gfx/renderer.h"
#include "player.h"
#include "ui/cvar.h"
#include "worldgen.h"

typedef struct app {
    app_desc desc;
    struct platform *plat;
    job_pool *jobs;
    renderer *rend;
    unsigned atlas_tex;
    world *w;
    const worldgen_kind *world_kind; /* what the current world was made with */
    int world_seed;
    worldgen_task *gen_task;         /* background generation in flight */
    bool regen_pending;
    double regen_at;
    player pl;
    camera cam;
    render_stats stats;
    int *dirty_idx;
    chunk_mesh *meshes;
    int mesh_cap;
    bool quit;
    double frame_ms;
    struct {
        cvar *seed, *biome, *size_x, *size_y, *size_z, *fov, *distance, *sensitivity, *invert_y, *wireframe,
            *greedy, *crosshair, *fly, *anisotropy;
    } cv;
} app;

/* Tool colours by tint id (1..5 on keys 1-5); 0 is unused. */
extern const float app_tint_palette[8][3];

const worldgen_kind *app_kind(app *a);
bool app_regenerate(app *a);
bool app_regenerate_async(app *a);
void app_sync_world(app *a);
void app_mesh_dirty(app *a);
void app_render(app *a);

/* game content: world kinds and their cvars */
void app_register_game(app *a);
void app_register_commands(app *a);
void app_loop(app *a);

#endif
