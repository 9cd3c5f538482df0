/* app_grammar: the component "caves": the caves pass (caves.* cvars) and
 * the live grammar commands.
 *   grammar apply FILE [ITERATIONS]  derive FILE in a box around where the
 *                                    player looks (caves.apply_size), re-mesh
 *                                    only the touched chunks
 *   grammar info FILE                the parsed rules
 * A grammar that does not load is refused with file:line:col before any
 * voxel is read, so a bad file changes nothing.
 * `grammar apply` and the caves pass derive on the CPU workers or in the
 * compute shader (gfx/grammar_gpu, the same bits), as render.gpu says: 0
 * the CPU, 1 the GPU, 2 whichever a probe measured faster here. GL lives on
 * the main thread: a world generated there (headless scripts, `regen`) can
 * take the GPU; one generated in the background derives on the CPU
 * (docs/grammar.md). Either way the world has the same bits. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "app_grammar.h"

#include "app_world.h"
#include "worldgen/caves.h"
#include "core/log.h"
#include "core/timer.h"
#include "gen/grammar_file.h"
#include "gfx/grammar_gpu.h"
#include "physics/collide.h"
#include "ui/cmd.h"

enum { PATH_CPU = 1, PATH_GPU = 2 };

typedef struct caves_app {
    app *a;
    grammar_gpu *gpu;
    bool gpu_failed;    /* made once; a failure is said once and not retried */
    int path, path_for; /* the path render.gpu 2 measured, and the setting it was measured for */
    bool gl;            /* gfx_init ran: gl_thread holds the context */
    pthread_t gl_thread;
    bool said_unsupported; /* the pass's "this ruleset stays on the CPU" said once */
    long pass_gpu_boxes;   /* boxes of generated worlds derived on the GPU (grammar stats) */
} caves_app;

static bool ensure_gpu(caves_app *s)
{
    if (!s->gpu && !s->gpu_failed) {
        char err[512];
        s->gpu = grammar_gpu_create(err, sizeof err);
        if (!s->gpu) {
            s->gpu_failed = true;
            log_dev("grammars derive on the CPU: the GPU derivation is unavailable (%s)", err);
        }
    }
    return s->gpu != NULL;
}

/* Times both derivations of the box's densities, cut to at most 32 voxels
 * a side from its middle (a whole big box on software GL would take
 * seconds), one iteration: the ratio, not the size, decides. */
static int probe(caves_app *s, job_pool *jobs, const grammar_program *prog, const grammar_grid *grid,
                 const grammar_params *p)
{
    int n[3] = { grid->nx, grid->ny, grid->nz }, o[3], m[3];
    for (int i = 0; i < 3; i++) {
        m[i] = n[i] < 32 ? n[i] : 32;
        o[i] = (n[i] - m[i]) / 2;
    }
    size_t cells = (size_t)m[0] * (size_t)m[1] * (size_t)m[2];
    float *init = malloc(sizeof(float) * cells), *work = malloc(sizeof(float) * cells);
    if (!init || !work) {
        free(init);
        free(work);
        return PATH_CPU;
    }
    for (int z = 0; z < m[2]; z++)
        for (int y = 0; y < m[1]; y++)
            memcpy(init + (size_t)m[0] * ((size_t)y + (size_t)m[1] * (size_t)z),
                   grid->d + grammar_grid_index(grid, o[0], o[1] + y, o[2] + z), sizeof(float) * (size_t)m[0]);
    grammar_grid g = { m[0], m[1], m[2], work };
    grammar_params q = { { 0, 0, 0 }, { m[0], m[1], m[2] }, { p->stride[0], p->stride[1], p->stride[2] }, 1, p->seed };
    char err[256];
    double ms[2];
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++) { /* the GPU twice: the first allocates its buffers */
        memcpy(work, init, sizeof(float) * cells);
        uint64_t t0 = timer_ns();
        ok = k == 0 ? grammar_derive(prog, &g, &q, jobs, NULL, err, sizeof err)
                    : grammar_gpu_derive(s->gpu, prog, &g, &q, NULL, err, sizeof err);
        ms[k == 0 ? 0 : 1] = timer_ms_since(t0);
    }
    free(init);
    free(work);
    int path = ok && ms[1] < ms[0] ? PATH_GPU : PATH_CPU;
    log_dev("grammars derive on the %s (a %d x %d x %d probe: GPU %.2f ms, CPU %.2f ms)",
             path == PATH_GPU ? "GPU" : "CPU", m[0], m[1], m[2], ok ? ms[1] : -1.0, ms[0]);
    return path;
}

