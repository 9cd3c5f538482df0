/* app_enhance: voxel detail enhancement (seed 000) in the game as the
 * component "enhance": the enhanced render mode (render.mode enhanced),
 * the enhance.* cvars it reads, and the 'enhance stats' command. */
#include "app_enhance.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app_render.h"
#include "core/log.h"
#include "gfx/enhance_view.h"
#include "ui/cmd.h"

static const char *const operators[] = { "subdivide", "resample", NULL };

/* Chunks within the radius of the eye, roughly: a ball of chunk centres. */
static int chunks_within(int radius)
{
    double r = radius / (double)CHUNK_SIZE + 1.0;
    return (int)ceil(4.0 / 3.0 * 3.14159265 * r * r * r);
}

/* The memory the mode would hold with this cvar at its proposed value. */
static bool check_memory(const cvar *proposed, char *err, size_t errlen, void *user)
{
    enhance_params p = enhance_view_params();
    const cvar *rc = cvar_find("enhance.radius");
    int radius = rc ? rc->i : 64;
    if (!strcmp(proposed->d.name, "enhance.radius")) radius = proposed->i;
    if (!strcmp(proposed->d.name, "enhance.levels")) p.levels = proposed->i;
    if (!strcmp(proposed->d.name, "enhance.factor")) p.factor = proposed->i;
    if (!strcmp(proposed->d.name, "enhance.operator")) p.op = (enhance_operator)proposed->i;
    int f = enhance_factor(&p), chunks = chunks_within(radius);
    double bytes = enhance_view_estimate(chunks, f);
    if (bytes <= ENHANCE_VIEW_MEMORY_LIMIT) return true;
    snprintf(err, errlen,
             "%s %s: about %.0f MiB for %d chunks within %d voxels at %dx fragments, over the limit of %.0f MiB",
             proposed->d.name, proposed->str, bytes / 1048576.0, chunks, radius, f,
             ENHANCE_VIEW_MEMORY_LIMIT / 1048576.0);
    return false;
}

static int c_enhance(void *user, int argc, char **argv)
{
    app *a = user;
    if (argc != 2 || strcmp(argv[1], "stats") != 0) {
        log_error("usage: enhance stats");
        return 1;
    }
    const render_mode *mode;
    void *inst = app_render_instance(a, &mode);
    if (!inst || mode != &enhance_view_mode || !a->w) {
        log_error("enhance stats: render.mode is not enhanced (set render.mode enhanced)");
        return 1;
    }
    app_render_mesh_dirty(a);
    double eye[3];
    player_eye(&a->pl, eye);
    enhance_view_prepare(inst, eye);
    enhance_view_stats st;
    enhance_view_get_stats(inst, &st);
    log_out("enhance.chunks=%d", st.chunks);
    log_out("enhance.fragments=%llu", (unsigned long long)st.fragments);
    log_out("enhance.surface_voxels=%ld", st.surface_voxels);
    log_out("enhance.skipped_voxels=%ld", st.skipped);
    log_out("enhance.quads=%ld", st.quads);
    log_out("enhance.cache_entries=%d", st.cache.cache_entries);
    log_out("enhance.cache_bytes=%zu", st.cache.cache_bytes);
    log_out("enhance.cache_lookups=%llu", (unsigned long long)st.cache.lookups);
    log_out("enhance.cache_hit_rate=%.4f", st.cache.lookups ? (double)st.cache.hits / (double)st.cache.lookups : 0.0);
    log_out("enhance.rule_sets=%d", st.rule_sets);
    log_out("enhance.table_entries=%d", st.table_entries);
    log_out("enhance.last_ms=%.2f", st.last_ms);
    return 0;
}

/* enhance.materials and the material table's enhancement columns as
 * enhance.mat.NAME.{even,odd,percent}, for every material that can hold
 * fragments (cvar_register copies the names and help). */
static void register_material_cvars(void)
{
    cvar_register(&(cvar_desc){ "enhance.materials",
                                "1: each material follows its own enhance.mat.* rule and fragments grown into air count "
                                "only neighbours of their material's class (seed 000 section 5); 0: the paper's rule",
                                CVAR_INT, CVAR_ARCHIVE, "1", 0, 1, NULL, NULL, NULL, NULL });
    static const char *const col[3] = { "even", "odd", "percent" };
    static const char *const what[3] = {
        "subdivision threshold (solid voxels of 4) for %s fragments at even heights, with enhance.materials 1",
        "subdivision threshold (solid voxels of 4) for %s fragments at odd heights, with enhance.materials 1",
        "resampling: %s fragments are on when more than this %% of probes hit, with enhance.materials 1",
    };
    for (int m = 0; m < MAT_COUNT; m++) {
        const material *mt = &material_table[m];
        if (mt->enhance.cls == ECLASS_NONE) continue;
        const int def[3] = { mt->enhance.even, mt->enhance.odd, mt->enhance.percent };
        for (int k = 0; k < 3; k++) {
            char name[64], help[192], dv[8];
            snprintf(name, sizeof name, "enhance.mat.%s.%s", mt->name, col[k]);
            snprintf(help, sizeof help, what[k], mt->name);
            snprintf(dv, sizeof dv, "%d", def[k]);
            cvar_register(&(cvar_desc){ name, help, CVAR_INT, CVAR_ARCHIVE, dv, k < 2 ? 1 : 0, k < 2 ? 4 : 99, NULL,
                                        NULL, NULL, NULL });
        }
    }
}

