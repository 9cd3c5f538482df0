/* bench_edit: destructible terrain (seed 003).
 *   expr.eval100      the formula world's default formula over a 100^3 grid, one core
 *   expr.eval100.*    the default ball (our centred fix of the paper's sphere), and a formula that varies in every voxel
 *   collide.octree    all intersecting voxel pairs, 64^3 formula terrain vs a
 *                     rotated 8^3 sphere tool, the paper's recursive search
 *   collide.brute     the same pairs by checking every voxel against every voxel
 *   edit.cut          one 8^3 cut in the default world: pick, pair search, world
 *                     edits and tints, re-mesh of the dirty chunks (CPU side)
 *   edit.cut.upload   the same plus the upload of the re-meshed chunks into
 *                     their VBOs, waited for with glFinish: the target's "from
 *                     the click to the updated VBOs" (headless GL)
 *   collide.player    10,000 player box moves (up to 3 voxels a step) in the
 *                     default world, voxel scan; .octree: with the tool's
 *                     terrain octree as the broad phase */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "bench.h"
#include "core/rng.h"
#include "core/timer.h"
#include "physics/collide.h"
#include "play/player.h"
#include "gfx/renderer.h"
#include "platform/platform.h"
#include "worldgen/formula_world.h"
#include "gen/expr.h"
#include "gen/shape.h"
#include "mesh/mesh_world.h"
#include "physics/octree.h"
#include "worldgen/terrain.h"
#include "play/tool.h"

/* ---- expr ---- */

typedef struct expr_state {
    expr_program prog;
    uint8_t *grid;
} expr_state;

static void *expr_setup_with(const char *formula)
{
    expr_state *s = calloc(1, sizeof *s);
    char err[256];
    if (!s || !expr_compile(formula, EXPR_AUTO, &s->prog, err, sizeof err)) {
        bench_skip(err);
        free(s);
        return NULL;
    }
    s->grid = malloc(100 * 100 * 100);
    bench_note("ops", s->prog.count);
    return s;
}
static void *expr_setup_hills(void) { return expr_setup_with(FORMULA_WORLD_DEFAULT); }
static void *expr_setup_sphere(void) { return expr_setup_with("x x * y y * z z * + + sqrt r <"); }
static void *expr_setup_dense(void) { return expr_setup_with("sin(x*y*z/1000) + cos(sr) * tan(x + y - z) > 0.2"); }

static void expr_run(void *p)
{
    expr_state *s = p;
    long n = expr_eval_grid(&s->prog, 100, 100, 100, s->grid);
    bench_note("solid", (double)n);
}

static void expr_teardown(void *p)
{
    expr_state *s = p;
    free(s->grid);
    free(s);
}

/* ---- collide ---- */

#define COLLIDE_RUNS 200

typedef struct collide_state {
    shape terrain_shape, tool_shape;
    octree *terrain, *tool;
    octree_pose pose;
    octree_pairs pairs;
    double brute_ms;
    double ms[COLLIDE_RUNS];
    int n;
} collide_state;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void *collide_setup(void)
{
    collide_state *s = calloc(1, sizeof *s);
    char err[256];
    if (!shape_from_formula(&s->terrain_shape, FORMULA_WORLD_DEFAULT, 64, 64, 64, err, sizeof err) ||
        !shape_from_formula(&s->tool_shape, TOOL_DEFAULT_SHAPE, 8, 8, 8, err, sizeof err)) {
        bench_skip(err);
        free(s);
        return NULL;
    }
    s->terrain = octree_from_dense(s->terrain_shape.vox, 64, 64, 64);
    s->tool = octree_from_dense(s->tool_shape.vox, 8, 8, 8);
    /* centred on the hills' surface near the middle (half buried), turned as a camera would turn it */
    int top = 63;
    while (top > 0 && !shape_get(&s->terrain_shape, 30, top, 29)) top--;
    const float pos[3] = { 30.3f, (float)top + 0.7f, 29.6f };
    octree_pose_from_yaw_pitch(&s->pose, 37.f, -23.f, pos);
    return s;
}

