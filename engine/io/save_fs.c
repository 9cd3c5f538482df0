#include "io/save_fs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void stamp(char *out, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, len, "%Y%m%d-%H%M%S", &tm);
}

/* path + "." + what + "-" + timestamp, unique (a suffix when taken). */
void save_fs_aside_name(const char *path, const char *what, char *out, size_t len)
{
    char ts[32];
    stamp(ts, sizeof ts);
    snprintf(out, len, "%s.%s-%s", path, what, ts);
    for (int i = 2; access(out, F_OK) == 0 && i < 1000; i++) snprintf(out, len, "%s.%s-%s-%d", path, what, ts, i);
}

/* Renames the file and its WAL and shared-memory files aside together. */
bool save_fs_move_aside(const char *path, char *to, size_t tolen, char *err, size_t errlen)
{
    save_fs_aside_name(path, "unusable", to, tolen);
    if (rename(path, to) != 0) {
        snprintf(err, errlen, "%s cannot be moved aside to %s: %s (left as it is)", path, to, strerror(errno));
        return false;
    }
    static const char *const sfx[] = { "-wal", "-shm", "-journal" };
    for (int i = 0; i < 3; i++) {
        char a[700], b[700];
        snprintf(a, sizeof a, "%s%s", path, sfx[i]);
        snprintf(b, sizeof b, "%s%s", to, sfx[i]);
        if (access(a, F_OK) == 0) rename(a, b);
    }
    return true;
}

void save_fs_mkdir_parents(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(dir, 0755);
        *p = '/';
    }
}

