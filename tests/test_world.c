/* World and chunk indexing, borders, dirty tracking and hashing. */
#include "test_support.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

/* Fills the window's voxels with a pattern of their global coordinates. */
static void fill_pattern(world *w)
{
    for (int y = 0; y < w->sy; y += 7)
        for (int z = world_z0(w); z < world_z0(w) + w->sz; z += 3)
            for (int x = world_x0(w); x < world_x0(w) + w->sx; x += 5)
                world_set(w, x, y, z, (uint8_t)(1 + (unsigned)(x * 7 + z * 13 + y) % (MAT_COUNT - 1)));
}

static void test_window_at_negative_origin(void **state)
{
    (void)state;
    world *w = world_create_at(-3, 5, 4, 2, 3);
    assert_non_null(w);
    /* voxels inside [-96, 32) x [160, 256) are stored; beside them is air */
    assert_true(world_set(w, -96, 3, 160, MAT_STONE));
    assert_true(world_set(w, 31, 63, 255, MAT_SAND));
    assert_int_equal(world_get(w, -96, 3, 160), MAT_STONE);
    assert_int_equal(world_get(w, 31, 63, 255), MAT_SAND);
    assert_false(world_set(w, -97, 3, 160, MAT_STONE));
    assert_false(world_set(w, 32, 3, 160, MAT_STONE));
    assert_false(world_set(w, 0, 3, 159, MAT_STONE));
    assert_int_equal(world_get(w, -97, 3, 160), MAT_AIR);
    assert_int_equal(world_get(w, 0, -1, 0), MAT_BEDROCK);
    /* every chunk has its own index, and the index gives its coordinates back */
    bool seen[4 * 2 * 3] = { false };
    for (int y = 0; y < 2; y++)
        for (int z = 5; z < 8; z++)
            for (int x = -3; x < 1; x++) {
                assert_true(world_chunk_valid(w, x, y, z));
                int i = world_chunk_index(w, x, y, z), bx, by, bz;
                assert_false(seen[i]);
                seen[i] = true;
                world_chunk_coords(w, i, &bx, &by, &bz);
                assert_int_equal(bx, x), assert_int_equal(by, y), assert_int_equal(bz, z);
            }
    assert_false(world_chunk_valid(w, -4, 0, 5));
    assert_false(world_chunk_valid(w, 1, 0, 5));
    assert_int_equal(world_surface_y(w, -96, 160), 3);
    assert_int_equal(world_surface_y(w, -200, 160), -1);
    world_destroy(w);
}

static void test_move_keeps_overlap_and_empties_the_rest(void **state)
{
    (void)state;
    world *w = world_create(4, 2, 4);
    fill_pattern(w);
    world *ref = world_create(4, 2, 4);
    fill_pattern(ref);
    int dirty[64];
    world_take_dirty(w, dirty, 64);
    assert_int_equal(w->dirty_count, 0);
    assert_int_equal(world_count_edited(w), 32);
    /* move by (+1, -2) columns: 4*4 - 3*2 = 10 columns enter */
    assert_int_equal(world_move(w, 1, -2), 10);
    assert_int_equal(w->dirty_count, 20);
    assert_int_equal(world_count_edited(w), 12);
    assert_int_equal(w->unsaved_count, 12);
    for (int z = -64; z < 64; z++)
        for (int x = 32; x < 160; x++)
            for (int y = 0; y < 64; y += 7) {
                bool stays = x < 128 && z >= 0;
                assert_int_equal(world_get(w, x, y, z), stays ? world_get(ref, x, y, z) : MAT_AIR);
                assert_int_equal(world_column_state(w, x >> 5, z >> 5), stays ? WORLD_COL_READY : WORLD_COL_EMPTY);
            }
    /* the columns the window left are gone from it */
    assert_int_equal(world_get(w, 0, 0, 0), MAT_AIR);
    assert_false(world_set(w, 0, 0, 0, MAT_STONE));
    /* moving back: the stayed columns are still there, the others come back empty */
    assert_int_equal(world_move(w, 0, 0), 10);
    assert_int_equal(world_get(w, 40, 14, 3), world_get(ref, 40, 14, 3));
    assert_int_equal(world_get(w, 5, 14, 3), MAT_AIR);
    assert_int_equal(world_column_state(w, 0, 0), WORLD_COL_EMPTY);
    world_destroy(ref);
    world_destroy(w);
}

/* The streamed window's move (world_move_release) hands the leaving
 * columns' arrays to the spare list instead of clearing them: those
 * columns read air through the shared array and refuse writes, the ones
 * that stay keep their arrays; a column handed in (world_swap_vox) is
 * the caller's array itself, not a copy, and the arrays go round. */
