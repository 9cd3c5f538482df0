/* realpath is X/Open, beyond the POSIX level the build asks for */
#define _XOPEN_SOURCE 700

/* The world file: chunk codec round trips and refusals, the writer thread,
 * foreign/damaged/newer/older/read-only files, disk full, crashes. A
 * streamed world's chunks by coordinates: test_save_stream.c. */
#include "test_support.h"

#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/jobs.h"
#include "core/timer.h"
#include "io/save.h"
#include "io/save_lock.h"
#include "voxel/chunk_codec.h"
#include "voxel/material.h"
#include "voxel/world.h"

static char g_dir[256];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "%s/test-save-%d", STRATA_BINARY_DIR, (int)getpid());
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", g_dir, g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", g_dir, g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *path_of(const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) & 3;
    snprintf(p[k], sizeof p[k], "%s/%s", g_dir, name);
    return p[k];
}

/* A chunk with layers, a few odd voxels and (optionally) tints: seeded so
 * every test chunk differs. */
static void make_chunk(chunk *c, unsigned seed, bool tinted)
{
    for (int y = 0; y < CHUNK_SIZE; y++)
        memset(c->vox + y * CHUNK_AREA, y < 10 ? MAT_STONE : y < 14 ? MAT_DIRT : MAT_AIR, CHUNK_AREA);
    unsigned r = seed * 2654435761u + 1;
    for (int i = 0; i < 200; i++) {
        r = r * 1103515245u + 12345u;
        c->vox[(r >> 8) % CHUNK_VOLUME] = (uint8_t)(1 + (r >> 20) % (MAT_COUNT - 1));
    }
    c->tint = NULL;
    if (tinted) {
        c->tint = calloc(CHUNK_VOLUME, 1);
        for (int i = 0; i < 300; i++) c->tint[(seed * 977 + (unsigned)i * 131) % CHUNK_VOLUME] = (uint8_t)(1 + i % 5);
    }
}

static bool chunk_equal(const chunk *a, const chunk *b)
{
    if (memcmp(a->vox, b->vox, CHUNK_VOLUME) != 0) return false;
    for (int i = 0; i < CHUNK_VOLUME; i++)
        if (chunk_tint(a, i) != chunk_tint(b, i)) return false;
    return true;
}

static void test_codec_round_trip(void **state)
{
    (void)state;
    chunk_codec *cc = chunk_codec_create();
    uint8_t *blob = malloc(chunk_codec_bound());
    char err[256];
    for (int t = 0; t < 2; t++) {
        uint8_t av[CHUNK_VOLUME], bv[CHUNK_VOLUME] = { 0 };
        chunk a = chunk_over(av), b = chunk_over(bv);
        make_chunk(&a, 7 + (unsigned)t, t == 1);
        size_t n = chunk_codec_encode(cc, &a, blob, chunk_codec_bound());
        assert_true(n > 2 && n < CHUNK_VOLUME / 4); /* layered chunks compress well */
        assert_true(chunk_codec_decode(cc, blob, n, &b, err, sizeof err));
        assert_true(chunk_equal(&a, &b));
        assert_true((b.tint != NULL) == (t == 1));
        free(a.tint);
        free(b.tint);
    }
    free(blob);
    chunk_codec_destroy(cc);
}

