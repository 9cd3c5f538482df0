/* Voxel bodies: mass properties from the voxels; a cantilever cut at its
 * root falls, lands and rests with its balls at most 0.1 voxel into the
 * ground, and merges back with every voxel kept (per material); a body at
 * the highest speed never passes a one-voxel floor; two bodies stack; the
 * same scene ends bit for bit the same on 1 and 2 workers; the octree
 * contacts equal brute force. */
#include "test_support.h"
#include "body_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/rng.h"
#include "physics/bodies.h"
#include "physics/detach.h"
#include "worldgen/biomes.h"
#include "worldgen/worldgen.h"

static void test_mass_properties(void **state)
{
    (void)state;
    const float o[3] = { 10, 20, 30 };
    body *b = box_body(4, 2, 6, MAT_STONE, o);
    assert_non_null(b);
    float m = 48 * material_table[MAT_STONE].density;
    assert_float_equal(b->mass, m, 1e-3);
    assert_float_equal(b->pos[0], 12, 1e-5);
    assert_float_equal(b->pos[1], 21, 1e-5);
    assert_float_equal(b->pos[2], 33, 1e-5);
    /* a solid box: I_xx = m (ly^2 + lz^2) / 12 */
    assert_float_equal(1.f / b->inv_inertia[0][0], m * (4 + 36) / 12.f, 1e-2);
    assert_float_equal(1.f / b->inv_inertia[1][1], m * (16 + 36) / 12.f, 1e-2);
    assert_float_equal(b->inv_inertia[0][1], 0, 1e-6);
    /* stone is heavier than wood, wood than leaves */
    assert_true(material_table[MAT_STONE].density > material_table[MAT_OAK_LOG].density);
    assert_true(material_table[MAT_OAK_LOG].density > material_table[MAT_OAK_LEAVES].density);
    body_destroy(b);
}

/* How far the body's balls sink into solid terrain or the floor. */
static float penetration(const body *b, const world *w)
{
    float r[3][3], worst = 0;
    body_rotation(b, r);
    for (int y = 0; y < b->size[1]; y++)
        for (int z = 0; z < b->size[2]; z++)
            for (int x = 0; x < b->size[0]; x++) {
                if (b->mat[body_index(b, x, y, z)] == MAT_AIR) continue;
                float p[3] = { x + 0.5f, y + 0.5f, z + 0.5f }, q[3];
                body_to_world(b, r, p, q);
                if (0.5f - q[1] > worst) worst = 0.5f - q[1];
                int c[3] = { (int)floorf(q[0]), (int)floorf(q[1]), (int)floorf(q[2]) };
                for (int dy = -1; dy <= 1; dy++)
                    for (int dz = -1; dz <= 1; dz++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int t[3] = { c[0] + dx, c[1] + dy, c[2] + dz };
                            if (!material_get(world_get(w, t[0], t[1], t[2]))->solid || t[1] < 0) continue;
                            float dd = 0;
                            for (int i = 0; i < 3; i++) {
                                float cl = fminf(fmaxf(q[i], (float)t[i]), (float)t[i] + 1);
                                dd += (q[i] - cl) * (q[i] - cl);
                            }
                            float pen = 0.5f - sqrtf(dd);
                            if (pen > worst) worst = pen;
                        }
            }
    return worst;
}

/* The one group an edit in [lo, hi) left loose, cut out of w into a body
 * (default densities); d keeps the search. */
static body *cut_the_loose_group(world *w, detach *d, const int lo[3], const int hi[3])
{
    assert_int_equal(detach_find(d, w, lo, hi, 100000), 1);
    body_density dens;
    body_density_default(&dens);
    int clo[3], chi[3];
    body *b = body_cut_from_world(w, d->vox, d->groups[0].count, &dens, clo, chi);
    assert_non_null(b);
    return b;
}

static void run_until_asleep(bodies *s, world *w, job_pool *jobs, int max_steps)
{
    octree *t = octree_from_world(w);
    for (int k = 0; k < max_steps && bodies_awake(s) > 0; k++) bodies_step(s, w, t, jobs);
    octree_destroy(t);
}

