/* app_cmds: the game's commands of the scripting contract (DESIGN.md):
 * regen, biome, tp, look, screenshot, stats, quit. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_bodies.h"
#include "app_far.h"
#include "app_frame.h"
#include "app_light.h"
#include "app_move.h"
#include "app_render.h"
#include "app_world.h"
#include "app_save.h"
#include "app_stream.h"
#include "core/log.h"
#include "core/rss.h"
#include "gfx/screenshot.h"
#include "platform/platform.h"
#include "worldgen/biomes.h"
#include "worldgen/formula_world.h"
#include "worldgen/terrain.h"
#include "core/rng.h"
#include "core/timer.h"
#include "ui/cmd.h"
#include "ui/config.h"

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s || !isfinite(v) || fabs(v) > FLT_MAX) {
        log_error("'%s' is not a finite number", s); /* 1e39 would become inf as a float */
        return false;
    }
    *out = v;
    return true;
}

static bool parse_num(const char *s, float *out)
{
    double v;
    if (!parse_double(s, &v)) return false;
    *out = (float)v;
    return true;
}

/* How far above the world's top tp may put the player. */
#define APP_TP_ABOVE 1024.f

static int c_regen(void *u, int argc, char **argv)
{
    app *a = u;
    return app_regenerate(a) ? 0 : 1;
}

static int c_biome(void *u, int argc, char **argv)
{
    app *a = u;
    if (argc != 2) {
        char list[256] = "";
        for (int i = 0; i < worldgen_kind_count(); i++) {
            strncat(list, " ", sizeof list - strlen(list) - 1);
            strncat(list, worldgen_kind_at(i)->name, sizeof list - strlen(list) - 1);
        }
        log_error("usage: biome NAME (one of:%s)", list);
        return 1;
    }
    if (!worldgen_find(argv[1])) {
        log_error("unknown biome '%s' (see 'help world.biome')", argv[1]);
        return 1;
    }
    if (!cvar_set_by_name("world.biome", argv[1])) return 1;
    app_save_restore_kind(a, argv[1]); /* each biome comes back as it was saved */
    /* headless scripts want the world now; the window keeps playing meanwhile */
    if (platform_headless(a->plat)) return app_regenerate(a) ? 0 : 1;
    return app_regenerate_async(a) ? 0 : 1;
}

void app_clamp_pos(app *a, double p[3], const char *who)
{
    /* inside the world's columns, and not absurdly high: what stays finite
     * and in int range for everything that reads the position */
    const char *axis = "XYZ";
    double lo[3] = { world_x0(a->w), 0, world_z0(a->w) };
    double hi[3] = { lo[0] + a->w->sx, a->w->sy + APP_TP_ABOVE, lo[2] + a->w->sz };
    if (app_stream(a)) {
        /* the world goes on: only the 32-bit coordinates end (with room
         * for the window around the player); the window follows */
        lo[0] = lo[2] = -APP_POS_LIMIT, hi[0] = hi[2] = APP_POS_LIMIT;
    }
    for (int i = 0; i < 3; i++) {
        double c = p[i] < lo[i] ? lo[i] : p[i] > hi[i] ? hi[i] : p[i];
        if (c != p[i]) log_warn("%s: %c %g is outside the world: clamped to %g", who, axis[i], p[i], c);
        p[i] = c;
    }
}

static int c_tp(void *u, int argc, char **argv)
{
    app *a = u;
    double p[3]; /* double: 10^7 + 0.5 is not a float */
    if (argc != 4) {
        log_error("usage: tp X Y Z (feet position in voxels)");
        return 1;
    }
    for (int i = 0; i < 3; i++)
        if (!parse_double(argv[i + 1], &p[i])) return 1; /* inf and nan are refused there */
    app_sync_world(a);
    app_clamp_pos(a, p, "tp");
    memcpy(a->pl.pos, p, sizeof p);
    memset(a->pl.vel, 0, sizeof a->pl.vel);
    return 0;
}

static int c_look(void *u, int argc, char **argv)
{
    app *a = u;
    float yaw, pitch;
    if (argc != 3) {
        log_error("usage: look YAW PITCH (degrees; yaw 0 faces -z, 90 faces +x; pitch up is positive)");
        return 1;
    }
    if (!parse_num(argv[1], &yaw) || !parse_num(argv[2], &pitch)) return 1;
    a->pl.yaw = 0, a->pl.pitch = 0;
    player_look(&a->pl, yaw, pitch);
    return 0;
}

