/* stream: keeps a world window (voxel/world.h) centred on the player,
 * generating the columns that enter it on the worker threads and keeping
 * the edits of the columns it leaves, so the world goes on without end and
 * memory is bounded by the view distance, never by the distance travelled
 * (seed 003's closing limitation: the whole terrain had to fit in memory).
 * Stored edits that a save has written can be paged out (only their
 * coordinates kept) and are read back through a pager when their column
 * comes again, so memory holds only what is not yet written.
 *
 * Threads: workers never touch the world. Each generates one column into a
 * private 1 x cy x 1 window of its own; the main thread hands finished
 * columns' voxel arrays in (stream_update: world_swap_vox, no copy), so
 * nothing reads a column while it is being written and a column the
 * window left before its job finished is simply dropped. Generation must
 * be a pure function of the column's coordinates: then the world is the
 * same whatever order columns arrive in and however
 * many workers run.
 *
 * Meshing: a chunk reads its neighbours (faces, ambient occlusion), so it
 * may be meshed only once the 8 columns around its own are ready
 * (stream_meshable); a column that becomes ready marks itself and those
 * neighbours dirty, so each chunk is meshed once its last neighbour comes,
 * and never shows faces toward a column that is not there yet. */
#ifndef STRATA_STREAM_H
#define STRATA_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/jobs.h"
#include "voxel/world.h"

/* Writes every voxel of chunk column (cx, cz) of `column`, a window of one
 * column at (cx, cz). Runs on a worker, concurrently for different columns;
 * returns false if it failed (the column is then retried). */
typedef bool (*stream_gen_fn)(void *ctx, world *column, int cx, int cz);
/* Reads the paged-out chunks of column (cx, cz) back from where they were
 * written (the save file): `column` is the column as generated (a 1 x cy x
 * 1 window there), `layers` has bit y set for each chunk wanted. Puts each
 * one it has over the generated chunk and returns their bits; a chunk it
 * cannot give back (a damaged row) stays generated, and it says so in
 * `warn` (lines ending in '\n', logged by the main thread: workers do not
 * log). Runs on the worker that generated the column, right after it,
 * concurrently for different columns (and on the main thread for
 * stream_hash_column), so the main thread only installs finished columns
 * and nothing ever sees one without its edits. */
typedef uint32_t (*stream_page_in_fn)(void *ctx, world *column, int cx, int cz, uint32_t layers, char *warn,
                                      size_t warnlen);

typedef struct stream stream;

typedef struct stream_stats {
    int resident;      /* columns in the window */
    int ready;         /* of those, generated */
    int wanted;        /* columns within the radius of the last update's centre (stream_set_radius) */
    int wanted_ready;  /* of those, generated: all of them once the stream has nothing left to make */
    int in_flight;     /* generation jobs running or queued */
    long long generated; /* columns installed since creation */
    long long retried;   /* generation failures retried */
    long long dropped;   /* jobs whose column left the window before it finished */
    long long evicted;   /* generated columns the window left */
    int moves;         /* window moves since creation */
    int stored_chunks; /* edited chunks kept in memory for columns outside the window */
    int stored_unsaved; /* of those, the ones whose edits no save has taken */
    size_t stored_bytes;
    int paged_chunks;  /* edited chunks outside the window that live only in the save file */
    long long paged_in;  /* columns whose paged chunks were read back (on the workers) */
    double page_in_ms, page_in_ms_max; /* the workers' time in those reads: total, longest */
    double page_in_main_ms_max; /* the main thread's longest install of a column with paged chunks */
    long long page_in_redone; /* columns generated again: chunks were paged after their job started */
} stream_stats;

/* Window side, in columns, that keeps every column within `distance` voxels
 * (plus `margin`) of the centre resident, however the centre sits inside its
 * column, plus `hysteresis` columns each way before the window moves. */
int stream_window_columns(int distance, int margin, int hysteresis);
/* Bytes a window of that side and `cy` layers holds (voxels, flags). */
size_t stream_window_bytes(int columns, int cy);

/* Streams into `w` (whose size is the window: make it stream_window_columns
 * wide), emptying it first: every column is the stream's to make. gen/ctx make columns; `max_in_flight` jobs at most at a time (0:
 * two per worker). `hysteresis` columns: how far the centre may drift
 * before the window follows. */
stream *stream_create(world *w, job_pool *jobs, stream_gen_fn gen, void *ctx, int max_in_flight, int hysteresis);
/* Waits for the jobs in flight, then frees (the world stays the caller's). */
void stream_destroy(stream *s);
/* The pool was destroyed (every job it ran has finished): the stream no
 * longer waits on it, so stream_destroy after the app's workers are joined
 * reads no freed pool. */
