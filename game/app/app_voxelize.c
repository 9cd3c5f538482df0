/* app_voxelize: meshes in the game (seed 002). Commands: voxelize FILE RES
 * and overlap A B RES (volumes, for scripts), import FILE [SIZE] (stamps a
 * mesh where the player looks), tool.mesh FILE [SIZE] (the cutting tool
 * takes a mesh's shape); cvars voxelize.* choose the method and its
 * parameters. Every failure is reported before anything is changed. */
#include "app_voxelize.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_tool.h"
#include "app_world.h"
#include "core/log.h"
#include "gen/obj.h"
#include "gen/voxelize.h"
#include "ui/cmd.h"
#include "play/tool.h"
#include "ui/cvar.h"

/* import: the side of the largest stamp (a 128^3 box is 2 MiB of edits) */
#define IMPORT_MAX_SIZE 128
#define IMPORT_DEFAULT_SIZE 32
/* how far the view ray looks for ground to stand an import on */
#define IMPORT_REACH 256.f

static const char *const method_names[] = { "parity", "winding", NULL };

static voxelize_desc current_desc(app *a)
{
    voxelize_desc d = { 0 };
    cvar *m = cvar_find("voxelize.method"), *k = cvar_find("voxelize.directions"),
         *st = cvar_find("voxelize.relax_step"), *it = cvar_find("voxelize.relax_iterations");
    d.method = m && m->i == 1 ? VOXELIZE_WINDING : VOXELIZE_PARITY;
    d.directions = k ? k->i : 9;
    d.relax.step = st ? st->f : 0.f;
    d.relax.iterations = it ? it->i : 0;
    d.seed = 1;
    d.pool = a->jobs;
    return d;
}

static bool parse_size(const char *s, int lo, int hi, const char *what, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end) {
        log_error("%s '%s' is not a whole number", what, s);
        return false;
    }
    if (v < lo || v > hi) {
        log_error("%s %ld refused: %d to %d (the limit)", what, v, lo, hi);
        return false;
    }
    *out = (int)v;
    return true;
}

static bool load(const char *path, obj_mesh *m)
{
    char err[512];
    if (obj_load(path, m, err, sizeof err)) return true;
    log_error("%s", err);
    return false;
}

/* The mesh voxelized on a grid of `res` along its longest side; NULL
 * after logging why. */
static uint8_t *voxelize_fit(app *a, const obj_mesh *m, int res, voxelize_grid *g, long *inside)
{
    char err[512];
    if (!voxelize_grid_fit(m, res, g, err, sizeof err)) {
        log_error("%s", err);
        return NULL;
    }
    uint8_t *v = malloc((size_t)g->nx * g->ny * g->nz);
    voxelize_desc d = current_desc(a);
    if (!v || (*inside = voxelize_mesh(m, g, &d, v, err, sizeof err)) < 0) {
        log_error("%s", v ? err : "out of memory");
        free(v);
        return NULL;
    }
    return v;
}

static int c_voxelize(void *u, int argc, char **argv)
{
    app *a = u;
    int res;
    if (argc != 3) {
        log_error("usage: voxelize FILE RES");
        return 1;
    }
    if (!parse_size(argv[2], 1, VOXELIZE_MAX_RES, "resolution", &res)) return 1;
    obj_mesh m;
    if (!load(argv[1], &m)) return 1;
    voxelize_grid g;
    long inside = 0;
    uint8_t *v = voxelize_fit(a, &m, res, &g, &inside);
    obj_free(&m);
    if (!v) return 1;
    free(v);
    log_out("inside_voxels=%ld", inside);
    log_out("volume=%.6g", (double)inside * g.cell * g.cell * g.cell);
    log_out("grid=%dx%dx%d", g.nx, g.ny, g.nz);
    log_out("cell=%.6g", g.cell);
    return 0;
}

static int c_overlap(void *u, int argc, char **argv)
{
    app *a = u;
    int res;
    if (argc != 4) {
        log_error("usage: overlap A B RES");
        return 1;
    }
    if (!parse_size(argv[3], 1, VOXELIZE_MAX_RES, "resolution", &res)) return 1;
    obj_mesh ma, mb;
    if (!load(argv[1], &ma)) return 1;
    if (!load(argv[2], &mb)) {
        obj_free(&ma);
        return 1;
    }
    voxelize_desc d = current_desc(a);
    long n = 0;
    double vol = 0;
    char err[512];
    bool ok = voxelize_overlap(&ma, &mb, res, &d, &n, &vol, err, sizeof err);
    obj_free(&ma);
    obj_free(&mb);
    if (!ok) {
        log_error("%s", err);
        return 1;
    }
    log_out("overlap_voxels=%ld", n);
    log_out("volume=%.6g", vol);
    return 0;
}