static void test_cantilever_falls_rests_merges(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(2, 1, 2);
    fill_box(w, 0, 0, 0, 64, 3, 64, MAT_STONE);
    fill_box(w, 10, 3, 10, 12, 14, 12, MAT_OAK_LOG);
    fill_box(w, 12, 12, 10, 24, 14, 12, MAT_OAK_LOG);
    fill_box(w, 20, 14, 9, 25, 16, 13, MAT_OAK_LEAVES);
    fill_box(w, 12, 12, 10, 13, 14, 12, MAT_AIR); /* cut at the root */
    uint64_t before[MAT_COUNT], after[MAT_COUNT];
    world_count_materials(w, before);
    world_set_tint(w, 12, 12, 10, 3); /* the cut painted the face it exposed */
    detach d = { 0 };
    int lo[3] = { 12, 12, 10 }, hi[3] = { 13, 14, 12 };
    body *b = cut_the_loose_group(w, &d, lo, hi);
    world_set_tint(w, 12, 12, 10, 0); /* the body carries it: the world's own copy goes */
    assert_int_equal(world_count_tinted(w), 0);
    assert_int_equal(b->count, (long)d.groups[0].count);
    bodies s;
    bodies_init(&s);
    assert_true(bodies_add(&s, b));
    float y0 = b->pos[1];
    run_until_asleep(&s, w, jobs, 60 * 15);
    assert_true(b->asleep);
    assert_true(b->age < 15.f); /* it came to rest, not to the age limit */
    assert_true(b->pos[1] < y0 - 5); /* it fell */
    float pen = penetration(b, w);
    assert_true(pen <= 0.1f);
    long lost = 0;
    int mlo[3], mhi[3];
    long placed = body_merge(b, w, NULL, &lost, mlo, mhi);
    assert_int_equal(placed, b->count);
    assert_int_equal(lost, 0);
    world_count_materials(w, after);
    for (int m = 1; m < MAT_COUNT; m++) assert_int_equal(after[m], before[m]);
    assert_true(world_count_tinted(w) > 0); /* its painted face kept its colour */
    /* merged terrain on the ground is grounded: nothing loose */
    assert_int_equal(detach_find(&d, w, mlo, mhi, 100000), 0);
    bodies_free(&s);
    detach_free(&d);
    world_destroy(w);
    job_pool_destroy(jobs);
}

/* A body merged over a streamed column not generated yet does not go
 * into it (the column's terrain would come over it, or it over the
 * terrain): its voxels there go to the nearest free cells of generated
 * columns, or are lost and said, never into the column to come. */
static void test_merge_skips_columns_not_generated(void **state)
{
    (void)state;
    world *w = world_create_window(-1, 0, 2, 1, 1); /* x -32 .. 32 */
    assert_non_null(w);
    fill_box(w, -32, 0, 0, 32, 3, 32, MAT_STONE);
    fill_box(w, -2, 10, 10, 2, 12, 12, MAT_OAK_LOG); /* a beam across x = 0, in the air */
    detach d = { 0 };
    int lo[3] = { -2, 10, 10 }, hi[3] = { 2, 12, 12 };
    body *b = cut_the_loose_group(w, &d, lo, hi);
    world_set_column_state(w, 0, 0, WORLD_COL_EMPTY); /* x 0 .. 32: the window moved it on, say */
    long lost = 0;
    int mlo[3], mhi[3];
    long placed = body_merge(b, w, NULL, &lost, mlo, mhi);
    long logs_east = 0, logs = 0;
    for (int y = 3; y < w->sy; y++)
        for (int z = 0; z < 32; z++)
            for (int x = -32; x < 32; x++)
                if (world_get(w, x, y, z) == MAT_OAK_LOG) logs++, logs_east += x >= 0;
    print_message("a beam of %ld merged over a column still to come: %ld placed, %ld lost, %ld in it\n", b->count,
                  placed, lost, logs_east);
    assert_int_equal(logs_east, 0);
    assert_int_equal(logs, placed);
    assert_int_equal(placed + lost, b->count);
    assert_true(placed >= b->count / 2); /* its west half, where it was */
    body_destroy(b);
    detach_free(&d);
    world_destroy(w);
}