void stream_jobs_joined(stream *s);

/* Only the columns within `voxels` of the centre (their nearest point; the
 * centre as stream_update has it) are generated; the rest of the window
 * holds what was made while it was that near, until the window leaves it.
 * The window's corners and its hysteresis are there so that it need not
 * move every column, not to be filled: filling them made the flight
 * generate a square's row per column of travel (27 columns at
 * view.distance 256; 38 on a diagonal) instead of a disc's width (21).
 * 0 (the default): the whole window. */
void stream_set_radius(stream *s, int voxels);
/* The squared distance from voxel (x, z) to the nearest point of chunk
 * column (cx, cz): 0 inside it. A column is "within r" of a point when
 * this is at most r * r; the radius, the waits and the counts all mean it. */
double stream_column_distance2(int cx, int cz, double x, double z);
/* One frame, main thread: installs finished columns, moves the window when
 * the centre (voxel x, z) drifted past the hysteresis (storing the edited
 * chunks of the columns it leaves), and queues the nearest empty columns.
 * Returns false when the centre is beyond the coordinate limit (nothing
 * moves; the caller clamps). */
bool stream_update(stream *s, double x, double z);
/* Called on the main thread when the window is about to move to the
 * origin (ocx, ocz) in columns (its size kept), before anything leaves:
 * whoever holds something of the world that must go back into its columns
 * first (falling bodies) puts it back then, and it leaves with them. Every
 * move calls it, stream_update's and the waits'. NULL: none. */
typedef void (*stream_moving_fn)(void *ctx, int ocx, int ocz);
void stream_set_moving(stream *s, stream_moving_fn fn, void *ctx);
/* view.distance changed: `to` (a new stream over an empty window of the
 * new size, with the same generator) takes over from `from`. Waits for
 * from's jobs, places to's window around (x, z) as stream_update would,
 * hands over every ready column both windows cover as it is (voxel
 * arrays, tints, edit and unsaved flags; marked dirty, not announced: the world is new to
 * the caller's components), and keeps in to's store the edited chunks of
 * from's columns it does not cover and everything from had stored. `from`
 * is left with nothing to lose: destroy it. */
void stream_adopt(stream *to, stream *from, double x, double z);
/* Runs stream_update until every column within `radius` voxels of (x, z)
 * is ready (the radius cut to what the window holds and the stream makes). */
void stream_wait(stream *s, double x, double z, int radius);
/* stream_wait that calls between(arg) after each stream_update, on the
 * caller's thread, while the columns are still coming: the caller lights
 * and meshes those already installed beside the generation (`stream wait`
 * does; a frame does the same). between may be NULL. */
void stream_wait_each(stream *s, double x, double z, int radius, void (*between)(void *arg), void *arg);
/* Whether every column within `radius` voxels of (x, z) is ready. */
bool stream_ready_within(const stream *s, double x, double z, int radius);
/* Of the columns within `radius` voxels of (x, z), the fraction ready (1
 * when there are none): the HUD's bar while the player waits for ground. */
float stream_ready_fraction(const stream *s, double x, double z, int radius);
/* Chunk column (cx, cz) and its 8 neighbours are ready. */
bool stream_meshable(const world *w, int cx, int cz);

/* The edited chunks of columns outside the window, one by one (for saves;
 * the resident ones are in the world): fn gets each with its coordinates
 * (its tint may be NULL). */
void stream_each_stored(const stream *s, void (*fn)(void *arg, int cx, int cy, int cz, const chunk *c), void *arg);
/* Puts an edited chunk into the store (a save being loaded): it replaces
 * the generated chunk when its column is next installed, or now if that
 * column is resident and ready. */
bool stream_store_chunk(stream *s, int cx, int cy, int cz, const uint8_t *vox, const uint8_t *tint);

/* Paging. The pager reads paged chunks back (NULL: none can come back;
 * they regenerate with a warning). stream_adopt passes it on. Waits for
 * the jobs in flight first (they may be reading through the old one), so
 * once it returns the old ctx is the caller's to free. */
void stream_set_pager(stream *s, stream_page_in_fn fn, void *ctx);
/* Drops from memory every stored chunk that no longer is unsaved: the
 * caller knows the save that took them is committed, so they live in the
 * file now and come back through the pager. A chunk whose column is
 * generating stays (its job was given it from memory). Returns how many. */
