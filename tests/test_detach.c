/* detach: what an edit cuts loose. A cut that disconnects nothing finds
 * nothing; a cantilever cut at its root, a fill in mid-air and an oak's
 * crown over a cut trunk are found whole, with their materials; a search
 * past the bound counts as ground, and so does one that reaches a column
 * a streamed window does not hold. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "physics/detach.h"
#include "worldgen/biomes.h"
#include "worldgen/worldgen.h"

static void fill_box(world *w, int x0, int y0, int z0, int x1, int y1, int z1, uint8_t m)
{
    for (int y = y0; y < y1; y++)
        for (int z = z0; z < z1; z++)
            for (int x = x0; x < x1; x++) world_set(w, x, y, z, m);
}

/* A slab of stone on the floor, a pillar on it and a beam from its top. */
static world *cantilever_world(void)
{
    world *w = world_create(2, 1, 2);
    fill_box(w, 0, 0, 0, 64, 3, 64, MAT_STONE);
    fill_box(w, 10, 3, 10, 12, 20, 12, MAT_OAK_LOG);             /* pillar */
    fill_box(w, 12, 18, 10, 30, 20, 12, MAT_OAK_LOG);            /* beam */
    fill_box(w, 26, 20, 10, 30, 23, 12, MAT_OAK_LEAVES);         /* leaves on its end */
    return w;
}

static void test_cut_that_disconnects_nothing(void **state)
{
    (void)state;
    world *w = cantilever_world();
    detach d = { 0 };
    /* a hole in the slab, a notch in the pillar and one in the beam's top */
    fill_box(w, 30, 1, 30, 34, 3, 34, MAT_AIR);
    int lo[3] = { 30, 1, 30 }, hi[3] = { 34, 3, 34 };
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 0);
    fill_box(w, 10, 8, 10, 11, 9, 12, MAT_AIR);
    int lo2[3] = { 10, 8, 10 }, hi2[3] = { 11, 9, 12 };
    assert_int_equal(detach_find(&d, w, lo2, hi2, 100000), 0);
    fill_box(w, 15, 19, 10, 16, 20, 12, MAT_AIR);
    int lo3[3] = { 15, 19, 10 }, hi3[3] = { 16, 20, 12 };
    assert_int_equal(detach_find(&d, w, lo3, hi3, 100000), 0);
    assert_false(d.out_of_memory);
    detach_free(&d);
    world_destroy(w);
}

static void test_cantilever_cut_at_root(void **state)
{
    (void)state;
    world *w = cantilever_world();
    uint64_t before[MAT_COUNT];
    world_count_materials(w, before);
    fill_box(w, 12, 18, 10, 13, 20, 12, MAT_AIR); /* the beam's first column */
    detach d = { 0 };
    int lo[3] = { 12, 18, 10 }, hi[3] = { 13, 20, 12 };
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 1);
    const detach_group *g = &d.groups[0];
    assert_int_equal(g->count, 17 * 2 * 2 + 4 * 3 * 2);
    assert_int_equal(g->lo[0], 13);
    assert_int_equal(g->hi[0], 30);
    assert_int_equal(g->lo[1], 18);
    assert_int_equal(g->hi[1], 23);
    /* conservation per material: world after + group = world before - cut */
    uint64_t group[MAT_COUNT] = { 0 }, after[MAT_COUNT];
    for (size_t i = 0; i < g->count; i++) {
        const int *v = &d.vox[3 * (g->first + i)];
        group[world_get(w, v[0], v[1], v[2])]++;
    }
    world_count_materials(w, after);
    assert_int_equal(group[MAT_OAK_LEAVES], 24);
    assert_int_equal(after[MAT_OAK_LOG] + 4, before[MAT_OAK_LOG]);
    assert_int_equal(group[MAT_OAK_LOG], 17 * 4);
    /* the same call again gives the same answer (scratch reused) */
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 1);
    assert_int_equal(d.groups[0].count, g->count);
    /* past the bound the search counts as ground: nothing is loose */
    assert_int_equal(detach_find(&d, w, lo, hi, 20), 0);
    assert_true(d.bounded > 0);
    detach_free(&d);
    world_destroy(w);
}

