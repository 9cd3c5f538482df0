/* bench_grammar: seed 004's Table 5 set-up. grammar.overhang.N and
 * grammar.cave.N derive the shipped ruleset once over a whole N^3 grid with
 * a 1x1x1 stride, the grid initialised by voxelizing a height field of
 * 3 octaves of 2D Perlin noise (as the paper did), on the bench's workers.
 * one_worker_ms (the same derivation on this thread) splits the speed-up
 * into algorithm and threads; grammar.reference.cave.64 times the
 * straightforward reference of tests/support/grammar_ref.h.
 * grammar.alcove.128 derives the abstract alcove.grammar (materials and
 * slopes) on the same height field, every solid voxel mesa.

 * grammar.gpu.cave.N derives the same in the compute shader (gfx/grammar_gpu)
 * on a headless context: upload, every step, read back, as a caller pays;
 * steps_ms notes the steps alone (upload and read outside). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/support/grammar_ref.h"
#include "bench.h"
#include "core/noise.h"
#include "core/timer.h"
#include "gen/grammar.h"
#include "gen/grammar_file.h"
#include "gfx/grammar_gpu.h"
#include "platform/platform.h"
#include "voxel/material.h"

#include <glad/gl.h>

enum { GRAM_FAST, GRAM_REFERENCE, GRAM_GPU };

typedef struct gram_state {
    grammar_program prog;
    grammar_grid grid;
    float *init;
    uint8_t *init_m; /* materials, for rulesets that read them: mesa where solid */
    grammar_params p;
    int kind;       /* GRAM_FAST, GRAM_REFERENCE, GRAM_GPU */
    platform *plat; /* the GPU case's context and shader */
    grammar_gpu *gpu;
} gram_state;

static void gram_teardown(void *state)
{
    gram_state *s = state;
    if (!s) return;
    grammar_gpu_destroy(s->gpu);
    platform_destroy(s->plat);
    free(s->grid.d);
    free(s->grid.m);
    free(s->init_m);
    free(s->init);
    free(s);
}

/* 3 octaves of 2D Perlin noise, voxelized: 1 below the height, 0 above. */
static void heightfield(float *d, int n)
{
    noise nz;
    noise_init(&nz, 4);
    for (int z = 0; z < n; z++)
        for (int x = 0; x < n; x++) {
            float h = 0.f, amp = 0.5f, f = 1.f / 32.f;
            for (int o = 0; o < 3; o++, amp *= 0.5f, f *= 2.f) h += amp * noise_perlin2(&nz, (float)x * f, (float)z * f);
            float top = (float)n * (0.5f + 0.5f * h);
            for (int y = 0; y < n; y++) d[x + n * (y + n * z)] = (float)y < top ? 1.f : 0.f;
        }
}

/* Every run derives the same input. */
static void gram_reset(gram_state *s)
{
    size_t cells = (size_t)s->grid.nx * s->grid.ny * s->grid.nz;
    memcpy(s->grid.d, s->init, cells * sizeof(float));
    if (s->init_m) memcpy(s->grid.m, s->init_m, cells);
}

static void *gram_setup(const char *file, int n, int kind)
{
    gram_state *s = calloc(1, sizeof *s);
    grammar *g = malloc(sizeof *g);
    char rel[96], err[512];
    snprintf(rel, sizeof rel, "assets/grammars/%s", file);
    const char *path = platform_find_asset(rel);
    if (!s || !g || !path || !grammar_load(path, g, err, sizeof err) ||
        !grammar_compile(g, GRAMMAR_ORIENT_X, &s->prog, err, sizeof err)) {
        bench_skip(path ? err : "grammar asset not found");
        free(g);
        gram_teardown(s);
        return NULL;
    }
    free(g);
    size_t cells = (size_t)n * n * n;
    s->grid = (grammar_grid){ n, n, n, malloc(cells * sizeof(float)) };
    s->init = malloc(cells * sizeof(float));
    heightfield(s->init, n);
    if (s->prog.needs & GRAMMAR_NEEDS_MATERIAL) {
        s->grid.m = malloc(cells);
        s->init_m = malloc(cells);
        for (size_t i = 0; i < cells; i++) s->init_m[i] = s->init[i] >= 0.5f ? MAT_MESA : MAT_AIR;
    }
    s->p = (grammar_params){ { 0, 0, 0 }, { n, n, n }, { 1, 1, 1 }, 1, 1 };
    s->kind = kind;
    if (kind == GRAM_FAST) {
        /* the same derivation on one thread, for the algorithm / threads split */
        double best = 1e30;
        grammar_stats st = { 0 };
        for (int r = 0; r < 3; r++) {
            gram_reset(s);
            uint64_t t0 = timer_ns();
            grammar_derive(&s->prog, &s->grid, &s->p, NULL, &st, err, sizeof err);
            double ms = timer_ms_since(t0);
            best = ms < best ? ms : best;
        }
        bench_note("one_worker_ms", best);
        bench_note("windows", (double)st.windows);
        bench_note("matches", (double)st.matches);
    }
    return s;
}

