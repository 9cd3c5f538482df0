/* bench_physics: voxel bodies.
 *   physics.detach.oak   cutting through an oak's trunk in the default
 *                        deciduous world (512x128x512), from the cut to the
 *                        crown found loose (the search alone: making the body
 *                        is timed in .body)
 *   physics.detach.oak.body  the same, then the crown cut out of the world
 *                        into a body (and put back, outside the timing)
 *   physics.detach.cut   what every cut now pays: the search after an 8^3
 *                        ball is cut out of the default hills surface (nothing
 *                        is loose: every search ends at the floor)
 *   physics.step.bodies.10, .100  one simulation step (1/60 s, 4 substeps)
 *                        of 10 and 100 bodies of 50-500 voxels tumbling on the
 *                        hills terrain (128x64x128); notes the octree pairs
 *                        found, and the contact query of seed 003's octrees
 *                        against brute force on the same bodies and poses
 *                        (pairs checked equal)
 *   physics.tree.box     the tool's tree of a streamed world: the 9 x 9
 *                        columns (128 voxels around the eye) of the hills
 *                        terrain read into an octree, as the tool reads them
 *                        a few columns a frame while the player travels;
 *                        notes the time a column */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_scene_bodies.h"
#include "core/rng.h"
#include "core/timer.h"
#include "physics/bodies.h"
#include "physics/detach.h"
#include "worldgen/biomes.h"
#include "worldgen/terrain.h"
#include "worldgen/worldgen.h"

#define DETACH_BENCH_LIMIT 100000

typedef struct oak_state {
    world *w;
    detach d;
    int t[3];   /* the trunk voxel cut */
    uint8_t m;
} oak_state;

/* The oak nearest the centre: a log column standing on ground. */
static bool find_oak(const world *w, int t[3])
{
    long best = -1;
    for (int z = 0; z < w->sz; z++)
        for (int x = 0; x < w->sx; x++) {
            int y = world_surface_y(w, x, z);
            for (; y > 1; y--)
                if (world_get(w, x, y, z) == MAT_OAK_LOG && world_get(w, x, y - 1, z) != MAT_OAK_LOG) break;
            if (y <= 1 || world_get(w, x, y, z) != MAT_OAK_LOG || world_get(w, x, y + 2, z) != MAT_OAK_LOG) continue;
            long dx = x - w->sx / 2, dz = z - w->sz / 2, d = dx * dx + dz * dz;
            if (best < 0 || d < best) best = d, t[0] = x, t[1] = y + 1, t[2] = z;
        }
    return best >= 0;
}

static void *oak_setup(void)
{
    biomes_register();
    oak_state *s = calloc(1, sizeof *s);
    s->w = world_create(16, 4, 16);
    if (!s->w || !worldgen_generate(s->w, worldgen_find("deciduous"), 1, bench_jobs()) || !find_oak(s->w, s->t)) {
        bench_skip("no deciduous world or no oak in it");
        world_destroy(s->w);
        free(s);
        return NULL;
    }
    s->m = world_get(s->w, s->t[0], s->t[1], s->t[2]);
    return s;
}

static void oak_run(void *p)
{
    oak_state *s = p;
    world_set(s->w, s->t[0], s->t[1], s->t[2], MAT_AIR);
    const int hi[3] = { s->t[0] + 1, s->t[1] + 1, s->t[2] + 1 };
    size_t n = detach_find(&s->d, s->w, s->t, hi, DETACH_BENCH_LIMIT);
    world_set(s->w, s->t[0], s->t[1], s->t[2], s->m); /* the next run cuts the same tree */
    bench_note("groups", (double)n);
    bench_note("voxels", (double)s->d.vox_count);
    bench_note("visited", (double)s->d.visited);
}

static void oak_teardown(void *p)
{
    oak_state *s = p;
    detach_free(&s->d);
    world_destroy(s->w);
    free(s);
}

/* The crown cut out into a body: the target's "from the cut to the crown
 * being a body". The body goes back afterwards (untimed). */
static void oak_body_run(void *p)
{
    oak_state *s = p;
    uint64_t t0 = timer_ns();
    world_set(s->w, s->t[0], s->t[1], s->t[2], MAT_AIR);
    const int hi[3] = { s->t[0] + 1, s->t[1] + 1, s->t[2] + 1 };
    size_t n = detach_find(&s->d, s->w, s->t, hi, DETACH_BENCH_LIMIT);
    body_density dens;
    body_density_default(&dens);
    int lo[3], bhi[3];
    body *b = n ? body_cut_from_world(s->w, s->d.vox, s->d.groups[0].count, &dens, lo, bhi) : NULL;
    double ms = timer_ms_since(t0);
    bench_note("cut_to_body_ms", ms);
    bench_note("body_voxels", b ? (double)b->count : 0);
    if (b) {
        long lost;
        body_merge(b, s->w, NULL, &lost, lo, bhi);
        body_destroy(b);
    }
    world_set(s->w, s->t[0], s->t[1], s->t[2], s->m);
}

typedef struct cut_state {
    world *w;
    detach d;
    int lo[3], hi[3];
} cut_state;

/* The default hills surface (512x128x512, seed 1) in a new state. */
static cut_state *hills_state(void)
{
    terrain_register();
    cut_state *s = calloc(1, sizeof *s);
    if (s) s->w = world_create(16, 4, 16);
    if (!s || !s->w || !worldgen_generate(s->w, &terrain_hills, 1, bench_jobs())) {
        bench_skip("no hills world");
        if (s) world_destroy(s->w);
        free(s);
        return NULL;
    }
    return s;
}