static void test_release_move_hands_arrays_over(void **state)
{
    (void)state;
    world *w = world_create(4, 2, 4);
    world *ref = world_create(4, 2, 4);
    fill_pattern(w);
    fill_pattern(ref);
    uint8_t *kept = world_chunk(w, 2, 1, 1)->vox, *left = world_chunk(w, 0, 0, 0)->vox;
    assert_int_equal(w->spare_n, 0);
    assert_int_equal(world_move_release(w, 1, -2), 10);
    assert_int_equal(w->spare_n, 10 * 2); /* every chunk of the columns that left */
    assert_ptr_equal(world_chunk(w, 2, 1, 1)->vox, kept);
    bool spared = false; /* the array of a column that left is kept, not freed nor cleared */
    for (int k = 0; k < w->spare_n; k++) spared |= w->spare[k] == left;
    assert_true(spared);
    assert_memory_equal(left, world_chunk(ref, 0, 0, 0)->vox, CHUNK_VOLUME); /* no byte written on the move */
    for (int z = -64; z < 64; z += 3)
        for (int x = 32; x < 160; x += 3)
            for (int y = 0; y < 64; y += 7) {
                bool stays = x < 128 && z >= 0;
                assert_int_equal(world_get(w, x, y, z), stays ? world_get(ref, x, y, z) : MAT_AIR);
                assert_true(world_vox_shared(world_chunk(w, x >> 5, y >> 5, z >> 5)->vox) == !stays);
            }
    /* a column not there takes no write */
    assert_false(world_set(w, 140, 3, -40, MAT_STONE));
    assert_false(world_set_tint(w, 140, 3, -40, 2));
    assert_int_equal(world_get(w, 140, 3, -40), MAT_AIR);
    /* handed in: the slot holds the very array, and the shared air comes back */
    int i = world_chunk_index(w, 4, 0, -2);
    uint8_t *col = world_take_spare(w);
    assert_int_equal(w->spare_n, 19);
    memset(col, MAT_STONE, CHUNK_VOLUME);
    uint8_t *back = col;
    world_swap_vox(w, i, &back);
    assert_ptr_equal(w->chunks[i].vox, col);
    assert_true(world_vox_shared(back));
    assert_int_equal(world_get(w, 140, 3, -60), MAT_STONE);
    world_give_spare(w, back); /* the shared air is never kept */
    assert_int_equal(w->spare_n, 19);
    /* a column world whose chunks read the shared air takes arrays of its own */
    world *job = world_create_at(4, -2, 1, 2, 1);
    for (int y = 0; y < 2; y++) {
        uint8_t *air = back;
        world_swap_vox(job, y, &air);
        free(air);
    }
    assert_true(world_own_storage(job, w));
    assert_int_equal(w->spare_n, 17);
    for (int y = 0; y < 2; y++) assert_false(world_vox_shared(job->chunks[y].vox));
    world_destroy(job);
    world_destroy(ref);
    world_destroy(w); /* frees its spare arrays too (the sanitizers check) */
}

static void test_moved_window_equals_a_new_one(void **state)
{
    (void)state;
    /* A window moved far, then filled, holds and hashes exactly what a
     * window created there holds, though its slots are rotated. */
    world *moved = world_create(3, 1, 5);
    fill_pattern(moved);
    assert_int_equal(world_move(moved, 1000003, -7777777 / 32), 15);
    assert_int_equal(moved->ocx, 1000003);
    fill_pattern(moved);
    world *fresh = world_create_at(1000003, -7777777 / 32, 3, 1, 5);
    fill_pattern(fresh);
    assert_true(world_hash(moved) == world_hash(fresh));
    for (int i = 0; i < fresh->chunk_count; i++) {
        int x, y, z;
        world_chunk_coords(fresh, i, &x, &y, &z);
        assert_memory_equal(world_chunk(moved, x, y, z)->vox, fresh->chunks[i].vox, CHUNK_VOLUME);
    }
    /* a move beyond the coordinate limit is refused and changes nothing */
    uint64_t h = world_hash(moved);
    assert_int_equal(world_move(moved, WORLD_COORD_LIMIT / 32, 0), -1);
    assert_int_equal(world_move(moved, 0, -WORLD_COORD_LIMIT / 32 - 1), -1);
    assert_true(world_hash(moved) == h);
    assert_null(world_create_at(WORLD_COORD_LIMIT / 32, 0, 2, 1, 2));
    world_destroy(fresh);
    world_destroy(moved);
}

/* A window at the coordinate limit's west end: voxels at the east end
 * and past it are outside it, as any voxel outside a window is (x - x0
 * passes INT_MAX there; computed as unsigned, no overflow: UBSan checks). */
static void test_bounds_at_the_coordinate_limit(void **state)
{
    (void)state;
    world *w = world_create_window(-WORLD_COORD_LIMIT / CHUNK_SIZE, 0, 2, 1, 1);
    assert_non_null(w);
    assert_int_equal(world_x0(w), -WORLD_COORD_LIMIT);
    assert_true(world_in_bounds(w, -WORLD_COORD_LIMIT, 0, 0));
    assert_true(world_in_bounds(w, -WORLD_COORD_LIMIT + 63, 31, 31));
    assert_false(world_in_bounds(w, -WORLD_COORD_LIMIT - 1, 0, 0));
    assert_false(world_in_bounds(w, WORLD_COORD_LIMIT, 0, 0));
    assert_false(world_in_bounds(w, INT_MAX, 0, 0));
    assert_int_equal(world_get(w, INT_MAX, 5, 0), MAT_AIR);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds_at_the_coordinate_limit),
        cmocka_unit_test(test_index_layout),
        cmocka_unit_test(test_get_set_across_borders),
        cmocka_unit_test(test_dirty_marks_neighbours_on_border),
        cmocka_unit_test(test_hash_and_counts),
        cmocka_unit_test(test_bad_sizes_refused),
        cmocka_unit_test(test_window_at_negative_origin),
        cmocka_unit_test(test_move_keeps_overlap_and_empties_the_rest),
        cmocka_unit_test(test_moved_window_equals_a_new_one),
        cmocka_unit_test(test_release_move_hands_arrays_over),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