/* A crown falls in each forest biome: a trunk cut through, the crown cut
 * loose, stepped until it rests, merged; every material is conserved and
 * the crown ended lower than it stood. */
static void crown_falls(const char *biome, uint8_t log)
{
    biomes_register();
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(4, 4, 4);
    assert_true(worldgen_generate(w, worldgen_find(biome), 3, jobs));
    int t[3] = { -1, -1, -1 };
    for (int z = 40; z < w->sz - 40 && t[0] < 0; z++)
        for (int x = 40; x < w->sx - 40 && t[0] < 0; x++)
            for (int y = 1; y < w->sy - 3; y++)
                if (world_get(w, x, y, z) == log && world_get(w, x, y - 1, z) != log && world_get(w, x, y + 2, z) == log) {
                    t[0] = x, t[1] = y + 1, t[2] = z;
                    break;
                }
    assert_true(t[0] >= 0);
    world_set(w, t[0], t[1], t[2], MAT_AIR);
    uint64_t before[MAT_COUNT], after[MAT_COUNT];
    world_count_materials(w, before);
    detach d = { 0 };
    const int hi[3] = { t[0] + 1, t[1] + 1, t[2] + 1 };
    size_t n = detach_find(&d, w, t, hi, 65536);
    assert_true(n >= 1);
    body_density dens;
    body_density_default(&dens);
    bodies s;
    bodies_init(&s);
    float top = 0;
    int crown = -1; /* the largest group: the crown */
    for (size_t g = 0; g < n; g++) {
        int lo[3], bhi[3];
        body *b = body_cut_from_world(w, d.vox + 3 * d.groups[g].first, d.groups[g].count, &dens, lo, bhi);
        assert_non_null(b);
        if (crown < 0 || b->count > s.v[crown]->count) crown = s.count, top = b->pos[1];
        assert_true(bodies_add(&s, b));
    }
    run_until_asleep(&s, w, jobs, 60 * 25);
    assert_int_equal(bodies_awake(&s), 0);
    float low = s.v[crown]->pos[1];
    for (int i = 0; i < s.count; i++) {
        long lost = 0;
        int lo[3], bhi[3];
        body_merge(s.v[i], w, NULL, &lost, lo, bhi);
        assert_int_equal(lost, 0);
    }
    assert_true(low < top - 0.5f); /* it came down (a one-voxel cut: at least onto its stump) */
    world_count_materials(w, after);
    for (int m = 1; m < MAT_COUNT; m++) assert_int_equal(after[m], before[m]);
    bodies_free(&s);
    detach_free(&d);
    world_destroy(w);
    job_pool_destroy(jobs);
}

static void test_crown_falls_deciduous(void **state)
{
    (void)state;
    crown_falls("deciduous", MAT_OAK_LOG);
}

static void test_crown_falls_taiga(void **state)
{
    (void)state;
    crown_falls("taiga", MAT_FIR_LOG);
}

