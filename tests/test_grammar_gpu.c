/* The grammar compute shader against the CPU derivation (gen/grammar): on
 * random grids, rulesets (and the shipped ones), orientations, strides,
 * bounds and seeds, the grid is bit for bit the same after every step
 * (one group of one iteration) in each order the shader can visit a
 * lane's windows, and so are the whole derivation and its counts.
 * Rulesets and grids the shader cannot derive exactly are refused, not
 * misread. Headless (llvmpipe in CI). */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "gen/grammar.h"
#include "gen/grammar_file.h"
#include "gfx/grammar_gpu.h"
#include "grammar_random.h"
#include "platform/platform.h"

typedef struct gpu_fixture {
    platform *plat;
    grammar_gpu *gpu;
    job_pool *jobs;
} gpu_fixture;

static int setup(void **state)
{
    gpu_fixture *s = calloc(1, sizeof *s);
    char err[1024];
    s->plat = test_headless_open(64, 64);
    s->gpu = s->plat ? grammar_gpu_create(err, sizeof err) : NULL;
    if (!s->gpu) {
        if (s->plat) print_error("%s\n", err);
        return -1;
    }
    s->jobs = job_pool_create(2);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    gpu_fixture *s = *state;
    grammar_gpu_destroy(s->gpu);
    job_pool_destroy(s->jobs);
    platform_destroy(s->plat);
    free(s);
    return 0;
}

/* Step (iter, group) of the CPU derivation alone: the group as a program of
 * its own, one iteration, the seed moved so the tie-break draws the same
 * key (grammar_tiebreak_key xors iteration and group into the seed). */
static void cpu_step(const grammar_program *prog, grammar_program *one, grammar_grid *g, const grammar_params *p, int it,
                     int gr, job_pool *jobs, long long *matches)
{
    int g0 = prog->group_start[gr], g1 = prog->group_start[gr + 1];
    one->count = g1 - g0;
    one->groups = 1;
    one->group_start[0] = 0;
    one->group_start[1] = one->count;
    memcpy(one->rules, &prog->rules[g0], sizeof one->rules[0] * (size_t)one->count);
    grammar_params q = *p;
    q.iterations = 1;
    q.seed = p->seed ^ ((uint64_t)(uint32_t)it << 32) ^ (uint64_t)(uint32_t)gr;
    grammar_stats st;
    char err[256];
    assert_true(grammar_derive(one, g, &q, jobs, &st, err, sizeof err));
    *matches += st.matches;
}

static grammar *load_asset(const char *name)
{
    grammar *g = malloc(sizeof *g);
    char err[512], rel[128];
    snprintf(rel, sizeof rel, "assets/grammars/%s", name);
    if (!grammar_load(test_source_path(rel), g, err, sizeof err)) fail_msg("%s", err);
    return g;
}

/* A shipped grammar compiled for `orient` (the caller frees it). */
static grammar_program *load_program(const char *name, unsigned orient)
{
    grammar *g = load_asset(name);
    grammar_program *prog = malloc(sizeof *prog);
    char err[512];
    assert_non_null(prog);
    if (!grammar_compile(g, orient, prog, err, sizeof err)) fail_msg("%s", err);
    free(g);
    return prog;
}

/* The whole derivation both ways from `init`: the same bits and counts.
 * Returns the CPU's counts. */
static grammar_stats derive_both(gpu_fixture *s, const grammar_program *prog, const grammar_grid *init,
                                 const grammar_params *p)
{
    size_t n = (size_t)init->nx * (size_t)init->ny * (size_t)init->nz;
    grammar_grid gc = *init, gg = *init;
    gc.d = malloc(n * sizeof(float));
    gg.d = malloc(n * sizeof(float));
    assert_non_null(gc.d);
    assert_non_null(gg.d);
    memcpy(gc.d, init->d, n * sizeof(float));
    memcpy(gg.d, init->d, n * sizeof(float));
    grammar_stats cs, gs;
    char err[512];
    assert_true(grammar_derive(prog, &gc, p, s->jobs, &cs, err, sizeof err));
    if (!grammar_gpu_derive(s->gpu, prog, &gg, p, &gs, err, sizeof err)) fail_msg("%s", err);
    assert_memory_equal(gc.d, gg.d, n * sizeof(float));
    assert_int_equal(gs.matches, cs.matches);
    assert_int_equal(gs.windows, cs.windows);
    free(gc.d);
    free(gg.d);
    return cs;
}

