/* bench_enhance: voxel detail enhancement of one 32^3 chunk of hills at 4x
 * (seed 000), CPU reference vs compute shader, for both operators. Each run
 * starts with an empty cache (a new context), so the numbers are what a
 * freshly seen chunk costs; fragments_per_s counts the fragments produced in
 * the listed surface voxels, per second of the median run. The material
 * rules are on, as in the game; enhance.subdivide.cpu.nomat is the paper's
 * rule on the same chunk (target: materials cost at most 1.5x). */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include "core/timer.h"
#include "gen/enhance.h"
#include "gfx/enhance_gpu.h"
#include "platform/platform.h"
#include "worldgen/terrain.h"

typedef struct bench_enhance_state {
    enhance_params p;
    enhance_input in;
    enhance_chunk out;
    platform *plat;
    enhance_gpu *gpu;
    enhance_ctx *ctx; /* GPU runs: the pattern only; the shader has no cache */
    double ms[64]; /* per run, for the median the rate is noted from */
    int runs;
} bench_enhance_state;

/* The hills of mesh.blocks.terrain32 with their 2-voxel border. */
static void bench_enhance_terrain(enhance_input *in)
{
    enum { S = CHUNK_SIZE + 2 * ENHANCE_PAD };
    int heights[S * S];
    terrain_heightmap_params tp = { .weight = 24.f, .scale = 40.f, .ground = 4.f, .octaves = 3 };
    terrain_heightmap(&tp, 1, 0, 0, S, S, CHUNK_SIZE, heights);
    memset(in, 0, sizeof *in);
    for (int y = -ENHANCE_PAD; y < CHUNK_SIZE + ENHANCE_PAD; y++)
        for (int z = -ENHANCE_PAD; z < CHUNK_SIZE + ENHANCE_PAD; z++)
            for (int x = -ENHANCE_PAD; x < CHUNK_SIZE + ENHANCE_PAD; x++) {
                int h = heights[(z + ENHANCE_PAD) * S + x + ENHANCE_PAD];
                uint8_t m = y < 0 ? MAT_BEDROCK : y > h ? MAT_AIR : y == h ? MAT_GRASS : y > h - 4 ? MAT_DIRT : MAT_STONE;
                in->vox[ENHANCE_IN_INDEX(x, y, z)] = m;
            }
}

static bench_enhance_state *bench_enhance_setup(enhance_operator op, bool gpu, bool materials)
{
    bench_enhance_state *s = calloc(1, sizeof *s);
    if (!s) {
        bench_skip("out of memory");
        return NULL;
    }
    char err[1024];
    s->p = enhance_params_default();
    s->p.op = op;
    s->p.levels = 2;
    s->p.factor = 4;
    s->p.altitude = 16;
    s->p.materials = materials;
    bench_enhance_terrain(&s->in);
    s->ctx = enhance_create(&s->p, err, sizeof err);
    if (gpu) {
        s->plat = platform_create(&(platform_desc){ .width = 64, .height = 64, .headless = true }, err, sizeof err);
        s->gpu = s->plat ? enhance_gpu_create(err, sizeof err) : NULL;
        if (!s->gpu) {
            bench_skip(err);
            platform_destroy(s->plat);
            enhance_destroy(s->ctx);
            free(s);
            return NULL;
        }
    }
    return s;
}

static void bench_enhance_run(void *state)
{
    bench_enhance_state *s = state;
    uint64_t t0 = timer_ns();
    if (s->gpu) {
        char err[256];
        enhance_gpu_build(s->gpu, s->ctx, &s->in, &s->out, err, sizeof err);
    } else {
        char err[256];
        enhance_ctx *e = enhance_create(&s->p, err, sizeof err);
        enhance_chunk_build(e, &s->in, true, &s->out);
        enhance_destroy(e);
    }
    if (s->runs < 64) s->ms[s->runs++] = timer_ms_since(t0);
}

static int cmp_ms(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void bench_enhance_teardown(void *state)
{
    bench_enhance_state *s = state;
    if (!s) return;
    if (s->runs) {
        bench_note("fragments", (double)s->out.fragments);
        bench_note("surface_voxels", s->out.count);
        bench_note("skipped_voxels", s->out.skipped);
        qsort(s->ms, (size_t)s->runs, sizeof s->ms[0], cmp_ms);
        double median = s->ms[s->runs / 2];
        bench_note("fragments_per_s", (double)s->out.fragments / (median / 1000.0));
    }
    enhance_chunk_free(&s->out);
    enhance_gpu_destroy(s->gpu);
    platform_destroy(s->plat);
    enhance_destroy(s->ctx);
    free(s);
}

static void *sub_cpu(void) { return bench_enhance_setup(ENHANCE_SUBDIVIDE, false, true); }
static void *sub_cpu_nomat(void) { return bench_enhance_setup(ENHANCE_SUBDIVIDE, false, false); }
static void *sub_gpu(void) { return bench_enhance_setup(ENHANCE_SUBDIVIDE, true, true); }
static void *res_cpu(void) { return bench_enhance_setup(ENHANCE_RESAMPLE, false, true); }
static void *res_gpu(void) { return bench_enhance_setup(ENHANCE_RESAMPLE, true, true); }

static const bench_case bench_enhance_cases[] = {
    { "enhance.subdivide.cpu", sub_cpu, bench_enhance_run, bench_enhance_teardown, 20 },
    { "enhance.subdivide.cpu.nomat", sub_cpu_nomat, bench_enhance_run, bench_enhance_teardown, 20 },
    { "enhance.subdivide.gpu", sub_gpu, bench_enhance_run, bench_enhance_teardown, 10 },
    { "enhance.resample.cpu", res_cpu, bench_enhance_run, bench_enhance_teardown, 10 },
    { "enhance.resample.gpu", res_gpu, bench_enhance_run, bench_enhance_teardown, 10 },
};
BENCH_REGISTER(bench_enhance_cases)