static void test_codec_refuses_damage(void **state)
{
    (void)state;
    chunk_codec *cc = chunk_codec_create();
    uint8_t *blob = malloc(chunk_codec_bound());
    uint8_t av[CHUNK_VOLUME], outv[CHUNK_VOLUME], keepv[CHUNK_VOLUME];
    chunk a = chunk_over(av), out = chunk_over(outv), keep = chunk_over(keepv);
    make_chunk(&a, 3, true);
    make_chunk(&out, 4, false);
    memcpy(keep.vox, out.vox, CHUNK_VOLUME);
    char err[256];
    size_t n = chunk_codec_encode(cc, &a, blob, chunk_codec_bound());
    /* every truncation is refused and leaves the target as it was */
    for (size_t len = 0; len < n; len += 1 + len / 4) {
        assert_false(chunk_codec_decode(cc, blob, len, &out, err, sizeof err));
        assert_true(err[0] != 0);
    }
    assert_memory_equal(out.vox, keep.vox, CHUNK_VOLUME);
    uint8_t saved = blob[0];
    blob[0] = 99; /* an encoding from the future */
    assert_false(chunk_codec_decode(cc, blob, n, &out, err, sizeof err));
    assert_non_null(strstr(err, "encoding 99"));
    blob[0] = saved;
    blob[1] = 0x80; /* unknown flag */
    assert_false(chunk_codec_decode(cc, blob, n, &out, err, sizeof err));
    blob[1] = 1;
    /* a material id this program does not know: refused, not drawn as garbage */
    a.vox[5] = 250;
    n = chunk_codec_encode(cc, &a, blob, chunk_codec_bound());
    assert_false(chunk_codec_decode(cc, blob, n, &out, err, sizeof err));
    assert_non_null(strstr(err, "material id 250"));
    a.vox[5] = MAT_AIR;
    a.tint[9] = 200;
    n = chunk_codec_encode(cc, &a, blob, chunk_codec_bound());
    assert_false(chunk_codec_decode(cc, blob, n, &out, err, sizeof err));
    assert_non_null(strstr(err, "tint 200"));
    free(a.tint);
    free(blob);
    chunk_codec_destroy(cc);
}

/* Saves `count` chunks of seed base into slot and waits. */
static void save_state(save_file *f, const char *slot, int count, unsigned base, const char *state)
{
    save_begin(f, slot, true);
    for (int i = 0; i < count; i++) {
        uint8_t cv[CHUNK_VOLUME];
        chunk c = chunk_over(cv);
        make_chunk(&c, base + (unsigned)i, i % 3 == 0);
        save_put_chunk(f, i * 2, chunk_copy(&c));
        free(c.tint);
    }
    save_slot meta = { .inputs = "generator 1\nworld.seed 5\n", .state = (char *)state, .gen_hash = 0x1234 };
    snprintf(meta.name, sizeof meta.name, "%s", slot);
    char err[512];
    uint64_t t = save_commit(f, &meta, true);
    assert_true(t > 0);
    assert_true(save_wait(f, t, err, sizeof err));
}

typedef struct check {
    chunk_codec *cc;
    unsigned base;
    int seen;
    bool ok;
} check;

static bool check_chunk(void *user, int index, const void *blob, size_t len, char *err, size_t errlen)
{
    check *k = user;
    uint8_t gotv[CHUNK_VOLUME] = { 0 }, wantv[CHUNK_VOLUME];
    chunk got = chunk_over(gotv), want = chunk_over(wantv);
    if (!chunk_codec_decode(k->cc, blob, len, &got, err, errlen)) return false;
    make_chunk(&want, k->base + (unsigned)(index / 2), (index / 2) % 3 == 0);
    if (index % 2 || !chunk_equal(&got, &want)) k->ok = false;
    k->seen++;
    free(got.tint);
    free(want.tint);
    return true;
}

/* Opens path and checks slot holds `count` chunks of seed base. */
static void expect_state(const char *path, const char *slot, int count, unsigned base, const char *state)
{
    char note[1024], err[1024];
    save_file *f = save_open(path, note, sizeof note, err, sizeof err);
    assert_non_null(f);
    assert_string_equal(note, "");
    char cur[64];
    assert_true(save_current_slot(f, cur, sizeof cur, err, sizeof err));
    assert_string_equal(cur, slot);
    save_slot *slots;
    int n = save_list_slots(f, &slots, err, sizeof err);
    assert_int_equal(n, 1);
    assert_string_equal(slots[0].name, slot);
    assert_string_equal(slots[0].state, state);
    assert_string_equal(slots[0].inputs, "generator 1\nworld.seed 5\n");
    assert_true(slots[0].gen_hash == 0x1234);
    save_slot_free(&slots[0]);
    free(slots);
    check k = { chunk_codec_create(), base, 0, true };
    assert_int_equal(save_read_chunks(f, slot, check_chunk, &k, err, sizeof err), count);
    assert_int_equal(k.seen, count);
    assert_true(k.ok);
    chunk_codec_destroy(k.cc);
    save_close(f);
}

