/* Streaming's edits on disk (voxel/stream.h): the stored chunks handed to
 * a save once each, paged out to a file and read back as their columns
 * stream in again, and the reading done on the workers, never the main
 * thread. The synthetic generator is stream_synth.h's. */
#include "test_support.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream_synth.h"

static void count_chunk(void *arg, int cx, int cy, int cz, const chunk *c)
{
    (void)cx, (void)cy, (void)cz, (void)c;
    (*(int *)arg)++;
}

/* Saves take the stored chunks that left the window unsaved, once; a
 * failed save marks them all unsaved again; a chunk loaded into the store
 * is saved already. */
static void test_stored_unsaved_taken_once(void **state)
{
    (void)state;
    world *w = window_for(64, 1);
    stream *s = stream_create(w, NULL, synth_column, NULL, 0, 1);
    stream_wait(s, 0, 0, 64);
    world_set(w, 1, 5, 1, MAT_AIR);   /* chunk 0,0,0 */
    world_set(w, -40, 5, 1, MAT_AIR); /* chunk -2,0,0 */
    int taken[8];
    assert_int_equal(world_take_unsaved(w, taken, 8), 2); /* a save took both */
    world_set(w, 1, 5, 1, MAT_SAND); /* and 0,0,0 changed again */
    assert_int_equal(w->unsaved_count, 1);
    stream_wait(s, 5000, 0, 64);
    stream_stats st = stream_get_stats(s);
    assert_int_equal(st.stored_chunks, 2);
    assert_int_equal(st.stored_unsaved, 1);
    int n = 0;
    assert_int_equal(stream_take_stored_unsaved(s, count_chunk, &n), 1);
    assert_int_equal(n, 1);
    assert_int_equal(stream_take_stored_unsaved(s, count_chunk, &n), 0);
    assert_int_equal(stream_get_stats(s).stored_unsaved, 0);
    stream_mark_stored_unsaved(s);
    assert_int_equal(stream_get_stats(s).stored_unsaved, 2);
    assert_int_equal(stream_take_stored_unsaved(s, count_chunk, &n), 2);
    /* loaded from a file: stored, not unsaved */
    uint8_t vox[CHUNK_VOLUME];
    memset(vox, MAT_STONE, sizeof vox);
    assert_true(stream_store_chunk(s, 300, 1, -7, vox, NULL));
    assert_int_equal(stream_get_stats(s).stored_unsaved, 0);
    /* a column regenerated alone equals the streamed one */
    world *col = world_create_at(156, 3, 1, w->cy, 1);
    assert_true(stream_generate_column(s, col, 156, 3));
    for (int y = 0; y < col->sy; y += 3)
        for (int z = 96; z < 128; z += 5)
            for (int x = 156 * 32; x < 157 * 32; x += 3) assert_int_equal(world_get(col, x, y, z), synth(x, y, z));
    assert_false(stream_generate_column(s, col, 157, 3)); /* not where the window is */
    world_destroy(col);
    stream_destroy(s);
    world_destroy(w);
}

/* A save file for paging: the chunks a save took, by coordinates. */
typedef struct fake_file {
    int n, calls, lose_cy; /* lose_cy >= 0: that layer's row is damaged */
    int cx[8], cy[8], cz[8];
    uint8_t vox[8][CHUNK_VOLUME];
    uint8_t tint[8][CHUNK_VOLUME];
    bool has_tint[8];
} fake_file;

static void fake_write(void *arg, int cx, int cy, int cz, const chunk *c)
{
    fake_file *f = arg;
    assert_true(f->n < 8);
    f->cx[f->n] = cx, f->cy[f->n] = cy, f->cz[f->n] = cz;
    memcpy(f->vox[f->n], c->vox, CHUNK_VOLUME);
    f->has_tint[f->n] = c->tint != NULL;
    if (c->tint) memcpy(f->tint[f->n], c->tint, CHUNK_VOLUME);
    f->n++;
}

static uint32_t fake_page_in(void *ctx, world *col, int cx, int cz, uint32_t layers, char *warn, size_t warnlen)
{
    (void)warn, (void)warnlen;
    fake_file *f = ctx;
    f->calls++;
    uint32_t got = 0;
    for (int i = 0; i < f->n; i++) {
        if (f->cx[i] != cx || f->cz[i] != cz || !(layers >> f->cy[i] & 1) || f->cy[i] == f->lose_cy) continue;
        chunk *dst = world_chunk(col, cx, f->cy[i], cz);
        memcpy(dst->vox, f->vox[i], CHUNK_VOLUME);
        if (f->has_tint[i]) {
            if (!dst->tint) dst->tint = malloc(CHUNK_VOLUME);
            memcpy(dst->tint, f->tint[i], CHUNK_VOLUME);
        }
        got |= 1u << f->cy[i];
    }
    return got;
}

/* Paging: stored chunks a save took leave memory (only their coordinates
 * stay), the unsaved one stays; flying back reads them through the pager
 * before the column is installed (edits there, flagged saved); the hash
 * of a column from afar sees them; a layer the pager cannot give back
 * regenerates; adopting keeps the paged chunks and the pager. */
