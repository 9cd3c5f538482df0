#include "io/save_fs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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

/* The companions SQLite keeps beside a world file. */
static const char *const sfx[] = { "-wal", "-shm", "-journal" };

void save_fs_remove(const char *path)
{
    remove(path);
    for (int i = 0; i < 3; i++) {
        char a[1100];
        snprintf(a, sizeof a, "%s%s", path, sfx[i]);
        remove(a);
    }
}

/* Renames the file and its WAL and shared-memory files aside together. */
bool save_fs_move_aside(const char *path, char *to, size_t tolen, char *err, size_t errlen)
{
    save_fs_aside_name(path, "unusable", to, tolen);
    if (rename(path, to) != 0) {
        snprintf(err, errlen, "%s cannot be moved aside to %s: %s (left as it is)", path, to, strerror(errno));
        return false;
    }
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

bool save_fs_folder_writable(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, len, ".");
    else if (slash == path) snprintf(dir, len, "/");
    else snprintf(dir, len, "%.*s", (int)(slash - path), path);
    struct stat sb;
    if (stat(dir, &sb) != 0) return true; /* not made yet: making it says what is wrong */
    return (sb.st_mode & S_IWUSR) && access(dir, W_OK) == 0;
}

bool save_fs_uri(const char *path, const char *query, char *out, size_t len)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = (size_t)snprintf(out, len, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p && n + 4 < len; p++) {
        bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                     strchr("/-._~", *p);
        if (plain) out[n++] = (char)*p;
        else out[n++] = '%', out[n++] = hex[*p >> 4], out[n++] = hex[*p & 15];
    }
    out[n] = 0;
    int q = snprintf(out + n, len - n, "?%s", query);
    return q > 0 && (size_t)q < len - n;
}

long long save_fs_free_bytes(const char *path)
{
    char dir[1024];
    save_fs_folder_writable(path, dir, sizeof dir);
    struct statvfs v;
    if (statvfs(dir, &v) != 0) return -1;
    return (long long)v.f_bavail * (long long)v.f_frsize;
}
