/* app_internal: the app's state, shared by app.c (lifecycle), app_loop.c
 * (the windowed frame loop and input) and app_cmds.c (commands). */
#ifndef STRATA_APP_INTERNAL_H
#define STRATA_APP_INTERNAL_H

#include <stdbool.h>

#include "app.h"
#include "core/jobs.h"
#include "gfx/camera.h"
#include "gfx/ghost.h"
#include "gfx/renderer.h"
#include "player.h"
#include "tool.h"
#include "gfx/text.h"
#include "ui/console.h"
#include "ui/cvar.h"
#include "ui/hud.h"
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
    /* the cutting tool (seed 003): where it is this frame, and the buttons */
    tool tool;
    octree_pose tool_pose;
    bool tool_ready;   /* tool_init succeeded */
    bool cutting;      /* +cut held: cut every frame (tunnelling) */
    bool filling;      /* +fill held: fill now and then */
    double fill_next;  /* when a held fill fills again */
    double script_time; /* the clock of 'frames' (scripts run on simulated time) */
    ghost_renderer *ghost;   /* draws the tool's shape where it is */
    unsigned ghost_version;  /* the tool shape_version the ghost holds */
    render_stats stats;
    int *dirty_idx;
    chunk_mesh *meshes;
    int mesh_cap;
    bool quit;
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

const worldgen_kind *app_kind(app *a);
bool app_regenerate(app *a);
bool app_regenerate_async(app *a);
bool app_sync_world(app *a);
void app_mesh_dirty(app *a);
void app_render(app *a);
/* What the tool sees: world, eye and view angles (tool_view_fn). */
bool app_tool_view(void *user, tool_view *out);
/* Places the tool for this frame and applies held cut/fill (windowed loop). */
void app_tool_update(app *a, double now);
/* One simulation step: the player moves (collision on the tool's octree),
 * then the tool follows the eye and applies held cut/fill. The window loop
 * and the 'frames' command both run it. */
void app_step(app *a, const player_input *in, float dt, double now);
/* Draws the tool's shape where the view puts it (after the world, before
 * the crosshair), semi-transparent in the tool's colour. */
void app_draw_tool(app *a, const camera *cam, unsigned framebuffer, int width, int height);
/* The tool's terrain octree when it describes the current world, else NULL:
 * the player's collision broad phase. Rebinding frees the old tree, so this
 * is asked right before every player update, never kept. */
const octree *app_occupancy(const app *a);
/* HUD, help, progress bar and console over the frame (windowed runs). */
void app_draw_overlays(app *a);

/* Every cvar, command and default binding of the game, without a window
 * or a world: app_run uses it, and so does the man page (app_man.c). */
void app_register_all(app *a);

/* game content: world kinds and their cvars */
void app_register_game(app *a);
void app_register_commands(app *a);
/* The cutting tool: tool_init, its cvars and commands, +cut/+fill. */
void app_register_tool(app *a);
void app_loop(app *a);

#endif
