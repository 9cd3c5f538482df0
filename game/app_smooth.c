/* app_smooth: the smooth render mode (surface nets, seed 004) in the game:
 * render.mode blocks|smooth (F8 cycles), meshing dirty chunks as nets on
 * the workers, drawing them instead of blocks, and the `surfnets FILE N`
 * command that compares the CPU and GPU meshers on any field. */
#include <errno.h>
#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "core/log.h"
#include "core/timer.h"
#include "gfx/smooth_renderer.h"
#include "gfx/surfnets_gpu.h"
#include "mesh/mesh_smooth.h"
#include "ui/cmd.h"

/* The filtered density reads 2 voxels around each sample and a cell spans
 * one more: an edit changes the nets of every chunk within 3 voxels. */
#define SMOOTH_DIRTY_MARGIN 3
/* `surfnets FILE N`: N^3 cells, (N+1)^3 floats: 257^3 * 4 bytes = 68 MB. */
#define SURFNETS_CMD_MAX_N 256

struct app_smooth {
    smooth_renderer *rend;
    bool rend_failed;
    smooth_mesh *meshes;
    int mesh_cap;
    surfnets_gpu *gpu; /* the compute passes; made on first use */
    bool gpu_failed;
    /* render.gpu: the field, cell and material buffers every chunk's
     * dispatch shares (outputs go to the renderer), and the choice */
    surfnets_gpu_mesh scratch;
    surfnets_mesh count;
    int path; /* 0 undecided, 1 CPU, 2 GPU (render.gpu 2 measures once) */
    uint8_t *lod; /* per chunk: the level of detail it was meshed at */
    int lod_count;
    cvar *mode, *sharpness, *gpu_cvar, *lod_distance;
};

static const char *const k_modes[] = { "blocks", "smooth", NULL };

bool app_smooth_active(const app *a) { return a->smooth && a->smooth->mode && a->smooth->mode->i == 1 && a->smooth->rend; }

/* Re-mesh everything in the mode now on; the world and player stay. */
static void on_mode(cvar *c, void *user)
{
    app *a = user;
    app_smooth *s = a->smooth;
    if (c->i == 1 && !s->rend && !s->rend_failed && a->rend) {
        char err[2048];
        s->rend = smooth_renderer_create(err, sizeof err);
        if (!s->rend) {
            s->rend_failed = true;
            log_error("smooth mode is unavailable: %s", err);
        } else {
            smooth_renderer_set_atlas(s->rend, a->atlas_tex);
        }
    }
    if (!a->w) return;
    world_set_dirty_margin(a->w, app_smooth_active(a) ? SMOOTH_DIRTY_MARGIN : 0);
    if (s->rend) smooth_renderer_reset(s->rend, a->w->cx, a->w->cy, a->w->cz);
    if (a->rend) renderer_reset(a->rend, a->w->cx, a->w->cy, a->w->cz);
    world_mark_all_dirty(a->w);
}

static void on_sharpness(cvar *c, void *user)
{
    app *a = user;
    if (a->w && app_smooth_active(a)) world_mark_all_dirty(a->w);
}

static void on_gpu(cvar *c, void *user)
{
    app *a = user;
    a->smooth->path = 0;
    on_sharpness(c, user); /* re-mesh with the path now chosen */
}

static bool ensure_gpu(app *a)
{
    app_smooth *s = a->smooth;
    if (!s->gpu && !s->gpu_failed && a->rend) {
        char err[2048];
        s->gpu = surfnets_gpu_create(err, sizeof err);
        if (!s->gpu) {
            s->gpu_failed = true; /* said once */
            log_warn("surface nets on the GPU are unavailable (%s): meshing on the CPU", err);
        }
    }
    return s->gpu != NULL;
}

/* One chunk through the four compute passes, its outputs handed to the
 * renderer; nothing is read back. */
