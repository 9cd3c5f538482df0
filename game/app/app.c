#include "app.h"

#include <GLFW/glfw3.h>
#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "app_save.h"
#include "app_stream.h"
#include "app_world.h"
#include "core/log.h"
#include "gfx/atlas.h"
#include "platform/platform.h"
#include "worldgen/terrain.h"
#include "ui/bind.h"
#include "ui/cmd.h"
#include "ui/config.h"
#include "ui/console_view.h"
#include "ui/cvar.h"

/* ---- world lifecycle --------------------------------------------------- */

static void on_regen_cvar(cvar *c, void *user)
{
    app *a = user;
    /* another kind's parameter: the world being played (and its edits) stays */
    if (!worldgen_cvar_affects(app_kind(a), c->d.name)) return;
    a->regen_pending = true;
    a->regen_at = a->plat ? platform_time(a->plat) + 0.4 : 0; /* debounce: typing a value fires once */
}

/* ---- set-up ------------------------------------------------------------ */

static void on_anisotropy(cvar *c, void *user)
{
    app *a = user;
    if (a->atlas_tex) atlas_texture_set_anisotropy(a->atlas_tex, c->f);
}

static const char *const k_biome_names_fallback[] = { "hills", NULL };

/* The veto on world.size_x/y/z: each is within its own range, but together
 * they must make a world world_create accepts, so the value that would
 * break it is refused by 'set' (and reported as file:line in a config),
 * never stored to fail every regeneration after. */
static bool validate_world_size(const cvar *proposed, char *err, size_t errlen, void *user)
{
    app *a = user;
    int n[3] = { a->cv.size_x ? a->cv.size_x->i : 1, a->cv.size_y ? a->cv.size_y->i : 1,
                 a->cv.size_z ? a->cv.size_z->i : 1 };
    n[proposed->d.name[11] - 'x'] = proposed->i; /* "world.size_" + x|y|z */
    return world_size_check(n[0], n[1], n[2], err, errlen);
}

static void register_cvars(app *a)
{
    const char *kinds[17];
    int n = 0;
    for (int i = 0; i < worldgen_kind_count() && n < 16; i++) kinds[n++] = worldgen_kind_at(i)->name;
    kinds[n] = NULL;
    cvar_desc d[] = {
        { "world.seed", "world seed (generation is a pure function of biome, seed and parameters)", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "1", -2147483647.0, 2147483647.0, NULL },
        { "world.biome", "world kind: see 'biome'", CVAR_ENUM, CVAR_ARCHIVE | CVAR_REGEN, "hills", 0, 0, n ? kinds : k_biome_names_fallback },
        { "world.size_x", "world width in 32-voxel chunks", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "16", 1, 64, NULL, NULL, a, validate_world_size },
        { "world.size_y", "world height in 32-voxel chunks", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "4", 1, 16, NULL, NULL, a, validate_world_size },
        { "world.size_z", "world depth in 32-voxel chunks", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN, "16", 1, 64, NULL, NULL, a, validate_world_size },
        { "view.fov", "vertical field of view in degrees", CVAR_FLOAT, CVAR_ARCHIVE, "70", 20, 140 },
        { "view.distance", "view distance in voxels (fog ends here)", CVAR_FLOAT, CVAR_ARCHIVE, "192", 32, 2048, NULL, app_stream_distance_changed, a, app_stream_validate_distance },
        { "input.sensitivity", "mouse look, degrees per pixel", CVAR_FLOAT, CVAR_ARCHIVE, "0.12", 0.005, 2 },
        { "input.invert_y", "invert vertical mouse look", CVAR_BOOL, CVAR_ARCHIVE, "0" },
        { "render.wireframe", "draw triangle edges only", CVAR_BOOL, 0, "0" },
        { "render.greedy", "merge coplanar faces of the same tile (greedy meshing)", CVAR_BOOL, CVAR_ARCHIVE, "1" },
        { "render.crosshair", "draw the crosshair", CVAR_BOOL, CVAR_ARCHIVE, "1" },
        { "player.fly", "fly instead of walking (no gravity)", CVAR_BOOL, 0, "0" },
        { "render.anisotropy", "anisotropic texture filtering, 1-16 (0 = auto: off on software GL, 8 on GPUs)", CVAR_FLOAT, CVAR_ARCHIVE, "0", 0, 16, NULL, on_anisotropy, a },
        { "tool.visible", "draw the cutting tool's shape in front of the player", CVAR_BOOL, CVAR_ARCHIVE, "1" },
    };
    cvar **slots[] = { &a->cv.seed, &a->cv.biome, &a->cv.size_x, &a->cv.size_y, &a->cv.size_z, &a->cv.fov,
                       &a->cv.distance, &a->cv.sensitivity, &a->cv.invert_y, &a->cv.wireframe, &a->cv.greedy,
                       &a->cv.crosshair, &a->cv.fly, &a->cv.anisotropy, &a->cv.tool_visible };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) *slots[i] = cvar_register(&d[i]);
    /* every world parameter, whoever registered it, regenerates the world */
    cvar_observe_flags(CVAR_REGEN, on_regen_cvar, a);
}

