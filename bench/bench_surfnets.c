/* bench_surfnets: surface nets on a 4-octave noise field of N^3 cells
 * ((N+1)^3 samples), CPU on one core and the GPU compute passes; the
 * anchor is fast-surface-nets (Rust), about 37 ms at 128^3 here. */
#include "bench.h"

#include <glad/gl.h>
#include <stdlib.h>

#include "gfx/surfnets_gpu.h"
#include "mesh/surfnets.h"
#include "platform/platform.h"
#include "core/timer.h"
#include "mesh/surfnets_fields.h"

typedef struct bench_sn {
    float *field;
    int n; /* samples per axis */
    surfnets_mesh mesh;
    /* GPU cases */
    platform *plat;
    surfnets_gpu *gpu;
    surfnets_gpu_mesh gm;
    long active;
} bench_sn;

static void *bench_sn_cpu_setup_n(int cells)
{
    bench_sn *s = calloc(1, sizeof *s);
    if (s) s->field = malloc(sizeof(float) * (size_t)(cells + 1) * (cells + 1) * (cells + 1));
    if (!s || !s->field) {
        free(s);
        bench_skip("out of memory");
        return NULL;
    }
    s->n = cells + 1;
    surfnets_field_noise(s->field, s->n, 1);
    surfnets_extract(&(surfnets_field){ s->field, s->n, s->n, s->n }, &s->mesh); /* grows the buffers */
    bench_note("vertices", s->mesh.vertices);
    bench_note("triangles", s->mesh.triangles);
    return s;
}
static void *bench_sn_cpu32(void) { return bench_sn_cpu_setup_n(32); }
static void *bench_sn_cpu64(void) { return bench_sn_cpu_setup_n(64); }
static void *bench_sn_cpu128(void) { return bench_sn_cpu_setup_n(128); }

static void bench_sn_cpu_run(void *state)
{
    bench_sn *s = state;
    surfnets_extract(&(surfnets_field){ s->field, s->n, s->n, s->n }, &s->mesh);
}

static void bench_sn_teardown(void *state);

/* The four compute passes on a field already on the GPU (the paper's
 * surface extraction time; the upload is outside, noted as upload_ms). */
static void *bench_sn_gpu_setup_n(int cells)
{
    bench_sn *s = bench_sn_cpu_setup_n(cells);
    if (!s) return NULL;
    char err[2048];
    s->plat = platform_create(&(platform_desc){ .width = 64, .height = 64, .headless = true }, err, sizeof err);
    if (s->plat) s->gpu = surfnets_gpu_create(err, sizeof err);
    if (!s->gpu) {
        bench_skip(err);
        bench_sn_teardown(s);
        return NULL;
    }
    surfnets_field f = { s->field, s->n, s->n, s->n };
    s->active = surfnets_active_cells(&f, &s->mesh);
    glFinish();
    uint64_t t0 = timer_ns();
    surfnets_gpu_extract(s->gpu, &f, NULL, NULL, s->active, &s->gm);
    glFinish();
    bench_note("upload_and_extract_ms", timer_ms_since(t0));
    surfnets_mesh back = { 0 };
    if (surfnets_gpu_read(&s->gm, &back)) {
        bench_note("gpu_vertices", back.vertices);
        bench_note("gpu_triangles", back.triangles);
    }
    surfnets_free(&back);
    return s;
}
static void *bench_sn_gpu32(void) { return bench_sn_gpu_setup_n(32); }
static void *bench_sn_gpu64(void) { return bench_sn_gpu_setup_n(64); }
static void *bench_sn_gpu128(void) { return bench_sn_gpu_setup_n(128); }

static void bench_sn_gpu_run(void *state)
{
    bench_sn *s = state;
    surfnets_gpu_dispatch(s->gpu, &(surfnets_field){ s->field, s->n, s->n, s->n }, false, s->active, &s->gm);
    glFinish(); /* done when the GPU (or llvmpipe) is */
}

static void bench_sn_teardown(void *state)
{
    bench_sn *s = state;
    if (!s) return;
    if (s->plat) {
        surfnets_gpu_mesh_free(&s->gm);
        surfnets_gpu_destroy(s->gpu);
        platform_destroy(s->plat);
    }
    surfnets_free(&s->mesh);
    free(s->field);
    free(s);
}

static const bench_case bench_surfnets_cases[] = {
    { "surfnets.cpu.32", bench_sn_cpu32, bench_sn_cpu_run, bench_sn_teardown, 200 },
    { "surfnets.cpu.64", bench_sn_cpu64, bench_sn_cpu_run, bench_sn_teardown, 50 },
    { "surfnets.cpu.128", bench_sn_cpu128, bench_sn_cpu_run, bench_sn_teardown, 20 },
    { "surfnets.gpu.32", bench_sn_gpu32, bench_sn_gpu_run, bench_sn_teardown, 50 },
    { "surfnets.gpu.64", bench_sn_gpu64, bench_sn_gpu_run, bench_sn_teardown, 20 },
    { "surfnets.gpu.128", bench_sn_gpu128, bench_sn_gpu_run, bench_sn_teardown, 10 },
};
BENCH_REGISTER(bench_surfnets_cases)
