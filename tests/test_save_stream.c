/* The world file of a streamed world: edited chunks stored by their
 * coordinates, from the window and from the stream's store, read back into
 * a fresh stream wherever its window is; a damaged row, or one whose
 * terrain fingerprint is off, regenerates alone. (The file itself, its
 * writer and its refusals: test_save.c.) */
#include "test_support.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/jobs.h"
#include "io/save.h"
#include "voxel/chunk_codec.h"
#include "voxel/material.h"
#include "voxel/stream.h"
#include "voxel/world.h"

/* The file with its write-ahead log and shared-memory index. */
static void remove_world_file(const char *path)
{
    char side[600];
    remove(path);
    snprintf(side, sizeof side, "%s-wal", path);
    remove(side);
    snprintf(side, sizeof side, "%s-shm", path);
    remove(side);
}

static uint8_t synth(int x, int y, int z)
{
    if (y < 12) return MAT_STONE;
    return ((x + 3) & 63) < 5 && ((z + 3) & 63) < 5 && y < 50 ? MAT_SAND : MAT_AIR;
}

static bool synth_column(void *ctx, world *col, int cx, int cz)
{
    (void)ctx;
    for (int y = 0; y < col->sy; y++)
        for (int z = cz * 32; z < cz * 32 + 32; z++)
            for (int x = cx * 32; x < cx * 32 + 32; x++) world_set(col, x, y, z, synth(x, y, z));
    return true;
}

static void exec_on(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_changes(db), 1);
    sqlite3_close(db);
}

/* The app's pager: the slot's rows through a reader of the file's own,
 * on the workers. */
static uint32_t page_in(void *ctx, world *column, int cx, int cz, uint32_t layers, char *warn, size_t warnlen)
{
    return save_reader_page_in(ctx, column, cx, cz, layers, warn, warnlen);
}

/* Edits by coordinates, from the window and from the stream's store, back
 * into a fresh stream; a damaged row and a row on other terrain are skipped
 * alone; a finite slot's chunks table is untouched. */
static void test_streamed_chunks_by_coordinates(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/test-save-stream-%d.strata", STRATA_BINARY_DIR, (int)getpid());
    remove_world_file(p);
    char note[1024], err[1024];
    job_pool *jobs = job_pool_create(2);
    int side = stream_window_columns(64, 32, 1);
    world *w = world_create(side, 2, side);
    stream *s = stream_create(w, jobs, synth_column, NULL, 0, 1);
    stream_wait(s, 0, 0, 64);
    world_set(w, 1, 5, 1, MAT_AIR);     /* chunk 0,0,0 */
    world_set(w, 1, 40, 1, MAT_STONE);  /* chunk 0,1,0 */
    world_set(w, -30, 5, -60, MAT_AIR); /* chunk -1,0,-2 */
    world_set_tint(w, -30, 5, -60, 4);
    stream_wait(s, 5000, -5000, 64); /* they leave the window, unsaved */
    world_set(w, 5000, 5, -5000, MAT_AIR); /* chunk 156,0,-157, in the window */
    assert_int_equal(stream_get_stats(s).stored_unsaved, 3);
    save_file *f = save_open(p, note, sizeof note, err, sizeof err);
    assert_non_null(f);
    save_begin(f, "hills", true);
    assert_int_equal(save_put_stream_unsaved(f, s, jobs), 4);
    assert_int_equal(stream_get_stats(s).stored_unsaved, 0);
    assert_int_equal(w->unsaved_count, 0);
    save_slot meta = { .name = "hills", .inputs = "i", .state = "s" };
    assert_true(save_wait(f, save_commit(f, &meta, true), err, sizeof err));
    /* nothing new: nothing written */
    save_begin(f, "hills", false);
    assert_int_equal(save_put_stream_unsaved(f, s, NULL), 0);
    assert_true(save_wait(f, save_commit(f, &meta, true), err, sizeof err));
    save_close(f);
    stream_destroy(s);

    /* every row back, the window elsewhere: resident at once, the rest paged
     * (coordinates only) and read from the file on arrival */
    s = stream_create(w, jobs, synth_column, NULL, 0, 1);
    stream_wait(s, 5000, -5000, 64);
    f = save_open(p, note, sizeof note, err, sizeof err);
    save_reader *r = save_reader_open(f, "hills");
    assert_non_null(r);
    stream_set_pager(s, page_in, r);
    int skipped = -1;
    assert_int_equal(save_load_stream(f, "hills", s, jobs, &skipped, err, sizeof err), 4);
    assert_int_equal(skipped, 0);
    assert_int_equal(stream_get_stats(s).paged_chunks, 3);
    assert_int_equal(stream_get_stats(s).stored_chunks, 0);
    assert_int_equal(world_get(w, 5000, 5, -5000), MAT_AIR);
    assert_int_equal(w->unsaved_count, 0); /* loaded edits are saved ones */
    stream_wait(s, 0, 0, 64);
    assert_int_equal(world_get(w, 1, 5, 1), MAT_AIR);
    assert_int_equal(world_get(w, 1, 40, 1), MAT_STONE);
    assert_int_equal(world_get(w, -30, 5, -60), MAT_AIR);
    assert_int_equal(world_get_tint(w, -30, 5, -60), 4);
    assert_int_equal(stream_get_stats(s).paged_chunks, 0);
    assert_int_equal(w->unsaved_count, 0);
    long long reads, fallbacks;
    save_reader_counts(r, &reads, &fallbacks);
    assert_true(reads >= 2); /* columns 0,0 and -1,-2 */
    assert_int_equal(fallbacks, 0); /* its own connections, not the writer's */
    stream_set_pager(s, NULL, NULL);
    save_reader_close(r);
    save_close(f);
    stream_destroy(s);

    /* one record damaged, one fingerprint off: those two regenerate */
    exec_on(p, "UPDATE stream_chunks SET data = x'0100deadbeef' WHERE cx=0 AND cy=0 AND cz=0");
    exec_on(p, "UPDATE stream_chunks SET gen_hash = gen_hash + 1 WHERE cx=0 AND cy=1 AND cz=0");
    s = stream_create(w, jobs, synth_column, NULL, 0, 1);
    stream_wait(s, 0, 0, 64);
    f = save_open(p, note, sizeof note, err, sizeof err);
    assert_int_equal(save_load_stream(f, "hills", s, NULL, &skipped, err, sizeof err), 2);
    assert_int_equal(skipped, 2);
    assert_int_equal(world_get(w, 1, 5, 1), synth(1, 5, 1));
    assert_int_equal(world_get(w, 1, 40, 1), synth(1, 40, 1));
    assert_int_equal(world_get(w, -30, 5, -60), MAT_AIR);
    /* a slot with no streamed rows, and a new slot, read as none */
    assert_int_equal(save_load_stream(f, "desert", s, NULL, &skipped, err, sizeof err), 0);
    /* a replacing save drops the slot's streamed rows too */
    save_begin(f, "hills", true);
    assert_true(save_wait(f, save_commit(f, &meta, true), err, sizeof err));
    assert_int_equal(save_load_stream(f, "hills", s, NULL, &skipped, err, sizeof err), 0);
    assert_int_equal(skipped, 0);
    save_close(f);
    stream_destroy(s);
    world_destroy(w);
    job_pool_destroy(jobs);
    remove_world_file(p);
}

