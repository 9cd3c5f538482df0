/* Voxel bodies where the world is not all there, and far from the origin
 * (docs/physics.md): a body the terrain octree's box does not
 * cover, or over a column not generated, is held where it is (it would
 * find no terrain and fall through the ground) and lands once covered; a
 * structure cut loose 10^7 voxels out falls, is cut in flight, is picked
 * by a ray, settles and merges into exactly the voxels it does at the
 * origin, relative to its anchor. */
#include "test_support.h"
#include "body_grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "physics/bodies.h"
#include "physics/detach.h"

#define FAR 10000000 /* a multiple of ORIGIN_STEP (core/origin.h) */

static void steps(bodies *s, const world *w, const octree *t, int n)
{
    for (int k = 0; k < n; k++) bodies_step(s, w, t, NULL);
}

/* A stone floor 10 high under a 256 x 256 window; the terrain octree
 * covers only x, z in [0, 64) (a streamed world's box round the eye). A
 * 4 x 2 x 4 box dropped over x = 100 is held (the old code let it fall
 * through the floor onto the bedrock), and lands on the floor at y = 10
 * once a tree covers it. One over a column not generated inside the box
 * is held too, until the column is ready. */
static void test_held_until_terrain_covers_it(void **state)
{
    (void)state;
    world *w = world_create(8, 1, 8);
    assert_non_null(w);
    fill_box(w, 0, 0, 0, 256, 10, 256, MAT_STONE);
    octree *small = octree_from_world_box(w, (const int[3]){ 0, 0, 0 }, (const int[3]){ 64, 32, 64 });
    assert_non_null(small);
    bodies s;
    bodies_init(&s);
    body *out = box_body(4, 2, 4, MAT_STONE, (const float[3]){ 100, 20, 20 });
    assert_true(bodies_add(&s, out));
    out->vel[1] = -5; /* already falling when the box moved away */
    float at[3];
    memcpy(at, out->pos, sizeof at);
    steps(&s, w, small, 120);
    printf("outside the box: y %.3f after 2 s (was %.3f)\n", (double)out->pos[1], (double)at[1]);
    assert_memory_equal(out->pos, at, sizeof at); /* not moved, bit for bit */
    assert_true(out->held);
    assert_false(out->asleep); /* never merged while held */
    assert_float_equal(out->vel[1], -5, 0); /* it falls on as it fell */
    /* a tree over the whole window covers it: it lands on the floor */
    octree *all = octree_from_world(w);
    steps(&s, w, all, 300);
    printf("covered: y %.3f (the floor's top is 10, the box's centre rests at 11)\n", (double)out->pos[1]);
    assert_false(out->held);
    assert_true(out->asleep);
    assert_float_equal(out->pos[1], 11, 0.15);

    /* over a column not generated, inside the box: held; ready: it lands */
    body *b = box_body(4, 2, 4, MAT_STONE, (const float[3]){ 40, 20, 10 });
    assert_true(bodies_add(&s, b));
    world_set_column_state(w, 1, 0, WORLD_COL_EMPTY); /* x in [32, 64), z in [0, 32) */
    memcpy(at, b->pos, sizeof at);
    steps(&s, w, small, 60);
    assert_memory_equal(b->pos, at, sizeof at);
    assert_true(b->held);
    world_set_column_state(w, 1, 0, WORLD_COL_READY);
    steps(&s, w, small, 300);
    assert_true(b->asleep);
    assert_float_equal(b->pos[1], 11, 0.15);

    /* a world that goes on: a body past the window's sides waits for it
     * (in a finite world it falls out past them, as it always did) */
    body *c = box_body(4, 2, 4, MAT_STONE, (const float[3]){ 300, 20, 20 });
    assert_true(bodies_add(&s, c));
    s.unbounded = true;
    memcpy(at, c->pos, sizeof at);
    steps(&s, w, all, 60);
    assert_memory_equal(c->pos, at, sizeof at);
    s.unbounded = false;
    steps(&s, w, all, 60);
    assert_true(c->pos[1] < at[1] - 1);

    bodies_free(&s);
    octree_destroy(small);
    octree_destroy(all);
    world_destroy(w);
}

/* ---- the same structure at the origin and 10^7 out ---- */

#define SIDE 128 /* the window: [A - 64, A + 64) on x and z, 64 high */
#define HIGH 64

typedef struct far_run {
    uint8_t *vox;       /* the window after everything merged, relative to A */
    float ray_dist;     /* the ray pick of the body in flight */
    int ray_hit;
    long cut;           /* voxels the cut in flight took */
    int pieces;         /* bodies after the cut */
    float pose[16][7];  /* the bodies' poses after the cut, relative to A where they differ */
    int steps;          /* until all slept */
} far_run;

/* A lopsided beam (oak, a stone block at one end, leaves) in the air over
 * a ledge, cut loose, falls; after 30 steps a ray from a fixed eye picks
 * it and a 1-voxel slab of the tool cuts it in flight; the pieces tumble
 * off the ledge, settle and merge. Everything at anchor (A, 0, A). */
