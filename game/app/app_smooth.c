/* app_smooth: the smooth render mode (surface nets, seed 004) in the game,
 * as the component "smooth": it registers the mode in the render-mode
 * table (render.mode smooth; F8 cycles) and its cvars, widens the chunks an
 * edit re-meshes to those whose nets it can change, and owns the `surfnets FILE N`
 * command that compares the CPU and GPU meshers on any field. */
#include "app_smooth.h"

#include <errno.h>
#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "gfx/smooth_mode.h"
#include "gfx/surfnets_gpu.h"
#include "mesh/mesh_smooth.h"
#include "ui/cmd.h"

/* `surfnets FILE N`: N^3 cells, (N+1)^3 floats: 257^3 * 4 bytes = 68 MB. */
#define SURFNETS_CMD_MAX_N 256

typedef struct smooth_comp {
    surfnets_gpu *gpu; /* the surfnets command's; made on first use */
    bool gpu_failed;
} smooth_comp;

static bool smooth_on(const app *a) { return a->render_mode && strcmp(a->render_mode, smooth_render_mode.name) == 0; }

static void remesh_all(cvar *c, void *user)
{
    app *a = user;
    if (a->w && smooth_on(a)) world_mark_all_dirty(a->w);
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
    smooth_comp *s = component_state(&a->comps, app_smooth_component.name);
    bool said = false; /* each run without gpu_ lines says why; the first with the details */
    if (s && !s->gpu && !s->gpu_failed) {
        char err[2048];
        s->gpu = surfnets_gpu_create(err, sizeof err);
        if (!s->gpu) {
            s->gpu_failed = true; /* not tried again */
            log_warn("surfnets: no compute shaders here (%s): CPU only", err);
            said = true;
        }
    }
    int rc = 0;
    if (s && s->gpu) {
        long active = surfnets_active_cells(&f, &m);
        surfnets_gpu_mesh gm = { 0 };
        surfnets_mesh back = { 0 };
        double gpu_ms = 0;
        /* a warm-up, then the same dispatch timed to the end of the GPU work */
        for (int run = 0; run < 2 && rc == 0; run++) {
            glFinish();
            t0 = timer_ns();
            if (!surfnets_gpu_extract(s->gpu, &f, NULL, NULL, active, &gm)) rc = 1;
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
        if (!said) log_warn("surfnets: no compute shaders here: CPU only");
    }
    surfnets_free(&m);
    free(d);
    return rc;
}

static void *smooth_init(app *a)
{
    smooth_comp *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    render_mode_register(&smooth_render_mode);
    cvar_desc d[] = {
        { "render.smooth_sharpness", "smooth mode: 1 = binary occupancy (45-degree facets), lower = smoother slopes",
          CVAR_FLOAT, CVAR_ARCHIVE, "0.1", 0, 1, NULL, remesh_all, a },
        /* every level is built with the chunk: the draw reads this each frame */
        { "render.smooth_lod_distance",
          "smooth mode: chunks farther than this (voxels) draw 2x coarser nets, beyond twice it 4x; 0 = never",
          CVAR_FLOAT, CVAR_ARCHIVE, SMOOTH_LOD_DISTANCE_DEFAULT_STR, 0, 4096 },
        { "render.gpu", "smooth mode meshing and grammar apply: 0 = CPU workers, 1 = compute shaders (GL 4.3), 2 = whichever is faster here",
          CVAR_INT, CVAR_ARCHIVE, "2", 0, 2, NULL, remesh_all, a },
    };
    for (int i = 0; i < 3; i++) cvar_register(&d[i]);
    const cmd_desc cmds[] = {
        { "surfnets", "FILE N", "mesh an (N+1)^3 float32 field on the CPU and GPU: counts and times", c_surfnets, a, NULL },
    };
    cmd_register_table(cmds, 1);
    return s;
}

/* The render component marks the box and one voxel around it; the nets of
 * chunks up to SMOOTH_EDIT_REACH voxels away change too. */
static void smooth_edit(void *self, app *a, const world_edit *e)
{
    if (a->w && smooth_on(a)) mesh_smooth_mark_edit(a->w, e->lo, e->hi);
}

static void smooth_shutdown(void *self, app *a)
{
    smooth_comp *s = self;
    if (!s) return;
    surfnets_gpu_destroy(s->gpu);
    free(s);
}

const component app_smooth_component = {
    .name = "smooth",
    .init = smooth_init,
    .on_edit = smooth_edit,
    .shutdown = smooth_shutdown,
};
