#include "ui/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "ui/bind.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

#define CONFIG_PATH_MAX 4096

/* Resolved once at start; part of the console's settings state. */
static char g_path[CONFIG_PATH_MAX];
static char g_dir[CONFIG_PATH_MAX];

bool config_mkdirs(const char *dir)
{
    char buf[CONFIG_PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) return false;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return false;
        *p = '/';
    }
    return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

static void set_dir_from_path(void)
{
    snprintf(g_dir, sizeof g_dir, "%s", g_path);
    char *slash = strrchr(g_dir, '/');
    if (slash) *slash = 0;
    else snprintf(g_dir, sizeof g_dir, ".");
}

void config_init(const char *override)
{
    g_path[0] = g_dir[0] = 0;
    if (override && *override) {
        snprintf(g_path, sizeof g_path, "%s", override);
        set_dir_from_path();
        return;
    }
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    /* the XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored */
    if (xdg && xdg[0] == '/') snprintf(g_path, sizeof g_path, "%s/strata/config.cfg", xdg);
    else if (home && *home) snprintf(g_path, sizeof g_path, "%s/.config/strata/config.cfg", home);
    else {
        log_warn("neither XDG_CONFIG_HOME nor HOME is set: settings will not be saved");
        return;
    }
    set_dir_from_path();
}

const char *config_path(void) { return g_path[0] ? g_path : NULL; }

bool config_sibling(const char *name, char *out, size_t len)
{
    if (!g_dir[0]) return false;
    return snprintf(out, len, "%s/%s", g_dir, name) < (int)len;
}

static int exec_if_present(const char *path)
{
    errno = 0;
    int failures = cmd_exec_file(path);
    if (failures < 0) {
        if (errno == ENOENT) return 0; /* not made yet: writeconfig (or quitting a window) makes it */
        log_error("%s: cannot read: %s", path, cmd_file_error(errno));
        return 1;
    }
    if (failures) log_warn("%s: %d line%s failed (the rest were applied)", path, failures, failures == 1 ? "" : "s");
    return failures;
}

/* Configs written before bindings were stored as changes begin their
 * bindings with "unbindall": they wipe every default, including keys that
 * version did not have yet. */
static bool is_legacy_config(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[CMD_MAX_LINE + 2];
    bool legacy = false;
    while (!legacy && fgets(line, sizeof line, f)) legacy = strcmp(line, "unbindall\n") == 0;
    fclose(f);
    return legacy;
}

int config_load_file(void)
{
    return g_path[0] ? exec_if_present(g_path) : 0;
}

int config_load(void)
{
    if (!g_path[0]) return 0;
    int failures = config_load_file();
    if (is_legacy_config(g_path)) {
        /* which default keys the user unbound cannot be told apart from
         * ones the old version lacked: give every unbound default back */
        int n = bind_restore_missing_defaults();
        if (n) log_info("%s: from an older version; %d default key binding%s restored", g_path, n, n == 1 ? "" : "s");
    }
    char autoexec[CONFIG_PATH_MAX];
    if (config_sibling("autoexec.cfg", autoexec, sizeof autoexec)) failures += exec_if_present(autoexec);
    return failures;
}

