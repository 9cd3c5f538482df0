#include "io/save.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/hash.h"
#include "io/save_fs.h"
#include "io/save_internal.h"
#include "core/jobs.h"
#include "voxel/chunk_codec.h"
#include "voxel/world.h"

void save_slot_free(save_slot *s)
{
    if (!s) return;
    free(s->inputs);
    free(s->state);
    s->inputs = s->state = NULL;
}

const char *save_path(const save_file *f) { return f->path; }
bool save_readonly(const save_file *f) { return f->readonly; }
const char *save_readonly_why(const save_file *f) { return f->readonly ? f->readonly_why : ""; }
const char *save_moved_aside(const save_file *f) { return f->aside[0] ? f->aside : NULL; }

/* ---- the queue ---------------------------------------------------------- */

/* Returns the op's ticket (commits): read under the lock, because once it
 * is unlocked the writer may run the op and free it. */
static uint64_t push(save_file *f, op *o)
{
    pthread_mutex_lock(&f->mu);
    o->next = NULL;
    if (f->tail) f->tail->next = o;
    else f->head = o;
    f->tail = o;
    uint64_t ticket = 0;
    if (o->kind == OP_COMMIT) ticket = o->ticket = ++f->next_ticket;
    pthread_cond_signal(&f->wake);
    pthread_mutex_unlock(&f->mu);
    return ticket;
}

bool save_run_sync(save_file *f, op_kind kind, op_call_fn fn, void *arg, char *err, size_t errlen)
{
    op o = { .kind = kind, .call = fn, .arg = arg, .err = err, .errlen = errlen };
    if (errlen) err[0] = 0;
    push(f, &o);
    pthread_mutex_lock(&f->mu);
    while (!o.done) pthread_cond_wait(&f->done, &f->mu);
    pthread_mutex_unlock(&f->mu);
    return o.ok;
}

/* ---- writer-side helpers ------------------------------------------------- */

const char *save_db_why(const save_file *f, sqlite3 *db, int rc, char *buf, size_t len)
{
    int code = (rc ? rc : db ? sqlite3_extended_errcode(db) : SQLITE_NOMEM) & 0xff;
    const char *text = rc || !db ? sqlite3_errstr(rc ? rc : SQLITE_NOMEM) : sqlite3_errmsg(db);
    /* below a few pages SQLite cannot grow its WAL or index: what fails is "disk I/O" */
    long long room = code == SQLITE_FULL || code == SQLITE_IOERR || code == SQLITE_CANTOPEN ? save_fs_free_bytes(f->path)
                                                                                           : -1;
    if (room >= 0 && (code == SQLITE_FULL || room < 256 * 1024))
        snprintf(buf, len, "the disk is full (%lld KiB free; SQLite says: %s)", room / 1024, text);
    else snprintf(buf, len, "%s", text);
    return buf;
}

static bool exec_sql(save_file *f, const char *sql, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(f->db, sql, NULL, NULL, &msg) == SQLITE_OK) return true;
    char why[400];
    snprintf(err, errlen, "%s: %s", f->path, save_db_why(f, f->db, 0, why, sizeof why));
    sqlite3_free(msg);
    return false;
}

/* Single integer result of a PRAGMA or query; rc is SQLite's code. */
static int query_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        *out = 0;
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

