/* The light component on a moving window, through the real
 * game: the world's window moves, the entering columns arrive announced as
 * generated edits (as streaming announces them), and the light texture the
 * shaders read follows: its origin and slot are the world's, the columns
 * that entered are dark until they arrive, and then its interior equals
 * what a whole bake of the moved window uploads. */
#include "test_support.h"

#include "voxel/stream.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "app/app_internal.h"
#include "app/app_light.h"
#include "app/component.h"
#include "ui/cmd.h"

/* What a command prints (its key=value lines); fails the test when it fails. */
static const char *stdout_of(const char *cmd)
{
    static char buf[4096];
    fflush(stdout);
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    int saved = dup(STDOUT_FILENO);
    dup2(fd[1], STDOUT_FILENO);
    int rc = cmd_exec(cmd);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved), close(fd[1]);
    ssize_t n = read(fd[0], buf, sizeof buf - 1);
    close(fd[0]);
    buf[n > 0 ? n : 0] = 0;
    assert_int_equal(rc, 0);
    return buf;
}

/* The light texture as the shaders see it this frame: its texels, those
 * of a column slot whose fresh bit is clear (light_fresh_bits) holding no
 * light. *raw (when given): the texels as they are. */
static uint8_t *read_light(app *a, light_shading *ls, uint8_t **raw)
{
    render_settings rs = { 0 };
    app_light_settings(a, &rs);
    *ls = rs.light;
    assert_true(ls->enabled && ls->texture && ls->fresh);
    size_t n = (size_t)ls->size[0] * ls->size[1] * ls->size[2] * 2;
    uint8_t *out = malloc(n);
    assert_non_null(out);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(ls->texture, 0, GL_RG, GL_UNSIGNED_BYTE, (GLsizei)n, out);
    if (raw) {
        *raw = malloc(n);
        assert_non_null(*raw);
        memcpy(*raw, out, n);
    }
    static uint32_t bits[LIGHT_FRESH_WORDS];
    glGetNamedBufferSubData(ls->fresh, 0, sizeof bits, bits);
    const int ncx = ls->size[0] / CHUNK_SIZE;
    for (int z = 0; z < ls->size[2]; z++)
        for (int x = 0; x < ls->size[0]; x++) {
            int slot = (z / CHUNK_SIZE) * ncx + x / CHUNK_SIZE;
            if (bits[slot >> 5] >> (slot & 31) & 1u) continue;
            for (int y = 0; y < ls->size[1]; y++) memset(out + 2 * ((size_t)x + (size_t)ls->size[0] * ((size_t)y + (size_t)ls->size[1] * z)), 0, 2);
        }
    return out;
}

/* Texel (pair index) of global voxel (x, y, z): the window's slot mapping,
 * as the shaders compute it. */
static size_t texel(const light_shading *ls, int x, int y, int z)
{
    int tx = (x - ls->origin[0] + ls->slot[0]) % ls->size[0], tz = (z - ls->origin[2] + ls->slot[2]) % ls->size[2];
    return (size_t)tx + (size_t)ls->size[0] * ((size_t)y + (size_t)ls->size[1] * (size_t)tz);
}

static app *open_app(void)
{
    app_desc d = { .headless = true, .width = 64, .height = 64 };
    app *a = app_create(&d);
    if (!a) fail_msg("no app: a GL context or the assets are missing");
    assert_int_equal(cmd_exec("set world.stream 0; set world.size_x 4; set world.size_y 4; set world.size_z 4; regen; frames 1"), 0);
    assert_non_null(a->w);
    return a;
}

/* Every column's voxels of the world, to give entering columns content. */
static uint8_t *save_columns(const world *w)
{
    size_t col = (size_t)w->cy * CHUNK_VOLUME;
    uint8_t *saved = malloc(col * (size_t)(w->cx * w->cz));
    assert_non_null(saved);
    for (int i = 0; i < w->chunk_count; i++) {
        int x, y, z;
        world_chunk_coords(w, i, &x, &y, &z);
        memcpy(saved + col * (size_t)(x + z * w->cx) + (size_t)y * CHUNK_VOLUME, w->chunks[i].vox, CHUNK_VOLUME);
    }
    return saved;
}

/* The columns not yet generated arrive, one by one, each announced as
 * streaming announces it. Their content repeats the saved origin window's. */
static void arrive_all(app *a, const uint8_t *saved)
{
    world *w = a->w;
    size_t col = (size_t)w->cy * CHUNK_VOLUME;
    for (int z = w->ocz; z < w->ocz + w->cz; z++)
        for (int x = w->ocx; x < w->ocx + w->cx; x++) {
            if (world_column_state(w, x, z) == WORLD_COL_READY) continue;
            const uint8_t *src = saved + col * (size_t)(((x % w->cx) + w->cx) % w->cx + (((z % w->cz) + w->cz) % w->cz) * w->cx);
            for (int y = 0; y < w->cy; y++)
                memcpy(world_chunk(w, x, y, z)->vox, src + (size_t)y * CHUNK_VOLUME, CHUNK_VOLUME);
            world_set_column_state(w, x, z, WORLD_COL_READY);
            world_edit e = { .lo = { x * CHUNK_SIZE, 0, z * CHUNK_SIZE },
                             .hi = { (x + 1) * CHUNK_SIZE, w->sy, (z + 1) * CHUNK_SIZE },
                             .generated = true };
            component_edit_all(&a->comps, a, &e);
        }
    assert_int_equal(cmd_exec("frames 1"), 0);
}

