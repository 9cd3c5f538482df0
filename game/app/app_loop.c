/* app_loop: the windowed frame loop — input (console first, then key
 * bindings), player, cutting tool, background world swaps, meshing of dirty
 * chunks, drawing the world and then the HUD and console over it. */
#include <GLFW/glfw3.h>
#include <stdio.h>
#include <string.h>

#include "app_frame.h"
#include "app_menu.h"
#include "app_move.h"
#include "app_world.h"
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
        if (app_menu_key(a, ev->key, ev->action)) return; /* the open menu takes every key (Esc closes it) */
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
        if (ev->action == GLFW_PRESS && app_menu_click(a)) break;
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
    /* the movement keys are bindings of held actions (app_move.c) */
    app_move_input(a, in);
    if (!captured) memset(in, 0, sizeof *in);
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

        bool open = (a->con && console_is_open(a->con)) || app_menu_open(a);
        if (open != was_open) platform_capture_mouse(p, !open); /* the console and the menu need the pointer free */
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

        app_note_frame(a, dt * 1000.f);
    }
}

void app_note_frame(app *a, float ms)
{
    a->frame_times[a->frame_head] = ms;
    a->frame_head = (a->frame_head + 1) % HUD_FRAME_SAMPLES;
    if (a->frame_count < HUD_FRAME_SAMPLES) a->frame_count++;
    float now = ms > 0 ? 1000.f / ms : 0;
    a->fps = a->frame_count == 1 ? now : a->fps * 0.95f + now * 0.05f; /* the first frame sets it */
}
