#include "gfx/smooth_mode.h"

#include <glad/gl.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "gfx/smooth_renderer.h"
#include "gfx/surfnets_gpu.h"
#include "mesh/mesh_smooth.h"
#include "ui/cvar.h"

#define GPU_BATCH 32 /* chunks gathered on the workers at a time (~240 KB each) */

typedef struct smooth_mode {
    smooth_renderer *r;
    surfnets_gpu *gpu;
    bool gpu_failed;
    /* the compute path: input-side buffers every chunk's dispatch shares
     * (outputs go to the renderer), and a mask counter for their sizes */
    surfnets_gpu_mesh scratch;
    surfnets_mesh count;
    int path;    /* 0 undecided, 1 CPU, 2 GPU */
    int path_for; /* the render.gpu value path was decided for */
    smooth_mesh *meshes; /* SMOOTH_LODS per chunk built: [i * SMOOTH_LODS + level] */
    int mesh_cap, mesh_count;
} smooth_mode;

static void *smooth_create(char *err, size_t errlen)
{
    smooth_mode *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->r = smooth_renderer_create(err, errlen);
    if (!m->r) {
        free(m);
        return NULL;
    }
    return m;
}

static void smooth_destroy(void *self)
{
    smooth_mode *m = self;
    for (int i = 0; i < m->mesh_cap * SMOOTH_LODS; i++) mesh_smooth_free(&m->meshes[i]);
    free(m->meshes);
    surfnets_gpu_mesh_free(&m->scratch);
    surfnets_free(&m->count);
    surfnets_gpu_destroy(m->gpu);
    smooth_renderer_destroy(m->r);
    free(m);
}

static void smooth_reset(void *self, int cx, int cy, int cz)
{
    smooth_mode *m = self;
    smooth_renderer_reset(m->r, cx, cy, cz);
}

static bool ensure_gpu(smooth_mode *m)
{
    /* said once per process: every switch to smooth mode makes a new
     * instance, and the context does not gain compute shaders meanwhile */
    static bool said;
    if (!m->gpu && !m->gpu_failed) {
        char err[2048];
        m->gpu = surfnets_gpu_create(err, sizeof err);
        if (!m->gpu || !smooth_renderer_gpu_ready(m->r)) {
            m->gpu_failed = true; /* not tried again by this instance */
            if (!said)
                log_warn("surface nets on the GPU are unavailable (%s): smooth mode meshes on the CPU",
                         m->gpu ? "no compute draw path" : err);
            said = true;
        }
    }
    return m->gpu && !m->gpu_failed;
}

/* One chunk through the four compute passes, its outputs handed to the
 * renderer; nothing is read back. */
static void gpu_mesh_chunk(smooth_mode *m, const smooth_input *in, int cx, int cy, int cz)
{
    surfnets_field f = { in->d, in->n, in->n, in->n, { in->own_lo[0], in->own_lo[1], in->own_lo[2] } };
    long active = surfnets_active_cells(&f, &m->count);
    surfnets_gpu_mesh g = { 0 };
    if (active > 0) {
        /* borrow the shared input-side buffers for this dispatch */
        g.field = m->scratch.field, g.field_cap = m->scratch.field_cap;
        g.com = m->scratch.com, g.com_cap = m->scratch.com_cap;
        g.lut = m->scratch.lut, g.lut_cap = m->scratch.lut_cap;
        g.mats = m->scratch.mats, g.mats_cap = m->scratch.mats_cap;
        surfnets_gpu_extract(m->gpu, &f, in->mat, in->tint, active, &g);
        m->scratch.field = g.field, m->scratch.field_cap = g.field_cap;
        m->scratch.com = g.com, m->scratch.com_cap = g.com_cap;
        m->scratch.lut = g.lut, m->scratch.lut_cap = g.lut_cap;
        m->scratch.mats = g.mats, m->scratch.mats_cap = g.mats_cap;
        g.field = g.com = g.lut = g.mats = 0;
        g.field_cap = g.com_cap = g.lut_cap = g.mats_cap = 0;
    }
    smooth_renderer_upload_gpu(m->r, cx, cy, cz, &g);
}