static void *cut_setup(void)
{
    cut_state *s = hills_state();
    if (!s) return NULL;
    int x = 256, z = 256, y = world_surface_y(s->w, x, z);
    for (int dy = -4; dy < 4; dy++)
        for (int dz = -4; dz < 4; dz++)
            for (int dx = -4; dx < 4; dx++)
                if (dx * dx + dy * dy + dz * dz < 16) world_set(s->w, x + dx, y + dy, z + dz, MAT_AIR);
    const int lo[3] = { x - 4, y - 4, z - 4 }, hi[3] = { x + 4, y + 4, z + 4 };
    memcpy(s->lo, lo, sizeof lo);
    memcpy(s->hi, hi, sizeof hi);
    return s;
}

static void cut_run(void *p)
{
    cut_state *s = p;
    size_t n = detach_find(&s->d, s->w, s->lo, s->hi, DETACH_BENCH_LIMIT);
    bench_note("groups", (double)n);
    bench_note("visited", (double)s->d.visited);
}

static void cut_teardown(void *p)
{
    cut_state *s = p;
    detach_free(&s->d);
    world_destroy(s->w);
    free(s);
}

/* ---- step ---- */

typedef struct step_state {
    world *w;
    octree *terrain;
    bodies set;
} step_state;

static step_state *step_setup(int count)
{
    terrain_register();
    step_state *s = calloc(1, sizeof *s);
    s->w = world_create(4, 2, 4);
    if (!s->w || !worldgen_generate(s->w, &terrain_hills, 1, bench_jobs()) || !(s->terrain = octree_from_world(s->w))) {
        bench_skip("no hills world");
        world_destroy(s->w);
        free(s);
        return NULL;
    }
    bodies_init(&s->set);
    s->set.p.sleep_time = 1e9f; /* they keep tumbling: every run is a step of moving bodies */
    s->set.p.max_age = 1e9f;
    bench_scene_bodies(&s->set, s->w, count);
    /* three seconds of falling: they are on the terrain, and on each other */
    for (int k = 0; k < 180; k++) bodies_step(&s->set, s->w, s->terrain, bench_jobs());
    /* the contact query, octree against brute force, on up to 10 bodies as they are now */
    bodies_contacts fast = { 0 }, slow = { .brute = true };
    int sample = s->set.count < 10 ? s->set.count : 10;
    bool equal = true;
    uint64_t t0 = timer_ns();
    for (int i = 0; i < sample; i++) bodies_terrain_contacts(&s->set, i, s->w, s->terrain, &fast);
    double octree_ms = timer_ms_since(t0);
    t0 = timer_ns();
    for (int i = 0; i < sample; i++) bodies_terrain_contacts(&s->set, i, s->w, s->terrain, &slow);
    double brute_ms = timer_ms_since(t0);
    equal = fast.count == slow.count && fast.pair_count == slow.pair_count;
    bench_note("query_bodies", sample);
    bench_note("query_pairs", (double)fast.pair_count);
    bench_note("query_octree_ms", octree_ms);
    bench_note("query_brute_ms", brute_ms);
    bench_note("query_speedup", octree_ms > 0 ? brute_ms / octree_ms : 0);
    bench_note("query_equal", equal);
    bodies_contacts_free(&fast);
    bodies_contacts_free(&slow);
    return s;
}

static void *step10_setup(void) { return step_setup(10); }
static void *step100_setup(void) { return step_setup(100); }

static void step_run(void *p)
{
    step_state *s = p;
    bodies_step(&s->set, s->w, s->terrain, bench_jobs());
    bench_note("bodies", s->set.count);
    bench_note("pairs", (double)s->set.stats.pairs);
    bench_note("contacts", (double)s->set.stats.contacts);
    bench_note("awake", s->set.stats.awake);
}

static void step_teardown(void *p)
{
    step_state *s = p;
    bodies_free(&s->set);
    octree_destroy(s->terrain);
    world_destroy(s->w);
    free(s);
}

/* ---- the tool's tree ---- */

static void *tree_setup(void)
{
    cut_state *s = hills_state();
    if (!s) return NULL;
    /* 9 x 9 columns around the centre, as tool.c's box_around (radius 128) */
    const int lo[3] = { 256 - 128, 0, 256 - 128 }, hi[3] = { 256 + 128 + 32, 0, 256 + 128 + 32 };
    memcpy(s->lo, lo, sizeof lo);
    memcpy(s->hi, hi, sizeof hi);
    return s;
}

static void tree_run(void *p)
{
    cut_state *s = p;
    uint64_t t0 = timer_ns();
    octree *o = octree_from_world_box(s->w, s->lo, s->hi);
    double ms = timer_ms_since(t0);
    int columns = ((s->hi[0] - s->lo[0]) / CHUNK_SIZE) * ((s->hi[2] - s->lo[2]) / CHUNK_SIZE);
    bench_note("columns", columns);
    bench_note("ms_per_column", ms / columns);
    bench_note("voxels", o ? (double)octree_count(o) : 0);
    octree_destroy(o);
}

static const bench_case physics_cases[] = {
    { "physics.detach.oak", oak_setup, oak_run, oak_teardown, 50 },
    { "physics.detach.oak.body", oak_setup, oak_body_run, oak_teardown, 50 },
    { "physics.detach.cut", cut_setup, cut_run, cut_teardown, 50 },
    { "physics.step.bodies.10", step10_setup, step_run, step_teardown, 30 },
    { "physics.step.bodies.100", step100_setup, step_run, step_teardown, 20 },
    { "physics.tree.box", tree_setup, tree_run, cut_teardown, 30 },
};
BENCH_REGISTER(physics_cases)