static void test_fast_body_never_tunnels(void **state)
{
    (void)state;
    world *w = world_create(1, 4, 1);
    fill_box(w, 0, 40, 0, 32, 41, 32, MAT_STONE); /* a one-voxel floor high above the bedrock */
    fill_box(w, 0, 41, 0, 32, 64, 1, MAT_STONE);  /* walls, so nothing rolls off */
    fill_box(w, 0, 41, 31, 32, 64, 32, MAT_STONE);
    fill_box(w, 0, 41, 0, 1, 64, 32, MAT_STONE);
    fill_box(w, 31, 41, 0, 32, 64, 32, MAT_STONE);
    bodies s;
    bodies_init(&s);
    body *b = box_body(1, 1, 1, MAT_STONE, (const float[3]){ 14, 120, 14 });
    b->vel[1] = -1e6f; /* clamped to the highest speed a body can have */
    body *c = box_body(3, 2, 3, MAT_STONE, (const float[3]){ 5, 110, 5 });
    c->vel[1] = -1e6f;
    c->ang[0] = 30.f, c->ang[2] = -20.f;
    assert_true(bodies_add(&s, b));
    assert_true(bodies_add(&s, c));
    octree *t = octree_from_world(w);
    float slowest = 0;
    for (int k = 0; k < 60 * 20 && bodies_awake(&s) > 0; k++) {
        bodies_step(&s, w, t, NULL);
        if (b->vel[1] < slowest) slowest = b->vel[1];
        assert_true(b->pos[1] > 40.9f);
        assert_true(c->pos[1] > 40.9f);
    }
    assert_float_equal(slowest, -bodies_max_speed(&s.p), 1e-3);
    assert_true(penetration(b, w) <= 0.1f);
    octree_destroy(t);
    bodies_free(&s);
    world_destroy(w);
}

static void test_two_bodies_stack(void **state)
{
    (void)state;
    world *w = world_create(1, 1, 1);
    fill_box(w, 0, 0, 0, 32, 2, 32, MAT_DIRT);
    bodies s;
    bodies_init(&s);
    body *low = box_body(4, 2, 4, MAT_STONE, (const float[3]){ 10, 4, 10 });
    body *high = box_body(3, 2, 3, MAT_OAK_LOG, (const float[3]){ 10.5f, 9, 10.5f });
    assert_true(bodies_add(&s, low));
    assert_true(bodies_add(&s, high));
    run_until_asleep(&s, w, NULL, 60 * 15);
    assert_true(low->asleep && high->asleep);
    assert_true(low->age < 15.f && high->age < 15.f);
    /* the low one on the ground, the high one on the low one */
    assert_float_equal(low->pos[1], 3.f, 0.15f);
    assert_float_equal(high->pos[1], 5.f, 0.1f);
    bodies_free(&s);
    world_destroy(w);
}

/* A scene of bodies tumbling onto bumpy terrain and each other (fresh:
 * every contact queried afresh each substep, no pairs kept). */
static void scene_run_with(job_pool *jobs, float out[][7], int n, bool fresh)
{
    world *w = world_create(2, 1, 2);
    rng r = rng_make(5);
    for (int z = 0; z < 64; z++)
        for (int x = 0; x < 64; x++) fill_box(w, x, 0, z, x + 1, 2 + rng_range(&r, 0, 3), z + 1, MAT_STONE);
    bodies s;
    bodies_init(&s);
    s.fresh = fresh;
    for (int i = 0; i < n; i++) {
        const float o[3] = { 8.f + 10.f * (float)(i % 4), 12.f + 3.f * (float)i, 8.f + 10.f * (float)(i / 4 % 4) };
        body *b = box_body(rng_range(&r, 1, 5), rng_range(&r, 1, 4), rng_range(&r, 1, 5), MAT_OAK_LOG, o);
        b->ang[0] = (float)rng_double(&r) * 4 - 2, b->ang[2] = (float)rng_double(&r) * 4 - 2;
        assert_true(bodies_add(&s, b));
    }
    octree *t = octree_from_world(w);
    for (int k = 0; k < 240; k++) bodies_step(&s, w, t, jobs);
    for (int i = 0; i < n; i++) {
        memcpy(out[i], s.v[i]->pos, 3 * sizeof(float));
        memcpy(out[i] + 3, s.v[i]->rot, 4 * sizeof(float));
    }
    octree_destroy(t);
    bodies_free(&s);
    world_destroy(w);
}

static void scene_run(job_pool *jobs, float out[][7], int n) { scene_run_with(jobs, out, n, false); }

/* Pairs kept between substeps (found with a wider reach, dropped once the
 * bodies moved that far) give exactly the contacts fresh queries give:
 * the octree's order of pairs does not depend on the pose, so the same
 * contacts come in the same order and the scene ends the same bit for bit. */
