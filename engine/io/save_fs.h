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
/* Whether the folder holding path can be written (its owner's write bit
 * too, as for the file: root is not stopped by permissions, but a folder
 * the player made read-only stays so); its name into dir. */
bool save_fs_folder_writable(const char *path, char *dir, size_t len);
/* path as an SQLite URI ("file:..." with reserved characters escaped). */
bool save_fs_uri(const char *path, const char *query, char *out, size_t len);
/* Free bytes on the file system of path's folder; -1 when unknown. */
long long save_fs_free_bytes(const char *path);
/* Removes path and its -wal, -shm and -journal (a copy that failed). */
void save_fs_remove(const char *path);
/* Creates every missing folder above path. */
void save_fs_mkdir_parents(const char *path);

#endif