static const char k_schema_v2[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE slots(name TEXT PRIMARY KEY, inputs TEXT NOT NULL, state TEXT NOT NULL,"
    " saved_at REAL NOT NULL, gen_hash TEXT);"
    "CREATE TABLE chunks(slot TEXT NOT NULL, idx INTEGER NOT NULL, data BLOB NOT NULL,"
    " PRIMARY KEY(slot, idx)) WITHOUT ROWID;";

/* Streamed worlds' chunks, keyed by global chunk coordinates (a chunk
 * index is a slot of the moving window, not a place). Added to format 2
 * files as they open for writing, without a new format number: older
 * programs ignore the table and refuse the slots that use it (their inputs
 * name world.stream), so a finite world's file stays what it was. */
static const char k_schema_stream[] =
    "CREATE TABLE IF NOT EXISTS stream_chunks(slot TEXT NOT NULL, cx INTEGER NOT NULL, cy INTEGER NOT NULL,"
    " cz INTEGER NOT NULL, data BLOB NOT NULL, gen_hash INTEGER NOT NULL,"
    " PRIMARY KEY(slot, cx, cz, cy)) WITHOUT ROWID;";

/* Format 1 had no gen_hash: its worlds load by generator version alone. */
static const char k_migrate_1_to_2[] = "ALTER TABLE slots ADD COLUMN gen_hash TEXT;";

typedef enum verdict { V_OK, V_EMPTY, V_OLDER, V_UNUSABLE, V_ERROR } verdict;

/* What the open file is. V_UNUSABLE and V_ERROR say why in err; only
 * V_UNUSABLE (foreign, newer, corrupt) may be moved aside: V_ERROR (busy,
 * I/O) is a problem of the moment, not of the file. */
static verdict classify(save_file *f, long long *version, char *err, size_t errlen)
{
    long long app = 0, tables = 0;
    int rc = query_int(f->db, "PRAGMA application_id", &app);
    if (rc == SQLITE_OK) rc = query_int(f->db, "PRAGMA user_version", version);
    if (rc == SQLITE_OK) rc = query_int(f->db, "SELECT count(*) FROM sqlite_master", &tables);
    if (rc == SQLITE_NOTADB) {
        snprintf(err, errlen, "%s is not a strata world (not an SQLite database)", f->path);
        return V_UNUSABLE;
    }
    if (rc == SQLITE_CORRUPT) {
        snprintf(err, errlen, "%s is damaged (%s)", f->path, sqlite3_errmsg(f->db));
        return V_UNUSABLE;
    }
    if (rc != SQLITE_OK) {
        char why[400];
        snprintf(err, errlen, "%s cannot be read: %s", f->path, save_db_why(f, f->db, rc, why, sizeof why));
        return V_ERROR;
    }
    if (app == 0 && *version == 0 && tables == 0) return V_EMPTY;
    if (app != SAVE_APPLICATION_ID) {
        snprintf(err, errlen, "%s is an SQLite database of another program, not a strata world", f->path);
        return V_UNUSABLE;
    }
    if (*version > SAVE_FORMAT_VERSION || *version < 1) {
        snprintf(err, errlen, "%s has format version %lld; this strata reads versions 1 to %d", f->path, *version,
                 SAVE_FORMAT_VERSION);
        return V_UNUSABLE;
    }
    sqlite3_stmt *st;
    rc = sqlite3_prepare_v2(f->db, "PRAGMA quick_check", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const char *r = (const char *)sqlite3_column_text(st, 0);
            if (!r || strcmp(r, "ok") != 0) {
                snprintf(err, errlen, "%s fails its integrity check (%s)", f->path, r ? r : "?");
                sqlite3_finalize(st);
                return V_UNUSABLE;
            }
            rc = SQLITE_OK;
        }
        sqlite3_finalize(st);
    }
    if (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB) {
        snprintf(err, errlen, "%s is damaged (%s)", f->path, sqlite3_errstr(rc));
        return V_UNUSABLE;
    }
    if (rc != SQLITE_OK) {
        char why[400];
        snprintf(err, errlen, "%s cannot be checked: %s", f->path, save_db_why(f, f->db, rc, why, sizeof why));
        return V_ERROR;
    }
    long long have = 0;
    query_int(f->db, "SELECT count(*) FROM sqlite_master WHERE name IN ('meta','slots','chunks')", &have);
    if (have != 3) {
        snprintf(err, errlen, "%s is damaged (its tables are missing)", f->path);
        return V_UNUSABLE;
    }
    return *version < SAVE_FORMAT_VERSION ? V_OLDER : V_OK;
}

static void note_add(save_file *f, const char *text)
{
    size_t n = strlen(f->note);
    if (n && n + 2 < f->notelen) strcat(f->note, "; "), n += 2;
    if (n < f->notelen) snprintf(f->note + n, f->notelen - n, "%s", text);
}

/* One writer per world: a game that cannot take the lock (another game
 * holds it) opens the file read-only, so neither the writer thread nor
 * SQLite can write to it. False with err when there is nothing to read. */
static bool lock_or_read_only(save_file *f, bool exists, char *err, size_t errlen)
{
    if (f->lock.fd >= 0) return true; /* taken before the file was moved aside */
    long holder;
    char why[800];
    save_lock_result r = save_lock_take(&f->lock, f->path, &holder, why, sizeof why);
    if (r == SAVE_LOCK_TAKEN) return true;
    if (r == SAVE_LOCK_UNSUPPORTED) { /* write unguarded rather than never save */
        note_add(f, why);
        note_add(f, "saving without a lock: a second game on this world could also write it");
        return true;
    }
    f->readonly = true;
    if (r == SAVE_LOCK_ERROR) snprintf(f->readonly_why, sizeof f->readonly_why, "not lockable for writing");
    else if (f->lock.by_other_name)
        snprintf(f->readonly_why, sizeof f->readonly_why,
                 "in use by another strata through another name of the file (a hard link)");
    else if (holder) snprintf(f->readonly_why, sizeof f->readonly_why, "in use by another strata (pid %ld)", holder);
    else snprintf(f->readonly_why, sizeof f->readonly_why, "in use by another strata");
    if (r == SAVE_LOCK_ERROR) note_add(f, why);
    if (!exists) snprintf(err, errlen, "%s is %s", f->path, f->readonly_why);
    return exists;
}

int save_db_open(const save_file *f, sqlite3 **db, int flags)
{
    char uri[sizeof f->path * 3 + 32];
    if (!f->immutable || !save_fs_uri(f->path, "immutable=1", uri, sizeof uri))
        return sqlite3_open_v2(f->path, db, flags, NULL);
    return sqlite3_open_v2(uri, db, flags | SQLITE_OPEN_URI, NULL);
}

/* Read-only or writable, and why. The owner's write bit decides, even for
 * root: a world (or its folder) the player made read-only stays as it is.
 * A folder that cannot be written holds no lock file and no WAL: SQLite
 * reads such a file only as immutable, unless a WAL is already there (a
 * game that ended without checkpointing), whose index it can then use. */
static bool open_mode(save_file *f, bool exists, const struct stat *sb, char *err, size_t errlen)
{
    char dir[sizeof f->path], wal[sizeof f->path + 8];
    f->immutable = false;
    f->readonly = exists && (!(sb->st_mode & S_IWUSR) || access(f->path, W_OK) != 0);
    snprintf(f->readonly_why, sizeof f->readonly_why, "read-only");
    if (!save_fs_folder_writable(f->path, dir, sizeof dir)) {
        if (!exists) {
            snprintf(err, errlen, "%s cannot be made: its folder %s is not writable", f->path, dir);
            return false;
        }
        f->readonly = true;
        snprintf(f->readonly_why, sizeof f->readonly_why, "in a folder without write permission (no lock or journal can be made there)");
        snprintf(wal, sizeof wal, "%s-wal", f->path);
        f->immutable = access(wal, F_OK) != 0;
        return true;
    }
    return f->readonly || lock_or_read_only(f, exists, err, errlen);
}

static bool open_on_writer(save_file *f, void *arg, char *err, size_t errlen)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        struct stat sb;
        bool exists = stat(f->path, &sb) == 0;
        if (exists && !S_ISREG(sb.st_mode)) {
            snprintf(err, errlen, "%s is not a regular file", f->path);
            return false;
        }
        if (!exists) save_fs_mkdir_parents(f->path);
        if (!open_mode(f, exists, &sb, err, errlen)) return false;
        int flags = f->readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        if (save_db_open(f, &f->db, flags) != SQLITE_OK) {
            char why[400];
            snprintf(err, errlen, "%s cannot be opened: %s", f->path, save_db_why(f, f->db, 0, why, sizeof why));
            return false;
        }
        if (!f->readonly) save_lock_bind_file(&f->lock, f->path); /* made just now: lock it by identity too */
        sqlite3_busy_timeout(f->db, 2000);
        long long version = 0;
        char why[1024];
        verdict v = classify(f, &version, why, sizeof why);
        if (v == V_ERROR) {
            snprintf(err, errlen, "%s", why);
            return false;
        }
        if (v == V_UNUSABLE) {
            sqlite3_close(f->db);
            f->db = NULL;
            if (f->readonly || attempt > 0) {
                snprintf(err, errlen, "%s (%s: left as it is)", why, f->readonly_why);
                return false;
            }
            char *to = f->aside;
            if (!save_fs_move_aside(f->path, to, sizeof f->aside, err, errlen)) return false;
            char msg[1800];
            snprintf(msg, sizeof msg, "%.1000s: moved aside to %s, starting a new world", why, to);
            note_add(f, msg);
            continue;
        }
        if (f->readonly) {
            long long t = 0;
            query_int(f->db, "SELECT count(*) FROM sqlite_master WHERE name='stream_chunks'", &t);
            f->has_stream_table = t == 1;
            if (v == V_EMPTY || v == V_OLDER) {
                snprintf(err, errlen, "%s is %s and %s", f->path, f->readonly_why,
                         v == V_EMPTY ? "empty" : "of an older format that needs migrating");
                return false;
            }
            return true;
        }
        if (!exec_sql(f, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", err, errlen)) return false;
        if (v == V_EMPTY) {
            char sql[1024];
            snprintf(sql, sizeof sql, "BEGIN;%sPRAGMA application_id=%d;PRAGMA user_version=%d;COMMIT;", k_schema_v2,
                     SAVE_APPLICATION_ID, SAVE_FORMAT_VERSION);
            if (!exec_sql(f, sql, err, errlen)) return false;
        } else if (v == V_OLDER) {
            char bak[600], sql[1300], msg[1400];
            save_fs_aside_name(f->path, "v1-backup", bak, sizeof bak);
            char *q = sqlite3_mprintf("VACUUM INTO %Q", bak);
            bool ok = exec_sql(f, q, err, errlen);
            sqlite3_free(q);
            if (!ok) return false; /* no backup, no migration: the file stays as it was */
            snprintf(sql, sizeof sql, "BEGIN;%sPRAGMA user_version=%d;COMMIT;", k_migrate_1_to_2, SAVE_FORMAT_VERSION);
            if (!exec_sql(f, sql, err, errlen)) {
                exec_sql(f, "ROLLBACK", why, sizeof why);
                return false;
            }
            snprintf(msg, sizeof msg, "%s: migrated from format %lld to %d (the old file is kept as %s)", f->path,
                     version, SAVE_FORMAT_VERSION, bak);
            note_add(f, msg);
        }
        /* a file that cannot take the table still plays finite worlds; a
         * streamed world's save then fails, saying why */
        f->has_stream_table = exec_sql(f, k_schema_stream, why, sizeof why);
        return true;
    }
    return false;
}

/* ---- writes ------------------------------------------------------------- */

static void txn_fail(save_file *f, const char *what)
{
    if (f->txn_failed) return;
    f->txn_failed = true;
    char why[400];
    snprintf(f->txn_err, sizeof f->txn_err, "saving to %s failed (%s: %s); the last complete save is kept", f->path,
             what, save_db_why(f, f->db, 0, why, sizeof why));
    if (f->in_txn) sqlite3_exec(f->db, "ROLLBACK", NULL, NULL, NULL);
    f->in_txn = false;
}

static void clear_slot(save_file *f, const char *sql, const char *slot)
{
    sqlite3_stmt *st;
    if (f->txn_failed) return;
    if (sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK) {
        txn_fail(f, "clear");
        return;
    }
    sqlite3_bind_text(st, 1, slot, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) txn_fail(f, "clear");
    sqlite3_finalize(st);
}

static void do_begin(save_file *f, op *o)
{
    if (f->in_txn) sqlite3_exec(f->db, "ROLLBACK", NULL, NULL, NULL); /* a begin without commit: dropped */
    f->in_txn = false;
    f->txn_failed = false;
    if (f->readonly) { /* SQLite would refuse too; this says why */
        f->txn_failed = true;
        snprintf(f->txn_err, sizeof f->txn_err, "saving to %s failed (it is %s); the last complete save is kept",
                 f->path, f->readonly_why);
        return;
    }
    if (sqlite3_exec(f->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        txn_fail(f, "begin");
        return;
    }
    f->in_txn = true;
    snprintf(f->txn_slot, sizeof f->txn_slot, "%s", o->slot);
    if (o->replace) {
        clear_slot(f, "DELETE FROM chunks WHERE slot=?", o->slot);
        if (f->has_stream_table) clear_slot(f, "DELETE FROM stream_chunks WHERE slot=?", o->slot);
    }
}

static void do_chunk(save_file *f, op *o)
{
    if (!f->in_txn || f->txn_failed) return;
    if (!o->copy) {
        txn_fail(f, "out of memory for a chunk copy");
        return;
    }
    size_t n = chunk_codec_encode(f->codec, o->copy, f->blob, chunk_codec_bound());
    if (n == 0) {
        snprintf(f->txn_err, sizeof f->txn_err, "saving to %s failed: a chunk could not be compressed", f->path);
        txn_fail(f, "compress");
        return;
    }
    sqlite3_stmt *st;
    const char *sql = o->at ? "INSERT OR REPLACE INTO stream_chunks(slot, cx, cy, cz, data, gen_hash) VALUES(?,?,?,?,?,?)"
                            : "INSERT OR REPLACE INTO chunks(slot, idx, data) VALUES(?,?,?)";
    if (sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK) {
        txn_fail(f, "chunk");
        return;
    }
    sqlite3_bind_text(st, 1, f->txn_slot, -1, SQLITE_STATIC);
    if (o->at) {
        sqlite3_bind_int(st, 2, o->cx);
        sqlite3_bind_int(st, 3, o->cy);
        sqlite3_bind_int(st, 4, o->cz);
        sqlite3_bind_blob(st, 5, f->blob, (int)n, SQLITE_STATIC);
        sqlite3_bind_int64(st, 6, (sqlite3_int64)o->gen_hash); /* the 64 bits as they are */
    } else {
        sqlite3_bind_int(st, 2, o->index);
        sqlite3_bind_blob(st, 3, f->blob, (int)n, SQLITE_STATIC);
    }
    if (sqlite3_step(st) != SQLITE_DONE) txn_fail(f, "chunk");
    sqlite3_finalize(st);
}

static bool do_commit(save_file *f, op *o)
{
    if (!f->in_txn || f->txn_failed) {
        if (!f->txn_failed) snprintf(f->txn_err, sizeof f->txn_err, "saving to %s failed: no save was begun", f->path);
        return false;
    }
    sqlite3_stmt *st;
    const save_slot *m = &o->meta;
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)m->gen_hash);
    if (sqlite3_prepare_v2(f->db,
                           "INSERT OR REPLACE INTO slots(name, inputs, state, saved_at, gen_hash) VALUES(?,?,?,?,?)", -1,
                           &st, NULL) != SQLITE_OK) {
        txn_fail(f, "slot");
        return false;
    }
    sqlite3_bind_text(st, 1, o->slot, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, m->inputs ? m->inputs : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, m->state ? m->state : "", -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 4, (double)time(NULL));
    if (m->gen_hash) sqlite3_bind_text(st, 5, hash, -1, SQLITE_STATIC);
    else sqlite3_bind_null(st, 5);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        txn_fail(f, "slot");
        return false;
    }
    if (o->make_current) {
        char *q = sqlite3_mprintf("INSERT OR REPLACE INTO meta(key, value) VALUES('current', %Q)", o->slot);
        rc = sqlite3_exec(f->db, q, NULL, NULL, NULL);
        sqlite3_free(q);
        if (rc != SQLITE_OK) {
            txn_fail(f, "meta");
            return false;
        }
    }
    if (sqlite3_exec(f->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        txn_fail(f, "commit");
        return false;
    }
    f->in_txn = false;
    return true;
}