static void test_fill_in_midair(void **state)
{
    (void)state;
    world *w = cantilever_world();
    fill_box(w, 40, 20, 40, 44, 22, 43, MAT_STONE);
    fill_box(w, 50, 20, 50, 51, 21, 51, MAT_SAND); /* a second one, apart */
    detach d = { 0 };
    int lo[3] = { 40, 20, 40 }, hi[3] = { 51, 22, 51 };
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 2);
    assert_int_equal(d.groups[0].count, 24);
    assert_int_equal(d.groups[1].count, 1);
    detach_free(&d);
    world_destroy(w);
}

/* A streamed world's window is not the world's end: a beam whose far end
 * reaches a column the window has not generated, or the window's side,
 * may rest on what is there, so it is ground (unbounded); a finite world
 * ends at its sides, and the same beam is loose. One that reaches only
 * air in columns the window holds is loose either way. */
static void test_unknown_columns_count_as_ground(void **state)
{
    (void)state;
    /* three columns from chunk x 10 (voxels 320 .. 416), z 5; the east
     * one (384 .. 416) not generated yet */
    world *w = world_create_window(10, 5, 3, 1, 1);
    assert_non_null(w);
    world_set_column_state(w, 12, 5, WORLD_COL_EMPTY);
    const int z0 = 5 * CHUNK_SIZE;
    fill_box(w, 320, 0, z0, 352, 3, z0 + 32, MAT_STONE);          /* floor, west column */
    fill_box(w, 322, 3, z0 + 4, 324, 20, z0 + 6, MAT_OAK_LOG);    /* pillar */
    fill_box(w, 324, 18, z0 + 4, 384, 20, z0 + 6, MAT_OAK_LOG);   /* beam to the east column's edge */
    fill_box(w, 324, 18, z0 + 4, 325, 20, z0 + 6, MAT_AIR);       /* cut at its root */
    const int lo[3] = { 324, 18, z0 + 4 }, hi[3] = { 325, 20, z0 + 6 };
    detach d = { 0 };
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 1); /* a finite world's reading */
    assert_int_equal(d.groups[0].count, 59 * 2 * 2);
    assert_int_equal(d.unknown, 0);
    d.unbounded = true;
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 0);
    assert_true(d.unknown > 0);
    assert_int_equal(d.bounded, 0);
    /* the east column arrives, as air there: the beam was loose after all */
    world_set_column_state(w, 12, 5, WORLD_COL_READY);
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 1);
    assert_int_equal(d.groups[0].count, 59 * 2 * 2);
    assert_int_equal(d.unknown, 0);
    /* longer, to the window's east side (x 415): what lies past it is not known */
    fill_box(w, 384, 18, z0 + 4, 416, 20, z0 + 6, MAT_OAK_LOG);
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 0);
    assert_true(d.unknown > 0);
    d.unbounded = false;
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 1);
    assert_int_equal(d.groups[0].count, 91 * 2 * 2);
    /* a stone in the air of a column not generated: not searched from */
    world_set(w, 400, 26, z0 + 20, MAT_STONE);
    world_set_column_state(w, 12, 5, WORLD_COL_EMPTY);
    const int slo[3] = { 400, 26, z0 + 20 }, shi[3] = { 401, 27, z0 + 21 };
    d.unbounded = true;
    assert_int_equal(detach_find(&d, w, slo, shi, 100000), 0);
    assert_true(d.unknown > 0);
    world_set_column_state(w, 12, 5, WORLD_COL_READY);
    assert_int_equal(detach_find(&d, w, slo, shi, 100000), 1);
    detach_free(&d);
    world_destroy(w);
}

/* Two trees whose crowns touch: felling one drops its crown and its
 * leaves, and leaves the other tree whole (foliage carries nothing). */