static void far_scene(long A, job_pool *jobs, far_run *out)
{
    const int a = (int)A;
    world *w = world_create_at(a / CHUNK_SIZE - 2, a / CHUNK_SIZE - 2, 4, 2, 4);
    assert_non_null(w);
    fill_box(w, a - 64, 0, a - 64, a + 64, 8, a + 64, MAT_STONE);
    fill_box(w, a + 10, 8, a + 10, a + 30, 14, a + 40, MAT_STONE); /* the ledge */
    fill_box(w, a + 16, 24, a + 20, a + 40, 26, a + 22, MAT_OAK_LOG);
    fill_box(w, a + 36, 26, a + 19, a + 41, 30, a + 24, MAT_STONE);
    fill_box(w, a + 14, 26, a + 18, a + 20, 29, a + 24, MAT_OAK_LEAVES);
    detach d = { 0 };
    assert_int_equal(detach_find(&d, w, (const int[3]){ a + 16, 24, a + 20 }, (const int[3]){ a + 17, 25, a + 21 },
                                 100000),
                     1);
    body_density dens;
    body_density_default(&dens);
    int lo[3], hi[3];
    body *b = body_cut_from_world(w, d.vox, d.groups[0].count, &dens, lo, hi);
    assert_non_null(b);
    b->ang[0] = 0.3f, b->ang[1] = 0.2f; /* a turn, so every axis matters */
    b->vel[0] = 1.5f;
    bodies s;
    bodies_init(&s);
    assert_true(bodies_add(&s, b));
    octree *t = octree_from_world(w);
    for (int k = 0; k < 30; k++) bodies_step(&s, w, t, jobs);
    /* the eye and the tool relative to the anchor, placed in double */
    const double eye[3] = { A + 4.25, 22.5, A + 20.75 };
    out->ray_hit = bodies_raycast(&s, eye, (const float[3]){ 1, 0.02f, 0.01f }, 100, &out->ray_dist);
    octree *slab = octree_create(1, 12, 12);
    for (int y = 0; y < 12; y++)
        for (int z = 0; z < 12; z++) octree_set(slab, 0, y, z, true);
    octree_pose pose;
    octree_pose_from_yaw_pitch(&pose, 7, 3, (const float[3]){ 0, 0, 0 });
    octree_pose_place(&pose, (const double[3]){ A + 31.3, 22.7, A + 20.6 });
    octree_pairs scratch = { 0 };
    out->cut = bodies_cut(&s, slab, &pose, &dens, 5, NULL, &scratch);
    out->pieces = s.count;
    for (int i = 0; i < s.count && i < 16; i++) {
        const body *p = s.v[i];
        for (int k = 0; k < 3; k++) /* world minus the anchor, in double: exact */
            out->pose[i][k] = (float)((double)p->org[k] + p->pos[k] - (k == 1 ? 0 : (double)A));
        memcpy(out->pose[i] + 3, p->rot, sizeof p->rot);
    }
    out->steps = 30;
    while (bodies_awake(&s) > 0 && out->steps < 60 * 30) bodies_step(&s, w, t, jobs), out->steps++;
    for (int i = 0; i < s.count; i++) {
        long lost = 0;
        int mlo[3], mhi[3];
        body_merge(s.v[i], w, NULL, &lost, mlo, mhi);
        assert_int_equal(lost, 0);
    }
    out->vox = malloc((size_t)SIDE * SIDE * HIGH);
    assert_non_null(out->vox);
    for (int y = 0; y < HIGH; y++)
        for (int z = 0; z < SIDE; z++)
            for (int x = 0; x < SIDE; x++)
                out->vox[((size_t)y * SIDE + z) * SIDE + x] = world_get(w, a - 64 + x, y, a - 64 + z);
    octree_pairs_free(&scratch);
    octree_destroy(slab);
    octree_destroy(t);
    bodies_free(&s);
    detach_free(&d);
    world_destroy(w);
}

static void test_far_falls_and_merges_as_at_origin(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    far_run near = { 0 }, far = { 0 };
    far_scene(0, jobs, &near);
    far_scene(FAR, jobs, &far);
    long differ = 0, moved = 0;
    for (size_t k = 0; k < (size_t)SIDE * SIDE * HIGH; k++) differ += near.vox[k] != far.vox[k];
    /* the structure moved: compare with where it stood (its beam's end) */
    for (int x = 16; x < 40; x++) moved += near.vox[((size_t)24 * SIDE + 84) * SIDE + 64 + x] == MAT_AIR;
    printf("origin: ray %d at %.6f, cut %ld voxels into %d bodies, asleep after %d steps\n", near.ray_hit,
           (double)near.ray_dist, near.cut, near.pieces, near.steps);
    printf("10^7:   ray %d at %.6f, cut %ld voxels into %d bodies, asleep after %d steps; %ld voxels differ\n",
           far.ray_hit, (double)far.ray_dist, far.cut, far.pieces, far.steps, differ);
    assert_int_equal(near.ray_hit, 0);
    assert_true(near.cut > 0 && near.pieces >= 2);
    assert_true(moved > 0);
    /* bit for bit: the body's frame at 10^7 is 10^7 (ORIGIN_STEP divides
     * it), the terrain tree's is 10^7 - 64 as -64 at the origin, so every
     * float computed is the one computed at the origin */
    assert_int_equal(far.ray_hit, near.ray_hit);
    assert_float_equal(far.ray_dist, near.ray_dist, 0);
    assert_int_equal(far.cut, near.cut);
    assert_int_equal(far.pieces, near.pieces);
    assert_memory_equal(far.pose, near.pose, sizeof near.pose);
    assert_int_equal(far.steps, near.steps);
    assert_int_equal(differ, 0);
    free(near.vox);
    free(far.vox);
    job_pool_destroy(jobs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_until_terrain_covers_it),
        cmocka_unit_test(test_far_falls_and_merges_as_at_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