int stream_page_out_saved(stream *s);
/* A saved chunk of a column that is not ready (a save being loaded): it is
 * read back through the pager when the column is installed, so loading a
 * world reads none of the chunks far away. False when the column is ready
 * (store it instead: stream_store_chunk), the layer is out of the world or
 * there is no memory. */
bool stream_mark_paged(stream *s, int cx, int cy, int cz);
/* Changes whenever the set of paged chunks does (a load marked some, a
 * save paged some out, a column read its own back, stream_adopt): whoever
 * keeps something per paged column looks again when it moves. */
unsigned stream_paged_version(const stream *s);
/* The columns that are not ready and have paged chunks, each once, as
 * (cx, cz) pairs in a malloc'd *cxz (the caller frees it); returns how
 * many (-1: no memory). Main thread. */
int stream_paged_columns(const stream *s, int **cxz);
/* The layers of column (cx, cz) whose chunks are paged (bit y). Main thread. */
uint32_t stream_paged_layers(const stream *s, int cx, int cz);
/* Column (cx, cz) as the stream would install it from the file, for a
 * view of columns the window does not hold (the far rings' summaries of
 * edits made in an earlier run): generated into `column` (a 1 x cy x 1
 * window the caller placed there), then the paged `layers`
 * (stream_paged_layers, taken on the main thread) read back over it
 * through the pager, *got the layers it put there and `warn` what it had
 * to say (as stream_page_in_fn). Any thread, outside the stream's jobs:
 * stream_set_pager waits for a read through the old pager to finish, and
 * with no pager the layers stay generated (*got 0). False when generation
 * failed. The caller must be done before stream_destroy. */
bool stream_read_paged_column(stream *s, world *column, int cx, int cz, uint32_t layers, uint32_t *got, char *warn,
                              size_t warnlen);
/* The fingerprint (chunk_fingerprint) of chunk (cx, cy, cz) as the stream
 * generated it, taken on the worker that made its column, for a chunk of a
 * ready column or a stored one; 0 when unknown (a chunk read back from the
 * file, or loaded): the save then generates the column again. */
uint64_t stream_generated_fingerprint(const stream *s, int cx, int cy, int cz);

/* Saves: the stored chunks whose changes no save has taken yet (they left
 * the window unsaved), handed to fn one by one and then counted as saved;
 * returns how many. A stored chunk put in by stream_store_chunk is saved
 * already (it came from the file). */
int stream_take_stored_unsaved(stream *s, void (*fn)(void *arg, int cx, int cy, int cz, const chunk *c), void *arg);
/* Every stored chunk unsaved again (a save failed: the next writes them all). */
void stream_mark_stored_unsaved(stream *s);
/* Generates column (cx, cz) into `column`, a 1 x cy x 1 window the caller
 * placed there, with the stream's own generator: what the column was
 * before any edit, for the saves' per-chunk fingerprints. Any thread (the
 * generator is a pure function of the coordinates). */
bool stream_generate_column(const stream *s, world *column, int cx, int cz);

/* Moves up to `max` columns installed since the last call into cx/cz
 * (oldest first) and returns how many: the app announces each arrival. */
int stream_take_arrived(stream *s, int *cx, int *cz, int max);

/* At most `workers` columns generate at once (0: as many as the pool keeps
 * busy, two per worker thread and two queued). Live: jobs beyond a lowered
 * limit finish and get nothing new. */
void stream_set_workers(stream *s, int workers);

/* The margin's share of the workers: while every column within `near`
 * voxels of the centre is there or generating, at most `jobs` columns
 * generate at once (0: as many as stream_set_workers allows). Columns
 * enter the radius in rows as the player moves, and on a machine whose
 * cores the renderer fills, every worker at once on the margin (what
 * the player cannot see yet) takes them from the frame. Anything missing
 * nearer than `near` lifts the limit, and stream_wait never has it. */
void stream_set_margin_jobs(stream *s, int jobs, int near);

/* Folds column (cx, cz) into h: its coordinates, then each chunk's voxels
 * and tints bottom up (world_hash_chunk). A ready column is read from the
 * window; any other is generated into `scratch` (a 1 x cy x 1 window, moved
 * there) with the stored edits put over it, i.e. what the stream would
 * install. So a region hashes the same whatever is resident. */
bool stream_hash_column(const stream *s, world *scratch, int cx, int cz, uint64_t *h);

stream_stats stream_get_stats(const stream *s);
world *stream_world(const stream *s);

#endif
