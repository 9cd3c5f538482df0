/* realpath is X/Open, beyond the POSIX level the build asks for */
#define _XOPEN_SOURCE 700

#include "io/save_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Named after the world's real path, so that a symlink to a world and the
 * world itself share one lock; a world not made yet by its folder's real
 * path, so that two spellings of one new file (./w, w) share one too. */
static void lock_name(const char *world, char *out, size_t len)
{
    char real[PATH_MAX];
    if (realpath(world, real)) {
        snprintf(out, len, "%s.lock", real);
        return;
    }
    const char *slash = strrchr(world, '/'), *base = slash ? slash + 1 : world;
    char dir[PATH_MAX];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == world) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - world), world);
    if (realpath(dir, real)) snprintf(out, len, "%s%s%s.lock", real, strcmp(real, "/") ? "/" : "", base);
    else snprintf(out, len, "%s.lock", world);
}

/* The pid the holder wrote; 0 while it has not written it yet. */
static long read_pid(int fd)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return 0;
    buf[n] = 0;
    long pid = strtol(buf, NULL, 10);
    return pid > 0 ? pid : 0;
}

/* The lock on the world file itself: two names of one file (hard links)
 * have two sidecars but one inode. flock, not fcntl: SQLite's own locks on
 * the file are fcntl ones, and the two kinds never meet on a local file
 * system. The descriptor stays open until the release, after SQLite closed
 * the file: closing any descriptor of a file drops every fcntl lock the
 * process has on it, SQLite's included. So only a game that finds the file
 * held through another name closes one early; if that game holds the file
 * itself through the other name (a 'load' of its own hard link), SQLite's
 * fcntl locks on it go, which our flock still covers against other games. */
static save_lock_result lock_world_file(save_lock *l, const char *world, char *err, size_t errlen)
{
    int fd = open(world, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return SAVE_LOCK_TAKEN; /* not made yet (save_lock_bind_file), or unreadable: SQLite says why */
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        l->world_fd = fd;
        return SAVE_LOCK_TAKEN;
    }
    int e = errno;
    close(fd);
    if (e == EWOULDBLOCK) {
        l->by_other_name = true;
        return SAVE_LOCK_HELD;
    }
    snprintf(err, errlen, "%s cannot be locked: %s", world, strerror(e));
    return e == ENOLCK || e == EOPNOTSUPP || e == ENOSYS ? SAVE_LOCK_UNSUPPORTED : SAVE_LOCK_ERROR;
}

void save_lock_bind_file(save_lock *l, const char *world)
{
    if (l->fd < 0) return;
    struct stat held, now;
    bool same = l->world_fd >= 0 && fstat(l->world_fd, &held) == 0 && stat(world, &now) == 0 &&
                held.st_dev == now.st_dev && held.st_ino == now.st_ino;
    if (same) return;
    /* the file locked was moved aside (unusable) and a fresh one made: SQLite has closed the old one */
    if (l->world_fd >= 0) close(l->world_fd);
    l->world_fd = -1;
    char err[64];
    lock_world_file(l, world, err, sizeof err); /* just made by this game: nobody else can hold it */
}

/* The sidecar lock, as save_lock_take takes it. */
static save_lock_result lock_sidecar(save_lock *l, long *holder, char *err, size_t errlen);

save_lock_result save_lock_take(save_lock *l, const char *world, long *holder, char *err, size_t errlen)
{
    l->fd = -1;
    l->world_fd = -1;
    l->by_other_name = false;
    *holder = 0;
    lock_name(world, l->path, sizeof l->path);
    save_lock_result r = lock_sidecar(l, holder, err, errlen);
    if (r != SAVE_LOCK_TAKEN) return r;
    r = lock_world_file(l, world, err, errlen);
    if (r == SAVE_LOCK_TAKEN || r == SAVE_LOCK_UNSUPPORTED) return r; /* unsupported: the sidecar still guards the name */
    save_lock_release(l);
    return r;
}

static save_lock_result lock_sidecar(save_lock *l, long *holder, char *err, size_t errlen)
{
    /* The holder removes the lock file as it lets go, so a lock won on a
     * file that is no longer at that path guards nothing: try again. */
    for (int attempt = 0; attempt < 8; attempt++) {
        int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        /* a lock file another user left (a game run once with sudo) cannot
         * be written, but it can still be locked: flock needs no write access */
        bool readable_only = fd < 0 && (errno == EACCES || errno == EPERM);
        if (readable_only) fd = open(l->path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            snprintf(err, errlen, "%s cannot be made: %s", l->path, strerror(errno));
            return SAVE_LOCK_ERROR;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            close(fd);
            if (e == EWOULDBLOCK) {
                int rfd = open(l->path, O_RDONLY | O_CLOEXEC);
                *holder = rfd >= 0 ? read_pid(rfd) : 0;
                if (rfd >= 0) close(rfd);
                return SAVE_LOCK_HELD;
            }
            snprintf(err, errlen, "%s cannot be locked: %s", l->path, strerror(e));
            /* a file system without locks (some network mounts): writing
             * unguarded beats never saving; the caller says so */
            return e == ENOLCK || e == EOPNOTSUPP || e == ENOSYS ? SAVE_LOCK_UNSUPPORTED : SAVE_LOCK_ERROR;
        }
        struct stat held, now;
        if (fstat(fd, &held) == 0 && stat(l->path, &now) == 0 && held.st_dev == now.st_dev &&
            held.st_ino == now.st_ino) {
            char pid[32];
            int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            /* the pid only names the holder in messages: failing to write it is no reason to give up the lock */
            bool named = !readable_only && ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) == n;
            (void)named;
            l->fd = fd;
            return SAVE_LOCK_TAKEN;
        }
        close(fd);
    }
    snprintf(err, errlen, "%s is being replaced over and over; not locked", l->path);
    return SAVE_LOCK_ERROR;
}

void save_lock_release(save_lock *l)
{
    if (l->world_fd >= 0) close(l->world_fd);
    l->world_fd = -1;
    if (l->fd < 0) return;
    unlink(l->path); /* while still holding it: see lock_sidecar */
    close(l->fd);
    l->fd = -1;
}