bool config_write(const char *path)
{
    if (!path) path = config_path();
    if (!path) {
        log_error("writeconfig: no config location (set HOME or XDG_CONFIG_HOME, or give a file)");
        return false;
    }
    char dir[CONFIG_PATH_MAX], tmp[CONFIG_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        if (!config_mkdirs(dir)) {
            log_error("writeconfig: cannot create %s: %s", dir, strerror(errno));
            return false;
        }
    }
    if (snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        log_error("writeconfig: path too long");
        return false;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        log_error("writeconfig: cannot write %s: %s", tmp, strerror(errno));
        return false;
    }
    fprintf(f, "// strata settings: archived cvars and key bindings.\n"
               "// Rewritten on exit and by 'writeconfig'; put your own commands in autoexec.cfg.\n");
    for (int i = 0; i < cvar_count(); i++) {
        const cvar *c = cvar_at(i);
        if (!(c->d.flags & CVAR_ARCHIVE) || (c->d.flags & CVAR_READONLY)) continue;
        char q[CMD_MAX_LINE] = "";
        if (cmd_quote(c->str, q, sizeof q)) fprintf(f, "set %s %s\n", c->d.name, q);
    }
    bind_write(f);
    bool ok = fflush(f) == 0 && !ferror(f);
    ok = ok && fsync(fileno(f)) == 0; /* the rename must not land before the data */
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
        log_error("writeconfig: cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

/* ---- commands ---------------------------------------------------------- */

static int c_writeconfig(void *u, int argc, char **argv)
{
    if (argc > 2) { log_error("usage: writeconfig [FILE]"); return 1; }
    const char *path = argc == 2 ? argv[1] : config_path();
    if (!config_write(path)) return 1;
    log_info("wrote %s", path);
    return 0;
}

/* exec NAME: the path as given, else beside the config ("exec autoexec.cfg") */
static int c_exec(void *u, int argc, char **argv)
{
    if (argc != 2) { log_error("usage: exec FILE"); return 1; }
    const char *path = argv[1];
    char beside[CONFIG_PATH_MAX];
    if (path[0] != '/' && access(path, F_OK) != 0 && config_sibling(path, beside, sizeof beside) &&
        access(beside, F_OK) == 0)
        path = beside;
    errno = 0;
    int failures = cmd_exec_file(path);
    if (failures < 0) {
        log_error("exec: cannot read '%s': %s", argv[1], cmd_file_error(errno));
        return 1;
    }
    return failures ? 1 : 0;
}

void config_register_commands(void)
{
    static const cmd_desc table[] = {
        { "writeconfig", "[FILE]", "save archived cvars and key bindings (default: the config file)", c_writeconfig,
          NULL },
        { "exec", "FILE", "run a file of commands (errors report file:line; also looks beside the config)", c_exec,
          NULL },
    };
    cmd_register_table(table, (int)(sizeof table / sizeof table[0]));
}

/* ---- pictures ---------------------------------------------------------- */

/* Reads XDG_PICTURES_DIR="$HOME/Pictures" from user-dirs.dirs, as xdg-user-dir does. */
static bool user_dirs_pictures(const char *home, char *out, size_t len)
{
    char file[CONFIG_PATH_MAX];
    const char *xdg = getenv("XDG_CONFIG_HOME");
    if (xdg && xdg[0] == '/') snprintf(file, sizeof file, "%s/user-dirs.dirs", xdg);
    else snprintf(file, sizeof file, "%s/.config/user-dirs.dirs", home);
    FILE *f = fopen(file, "r");
    if (!f) return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        const char *key = "XDG_PICTURES_DIR=\"";
        if (strncmp(line, key, strlen(key)) != 0) continue;
        char *v = line + strlen(key), *end = strchr(v, '"');
        if (!end) continue;
        *end = 0;
        if (strncmp(v, "$HOME", 5) == 0) found = snprintf(out, len, "%s%s", home, v + 5) < (int)len;
        else if (v[0] == '/') found = snprintf(out, len, "%s", v) < (int)len;
    }
    fclose(f);
    return found;
}

bool config_pictures_dir(char *out, size_t len)
{
    const char *home = getenv("HOME");
    char base[CONFIG_PATH_MAX];
    const char *env = getenv("XDG_PICTURES_DIR");
    if (env && env[0] == '/') snprintf(base, sizeof base, "%s", env);
    else if (!home || !*home) return false;
    else if (!user_dirs_pictures(home, base, sizeof base)) snprintf(base, sizeof base, "%s/Pictures", home);
    if (snprintf(out, len, "%s/strata", base) >= (int)len) return false;
    return config_mkdirs(out);
}

bool config_screenshot_path(char *out, size_t len)
{
    char dir[CONFIG_PATH_MAX], stamp[32];
    if (!config_pictures_dir(dir, sizeof dir)) return false;
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int n = 1; n < 100; n++) {
        int w = n == 1 ? snprintf(out, len, "%s/strata-%s.png", dir, stamp)
                       : snprintf(out, len, "%s/strata-%s-%d.png", dir, stamp, n);
        if (w >= (int)len) return false;
        if (access(out, F_OK) != 0) return true; /* two shots in one second get -2, -3 ... */
    }
    return false;
}
