/* app_internal: the app's state, shared by the app's files. What reacts to
 * the world (the tool, the renderer, light, saves, ...) is a component
 * (component.h) and keeps its own state; struct app holds what every part
 * of the game reads: platform, world, player, camera, cvars.
 * Files, bottom up (each uses only those before it, so nothing is circular):
 *   component.c   the table of hooks
 *   app_world.c   world lifecycle: generate, install, announce edits
 *   app_tool.c, app_render.c   the first two components
 *   app_hud.c, app_menu.c   the tool strip's contents, the pause menu
 *   app_frame.c   one frame: step, render, overlays
 *   app_cmds.c, app_loop.c, app.c   commands, the window loop, start-up */
#ifndef STRATA_APP_INTERNAL_H
#define STRATA_APP_INTERNAL_H

#include <stdbool.h>

#include "app.h"
#include "component.h"
#include "core/jobs.h"
#include "gfx/camera.h"
#include "gfx/render_mode.h"
#include "gfx/text.h"
#include "play/player.h"
#include "ui/console.h"
#include "ui/cvar.h"
#include "ui/hud.h"
#include "worldgen/worldgen.h"

/* How far from the origin a streamed world's player may be put (tp, a
 * loaded position): the 32-bit coordinates end there, less room for the
 * window around the player. */
#define APP_POS_LIMIT ((double)WORLD_COORD_LIMIT - 64.0 * CHUNK_SIZE)

typedef struct app {
    app_desc desc;
    struct platform *plat;
    job_pool *jobs;
    component_table comps;
    unsigned atlas_tex;
    world *w;
    const worldgen_kind *world_kind; /* what the current world was made with */
    int world_seed;
    worldgen_task *gen_task;         /* background generation in flight */
    bool regen_pending;
    double regen_at;
    /* on_world_leaving and on_new_world: the same world in a window of
     * another size (voxels, edits and player carried over) */
    bool world_resizing;
    bool closing; /* on_world_leaving: the app is shutting down (the exit save) */
    player pl;
    camera cam;
    double script_time; /* the clock of 'frames' (scripts run on simulated time) */
    render_stats stats; /* of the last frame drawn (HUD, stats) */
    const char *render_mode; /* name of the mode that drew it */
    bool quit;
    int config_failures; /* lines of --config that failed: a headless run then exits 1 */
    double frame_ms;
    console *con;         /* windowed runs only */
    text_ctx *text;
    float frame_times[HUD_FRAME_SAMPLES];
    int frame_head, frame_count;
    float fps;
    struct {
        cvar *seed, *biome, *size_x, *size_y, *size_z, *fov, *distance, *sensitivity, *invert_y, *wireframe,
            *greedy, *crosshair, *fly, *anisotropy, *tool_visible;
    } cv;
} app;

/* Tool colours by tint id (1..5 on keys 1-5); 0 is unused. */
extern const float app_tint_palette[8][3];

/* Every cvar, command, component and default binding of the game, without
 * a window or a world: app_run uses it, and so does the man page (app_man.c). */
void app_register_all(app *a);

/* game content: world kinds and their cvars */
void app_register_game(app *a);
void app_register_commands(app *a);
/* Puts every component in a->comps (game/app/app_components.c: the list). */
void app_add_components(app *a);
void app_loop(app *a);
/* One frame's time (ms) for the HUD: its frame-time graph and the fps
 * estimate. The window's loop notes the time between frames; `frames`
 * notes what each simulated frame took to run. */
void app_note_frame(app *a, float ms);

/* Clamps a feet position to where tp may put the player (the world's
 * columns, or the 32-bit reach of a streamed one; a little over
 * the top), warning "WHO: Y ... clamped" per axis it moved. */
void app_clamp_pos(app *a, double p[3], const char *who);

#endif