static void gpu_mesh_chunk(app *a, const smooth_input *in, int cx, int cy, int cz)
{
    app_smooth *s = a->smooth;
    surfnets_field f = { in->d, SMOOTH_N, SMOOTH_N, SMOOTH_N, { in->own_lo[0], in->own_lo[1], in->own_lo[2] } };
    long active = surfnets_active_cells(&f, &s->count);
    surfnets_gpu_mesh m = { 0 };
    if (active > 0) {
        /* borrow the shared input-side buffers for this dispatch */
        m.field = s->scratch.field, m.field_cap = s->scratch.field_cap;
        m.com = s->scratch.com, m.com_cap = s->scratch.com_cap;
        m.lut = s->scratch.lut, m.lut_cap = s->scratch.lut_cap;
        m.mats = s->scratch.mats, m.mats_cap = s->scratch.mats_cap;
        surfnets_gpu_extract(s->gpu, &f, in->mat, active, &m);
        s->scratch.field = m.field, s->scratch.field_cap = m.field_cap;
        s->scratch.com = m.com, s->scratch.com_cap = m.com_cap;
        s->scratch.lut = m.lut, s->scratch.lut_cap = m.lut_cap;
        s->scratch.mats = m.mats, s->scratch.mats_cap = m.mats_cap;
        m.field = m.com = m.lut = m.mats = 0;
        m.field_cap = m.com_cap = m.lut_cap = m.mats_cap = 0;
    }
    smooth_renderer_upload_gpu(s->rend, cx, cy, cz, &m);
}

/* render.gpu 2: time one chunk both ways and keep the faster (software GL
 * runs compute shaders on the same two cores, slower than the workers). */
static int choose_path(app *a, const int *indices, int n)
{
    app_smooth *s = a->smooth;
    if (s->gpu_cvar->i == 0) return 1;
    if (!ensure_gpu(a) || !smooth_renderer_gpu_ready(s->rend)) return 1;
    if (s->gpu_cvar->i == 1) return 2;
    if (s->path) return s->path;
    if (n == 0) return 1;
    smooth_input *in = malloc(sizeof *in);
    smooth_mesh m = { 0 };
    if (!in) return 1;
    int cx, cy, cz, best = indices[0], most = -1;
    for (int i = 0; i < n && i < 64; i++) { /* a chunk with surface in it */
        world_chunk_coords(a->w, indices[i], &cx, &cy, &cz);
        mesh_smooth_gather(a->w, cx, cy, cz, s->sharpness->f, in);
        long act = surfnets_active_cells(&(surfnets_field){ in->d, SMOOTH_N, SMOOTH_N, SMOOTH_N }, &s->count);
        if (act > most) most = (int)act, best = indices[i];
    }
    world_chunk_coords(a->w, best, &cx, &cy, &cz);
    mesh_smooth_gather(a->w, cx, cy, cz, s->sharpness->f, in);
    uint64_t t0 = timer_ns();
    mesh_smooth_build(in, &m);
    double cpu = timer_ms_since(t0) / 2.0; /* two or more workers share the CPU path */
    gpu_mesh_chunk(a, in, cx, cy, cz); /* warm-up: shaders and buffers */
    glFinish();
    t0 = timer_ns();
    gpu_mesh_chunk(a, in, cx, cy, cz);
    glFinish();
    double gpu = timer_ms_since(t0);
    mesh_smooth_free(&m);
    free(in);
    s->path = gpu < cpu ? 2 : 1;
    log_info("smooth mode meshes on the %s (one chunk: GPU %.2f ms, CPU %.2f ms per worker share)",
             s->path == 2 ? "GPU" : "CPU", gpu, cpu);
    return s->path;
}

void app_smooth_world_installed(app *a)
{
    app_smooth *s = a->smooth;
    s->lod_count = 0; /* sized again (all 0) for the new world */
    world_set_dirty_margin(a->w, app_smooth_active(a) ? SMOOTH_DIRTY_MARGIN : 0);
    if (s->rend) smooth_renderer_reset(s->rend, a->w->cx, a->w->cy, a->w->cz);
}

typedef struct smooth_job {
    const world *w;
    const int *indices;
    smooth_mesh *out;
    float sharpness;
    const uint8_t *lod; /* per chunk, or NULL */
} smooth_job;

