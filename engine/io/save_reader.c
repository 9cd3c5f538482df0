/* save_reader: reads a slot's streamed rows on any thread, through
 * read-only SQLite connections of its own, so the stream's workers read
 * paged chunks back while the writer thread writes (the file is in WAL
 * mode: a reader sees the last commit, never a write in progress) and the
 * main thread never waits on the file for them. A connection is used by
 * one thread at a time: a worker takes one from the free list (opening it
 * the first time) and gives it back, so there are at most as many as
 * reads ever ran at once. Where a connection cannot be opened (a file
 * SQLite will not open read-only beside the writer), the read goes through
 * the writer thread as before: slower, still off the main thread. */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/save_internal.h"

typedef struct reader_conn {
    sqlite3 *db;
    sqlite3_stmt *column; /* SAVE_COLUMN_SQL, prepared once */
    struct reader_conn *next;
} reader_conn;

struct save_reader {
    save_file *f; /* for the fallback through the writer; must outlive the reader */
    char slot[64];
    bool has_table; /* the file has stream_chunks (fixed when it was opened) */
    pthread_mutex_t mu;
    reader_conn *free; /* idle connections */
    bool no_conn;      /* opening one failed: every read goes through the writer */
    long long reads, fallbacks;
};

save_reader *save_reader_open(save_file *f, const char *slot)
{
    if (!f || !slot || strlen(slot) >= sizeof((save_reader *)0)->slot) return NULL;
    save_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->f = f;
    snprintf(r->slot, sizeof r->slot, "%s", slot);
    r->has_table = f->has_stream_table;
    pthread_mutex_init(&r->mu, NULL);
    return r;
}

save_file *save_reader_file(const save_reader *r) { return r->f; }
const char *save_reader_slot(const save_reader *r) { return r->slot; }

static void conn_close(reader_conn *c)
{
    if (!c) return;
    sqlite3_finalize(c->column);
    sqlite3_close(c->db);
    free(c);
}

void save_reader_close(save_reader *r)
{
    if (!r) return;
    while (r->free) {
        reader_conn *c = r->free;
        r->free = c->next;
        conn_close(c);
    }
    pthread_mutex_destroy(&r->mu);
    free(r);
}

/* A connection of this thread's own until conn_put; NULL when none can be
 * opened (then the caller reads through the writer). */
static reader_conn *conn_take(save_reader *r)
{
    pthread_mutex_lock(&r->mu);
    reader_conn *c = r->free;
    if (c) r->free = c->next;
    bool no_conn = r->no_conn;
    pthread_mutex_unlock(&r->mu);
    if (c || no_conn) return c;
    c = calloc(1, sizeof *c);
    /* NOMUTEX: one thread at a time uses it (the free list hands it over
     * under the mutex), so SQLite's own lock per call is not needed */
    bool ok = c && save_db_open(r->f, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX) == SQLITE_OK;
    if (ok) sqlite3_busy_timeout(c->db, 5000); /* a WAL reader waits only while the file recovers */
    ok = ok && sqlite3_prepare_v2(c->db, SAVE_COLUMN_SQL, -1, &c->column, NULL) == SQLITE_OK;
    if (!ok) {
        conn_close(c);
        pthread_mutex_lock(&r->mu);
        r->no_conn = true;
        pthread_mutex_unlock(&r->mu);
        return NULL;
    }
    return c;
}

static void conn_put(save_reader *r, reader_conn *c)
{
    pthread_mutex_lock(&r->mu);
    c->next = r->free;
    r->free = c;
    pthread_mutex_unlock(&r->mu);
}

int save_reader_column(save_reader *r, int cx, int cz, save_stream_chunk_fn fn, void *user, char *err, size_t errlen)
{
    if (errlen) err[0] = 0;
    if (!r->has_table) return 0; /* a file no streamed world was ever saved to */
    reader_conn *c = conn_take(r);
    pthread_mutex_lock(&r->mu);
    r->reads++;
    r->fallbacks += c == NULL;
    pthread_mutex_unlock(&r->mu);
    if (!c) return save_read_stream_column(r->f, r->slot, cx, cz, fn, user, err, errlen);
    sqlite3_stmt *st = c->column;
    sqlite3_bind_text(st, 1, r->slot, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, cx);
    sqlite3_bind_int64(st, 3, cz);
    int rc, count = 0;
    bool ok = true;
    while (ok && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        char why[600] = "";
        if (!save_stream_row(st, fn, user, why, sizeof why)) {
            snprintf(err, errlen, "%s: slot '%s', %s", save_path(r->f), r->slot, why);
            ok = false;
        }
        count++;
    }
    if (ok && rc != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", save_path(r->f), sqlite3_errstr(rc));
        ok = false;
    }
    /* ends the read transaction: the next read sees the commits made since */
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    conn_put(r, c);
    return ok ? count : -1;
}

void save_reader_counts(save_reader *r, long long *reads, long long *fallbacks)
{
    pthread_mutex_lock(&r->mu);
    *reads = r->reads;
    *fallbacks = r->fallbacks;
    pthread_mutex_unlock(&r->mu);
}
