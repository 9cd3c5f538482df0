/* app_light: snowflake lighting in the game. Owns the light volume of the
 * current world (engine/light) and its texture (gfx/light_tex): a whole-world
 * bake in the background after each new world (the world is drawn unlit until
 * it lands), a windowed relight after each edit, the light.* cvars and the
 * `light bake` / `light stats` commands. Renderers only sample the texture. */
#ifndef STRATA_APP_LIGHT_H
#define STRATA_APP_LIGHT_H

#include <stdbool.h>

#include "core/jobs.h"
#include "gfx/light_tex.h"
#include "light/light.h"
#include "ui/cvar.h"

typedef struct app_light {
    light *vol;           /* NULL until a world exists */
    light_tex tex;
    bool gl;              /* a GL context exists: keep the texture */
    light_task *task;     /* background bake in flight */
    light_params task_params;
    bool pending_edit;    /* edits while the bake ran: relit when it lands */
    int edit_lo[3], edit_hi[3];
    bool rebake;          /* a parameter changed: bake again */
    bool baked;           /* the volume holds a finished bake of this world */
    light_stats last;     /* of the last bake or relight */
    const char *last_what;
    long relights;
    job_pool *jobs;
    const world *w;
    int seed;
    struct {
        cvar *enable, *sun_particles, *sky_particles, *steps, *step, *radius, *sun_yaw, *sun_pitch, *jitter,
            *sun_color, *sky_color, *ambient;
    } cv;
} app_light;

/* Cvars and commands; gl says whether textures may be made. */
void app_light_init(app_light *L, job_pool *jobs, bool gl);
/* A new world was installed: resizes the volume and starts a bake. */
void app_light_new_world(app_light *L, const world *w, int seed);
/* Voxels in [lo, hi) changed: relight the window they reach (now, on the
 * workers) and upload it; deferred while a bake runs. */
void app_light_edited(app_light *L, const int lo[3], const int hi[3]);
/* Once a frame: lands a finished bake, starts a requested one. */
void app_light_frame(app_light *L);
/* Waits for any bake in flight (headless scripts want the final picture). */
void app_light_sync(app_light *L);
/* 0..1 while a bake runs, else -1 (the HUD's progress bar). */
float app_light_progress(const app_light *L);
void app_light_shutdown(app_light *L);

/* What the terrain shaders need this frame (gfx/light_tex.h). */
void app_light_shading(const app_light *L, light_shading *out);
/* Towards the sun (light.sun_yaw, light.sun_pitch): the renderers' sun too,
 * so face shading and shadows agree. */
void app_light_sun_dir(const app_light *L, float out[3]);

#endif
