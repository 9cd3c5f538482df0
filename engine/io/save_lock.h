/* save_lock: one writing game per world file. An exclusive OS lock (flock)
 * on a sidecar FILE.lock and on the world file itself, held for as long as
 * the file is open for writing; the kernel drops both when the process ends
 * however it ends (kill -9, a crash), so a lock is never stale. The sidecar
 * names the holder (its pid) and guards a world not made yet; the lock on
 * the file guards it by identity, whatever name (a hard link) it is opened by. */
#ifndef STRATA_SAVE_LOCK_H
#define STRATA_SAVE_LOCK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct save_lock {
    int fd;         /* -1: not held */
    char path[PATH_MAX + 8]; /* the lock file, beside the world's real path */
    int world_fd;   /* the world file itself, flocked: -1 while it does not exist */
    bool by_other_name; /* SAVE_LOCK_HELD: the file is held through another of its names */
} save_lock;

typedef enum save_lock_result {
    SAVE_LOCK_TAKEN, /* this process now holds the world */
    SAVE_LOCK_HELD,  /* another process (or open) holds it: *holder is its pid, 0 when unknown */
    SAVE_LOCK_ERROR, /* the lock file cannot be made or locked: err says why */
    SAVE_LOCK_UNSUPPORTED, /* the file system has no locks (err says so): nothing guards the world */
} save_lock_result;

/* Tries (never waits) to take the lock of `world` (which need not exist).
 * l is initialised either way; save_lock_release is safe on it. */
save_lock_result save_lock_take(save_lock *l, const char *world, long *holder, char *err, size_t errlen);
/* The world file now exists (it was made after save_lock_take): locks it
 * too, so that a hard link made to it later cannot open a second writer. */
void save_lock_bind_file(save_lock *l, const char *world);
/* Releases the lock and removes the lock file (no-op when not held). */
void save_lock_release(save_lock *l);

#endif
