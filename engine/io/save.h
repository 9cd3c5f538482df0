/* save: the world file (SQLite, WAL) and the one thread that writes it.
 * A file holds slots (one world each: its generation inputs and player state
 * as text, its edited chunks as chunk_codec blobs). Only the writer thread
 * touches the SQLite connection; the main thread queues copies and never
 * waits on disk, except when it asks to (save_wait, reads at load time). */
#ifndef STRATA_SAVE_H
#define STRATA_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voxel/chunk.h"

struct world;
struct job_pool;
struct stream;

/* PRAGMA user_version of the files this program writes; older ones are
 * migrated (with a backup), newer ones refused. */
#define SAVE_FORMAT_VERSION 2
/* PRAGMA application_id: 'STRA'. */
#define SAVE_APPLICATION_ID 0x53545241

typedef struct save_file save_file;

typedef struct save_slot {
    char name[64];     /* the slot's key (the game uses the world kind) */
    char *inputs;      /* generation inputs, text the game writes and parses */
    char *state;       /* player state, text */
    uint64_t gen_hash; /* world_hash right after generation; 0 = not recorded */
    double saved_at;   /* unix seconds of the commit */
} save_slot;

void save_slot_free(save_slot *s);

/* Opens `path`, creating it (and its folder) if missing. A file that is not
 * a strata world, is of a newer format or fails PRAGMA quick_check is never
 * written to: it is renamed aside with a timestamp, `note` says so (naming
 * both files), save_moved_aside says where, and a fresh file takes its
 * place. An older format is migrated after a backup copy (note says where).
 * One writer per file: the open takes the file's lock (save_lock), and a
 * file whose lock another process holds, or without write permission,
 * opens read-only (save_readonly, save_readonly_why): it is read, never
 * written, moved or migrated. Returns NULL with err when the file cannot be
 * used at all (busy, unreadable, a directory); it is left untouched. */
save_file *save_open(const char *path, char *note, size_t notelen, char *err, size_t errlen);
/* Finishes every queued write, closes, then lets the lock go. */
void save_close(save_file *f);
const char *save_path(const save_file *f);
bool save_readonly(const save_file *f);
/* Why the file is read-only ("read-only", "in use by another strata (pid
 * N)"); "" when it is writable. */
const char *save_readonly_why(const save_file *f);
/* Where the unusable file that was at the path went; NULL when none was. */
const char *save_moved_aside(const save_file *f);

/* Every slot with its texts (not its chunks); the caller frees each slot
 * and the array. Waits for queued writes. Returns -1 with err on failure. */
int save_list_slots(save_file *f, save_slot **out, char *err, size_t errlen);
/* The slot last committed with make_current ("" when none). */
bool save_current_slot(save_file *f, char *name, size_t len, char *err, size_t errlen);

/* Calls fn for every chunk of `slot`, on the writer thread while the caller
 * waits (fn may write into memory the caller owns). fn returns false with
 * err to stop. Returns the number of chunks, or -1 with err. */
typedef bool (*save_chunk_fn)(void *user, int index, const void *blob, size_t len, char *err, size_t errlen);
int save_read_chunks(save_file *f, const char *slot, save_chunk_fn fn, void *user, char *err, size_t errlen);

/* Replaces the chunks of `w` with slot's saved ones, all or nothing: every
 * record is decoded (on the workers when jobs is not NULL) and checked
 * first, so a damaged one leaves w untouched. Loaded chunks count as edited
 * and saved. Returns how many, or -1 with err. */
int save_load_chunks(save_file *f, const char *slot, struct world *w, struct job_pool *jobs, char *err,
                     size_t errlen);
/* The hash a slot records of its freshly generated world (gen_hash): every
 * chunk hashed on the workers, then the list. Equal worlds, equal prints. */
uint64_t save_world_fingerprint(const struct world *w, struct job_pool *jobs);

/* ---- streamed worlds (voxel/stream.h) ----
 * Their chunks are keyed by global chunk coordinates, each with the
 * fingerprint of the chunk as its generator made it (gen_hash), so a row
 * that is damaged or lies on terrain the generator no longer makes loses
 * only itself (docs/saves.md). */

/* Hash of a chunk's voxels and tints: equal chunks, equal prints. */
uint64_t save_chunk_fingerprint(const chunk *c);

/* Calls fn for every streamed chunk row of `slot` (as save_read_chunks). */
typedef bool (*save_stream_chunk_fn)(void *user, int cx, int cy, int cz, uint64_t gen_hash, const void *blob,
                                     size_t len, char *err, size_t errlen);
int save_read_stream_chunks(save_file *f, const char *slot, save_stream_chunk_fn fn, void *user, char *err,
                            size_t errlen);