static void test_round_trip_and_wal(void **state)
{
    (void)state;
    const char *p = path_of("deep/er/rt.strata"); /* folders are made */
    char note[1024], err[1024];
    save_file *f = save_open(p, note, sizeof note, err, sizeof err);
    assert_non_null(f);
    assert_false(save_readonly(f));
    save_state(f, "hills", 40, 100, "pos 1 2 3\nlook 4 5\n");
    /* a second, incremental save replaces chunks of the same index */
    save_state(f, "hills", 40, 500, "pos 7 8 9\nlook 0 0\n");
    save_close(f);
    expect_state(p, "hills", 40, 500, "pos 7 8 9\nlook 0 0\n");
    /* the file says what it is */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
    sqlite3_step(st);
    assert_int_equal(sqlite3_column_int(st, 0), SAVE_FORMAT_VERSION);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    if (n) assert_int_equal(fwrite(data, 1, n, fp), n);
    fclose(fp);
}

static char *read_all(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    *n = fread(b, 1, (size_t)len, fp);
    fclose(fp);
    return b;
}

/* The file at `name` (holding `orig`) is refused: moved aside intact,
 * the note names both, and a fresh world file takes its place. */
static void expect_moved_aside(const char *name, const void *orig, size_t n, const char *why)
{
    const char *p = path_of(name);
    char note[2048], err[1024];
    save_file *f = save_open(p, note, sizeof note, err, sizeof err);
    assert_non_null(f);
    assert_non_null(strstr(note, p));
    assert_non_null(strstr(note, why));
    const char *aside = strstr(note, "moved aside to ");
    assert_non_null(aside);
    char to[600];
    sscanf(aside + strlen("moved aside to "), "%599[^,]", to);
    size_t got_n;
    char *got = read_all(to, &got_n);
    assert_non_null(got);
    assert_int_equal(got_n, n);
    if (n) assert_memory_equal(got, orig, n);
    free(got);
    /* the fresh file works */
    save_state(f, "desert", 3, 9, "pos 0 0 0\nlook 0 0\n");
    save_close(f);
    expect_state(p, "desert", 3, 9, "pos 0 0 0\nlook 0 0\n");
}

static void test_foreign_files_moved_aside(void **state)
{
    (void)state;
    char random_bytes[5000];
    unsigned r = 99;
    for (size_t i = 0; i < sizeof random_bytes; i++) r = r * 1103515245u + 12345u, random_bytes[i] = (char)(r >> 16);
    write_bytes(path_of("random.strata"), random_bytes, sizeof random_bytes);
    expect_moved_aside("random.strata", random_bytes, sizeof random_bytes, "not a strata world");

    const char text[] = "set world.seed 3\n";
    write_bytes(path_of("text.strata"), text, sizeof text - 1);
    expect_moved_aside("text.strata", text, sizeof text - 1, "not a strata world");

    /* another program's SQLite database */
    sqlite3 *db;
    sqlite3_open(path_of("other.strata"), &db);
    sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES(42);", NULL, NULL, NULL);
    sqlite3_close(db);
    size_t n;
    char *orig = read_all(path_of("other.strata"), &n);
    expect_moved_aside("other.strata", orig, n, "another program");
    free(orig);

    /* a newer strata's file */
    char note[1024], err[1024];
    save_file *f = save_open(path_of("newer.strata"), note, sizeof note, err, sizeof err);
    save_state(f, "hills", 2, 1, "pos 0 0 0\nlook 0 0\n");
    save_close(f);
    sqlite3_open(path_of("newer.strata"), &db);
    sqlite3_exec(db, "PRAGMA user_version=99", NULL, NULL, NULL);
    sqlite3_close(db);
    orig = read_all(path_of("newer.strata"), &n);
    expect_moved_aside("newer.strata", orig, n, "format version 99");
    free(orig);

    /* a strata file cut short (a copy interrupted, a bad disk) */
    f = save_open(path_of("trunc.strata"), note, sizeof note, err, sizeof err);
    save_state(f, "hills", 60, 1, "pos 0 0 0\nlook 0 0\n");
    save_close(f);
    orig = read_all(path_of("trunc.strata"), &n);
    assert_true(n > 8192);
    write_bytes(path_of("trunc.strata"), orig, n / 2);
    expect_moved_aside("trunc.strata", orig, n / 2, "trunc.strata");
    free(orig);
}