static int c_screenshot(void *u, int argc, char **argv)
{
    app *a = u;
    char auto_path[1024];
    if (argc > 2) {
        log_error("usage: screenshot [PATH.png] (default: a timestamped file in the pictures folder)");
        return 1;
    }
    const char *path = argc == 2 ? argv[1] : NULL;
    if (!path) {
        if (!config_screenshot_path(auto_path, sizeof auto_path)) {
            log_error("screenshot: no pictures folder could be made; give a PATH");
            return 1;
        }
        path = auto_path;
    }
    app_sync_world(a);
    app_render(a);
    app_draw_overlays(a); /* what the player sees, console and HUD included */
    int w, h;
    platform_size(a->plat, &w, &h);
    char err[512];
    if (!screenshot_write(path, platform_framebuffer(a->plat), w, h, err, sizeof err)) {
        log_error("screenshot: %s", err);
        return 1;
    }
    log_out("screenshot=%s", path);
    return 0;
}

static int c_stats(void *u, int argc, char **argv)
{
    app *a = u;
    app_sync_world(a);
    app_render_mesh_dirty(a);
    world *w = a->w;
    uint64_t counts[MAT_COUNT];
    world_count_materials(w, counts);
    uint64_t solid = 0;
    for (int m = 0; m < MAT_COUNT; m++)
        if (material_table[m].solid) solid += counts[m];
    long tris = 0;
    log_out("seed=%d", a->world_seed);
    log_out("biome=%s", a->world_kind ? a->world_kind->name : "?");
    log_out("world_hash=%016llx", (unsigned long long)app_world_hash(a));
    log_out("solid_voxels=%llu", (unsigned long long)solid);
    log_out("chunks=%d", w->chunk_count);
    log_out("world_size=%dx%dx%d", w->sx, w->sy, w->sz);
    {
        /* the view decides what is drawn: render once so the numbers are current */
        app_render(a);
        tris = a->stats.triangles_loaded;
        log_out("chunks_meshed=%d", a->stats.chunks_loaded);
        log_out("chunks_visible=%d", a->stats.chunks_drawn);
        log_out("triangles_visible=%ld", a->stats.triangles);
        log_out("chunks_occluded=%d", a->stats.chunks_occluded);
        occlusion_stats os = app_render_occlusion_stats(a);
        log_out("occlusion_reads=%d", os.reads);
        log_out("occlusion_reads_skipped=%d", os.skipped);
        int verdicts = 0, off = 0;
        bool pays = app_render_occlusion_judge(a, &verdicts, &off);
        log_out("occlusion_judge=%s", pays ? "reads" : "no_reads");
        log_out("occlusion_judge_trials=%d", verdicts);
        log_out("occlusion_judge_trials_without=%d", off);
        log_out("occlusion_parts_hidden=%d", os.hidden);
        log_out("occlusion_parts_outside=%d", os.outside);
        log_out("draw_calls=%d", a->stats.draw_calls);
        log_out("gpu_waits=%d", a->stats.gpu_waits);
        log_out("opaque_cull=%s", a->stats.gpu_cull ? "gpu" : "readback");
        log_out("arena_bytes=%zu", a->stats.arena_bytes);
        log_out("arena_used=%zu", a->stats.arena_used);
        log_out("arena_fragments=%d", a->stats.arena_fragments);
        log_out("arena_pending=%d", a->stats.arena_pending);
        log_out("render_mode=%s", a->render_mode ? a->render_mode : "none");
    }
    /* what the HUD shows: the frames run so far (the window's, or `frames`) */
    log_out("fps=%.1f", (double)a->fps);
    log_out("triangles=%ld", tris);
    log_out("tinted_faces=%llu", (unsigned long long)world_count_tinted(w));
    log_out("tint_bytes=%zu", world_tint_bytes(w));
    log_out("position=%.2f %.2f %.2f", a->pl.pos[0], a->pl.pos[1], a->pl.pos[2]);
    long rss = rss_kib();
    if (rss >= 0) log_out("rss_kib=%ld", rss); /* scripts watch memory over many frames */
    log_out("facing=%.1f %.1f", a->pl.yaw, a->pl.pitch);
    app_bodies_print_stats(a);
    app_stream_print_stats(a);
    app_far_print_stats(a);
    for (int m = 0; m < MAT_COUNT; m++) log_out("material.%s=%llu", material_table[m].name, (unsigned long long)counts[m]);
    return 0;
}