/* The rows of one column (cx, cz) of `slot`, as save_read_stream_chunks. */
int save_read_stream_column(save_file *f, const char *slot, int cx, int cz, save_stream_chunk_fn fn, void *user,
                            char *err, size_t errlen);

/* Every saved chunk of `slot` into the stream: the chunks of ready columns
 * now (stream_store_chunk), the others only by their coordinates
 * (stream_mark_paged: save_page_in reads them when their column comes), so
 * a large world loads in the time and memory of what is around the player.
 * A row that does not decode, or whose gen_hash is not what the stream's
 * generator makes there now, is skipped with a warning naming its
 * coordinates (the chunk regenerates), never the rest; for a paged row
 * that is said when its column comes. Columns regenerate on the workers (jobs may
 * be NULL). Returns the chunks loaded (skipped ones in *skipped), or -1
 * with err when the file cannot be read. */
int save_load_stream(save_file *f, const char *slot, struct stream *s, struct job_pool *jobs, int *skipped, char *err,
                     size_t errlen);
/* A stream_page_in_fn's work: reads the rows of column (cx, cz) of `slot`
 * and puts those of `layers` over `column` (the column as generated), each
 * checked as save_load_stream checks a row. Returns the layers put; a row
 * that is damaged, on other terrain or missing is said in `warn` (lines
 * ending in '\n', naming the chunk) and left generated. This one reads
 * through the writer thread (any thread may call it): the read waits for
 * the writes queued before it. */
uint32_t save_page_in(save_file *f, const char *slot, struct world *column, int cx, int cz, uint32_t layers,
                      char *warn, size_t warnlen);

/* Readers: the same read on any thread, concurrently, through read-only
 * connections of their own (save_reader.c), so the stream's workers read
 * paged chunks back while the writer writes. A reader sees what is
 * committed: a chunk is paged only once the commit that wrote it is on
 * disk, and one still queued for the writer is in memory, so it is never
 * read half-written. The save_file must outlive the reader, and no read may
 * be running when it is closed. NULL when there is no memory. */
typedef struct save_reader save_reader;
save_reader *save_reader_open(save_file *f, const char *slot);
void save_reader_close(save_reader *r);
/* The rows of column (cx, cz) of the reader's slot, as save_read_stream_column. */
int save_reader_column(save_reader *r, int cx, int cz, save_stream_chunk_fn fn, void *user, char *err, size_t errlen);
/* save_page_in through the reader (any thread). */
uint32_t save_reader_page_in(save_reader *r, struct world *column, int cx, int cz, uint32_t layers, char *warn,
                             size_t warnlen);
/* Reads made, and of those the ones that went through the writer (no
 * connection of the reader's own could be opened). */
void save_reader_counts(save_reader *r, long long *reads, long long *fallbacks);

/* Queues every edited chunk of the streamed world no save has taken yet:
 * the window's unsaved ones and the stream's stored ones, as copies (the
 * window moves, so a reference by index could name another place by the
 * time the writer reads it), each with its fingerprint as generated.
 * Returns how many. */
int save_put_stream_unsaved(save_file *f, struct stream *s, struct job_pool *jobs);

/* Writing, queued (none of these waits): one transaction per
 * begin ... commit. `replace` drops the slot's chunks first (new inputs). */
void save_begin(save_file *f, const char *slot, bool replace);
/* Takes ownership of a chunk_copy() of chunk `index`. */
void save_put_chunk(save_file *f, int index, chunk *copy);
/* The streamed form: a chunk_copy() at global chunk (cx, cy, cz), with the
 * fingerprint of that chunk as generated. */
void save_put_chunk_at(save_file *f, int cx, int cy, int cz, uint64_t gen_hash, chunk *copy);
/* Queues up to `max` of w's unsaved chunks (lowest index first) by
 * reference: the main thread's whole share of a save, no copying. The
 * writer copies each chunk under w's guard (world_set takes it too, so an
 * edit waits at most one 64 KiB memcpy). w must stay alive until
 * save_release_world(f, w) or save_close. Returns how many. */
int save_put_unsaved(save_file *f, struct world *w, int max);
/* Before w is destroyed or replaced: chunks still queued by reference are
 * copied now, and the one being read is waited for (microseconds). */
void save_release_world(save_file *f, struct world *w);
/* Queues the commit; slot texts are copied. Returns a ticket for save_wait. */
uint64_t save_commit(save_file *f, const save_slot *slot, bool make_current);

/* The newest finished commit: its ticket (0 = none yet) and whether it
 * failed (err holds why). Never waits. */
uint64_t save_poll(save_file *f, bool *failed, char *err, size_t errlen);
/* Waits until commit `ticket` is on disk; false with err if it failed. */
bool save_wait(save_file *f, uint64_t ticket, char *err, size_t errlen);
/* Commits queued or in the writer's hands (0 = idle). */
int save_pending(save_file *f);

#endif