static void test_empty_file_becomes_a_world(void **state)
{
    (void)state;
    write_bytes(path_of("empty.strata"), "", 0);
    char note[1024], err[1024];
    save_file *f = save_open(path_of("empty.strata"), note, sizeof note, err, sizeof err);
    assert_non_null(f); /* nothing to lose: it becomes the world */
    save_state(f, "taiga", 2, 3, "pos 0 0 0\nlook 0 0\n");
    save_close(f);
    expect_state(path_of("empty.strata"), "taiga", 2, 3, "pos 0 0 0\nlook 0 0\n");
}

static void test_older_format_migrated_with_backup(void **state)
{
    (void)state;
    /* format 1: no gen_hash column */
    sqlite3 *db;
    const char *p = path_of("old.strata");
    sqlite3_open(p, &db);
    assert_int_equal(sqlite3_exec(db,
                                  "PRAGMA application_id=1398035009; PRAGMA user_version=1;"
                                  "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                                  "CREATE TABLE slots(name TEXT PRIMARY KEY, inputs TEXT NOT NULL, state TEXT NOT "
                                  "NULL, saved_at REAL NOT NULL);"
                                  "CREATE TABLE chunks(slot TEXT NOT NULL, idx INTEGER NOT NULL, data BLOB NOT NULL,"
                                  " PRIMARY KEY(slot, idx)) WITHOUT ROWID;"
                                  "INSERT INTO slots VALUES('hills', 'generator 1', 'pos 1 1 1', 5);"
                                  "INSERT INTO meta VALUES('current', 'hills');",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    char note[2048], err[1024];
    save_file *f = save_open(p, note, sizeof note, err, sizeof err);
    assert_non_null(f);
    assert_non_null(strstr(note, "migrated from format 1"));
    const char *kept = strstr(note, "kept as ");
    assert_non_null(kept);
    char bak[600];
    sscanf(kept + strlen("kept as "), "%599[^)]", bak);
    save_slot *slots;
    assert_int_equal(save_list_slots(f, &slots, err, sizeof err), 1);
    assert_string_equal(slots[0].inputs, "generator 1");
    assert_true(slots[0].gen_hash == 0); /* format 1 did not record it */
    save_slot_free(&slots[0]);
    free(slots);
    save_close(f);
    /* the backup is the old file, still format 1 */
    sqlite3_open(bak, &db);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 1);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void test_read_only_kept(void **state)
{
    (void)state;
    const char *p = path_of("ro.strata");
    char note[1024], err[1024];
    save_file *f = save_open(p, note, sizeof note, err, sizeof err);
    save_state(f, "hills", 4, 20, "pos 1 1 1\nlook 0 0\n");
    save_close(f);
    chmod(p, 0444);
    f = save_open(p, note, sizeof note, err, sizeof err);
    assert_non_null(f);
    assert_true(save_readonly(f));
    save_begin(f, "hills", true);
    save_slot meta = { .name = "hills", .inputs = "x", .state = "y" };
    uint64_t t = save_commit(f, &meta, true);
    assert_false(save_wait(f, t, err, sizeof err));
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, "last complete save is kept"));
    save_close(f);
    chmod(p, 0644);
    expect_state(p, "hills", 4, 20, "pos 1 1 1\nlook 0 0\n");
    /* a folder is not a world */
    mkdir(path_of("dir.strata"), 0755);
    assert_null(save_open(path_of("dir.strata"), note, sizeof note, err, sizeof err));
    assert_non_null(strstr(err, "not a regular file"));
}

/* The reason a second open of a held world gives, naming the holder. */
static void expect_held_by(save_file *f, long pid)
{
    char want[96];
    snprintf(want, sizeof want, "in use by another strata (pid %ld)", pid);
    assert_non_null(f);
    assert_true(save_readonly(f));
    assert_string_equal(save_readonly_why(f), want);
}

/* One writer per file: a second open while the first holds the world is
 * read-only and names the holder; its save fails and writes nothing. The
 * lock goes with a close, and with a process killed while holding it. */
static void test_one_writer_per_file(void **state)
{
    (void)state;
    const char *p = path_of("held.strata");
    char note[1024], err[1024];
    save_file *a = save_open(p, note, sizeof note, err, sizeof err);
    assert_non_null(a);
    assert_false(save_readonly(a));
    save_state(a, "hills", 4, 20, "pos 1 1 1\nlook 0 0\n");
    save_file *b = save_open(p, note, sizeof note, err, sizeof err);
    expect_held_by(b, (long)getpid());
    save_begin(b, "hills", true);
    save_slot meta = { .name = "hills", .inputs = "x", .state = "y" };
    assert_false(save_wait(b, save_commit(b, &meta, true), err, sizeof err));
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, "in use by another strata"));
    save_close(b);
    save_close(a);
    expect_state(p, "hills", 4, 20, "pos 1 1 1\nlook 0 0\n"); /* opens for writing again */

    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(pipefd[0]);
        save_file *f = save_open(p, note, sizeof note, err, sizeof err);
        if (write(pipefd[1], f && !save_readonly(f) ? "A" : "B", 1) != 1) _exit(2);
        pause(); /* holds the world until killed */
        _exit(0);
    }
    close(pipefd[1]);
    char c = 0;
    assert_int_equal(read(pipefd[0], &c, 1), 1);
    close(pipefd[0]);
    assert_int_equal(c, 'A');
    b = save_open(p, note, sizeof note, err, sizeof err);
    expect_held_by(b, (long)pid);
    save_close(b);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    a = save_open(p, note, sizeof note, err, sizeof err);
    assert_non_null(a);
    assert_false(save_readonly(a));
    save_close(a);
    expect_state(p, "hills", 4, 20, "pos 1 1 1\nlook 0 0\n");
}

