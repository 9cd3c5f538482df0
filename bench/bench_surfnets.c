/* bench_surfnets: surface nets on a 4-octave noise field of N^3 cells
 * ((N+1)^3 samples), CPU on one core and the GPU compute passes; the
 * anchor is fast-surface-nets (Rust), about 37 ms at 128^3 here. */
#include "bench.h"

#include <stdlib.h>

#include "mesh/surfnets.h"
#include "mesh/surfnets_fields.h"

typedef struct bench_sn {
    float *field;
    int n; /* samples per axis */
    surfnets_mesh mesh;
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

static void bench_sn_teardown(void *state)
{
    bench_sn *s = state;
    if (!s) return;
    surfnets_free(&s->mesh);
    free(s->field);
    free(s);
}

static const bench_case bench_surfnets_cases[] = {
    { "surfnets.cpu.32", bench_sn_cpu32, bench_sn_cpu_run, bench_sn_teardown, 200 },
    { "surfnets.cpu.64", bench_sn_cpu64, bench_sn_cpu_run, bench_sn_teardown, 50 },
    { "surfnets.cpu.128", bench_sn_cpu128, bench_sn_cpu_run, bench_sn_teardown, 20 },
};
BENCH_REGISTER(bench_surfnets_cases)