static void smooth_one(void *arg, int k)
{
    smooth_job *j = arg;
    int cx, cy, cz;
    world_chunk_coords(j->w, j->indices[k], &cx, &cy, &cz);
    smooth_input *in = malloc(sizeof *in); /* ~240 KB of scratch: workers keep no state */
    j->out[k].vertices = j->out[k].triangles = 0;
    if (!in) return;
    mesh_smooth_gather_lod(j->w, cx, cy, cz, j->sharpness, j->lod ? j->lod[j->indices[k]] : 0, in);
    mesh_smooth_build(in, &j->out[k]);
    free(in);
}

#define GPU_BATCH 32 /* chunks gathered on the workers at a time (~240 KB each) */

typedef struct gather_job {
    const world *w;
    const int *indices;
    smooth_input *out;
    float sharpness;
} gather_job;

static void gather_one(void *arg, int k)
{
    gather_job *j = arg;
    int cx, cy, cz;
    world_chunk_coords(j->w, j->indices[k], &cx, &cy, &cz);
    mesh_smooth_gather(j->w, cx, cy, cz, j->sharpness, &j->out[k]);
}

void app_smooth_mesh_chunks(app *a, const int *indices, int n)
{
    app_smooth *s = a->smooth;
    if (choose_path(a, indices, n) == 2) {
        smooth_input *in = malloc(sizeof *in * GPU_BATCH);
        if (in) {
            for (int b = 0; b < n; b += GPU_BATCH) {
                int m = n - b < GPU_BATCH ? n - b : GPU_BATCH;
                gather_job j = { a->w, indices + b, in, s->sharpness->f };
                job_parallel_for(a->jobs, m, gather_one, &j);
                for (int k = 0; k < m; k++) {
                    int cx, cy, cz;
                    world_chunk_coords(a->w, indices[b + k], &cx, &cy, &cz);
                    gpu_mesh_chunk(a, &in[k], cx, cy, cz);
                }
            }
            free(in);
            return;
        }
    }
    if (n > s->mesh_cap) {
        smooth_mesh *m = realloc(s->meshes, sizeof *m * (size_t)n);
        if (!m) return;
        memset(m + s->mesh_cap, 0, sizeof *m * (size_t)(n - s->mesh_cap));
        s->meshes = m, s->mesh_cap = n;
    }
    smooth_job j = { a->w, indices, s->meshes, s->sharpness->f, s->lod_count == a->w->chunk_count ? s->lod : NULL };
    job_parallel_for(a->jobs, n, smooth_one, &j);
    for (int i = 0; i < n; i++) {
        int cx, cy, cz;
        world_chunk_coords(a->w, indices[i], &cx, &cy, &cz);
        smooth_renderer_upload(s->rend, cx, cy, cz, &s->meshes[i]);
    }
}

/* Distant chunks are meshed at level of detail 1 (a quarter of the
 * triangles: llvmpipe pays per triangle). A chunk switches when its centre
 * crosses render.smooth_lod_distance, with 8 voxels of hysteresis so one
 * step back and forth does not re-mesh it; the compute path stays at 0. */
void app_smooth_update_lod(app *a, const float eye[3])
{
    app_smooth *s = a->smooth;
    if (!a->w || !app_smooth_active(a) || s->path == 2) return;
    if (s->lod_count != a->w->chunk_count) {
        uint8_t *l = calloc((size_t)a->w->chunk_count, 1);
        if (!l) return;
        free(s->lod);
        s->lod = l, s->lod_count = a->w->chunk_count;
    }
    float far = s->lod_distance->f;
    for (int i = 0; i < a->w->chunk_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(a->w, i, &cx, &cy, &cz);
        float dx = (float)(cx * CHUNK_SIZE + CHUNK_SIZE / 2) - eye[0], dy = (float)(cy * CHUNK_SIZE + CHUNK_SIZE / 2) - eye[1],
              dz = (float)(cz * CHUNK_SIZE + CHUNK_SIZE / 2) - eye[2];
        float d = sqrtf(dx * dx + dy * dy + dz * dz);
        uint8_t want = s->lod[i];
        if (far <= 0) want = 0;
        else if (d > far + 8) want = 1;
        else if (d < far - 8) want = 0;
        if (want != s->lod[i]) {
            s->lod[i] = want;
            world_mark_dirty(a->w, cx, cy, cz);
        }
    }
}