/* A lock file another user left behind (a game once run with sudo) cannot
 * be written, but it can still be locked: the world must not stay
 * read-only for good. Run as another user when we are root (root may write
 * anything), else with the file made read-only for us. */
static void test_foreign_lock_file(void **state)
{
    (void)state;
    const char *w = path_of("foreign.strata");
    char real[PATH_MAX], lock[PATH_MAX + 64];
    assert_non_null(realpath(g_dir, real));
    snprintf(lock, sizeof lock, "%s/foreign.strata.lock", real);
    FILE *f = fopen(lock, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(chmod(lock, 0444), 0);
    assert_int_equal(chmod(g_dir, 0777), 0);
    pid_t pid = fork();
    if (pid == 0) {
        if (getuid() == 0 && setuid(65534) != 0) _exit(3);
        save_lock l, l2;
        long holder;
        char err[1024];
        if (save_lock_take(&l, w, &holder, err, sizeof err) != SAVE_LOCK_TAKEN) {
            fprintf(stderr, "foreign lock file: %s\n", err);
            _exit(1);
        }
        save_lock_result again = save_lock_take(&l2, w, &holder, err, sizeof err); /* and it guards */
        save_lock_release(&l);
        _exit(again == SAVE_LOCK_HELD ? 0 : 2);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* Disk full: the file may not grow past a limit (RLIMIT_FSIZE, in a child
 * so the limit stays there). The failed save says so; the last one loads. */
static void test_disk_full_keeps_last_save(void **state)
{
    (void)state;
    const char *p = path_of("full.strata");
    pid_t pid = fork();
    if (pid == 0) {
        char note[1024], err[1024];
        save_file *f = save_open(p, note, sizeof note, err, sizeof err);
        save_state(f, "hills", 5, 40, "pos 2 2 2\nlook 0 0\n");
        signal(SIGXFSZ, SIG_IGN); /* the write fails with EFBIG instead */
        struct rlimit rl = { 64 * 1024, 64 * 1024 };
        setrlimit(RLIMIT_FSIZE, &rl);
        save_begin(f, "hills", true);
        for (int i = 0; i < 400; i++) {
            uint8_t cv[CHUNK_VOLUME];
            chunk c = chunk_over(cv);
            make_chunk(&c, 7000 + (unsigned)i, true);
            save_put_chunk(f, i * 2, chunk_copy(&c));
            free(c.tint);
        }
        save_slot meta = { .name = "hills", .inputs = "generator 1\nworld.seed 5\n", .state = "pos 9 9 9\n" };
        uint64_t t = save_commit(f, &meta, true);
        bool ok = save_wait(f, t, err, sizeof err);
        save_close(f);
        _exit(!ok && strstr(err, "failed") && strstr(err, p) ? 0 : 3);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    expect_state(p, "hills", 5, 40, "pos 2 2 2\nlook 0 0\n");
}

/* kill -9 in the middle of a long save: the file holds the last complete
 * save, whole, never a mix. Killed at several moments. */
static void test_kill_during_save(void **state)
{
    (void)state;
    const char *p = path_of("kill.strata");
    for (int round = 0; round < 4; round++) {
        unlink(p);
        int pipefd[2];
        assert_int_equal(pipe(pipefd), 0);
        pid_t pid = fork();
        if (pid == 0) {
            close(pipefd[0]);
            char note[1024], err[1024];
            save_file *f = save_open(p, note, sizeof note, err, sizeof err);
            save_state(f, "hills", 30, 1, "pos 1 1 1\nlook 0 0\n");
            if (write(pipefd[1], "A", 1) != 1) _exit(2);
            for (unsigned k = 2;; k++) { /* saves forever: B, C, ... each 300 chunks */
                save_begin(f, "hills", true);
                for (int i = 0; i < 300; i++) {
                    uint8_t cv[CHUNK_VOLUME];
                    chunk c = chunk_over(cv);
                    make_chunk(&c, k * 1000 + (unsigned)i, i % 3 == 0);
                    save_put_chunk(f, i * 2, chunk_copy(&c));
                    free(c.tint);
                }
                char st[64];
                snprintf(st, sizeof st, "k %u", k);
                save_slot meta = { .name = "hills", .inputs = "generator 1\nworld.seed 5\n", .state = st,
                                   .gen_hash = 0x1234 };
                save_wait(f, save_commit(f, &meta, true), err, sizeof err);
            }
        }
        close(pipefd[1]);
        char c;
        assert_int_equal(read(pipefd[0], &c, 1), 1);
        close(pipefd[0]);
        struct timespec ts = { 0, 20000000L + round * 70000000L };
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        /* whatever save completed last is there, whole */
        char note[1024], err[1024];
        save_file *f = save_open(p, note, sizeof note, err, sizeof err);
        assert_non_null(f);
        assert_string_equal(note, "");
        save_slot *slots;
        assert_int_equal(save_list_slots(f, &slots, err, sizeof err), 1);
        unsigned k = 1;
        if (strncmp(slots[0].state, "k ", 2) == 0) k = (unsigned)atoi(slots[0].state + 2);
        save_slot_free(&slots[0]);
        free(slots);
        check chk = { chunk_codec_create(), k == 1 ? 1 : k * 1000, 0, true };
        int n = save_read_chunks(f, "hills", check_chunk, &chk, err, sizeof err);
        assert_int_equal(n, k == 1 ? 30 : 300);
        assert_true(chk.ok);
        chunk_codec_destroy(chk.cc);
        save_close(f);
    }
}

/* The main thread never waits on disk: with the file locked by another
 * connection (the writer stuck in its busy wait), queueing a save of 1000
 * chunks and its commit returns at once. */
static void test_queueing_never_waits(void **state)
{
    (void)state;
    const char *p = path_of("busy.strata");
    char note[1024], err[1024];
    save_file *f = save_open(p, note, sizeof note, err, sizeof err);
    save_state(f, "hills", 1, 1, "pos 0 0 0\nlook 0 0\n");
    sqlite3 *db;
    sqlite3_open(p, &db);
    assert_int_equal(sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    uint8_t cv[CHUNK_VOLUME];
    chunk c = chunk_over(cv);
    make_chunk(&c, 1, true);
    uint64_t t0 = timer_ns();
    save_begin(f, "hills", false);
    for (int i = 0; i < 1000; i++) save_put_chunk(f, i, chunk_copy(&c));
    save_slot meta = { .name = "hills", .inputs = "i", .state = "s" };
    uint64_t t = save_commit(f, &meta, true);
    double ms = (double)(timer_ns() - t0) / 1e6;
    bool failed;
    assert_true(save_poll(f, &failed, err, sizeof err) < t); /* still waiting for the lock */
    assert_true(save_pending(f) == 1);
    assert_true(ms < 1000.0); /* the busy wait is 2 s: we did not sit in it */
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
    save_wait(f, t, err, sizeof err); /* done or failed busy: either way it ends */
    free(c.tint);
    save_close(f);
}

/* Chunks queued by reference: edits go on while the writer reads, the world
 * is released and destroyed before the commit lands (ASan watches), and
 * the file gets every chunk whole. */
static void test_live_chunks_and_release(void **state)
{
    (void)state;
    const char *p = path_of("live.strata");
    char note[1024], err[1024];
    save_file *f = save_open(p, note, sizeof note, err, sizeof err);
    world *w = world_create(8, 2, 8);
    for (int i = 0; i < w->chunk_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, i, &cx, &cy, &cz);
        world_set(w, cx * 32 + 1, cy * 32 + 2, cz * 32 + 3, MAT_STONE);
        world_set_tint(w, cx * 32 + 1, cy * 32 + 2, cz * 32 + 3, 3);
    }
    assert_int_equal(w->unsaved_count, w->chunk_count);
    assert_int_equal(world_count_edited(w), w->chunk_count);
    save_begin(f, "hills", true);
    assert_int_equal(save_put_unsaved(f, w, w->chunk_count), w->chunk_count);
    assert_int_equal(w->unsaved_count, 0);
    for (int k = 0; k < 2000; k++) world_set(w, k % 256, 40, (k * 7) % 256, (uint8_t)(k % 2 ? MAT_SAND : MAT_AIR));
    save_slot meta = { .name = "hills", .inputs = "i", .state = "s" };
    uint64_t t = save_commit(f, &meta, true);
    save_release_world(f, w);
    assert_null(w->guard);
    world_destroy(w);
    assert_true(save_wait(f, t, err, sizeof err));
    world *back = world_create(8, 2, 8);
    assert_int_equal(save_load_chunks(f, "hills", back, NULL, err, sizeof err), 128);
    assert_int_equal(back->unsaved_count, 0);
    assert_int_equal(world_count_edited(back), 128);
    for (int i = 0; i < back->chunk_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(back, i, &cx, &cy, &cz);
        assert_int_equal(world_get(back, cx * 32 + 1, cy * 32 + 2, cz * 32 + 3), MAT_STONE);
        assert_int_equal(world_get_tint(back, cx * 32 + 1, cy * 32 + 2, cz * 32 + 3), 3);
    }
    /* a record that does not fit the world is refused, the world untouched */
    world *tiny = world_create(1, 1, 1);
    uint64_t h = world_hash(tiny);
    assert_int_equal(save_load_chunks(f, "hills", tiny, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "outside"));
    assert_true(world_hash(tiny) == h);
    world_destroy(tiny);
    world_destroy(back);
    save_close(f);
}

/* ---- streamed worlds ---- */

/* Ground with pillars, a pure function of the voxel: the stream's generator. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codec_round_trip),
        cmocka_unit_test(test_codec_refuses_damage),
        cmocka_unit_test_setup_teardown(test_round_trip_and_wal, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_foreign_files_moved_aside, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_empty_file_becomes_a_world, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_older_format_migrated_with_backup, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_read_only_kept, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_one_writer_per_file, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_foreign_lock_file, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_disk_full_keeps_last_save, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_kill_during_save, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_queueing_never_waits, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_live_chunks_and_release, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
