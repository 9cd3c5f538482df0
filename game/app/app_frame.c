#include "app_frame.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app_bodies.h"
#include "app_emit.h"
#include "app_enhance.h"
#include "app_far.h"
#include "app_hud.h"
#include "app_light.h"
#include "app_menu.h"
#include "app_render.h"
#include "app_stream.h"
#include "app_tool.h"
#include "platform/platform.h"
#include "ui/console_view.h"

void app_step(app *a, const player_input *in, float dt, double now)
{
    /* the menu pauses the game: the player and the simulation's components
     * stand still, the world's upkeep (streaming, light, saves) goes on */
    a->comps.paused = app_menu_open(a);
    if (a->comps.paused) {
        component_frame_all(&a->comps, a, now, dt);
        return;
    }
    a->pl.flying = a->cv.fly->b;
    a->pl.occupancy = app_occupancy(a);
    collide_grid ground;
    a->pl.ground = app_enhance_ground(a, &ground) ? &ground : NULL;
    player_update(&a->pl, a->w, in, dt);
    a->pl.occupancy = NULL; /* the tree may be rebuilt before the next update */
    a->pl.ground = NULL;    /* and the fragments re-enhanced */
    component_frame_all(&a->comps, a, now, dt); /* after the move: the tool follows this frame's eye */
}

void app_render(app *a)
{
    int w, h;
    platform_size(a->plat, &w, &h);
    camera *c = &a->cam;
    double eye[3];
    player_eye(&a->pl, eye);
    camera_set_eye(c, eye); /* drawn relative to an origin near the eye (camera.h) */
    c->yaw = a->pl.yaw;
    c->pitch = a->pl.pitch;
    c->fov = a->cv.fov->f;
    c->aspect = h > 0 ? (float)w / (float)h : 1.f;
    c->znear = 0.05f;
    /* the farthest point in view: view.distance away on the map, and as far
     * down as the eye is high (fog and culling are horizontal) */
    float above = a->w ? fmaxf(c->pos[1], (float)a->w->sy) : c->pos[1];
    float far = app_far_distance(a); /* the far rings reach further (0: off) */
    c->zfar = fmaxf(a->cv.distance->f, far) + 64.f + fmaxf(above, 0.f);
    camera_update(c);
    render_settings s = {
        .width = w, .height = h, .framebuffer = platform_framebuffer(a->plat),
        .view_distance = a->cv.distance->f, .fog_distance = far,
        .sky = { 0.62f, 0.76f, 0.93f }, .sun = { 0.35f, 1.0f, 0.25f },
        .wireframe = a->cv.wireframe->b, .atlas = a->atlas_tex,
    };
    memcpy(s.tints, app_tint_palette, sizeof s.tints);
    app_light_settings(a, &s);
    /* the light window's first voxel relative to the render origin, as
     * everything drawn is: the shaders subtract it in integers */
    for (int k = 0; k < 3; k++) s.light.origin[k] -= c->origin[k];
    app_emit_settings(a, &s, c);
    if (!app_render_world(a, c, &s)) return;
    component_draw_all(&a->comps, a, &(frame_draw){ c, &s });
    if (a->cv.crosshair->b) app_render_crosshair(a, &s); /* over the tool, not tinted by it */
}

/* The keys read_input reads directly, for the help overlay (everything
 * else is a binding and is listed from the bindings). */
static const hud_key_help k_unbound_keys[] = {
    { "MOUSE", "look" },
    { "GRAVE (`)", "console (TAB completes)" },
};

void app_draw_overlays(app *a)
{
    if (!a->text) return;
    int w, h;
    platform_size(a->plat, &w, &h);
    text_begin(a->text, w, h);
    cvar *dbg = cvar_find("hud.debug"), *help = cvar_find("hud.help");
    char mode[64];
    snprintf(mode, sizeof mode, "%s%s", a->render_mode ? a->render_mode : "?", a->cv.wireframe->b ? " (wireframe)" : "");
    hud_info info = {
        .fps = a->fps, .frame_ms = a->frame_times, .frame_count = a->frame_count,
        .frame_head = a->frame_count < HUD_FRAME_SAMPLES ? 0 : a->frame_head,
        .pos = { a->pl.pos[0], a->pl.pos[1], a->pl.pos[2] }, .yaw = a->pl.yaw, .pitch = a->pl.pitch,
        .biome = a->world_kind ? a->world_kind->name : "?", .seed = (uint64_t)(int64_t)a->world_seed,
        .chunks_loaded = a->stats.chunks_loaded, .chunks_visible = a->stats.chunks_drawn,
        .chunks_occluded = a->stats.chunks_occluded,
        .triangles = a->stats.triangles, .render_mode = mode,
        .queue_len = job_pool_queued(a->jobs),
    };
    app_bodies_counts(a, &info.bodies, &info.bodies_awake, &info.body_voxels);
    float progress = a->gen_task ? worldgen_progress(a->gen_task) : app_light_progress(a);
    const char *label = a->gen_task ? "generating world" : "lighting world";
    if (progress < 0) progress = app_stream_progress(a, &label); /* the ground after a spawn or tp */
    if (progress < 0) progress = app_light_columns_progress(a, &label); /* the light of what is in view */
    /* one layout for every overlay, so none covers another */
    hud_toolbar bar;
    bool menu = app_menu_open(a), with_bar = !menu && app_hud_toolbar(a, &bar);
    hud_layout L = hud_draw_all(a->text, dbg && dbg->b ? &info : NULL, k_unbound_keys,
                                (int)(sizeof k_unbound_keys / sizeof k_unbound_keys[0]), help && help->b && !menu,
                                progress, label, a->con ? console_view_message_rows(a->con) : 0,
                                a->con ? console_view_bottom(a->con, h) : 0.f, w, h, with_bar ? &bar : NULL);
    if (menu) app_menu_draw(a, a->text, w, h); /* over the HUD, under the console */
    if (a->con) console_view_draw_at(a->text, a->con, w, h, L.messages.x, L.messages.y, L.messages.w);
    text_end(a->text);
}