static void test_steps_equal_cpu(void **state)
{
    gpu_fixture *s = *state;
    grammar *g = malloc(sizeof *g);
    grammar_program *prog = malloc(sizeof *prog), *one = malloc(sizeof *one);
    assert_non_null(g);
    assert_non_null(prog);
    assert_non_null(one);
    char err[512];
    rng r = rng_make(4004);
    long long total_matches = 0;
    int steps = 0;
    for (int trial = 0; trial < 36; trial++) {
        grammar_grid a = { rng_range(&r, 4, 90), rng_range(&r, 4, 36), rng_range(&r, 4, 36), NULL };
        size_t n = (size_t)a.nx * (size_t)a.ny * (size_t)a.nz;
        float *init = malloc(n * sizeof(float)), *cpu = malloc(n * sizeof(float)), *gpu = malloc(n * sizeof(float));
        assert_non_null(init);
        assert_non_null(cpu);
        assert_non_null(gpu);
        grammar_grid gi = a, gc = a, gg = a;
        gi.d = init;
        gc.d = cpu;
        gg.d = gpu;
        noise_grid(&gi, (uint64_t)trial + 100, trial % 2 == 0);
        if (trial % 3 == 0) {
            grammar *asset = load_asset(trial % 6 == 0 ? "cave.grammar" : "overhang.grammar");
            *g = *asset;
            free(asset);
        } else {
            random_grammar(g, &r, false); /* the operators the shader knows */
        }
        unsigned orient = (unsigned)rng_range(&r, 1, 15);
        assert_true(grammar_compile(g, orient, prog, err, sizeof err));
        assert_true(grammar_gpu_supports(prog, err, sizeof err));
        grammar_params p = { .iterations = rng_range(&r, 1, 3), .seed = (uint64_t)trial * 0x9e3779b97f4a7c15ULL };
        int dims[3] = { a.nx, a.ny, a.nz };
        for (int ax = 0; ax < 3; ax++) {
            p.lo[ax] = trial % 4 == 0 ? 0 : rng_range(&r, 0, dims[ax] / 3);
            p.hi[ax] = trial % 4 == 0 ? dims[ax] : rng_range(&r, p.lo[ax] + 1, dims[ax]);
            /* 1 overlaps most; 4 and 5 make windows that never overlap along an axis */
            p.stride[ax] = trial % 5 == 0 ? 1 : trial % 7 == 0 ? rng_range(&r, 4, 5) : rng_range(&r, 1, 3);
        }
        long long cpu_matches = 0;
        for (int order = GRAMMAR_GPU_AUTO; order <= GRAMMAR_GPU_WAVES; order++) { /* every order, the same bits */
            grammar_gpu_set_order(s->gpu, (grammar_gpu_order)order);
            memcpy(cpu, init, n * sizeof(float));
            assert_true(grammar_gpu_upload(s->gpu, prog, &gi, err, sizeof err));
            long long gpu_matches = 0;
            cpu_matches = 0;
            for (int it = 0; it < p.iterations; it++)
                for (int gr = 0; gr < prog->groups; gr++) {
                    cpu_step(prog, one, &gc, &p, it, gr, s->jobs, &cpu_matches);
                    grammar_gpu_step(s->gpu, prog, &p, it, gr);
                    if (!grammar_gpu_read(s->gpu, &gg, &gpu_matches, err, sizeof err)) fail_msg("%s", err);
                    if (memcmp(cpu, gpu, n * sizeof(float)) != 0) {
                        size_t i = 0;
                        while (cpu[i] == gpu[i]) i++;
                        fail_msg("trial %d, order %d, iteration %d, group %d: voxel %zu is %g on the GPU, %g on the CPU",
                                 trial, order, it, gr, i, (double)gpu[i], (double)cpu[i]);
                    }
                    assert_int_equal(gpu_matches, cpu_matches);
                    steps++;
                }
        }
        grammar_gpu_set_order(s->gpu, GRAMMAR_GPU_AUTO);
        /* the whole derivation at once: the same bits and counts as the steps */
        grammar_stats cs = derive_both(s, prog, &gi, &p);
        assert_int_equal(cs.matches, cpu_matches);
        total_matches += cs.matches;
        free(init);
        free(cpu);
        free(gpu);
    }
    assert_true(total_matches > 1000); /* the rules really rewrote voxels */
    assert_true(steps > 300);
    free(g);
    free(prog);
    free(one);
}