static void test_touching_crowns(void **state)
{
    (void)state;
    world *w = world_create(2, 1, 2);
    fill_box(w, 0, 0, 0, 64, 3, 64, MAT_DIRT);
    fill_box(w, 10, 3, 10, 11, 12, 11, MAT_OAK_LOG);
    fill_box(w, 16, 3, 10, 17, 12, 11, MAT_OAK_LOG);
    fill_box(w, 8, 12, 8, 13, 15, 13, MAT_OAK_LEAVES);  /* crown of the first */
    fill_box(w, 13, 12, 8, 19, 15, 13, MAT_OAK_LEAVES); /* of the second, touching it */
    fill_box(w, 10, 9, 10, 11, 12, 11, MAT_OAK_LEAVES); /* leaves round the first's top */
    fill_box(w, 10, 9, 10, 11, 12, 11, MAT_OAK_LOG);
    world_set(w, 10, 5, 10, MAT_AIR);
    detach d = { 0 };
    int lo[3] = { 10, 5, 10 }, hi[3] = { 11, 6, 11 };
    assert_int_equal(detach_find(&d, w, lo, hi, 100000), 1);
    size_t logs = 0, leaves = 0;
    for (size_t i = 0; i < d.groups[0].count; i++) {
        const int *v = &d.vox[3 * i];
        uint8_t m = world_get(w, v[0], v[1], v[2]);
        logs += m == MAT_OAK_LOG, leaves += m == MAT_OAK_LEAVES;
        assert_true(v[0] < 16); /* nothing of the second tree's own column */
    }
    assert_int_equal(logs, 6);
    assert_int_equal(leaves, 5 * 3 * 5); /* its whole crown, within the leaf reach */
    detach_free(&d);
    world_destroy(w);
}

/* The target case: a trunk cut through in each forest biome (oaks in the
 * deciduous forest, firs in the taiga) lets its crown loose, leaves and
 * all, and the crown falls as a body (tests/test_bodies.c makes it fall). */
static void crown_case(const char *biome, uint8_t log, uint8_t leaf)
{
    biomes_register();
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(4, 4, 4);
    assert_true(worldgen_generate(w, worldgen_find(biome), 1, jobs));
    detach d = { 0 };
    int tried = 0, fell = 0;
    /* the first log columns standing on ground that is not a log */
    for (int z = 0; z < w->sz && tried < 5; z++)
        for (int x = 0; x < w->sx && tried < 5; x++)
            for (int y = 1; y < w->sy - 3; y++) {
                if (world_get(w, x, y, z) != log || world_get(w, x, y - 1, z) == log || world_get(w, x, y + 2, z) != log)
                    continue;
                tried++;
                world_set(w, x, y + 1, z, MAT_AIR);
                int lo[3] = { x, y + 1, z }, hi[3] = { x + 1, y + 2, z + 1 };
                size_t n = detach_find(&d, w, lo, hi, 200000);
                size_t leaves = 0;
                for (size_t i = 0; i < d.vox_count; i++) leaves += world_get(w, d.vox[3 * i], d.vox[3 * i + 1], d.vox[3 * i + 2]) == leaf;
                fell += n >= 1 && leaves > 10;
                world_set(w, x, y + 1, z, log);
                break;
            }
    assert_int_equal(tried, 5);
    assert_int_equal(fell, 5);
    detach_free(&d);
    world_destroy(w);
    job_pool_destroy(jobs);
}

static void test_oak_crown(void **state)
{
    (void)state;
    crown_case("deciduous", MAT_OAK_LOG, MAT_OAK_LEAVES);
}

static void test_fir_crown(void **state)
{
    (void)state;
    crown_case("taiga", MAT_FIR_LOG, MAT_FIR_LEAVES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut_that_disconnects_nothing),
        cmocka_unit_test(test_cantilever_cut_at_root),
        cmocka_unit_test(test_fill_in_midair),
        cmocka_unit_test(test_unknown_columns_count_as_ground),
        cmocka_unit_test(test_touching_crowns),
        cmocka_unit_test(test_oak_crown),
        cmocka_unit_test(test_fir_crown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