/* quiet: the caves pass asks once per box; say an unsupported ruleset once */
static int choose_path(caves_app *s, job_pool *jobs, const grammar_program *prog, const grammar_grid *grid,
                       const grammar_params *p, bool quiet)
{
    int setting = cvar_int("render.gpu", 2);
    char why[256];
    if (setting == 0) return PATH_CPU;
    if (!grammar_gpu_supports(prog, why, sizeof why)) {
        if (!quiet || !s->said_unsupported) log_dev("grammar derives on the CPU: %s", why);
        s->said_unsupported |= quiet;
        return PATH_CPU;
    }
    if (!ensure_gpu(s)) return PATH_CPU;
    if (setting == 1) return PATH_GPU;
    if (!s->path || s->path_for != setting) {
        s->path = probe(s, jobs, prog, grid, p);
        s->path_for = setting;
    }
    return s->path;
}

/* The derivation on the chosen path; a GPU that fails half-way (a lost
 * context, memory) must not cost the box: the CPU derives from a copy of
 * the input. *path says which one made the result. */
static bool derive_chosen(caves_app *s, job_pool *jobs, const grammar_program *prog, grammar_grid *grid,
                          const grammar_params *p, grammar_stats *stats, bool quiet, int *path, char *err, size_t errlen)
{
    *path = choose_path(s, jobs, prog, grid, p, quiet);
    if (*path == PATH_GPU) {
        size_t bytes = sizeof(float) * (size_t)grid->nx * (size_t)grid->ny * (size_t)grid->nz;
        float *input = malloc(bytes);
        if (input) {
            memcpy(input, grid->d, bytes);
            bool ok = grammar_gpu_derive(s->gpu, prog, grid, p, stats, err, errlen);
            if (!ok) memcpy(grid->d, input, bytes);
            free(input);
            if (ok) return true;
            log_dev("grammar derives on the CPU: %s", err);
        }
        *path = PATH_CPU;
    }
    return grammar_derive(prog, grid, p, jobs, stats, err, errlen);
}

typedef struct apply_derive_ctx {
    caves_app *s;
    int path; /* the one taken, for the command's output */
} apply_derive_ctx;

static bool apply_derive(void *user, const grammar_program *prog, grammar_grid *grid, const grammar_params *p,
                         grammar_stats *stats, char *err, size_t errlen)
{
    apply_derive_ctx *c = user;
    return derive_chosen(c->s, c->s->a->jobs, prog, grid, p, stats, false, &c->path, err, errlen);
}

/* The caves pass's boxes: the GPU only on the thread that holds GL (a
 * world generated in the background stays on the CPU), with the pool the
 * pass was given. */
static bool pass_derive(void *user, job_pool *jobs, const grammar_program *prog, grammar_grid *grid,
                        const grammar_params *p, grammar_stats *stats, char *err, size_t errlen)
{
    caves_app *s = user;
    if (!s->gl || !pthread_equal(pthread_self(), s->gl_thread)) return grammar_derive(prog, grid, p, jobs, stats, err, errlen);
    int path;
    bool ok = derive_chosen(s, jobs, prog, grid, p, stats, true, &path, err, errlen);
    if (path == PATH_GPU) s->pass_gpu_boxes++;
    return ok;
}

static bool load(const char *file, grammar *g)
{
    char err[512];
    if (caves_load_grammar(file, g, err, sizeof err)) return true;
    log_error("%s", err);
    return false;
}

