/* app_far_edits: the far rings' summaries of edited columns.
 *  - under random edits and undos over a window of 8 x 8 columns, the
 *    summaries are exactly the edited columns, each with the top voxel
 *    and its material at every voxel column, through many insertions and
 *    removals of the index;
 *  - every change is announced once for the column it touched;
 *  - forget(all) empties the set, forget(keep) leaves the summaries. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app_far_edits.h"
#include "core/rng.h"
#include "voxel/material.h"

#define N 8

typedef struct changes {
    int count[N][N];
} changes;

static void on_change(void *arg, int cx, int cz)
{
    changes *c = arg;
    assert_true(cx >= 0 && cx < N && cz >= 0 && cz < N);
    c->count[cz][cx]++;
}

/* The top voxel that is not air at (x, z), as the summary has it. */
static int top_at(const world *w, int x, int z)
{
    int y = w->sy - 1;
    while (y > 0 && world_get(w, x, y, z) == MAT_AIR) y--;
    return y;
}

static void check_set(const far_edit_set *s, const world *w)
{
    far_edits copy;
    far_edits_copy(s, &copy);
    int edited = 0;
    for (int cz = 0; cz < N; cz++)
        for (int cx = 0; cx < N; cx++) {
            bool ed = false;
            for (int cy = 0; cy < w->cy; cy++) ed |= w->edit[world_chunk_index(w, cx, cy, cz)] & WORLD_EDITED;
            edited += ed;
            int found = 0;
            for (int k = 0; k < copy.count; k++) {
                const far_edit *e = &copy.e[k];
                if (e->cx != cx || e->cz != cz) continue;
                found++;
                for (int v = 0; v < CHUNK_AREA; v++) {
                    int x = cx * CHUNK_SIZE + v % CHUNK_SIZE, z = cz * CHUNK_SIZE + v / CHUNK_SIZE;
                    assert_int_equal(e->top[v], top_at(w, x, z));
                    assert_int_equal(e->mat[v], world_get(w, x, e->top[v], z));
                }
            }
            assert_int_equal(found, ed ? 1 : 0);
        }
    assert_int_equal(copy.count, edited);
    assert_int_equal(far_edits_count(s), edited);
    free(copy.e);
}

static void test_random_edits(void **state)
{
    (void)state;
    world *w = world_create(N, 2, N);
    assert_non_null(w);
    for (int i = 0; i < w->cx * w->cz; i++) w->col_state[i] = WORLD_COL_READY;
    changes ch = { 0 };
    far_edit_set *s = far_edits_create(on_change, &ch);
    assert_non_null(s);
    rng r = rng_make(7);
    int takes = 0, drops = 0;
    for (int step = 0; step < 400; step++) {
        int cx = (int)((uint32_t)rng_next(&r) % N), cz = (int)((uint32_t)rng_next(&r) % N);
        changes before = ch;
        bool had = false;
        for (int cy = 0; cy < w->cy; cy++) had |= w->edit[world_chunk_index(w, cx, cy, cz)] & WORLD_EDITED;
        if ((uint32_t)rng_next(&r) % 3 == 0) {
            /* undone: the column's chunks as generated (air), unedited */
            for (int cy = 0; cy < w->cy; cy++) {
                int i = world_chunk_index(w, cx, cy, cz);
                memset(w->chunks[i].vox, 0, CHUNK_VOLUME);
                w->edit[i] = 0;
            }
            drops += had;
        } else {
            int x = cx * CHUNK_SIZE + (int)((uint32_t)rng_next(&r) % CHUNK_SIZE), z = cz * CHUNK_SIZE + (int)((uint32_t)rng_next(&r) % CHUNK_SIZE);
            int y = (int)((uint32_t)rng_next(&r) % (uint32_t)w->sy);
            assert_true(world_set(w, x, y, z, (uint8_t)(MAT_STONE + (uint32_t)rng_next(&r) % 3)));
            takes++;
        }
        far_edits_take(s, w, cx, cz);
        bool now = false;
        for (int cy = 0; cy < w->cy; cy++) now |= w->edit[world_chunk_index(w, cx, cy, cz)] & WORLD_EDITED;
        /* announced once when it has or had a summary, never otherwise */
        int want = (had || now) ? 1 : 0;
        for (int z = 0; z < N; z++)
            for (int x = 0; x < N; x++)
                assert_int_equal(ch.count[z][x] - before.count[z][x], x == cx && z == cz ? want : 0);
        if (step % 25 == 0) check_set(s, w);
    }
    check_set(s, w);
    printf("%d edits, %d columns undone, %d summaries at the end\n", takes, drops, far_edits_count(s));
    assert_true(drops > 20 && far_edits_count(s) > 10);
    far_edits_forget(s, NULL, false);
    check_set(s, w);
    far_edits_forget(s, NULL, true);
    assert_int_equal(far_edits_count(s), 0);
    far_edits_destroy(s);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_edits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
