/* app_loop: the windowed frame loop — input, player, background world
 * swaps, meshing of dirty chunks, drawing. Headless runs skip it. */
#include <GLFW/glfw3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app_internal.h"
#include "core/log.h"
#include "core/rng.h"
#include "core/timer.h"
#include "platform/platform.h"
#include "ui/cmd.h"

/* Default hotkeys until bindings are configurable: each runs a command. */
static const struct { int key; const char *command; } k_hotkeys[] = {
    { GLFW_KEY_F1, "biome desert" },
    { GLFW_KEY_F2, "biome taiga" },
    { GLFW_KEY_F3, "biome deciduous" },
    { GLFW_KEY_F4, "biome hills" },
    { GLFW_KEY_F, "toggle player.fly" },
};

static void handle_event(app *a, const platform_event *ev)
{
    platform *p = a->plat;
    if (ev->type == PEV_KEY && ev->action == GLFW_PRESS) {
        if (ev->key == GLFW_KEY_ESCAPE) {
            platform_capture_mouse(p, false); /* ESC gives the mouse back */
            return;
        }
        if (ev->key == GLFW_KEY_F5) { /* a new random seed */
            char cmd[64];
            rng r = rng_make(timer_ns());
            snprintf(cmd, sizeof cmd, "set world.seed %d", (int)(rng_next(&r) % 1000000));
            cmd_exec(cmd);
            a->regen_at = 0;
            return;
        }
        if (ev->key == GLFW_KEY_F12) {
            char cmd[128];
            snprintf(cmd, sizeof cmd, "screenshot strata-%ld.png", (long)time(NULL));
            cmd_exec(cmd);
            return;
        }
        for (size_t i = 0; i < sizeof k_hotkeys / sizeof k_hotkeys[0]; i++)
            if (k_hotkeys[i].key == ev->key) cmd_exec(k_hotkeys[i].command);
    } else if (ev->type == PEV_MOUSE_BUTTON && ev->action == GLFW_PRESS) {
        if (!platform_mouse_captured(p)) platform_capture_mouse(p, true); /* click recaptures */
    }
}

static void update_player(app *a, float dt)
{
    platform *p = a->plat;
    if (platform_mouse_captured(p)) {
        double dx, dy;
        platform_mouse_delta(p, &dx, &dy);
        float s = a->cv.sensitivity->f;
        player_look(&a->pl, (float)dx * s, (float)(a->cv.invert_y->b ? dy : -dy) * s);
    }
    player_input in = { 0 };
    bool captured = platform_mouse_captured(p);
    if (captured) {
        in.forward = (float)platform_key_down(p, GLFW_KEY_W) - (float)platform_key_down(p, GLFW_KEY_S);
        in.strafe = (float)platform_key_down(p, GLFW_KEY_D) - (float)platform_key_down(p, GLFW_KEY_A);
        in.jump = in.fly_up = platform_key_down(p, GLFW_KEY_SPACE);
        in.fly_down = platform_key_down(p, GLFW_KEY_LEFT_SHIFT);
        in.sprint = platform_key_down(p, GLFW_KEY_LEFT_CONTROL);
    }
    a->pl.flying = a->cv.fly->b;
    player_update(&a->pl, a->w, &in, dt);
}

void app_loop(app *a)
{
    platform *p = a->plat;
    platform_capture_mouse(p, true);
    double last = platform_time(p), title_at = 0;
    int frames = 0;
    while (!platform_should_close(p) && !a->quit) {
        platform_poll(p);
        platform_event ev;
        while (platform_next_event(p, &ev)) handle_event(a, &ev);
        double now = platform_time(p);
        float dt = (float)(now - last);
        last = now;
        if (dt > 0.25f) dt = 0.25f; /* a stall is not a teleport */

        if (a->regen_pending && now >= a->regen_at) app_regenerate_async(a);
        if (a->gen_task && worldgen_done(a->gen_task)) app_sync_world(a); /* swap in the new world */

        update_player(a, dt);
        uint64_t t0 = timer_ns();
        app_render(a);
        a->frame_ms = timer_ms_since(t0);
        platform_swap(p);

        frames++;
        if (now - title_at > 0.5) {
            char title[160];
            snprintf(title, sizeof title, "strata — %.0f fps, %ld triangles, %d/%d chunks%s", frames / (now - title_at),
                     a->stats.triangles, a->stats.chunks_drawn, a->stats.chunks_loaded,
                     a->gen_task ? ", generating..." : "");
            platform_set_title(p, title);
            title_at = now;
            frames = 0;
        }
    }
}