static void test_kept_pairs_equal_fresh(void **state)
{
    (void)state;
    enum { N = 12 };
    float a[N][7], b[N][7];
    scene_run_with(NULL, a, N, false);
    scene_run_with(NULL, b, N, true);
    assert_memory_equal(a, b, sizeof a);
}

/* Contacts are searched among the voxels open to air: a solid 5^3 box
 * has 98 of its 125 on its surface. */
static void test_shell_is_surface(void **state)
{
    (void)state;
    body *b = box_body(5, 5, 5, MAT_STONE, (const float[3]){ 0, 0, 0 });
    assert_non_null(b);
    assert_int_equal(octree_count(b->tree), 125);
    assert_int_equal(octree_count(b->shell), 98);
    assert_false(octree_get(b->shell, 2, 2, 2));
    assert_true(octree_get(b->shell, 0, 2, 2));
    body_destroy(b);
}

static void test_deterministic_across_workers(void **state)
{
    (void)state;
    enum { N = 12 };
    float a[N][7], b[N][7], c[N][7];
    job_pool *one = job_pool_create(1), *two = job_pool_create(2);
    scene_run(one, a, N);
    scene_run(two, b, N);
    scene_run(NULL, c, N);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_equal(a, c, sizeof a);
    job_pool_destroy(one);
    job_pool_destroy(two);
}

static void test_contacts_octree_equal_brute(void **state)
{
    (void)state;
    world *w = world_create(1, 1, 1);
    rng r = rng_make(9);
    for (int z = 0; z < 32; z++)
        for (int x = 0; x < 32; x++) fill_box(w, x, 0, z, x + 1, 3 + rng_range(&r, 0, 4), z + 1, MAT_STONE);
    octree *t = octree_from_world(w);
    bodies s;
    bodies_init(&s);
    bodies_contacts fast = { 0 }, slow = { .brute = true };
    long total = 0;
    for (int it = 0; it < 30; it++) {
        const float o[3] = { (float)rng_range(&r, 2, 26), (float)(4 + rng_double(&r) * 3), (float)rng_range(&r, 2, 26) };
        body *b = box_body(rng_range(&r, 1, 5), rng_range(&r, 1, 5), rng_range(&r, 1, 5), MAT_STONE, o);
        float q[4], l = 0;
        for (int i = 0; i < 4; i++) q[i] = (float)rng_double(&r) * 2 - 1, l += q[i] * q[i];
        for (int i = 0; i < 4; i++) b->rot[i] = q[i] / sqrtf(l);
        assert_true(bodies_add(&s, b));
        fast.count = slow.count = 0;
        bodies_terrain_contacts(&s, s.count - 1, w, t, &fast);
        bodies_terrain_contacts(&s, s.count - 1, w, t, &slow);
        assert_int_equal(fast.pairs.count, slow.pairs.count);
        assert_int_equal(fast.count, slow.count);
        total += fast.count;
    }
    assert_true(total > 50);
    bodies_contacts_free(&fast);
    bodies_contacts_free(&slow);
    bodies_free(&s);
    octree_destroy(t);
    world_destroy(w);
}

/* Voxels of each material in every body of the set. */
static void body_materials(const bodies *s, long out[MAT_COUNT])
{
    memset(out, 0, sizeof(long) * MAT_COUNT);
    for (int i = 0; i < s->count; i++) {
        const body *b = s->v[i];
        for (size_t k = 0; k < (size_t)b->size[0] * b->size[1] * b->size[2]; k++) out[b->mat[k]]++;
    }
}

/* A tool of size sx * sy * sz, every voxel in it. */
static octree *slab_tool(int sx, int sy, int sz)
{
    size_t n = (size_t)sx * sy * sz;
    uint8_t *g = malloc(n);
    memset(g, 1, n);
    octree *o = octree_from_dense(g, sx, sy, sz);
    free(g);
    return o;
}

/* The tool posed like body b, its centre at b's grid point p. */
static void pose_at_body(const body *b, const float p[3], octree_pose *pose)
{
    body_rotation(b, pose->rot);
    body_to_world(b, pose->rot, p, pose->pos);
    pose->org[0] = pose->org[1] = pose->org[2] = 0; /* near the origin: the frame is 0 */
}