static void free_op(op *o)
{
    chunk_copy_free(o->copy);
    save_slot_free(&o->meta);
    free(o);
}

static void *writer_main(void *arg)
{
    save_file *f = arg;
    for (;;) {
        pthread_mutex_lock(&f->mu);
        while (!f->head) pthread_cond_wait(&f->wake, &f->mu);
        op *o = f->head;
        f->head = o->next;
        if (!f->head) f->tail = NULL;
        if (o->kind == OP_LIVE) f->busy = o->w;
        pthread_mutex_unlock(&f->mu);

        switch (o->kind) {
        case OP_OPEN:
        case OP_CALL: {
            bool ok = f->db || o->kind == OP_OPEN ? o->call(f, o->arg, o->err, o->errlen) : false;
            pthread_mutex_lock(&f->mu);
            o->ok = ok, o->done = true; /* o lives on the caller's stack */
            pthread_cond_broadcast(&f->done);
            pthread_mutex_unlock(&f->mu);
            break;
        }
        case OP_BEGIN:
            do_begin(f, o);
            free_op(o);
            break;
        case OP_CHUNK:
            do_chunk(f, o);
            free_op(o);
            break;
        case OP_LIVE: {
            /* copy under the guard (microseconds), compress outside it */
            pthread_mutex_lock(&f->guard);
            const chunk *c = &o->w->chunks[o->index];
            f->live.vox = f->live_vox;
            memcpy(f->live.vox, c->vox, CHUNK_VOLUME);
            f->live.tint = c->tint ? f->live_tint : NULL;
            if (c->tint) memcpy(f->live_tint, c->tint, CHUNK_VOLUME);
            pthread_mutex_unlock(&f->guard);
            pthread_mutex_lock(&f->mu);
            f->busy = NULL; /* the world is no longer read */
            pthread_cond_broadcast(&f->done);
            pthread_mutex_unlock(&f->mu);
            o->copy = &f->live;
            do_chunk(f, o);
            o->copy = NULL;
            free_op(o);
            break;
        }
        case OP_COMMIT: {
            bool ok = do_commit(f, o);
            pthread_mutex_lock(&f->mu);
            f->done_ticket = o->ticket;
            if (!ok) {
                f->failed_ticket = o->ticket;
                snprintf(f->failed_err, sizeof f->failed_err, "%s", f->txn_err);
            }
            pthread_cond_broadcast(&f->done);
            pthread_mutex_unlock(&f->mu);
            free_op(o);
            break;
        }
        case OP_QUIT:
            if (f->in_txn) sqlite3_exec(f->db, "ROLLBACK", NULL, NULL, NULL);
            free_op(o);
            return NULL;
        }
    }
}