static int c_import(void *u, int argc, char **argv)
{
    app *a = u;
    int size = IMPORT_DEFAULT_SIZE;
    if (argc != 2 && argc != 3) {
        log_error("usage: import FILE [SIZE]");
        return 1;
    }
    if (argc == 3 && !parse_size(argv[2], 1, IMPORT_MAX_SIZE, "import size", &size)) return 1;
    app_sync_world(a);
    const tool *t = app_tool(a);
    /* the tool's terrain octree (it follows every edit), built around the
     * eye if no frame has yet: right after `stream wait` there is none */
    const octree *ground = app_occupancy_now(a);
    if (!a->w || !t || !ground) {
        log_error("no world to import into yet");
        return 1;
    }
    const float d2r = 0.017453292519943295f;
    float yaw = a->pl.yaw * d2r, pitch = a->pl.pitch * d2r;
    double eye[3];
    float fwd[3] = { sinf(yaw) * cosf(pitch), sinf(pitch), -cosf(yaw) * cosf(pitch) };
    player_eye(&a->pl, eye);
    int hit[3], normal[3];
    float dist;
    if (!octree_raycast(ground, eye, fwd, IMPORT_REACH, hit, normal, &dist)) {
        log_error("import: the view meets no ground within %g voxels; look at where the mesh should stand",
                  (double)IMPORT_REACH);
        return 1;
    }
    obj_mesh m;
    if (!load(argv[1], &m)) return 1;
    voxelize_grid g;
    long inside = 0;
    uint8_t *v = voxelize_fit(a, &m, size, &g, &inside);
    obj_free(&m);
    if (!v) return 1;
    /* its base centred on the face the view met, standing on it */
    world *w = a->w;
    int base[3] = { hit[0] + normal[0] - g.nx / 2, hit[1] + normal[1], hit[2] + normal[2] - g.nz / 2 };
    int lo[3] = { INT_MAX, INT_MAX, INT_MAX }, hi[3] = { INT_MIN, INT_MIN, INT_MIN }; /* global: any window */
    long stamped = 0;
    for (int y = 0; y < g.ny; y++)
        for (int z = 0; z < g.nz; z++)
            for (int x = 0; x < g.nx; x++) {
                if (!v[(size_t)x + (size_t)g.nx * ((size_t)z + (size_t)g.nz * (size_t)y)]) continue;
                int p[3] = { base[0] + x, base[1] + y, base[2] + z };
                if (!world_in_bounds(w, p[0], p[1], p[2]) || world_get(w, p[0], p[1], p[2]) == MAT_BEDROCK ||
                    !world_voxel_ready(w, p[0], p[2]))
                    continue; /* a column not generated yet would overwrite it when it comes */
                world_set(w, p[0], p[1], p[2], t->material); /* clears the cell's tint */
                for (int k = 0; k < 3; k++) {
                    if (p[k] < lo[k]) lo[k] = p[k];
                    if (p[k] + 1 > hi[k]) hi[k] = p[k] + 1;
                }
                stamped++;
            }
    free(v);
    /* one announcement: re-meshing, the tool's octree and light follow */
    if (stamped) app_world_edited(a, lo, hi, NULL);
    log_out("import_voxels=%ld", stamped);
    log_out("import_at=%d %d %d", base[0], base[1], base[2]);
    log_out("import_grid=%dx%dx%d", g.nx, g.ny, g.nz);
    return 0;
}

static int c_tool_mesh(void *u, int argc, char **argv)
{
    app *a = u;
    if (argc != 2 && argc != 3) {
        log_error("usage: tool.mesh FILE [SIZE]");
        return 1;
    }
    tool *t = app_tool(a);
    if (!t) {
        log_error("the cutting tool is off");
        return 1;
    }
    int size = t->size;
    if (argc == 3 && !parse_size(argv[2], 1, TOOL_MAX_SIZE, "tool size", &size)) return 1;
    obj_mesh m;
    if (!load(argv[1], &m)) return 1;
    voxelize_grid g;
    long inside = 0;
    uint8_t *v = voxelize_fit(a, &m, size, &g, &inside);
    obj_free(&m);
    if (!v) return 1;
    shape s = { 0 };
    s.sx = g.nx, s.sy = g.ny, s.sz = g.nz;
    s.vox = v;
    s.count = inside;
    char label[TOOL_FORMULA_MAX], err[256];
    snprintf(label, sizeof label, "mesh %s", argv[1]);
    if (!tool_set_shape_voxels(t, &s, label, err, sizeof err)) {
        log_error("%s", err);
        shape_free(&s);
        return 1;
    }
    log_out("tool_voxels=%ld", inside);
    log_out("tool_grid=%dx%dx%d", g.nx, g.ny, g.nz);
    return 0;
}

static void *voxelize_init(app *a)
{
    char dirs_max[8];
    snprintf(dirs_max, sizeof dirs_max, "%d", VOXELIZE_MAX_DIRECTIONS);
    const cvar_desc vars[] = {
        { "voxelize.method", "inside test for meshes: parity (voted rays, any orientation) or winding (needs outward faces)",
          CVAR_ENUM, CVAR_ARCHIVE, "parity", 0, 0, method_names },
        { "voxelize.directions", "parity: ray directions voted per voxel (seed 002: 5 fix the teapot, 9 by default)",
          CVAR_INT, CVAR_ARCHIVE, "9", 1, VOXELIZE_MAX_DIRECTIONS },
        { "voxelize.relax_step", "Thomson relaxation of the directions: largest move of the first iteration",
          CVAR_FLOAT, CVAR_ARCHIVE, "0.05", 1e-5, 1 },
        { "voxelize.relax_iterations", "Thomson relaxation: most iterations (it stops once moves fall below 0.001)",
          CVAR_INT, CVAR_ARCHIVE, "1000", 1, 100000 },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
    const cmd_desc cmds[] = {
        { "voxelize", "FILE RES", "voxelize an OBJ on a RES^3 grid over its bounds: prints inside_voxels= volume=",
          c_voxelize, a },
        { "overlap", "A B RES", "voxelize two OBJs on one grid over both: prints overlap_voxels= volume=", c_overlap,
          a },
        { "import", "FILE [SIZE]", "stamp an OBJ (SIZE voxels tall/wide, default 32) of tool.material where you look",
          c_import, a },
        { "tool.mesh", "FILE [SIZE]", "make an OBJ the cutting tool's shape (SIZE: default tool.size)", c_tool_mesh,
          a },
    };
    cmd_register_table(cmds, (int)(sizeof cmds / sizeof cmds[0]));
    return NULL; /* no state: the commands work on the app */
}

const component app_voxelize_component = {
    .name = "voxelize",
    .init = voxelize_init,
};
