/* save_read: the queries of a world file (its slots, the current one, a
 * slot's chunks), each run on the writer thread, which alone touches the
 * SQLite connection, while the caller waits (save_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/save_internal.h"

typedef struct list_arg {
    save_slot *slots;
    int count;
} list_arg;

static char *dup_col(sqlite3_stmt *st, int i)
{
    const char *s = (const char *)sqlite3_column_text(st, i);
    return strdup(s ? s : "");
}

static bool list_on_writer(save_file *f, void *arg, char *err, size_t errlen)
{
    char why[400];
    list_arg *la = arg;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(f->db, "SELECT name, inputs, state, saved_at, gen_hash FROM slots ORDER BY name", -1, &st,
                           NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", f->path, save_db_why(f, f->db, 0, why, sizeof why));
        return false;
    }
    int rc, cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (la->count == cap) {
            cap = cap ? cap * 2 : 8;
            save_slot *n = realloc(la->slots, sizeof *n * (size_t)cap);
            if (!n) break;
            la->slots = n;
        }
        save_slot *s = &la->slots[la->count++];
        memset(s, 0, sizeof *s);
        const char *name = (const char *)sqlite3_column_text(st, 0);
        snprintf(s->name, sizeof s->name, "%s", name ? name : "");
        s->inputs = dup_col(st, 1);
        s->state = dup_col(st, 2);
        s->saved_at = sqlite3_column_double(st, 3);
        const char *h = (const char *)sqlite3_column_text(st, 4);
        s->gen_hash = h ? strtoull(h, NULL, 16) : 0;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", f->path, save_db_why(f, f->db, rc, why, sizeof why));
        return false;
    }
    return true;
}

int save_list_slots(save_file *f, save_slot **out, char *err, size_t errlen)
{
    list_arg la = { 0 };
    if (!save_run_sync(f, OP_CALL, list_on_writer, &la, err, errlen)) {
        for (int i = 0; i < la.count; i++) save_slot_free(&la.slots[i]);
        free(la.slots);
        if (!err[0]) snprintf(err, errlen, "%s is not open", f->path);
        return -1;
    }
    *out = la.slots;
    return la.count;
}

typedef struct current_arg {
    char *name;
    size_t len;
} current_arg;

static bool current_on_writer(save_file *f, void *arg, char *err, size_t errlen)
{
    char why[400];
    current_arg *ca = arg;
    sqlite3_stmt *st;
    ca->name[0] = 0;
    if (sqlite3_prepare_v2(f->db, "SELECT value FROM meta WHERE key='current'", -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", f->path, save_db_why(f, f->db, 0, why, sizeof why));
        return false;
    }
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        snprintf(ca->name, ca->len, "%s", v ? v : "");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", f->path, save_db_why(f, f->db, rc, why, sizeof why));
        return false;
    }
    return true;
}

bool save_current_slot(save_file *f, char *name, size_t len, char *err, size_t errlen)
{
    current_arg ca = { name, len };
    return save_run_sync(f, OP_CALL, current_on_writer, &ca, err, errlen);
}

/* Runs `sql` (parameters: the slot, then `ints` more integers) and hands
 * each row to fn on the writer; fn says what is wrong with a row in err
 * (naming it) to stop. */
typedef bool (*row_fn)(sqlite3_stmt *st, void *arg, char *err, size_t errlen);

typedef struct rows_arg {
    const char *sql, *slot;
    row_fn fn;
    void *arg;
    int count;
    int ints, in[2];
} rows_arg;

static bool rows_on_writer(save_file *f, void *arg, char *err, size_t errlen)
{
    char why[600] = "";
    rows_arg *ra = arg;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(f->db, ra->sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", f->path, save_db_why(f, f->db, 0, why, sizeof why));
        return false;
    }
    sqlite3_bind_text(st, 1, ra->slot, -1, SQLITE_STATIC);
    for (int i = 0; i < ra->ints; i++) sqlite3_bind_int64(st, 2 + i, ra->in[i]);
    int rc;
    bool ok = true;
    while (ok && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!ra->fn(st, ra->arg, why, sizeof why)) {
            snprintf(err, errlen, "%s: slot '%s', %s", f->path, ra->slot, why);
            ok = false;
        }
        ra->count++;
    }
    if (ok && rc != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", f->path, save_db_why(f, f->db, rc, why, sizeof why));
        ok = false;
    }
    sqlite3_finalize(st);
    return ok;
}