/* ---- public ------------------------------------------------------------- */

save_file *save_open(const char *path, char *note, size_t notelen, char *err, size_t errlen)
{
    if (notelen) note[0] = 0;
    if (strlen(path) >= sizeof((save_file *)0)->path - 40) {
        snprintf(err, errlen, "world path is too long: %s", path);
        return NULL;
    }
    save_file *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    f->lock.fd = f->lock.world_fd = -1;
    f->note = note, f->notelen = notelen;
    f->codec = chunk_codec_create();
    f->blob = malloc(chunk_codec_bound());
    pthread_mutex_init(&f->mu, NULL);
    pthread_mutex_init(&f->guard, NULL);
    pthread_cond_init(&f->wake, NULL);
    pthread_cond_init(&f->done, NULL);
    if (!f->codec || !f->blob || pthread_create(&f->thread, NULL, writer_main, f) != 0) {
        snprintf(err, errlen, "cannot start the save writer for %s", path);
        chunk_codec_destroy(f->codec);
        free(f->blob);
        free(f);
        return NULL;
    }
    bool ok = save_run_sync(f, OP_OPEN, open_on_writer, NULL, err, errlen);
    f->note = NULL, f->notelen = 0;
    if (!ok) {
        save_close(f);
        return NULL;
    }
    return f;
}