static int grammar_info(const char *file)
{
    grammar *g = malloc(sizeof *g);
    if (!g || !load(file, g)) {
        free(g);
        return 1;
    }
    log_out("grammar=%s", g->name[0] ? g->name : file);
    log_out("rules=%d", g->count);
    for (int i = 0; i < g->count; i++) {
        const grammar_rule *r = &g->rules[i];
        log_out("rule.%s=size %d %d %d weight %g line %d", r->name, r->size[0], r->size[1], r->size[2], (double)r->weight,
                r->line);
    }
    size_t n = grammar_write(g, NULL, 0);
    char *text = malloc(n + 1);
    if (text) {
        grammar_write(g, text, n + 1);
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) log_out("%s", line);
    }
    free(text);
    free(g);
    return 0;
}

/* `grammar apply` runs on the main thread: the game stands still until it
 * ends. The work grows with the box's voxels times the iterations (each
 * iteration matches every rule everywhere in the box), so a box and count
 * beyond the budget are refused up front with the figures, not left to
 * freeze the game for minutes (a 256-voxel box at 64 iterations took 130 s).
 * The budget is a 128-voxel box at 8 iterations, which derived in 3 to 8 s
 * on 2 cores; a voxel-step there cost up to 0.45 us, the estimate's rate. */
#define GRAMMAR_APPLY_BUDGET (128LL * 128 * 128 * 8)
#define GRAMMAR_APPLY_US_PER_STEP 0.45

static bool within_budget(const int lo[3], const int hi[3], int iterations)
{
    long long voxels = 1;
    for (int i = 0; i < 3; i++) voxels *= hi[i] > lo[i] ? hi[i] - lo[i] : 0;
    long long work = voxels * iterations;
    if (work <= GRAMMAR_APPLY_BUDGET) return true;
    log_error("grammar apply: %lld voxels x %d iterations = %lld voxel-steps, over the budget of %lld (it could "
              "hold the game still for up to %.0f s): lower caves.apply_size or the iterations",
              voxels, iterations, work, GRAMMAR_APPLY_BUDGET, (double)work * GRAMMAR_APPLY_US_PER_STEP * 1e-6);
    return false;
}

