/* app_far_edits: what the far rings know of the player's edits (docs/streaming.md,
 * "The far rings"). Per edited chunk column, a summary: the top visible
 * voxel and its material at each of the column's 32 x 32 voxel columns,
 * 3 KiB, what a ring cell needs of it; the rings keep these, not voxels.
 *
 * A summary is taken from the window while its column is resident (on
 * every edit, and on an arrival that brought stored edits) and kept when
 * the column leaves. A column whose edits exist only in the save file (a
 * world loaded from an earlier run, the player not near it since) is
 * summarized on the workers: the generator's column with the file's chunks
 * read back over it (stream_read_paged_column), what the stream would
 * install, nearest the player first, a few at a time. Main thread, except
 * those jobs. */
#ifndef STRATA_APP_FAR_EDITS_H
#define STRATA_APP_FAR_EDITS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/jobs.h"
#include "voxel/stream.h"
#include "voxel/world.h"

typedef struct far_edit {
    int cx, cz;
    int16_t top[CHUNK_AREA]; /* the top voxel that is not air, by lz * 32 + lx (0 when there is none) */
    uint8_t mat[CHUNK_AREA]; /* its material */
} far_edit;

/* A build's copy of the summaries, so the main thread may edit meanwhile. */
typedef struct far_edits {
    int count;
    far_edit *e;
} far_edits;

typedef struct far_edit_set far_edit_set;

/* changed(arg, cx, cz): column (cx, cz)'s summary came, went or changed
 * (the rings over it are rebuilt). */
typedef void (*far_edit_changed_fn)(void *arg, int cx, int cz);

far_edit_set *far_edits_create(far_edit_changed_fn changed, void *arg);
/* Its jobs must be done: far_edits_forget, or the pool destroyed. */
void far_edits_destroy(far_edit_set *s);
/* Waits for the jobs in flight and drops what they made and what was
 * still to summarize (the world is leaving: its stream goes); with `all`
 * the summaries too (a new world; the same world in a resized window
 * keeps them). */
void far_edits_forget(far_edit_set *s, job_pool *jobs, bool all);

int far_edits_count(const far_edit_set *s);
/* Columns summarized from the file since the world came. */
int far_edits_read_count(const far_edit_set *s);

/* Resident ready column (cx, cz) of w: its summary taken again while any
 * chunk of it is edited, dropped when none is. */
void far_edits_take(far_edit_set *s, const world *w, int cx, int cz);
/* A copy of every summary into *out (empty when there is no memory:
 * the rings then show the generator's surface). */
void far_edits_copy(const far_edit_set *s, far_edits *out);

/* One frame: lands the summaries the workers finished, looks for paged
 * columns within `radius` voxels of (x, z) that have none when the
 * stream's paged set changed or the player moved, and gives the workers
 * the nearest. With `wait`, until every one is made. */
void far_edits_saved_step(far_edit_set *s, stream *st, job_pool *jobs, double x, double z, double radius, bool wait);
/* Every paged column of st within `radius` of (x, z) that is not ready
 * has its summary. */
bool far_edits_saved_done(const far_edit_set *s, const stream *st, double x, double z, double radius);

#endif
