/* component: the subsystems that react to the world (the tool, the
 * renderer, light, saves, caves, ...) as entries in one table of hooks, as
 * ClassiCube's IGameComponent. The app walks the table; it does not grow a
 * field and a call for every new subsystem. An edit announces its box once
 * (app_world_edited) and every component that cares follows from it. */
#ifndef STRATA_COMPONENT_H
#define STRATA_COMPONENT_H

#include <stdbool.h>

#include "gfx/camera.h"
#include "gfx/render_mode.h"
#include "voxel/world.h"

typedef struct app app;

/* A box of changed voxels [lo, hi) in world voxel coordinates, and who
 * changed them (a component may skip its own edits). */
typedef struct world_edit {
    int lo[3], hi[3];
    const struct component *source; /* NULL: not a component (a command, a load) */
    /* Not the player's doing: a streamed column arrived from generation
     * (the box is the column). Re-mesh and relight as for any edit; never
     * treat it as a change to save or as a cut that can loosen bodies. */
    bool generated;
} world_edit;

/* What a component's draw hook gets: the frame as the world was drawn,
 * depth buffer still bound. */
typedef struct frame_draw {
    const camera *cam;
    const render_settings *s;
} frame_draw;

/* Every hook is optional (NULL). `self` is the state init returned; a
 * component keeps its state there, not in struct app.
 *   init          register cvars and commands (before the config is read);
 *                 return the component's state (NULL is allowed when it
 *                 has none). Runs before any GL exists.
 *   gfx_init      the GL context exists (main thread): shaders, buffers.
 *                 Return false with a warning logged to be left out of draw.
 *   on_world_leaving  the world is about to be replaced or destroyed: let
 *                 go of references into it (saves write its edits first)
 *   on_new_world  a world was installed (generated, loaded); the old one
 *                 is gone and the player stands in the new one
 *   on_edit       voxels in e->lo..e->hi changed (cut, fill, grammar, load)
 *   on_window_moving  the streamed window is about to leave every column
 *                 outside [lo, hi) (voxels, x then z): what a component
 *                 holds of the world there (a falling body) goes back into
 *                 it now, while those columns are still the window's, so
 *                 it leaves (and is saved) with them
 *   on_frame      once per simulated frame, after the player moved;
 *                 while the game is paused (the menu) only components
 *                 without `pauses` get it: the world keeps streaming,
 *                 lighting and saving, the simulation stands still
 *   draw_first    on the cleared frame, before the world: opaque things
 *                 drawn here hide the world behind them from early depth
 *                 and from the occlusion read-back (falling bodies)
 *   draw          after the world is drawn, before the crosshair and HUD
 *   shutdown      free everything (GL still current when it existed; the
 *                 worker pool is already destroyed, every queued job run) */
typedef struct component {
    const char *name;
    void *(*init)(app *a);
    bool (*gfx_init)(void *self, app *a);
    void (*on_new_world)(void *self, app *a, world *w);
    void (*on_edit)(void *self, app *a, const world_edit *e);
    void (*on_frame)(void *self, app *a, double now, float dt);
    void (*draw)(void *self, app *a, const frame_draw *f);
    void (*shutdown)(void *self, app *a);
    void (*on_world_leaving)(void *self, app *a, world *old);
    void (*draw_first)(void *self, app *a, const frame_draw *f);
    void (*on_window_moving)(void *self, app *a, const int lo[2], const int hi[2]);
    bool pauses; /* part of the simulation: no on_frame while paused */
} component;

#define COMPONENT_MAX 32

typedef struct component_table {
    const component *c[COMPONENT_MAX];
    void *self[COMPONENT_MAX];
    bool drawable[COMPONENT_MAX]; /* gfx_init succeeded (or there was none) */
    /* each on_frame's wall time in the last component_frame_all: the
     * flight bench says which component a slow step was */
    float frame_ms[COMPONENT_MAX];
    /* and its main-thread CPU time (timer_thread_cpu_ns): on a loaded
     * machine the wall time also counts waits for a core */
    float frame_cpu_ms[COMPONENT_MAX];
    int count;
    bool paused; /* the game is paused: component_frame_all skips `pauses` */
} component_table;

/* Appends a component (refused with false when the table is full or the
 * name is taken). Call before component_init_all. */
bool component_add(component_table *t, const component *c);
/* The state of the component called `name` (NULL if absent or stateless). */
void *component_state(const component_table *t, const char *name);

/* The walks, in table order (shutdown in reverse order). */
void component_init_all(component_table *t, app *a);
void component_gfx_init_all(component_table *t, app *a);
void component_world_leaving_all(component_table *t, app *a, world *old);
void component_new_world_all(component_table *t, app *a, world *w);
void component_edit_all(component_table *t, app *a, const world_edit *e);
void component_window_moving_all(component_table *t, app *a, const int lo[2], const int hi[2]);
void component_frame_all(component_table *t, app *a, double now, float dt);
void component_draw_first_all(component_table *t, app *a, const frame_draw *f);
void component_draw_all(component_table *t, app *a, const frame_draw *f);
void component_shutdown_all(component_table *t, app *a);

#endif
