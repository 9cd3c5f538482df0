/* Texture atlas: the committed PNG, its split into layers, tile layout,
 * alpha rules per tile, the CPU mip chain, errors, and that the committed
 * file is what tools/atlasgen produces today. */
#include "test_support.h"

#include "gfx/atlas.h"
#include "voxel/material.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

enum { TILE_OAK_LEAVES = 21, TILE_FIR_LEAVES = 22, TILE_MUSKEG = 24 };

static atlas_image load_committed(void)
{
    atlas_image img;
    char err[512];
    bool ok = atlas_load(test_source_path("assets/atlas.png"), &img, err, sizeof err);
    if (!ok) fprintf(stderr, "%s\n", err);
    assert_true(ok);
    return img;
}

static const uint8_t *layer_px(const atlas_image *img, int layer, int x, int y)
{
    const uint8_t *p = atlas_layer(img, layer);
    assert_non_null(p);
    return p + (y * ATLAS_TILE + x) * 4;
}

static void test_committed_atlas_loads(void **state)
{
    (void)state;
    atlas_image img = load_committed();
    assert_int_equal(img.width, ATLAS_WIDTH);
    assert_int_equal(img.height, ATLAS_HEIGHT);
    assert_true(img.layers >= MATERIAL_TILE_COUNT);
    assert_int_equal(img.layers, 32);
    assert_null(atlas_layer(&img, img.layers));
    assert_null(atlas_layer(&img, -1));
    atlas_free(&img);
    assert_null(img.pixels);
}

static void test_layers_match_image(void **state)
{
    (void)state;
    atlas_image img = load_committed();
    int w, h, n;
    uint8_t *raw = stbi_load(test_source_path("assets/atlas.png"), &w, &h, &n, 4);
    assert_non_null(raw);
    static const int tiles[] = { 0, 1, 5, 7, 8, 13, 21, 24 };
    static const int pts[][2] = { { 0, 0 }, { 15, 0 }, { 0, 15 }, { 15, 15 }, { 7, 9 }, { 3, 12 } };
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++) {
        int ox, oy;
        atlas_tile_origin(tiles[t], &ox, &oy);
        for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++) {
            int x = pts[k][0], y = pts[k][1];
            assert_memory_equal(layer_px(&img, tiles[t], x, y), raw + ((oy + y) * w + ox + x) * 4, 4);
        }
    }
    /* and every pixel of every layer, to be sure of the stride arithmetic */
    for (int l = 0; l < img.layers; l++) {
        int ox, oy;
        atlas_tile_origin(l, &ox, &oy);
        for (int y = 0; y < ATLAS_TILE; y++)
            assert_memory_equal(layer_px(&img, l, 0, y), raw + ((oy + y) * w + ox) * 4, ATLAS_TILE * 4);
    }
    stbi_image_free(raw);
    atlas_free(&img);
}

static void test_tile_origins_and_uvs(void **state)
{
    (void)state;
    int x, y;
    atlas_tile_origin(0, &x, &y);
    assert_int_equal(x, 0);
    assert_int_equal(y, 0);
    atlas_tile_origin(7, &x, &y);
    assert_int_equal(x, 112);
    assert_int_equal(y, 0);
    atlas_tile_origin(8, &x, &y);
    assert_int_equal(x, 0);
    assert_int_equal(y, 16);
    atlas_tile_origin(24, &x, &y);
    assert_int_equal(x, 0);
    assert_int_equal(y, 48);
    /* bad numbers show the null tile rather than a neighbour */
    atlas_tile_origin(-3, &x, &y);
    assert_int_equal(x + y, 0);
    atlas_tile_origin(32, &x, &y);
    assert_int_equal(x + y, 0);

    float uv[4];
    atlas_tile_uv(0, uv);
    assert_float_equal(uv[0], 0.0f, 1e-6f);
    assert_float_equal(uv[1], 0.0f, 1e-6f);
    assert_float_equal(uv[2], 0.125f, 1e-6f);
    assert_float_equal(uv[3], 0.25f, 1e-6f);
    atlas_tile_uv(7, uv);
    assert_float_equal(uv[0], 0.875f, 1e-6f);
    assert_float_equal(uv[1], 0.0f, 1e-6f);
    assert_float_equal(uv[2], 1.0f, 1e-6f);
    assert_float_equal(uv[3], 0.25f, 1e-6f);
    atlas_tile_uv(8, uv);
    assert_float_equal(uv[0], 0.0f, 1e-6f);
    assert_float_equal(uv[1], 0.25f, 1e-6f);
    assert_float_equal(uv[2], 0.125f, 1e-6f);
    assert_float_equal(uv[3], 0.5f, 1e-6f);
    atlas_tile_uv(24, uv);
    assert_float_equal(uv[0], 0.0f, 1e-6f);
    assert_float_equal(uv[1], 0.75f, 1e-6f);
    assert_float_equal(uv[2], 0.125f, 1e-6f);
    assert_float_equal(uv[3], 1.0f, 1e-6f);
}

