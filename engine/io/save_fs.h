/* save_fs: the file-system side of world files: timestamped names beside a
 * file, moving a file aside with its WAL and shared-memory companions (a
 * file we must not overwrite), and making a save's folder. */
#ifndef STRATA_SAVE_FS_H
#define STRATA_SAVE_FS_H

#include <stdbool.h>
#include <stddef.h>

/* path + "." + what + "-" + UTC timestamp, made unique with a suffix. */
void save_fs_aside_name(const char *path, const char *what, char *out, size_t len);
/* Renames path (and its -wal, -shm, -journal) to an "unusable" aside name,
 * written into `to`; false with err when it cannot (the file is left). */
bool save_fs_move_aside(const char *path, char *to, size_t tolen, char *err, size_t errlen);
/* Creates every missing folder above path. */
void save_fs_mkdir_parents(const char *path);

#endif