/* Every world parameter back to its default, except the kind and seed the
 * player chose. Returns how many changed. */
static int reset_world_parameters(void)
{
    int n = 0;
    for (int i = 0; i < cvar_count(); i++) {
        cvar *c = cvar_at(i);
        if (!(c->d.flags & CVAR_REGEN) || strcmp(c->d.name, "world.biome") == 0 || strcmp(c->d.name, "world.seed") == 0)
            continue;
        if (strcmp(c->str, c->d.def) == 0) continue;
        log_warn("%s=%s: back to %s", c->d.name, c->str, c->d.def);
        cvar_reset(c);
        n++;
    }
    return n;
}

/* CMD_NEEDS_WORLD commands run once the world exists; it exists only after
 * the graphics are up (config files run before both). */
static bool world_ready(void *user)
{
    app *a = user;
    if (!a->atlas_tex) return false; /* init_graphics has not run: no world can be drawn yet */
    if (!app_sync_world(a)) {
        log_error("the world could not be made from these settings (see above): commands on it are refused");
        return false;
    }
    return a->w != NULL;
}

static void shutdown_app(app *a)
{
    if (a->con) { /* settings persist: written on exit from a windowed session */
        config_write(NULL);
        char hist[1024];
        if (config_sibling("history", hist, sizeof hist)) console_history_save(a->con, hist);
    }
    text_destroy(a->text);
    console_destroy(a->con); /* restores the log sink */
    if (a->gen_task) world_destroy(worldgen_finish(a->gen_task));
    /* the world is about to go, as for a new one: saves write it (the exit
     * save) while every component is still there to settle into it */
    a->closing = true;
    if (a->w) component_world_leaving_all(&a->comps, a, a->w);
    job_pool_destroy(a->jobs); /* joins the workers before anything they read goes away */
    component_shutdown_all(&a->comps, a);
    world_destroy(a->w);
    if (a->atlas_tex) glDeleteTextures(1, &a->atlas_tex);
    platform_destroy(a->plat);
    bind_shutdown();
    cmd_set_ready_fn(NULL, NULL);
    cmd_shutdown();
    cvar_shutdown();
}

/* Default key bindings; the config file (read after) may change any of them. */
static void default_binds(void)
{
    static const struct { int key; const char *cmd; } binds[] = {
        { GLFW_KEY_F1, "biome desert" },     { GLFW_KEY_F2, "biome taiga" },
        { GLFW_KEY_F3, "biome deciduous" },  { GLFW_KEY_F4, "biome hills" },
        { GLFW_KEY_F7, "biome formula" },
        { GLFW_KEY_F5, "newseed" },          { GLFW_KEY_F6, "toggle hud.debug" },
        { GLFW_KEY_H, "toggle hud.help" },   { GLFW_KEY_F, "toggle player.fly" },
        { GLFW_KEY_F12, "screenshot" },      { GLFW_KEY_F8, "render.cycle" },
        { BIND_MOUSE1 + GLFW_MOUSE_BUTTON_LEFT, "+cut" }, { BIND_MOUSE1 + GLFW_MOUSE_BUTTON_RIGHT, "+fill" },
        { GLFW_KEY_1, "tool.color 1" },      { GLFW_KEY_2, "tool.color 2" },
        { GLFW_KEY_3, "tool.color 3" },      { GLFW_KEY_4, "tool.color 4" },
        { GLFW_KEY_5, "tool.color 5" },      { GLFW_KEY_L, "toggle player.lamp" },
        { GLFW_KEY_W, "+forward" },          { GLFW_KEY_S, "+back" },
        { GLFW_KEY_A, "+left" },             { GLFW_KEY_D, "+right" },
        { GLFW_KEY_SPACE, "+jump" },         { GLFW_KEY_LEFT_CONTROL, "+sprint" },
        { GLFW_KEY_LEFT_SHIFT, "+down" },    { GLFW_KEY_ESCAPE, "menu" },
    };
    for (size_t i = 0; i < sizeof binds / sizeof binds[0]; i++) bind_set(binds[i].key, binds[i].cmd);
    bind_mark_defaults();
}

