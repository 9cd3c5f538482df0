/* strata-bench: times every registered stage and prints one line per case,
 * JSON with --json. Medians over --runs runs (default per case). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "core/jobs.h"
#include "core/log.h"
#include "core/timer.h"

#define MAX_CASES 256
#define MAX_NOTES 48 /* stream.fly notes 30 and more */

static const bench_case *g_cases[MAX_CASES];
static int g_ncases;
typedef struct bench_note_kv { const char *key; double value; } bench_note_kv;
static bench_note_kv g_notes[MAX_NOTES];
static int g_nnotes;
static job_pool *g_jobs;

void bench_register(const bench_case *cases, int count)
{
    for (int i = 0; i < count && g_ncases < MAX_CASES; i++) g_cases[g_ncases++] = &cases[i];
}

double bench_cpu_ms(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-3;
}

void bench_note(const char *key, double value)
{
    for (int i = 0; i < g_nnotes; i++)
        if (strcmp(g_notes[i].key, key) == 0) { g_notes[i].value = value; return; }
    if (g_nnotes < MAX_NOTES) g_notes[g_nnotes++] = (bench_note_kv){ key, value };
    else fprintf(stderr, "strata-bench: more than %d notes: '%s' is not recorded\n", MAX_NOTES, key);
}

static bool noted(const char *key)
{
    for (int i = 0; i < g_nnotes; i++)
        if (strcmp(g_notes[i].key, key) == 0) return true;
    return false;
}

void bench_skip(const char *why) { fprintf(stderr, "skipped: %s\n", why); }

struct job_pool *bench_jobs(void) { return g_jobs; }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_case(const void *a, const void *b)
{
    return strcmp((*(const bench_case *const *)a)->name, (*(const bench_case *const *)b)->name);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: strata-bench [--filter SUBSTR] [--runs N] [--json] [--list] [--mesh-file FILE]\n");
}

int main(int argc, char **argv)
{
    const char *filter = NULL, *mesh_file = NULL;
    int runs = 0;
    bool json = false, list = false;
    for (int i = 1; i < argc; i++) {
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--list") == 0) list = true;
        else if (strcmp(argv[i], "--filter") == 0 && next) filter = argv[++i];
        else if (strcmp(argv[i], "--mesh-file") == 0 && next) mesh_file = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && next) {
            char *end;
            long v = strtol(next, &end, 10);
            if (*end || v < 1 || v > 100000) {
                fprintf(stderr, "strata-bench: --runs needs a whole number in [1, 100000], got '%s'\n", next);
                return 2;
            }
            runs = (int)v;
            i++;
        } else if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "strata-bench: unknown or incomplete option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (mesh_file) return bench_mesh_file(mesh_file);
    qsort(g_cases, (size_t)g_ncases, sizeof g_cases[0], cmp_case);
    if (list) {
        for (int i = 0; i < g_ncases; i++) printf("%s\n", g_cases[i]->name);
        return 0;
    }
    g_jobs = job_pool_create(0);
    int matched = 0;
    for (int c = 0; c < g_ncases; c++) {
        const bench_case *bc = g_cases[c];
        if (filter && !strstr(bc->name, filter)) continue;
        matched++;
        g_nnotes = 0;
        void *state = bc->setup ? bc->setup() : NULL;
        if (bc->setup && !state) {
            fprintf(stderr, "%s: skipped\n", bc->name);
            continue;
        }
        int n = runs ? runs : bc->default_runs ? bc->default_runs : 20;
        double *t = malloc(sizeof *t * (size_t)n);
        (bc->warmup ? bc->warmup : bc->run)(state); /* warm-up: caches, lazy allocations, shader compiles */
        for (int r = 0; r < n; r++) {
            uint64_t t0 = timer_ns();
            bc->run(state);
            t[r] = timer_ms_since(t0);
        }
        if (bc->teardown) bc->teardown(state);
        qsort(t, (size_t)n, sizeof *t, cmp_double);
        double median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
        if (json) {
            /* a note of the same name as the run's own field replaces it
             * (stream.fly's max_ms is its longest frame, as the targets name
             * it): one key, never two, in a JSON object */
            printf("{\"bench\": \"%s\"", bc->name);
            const char *own[] = { "median_ms", "min_ms", "max_ms" };
            const double own_v[] = { median, t[0], t[n - 1] };
            for (int k = 0; k < 3; k++)
                if (!noted(own[k])) printf(", \"%s\": %.4f", own[k], own_v[k]);
            if (!noted("runs")) printf(", \"runs\": %d", n);
            for (int k = 0; k < g_nnotes; k++) printf(", \"%s\": %.6g", g_notes[k].key, g_notes[k].value);
            printf("}\n");
        } else {
            printf("%-28s median %9.4f ms  min %9.4f  max %9.4f  runs %d", bc->name, median, t[0], t[n - 1], n);
            for (int k = 0; k < g_nnotes; k++) printf("  %s=%.6g", g_notes[k].key, g_notes[k].value);
            printf("\n");
        }
        fflush(stdout);
        free(t);
    }
    job_pool_destroy(g_jobs);
    if (!matched) {
        fprintf(stderr, "strata-bench: no benchmark matches '%s' (try --list)\n", filter ? filter : "");
        return 2;
    }
    return 0;
}