static int c_newseed(void *u, int argc, char **argv)
{
    app *a = u;
    if (app_kind(a)->seedless) {
        /* F5 in the formula world: nothing would change, so say why */
        log_warn("the %s world has no seed (it is made from world.formula alone): a new seed changes nothing here",
                 app_kind(a)->name);
        return 0;
    }
    rng r = rng_make(timer_ns());
    char seed[32];
    snprintf(seed, sizeof seed, "%d", (int)(rng_next(&r) % 1000000));
    if (!cvar_set_by_name("world.seed", seed)) return 1;
    log_info("new seed %s", seed);
    a->regen_at = 0; /* no debounce: the key was pressed once */
    return 0;
}

/* Runs N frames on a simulated 60 Hz clock: the player falls or stands,
 * held actions (+cut, +fill, +forward, +jump, ...) act, and each frame is rendered. Scripts and
 * tests get the frame loop's behaviour without a window or real time. */
static int c_frames(void *u, int argc, char **argv)
{
    app *a = u;
    char *end;
    long n = argc == 2 ? strtol(argv[1], &end, 10) : -1;
    if (argc != 2 || *end || end == argv[1] || n < 1 || n > 100000) {
        log_error("usage: frames N (1 to 100000 frames of 1/60 s)");
        return 1;
    }
    app_sync_world(a);
    player_input in;
    for (long i = 0; i < n; i++) {
        app_move_input(a, &in); /* held +forward, +jump, ... walk the player */
        uint64_t t0 = timer_ns();
        a->script_time += 1.0 / 60.0;
        if (a->con) console_update(a->con, 1.0 / 60.0); /* it slides open on the same clock */
        app_step(a, &in, 1.f / 60.f, a->script_time);
        app_light_settle(a); /* a script's frame sees the light the workers were baking */
        app_render(a);
        /* a headless frame ends as the window's does (a flush): without it the
         * driver queues every frame's commands and buffer copies, and memory
         * grows with every frame. The window's own loop swaps; a swap here
         * would wait for vsync on every simulated frame. */
        if (platform_headless(a->plat)) platform_swap(a->plat);
        app_note_frame(a, (float)timer_ms_since(t0)); /* the HUD shows what a frame took here */
    }
    return 0;
}

static int c_quit(void *u, int argc, char **argv)
{
    app *a = u;
    a->quit = true;
    platform_request_close(a->plat);
    cmd_stop(); /* "quit; cmd" does not run cmd */
    return 0;
}

void app_register_commands(app *a)
{
    const cmd_desc table[] = {
        { "regen", "", "regenerate the world from the current cvars", c_regen, a },
        { "biome", "NAME", "switch world kind (hills, desert, taiga, deciduous, ...) and regenerate", c_biome, a },
        { "tp", "X Y Z", "teleport the player's feet to X Y Z (clamped to the world's columns)", c_tp, a, NULL,
          CMD_NEEDS_WORLD },
        { "look", "YAW PITCH", "face a direction (degrees)", c_look, a },
        { "screenshot", "PATH", "render a frame and write it as PNG", c_screenshot, a, NULL, CMD_NEEDS_WORLD },
        { "stats", "", "print world and render statistics as key=value lines", c_stats, a, NULL,
          CMD_NEEDS_WORLD },
        { "newseed", "", "pick a random world.seed and regenerate", c_newseed, a },
        { "frames", "N", "run N frames of 1/60 s: physics, held actions (+cut, +forward, ...), rendering (for scripts)", c_frames, a, NULL,
          CMD_NEEDS_WORLD },
        { "quit", "", "leave the game", c_quit, a },
    };
    cmd_register_table(table, (int)(sizeof table / sizeof table[0]));
}

const float app_tint_palette[8][3] = {
    { 1, 1, 1 },          /* 0: untinted (unused) */
    { 0.90f, 0.20f, 0.15f }, /* 1 red, the paper's first tunnel colour */
    { 0.20f, 0.75f, 0.25f }, /* 2 green */
    { 0.20f, 0.40f, 0.95f }, /* 3 blue */
    { 0.95f, 0.85f, 0.20f }, /* 4 yellow */
    { 0.85f, 0.10f, 0.80f }, /* 5 magenta: red and blue, almost no green, so it never reads as grey */
    { 1, 1, 1 }, { 1, 1, 1 },
};

void app_register_game(app *a)
{
    terrain_register();
    biomes_register();
    formula_world_register();
}