static void alpha_histogram(const atlas_image *img, int layer, int *zero, int *full, int *between, int *amin,
                            int *amax)
{
    *zero = *full = *between = 0;
    *amin = 255;
    *amax = 0;
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            int a = layer_px(img, layer, x, y)[3];
            if (a == 0) (*zero)++;
            else if (a == 255) (*full)++;
            else (*between)++;
            if (a < *amin) *amin = a;
            if (a > *amax) *amax = a;
        }
}

static void test_alpha_rules(void **state)
{
    (void)state;
    atlas_image img = load_committed();
    for (int t = 0; t < MATERIAL_TILE_COUNT; t++) {
        int zero, full, between, amin, amax;
        alpha_histogram(&img, t, &zero, &full, &between, &amin, &amax);
        if (t == TILE_OAK_LEAVES || t == TILE_FIR_LEAVES) {
            /* cut-out: real holes and real leaves, nothing half-way */
            assert_int_equal(between, 0);
            assert_true(zero >= 16);
            assert_true(full >= 128); /* at least half leaf, or the crown looks bare */
            assert_true(atlas_layer_is_cutout(&img, t));
        } else if (t == TILE_MUSKEG) {
            assert_true(amin >= 150);
            assert_true(amax <= 200);
            assert_false(atlas_layer_is_cutout(&img, t));
        } else {
            if (full != ATLAS_TILE * ATLAS_TILE) fprintf(stderr, "tile %d is not opaque\n", t);
            assert_int_equal(full, ATLAS_TILE * ATLAS_TILE);
            assert_false(atlas_layer_is_cutout(&img, t));
        }
    }
    atlas_free(&img);
}

static void test_tiles_are_distinct(void **state)
{
    (void)state;
    atlas_image img = load_committed();
    for (int a = 1; a < MATERIAL_TILE_COUNT; a++)
        for (int b = a + 1; b < MATERIAL_TILE_COUNT; b++) {
            /* not just different bytes: clearly different on average, so two
             * materials cannot be mistaken for each other on screen */
            long diff = 0;
            const uint8_t *pa = atlas_layer(&img, a), *pb = atlas_layer(&img, b);
            for (int i = 0; i < ATLAS_LAYER_BYTES; i++) diff += labs((long)pa[i] - (long)pb[i]);
            if (diff < ATLAS_LAYER_BYTES) fprintf(stderr, "tiles %d and %d are too alike (%ld)\n", a, b, diff);
            assert_true(diff >= ATLAS_LAYER_BYTES);
        }
    atlas_free(&img);
}