/* render.gpu 2: time one chunk both ways and keep the faster (software GL
 * runs compute shaders on the same cores, slower than the workers). */
static int choose_path(smooth_mode *m, const world *w, const int *idx, int n, float sharpness)
{
    int setting = cvar_int("render.gpu", 2);
    if (m->path && m->path_for == setting) return m->path;
    m->path_for = setting;
    if (setting == 0 || !ensure_gpu(m)) return m->path = 1;
    if (setting == 1) return m->path = 2;
    if (n == 0) return 1; /* decide on the first real build */
    smooth_input *in = malloc(sizeof *in * SMOOTH_LODS);
    smooth_mesh cpu = { 0 };
    if (!in) return 1;
    int cx, cy, cz, best = idx[0];
    long most = -1;
    for (int i = 0; i < n && i < 64; i++) { /* a chunk with surface in it */
        world_chunk_coords(w, idx[i], &cx, &cy, &cz);
        mesh_smooth_gather(w, cx, cy, cz, sharpness, in);
        long act = surfnets_active_cells(&(surfnets_field){ in->d, in->n, in->n, in->n }, &m->count);
        if (act > most) most = act, best = idx[i];
    }
    world_chunk_coords(w, best, &cx, &cy, &cz);
    /* both paths gather level 0; the CPU path also derives the coarse
     * levels from a bigger box and meshes all three (cpu_one) */
    uint64_t t0 = timer_ns();
    mesh_smooth_gather(w, cx, cy, cz, sharpness, in);
    double gather_ms = timer_ms_since(t0);
    smooth_input *lv[SMOOTH_LODS];
    for (int l = 0; l < SMOOTH_LODS; l++) lv[l] = &in[l];
    t0 = timer_ns();
    mesh_smooth_gather_levels(w, cx, cy, cz, sharpness, lv);
    for (int l = 0; l < SMOOTH_LODS; l++) mesh_smooth_build(&in[l], &cpu);
    double cpu_ms = (timer_ms_since(t0) - gather_ms) / 2.0; /* two or more workers share the CPU path */
    gpu_mesh_chunk(m, in, cx, cy, cz); /* warm-up: shaders and buffers */
    glFinish();
    t0 = timer_ns();
    gpu_mesh_chunk(m, in, cx, cy, cz);
    glFinish();
    double gpu_ms = timer_ms_since(t0);
    mesh_smooth_free(&cpu);
    free(in);
    m->path = gpu_ms < cpu_ms ? 2 : 1;
    log_dev("smooth mode meshes on the %s (one chunk: GPU %.2f ms, CPU %.2f ms per worker share)",
             m->path == 2 ? "GPU" : "CPU", gpu_ms, cpu_ms);
    return m->path;
}

typedef struct smooth_job {
    const world *w;
    const int *idx;
    smooth_mesh *out;
    smooth_input *in; /* GPU path: gathered inputs */
    float sharpness;
} smooth_job;

/* Every level of detail of one chunk: one fine density, three nets. */
static void cpu_one(void *arg, int k)
{
    smooth_job *j = arg;
    int cx, cy, cz;
    world_chunk_coords(j->w, j->idx[k], &cx, &cy, &cz);
    smooth_mesh *out = &j->out[(size_t)k * SMOOTH_LODS];
    for (int l = 0; l < SMOOTH_LODS; l++) out[l].vertices = out[l].triangles = 0;
    /* ~0.8 MB of scratch: workers keep no state */
    smooth_input *in = malloc(sizeof *in * SMOOTH_LODS);
    if (!in) return;
    smooth_input *lv[SMOOTH_LODS];
    for (int l = 0; l < SMOOTH_LODS; l++) lv[l] = &in[l];
    mesh_smooth_gather_levels(j->w, cx, cy, cz, j->sharpness, lv);
    for (int l = 0; l < SMOOTH_LODS; l++) mesh_smooth_build(&in[l], &out[l]);
    free(in);
}