bool app_enhance_ground(app *a, collide_grid *out)
{
    const render_mode *mode;
    void *inst = app_render_instance(a, &mode);
    const cvar *walk = cvar_find("enhance.walk");
    if (!inst || mode != &enhance_view_mode || (walk && !walk->i)) return false;
    return enhance_view_ground(inst, a->w, out);
}

static void *enhance_init(app *a)
{
    render_mode_register(&enhance_view_mode);
    const cvar_desc cvars[] = {
        { "enhance.operator", "detail enhancement: subdivide (recursive, 2^levels) or resample (random probes)",
          CVAR_ENUM, CVAR_ARCHIVE, "subdivide", 0, 0, operators, NULL, NULL, check_memory },
        { "enhance.levels", "recursive subdivision levels: fragments per voxel edge = 2^levels", CVAR_INT,
          CVAR_ARCHIVE, "2", 1, ENHANCE_MAX_LEVELS, NULL, NULL, NULL, check_memory },
        { "enhance.factor", "direct resampling: fragments per voxel edge (any integer)", CVAR_INT, CVAR_ARCHIVE,
          "4", 1, ENHANCE_MAX_FACTOR, NULL, NULL, NULL, check_memory },
        { "enhance.threshold_low", "subdivision: solid voxels of 4 that turn a fragment on, below enhance.altitude",
          CVAR_INT, CVAR_ARCHIVE, "1", 1, 4, NULL, NULL, NULL, NULL },
        { "enhance.threshold_even", "subdivision: the threshold above the altitude, fragments at even heights",
          CVAR_INT, CVAR_ARCHIVE, "3", 1, 4, NULL, NULL, NULL, NULL },
        { "enhance.threshold_odd", "subdivision: the threshold above the altitude, fragments at odd heights",
          CVAR_INT, CVAR_ARCHIVE, "4", 1, 4, NULL, NULL, NULL, NULL },
        { "enhance.altitude", "subdivision: height in voxels where the thresholds change", CVAR_INT, CVAR_ARCHIVE,
          "40", -1024, 4096, NULL, NULL, NULL, NULL },
        { "enhance.probes", "resampling: probes per fragment", CVAR_INT, CVAR_ARCHIVE, "64", 1, ENHANCE_MAX_PROBES,
          NULL, NULL, NULL, NULL },
        { "enhance.spread", "resampling: probe offsets within +-spread voxels", CVAR_FLOAT, CVAR_ARCHIVE, "1", 0,
          ENHANCE_MAX_SPREAD, NULL, NULL, NULL, NULL },
        { "enhance.probe_seed", "resampling: seed of the probe pattern", CVAR_INT, CVAR_ARCHIVE, "1", 0,
          2147483647.0, NULL, NULL, NULL, NULL },
        { "enhance.percent", "resampling: a fragment is on when more than this % of its probes hit solid",
          CVAR_INT, CVAR_ARCHIVE, "25", 0, 99, NULL, NULL, NULL, NULL },
        { "enhance.radius", "enhanced fragments within this many voxels of the eye, blocks beyond", CVAR_INT,
          CVAR_ARCHIVE, "64", 0, 1024, NULL, NULL, NULL, check_memory },
    };
    for (size_t i = 0; i < sizeof cvars / sizeof cvars[0]; i++) cvar_register(&cvars[i]);
    register_material_cvars();
    cvar_register(&(cvar_desc){ "enhance.walk",
                                "1: in render.mode enhanced the player walks on the fragments (ramps are slopes), "
                                "0: on the voxels",
                                CVAR_INT, CVAR_ARCHIVE, "1", 0, 1, NULL, NULL, NULL, NULL });
    const cmd_desc table[] = {
        { "enhance", "stats", "detail enhancement: fragments, surface voxels skipped, cache size and hit rate",
          c_enhance, a },
    };
    cmd_register_table(table, 1);
    return NULL;
}

const component app_enhance_component = {
    .name = "enhance",
    .init = enhance_init,
};