/* The Table 5 set-up of the bench at a test's size: the shipped cave
 * grammar in every orientation over a whole height field, stride 1. */
static void test_cave_heightfield(void **state)
{
    grammar_program *prog = load_program("cave.grammar", GRAMMAR_ORIENT_ALL);
    grammar_grid a = { 48, 40, 44, NULL };
    a.d = malloc(sizeof(float) * (size_t)(a.nx * a.ny * a.nz));
    assert_non_null(a.d);
    noise_grid(&a, 7, true);
    grammar_params p = { { 0, 0, 0 }, { a.nx, a.ny, a.nz }, { 1, 1, 1 }, 2, 99 };
    assert_true(derive_both(*state, prog, &a, &p).matches > 100);
    free(a.d);
    free(prog);
}

/* What the shader does not know is refused (the caller derives on the CPU)
 * and leaves the grid as it was. */
static void test_refuses_unknown(void **state)
{
    gpu_fixture *s = *state;
    grammar_program *prog = load_program("overhang.grammar", GRAMMAR_ORIENT_X);
    char err[512];
    assert_true(grammar_gpu_supports(prog, err, sizeof err));
    float d[8 * 8 * 8];
    for (int i = 0; i < 8 * 8 * 8; i++) d[i] = (float)(i % 3 == 0);
    grammar_grid grid = { 8, 8, 8, d };
    grammar_params p = { { 0, 0, 0 }, { 8, 8, 8 }, { 1, 1, 1 }, 1, 1 };
    grammar_stats st;
    struct {
        int rule, cell, which; /* which: 0 symbol op, 1 transform op, 2 weight, 3 symbol value */
        float v;
    } bad[] = { { 0, 0, 0, GSYM_COUNT }, { 0, 1, 1, GXF_COUNT }, { 0, 0, 2, NAN }, { 0, 0, 2, INFINITY },
                { 0, 0, 3, 1e-35f }, { 0, 0, 3, 1e35f } };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        grammar_program *q = malloc(sizeof *q);
        *q = *prog;
        grammar_wrule *w = &q->rules[bad[k].rule];
        if (bad[k].which == 0) w->sym[bad[k].cell].op = (uint8_t)bad[k].v;
        if (bad[k].which == 1) w->xf[bad[k].cell].op = (uint8_t)bad[k].v;
        if (bad[k].which == 2) w->weight = bad[k].v;
        if (bad[k].which == 3) w->sym[bad[k].cell] = (grammar_cell){ GSYM_GEQ, bad[k].v };
        err[0] = 0;
        assert_false(grammar_gpu_supports(q, err, sizeof err));
        assert_true(err[0] != 0);
        float before[8 * 8 * 8];
        memcpy(before, d, sizeof d);
        assert_false(grammar_gpu_derive(s->gpu, q, &grid, &p, &st, err, sizeof err));
        assert_memory_equal(before, d, sizeof d);
        free(q);
    }
    /* so is a grid the GPU could not derive exactly */
    float odd[] = { NAN, INFINITY, 1e-39f, 1e35f };
    for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
        d[77] = odd[k];
        float before[8 * 8 * 8];
        memcpy(before, d, sizeof d);
        err[0] = 0;
        assert_false(grammar_gpu_derive(s->gpu, prog, &grid, &p, &st, err, sizeof err));
        assert_true(strstr(err, "density") != NULL);
        assert_memory_equal(before, d, sizeof d);
    }
    free(prog);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_equal_cpu),
        cmocka_unit_test(test_cave_heightfield),
        cmocka_unit_test(test_refuses_unknown),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