static void gram_run(void *state)
{
    gram_state *s = state;
    char err[256];
    gram_reset(s);
    if (s->kind == GRAM_REFERENCE) ref_derive(&s->prog, &s->grid, &s->p);
    else if (s->kind == GRAM_GPU) grammar_gpu_derive(s->gpu, &s->prog, &s->grid, &s->p, NULL, err, sizeof err);
    else grammar_derive(&s->prog, &s->grid, &s->p, bench_jobs(), NULL, err, sizeof err);
}

#define CASE(kind, file, n)                                                                     \
    static void *kind##_##n##_setup(void) { return gram_setup(file, n, GRAM_FAST); }
CASE(overhang, "overhang.grammar", 32)
CASE(overhang, "overhang.grammar", 64)
CASE(overhang, "overhang.grammar", 96)
CASE(overhang, "overhang.grammar", 128)
CASE(cave, "cave.grammar", 32)
CASE(cave, "cave.grammar", 64)
CASE(cave, "cave.grammar", 96)
CASE(cave, "cave.grammar", 128)
CASE(alcove, "alcove.grammar", 128)
static void *ref_cave_64_setup(void) { return gram_setup("cave.grammar", 64, GRAM_REFERENCE); }

static void *gpu_setup(const char *file, int n)
{
    gram_state *s = gram_setup(file, n, GRAM_GPU);
    if (!s) return NULL;
    char err[1024];
    s->plat = platform_create(&(platform_desc){ .width = 64, .height = 64, .headless = true }, err, sizeof err);
    if (s->plat) s->gpu = grammar_gpu_create(err, sizeof err);
    if (!s->gpu) {
        bench_skip(err);
        gram_teardown(s);
        return NULL;
    }
    /* the first derivation compiles and allocates; then the steps alone */
    gram_reset(s);
    grammar_gpu_derive(s->gpu, &s->prog, &s->grid, &s->p, NULL, err, sizeof err);
    grammar_gpu_upload(s->gpu, &s->prog, &s->grid, err, sizeof err);
    glFinish();
    uint64_t t0 = timer_ns();
    for (int gr = 0; gr < s->prog.groups; gr++) grammar_gpu_step(s->gpu, &s->prog, &s->p, 0, gr);
    glFinish();
    bench_note("steps_ms", timer_ms_since(t0));
    return s;
}
static void *gpu_cave_64_setup(void) { return gpu_setup("cave.grammar", 64); }
static void *gpu_cave_128_setup(void) { return gpu_setup("cave.grammar", 128); }

static const bench_case grammar_cases[] = {
    { "grammar.overhang.32", overhang_32_setup, gram_run, gram_teardown, 20 },
    { "grammar.overhang.64", overhang_64_setup, gram_run, gram_teardown, 20 },
    { "grammar.overhang.96", overhang_96_setup, gram_run, gram_teardown, 20 },
    { "grammar.overhang.128", overhang_128_setup, gram_run, gram_teardown, 20 },
    { "grammar.cave.32", cave_32_setup, gram_run, gram_teardown, 20 },
    { "grammar.cave.64", cave_64_setup, gram_run, gram_teardown, 20 },
    { "grammar.cave.96", cave_96_setup, gram_run, gram_teardown, 20 },
    { "grammar.cave.128", cave_128_setup, gram_run, gram_teardown, 20 },
    /* rules in abstract terms: material and slope planes (the slope rebuilt per iteration) */
    { "grammar.alcove.128", alcove_128_setup, gram_run, gram_teardown, 20 },
    { "grammar.reference.cave.64", ref_cave_64_setup, gram_run, gram_teardown, 5 },
    { "grammar.gpu.cave.64", gpu_cave_64_setup, gram_run, gram_teardown, 10 },
    { "grammar.gpu.cave.128", gpu_cave_128_setup, gram_run, gram_teardown, 10 },
};
BENCH_REGISTER(grammar_cases)