static void test_paging_out_and_back(void **state)
{
    (void)state;
    fake_file f = { .lose_cy = -1 };
    world *w = window_for(64, 1), *scratch = world_create_at(0, 0, 1, 2, 1);
    stream *s = synth_stream(w, NULL);
    stream_set_pager(s, fake_page_in, &f);
    stream_wait(s, 0, 0, 64);
    /* the prints the workers took as they generated, for saves */
    world *gen = world_create_at(0, 0, 1, 2, 1);
    assert_true(stream_generate_column(s, gen, 0, 0));
    uint64_t fp0 = chunk_fingerprint(world_chunk(gen, 0, 0, 0)), fp1 = chunk_fingerprint(world_chunk(gen, 0, 1, 0));
    world_destroy(gen);
    assert_true(stream_generated_fingerprint(s, 0, 0, 0) == fp0);
    assert_true(stream_generated_fingerprint(s, 0, 1, 0) == fp1);
    world_set(w, 1, 5, 1, MAT_AIR);      /* chunk 0,0,0 */
    world_set(w, 2, 40, 3, MAT_STONE); /* chunk 0,1,0 */
    world_set_tint(w, 2, 40, 3, 5);
    uint64_t h_edit = HASH_SEED;
    assert_true(stream_hash_column(s, scratch, 0, 0, &h_edit));
    stream_wait(s, 5000, 0, 64);
    assert_true(stream_generated_fingerprint(s, 0, 1, 0) == fp1); /* stored: the print as generated, not as edited */
    assert_int_equal(stream_take_stored_unsaved(s, fake_write, &f), 2); /* the save */
    world_set(w, 5001, 5, 1, MAT_AIR);
    stream_wait(s, 10000, 0, 64); /* a third, unsaved, joins them */
    assert_int_equal(stream_page_out_saved(s), 2);
    stream_stats st = stream_get_stats(s);
    assert_int_equal(st.paged_chunks, 2);
    assert_int_equal(st.stored_chunks, 1);
    assert_int_equal(st.stored_unsaved, 1);
    assert_true(st.stored_bytes < sizeof(chunk) + CHUNK_VOLUME + 4096); /* the unsaved one's; the paged ones hold no voxels */
    uint64_t h = HASH_SEED;
    assert_true(stream_hash_column(s, scratch, 0, 0, &h));
    assert_true(h == h_edit);

    world *small = window_for(32, 1);
    stream *t = synth_stream(small, NULL);
    stream_adopt(t, s, 10000, 0);
    stream_destroy(s);
    world_destroy(w);
    assert_int_equal(stream_get_stats(t).paged_chunks, 2);
    int calls = f.calls;
    int unsaved = small->unsaved_count;
    stream_wait(t, 0, 0, 64);
    assert_int_equal(f.calls, calls + 1); /* one read for the column */
    assert_int_equal(world_get(small, 1, 5, 1), MAT_AIR);
    assert_int_equal(world_get(small, 2, 40, 3), MAT_STONE);
    assert_int_equal(world_get_tint(small, 2, 40, 3), 5);
    assert_int_equal(stream_get_stats(t).paged_chunks, 0);
    assert_int_equal(small->unsaved_count, unsaved); /* back from the file: saved */
    assert_true(small->edit[world_chunk_index(small, 0, 1, 0)] & WORLD_EDITED);

    /* the row of layer 1 is damaged: that chunk regenerates, layer 0 comes */
    stream_wait(t, 5000, 0, 64);
    stream_page_out_saved(t);
    assert_int_equal(stream_get_stats(t).paged_chunks, 2);
    f.lose_cy = 1;
    stream_wait(t, 0, 0, 64);
    assert_int_equal(world_get(small, 1, 5, 1), MAT_AIR);
    assert_int_equal(world_get(small, 2, 40, 3), synth(2, 40, 3));
    assert_int_equal(stream_get_stats(t).paged_chunks, 0);
    /* a loaded chunk of a column not ready is paged; of a ready one, not */
    assert_true(stream_mark_paged(t, 900, 0, 3));
    assert_false(stream_mark_paged(t, 0, 0, 0));
    assert_false(stream_mark_paged(t, 900, 2, 3)); /* no layer 2 */
    stream_destroy(t);
    world_destroy(small);
    world_destroy(scratch);
}

/* The generator of column (g_gate_cx, g_gate_cz) waits while the gate is
 * closed: a job the test holds in flight. */
static atomic_int g_gate_closed, g_gate_waiting;
static int g_gate_cx = 1000, g_gate_cz = 1000;

static bool gated_column(void *ctx, world *col, int cx, int cz)
{
    while (cx == g_gate_cx && cz == g_gate_cz && atomic_load(&g_gate_closed)) {
        atomic_store(&g_gate_waiting, 1);
        struct timespec t = { 0, 200000 };
        nanosleep(&t, NULL);
    }
    return synth_column(ctx, col, cx, cz);
}

/* A file of one chunk (0,0,0 of column gate) whose reads count where they ran. */
typedef struct thread_file {
    pthread_t main;
    atomic_int calls, on_main;
    uint8_t vox[CHUNK_VOLUME];
} thread_file;