static void collide_teardown(void *p)
{
    collide_state *s = p;
    bench_note("pairs", (double)s->pairs.count);
    bench_note("terrain_voxels", (double)s->terrain_shape.count);
    bench_note("tool_voxels", (double)s->tool_shape.count);
    if (s->brute_ms > 0 && s->n > 0) {
        qsort(s->ms, (size_t)s->n, sizeof s->ms[0], cmp_double);
        double med = s->ms[s->n / 2];
        bench_note("brute_ms", s->brute_ms);
        bench_note("speedup", s->brute_ms / (med > 1e-6 ? med : 1e-6));
    }
    octree_pairs_free(&s->pairs);
    octree_destroy(s->terrain);
    octree_destroy(s->tool);
    shape_free(&s->terrain_shape);
    shape_free(&s->tool_shape);
    free(s);
}

static void *collide_octree_setup(void)
{
    collide_state *s = collide_setup();
    if (!s) return NULL;
    /* one brute-force run for the ratio (collide.brute has the full timing) */
    uint64_t t0 = timer_ns();
    octree_intersect_brute(s->terrain, s->tool, &s->pose, &s->pairs);
    s->brute_ms = timer_ms_since(t0);
    return s;
}

static void collide_octree_run(void *p)
{
    collide_state *s = p;
    uint64_t t0 = timer_ns();
    octree_intersect(s->terrain, s->tool, &s->pose, &s->pairs);
    if (s->n < COLLIDE_RUNS) s->ms[s->n++] = timer_ms_since(t0);
}

static void collide_brute_run(void *p)
{
    collide_state *s = p;
    octree_intersect_brute(s->terrain, s->tool, &s->pose, &s->pairs);
}

/* ---- edit.cut ---- */

#define EDIT_MAX_DIRTY 64

typedef struct edit_state {
    world *w;
    tool t;
    int i;
    int dirty[EDIT_MAX_DIRTY];
    int dirty_count;
    chunk_mesh meshes[EDIT_MAX_DIRTY];
    platform *plat; /* edit.cut.upload only */
    renderer *rend;
} edit_state;

static void *edit_setup(void)
{
    edit_state *s = calloc(1, sizeof *s);
    char err[256];
    terrain_register();
    /* the default world: app.c's 16 x 4 x 16 chunks of hills, seed 1 */
    s->w = world_create(16, 4, 16);
    if (!s->w || !worldgen_generate(s->w, &terrain_hills, 1, bench_jobs()) || !tool_init(&s->t, err, sizeof err)) {
        bench_skip("cannot make the default world or the tool");
        return NULL;
    }
    uint64_t t0 = timer_ns();
    tool_bind_world(&s->t, s->w); /* once per world: the cuts then keep it up to date */
    bench_note("octree_build_ms", timer_ms_since(t0));
    int tmp[256];
    while (world_take_dirty(s->w, tmp, 256) > 0) {}
    return s;
}

static void edit_run(void *p)
{
    edit_state *s = p;
    /* a fresh patch of ground each run: the player looks down at it from standing height */
    int x = 64 + (s->i * 11) % 384, z = 96 + (s->i * 7) % 320;
    s->i++;
    tool_view v = { .w = s->w, .yaw = 20.f, .pitch = -55.f };
    int ground = world_surface_y(s->w, x, z);
    v.eye[0] = (float)x + 0.5f, v.eye[1] = (float)ground + 2.6f, v.eye[2] = (float)z + 3.5f;
    octree_pose pose;
    tool_place(&s->t, &v, &pose);
    int removed = tool_cut(&s->t, s->w, &pose);
    int n = world_take_dirty(s->w, s->dirty, EDIT_MAX_DIRTY);
    mesh_world_chunks(s->w, bench_jobs(), s->dirty, n, true, s->meshes);
    s->dirty_count = n;
    bench_note("removed", removed);
    bench_note("tinted", s->t.last_tinted);
    bench_note("chunks", n);
}

static void edit_teardown(void *p);

