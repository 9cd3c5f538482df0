/* World and chunk indexing, borders, dirty tracking and hashing. */
#include "test_support.h"

#include "voxel/world.h"

static void test_index_layout(void **state)
{
    (void)state;
    /* x fastest, then z, then y: the mesh-file format and the chunk agree */
    assert_int_equal(CHUNK_INDEX(1, 0, 0), 1);
    assert_int_equal(CHUNK_INDEX(0, 0, 1), 32);
    assert_int_equal(CHUNK_INDEX(0, 1, 0), 1024);
    assert_int_equal(CHUNK_INDEX(31, 31, 31), CHUNK_VOLUME - 1);
}

static void test_get_set_across_borders(void **state)
{
    (void)state;
    world *w = world_create(2, 2, 2);
    assert_non_null(w);
    assert_int_equal(w->sx, 64);
    for (int i = 0; i < 64; i++) assert_true(world_set(w, i, i, 63 - i, MAT_STONE));
    for (int i = 0; i < 64; i++) assert_int_equal(world_get(w, i, i, 63 - i), MAT_STONE);
    /* the voxel at (40,32,31) lives in chunk (1,1,0) at local (8,0,31) */
    const chunk *c = world_chunk(w, 1, 1, 0);
    assert_int_equal(c->vox[CHUNK_INDEX(8, 0, 31)], MAT_AIR);
    world_set(w, 40, 32, 31, MAT_SAND);
    assert_int_equal(c->vox[CHUNK_INDEX(8, 0, 31)], MAT_SAND);
    /* outside: air at the sides and top, bedrock below */
    assert_int_equal(world_get(w, -1, 5, 5), MAT_AIR);
    assert_int_equal(world_get(w, 5, 64, 5), MAT_AIR);
    assert_int_equal(world_get(w, 5, -1, 5), MAT_BEDROCK);
    assert_false(world_set(w, 64, 0, 0, MAT_STONE));
    world_destroy(w);
}

static void test_dirty_marks_neighbours_on_border(void **state)
{
    (void)state;
    world *w = world_create(3, 1, 3);
    int out[16];
    assert_int_equal(world_take_dirty(w, out, 16), 0);
    world_set(w, 40, 5, 40, MAT_STONE); /* interior of chunk (1,0,1) */
    assert_int_equal(world_take_dirty(w, out, 16), 1);
    assert_int_equal(out[0], world_chunk_index(w, 1, 0, 1));
    world_set(w, 32, 5, 63, MAT_STONE); /* local (0, 5, 31): touches -x and +z neighbours */
    int n = world_take_dirty(w, out, 16);
    assert_int_equal(n, 3);
    assert_int_equal(out[0], world_chunk_index(w, 0, 0, 1));
    assert_int_equal(out[1], world_chunk_index(w, 1, 0, 1));
    assert_int_equal(out[2], world_chunk_index(w, 1, 0, 2));
    /* setting the same value again changes nothing */
    world_set(w, 32, 5, 63, MAT_STONE);
    assert_int_equal(world_take_dirty(w, out, 16), 0);
    world_destroy(w);
}

static void test_hash_and_counts(void **state)
{
    (void)state;
    world *a = world_create(2, 1, 2), *b = world_create(2, 1, 2);
    assert_int_equal(world_hash(a), world_hash(b));
    world_set(a, 3, 4, 5, MAT_CACTUS);
    assert_true(world_hash(a) != world_hash(b));
    world_set(b, 3, 4, 5, MAT_CACTUS);
    assert_int_equal(world_hash(a), world_hash(b));
    world_set_tint(a, 3, 5, 5, 2); /* a carved cell above the cactus: its top face takes the colour */
    assert_true(world_hash(a) != world_hash(b));
    assert_int_equal(world_count_tinted(a), 1);
    assert_int_equal(world_tint_bytes(a), CHUNK_VOLUME); /* one chunk's tints, allocated on first use */
    assert_int_equal(world_face_tint(a, 3, 4, 5, FACE_TOP), 2);
    assert_int_equal(world_face_tint(a, 3, 4, 5, FACE_LEFT), 0);
    world_set(a, 3, 5, 5, MAT_SAND); /* filling the cell clears its colour */
    assert_int_equal(world_get_tint(a, 3, 5, 5), 0);
    world_set(a, 3, 5, 5, MAT_AIR);
    uint64_t counts[MAT_COUNT];
    world_count_materials(a, counts);
    assert_int_equal(counts[MAT_CACTUS], 1);
    assert_int_equal(counts[MAT_AIR], 4 * CHUNK_VOLUME - 1);
    assert_int_equal(world_surface_y(a, 3, 5), 4);
    assert_int_equal(world_surface_y(a, 4, 5), -1);
    world_destroy(a);
    world_destroy(b);
}

static void test_bad_sizes_refused(void **state)
{
    (void)state;
    assert_null(world_create(0, 1, 1));
    assert_null(world_create(-3, 1, 1));
    assert_null(world_create(1000, 1000, 1000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_layout),
        cmocka_unit_test(test_get_set_across_borders),
        cmocka_unit_test(test_dirty_marks_neighbours_on_border),
        cmocka_unit_test(test_hash_and_counts),
        cmocka_unit_test(test_bad_sizes_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