void save_close(save_file *f)
{
    if (!f) return;
    op *q = calloc(1, sizeof *q);
    q->kind = OP_QUIT;
    push(f, q);
    pthread_join(f->thread, NULL);
    if (f->guarded) f->guarded->guard = NULL; /* every queued chunk was read */
    if (f->db) sqlite3_close(f->db);
    save_lock_release(&f->lock); /* after the close: the next writer finds the file settled */
    chunk_codec_destroy(f->codec);
    free(f->blob);
    free(f->take);
    free(f->fp);
    pthread_mutex_destroy(&f->mu);
    pthread_mutex_destroy(&f->guard);
    pthread_cond_destroy(&f->wake);
    pthread_cond_destroy(&f->done);
    free(f);
}

void save_begin(save_file *f, const char *slot, bool replace)
{
    op *o = calloc(1, sizeof *o);
    if (!o) return;
    o->kind = OP_BEGIN;
    snprintf(o->slot, sizeof o->slot, "%s", slot);
    o->replace = replace;
    save_fingerprints_begin(f, slot, replace);
    push(f, o);
}

/* An OP_CHUNK owning `copy` (freed when there is no memory for the op). */
static op *chunk_op(chunk *copy)
{
    op *o = calloc(1, sizeof *o);
    if (!o) {
        chunk_copy_free(copy);
        return NULL;
    }
    o->kind = OP_CHUNK;
    o->copy = copy;
    return o;
}