/* A reader sees what is committed, whole, while the writer writes the
 * same row again: each read is one version or the next, never a mix or a
 * damaged row, and once the commit is on disk the next read has it (a
 * read holds no snapshot past itself). */
static void test_reader_reads_commits_whole(void **state)
{
    (void)state;
    char p[512], note[1024], err[1024];
    snprintf(p, sizeof p, "%s/test-save-reader-%d.strata", STRATA_BINARY_DIR, (int)getpid());
    remove_world_file(p);
    save_file *f = save_open(p, note, sizeof note, err, sizeof err);
    assert_non_null(f);
    save_slot meta = { .name = "hills", .inputs = "i", .state = "s" };
    uint8_t vox[CHUNK_VOLUME];
    chunk c = chunk_over(vox);
    memset(c.vox, MAT_STONE, CHUNK_VOLUME);
    save_begin(f, "hills", true);
    save_put_chunk_at(f, 3, 0, 4, 0, chunk_copy(&c));
    assert_true(save_wait(f, save_commit(f, &meta, true), err, sizeof err));
    save_reader *r = save_reader_open(f, "hills");
    assert_non_null(r);
    world *col = world_create_at(3, 4, 1, 2, 1);
    uint8_t prev = MAT_STONE;
    for (int k = 0; k < 40; k++) {
        uint8_t next = k % 2 ? MAT_STONE : MAT_SAND;
        memset(c.vox, next, CHUNK_VOLUME);
        save_begin(f, "hills", false);
        save_put_chunk_at(f, 3, 0, 4, 0, chunk_copy(&c));
        uint64_t t = save_commit(f, &meta, true); /* not waited for: the read races it */
        for (int pass = 0; pass < 2; pass++) {
            assert_true(synth_column(NULL, col, 3, 4));
            char warn[1024] = "";
            assert_int_equal(save_reader_page_in(r, col, 3, 4, 1u, warn, sizeof warn), 1u);
            assert_string_equal(warn, "");
            const chunk *got = world_chunk(col, 3, 0, 4);
            uint8_t m = got->vox[0];
            assert_true(m == prev || m == next);
            for (int i = 0; i < CHUNK_VOLUME; i++)
                if (got->vox[i] != m) fail_msg("read %d mixes two versions at voxel %d", k, i);
            if (pass == 0) assert_true(save_wait(f, t, err, sizeof err));
            else assert_int_equal(m, next); /* committed: seen */
        }
        prev = next;
    }
    long long reads, fallbacks;
    save_reader_counts(r, &reads, &fallbacks);
    assert_int_equal(reads, 80);
    assert_int_equal(fallbacks, 0);
    /* a row missing is named */
    char warn[1024] = "";
    assert_true(synth_column(NULL, col, 3, 4));
    assert_int_equal(save_reader_page_in(r, col, 3, 4, 2u, warn, sizeof warn), 0u);
    assert_non_null(strstr(warn, "chunk 3,1,4 of world 'hills' is not in"));
    world_destroy(col);
    save_reader_close(r);
    save_close(f);
    remove_world_file(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streamed_chunks_by_coordinates),
        cmocka_unit_test(test_reader_reads_commits_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