void app_register_all(app *a)
{
    app_add_components(a);
    app_register_game(a);
    component_init_all(&a->comps, a);
    register_cvars(a);
    cmd_register_builtins();
    bind_register_commands();
    config_register_commands();
    console_view_register_cvars();
    hud_register_cvars();
    app_register_commands(a);
    default_binds();
}

static const char *clipboard_text(void *user) { return platform_clipboard(user); }

static bool init_graphics(app *a)
{
    char err[2048];
    a->atlas_tex = atlas_texture_load(platform_find_asset("assets/atlas.png"), err, sizeof err);
    if (!a->atlas_tex) {
        log_error("%s", err);
        return false;
    }
    atlas_texture_set_anisotropy(a->atlas_tex, a->cv.anisotropy->f);
    component_gfx_init_all(&a->comps, a);
    if (!component_state(&a->comps, "render")) return false; /* nothing can draw the world */
    return true;
}

app *app_create(const app_desc *d)
{
    app *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->desc = *d;
    char err[512];
    a->plat = platform_create(&(platform_desc){ .width = d->width, .height = d->height, .headless = d->headless,
                                                .title = "strata", .vsync = true },
                              err, sizeof err);
    if (!a->plat) {
        log_error("%s", err);
        free(a);
        return NULL;
    }
    a->jobs = job_pool_create(0);
    app_register_all(a);
    /* --config FILE is where settings are read and written in both modes; a
     * file that does not exist yet is made by writeconfig (and on exit from
     * a window). Headless scripts stay reproducible: without --config they
     * never read or write the user's own config. */
    int config_failures = 0;
    cmd_set_ready_fn(world_ready, a);
    if (d->headless) {
        if (d->config) {
            config_init(d->config);
            config_failures = config_load_file();
        }
    } else {
        config_init(d->config);
        config_failures = config_load();
        a->con = console_create(&(console_desc){ .echo_stdio = true, .clipboard = clipboard_text, .clipboard_user = a->plat });
        console_attach_log(a->con);
        char hist[1024];
        if (config_sibling("history", hist, sizeof hist)) console_history_load(a->con, hist);
    }

    if (!init_graphics(a)) goto fail;
    if (!d->headless) {
        a->text = text_create(&(text_desc){ 0 }, err, sizeof err);
        if (!a->text) log_error("no text rendering (console and HUD hidden): %s", err);
    }
    app_save_start(a); /* a saved world sets the cvars it was made with */
    if (!app_regenerate(a)) {
        /* the settings (a config, --exec is later) name a world no kind can
         * make, e.g. min above max: start with the default world parameters
         * rather than refuse to start at all */
        int n = reset_world_parameters();
        log_warn("the world could not be made from these settings (see above): %d world parameter%s reset to "
                 "%s default%s", n, n == 1 ? "" : "s", n == 1 ? "its" : "their", n == 1 ? "" : "s");
        config_failures++;
        if (!app_regenerate(a)) goto fail;
    }
    a->config_failures = config_failures;
    a->pl.flying = a->cv.fly->b;
    return a;
fail:
    app_destroy(a);
    return NULL;
}

void app_destroy(app *a)
{
    if (!a) return;
    shutdown_app(a);
    free(a);
}

int app_run(const app_desc *d)
{
    app *a = app_create(d);
    if (!a) return 1;
    int rc = 1;
    if (d->headless) {
        /* any failure, in the config or the script, is a non-zero exit */
        rc = (d->exec && cmd_exec(d->exec) != 0) || a->config_failures != 0 || app_save_failures() != 0;
    } else {
        if (d->exec && cmd_exec(d->exec) != 0) log_warn("some --exec commands failed (see above)");
        app_loop(a);
        rc = 0;
    }
    app_destroy(a);
    return app_save_exit_failed() ? 1 : rc; /* the exit save comes last */
}