static int read_rows(save_file *f, const char *sql, const char *slot, row_fn fn, void *arg, char *err, size_t errlen)
{
    rows_arg ra = { sql, slot, fn, arg, 0, 0, { 0, 0 } };
    if (!save_run_sync(f, OP_CALL, rows_on_writer, &ra, err, errlen)) return -1;
    return ra.count;
}

typedef struct chunks_arg {
    save_chunk_fn fn;
    void *user;
} chunks_arg;

static bool chunk_row(sqlite3_stmt *st, void *arg, char *err, size_t errlen)
{
    chunks_arg *ca = arg;
    long long idx = sqlite3_column_int64(st, 0);
    const void *blob = sqlite3_column_blob(st, 1);
    int n = sqlite3_column_bytes(st, 1);
    char why[400] = "";
    if (idx < 0 || idx > 1 << 24 || !ca->fn(ca->user, (int)idx, blob, (size_t)(n > 0 ? n : 0), why, sizeof why)) {
        snprintf(err, errlen, "chunk %lld: %s", idx, why[0] ? why : "index out of range");
        return false;
    }
    return true;
}

int save_read_chunks(save_file *f, const char *slot, save_chunk_fn fn, void *user, char *err, size_t errlen)
{
    chunks_arg ca = { fn, user };
    return read_rows(f, "SELECT idx, data FROM chunks WHERE slot=? ORDER BY idx", slot, chunk_row, &ca, err, errlen);
}

typedef struct stream_rows_arg {
    save_stream_chunk_fn fn;
    void *user;
} stream_rows_arg;

bool save_stream_row(sqlite3_stmt *st, save_stream_chunk_fn fn, void *user, char *err, size_t errlen)
{
    long long c[3];
    for (int i = 0; i < 3; i++) c[i] = sqlite3_column_int64(st, i);
    uint64_t gen_hash = (uint64_t)sqlite3_column_int64(st, 3);
    const void *blob = sqlite3_column_blob(st, 4);
    int n = sqlite3_column_bytes(st, 4);
    bool in_range = true; /* a row whose coordinates are not a chunk's is damaged like a blob */
    for (int i = 0; i < 3; i++) in_range = in_range && c[i] >= -(1LL << 31) && c[i] < (1LL << 31);
    if (!in_range) n = 0, blob = NULL;
    char why[400] = "";
    if (!fn(user, (int)c[0], (int)c[1], (int)c[2], gen_hash, blob, (size_t)(n > 0 ? n : 0), why, sizeof why)) {
        snprintf(err, errlen, "chunk %lld,%lld,%lld: %s", c[0], c[1], c[2], why);
        return false;
    }
    return true;
}

static bool stream_row(sqlite3_stmt *st, void *arg, char *err, size_t errlen)
{
    stream_rows_arg *ra = arg;
    return save_stream_row(st, ra->fn, ra->user, err, errlen);
}

int save_read_stream_chunks(save_file *f, const char *slot, save_stream_chunk_fn fn, void *user, char *err,
                            size_t errlen)
{
    if (!f->has_stream_table) return 0; /* a file no streamed world was ever saved to */
    stream_rows_arg ra = { fn, user };
    return read_rows(f, "SELECT cx, cy, cz, gen_hash, data FROM stream_chunks WHERE slot=? ORDER BY cx, cz, cy", slot,
                     stream_row, &ra, err, errlen);
}

int save_read_stream_column(save_file *f, const char *slot, int cx, int cz, save_stream_chunk_fn fn, void *user,
                            char *err, size_t errlen)
{
    if (!f->has_stream_table) return 0;
    stream_rows_arg sa = { fn, user };
    /* the primary key (slot, cx, cz, cy) finds the column's few rows */
    rows_arg ra = { SAVE_COLUMN_SQL, slot, stream_row, &sa, 0, 2, { cx, cz } };
    if (!save_run_sync(f, OP_CALL, rows_on_writer, &ra, err, errlen)) return -1;
    return ra.count;
}