static uint32_t thread_page_in(void *ctx, world *col, int cx, int cz, uint32_t layers, char *warn, size_t warnlen)
{
    (void)warn, (void)warnlen;
    thread_file *f = ctx;
    atomic_fetch_add(&f->calls, 1);
    if (pthread_equal(pthread_self(), f->main)) atomic_fetch_add(&f->on_main, 1);
    if (cx != g_gate_cx || cz != g_gate_cz || !(layers & 1)) return 0;
    memcpy(world_chunk(col, cx, 0, cz)->vox, f->vox, CHUNK_VOLUME);
    return 1;
}

/* Steps the stream at (x, z) until the gate column's job waits at the gate. */
static void hold_gate_in_flight(stream *s, double x, double z)
{
    atomic_store(&g_gate_waiting, 0);
    atomic_store(&g_gate_closed, 1);
    for (int i = 0; i < 200000 && !atomic_load(&g_gate_waiting); i++) {
        stream_update(s, x, z);
        struct timespec t = { 0, 100000 };
        nanosleep(&t, NULL);
    }
    assert_true(atomic_load(&g_gate_waiting));
}

/* Steps the stream at (x, z) until column gate is ready (the gate open). */
static void update_until_gate_ready(stream *s, double x, double z)
{
    for (int i = 0; i < 200000 && world_column_state(stream_world(s), g_gate_cx, g_gate_cz) != WORLD_COL_READY; i++) {
        stream_update(s, x, z);
        struct timespec t = { 0, 100000 };
        nanosleep(&t, NULL);
    }
    assert_int_equal(world_column_state(stream_world(s), g_gate_cx, g_gate_cz), WORLD_COL_READY);
}

/* Paged chunks are read back on the workers, never by the main thread
 * (which only installs finished columns). A stored chunk whose column is
 * generating stays in memory (page-out skips it: its job was given it from
 * memory, as a chunk still in the writer's queue is) and is restored from
 * there; a chunk paged after its column's job started (a load) makes the
 * column go again, read on a worker. */
static void test_page_in_on_the_workers(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    thread_file f = { .main = pthread_self() };
    for (int i = 0; i < CHUNK_VOLUME; i++) f.vox[i] = MAT_SAND;
    g_gate_cx = 0, g_gate_cz = 0;
    atomic_store(&g_gate_closed, 0);
    world *w = window_for(64, 1);
    stream *s = stream_create(w, jobs, gated_column, NULL, 0, 1);
    stream_set_pager(s, thread_page_in, &f);
    stream_wait(s, 0, 0, 64);
    world_set(w, 1, 5, 1, MAT_AIR); /* chunk 0,0,0 */
    stream_wait(s, 5000, 0, 64);
    assert_int_equal(stream_take_stored_unsaved(s, fake_write, &(fake_file){ .lose_cy = -1 }), 1); /* the save */

    /* its column comes back while the chunk is still in memory: held in flight */
    hold_gate_in_flight(s, 0, 0);
    assert_int_equal(stream_page_out_saved(s), 0); /* its job was given it from memory */
    assert_int_equal(stream_get_stats(s).stored_chunks, 1);
    atomic_store(&g_gate_closed, 0);
    update_until_gate_ready(s, 0, 0);
    assert_int_equal(world_get(w, 1, 5, 1), MAT_AIR);
    assert_int_equal(world_get(w, 2, 5, 1), synth(2, 5, 1));
    assert_int_equal(atomic_load(&f.calls), 0); /* from memory, not the file */

    /* paged, then read back on a worker */
    stream_wait(s, 5000, 0, 64);
    assert_int_equal(stream_page_out_saved(s), 1);
    assert_int_equal(stream_get_stats(s).paged_chunks, 1);
    stream_wait(s, 0, 0, 64);
    assert_int_equal(world_get(w, 1, 5, 1), MAT_SAND); /* the file's */
    assert_int_equal(atomic_load(&f.calls), 1);
    assert_int_equal(stream_get_stats(s).paged_in, 1);

    /* paged while its job runs (a load marks it): the column goes again */
    stream_wait(s, 5000, 0, 64);
    hold_gate_in_flight(s, 0, 0);
    assert_int_not_equal(world_column_state(w, 0, 0), WORLD_COL_READY);
    assert_true(stream_mark_paged(s, 0, 0, 0));
    atomic_store(&g_gate_closed, 0);
    update_until_gate_ready(s, 0, 0);
    assert_int_equal(world_get(w, 1, 5, 1), MAT_SAND);
    assert_int_equal(world_get(w, 1, 40, 1), synth(1, 40, 1));
    assert_true(stream_get_stats(s).page_in_redone >= 1);
    assert_int_equal(atomic_load(&f.calls), 2);

    assert_int_equal(atomic_load(&f.on_main), 0); /* never the main thread's */
    stream_destroy(s);
    world_destroy(w);
    job_pool_destroy(jobs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stored_unsaved_taken_once),
        cmocka_unit_test(test_paging_out_and_back),
        cmocka_unit_test(test_page_in_on_the_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