void save_put_chunk(save_file *f, int index, chunk *copy)
{
    op *o = chunk_op(copy);
    if (!o) return;
    o->index = index;
    push(f, o); /* it belongs to the slot of the last begin */
}

void save_put_chunk_at(save_file *f, int cx, int cy, int cz, uint64_t gen_hash, chunk *copy)
{
    op *o = chunk_op(copy);
    if (!o) return;
    o->at = true;
    o->cx = cx, o->cy = cy, o->cz = cz;
    o->gen_hash = gen_hash;
    push(f, o);
}

uint64_t save_commit(save_file *f, const save_slot *slot, bool make_current)
{
    op *o = calloc(1, sizeof *o);
    if (!o) return 0;
    o->kind = OP_COMMIT;
    snprintf(o->slot, sizeof o->slot, "%s", slot->name);
    o->meta.gen_hash = slot->gen_hash;
    o->meta.inputs = strdup(slot->inputs ? slot->inputs : "");
    o->meta.state = strdup(slot->state ? slot->state : "");
    o->make_current = make_current;
    return push(f, o); /* o may be freed by the writer as soon as it is queued */
}

uint64_t save_poll(save_file *f, bool *failed, char *err, size_t errlen)
{
    pthread_mutex_lock(&f->mu);
    uint64_t t = f->done_ticket;
    *failed = t && f->failed_ticket == t;
    if (*failed && errlen) snprintf(err, errlen, "%s", f->failed_err);
    pthread_mutex_unlock(&f->mu);
    return t;
}