/* A bar of stone | dirt | oak falls, tumbling; a one-voxel slab of the
 * tool cuts out its dirt middle in flight: two bodies, stone and oak,
 * each where its voxels were, moving as that part of the bar moved; the
 * cut took exactly the dirt; both fall on and come to rest. */
static void test_cut_falling_body_in_two(void **state)
{
    (void)state;
    world *w = world_create(2, 1, 2);
    fill_box(w, 0, 0, 0, 64, 2, 64, MAT_STONE);
    int size[3] = { 9, 3, 3 };
    uint8_t g[9 * 3 * 3];
    for (int y = 0; y < 3; y++)
        for (int z = 0; z < 3; z++)
            for (int x = 0; x < 9; x++) g[x + 9 * (z + 3 * y)] = x < 4 ? MAT_STONE : x == 4 ? MAT_DIRT : MAT_OAK_LOG;
    body_density dens;
    body_density_default(&dens);
    body *b = body_from_grid(g, NULL, size, (const float[3]){ 20, 30, 20 }, &dens);
    assert_non_null(b);
    b->ang[0] = 1.5f, b->ang[1] = -0.7f, b->ang[2] = 0.9f;
    bodies s;
    bodies_init(&s);
    assert_true(bodies_add(&s, b));
    octree *t = octree_from_world(w);
    for (int k = 0; k < 20; k++) bodies_step(&s, w, t, NULL);
    assert_int_equal(s.count, 1);
    assert_false(b->asleep);
    assert_true(b->vel[1] < -3.f); /* falling */
    long before[MAT_COUNT], after[MAT_COUNT], cut[MAT_COUNT] = { 0 };
    body_materials(&s, before);
    /* where the parent has its corner voxels, and how its points move */
    float r[3][3], stone_at[3], oak_at[3], vel[3], ang[3], pos[3];
    body_rotation(b, r);
    body_to_world(b, r, (const float[3]){ 0.5f, 0.5f, 0.5f }, stone_at);
    body_to_world(b, r, (const float[3]){ 8.5f, 2.5f, 2.5f }, oak_at);
    memcpy(vel, b->vel, sizeof vel);
    memcpy(ang, b->ang, sizeof ang);
    memcpy(pos, b->pos, sizeof pos);
    uint32_t old_id = b->id;

    octree *slab = slab_tool(1, 8, 8);
    octree_pose pose;
    pose_at_body(b, (const float[3]){ 4.5f, 1.5f, 1.5f }, &pose);
    octree_pairs scratch = { 0 };
    long n = bodies_cut(&s, slab, &pose, &dens, 2, cut, &scratch);
    assert_int_equal(n, 9);
    assert_int_equal(cut[MAT_DIRT], 9);
    assert_int_equal(s.count, 2);
    body_materials(&s, after);
    for (int m = 1; m < MAT_COUNT; m++) assert_int_equal(after[m], before[m] - cut[m]);
    for (int i = 0; i < 2; i++) {
        const body *p = s.v[i];
        assert_true(p->id != old_id);
        assert_int_equal(p->count, 36);
        /* one material each; its corner voxel is where the bar had it */
        long own[MAT_COUNT] = { 0 };
        size_t cells = (size_t)p->size[0] * p->size[1] * p->size[2];
        for (size_t k = 0; k < cells; k++) own[p->mat[k]]++;
        bool stone = own[MAT_STONE] == 36;
        assert_true(stone || own[MAT_OAK_LOG] == 36);
        float pr[3][3], at[3];
        body_rotation(p, pr);
        /* the piece's grid has one cell of air round its voxels */
        body_to_world(p, pr, stone ? (const float[3]){ 1.5f, 1.5f, 1.5f } : (const float[3]){ 4.5f, 3.5f, 3.5f }, at);
        const float *want = stone ? stone_at : oak_at;
        for (int a = 0; a < 3; a++) assert_float_equal(at[a], want[a], 1e-3);
        /* velocity of the bar's point at the piece's centre */
        float d[3] = { p->pos[0] - pos[0], p->pos[1] - pos[1], p->pos[2] - pos[2] };
        float v[3] = { vel[0] + ang[1] * d[2] - ang[2] * d[1], vel[1] + ang[2] * d[0] - ang[0] * d[2],
                       vel[2] + ang[0] * d[1] - ang[1] * d[0] };
        for (int a = 0; a < 3; a++) {
            assert_float_equal(p->vel[a], v[a], 1e-4);
            assert_float_equal(p->ang[a], ang[a], 1e-6);
        }
        assert_false(p->asleep);
    }
    /* the cut faces carry the tool's colour */
    long painted = 0;
    for (int i = 0; i < 2; i++)
        for (size_t k = 0; k < (size_t)s.v[i]->size[0] * s.v[i]->size[1] * s.v[i]->size[2]; k++)
            painted += s.v[i]->tint[k] == 2;
    assert_true(painted >= 18);
    /* they fall on and rest; nothing more is lost */
    for (int k = 0; k < 60 * 15 && bodies_awake(&s) > 0; k++) bodies_step(&s, w, t, NULL);
    assert_int_equal(bodies_awake(&s), 0);
    body_materials(&s, after);
    for (int m = 1; m < MAT_COUNT; m++) assert_int_equal(after[m], before[m] - cut[m]);
    for (int i = 0; i < 2; i++) assert_true(penetration(s.v[i], w) <= 0.1f);
    octree_pairs_free(&scratch);
    octree_destroy(slab);
    octree_destroy(t);
    bodies_free(&s);
    world_destroy(w);
}

