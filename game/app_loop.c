/* app_loop: the windowed frame loop — input (console first, then key
 * bindings), player, cutting tool, background world swaps, meshing of dirty
 * chunks, drawing the world and then the HUD and console over it. */
#include <GLFW/glfw3.h>
#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "core/jobs.h"
#include "core/log.h"
#include "core/timer.h"
#include "platform/platform.h"
#include "ui/bind.h"
#include "ui/cmd.h"
#include "ui/console_view.h"

static void handle_event(app *a, const platform_event *ev)
{
    platform *p = a->plat;
    bool open = a->con && console_is_open(a->con);
    switch (ev->type) {
    case PEV_KEY:
        if (ev->action != GLFW_RELEASE && a->con && console_key(a->con, ev->key, ev->mods)) return;
        if (ev->key == GLFW_KEY_ESCAPE && ev->action == GLFW_PRESS) {
            platform_capture_mouse(p, false); /* ESC gives the mouse back */
            return;
        }
        /* releases always reach the bindings so held '+' actions end */
        if (!open || ev->action == GLFW_RELEASE) bind_key_event(ev->key, ev->action);
        break;
    case PEV_CHAR:
        if (a->con) console_char(a->con, ev->codepoint);
        break;
    case PEV_SCROLL:
        if (open) console_scroll(a->con, ev->dy > 0 ? 3 : -3);
        else bind_key_event(ev->dy > 0 ? BIND_WHEEL_UP : BIND_WHEEL_DOWN, GLFW_PRESS);
        break;
    case PEV_MOUSE_BUTTON:
        /* a release always reaches the bindings, so a held +cut ends even
         * if the console opened meanwhile */
        if (open && ev->action != GLFW_RELEASE) break;
        if (ev->action == GLFW_PRESS && !platform_mouse_captured(p)) {
            platform_capture_mouse(p, true); /* a click recaptures; it does not also act */
            break;
        }
        bind_key_event(BIND_MOUSE1 + ev->key, ev->action);
        break;
    case PEV_RESIZE:
        break;
    }
}

void app_step(app *a, const player_input *in, float dt, double now)
{
    a->pl.flying = a->cv.fly->b;
    a->pl.occupancy = app_occupancy(a);
    player_update(&a->pl, a->w, in, dt);
    a->pl.occupancy = NULL; /* the tree may be rebuilt before the next update */
    app_tool_update(a, now); /* after the move: the tool follows this frame's eye */
}

/* The keys read_input reads directly, for the help overlay (everything
 * else is a binding and is listed from the bindings). */
static const hud_key_help k_unbound_keys[] = {
    { "W A S D", "move (Ctrl sprints)" },
    { "SPACE", "jump; fly up" },
    { "SHIFT", "fly down" },
    { "MOUSE", "look" },
    { "ESC", "release the mouse (click to take it back)" },
    { "GRAVE (`)", "console (TAB completes)" },
};

static void read_input(app *a, player_input *in)
{
    platform *p = a->plat;
    bool captured = platform_mouse_captured(p) && !(a->con && console_is_open(a->con));
    if (platform_mouse_captured(p)) {
        double dx, dy;
        platform_mouse_delta(p, &dx, &dy);
        float s = a->cv.sensitivity->f;
        player_look(&a->pl, (float)dx * s, (float)(a->cv.invert_y->b ? dy : -dy) * s);
    }
    memset(in, 0, sizeof *in);
    if (captured) {
        in->forward = (float)platform_key_down(p, GLFW_KEY_W) - (float)platform_key_down(p, GLFW_KEY_S);
        in->strafe = (float)platform_key_down(p, GLFW_KEY_D) - (float)platform_key_down(p, GLFW_KEY_A);
        in->jump = in->fly_up = platform_key_down(p, GLFW_KEY_SPACE);
        in->fly_down = platform_key_down(p, GLFW_KEY_LEFT_SHIFT);
        in->sprint = platform_key_down(p, GLFW_KEY_LEFT_CONTROL);
    }
}

void app_draw_overlays(app *a)
{
    if (!a->text) return;
    int w, h;
    platform_size(a->plat, &w, &h);
    text_begin(a->text, w, h);
    cvar *dbg = cvar_find("hud.debug"), *help = cvar_find("hud.help");
    hud_info info = {
        .fps = a->fps, .frame_ms = a->frame_times, .frame_count = a->frame_count,
        .frame_head = a->frame_count < HUD_FRAME_SAMPLES ? 0 : a->frame_head,
        .pos = { a->pl.pos[0], a->pl.pos[1], a->pl.pos[2] }, .yaw = a->pl.yaw, .pitch = a->pl.pitch,
        .biome = a->world_kind ? a->world_kind->name : "?", .seed = (uint64_t)(int64_t)a->world_seed,
        .chunks_loaded = a->stats.chunks_loaded, .chunks_visible = a->stats.chunks_drawn,
        .triangles = a->stats.triangles, .render_mode = a->cv.wireframe->b ? "blocks (wireframe)" : "blocks",
        .queue_len = job_pool_queued(a->jobs),
    };
    /* one layout for every overlay, so none covers another */
    hud_layout L = hud_draw_all(a->text, dbg && dbg->b ? &info : NULL, k_unbound_keys,
                                (int)(sizeof k_unbound_keys / sizeof k_unbound_keys[0]), help && help->b,
                                a->gen_task ? worldgen_progress(a->gen_task) : -1.f, "generating world",
                                a->con ? console_view_message_rows(a->con) : 0, w, h);
    if (a->con) console_view_draw_at(a->text, a->con, w, h, L.messages.x, L.messages.y, L.messages.w);
    text_end(a->text);
}

void app_loop(app *a)
{
    platform *p = a->plat;
    platform_capture_mouse(p, true);
    double last = platform_time(p);
    bool was_open = false;
    while (!platform_should_close(p) && !a->quit) {
        platform_poll(p);
        platform_event ev;
        while (platform_next_event(p, &ev)) handle_event(a, &ev);
        double now = platform_time(p);
        float dt = (float)(now - last);
        last = now;
        if (dt > 0.25f) dt = 0.25f; /* a stall is not a teleport */

        bool open = a->con && console_is_open(a->con);
        if (open != was_open) platform_capture_mouse(p, !open); /* the console needs the pointer free */
        was_open = open;
        if (a->con) console_update(a->con, dt);

        if (a->regen_pending && now >= a->regen_at) app_regenerate_async(a);
        if (a->gen_task && worldgen_done(a->gen_task)) app_sync_world(a); /* swap in the new world */

        player_input in;
        read_input(a, &in);
        app_step(a, &in, dt, now);
        uint64_t t0 = timer_ns();
        app_render(a);
        app_draw_overlays(a);
        a->frame_ms = timer_ms_since(t0);
        platform_swap(p);

        a->frame_times[a->frame_head] = dt * 1000.f;
        a->frame_head = (a->frame_head + 1) % HUD_FRAME_SAMPLES;
        if (a->frame_count < HUD_FRAME_SAMPLES) a->frame_count++;
        a->fps = a->fps * 0.95f + (dt > 0 ? 1.f / dt : 0) * 0.05f;
    }
}