bool save_wait(save_file *f, uint64_t ticket, char *err, size_t errlen)
{
    pthread_mutex_lock(&f->mu);
    while (f->done_ticket < ticket) pthread_cond_wait(&f->done, &f->mu);
    bool ok = f->failed_ticket != ticket;
    if (!ok && errlen) snprintf(err, errlen, "%s", f->failed_err);
    pthread_mutex_unlock(&f->mu);
    return ok;
}

int save_pending(save_file *f)
{
    pthread_mutex_lock(&f->mu);
    int n = (int)(f->next_ticket - f->done_ticket);
    pthread_mutex_unlock(&f->mu);
    return n;
}

int save_put_unsaved(save_file *f, world *w, int max)
{
    if (f->take_cap < w->chunk_count) {
        int *n = realloc(f->take, sizeof *n * (size_t)w->chunk_count);
        if (!n) return 0;
        f->take = n;
        f->take_cap = w->chunk_count;
    }
    if (f->guarded && f->guarded != w) save_release_world(f, f->guarded);
    f->guarded = w;
    w->guard = &f->guard; /* from now on world_set waits while the writer reads a chunk */
    int n = world_take_unsaved(w, f->take, max < f->take_cap ? max : f->take_cap);
    for (int i = 0; i < n; i++) {
        op *o = calloc(1, sizeof *o);
        if (!o) { /* no memory for the reference: back to unsaved, the next save takes it */
            world_mark_unsaved(w, f->take[i]);
            continue;
        }
        o->kind = OP_LIVE;
        o->index = f->take[i];
        o->w = w;
        push(f, o);
    }
    return n;
}

void save_release_world(save_file *f, world *w)
{
    if (!w || f->guarded != w) return;
    pthread_mutex_lock(&f->mu);
    /* chunks still queued by reference become copies: w may go away now */
    for (op *o = f->head; o; o = o->next) {
        if (o->kind != OP_LIVE || o->w != w) continue;
        o->copy = chunk_copy(&w->chunks[o->index]); /* NULL (no memory): that save fails, and says so */
        o->kind = OP_CHUNK;
    }
    while (f->busy == w) pthread_cond_wait(&f->done, &f->mu);
    pthread_mutex_unlock(&f->mu);
    w->guard = NULL;
    f->guarded = NULL;
}
