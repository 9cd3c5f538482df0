/* bench_world: whole-world stages — world.generate (generate + mesh the
 * default world on every worker) and render.frame (one headless 1280x720
 * frame of the default view on whatever GL the machine has). */
#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/app.h"
#include "bench.h"
#include "gfx/atlas.h"
#include "gfx/camera.h"
#include "gfx/crosshair.h"
#include "gfx/renderer.h"
#include "mesh/mesh_world.h"
#include "platform/platform.h"
#include "play/player.h"
#include "worldgen/terrain.h"
#include "ui/cvar.h"
#include "worldgen/worldgen.h"

/* Meshes every chunk of w on the bench's workers (shared with worldgen.* cases). */
static long mesh_world_all(world *w, chunk_mesh **out_meshes)
{
    int n = w->chunk_count;
    int *idx = malloc(sizeof *idx * (size_t)n);
    chunk_mesh *m = calloc((size_t)n, sizeof *m);
    if (!idx || !m) abort();
    for (int i = 0; i < n; i++) idx[i] = i;
    mesh_world_chunks(w, bench_jobs(), idx, n, true, m);
    long quads = 0;
    for (int i = 0; i < n; i++)
        for (int p = 0; p < PASS_COUNT; p++) quads += m[i].pass[p].count / 4;
    free(idx);
    if (out_meshes) *out_meshes = m;
    else {
        for (int i = 0; i < n; i++) mesh_free(&m[i]);
        free(m);
    }
    return quads;
}

void bench_mesh_world(world *w)
{
    long quads = mesh_world_all(w, NULL);
    bench_note("triangles", (double)quads * 2);
}

/* ---- world.generate ---- */
static void *gen_setup(void)
{
    terrain_register();
    return world_create(16, 4, 16);
}

static void gen_run(void *s)
{
    world *w = s;
    worldgen_generate(w, &terrain_hills, 1, bench_jobs());
    bench_mesh_world(w);
}

static void gen_teardown(void *s) { world_destroy(s); }

/* ---- render.frame ---- */
typedef struct frame_state {
    platform *plat;
    renderer *rend;
    crosshair *xh;
    unsigned atlas;
    world *w;
    camera cam;
    render_settings rs;
} frame_state;

static void frame_teardown(void *s);

static void *frame_setup(void)
{
    frame_state *f = calloc(1, sizeof *f);
    char err[1024];
    f->plat = platform_create(&(platform_desc){ .width = 1280, .height = 720, .headless = true }, err, sizeof err);
    if (!f->plat) {
        bench_skip(err);
        free(f);
        return NULL;
    }
    f->atlas = atlas_texture_load(platform_find_asset("assets/atlas.png"), err, sizeof err);
    if (!f->atlas) goto fail;
    f->rend = renderer_create(err, sizeof err);
    if (!f->rend) goto fail;
    renderer_set_atlas(f->rend, f->atlas);
    f->xh = crosshair_create(err, sizeof err);
    if (!f->xh) goto fail;
    terrain_register();
    f->w = world_create(16, 4, 16);
    worldgen_generate(f->w, &terrain_hills, 1, bench_jobs());
    chunk_mesh *m;
    mesh_world_all(f->w, &m);
    renderer_reset(f->rend, 16, 4, 16);
    for (int i = 0; i < f->w->chunk_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(f->w, i, &cx, &cy, &cz);
        renderer_upload(f->rend, cx, cy, cz, &m[i]);
        mesh_free(&m[i]);
    }
    free(m);
    /* the app's default view: centre of the world, on the surface */
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
                               .view_distance = 192, .sky = { 0.62f, 0.76f, 0.93f }, .sun = { 0.35f, 1, 0.25f } };
    return f;
fail:
    bench_skip(err);
    frame_teardown(f);
    return NULL;
}

static void frame_run(void *s)
{
    frame_state *f = s;
    render_stats st;
    renderer_draw(f->rend, &f->cam, &f->rs, &st);
    crosshair_draw(f->xh, &f->rs);
    glFinish(); /* the frame is done when the rasterizer is */
    bench_note("triangles", (double)st.triangles);
    bench_note("chunks_drawn", st.chunks_drawn);
}

static void frame_teardown(void *s)
{
    frame_state *f = s;
    if (!f) return;
    world_destroy(f->w);
    renderer_destroy(f->rend);
    crosshair_destroy(f->xh);
    if (f->atlas) atlas_texture_destroy(f->atlas);
    platform_destroy(f->plat);
    free(f);
}

static const bench_case world_cases[] = {
    { "world.generate", gen_setup, gen_run, gen_teardown, 5 },
    { "render.frame", frame_setup, frame_run, frame_teardown, 10 },
};
BENCH_REGISTER(world_cases)
