/* bench: the strata-bench harness. Each bench/bench_*.c file declares a
 * table of cases and registers it with BENCH_REGISTER; the harness times
 * every run and prints one JSON object per case:
 *   {"bench": NAME, "median_ms": X, "min_ms": X, "max_ms": X, "runs": N, ...}
 * Cases may add their own numeric fields (triangles, ratio, ...) with bench_note. */
#ifndef STRATA_BENCH_H
#define STRATA_BENCH_H

#include <stdbool.h>

typedef struct bench_case {
    const char *name;   /* dotted: "mesh.blocks.terrain32" */
    /* Prepares state outside the timed region; returns NULL to skip the case
     * (after bench_skip says why). */
    void *(*setup)(void);
    /* One timed run. */
    void (*run)(void *state);
    void (*teardown)(void *state);
    int default_runs;   /* 0 = harness default */
    /* The untimed first run (caches, lazy allocations, shader compiles);
     * NULL: one more run of `run`. For a case whose run is long (a whole
     * flight), a shorter one that warms the same things. */
    void (*warmup)(void *state);
} bench_case;

void bench_register(const bench_case *cases, int count);
#define BENCH_REGISTER(table)                                                          \
    __attribute__((constructor)) static void bench_register_##table(void)              \
    {                                                                                  \
        bench_register(table, (int)(sizeof table / sizeof table[0]));                 \
    }

/* Attach an extra numeric field to the current case's JSON line. */
void bench_note(const char *key, double value);
/* CPU time of the whole process so far, ms (every thread, llvmpipe's
 * included): steadier than wall time while other programs load the machine. */
double bench_cpu_ms(void);
/* Print why a case was skipped (its setup then returns NULL). */
void bench_skip(const char *why);

/* Worker pool shared by every case (created by the harness). */
struct job_pool;
struct job_pool *bench_jobs(void);

/* Defined in bench_mesh.c: strata-bench --mesh-file FILE. */
int bench_mesh_file(const char *path);

#endif
