/* enhance.enter: switching to the enhanced render mode until its first
 * frame of the default hills world's spawn view is drawn with the fragments
 * near the player (the mode's create, reset, block build, enhancement and
 * meshing), driving the mode directly so that only the switch is timed.
 * The mode's frame, render.frame.enhanced.hills, drives the app
 * (bench_frame.c). */
#include <glad/gl.h>
#include <stdlib.h>

#include "app/app.h"
#include "bench.h"
#include "gfx/atlas.h"
#include "gfx/enhance_view.h"
#include "platform/platform.h"
#include "play/player.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

typedef struct enh_frame {
    platform *plat;
    unsigned atlas;
    world *w;
    camera cam;
    render_settings rs;
    void *mode;
    render_item *visible;
    int *all;
} enh_frame;

static void enh_frame_teardown(void *s)
{
    enh_frame *f = s;
    if (!f) return;
    if (f->mode) enhance_view_mode.destroy(f->mode);
    world_destroy(f->w);
    if (f->atlas) atlas_texture_destroy(f->atlas);
    platform_destroy(f->plat);
    free(f->visible);
    free(f->all);
    free(f);
}

static void draw(enh_frame *f, render_stats *st)
{
    render_frame_begin(&f->rs);
    const world_grid grid = world_grid_of(f->w);
    int n = render_visible_set(&f->cam, f->rs.view_distance, &grid, NULL, f->visible);
    render_view v = { &f->cam, &f->rs, f->visible, n, grid };
    enhance_view_mode.draw(f->mode, &v, st);
    glFinish(); /* the frame is done when the rasterizer is */
}

/* Creates the mode and draws its first frame; returns false on failure. */
static bool enter(enh_frame *f, char *err, size_t errlen)
{
    if (f->mode) enhance_view_mode.destroy(f->mode);
    f->mode = enhance_view_mode.create(err, errlen);
    if (!f->mode) return false;
    enhance_view_mode.reset(f->mode, f->w->cx, f->w->cy, f->w->cz);
    enhance_view_mode.build(f->mode, f->w, bench_jobs(), f->all, f->w->chunk_count);
    enhance_view_mode.upload(f->mode, f->w, f->all, f->w->chunk_count);
    render_stats st;
    draw(f, &st);
    return true;
}

static void *enh_frame_setup(void)
{
    enh_frame *f = calloc(1, sizeof *f);
    char err[1024];
    f->plat = platform_create(&(platform_desc){ .width = 1280, .height = 720, .headless = true }, err, sizeof err);
    if (!f->plat) {
        bench_skip(err);
        free(f);
        return NULL;
    }
    f->atlas = atlas_texture_load(platform_find_asset("assets/atlas.png"), err, sizeof err);
    if (!f->atlas) goto fail;
    terrain_register();
    f->w = world_create(16, 4, 16);
    if (!f->w) goto fail;
    worldgen_generate(f->w, &terrain_hills, 1, bench_jobs());
    f->visible = malloc(sizeof *f->visible * (size_t)f->w->chunk_count);
    f->all = malloc(sizeof *f->all * (size_t)f->w->chunk_count);
    for (int i = 0; i < f->w->chunk_count; i++) f->all[i] = i;
    player pl = { 0 };
    player_spawn(&pl, f->w, (float)f->w->sx * 0.5f, (float)f->w->sz * 0.5f);
    player_look(&pl, APP_DEFAULT_YAW, APP_DEFAULT_PITCH);
    double eye[3];
    player_eye(&pl, eye);
    camera_set_eye(&f->cam, eye);
    f->cam.yaw = pl.yaw, f->cam.pitch = pl.pitch, f->cam.fov = 70, f->cam.aspect = 1280.f / 720.f;
    f->cam.znear = 0.05f, f->cam.zfar = 192 + 64;
    camera_update(&f->cam);
    f->rs = (render_settings){ .width = 1280, .height = 720, .framebuffer = platform_framebuffer(f->plat),
                               .view_distance = 192, .sky = { 0.62f, 0.76f, 0.93f }, .sun = { 0.35f, 1, 0.25f },
                               .atlas = f->atlas };
    if (!enter(f, err, sizeof err)) goto fail;
    return f;
fail:
    bench_skip(err);
    enh_frame_teardown(f);
    return NULL;
}

static void enh_enter_run(void *s)
{
    enh_frame *f = s;
    char err[256];
    enter(f, err, sizeof err);
    enhance_view_stats st;
    enhance_view_get_stats(f->mode, &st);
    bench_note("chunks_enhanced", st.chunks);
    bench_note("fragments", (double)st.fragments);
    bench_note("quads", (double)st.quads);
}

static const bench_case enh_frame_cases[] = {
    { "enhance.enter", enh_frame_setup, enh_enter_run, enh_frame_teardown, 5 },
};
BENCH_REGISTER(enh_frame_cases)