static void gather_one(void *arg, int k)
{
    smooth_job *j = arg;
    int cx, cy, cz;
    world_chunk_coords(j->w, j->idx[k], &cx, &cy, &cz);
    mesh_smooth_gather(j->w, cx, cy, cz, j->sharpness, &j->in[k]);
}

static bool smooth_build(void *self, const world *w, job_pool *jobs, const int *idx, int n)
{
    smooth_mode *m = self;
    m->mesh_count = 0;
    float sharpness = cvar_float("render.smooth_sharpness", SMOOTH_SHARPNESS_DEFAULT);
    smooth_renderer_set_grid(m->r, world_grid_of(w)); /* the window may have moved */
    if (choose_path(m, w, idx, n, sharpness) == 2) {
        smooth_input *in = malloc(sizeof *in * GPU_BATCH);
        if (in) {
            for (int b = 0; b < n; b += GPU_BATCH) {
                int k = n - b < GPU_BATCH ? n - b : GPU_BATCH;
                smooth_job j = { w, idx + b, NULL, in, sharpness };
                job_parallel_for(jobs, k, gather_one, &j);
                for (int i = 0; i < k; i++) {
                    int cx, cy, cz;
                    world_chunk_coords(w, idx[b + i], &cx, &cy, &cz);
                    gpu_mesh_chunk(m, &in[i], cx, cy, cz);
                }
            }
            free(in);
            return true;
        }
    }
    if (n > m->mesh_cap) {
        smooth_mesh *mm = realloc(m->meshes, sizeof *mm * (size_t)n * SMOOTH_LODS);
        if (!mm) {
            log_warn("no memory to mesh %d chunks; they stay as they were", n);
            return false;
        }
        memset(mm + (size_t)m->mesh_cap * SMOOTH_LODS, 0, sizeof *mm * (size_t)(n - m->mesh_cap) * SMOOTH_LODS);
        m->meshes = mm, m->mesh_cap = n;
    }
    smooth_job j = { w, idx, m->meshes, NULL, sharpness };
    job_parallel_for(jobs, n, cpu_one, &j);
    m->mesh_count = n;
    return true;
}

static void smooth_upload(void *self, const world *w, const int *idx, int n)
{
    smooth_mode *m = self;
    smooth_renderer_set_grid(m->r, world_grid_of(w));
    for (int i = 0; i < n && i < m->mesh_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, idx[i], &cx, &cy, &cz);
        for (int l = 0; l < SMOOTH_LODS; l++)
            smooth_renderer_upload_level(m->r, cx, cy, cz, l, &m->meshes[(size_t)i * SMOOTH_LODS + l]);
    }
    m->mesh_count = 0;
}

static void smooth_draw(void *self, const render_view *v, render_stats *stats)
{
    smooth_mode *m = self;
    smooth_renderer_set_lod_distance(m->r, cvar_float("render.smooth_lod_distance", SMOOTH_LOD_DISTANCE_DEFAULT));
    smooth_renderer_set_cull(m->r, cvar_int("render.gpu_cull", 0), (size_t)cvar_int("render.upload_budget", 0) << 10);
    smooth_renderer_draw_view(m->r, v, stats);
}

smooth_renderer *smooth_mode_renderer(void *instance) { return ((smooth_mode *)instance)->r; }

const render_mode smooth_render_mode = {
    .name = "smooth",
    .help = "surface nets (seed 004), triplanar-textured; render.gpu picks CPU or compute meshing",
    .create = smooth_create,
    .destroy = smooth_destroy,
    .reset = smooth_reset,
    .build = smooth_build,
    .upload = smooth_upload,
    .draw = smooth_draw,
};
