/* The voxel type table of seed 001: every type, its tiles and its flags. */
#include "test_support.h"

#include <ctype.h>
#include <string.h>

#include "voxel/material.h"

/* The paper's 21 and the two light sources after them. */
static void test_all_types_named(void **state)
{
    (void)state;
    static const char *names[] = { "null", "structure_placeholder", "air", "bedrock", "stone", "dirt", "grass",
                                   "sand", "sandstone", "mesa", "salt_flat", "taiga_dirt", "taiga_grass",
                                   "permafrost", "cactus", "oak_log", "fir_log", "oak_leaves", "fir_leaves",
                                   "cracked_stone", "muskeg", "lamp", "glow_ore" };
    assert_int_equal(MAT_COUNT, 23);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int id = material_find(names[i]);
        assert_true(id >= 0);
        assert_string_equal(material_table[id].name, names[i]);
        for (const char *c = names[i]; *c; c++) assert_true(islower((unsigned char)*c) || *c == '_');
    }
    assert_int_equal(material_find("Sand"), -1);
    assert_int_equal(MAT_AIR, 0); /* zeroed memory is empty space */
}

/* Tiles in the paper's face order: back, front, top, bottom, left, right. */
static void test_tiles_match_paper(void **state)
{
    (void)state;
    static const struct { int id; uint8_t t[6]; } rows[] = {
        { MAT_NULL, { 0, 0, 0, 0, 0, 0 } },        { MAT_BEDROCK, { 1, 1, 1, 1, 1, 1 } },
        { MAT_STONE, { 2, 2, 2, 2, 2, 2 } },       { MAT_DIRT, { 3, 3, 3, 3, 3, 3 } },
        { MAT_GRASS, { 4, 4, 5, 2, 4, 4 } },       { MAT_SAND, { 6, 6, 6, 6, 6, 6 } },
        { MAT_SANDSTONE, { 9, 9, 9, 9, 9, 9 } },   { MAT_MESA, { 7, 7, 7, 7, 7, 7 } },
        { MAT_SALT_FLAT, { 8, 8, 8, 8, 8, 8 } },   { MAT_TAIGA_DIRT, { 15, 15, 15, 15, 15, 15 } },
        { MAT_TAIGA_GRASS, { 13, 13, 14, 15, 13, 13 } }, { MAT_PERMAFROST, { 16, 16, 16, 16, 16, 16 } },
        { MAT_CACTUS, { 10, 10, 11, 12, 10, 10 } }, { MAT_OAK_LOG, { 17, 17, 18, 18, 17, 17 } },
        { MAT_FIR_LOG, { 19, 19, 20, 20, 19, 19 } }, { MAT_OAK_LEAVES, { 21, 21, 21, 21, 21, 21 } },
        { MAT_FIR_LEAVES, { 22, 22, 22, 22, 22, 22 } }, { MAT_CRACKED_STONE, { 23, 23, 23, 23, 23, 23 } },
        { MAT_MUSKEG, { 24, 24, 24, 24, 24, 24 } }, { MAT_LAMP, { 25, 25, 25, 25, 25, 25 } },
        { MAT_GLOW_ORE, { 26, 26, 26, 26, 26, 26 } },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_memory_equal(material_table[rows[i].id].tile, rows[i].t, 6);
    for (int m = 0; m < MAT_COUNT; m++)
        for (int f = 0; f < FACE_COUNT; f++) assert_true(material_table[m].tile[f] < MATERIAL_TILE_COUNT);
}

static void test_render_flags(void **state)
{
    (void)state;
    /* render self / render neighbours, as in the table */
    assert_true(material_table[MAT_NULL].render_self && !material_table[MAT_NULL].render_neighbors);
    assert_true(!material_table[MAT_PLACEHOLDER].render_self && material_table[MAT_PLACEHOLDER].render_neighbors);
    assert_true(!material_table[MAT_AIR].render_self && material_table[MAT_AIR].render_neighbors);
    assert_true(material_table[MAT_MUSKEG].render_self && material_table[MAT_MUSKEG].render_neighbors);
    for (int m = MAT_BEDROCK; m < MAT_MUSKEG; m++)
        assert_true(material_table[m].render_self && !material_table[m].render_neighbors);
    /* passes */
    assert_int_equal(material_table[MAT_MUSKEG].pass, PASS_TRANSLUCENT);
    assert_int_equal(material_table[MAT_OAK_LEAVES].pass, PASS_CUTOUT);
    assert_int_equal(material_table[MAT_FIR_LEAVES].pass, PASS_CUTOUT);
    assert_int_equal(material_table[MAT_STONE].pass, PASS_OPAQUE);
    assert_int_equal(material_table[MAT_AIR].pass, PASS_NONE);
    /* visibility rule */
    assert_true(material_face_visible(MAT_STONE, MAT_AIR));
    assert_false(material_face_visible(MAT_STONE, MAT_DIRT));
    assert_true(material_face_visible(MAT_STONE, MAT_MUSKEG));
    assert_false(material_face_visible(MAT_MUSKEG, MAT_STONE));
    assert_false(material_face_visible(MAT_MUSKEG, MAT_MUSKEG));
    assert_false(material_face_visible(MAT_AIR, MAT_AIR));
    /* ids past the table read as Null, never out of bounds */
    assert_ptr_equal(material_get(200), &material_table[MAT_NULL]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_types_named),
        cmocka_unit_test(test_tiles_match_paper),
        cmocka_unit_test(test_render_flags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