void app_smooth_draw(app *a, const camera *cam, const render_settings *rs)
{
    smooth_renderer_draw(a->smooth->rend, cam, rs, &a->stats);
}

const char *app_render_mode_name(const app *a) { return app_smooth_active(a) ? "smooth" : "blocks"; }

/* ---- commands ------------------------------------------------------------ */

static int c_rendermode(void *u, int argc, char **argv)
{
    app *a = u;
    if (argc > 2) {
        log_error("usage: rendermode [blocks|smooth] (no argument: the next mode)");
        return 1;
    }
    const char *next = argc == 2 ? argv[1] : k_modes[(a->smooth->mode->i + 1) % 2];
    if (!cvar_set_by_name("render.mode", next)) return 1;
    if (strcmp(next, "smooth") == 0 && !app_smooth_active(a)) {
        log_error("smooth mode is unavailable here (see above)");
        cvar_set_by_name("render.mode", "blocks");
        return 1;
    }
    log_out("render_mode=%s", app_render_mode_name(a));
    return 0;
}

static bool parse_n(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < 1 || v > SURFNETS_CMD_MAX_N) return false;
    *out = (int)v;
    return true;
}

/* Reads an (N+1)^3 little-endian float32 field; NULL after logging why. */
static float *read_field(const char *path, int n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        log_error("surfnets: %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t count = (size_t)(n + 1) * (n + 1) * (n + 1);
    unsigned char *raw = malloc(count * 4 + 1);
    float *d = malloc(count * sizeof *d);
    if (!raw || !d) {
        log_error("surfnets: out of memory for %zu samples", count);
        fclose(f), free(raw), free(d);
        return NULL;
    }
    size_t got = fread(raw, 1, count * 4 + 1, f); /* one byte more tells a too-long file */
    bool err = ferror(f) != 0;
    fclose(f);
    if (err || got != count * 4) {
        log_error("surfnets: %s: expected exactly %zu bytes ((N+1)^3 = %zu little-endian float32 for N = %d), got %s%zu",
                  path, count * 4, count, n, got > count * 4 ? "more than " : "", got > count * 4 ? count * 4 : got);
        free(raw), free(d);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t b = (uint32_t)raw[4 * i] | (uint32_t)raw[4 * i + 1] << 8 | (uint32_t)raw[4 * i + 2] << 16 |
                     (uint32_t)raw[4 * i + 3] << 24;
        memcpy(&d[i], &b, sizeof b);
        if (!isfinite(d[i])) {
            size_t s = (size_t)n + 1;
            log_error("surfnets: %s: sample %zu (x=%zu y=%zu z=%zu, byte %zu) is %s", path, i, i % s, (i / s) % s,
                      i / (s * s), 4 * i, isnan(d[i]) ? "NaN" : "infinite");
            free(raw), free(d);
            return NULL;
        }
    }
    free(raw);
    return d;
}

static int c_surfnets(void *u, int argc, char **argv)
{
    app *a = u;
    int n;
    if (argc != 3) {
        log_error("usage: surfnets FILE N (an (N+1)^3 little-endian float32 field, x fastest, then y, then z; negative inside)");
        return 1;
    }
    if (!parse_n(argv[2], &n)) {
        log_error("surfnets: N must be an integer from 1 to %d, not '%s'", SURFNETS_CMD_MAX_N, argv[2]);
        return 1;
    }
    float *d = read_field(argv[1], n);
    if (!d) return 1;
    surfnets_field f = { d, n + 1, n + 1, n + 1 };
    surfnets_mesh m = { 0 };
    surfnets_extract(&f, &m); /* warm: buffers grown, as in steady use */
    uint64_t t0 = timer_ns();
    bool ok = surfnets_extract(&f, &m);
    double cpu_ms = timer_ms_since(t0);
    if (!ok) {
        log_error("surfnets: out of memory");
        surfnets_free(&m), free(d);
        return 1;
    }
    log_out("cpu_vertices=%d", m.vertices);
    log_out("cpu_triangles=%d", m.triangles);
    app_smooth *s = a->smooth;
    ensure_gpu(a);
    int rc = 0;
    if (s->gpu) {
        long active = surfnets_active_cells(&f, &m);
        surfnets_gpu_mesh gm = { 0 };
        surfnets_mesh back = { 0 };
        double gpu_ms = 0;
        /* a warm-up, then the same dispatch timed to the end of the GPU work */
        for (int run = 0; run < 2 && rc == 0; run++) {
            glFinish();
            t0 = timer_ns();
            if (!surfnets_gpu_extract(s->gpu, &f, NULL, active, &gm)) rc = 1;
            glFinish();
            gpu_ms = timer_ms_since(t0);
        }
        if (rc == 0 && surfnets_gpu_read(&gm, &back)) {
            log_out("gpu_vertices=%d", back.vertices);
            log_out("gpu_triangles=%d", back.triangles);
            log_out("cpu_ms=%.3f", cpu_ms);
            log_out("gpu_ms=%.3f", gpu_ms);
        } else {
            log_error("surfnets: the GPU mesher failed");
            rc = 1;
        }
        surfnets_free(&back);
        surfnets_gpu_mesh_free(&gm);
    } else {
        log_out("cpu_ms=%.3f", cpu_ms);
    }
    surfnets_free(&m);
    free(d);
    return rc;
}

void app_register_smooth(app *a)
{
    a->smooth = calloc(1, sizeof *a->smooth);
    app_smooth *s = a->smooth;
    cvar_desc d[] = {
        { "render.mode", "how the world is drawn: blocks (textured voxels) or smooth (surface nets)", CVAR_ENUM,
          CVAR_ARCHIVE, "blocks", 0, 0, k_modes, on_mode, a },
        { "render.smooth_sharpness", "smooth mode: 1 = binary occupancy (45-degree facets), lower = smoother slopes",
          CVAR_FLOAT, CVAR_ARCHIVE, "0.1", 0, 1, NULL, on_sharpness, a },
        { "render.smooth_lod_distance", "smooth mode: chunks farther than this (voxels) get half-resolution nets; 0 = never",
          CVAR_FLOAT, CVAR_ARCHIVE, "96", 0, 4096, NULL, NULL, NULL }, /* SMOOTH_LOD_DISTANCE_DEFAULT */
        { "render.gpu", "smooth mode meshing: 0 = CPU workers, 1 = compute shaders (GL 4.3), 2 = whichever is faster here",
          CVAR_INT, CVAR_ARCHIVE, "2", 0, 2, NULL, on_gpu, a },
    };
    s->mode = cvar_register(&d[0]);
    s->sharpness = cvar_register(&d[1]);
    s->lod_distance = cvar_register(&d[2]);
    s->gpu_cvar = cvar_register(&d[3]);
    static const cmd_desc cmds[] = {
        { "rendermode", "[blocks|smooth]", "switch render mode (no argument: the next one); keeps world and player", c_rendermode, NULL, NULL },
        { "surfnets", "FILE N", "mesh an (N+1)^3 float32 field on the CPU and GPU: counts and times", c_surfnets, NULL, NULL },
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        cmd_desc c = cmds[i];
        c.user = a;
        cmd_register(&c);
    }
}

/* After graphics exist: a config that asked for smooth mode gets it. */
void app_smooth_init_graphics(app *a)
{
    if (a->smooth->mode->i == 1) on_mode(a->smooth->mode, a);
}

void app_smooth_free(app *a)
{
    app_smooth *s = a->smooth;
    if (!s) return;
    for (int i = 0; i < s->mesh_cap; i++) mesh_smooth_free(&s->meshes[i]);
    free(s->meshes);
    free(s->lod);
    smooth_renderer_destroy(s->rend);
    surfnets_gpu_mesh_free(&s->scratch);
    surfnets_free(&s->count);
    surfnets_gpu_destroy(s->gpu);
    free(s);
    a->smooth = NULL;
}