/* The default world uploaded whole, as the app has it before the click. */
static void *edit_setup_gl(void)
{
    char err[1024];
    platform *plat = platform_create(&(platform_desc){ .width = 64, .height = 64, .headless = true }, err, sizeof err);
    if (!plat) {
        bench_skip(err);
        return NULL;
    }
    edit_state *s = edit_setup();
    if (!s) {
        platform_destroy(plat);
        return NULL;
    }
    s->plat = plat;
    s->rend = renderer_create(err, sizeof err);
    if (!s->rend) {
        bench_skip(err);
        edit_teardown(s);
        return NULL;
    }
    renderer_reset(s->rend, s->w->cx, s->w->cy, s->w->cz);
    chunk_mesh m = { 0 };
    for (int i = 0; i < s->w->chunk_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(s->w, i, &cx, &cy, &cz);
        mesh_world_chunks(s->w, bench_jobs(), &i, 1, true, &m);
        renderer_upload(s->rend, cx, cy, cz, &m);
    }
    mesh_free(&m);
    glFinish();
    return s;
}

static void edit_run_gl(void *p)
{
    edit_state *s = p;
    edit_run(s);
    for (int i = 0; i < s->dirty_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(s->w, s->dirty[i], &cx, &cy, &cz);
        renderer_upload(s->rend, cx, cy, cz, &s->meshes[i]);
    }
    glFinish(); /* the VBOs are updated when the driver has taken the data */
}

static void edit_teardown(void *p)
{
    edit_state *s = p;
    renderer_destroy(s->rend);
    platform_destroy(s->plat);
    for (int i = 0; i < EDIT_MAX_DIRTY; i++) mesh_free(&s->meshes[i]);
    tool_free(&s->t);
    world_destroy(s->w);
    free(s);
}

/* ---- collide.player ---- */

#define PLAYER_MOVES 10000

typedef struct move_state {
    world *w;
    octree *occ;
    bool use_octree;
} move_state;

static void *move_setup_with(bool use_octree)
{
    move_state *s = calloc(1, sizeof *s);
    terrain_register();
    s->w = world_create(16, 4, 16);
    worldgen_generate(s->w, &terrain_hills, 1, bench_jobs());
    s->occ = octree_from_world(s->w);
    s->use_octree = use_octree;
    return s;
}
static void *move_setup(void) { return move_setup_with(false); }
static void *move_setup_octree(void) { return move_setup_with(true); }

static void move_run(void *p)
{
    move_state *s = p;
    rng r = rng_make(5); /* the same moves for both cases */
    const collide_box_desc box = player_box();
    int blocked = 0;
    for (int k = 0; k < PLAYER_MOVES; k++) {
        /* anywhere in the world, from the ground to well above it */
        double pos[3] = { (float)(rng_double(&r) * s->w->sx), (float)(rng_double(&r) * s->w->sy),
                          (float)(rng_double(&r) * s->w->sz) };
        const float d[3] = { (float)(rng_double(&r) * 6 - 3), (float)(rng_double(&r) * 6 - 3),
                             (float)(rng_double(&r) * 6 - 3) };
        collide_result res;
        collide_move_octree(s->w, s->use_octree ? s->occ : NULL, pos, &box, d, &res);
        blocked += res.blocked[0] || res.blocked[1] || res.blocked[2];
    }
    bench_note("blocked", blocked);
}

static void move_teardown(void *p)
{
    move_state *s = p;
    octree_destroy(s->occ);
    world_destroy(s->w);
    free(s);
}

static const bench_case edit_cases[] = {
    { "expr.eval100", expr_setup_hills, expr_run, expr_teardown, 20 },
    { "expr.eval100.sphere", expr_setup_sphere, expr_run, expr_teardown, 20 },
    { "expr.eval100.dense", expr_setup_dense, expr_run, expr_teardown, 5 },
    { "collide.octree", collide_octree_setup, collide_octree_run, collide_teardown, COLLIDE_RUNS },
    { "collide.brute", collide_setup, collide_brute_run, collide_teardown, 5 },
    { "edit.cut", edit_setup, edit_run, edit_teardown, 50 },
    { "edit.cut.upload", edit_setup_gl, edit_run_gl, edit_teardown, 50 },
    { "collide.player", move_setup, move_run, move_teardown, 20 },
    { "collide.player.octree", move_setup_octree, move_run, move_teardown, 20 },
};
BENCH_REGISTER(edit_cases)
