/* app_grammar: the component "caves": the caves pass (caves.* cvars) and
 * the live grammar commands.
 *   grammar apply FILE [ITERATIONS]  derive FILE in a box around where the
 *                                    player looks (caves.apply_size), re-mesh
 *                                    only the touched chunks
 *   grammar info FILE                the parsed rules
 * A grammar that does not load is refused with file:line:col before any
 * voxel is read, so a bad file changes nothing. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app_grammar.h"

#include "app_world.h"
#include "worldgen/caves.h"
#include "core/log.h"
#include "gen/grammar_file.h"
#include "physics/collide.h"
#include "ui/cmd.h"

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

static int grammar_apply(app *a, const char *file, const char *iters)
{
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
    float eye[3], fwd[3], centre[3];
    player_eye(&a->pl, eye);
    player_forward(&a->pl, fwd);
    int hit[3];
    float dist = 32.f;
    if (collide_raycast(a->w, eye, fwd, 128.f, hit, NULL, &dist))
        for (int i = 0; i < 3; i++) centre[i] = (float)hit[i] + 0.5f;
    else
        for (int i = 0; i < 3; i++) centre[i] = eye[i] + fwd[i] * dist;
    int half = cvar_int("caves.apply_size", 32) / 2, lo[3], hi[3], size[3] = { a->w->sx, a->w->sy, a->w->sz };
    for (int i = 0; i < 3; i++) {
        lo[i] = (int)floorf(centre[i]) - half;
        hi[i] = (int)floorf(centre[i]) + half;
        lo[i] = lo[i] < 0 ? 0 : lo[i];
        hi[i] = hi[i] > size[i] ? size[i] : hi[i];
    }
    int min_y = cvar_int("caves.min_y", 3);
    lo[1] = lo[1] < min_y ? min_y : lo[1];
    const cvar *st = cvar_find("caves.stride");
    int stride[3] = { st ? (int)st->v[0] : 1, st ? (int)st->v[1] : 1, st ? (int)st->v[2] : 1 };
    caves_edit e;
    if (!caves_apply_box(a->w, prog, lo, hi, stride, iterations, (uint64_t)a->world_seed, a->jobs, &e, err, sizeof err)) {
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
    rc = 0;
done:
    free(g);
    free(prog);
    return rc;
}

static int c_grammar(void *u, int argc, char **argv)
{
    app *a = u;
    if (argc >= 3 && strcmp(argv[1], "info") == 0 && argc == 3) return grammar_info(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "apply") == 0 && argc <= 4) return grammar_apply(a, argv[2], argc == 4 ? argv[3] : NULL);
    log_error("usage: grammar apply FILE [ITERATIONS] | grammar info FILE");
    return 1;
}

static void *caves_init(app *a)
{
    caves_register();
    cvar_register(&(cvar_desc){ "caves.apply_size", "side of the box 'grammar apply' derives around where you look",
                                CVAR_INT, CVAR_ARCHIVE, "32", 4, 256 });
    const cmd_desc table[] = {
        { "grammar", "apply FILE [ITERATIONS] | info FILE",
          "apply: derive a voxel grammar around where you look (caves.orientation, caves.stride); info: print its rules",
          c_grammar, a },
    };
    cmd_register_table(table, 1);
    return NULL;
}

static void caves_shutdown(void *self, app *a)
{
    worldgen_set_pass(NULL);
    cmd_unregister("grammar");
}

const component app_caves_component = {
    .name = "caves",
    .init = caves_init,
    .shutdown = caves_shutdown,
};