/* A cut that meets the body's bounding sphere but none of its voxels (the
 * tool in the notch of an L) leaves the body as it was: same body, same
 * voxels, same pose, same velocities. A cut of the whole body removes it. */
static void test_cut_nothing_leaves_body(void **state)
{
    (void)state;
    int size[3] = { 6, 6, 2 };
    uint8_t g[6 * 6 * 2];
    for (int y = 0; y < 6; y++)
        for (int z = 0; z < 2; z++)
            for (int x = 0; x < 6; x++) g[x + 6 * (z + 2 * y)] = x < 2 || y < 2 ? MAT_STONE : MAT_AIR;
    body_density dens;
    body_density_default(&dens);
    body *b = body_from_grid(g, NULL, size, (const float[3]){ 10, 10, 10 }, &dens);
    assert_non_null(b);
    b->vel[0] = 1, b->ang[2] = 0.5f;
    b->rot[0] = 0.2f, b->rot[3] = sqrtf(1 - 0.04f);
    bodies s;
    bodies_init(&s);
    assert_true(bodies_add(&s, b));
    body copy = *b;
    size_t cells = 6 * 6 * 2;
    uint8_t mat[6 * 6 * 2], tint[6 * 6 * 2];
    memcpy(mat, b->mat, cells);
    memcpy(tint, b->tint, cells);
    octree *cube = slab_tool(3, 3, 2);
    octree_pose pose;
    pose_at_body(b, (const float[3]){ 4.5f, 4.5f, 1.f }, &pose); /* the notch: x, y in 3..6 */
    octree_pairs scratch = { 0 };
    long cut[MAT_COUNT] = { 0 };
    assert_int_equal(bodies_cut(&s, cube, &pose, &dens, 1, cut, &scratch), 0);
    assert_int_equal(s.count, 1);
    assert_ptr_equal(s.v[0], b);
    assert_memory_equal(&copy, b, sizeof copy);
    assert_memory_equal(mat, b->mat, cells);
    assert_memory_equal(tint, b->tint, cells);
    for (int m = 0; m < MAT_COUNT; m++) assert_int_equal(cut[m], 0);
    /* the whole body in the tool: gone */
    octree *big = slab_tool(12, 12, 12);
    pose_at_body(b, (const float[3]){ 3.f, 3.f, 1.f }, &pose);
    assert_int_equal(bodies_cut(&s, big, &pose, &dens, 1, cut, &scratch), 40);
    assert_int_equal(cut[MAT_STONE], 40);
    assert_int_equal(s.count, 0);
    octree_pairs_free(&scratch);
    octree_destroy(cube);
    octree_destroy(big);
    bodies_free(&s);
}

