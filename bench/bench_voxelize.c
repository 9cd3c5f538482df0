/* bench_voxelize: seed 002's voxelization of a ~10k-triangle closed pot at
 * 128^3, parity with 9 voted directions and the winding number, on the
 * shared worker pool. The mesh is made and the grid fitted outside the
 * timed runs. */
#include "bench.h"

#include <stdlib.h>

#include "gen/meshmake.h"
#include "gen/voxelize.h"
#include "gfx/voxelize_gpu.h"
#include "platform/platform.h"

#define BENCH_VOX_RES 128
#define BENCH_VOX_SLICES 120

typedef struct bench_vox {
    obj_mesh m;
    voxelize_grid g;
    voxelize_desc d;
    uint8_t *out;
    platform *plat; /* the GPU case only */
    voxelize_gpu *gpu;
} bench_vox;

static void *vox_setup(voxelize_method method)
{
    bench_vox *s = calloc(1, sizeof *s);
    char err[256];
    if (!s || !meshmake_teapot(&s->m, BENCH_VOX_SLICES, 0, 1) ||
        !voxelize_grid_fit(&s->m, BENCH_VOX_RES, &s->g, err, sizeof err) ||
        !(s->out = malloc((size_t)s->g.nx * s->g.ny * s->g.nz))) {
        bench_skip("out of memory");
        if (s) obj_free(&s->m);
        free(s);
        return NULL;
    }
    s->d.method = method;
    s->d.directions = 9;
    s->d.seed = 1;
    s->d.pool = bench_jobs();
    bench_note("triangles", s->m.nt);
    bench_note("voxels", (double)s->g.nx * s->g.ny * s->g.nz);
    return s;
}

static void *vox_setup_parity(void) { return vox_setup(VOXELIZE_PARITY); }
static void *vox_setup_winding(void) { return vox_setup(VOXELIZE_WINDING); }

static void vox_run(void *state)
{
    bench_vox *s = state;
    char err[256];
    long n = voxelize_mesh(&s->m, &s->g, &s->d, s->out, err, sizeof err);
    bench_note("inside", (double)n);
}

static void vox_teardown(void *state);

/* The same pot on the GPU: a headless context made here, the shader
 * compiled outside the timed runs; each run uploads, dispatches one pass
 * per direction and reads the votes back. */
static void *vox_setup_gpu(void)
{
    char err[1024];
    platform *plat = platform_create(&(platform_desc){ .width = 16, .height = 16, .headless = true }, err, sizeof err);
    if (!plat) {
        bench_skip(err);
        return NULL;
    }
    bench_vox *s = vox_setup(VOXELIZE_PARITY);
    if (!s) {
        platform_destroy(plat);
        return NULL;
    }
    s->plat = plat;
    s->gpu = voxelize_gpu_create(err, sizeof err);
    if (!s->gpu) {
        bench_skip(err);
        vox_teardown(s);
        return NULL;
    }
    return s;
}

static void vox_run_gpu(void *state)
{
    bench_vox *s = state;
    char err[256];
    long n = voxelize_gpu_parity(s->gpu, &s->m, &s->g, &s->d, s->out, err, sizeof err);
    bench_note("inside", (double)n);
}

static void vox_teardown(void *state)
{
    bench_vox *s = state;
    if (!s) return;
    voxelize_gpu_destroy(s->gpu);
    if (s->plat) platform_destroy(s->plat);
    obj_free(&s->m);
    free(s->out);
    free(s);
}

static const bench_case bench_vox_cases[] = {
    { "voxelize.cpu.parity", vox_setup_parity, vox_run, vox_teardown, 5 },
    { "voxelize.cpu.winding", vox_setup_winding, vox_run, vox_teardown, 5 },
    { "voxelize.gpu.parity", vox_setup_gpu, vox_run_gpu, vox_teardown, 5 },
};
BENCH_REGISTER(bench_vox_cases)