static void test_mips(void **state)
{
    (void)state;
    atlas_image img = load_committed();
    atlas_mips m;
    assert_true(atlas_mips_build(&img, &m));
    assert_int_equal(m.layers, img.layers);
    assert_memory_equal(m.level[0], img.pixels, (size_t)img.layers * ATLAS_LAYER_BYTES);
    for (int k = 1; k < ATLAS_MIP_LEVELS; k++) {
        int size = ATLAS_TILE >> k;
        for (int t = 0; t < MATERIAL_TILE_COUNT; t++) {
            const uint8_t *p = m.level[k] + (size_t)t * (size_t)(size * size * 4);
            if (t == TILE_OAK_LEAVES || t == TILE_FIR_LEAVES) {
                /* coverage under the alpha test is the base level's, rounded
                 * to this level's texel count (1x1: solid or empty) */
                float c0 = atlas_mips_coverage(&m, 0, t), ck = atlas_mips_coverage(&m, k, t);
                float tol = 0.5f / (float)(size * size) + 1e-4f;
                assert_float_equal(ck, c0, tol);
            } else if (t == TILE_MUSKEG) {
                for (int i = 0; i < size * size; i++) assert_in_range(p[i * 4 + 3], 150, 200);
            } else {
                for (int i = 0; i < size * size; i++) assert_int_equal(p[i * 4 + 3], 255);
            }
        }
    }
    /* the null checker averages to half magenta at 1x1 */
    const uint8_t *null1 = m.level[ATLAS_MIP_LEVELS - 1];
    assert_in_range(null1[0], 126, 129);
    assert_int_equal(null1[1], 0);
    assert_in_range(null1[2], 126, 129);
    /* leaves' holes do not darken their mips: the 2x2 colour stays green */
    const uint8_t *leaf = m.level[3] + (size_t)TILE_OAK_LEAVES * 2 * 2 * 4;
    for (int i = 0; i < 4; i++) assert_true(leaf[i * 4 + 1] > leaf[i * 4 + 0] && leaf[i * 4 + 1] > 60);
    atlas_mips_free(&m);
    atlas_free(&img);
}

static char *temp_png_path(char *buf, size_t len)
{
    snprintf(buf, len, "/tmp/strata_atlas_XXXXXX");
    int fd = mkstemp(buf);
    assert_true(fd >= 0);
    close(fd);
    return buf;
}

static void test_wrong_size_is_an_error(void **state)
{
    (void)state;
    char path[64];
    temp_png_path(path, sizeof path);
    static uint8_t px[100 * 40 * 4];
    assert_true(stbi_write_png(path, 100, 40, 4, px, 100 * 4) != 0);
    atlas_image img;
    char err[512];
    assert_false(atlas_load(path, &img, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "100x40"));
    assert_null(img.pixels);
    /* the right width but too few tiles for the material table */
    static uint8_t row[ATLAS_WIDTH * ATLAS_TILE * 4];
    assert_true(stbi_write_png(path, ATLAS_WIDTH, ATLAS_TILE, 4, row, ATLAS_WIDTH * 4) != 0);
    assert_false(atlas_load(path, &img, err, sizeof err));
    assert_non_null(strstr(err, path));
    /* not an image at all */
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("not a png", f);
    fclose(f);
    assert_false(atlas_load(path, &img, err, sizeof err));
    assert_non_null(strstr(err, path));
    unlink(path);
}

static void test_missing_file_is_an_error(void **state)
{
    (void)state;
    const char *path = "/nonexistent/strata/atlas.png";
    atlas_image img;
    char err[512];
    assert_false(atlas_load(path, &img, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_null(img.pixels);
    assert_int_equal(img.layers, 0);
}

static void test_committed_atlas_is_current(void **state)
{
    (void)state;
    char path[64], cmd[1200];
    temp_png_path(path, sizeof path);
    snprintf(cmd, sizeof cmd, "'%s' '%s'", STRATA_BINARY_DIR "/atlasgen", path);
    int rc = system(cmd);
    assert_int_equal(rc, 0);
    int w1, h1, n1, w2, h2, n2;
    uint8_t *fresh = stbi_load(path, &w1, &h1, &n1, 4);
    uint8_t *committed = stbi_load(test_source_path("assets/atlas.png"), &w2, &h2, &n2, 4);
    assert_non_null(fresh);
    assert_non_null(committed);
    assert_int_equal(w1, w2);
    assert_int_equal(h1, h2);
    if (memcmp(fresh, committed, (size_t)w1 * (size_t)h1 * 4) != 0)
        fprintf(stderr, "assets/atlas.png is stale: run `build/atlasgen assets/atlas.png` and commit it\n");
    assert_memory_equal(fresh, committed, (size_t)w1 * (size_t)h1 * 4);
    stbi_image_free(fresh);
    stbi_image_free(committed);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_committed_atlas_loads),
        cmocka_unit_test(test_layers_match_image),
        cmocka_unit_test(test_tile_origins_and_uvs),
        cmocka_unit_test(test_alpha_rules),
        cmocka_unit_test(test_tiles_are_distinct),
        cmocka_unit_test(test_mips),
        cmocka_unit_test(test_wrong_size_is_an_error),
        cmocka_unit_test(test_missing_file_is_an_error),
        cmocka_unit_test(test_committed_atlas_is_current),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