/* The texture follows the world's window, and its interior (every column
 * with its ring of 8 in the window; light reaches less than a column) is
 * what a whole bake of the window uploads. */
static void check_equals_whole_bake(app *a)
{
    world *w = a->w;
    light_shading ls;
    uint8_t *streamed = read_light(a, &ls, NULL);
    assert_int_equal(ls.origin[0], world_x0(w));
    assert_int_equal(ls.origin[2], world_z0(w));
    assert_int_equal(ls.slot[0], w->slot_x0 * CHUNK_SIZE);
    assert_int_equal(ls.slot[2], w->slot_z0 * CHUNK_SIZE);
    assert_int_equal(cmd_exec("light bake"), 0);
    light_shading lb;
    uint8_t *baked = read_light(a, &lb, NULL);
    assert_memory_equal(&ls, &lb, sizeof ls);
    /* every column whose ring of 8 is in the window: what is drawn (the
     * outermost ring never is), and what arrivals bake */
    long differ = 0, lit = 0;
    for (int z = world_z0(w); z < world_z0(w) + w->sz; z++)
        for (int y = 0; y < w->sy; y++)
            for (int x = world_x0(w); x < world_x0(w) + w->sx; x++) {
                if (!stream_meshable(w, x >> CHUNK_BITS, z >> CHUNK_BITS)) continue;
                size_t t = texel(&ls, x, y, z);
                differ += memcmp(streamed + 2 * t, baked + 2 * t, 2) != 0;
                lit += baked[2 * t] + baked[2 * t + 1] > 0;
            }
    assert_true(lit > 1000);
    assert_int_equal(differ, 0);
    free(streamed), free(baked);
}

static void test_moved_window_relit_as_columns_arrive(void **state)
{
    (void)state;
    app *a = open_app();
    world *w = a->w;
    uint8_t *saved = save_columns(w);
    const int moves[][2] = { { 2, 1 }, { 1, -1 } };
    for (int m = 0; m < 2; m++) {
        int ox = world_x0(w), oz = world_z0(w);
        assert_true(world_move(w, moves[m][0], moves[m][1]) > 0);
        /* a frame later the texture follows; the columns that entered are
         * dark until they arrive: their texels still hold the light of the
         * columns that left, which the shaders leave out */
        assert_int_equal(cmd_exec("frames 1"), 0);
        light_shading lm;
        uint8_t *raw, *moved = read_light(a, &lm, &raw);
        assert_int_equal(lm.origin[0], world_x0(w));
        long dark = 0, entering = 0, left = 0;
        for (int z = world_z0(w); z < world_z0(w) + w->sz; z++)
            for (int x = world_x0(w); x < world_x0(w) + w->sx; x++) {
                if (x >= ox && x < ox + w->sx && z >= oz && z < oz + w->sz) continue;
                for (int y = 0; y < w->sy; y++, entering++) {
                    size_t t = texel(&lm, x, y, z);
                    dark += moved[2 * t] + moved[2 * t + 1] == 0;
                    left += raw[2 * t] + raw[2 * t + 1] != 0;
                }
            }
        assert_true(entering > 0);
        assert_int_equal(dark, entering);
        print_message("%ld of %ld entering texels still hold the light of those that left\n", left, entering);
        assert_true(left > 1000); /* not cleared: left out */
        free(moved), free(raw);
        arrive_all(a, saved);
        check_equals_whole_bake(a);
    }
    free(saved);
    app_destroy(a);
}

/* A new world whose window holds no generated column yet (streaming's
 * start) is not baked: the volume starts dark and is lit as columns
 * arrive, ending where a whole bake would. */
static void test_empty_streamed_window_lit_as_columns_arrive(void **state)
{
    (void)state;
    app *a = open_app();
    world *w = a->w;
    uint8_t *saved = save_columns(w);
    assert_int_equal(world_move(w, -40, 25), w->cx * w->cz); /* every column empty */
    component_new_world_all(&a->comps, a, w);
    light_shading ls;
    uint8_t *dark = read_light(a, &ls, NULL);
    size_t n = (size_t)w->sx * w->sy * w->sz * 2, lit = 0;
    for (size_t i = 0; i < n; i++) lit += dark[i] != 0;
    assert_int_equal(lit, 0);
    assert_true(app_light_progress(a) < 0); /* no bake in flight, none done */
    assert_non_null(strstr(stdout_of("light stats"), "light_last=none\n"));
    free(dark);
    arrive_all(a, saved);
    assert_non_null(strstr(stdout_of("light stats"), "light_last=column\n"));
    check_equals_whole_bake(a);
    free(saved);
    app_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moved_window_relit_as_columns_arrive),
        cmocka_unit_test(test_empty_streamed_window_lit_as_columns_arrive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