/* A ray meets the body in front of the terrain behind it; one that
 * misses the body (or stops short of it) meets none. */
static void test_raycast_hits_body(void **state)
{
    (void)state;
    body_density dens;
    body_density_default(&dens);
    bodies s;
    bodies_init(&s);
    body *b = box_body(3, 3, 3, MAT_STONE, (const float[3]){ 10, 10, 10 }); /* x in [10, 13) */
    assert_non_null(b);
    b->rot[1] = sinf(0.3f), b->rot[3] = cosf(0.3f); /* turned about y: the face is nearer than 10 */
    assert_true(bodies_add(&s, b));
    float d;
    const double eye[3] = { 0, 11.5, 11.5 };
    const float dir[3] = { 2, 0, 0 };
    assert_int_equal(bodies_raycast(&s, eye, dir, 50, &d), 0);
    assert_true(d > 9.f && d < 11.5f);
    assert_int_equal(bodies_raycast(&s, eye, dir, 5, &d), -1);
    const float up[3] = { 0, 1, 0 };
    assert_int_equal(bodies_raycast(&s, eye, up, 50, &d), -1);
    bodies_free(&s);
}

/* The player's box is pushed out of a body, up when it stands on one, and
 * left alone when nothing touches it. */
static void test_push_box(void **state)
{
    (void)state;
    bodies s;
    bodies_init(&s);
    body *b = box_body(4, 2, 4, MAT_STONE, (const float[3]){ 10, 10, 10 }); /* top face at y = 12 */
    assert_true(bodies_add(&s, b));
    float push[3], carry[3];
    b->vel[1] = -3;
    const double lo[3] = { 11.2, 11.8, 11.2 }, hi[3] = { 11.8, 13.6, 11.8 }; /* feet 0.2 into its top */
    assert_true(bodies_push_box(&s, lo, hi, push, carry));
    assert_float_equal(push[1], 0.2f, 1e-4);
    assert_float_equal(push[0], 0, 1e-6);
    assert_float_equal(carry[1], -3, 1e-6);
    const double lo2[3] = { 20, 10, 20 }, hi2[3] = { 21, 12, 21 };
    assert_false(bodies_push_box(&s, lo2, hi2, push, carry));
    bodies_free(&s);
}

static void test_params_refused(void **state)
{
    (void)state;
    bodies_params p = bodies_params_default();
    char err[128];
    assert_true(bodies_params_check(&p, err, sizeof err));
    p.gravity = NAN;
    assert_false(bodies_params_check(&p, err, sizeof err));
    p = bodies_params_default();
    p.substeps = 0;
    assert_false(bodies_params_check(&p, err, sizeof err));
    p = bodies_params_default();
    p.gravity = 1e9f;
    assert_false(bodies_params_check(&p, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_skips_columns_not_generated),
        cmocka_unit_test(test_mass_properties),
        cmocka_unit_test(test_cantilever_falls_rests_merges),
        cmocka_unit_test(test_crown_falls_deciduous),
        cmocka_unit_test(test_crown_falls_taiga),
        cmocka_unit_test(test_fast_body_never_tunnels),
        cmocka_unit_test(test_two_bodies_stack),
        cmocka_unit_test(test_deterministic_across_workers),
        cmocka_unit_test(test_kept_pairs_equal_fresh),
        cmocka_unit_test(test_shell_is_surface),
        cmocka_unit_test(test_contacts_octree_equal_brute),
        cmocka_unit_test(test_cut_falling_body_in_two),
        cmocka_unit_test(test_cut_nothing_leaves_body),
        cmocka_unit_test(test_raycast_hits_body),
        cmocka_unit_test(test_push_box),
        cmocka_unit_test(test_params_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
