/* save_internal: what the save module's files share and no caller sees:
 * the writer thread's queue of operations and the save_file behind the
 * opaque handle. save.c owns the writer and the writes; save_read.c the
 * queries that run on the writer while the caller waits. */
#ifndef STRATA_SAVE_INTERNAL_H
#define STRATA_SAVE_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/save.h"
#include "io/save_lock.h"
#include "voxel/chunk_codec.h"
#include "voxel/world.h"

typedef struct save_fingerprint {
    int cx, cz, cy;
    uint64_t gen_hash;
} save_fingerprint;

/* Streamed chunks' fingerprints kept for `slot` (save_stream.c): a new slot,
 * or new inputs (replace), forgets them. */
void save_fingerprints_begin(save_file *f, const char *slot, bool replace);

typedef enum op_kind { OP_OPEN, OP_BEGIN, OP_CHUNK, OP_LIVE, OP_COMMIT, OP_CALL, OP_QUIT } op_kind;

typedef struct op op;
typedef bool (*op_call_fn)(save_file *f, void *arg, char *err, size_t errlen);

struct op {
    op_kind kind;
    op *next;
    char slot[64];
    bool replace, make_current;
    int index;
    /* OP_CHUNK of a streamed world (save_put_chunk_at): keyed by its
     * global coordinates, with the fingerprint of the chunk as generated */
    bool at;
    int cx, cy, cz;
    uint64_t gen_hash;
    chunk *copy;  /* OP_CHUNK: owned; OP_LIVE: NULL, the chunk is read from w */
    world *w;
    save_slot meta;
    uint64_t ticket;
    /* OP_OPEN / OP_CALL: run on the writer while the caller waits */
    op_call_fn call;
    void *arg;
    bool done, ok;
    char *err;
    size_t errlen;
};

struct save_file {
    char path[512];
    bool readonly;
    char readonly_why[160]; /* why (the permission, or who holds the lock) */
    bool immutable;         /* read-only in a folder SQLite cannot write its WAL index to (save_db_open) */
    char aside[600];        /* where an unusable file went; "" when none */
    save_lock lock;         /* held while the file is open for writing */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    op *head, *tail;
    uint64_t next_ticket, done_ticket, failed_ticket;
    char failed_err[1024];
    /* writer thread only */
    sqlite3 *db;
    bool has_stream_table; /* stream_chunks exists (a read-only format-2 file may lack it) */
    chunk_codec *codec;
    uint8_t *blob;
    bool in_txn, txn_failed;
    char txn_slot[64];
    char txn_err[1024];
    char *note;
    size_t notelen;
    /* main thread only: indices taken by save_put_unsaved */
    int *take;
    int take_cap;
    /* main thread only: the fingerprints (as generated) of the streamed
     * chunks of slot fp_slot already saved or loaded, sorted by column, so
     * a chunk's column is regenerated once, when it is first saved */
    save_fingerprint *fp;
    int fp_count, fp_cap;
    char fp_slot[64];
    /* Chunks queued by reference are read from this world under `guard`,
     * which world_set takes too; busy is the world the writer is reading. */
    pthread_mutex_t guard;
    world *guarded, *busy;
    chunk live; /* writer only: the chunk read under the guard, over live_vox */
    uint8_t live_vox[CHUNK_VOLUME];
    uint8_t live_tint[CHUNK_VOLUME];
};

/* One row of stream_chunks (cx, cy, cz, gen_hash, data) to fn, its
 * coordinates checked (save_read.c): the writer's reads and the readers'
 * (save_reader.c) share it. */
bool save_stream_row(sqlite3_stmt *st, save_stream_chunk_fn fn, void *user, char *err, size_t errlen);
/* The rows of one column of a slot: parameters slot, cx, cz. */
#define SAVE_COLUMN_SQL "SELECT cx, cy, cz, gen_hash, data FROM stream_chunks WHERE slot=? AND cx=? AND cz=? ORDER BY cy"

/* A reader's file and slot (save_reader.c). */
save_file *save_reader_file(const save_reader *r);
const char *save_reader_slot(const save_reader *r);

/* Runs fn on the writer thread and waits for it (reads, open). */
/* SQLite's reason for the last failure (rc, or the connection's last error
 * when rc is 0), as a message: an I/O failure on a file system with no room
 * left says that the disk is full, which is what the player can act on. */
const char *save_db_why(const save_file *f, sqlite3 *db, int rc, char *buf, size_t len);
/* Opens the file's connection (flags as sqlite3_open_v2's), immutable when
 * the file is read in a folder that cannot be written. */
int save_db_open(const save_file *f, sqlite3 **db, int flags);
bool save_run_sync(save_file *f, op_kind kind, op_call_fn fn, void *arg, char *err, size_t errlen);

#endif
