/* bench_smooth: the smooth render mode. mesh.smooth.chunk: one hills
 * terrain chunk with its border (density gather + surface nets, CPU, one
 * core), beside mesh.blocks.terrain32. render.frame.smooth.BIOME: the
 * spawn view of the default 16x4x16 world drawn as nets at 1280x720, with
 * the game's level of detail (target <= 33 ms on llvmpipe). */
#include <glad/gl.h>
#include <stdlib.h>

#include "app.h"
#include "bench.h"
#include "biomes.h"
#include "core/jobs.h"
#include "gfx/atlas.h"
#include "gfx/smooth_renderer.h"
#include "mesh/mesh_smooth.h"
#include "platform/platform.h"
#include "player.h"
#include "terrain.h"
#include "worldgen.h"

typedef struct smooth_chunk_state {
    world *w;
    int cy; /* the chunk the runs mesh: (1, cy, 1) */
    smooth_input in;
    smooth_mesh mesh;
} smooth_chunk_state;

static void *chunk_setup(void)
{
    smooth_chunk_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    terrain_register();
    s->w = world_create(3, 4, 3);
    worldgen_generate(s->w, &terrain_hills, 1, bench_jobs());
    /* the chunk at the middle column that holds the most surface */
    int best = 1, most = -1;
    for (int cy = 0; cy < 4; cy++) {
        mesh_smooth_gather(s->w, 1, cy, 1, SMOOTH_SHARPNESS_DEFAULT, &s->in);
        mesh_smooth_build(&s->in, &s->mesh);
        if (s->mesh.triangles > most) most = s->mesh.triangles, best = cy;
    }
    bench_note("chunk_y", best);
    bench_note("triangles", most);
    s->cy = best;
    return s;
}

static void chunk_run(void *state)
{
    smooth_chunk_state *s = state;
    mesh_smooth_gather(s->w, 1, s->cy, 1, SMOOTH_SHARPNESS_DEFAULT, &s->in);
    mesh_smooth_build(&s->in, &s->mesh);
}

static void chunk_teardown(void *state)
{
    smooth_chunk_state *s = state;
    if (!s) return;
    mesh_smooth_free(&s->mesh);
    world_destroy(s->w);
    free(s);
}

typedef struct smooth_frame_state {
    platform *plat;
    smooth_renderer *rend;
    unsigned atlas;
    world *w;
    camera cam;
    render_settings rs;
} smooth_frame_state;

typedef struct frame_mesh_job {
    const world *w;
    smooth_mesh *out;
    const float *eye;
} frame_mesh_job;

static void frame_mesh_one(void *arg, int i)
{
    frame_mesh_job *j = arg;
    int cx, cy, cz;
    world_chunk_coords(j->w, i, &cx, &cy, &cz);
    smooth_input *in = malloc(sizeof *in);
    if (!in) return;
    /* the game's level of detail: half resolution beyond the default distance */
    float dx = (float)(cx * CHUNK_SIZE + CHUNK_SIZE / 2) - j->eye[0], dy = (float)(cy * CHUNK_SIZE + CHUNK_SIZE / 2) - j->eye[1],
          dz = (float)(cz * CHUNK_SIZE + CHUNK_SIZE / 2) - j->eye[2];
    int lod = dx * dx + dy * dy + dz * dz > (float)SMOOTH_LOD_DISTANCE_DEFAULT * SMOOTH_LOD_DISTANCE_DEFAULT;
    mesh_smooth_gather_lod(j->w, cx, cy, cz, SMOOTH_SHARPNESS_DEFAULT, lod, in);
    mesh_smooth_build(in, &j->out[i]);
    free(in);
}

static void frame_teardown(void *state);

static void *frame_setup(const worldgen_kind *kind)
{
    smooth_frame_state *f = calloc(1, sizeof *f);
    char err[2048] = "out of memory";
    f->plat = platform_create(&(platform_desc){ .width = 1280, .height = 720, .headless = true }, err, sizeof err);
    if (!f->plat) goto fail;
    atlas_image img;
    const char *path = platform_find_asset("assets/atlas.png");
    if (!path || !atlas_load(path, &img, err, sizeof err)) goto fail;
    f->atlas = atlas_texture_create(&img);
    atlas_free(&img);
    f->rend = smooth_renderer_create(err, sizeof err);
    if (!f->rend) goto fail;
    smooth_renderer_set_atlas(f->rend, f->atlas);
    terrain_register();
    biomes_register();
    f->w = world_create(16, 4, 16);
    worldgen_generate(f->w, kind, 1, bench_jobs());
    player pl = { 0 };
    player_spawn(&pl, f->w, (float)f->w->sx * 0.5f, (float)f->w->sz * 0.5f);
    player_look(&pl, APP_DEFAULT_YAW, APP_DEFAULT_PITCH);
    player_eye(&pl, f->cam.pos);
    smooth_mesh *m = calloc((size_t)f->w->chunk_count, sizeof *m);
    frame_mesh_job j = { f->w, m, f->cam.pos };
    job_parallel_for(bench_jobs(), f->w->chunk_count, frame_mesh_one, &j);
    smooth_renderer_reset(f->rend, f->w->cx, f->w->cy, f->w->cz);
    for (int i = 0; i < f->w->chunk_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(f->w, i, &cx, &cy, &cz);
        smooth_renderer_upload(f->rend, cx, cy, cz, &m[i]);
        mesh_smooth_free(&m[i]);
    }
    free(m);
    bench_note("gpu_bytes", (double)smooth_renderer_bytes(f->rend));
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
static void *frame_hills(void) { return frame_setup(&terrain_hills); }
static void *frame_desert(void) { return frame_setup(&biome_desert); }
static void *frame_taiga(void) { return frame_setup(&biome_taiga); }

static void frame_run(void *state)
{
    smooth_frame_state *f = state;
    render_stats st;
    smooth_renderer_draw(f->rend, &f->cam, &f->rs, &st);
    glFinish();
    bench_note("triangles", (double)st.triangles);
    bench_note("chunks_drawn", st.chunks_drawn);
}

static void frame_teardown(void *state)
{
    smooth_frame_state *f = state;
    if (!f) return;
    world_destroy(f->w);
    smooth_renderer_destroy(f->rend);
    if (f->atlas) atlas_texture_destroy(f->atlas);
    platform_destroy(f->plat);
    free(f);
}

static const bench_case bench_smooth_cases[] = {
    { "mesh.smooth.chunk", chunk_setup, chunk_run, chunk_teardown, 50 },
    { "render.frame.smooth.hills", frame_hills, frame_run, frame_teardown, 10 },
    { "render.frame.smooth.desert", frame_desert, frame_run, frame_teardown, 10 },
    { "render.frame.smooth.taiga", frame_taiga, frame_run, frame_teardown, 10 },
};
BENCH_REGISTER(bench_smooth_cases)