static int grammar_apply(caves_app *s, const char *file, const char *iters)
{
    app *a = s->a;
    int iterations = cvar_int("caves.iterations", 2);
    if (iters) {
        char *end;
        errno = 0;
        long v = strtol(iters, &end, 10);
        if (errno || *end || end == iters || v < 1 || v > 64) {
            log_error("grammar apply: iterations '%s' must be an integer in [1, 64]", iters);
            return 1;
        }
        iterations = (int)v;
    }
    grammar *g = malloc(sizeof *g);
    grammar_program *prog = malloc(sizeof *prog);
    char err[512];
    int rc = 1;
    if (!g || !prog || !load(file, g)) goto done;
    if (!grammar_compile(g, caves_orientation(), prog, err, sizeof err)) {
        log_error("grammar apply: %s", err);
        goto done;
    }
    app_sync_world(a);
    if (!a->w) {
        log_error("grammar apply: no world");
        goto done;
    }
    /* the region is centred on the first solid voxel the view meets (else 32 voxels ahead) */
    double eye[3], centre[3];
    float fwd[3];
    player_eye(&a->pl, eye);
    player_forward(&a->pl, fwd);
    int hit[3];
    float dist = 32.f;
    if (collide_raycast(a->w, eye, fwd, 128.f, hit, NULL, &dist))
        for (int i = 0; i < 3; i++) centre[i] = hit[i] + 0.5;
    else
        for (int i = 0; i < 3; i++) centre[i] = eye[i] + fwd[i] * dist;
    /* clipped to the window, wherever a streamed one is */
    int half = cvar_int("caves.apply_size", 32) / 2, lo[3], hi[3];
    int first[3] = { world_x0(a->w), 0, world_z0(a->w) }, size[3] = { a->w->sx, a->w->sy, a->w->sz };
    for (int i = 0; i < 3; i++) {
        lo[i] = (int)floor(centre[i]) - half;
        hi[i] = (int)floor(centre[i]) + half;
        lo[i] = lo[i] < first[i] ? first[i] : lo[i];
        hi[i] = hi[i] > first[i] + size[i] ? first[i] + size[i] : hi[i];
    }
    /* a column the stream has not generated yet would overwrite the derivation when it comes */
    for (int cz = lo[2] >> CHUNK_BITS; cz <= (hi[2] - 1) >> CHUNK_BITS; cz++)
        for (int cx = lo[0] >> CHUNK_BITS; cx <= (hi[0] - 1) >> CHUNK_BITS; cx++)
            if (world_column_state(a->w, cx, cz) != WORLD_COL_READY) {
                log_error("grammar apply: the terrain at %d %d has not arrived yet; `stream wait` first", cx * CHUNK_SIZE,
                          cz * CHUNK_SIZE);
                goto done;
            }
    int min_y = cvar_int("caves.min_y", 3);
    lo[1] = lo[1] < min_y ? min_y : lo[1];
    if (!within_budget(lo, hi, iterations)) goto done;
    const cvar *st = cvar_find("caves.stride");
    int stride[3] = { st ? (int)st->v[0] : 1, st ? (int)st->v[1] : 1, st ? (int)st->v[2] : 1 };
    caves_edit e;
    apply_derive_ctx dc = { s, PATH_CPU };
    uint64_t t0 = timer_ns();
    if (!caves_apply_box_with(a->w, prog, lo, hi, stride, iterations, (uint64_t)a->world_seed, apply_derive, &dc, &e, err,
                              sizeof err)) {
        log_error("grammar apply: %s", err);
        goto done;
    }
    int touched = a->w->dirty_count;
    /* one announcement: the renderer re-meshes the dirty chunks, the tool's octree and light follow */
    if (e.changed) app_world_edited(a, e.lo, e.hi, &app_caves_component);
    log_out("grammar_matches=%lld", e.matches);
    log_out("changed_voxels=%lld", e.changed);
    log_out("chunks_touched=%d", touched);
    log_out("grammar_box=%d %d %d %d %d %d", lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    log_out("grammar_path=%s", dc.path == PATH_GPU ? "gpu" : "cpu");
    log_out("grammar_ms=%.1f", timer_ms_since(t0));
    rc = 0;
done:
    free(g);
    free(prog);
    return rc;
}

static int c_grammar(void *u, int argc, char **argv)
{
    caves_app *s = u;
    if (argc >= 3 && strcmp(argv[1], "info") == 0 && argc == 3) return grammar_info(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "apply") == 0 && argc <= 4) return grammar_apply(s, argv[2], argc == 4 ? argv[3] : NULL);
    if (argc == 2 && strcmp(argv[1], "stats") == 0) {
        log_out("grammar_gpu_boxes=%ld", s->pass_gpu_boxes);
        return 0;
    }
    log_error("usage: grammar apply FILE [ITERATIONS] | grammar info FILE | grammar stats");
    return 1;
}

static void *caves_init(app *a)
{
    caves_app *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->a = a;
    caves_register();
    caves_set_pass_derive(pass_derive, s);
    cvar_register(&(cvar_desc){ "caves.apply_size", "side of the box 'grammar apply' derives around where you look",
                                CVAR_INT, CVAR_ARCHIVE, "32", 4, 256 });
    const cmd_desc table[] = {
        { "grammar", "apply FILE [ITERATIONS] | info FILE | stats",
          "apply: derive a voxel grammar around where you look (caves.orientation, caves.stride); info: print its rules; "
          "stats: grammar_gpu_boxes, the caves pass's boxes derived in the compute shader",
          c_grammar, s },
    };
    cmd_register_table(table, 1);
    return s;
}

static bool caves_gfx_init(void *self, app *a)
{
    caves_app *s = self;
    if (!s) return false;
    s->gl = true, s->gl_thread = pthread_self();
    return true;
}

static void caves_shutdown(void *self, app *a)
{
    caves_app *s = self;
    worldgen_set_pass(NULL);
    caves_set_pass_derive(NULL, NULL);
    cmd_unregister("grammar");
    if (s) grammar_gpu_destroy(s->gpu); /* before the context goes */
    free(s);
}

const component app_caves_component = {
    .name = "caves",
    .init = caves_init,
    .gfx_init = caves_gfx_init,
    .shutdown = caves_shutdown,
};
