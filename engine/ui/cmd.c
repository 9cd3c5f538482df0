#include "ui/cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "ui/cvar.h"

static cmd_desc *g_cmds;
static int g_ncmds, g_capcmds;

static int cmd_cmp(const void *a, const void *b)
{
    return strcmp(((const cmd_desc *)a)->name, ((const cmd_desc *)b)->name);
}

void cmd_register(const cmd_desc *d)
{
    for (int i = 0; i < g_ncmds; i++)
        if (strcmp(g_cmds[i].name, d->name) == 0) { g_cmds[i] = *d; return; }
    if (g_ncmds == g_capcmds) {
        g_capcmds = g_capcmds ? g_capcmds * 2 : 64;
        g_cmds = realloc(g_cmds, sizeof *g_cmds * (size_t)g_capcmds);
    }
    g_cmds[g_ncmds++] = *d;
    qsort(g_cmds, (size_t)g_ncmds, sizeof *g_cmds, cmd_cmp);
}

void cmd_register_table(const cmd_desc *table, int count)
{
    for (int i = 0; i < count; i++) cmd_register(&table[i]);
}

void cmd_unregister(const char *name)
{
    const cmd_desc *c = cmd_find(name);
    if (!c) return;
    int at = (int)(c - g_cmds);
    memmove(g_cmds + at, g_cmds + at + 1, sizeof *g_cmds * (size_t)(g_ncmds - at - 1));
    g_ncmds--;
}

const cmd_desc *cmd_find(const char *name)
{
    cmd_desc key = { .name = name };
    if (!g_cmds) return NULL;
    return bsearch(&key, g_cmds, (size_t)g_ncmds, sizeof *g_cmds, cmd_cmp);
}

int cmd_count(void) { return g_ncmds; }
const cmd_desc *cmd_at(int index) { return (index >= 0 && index < g_ncmds) ? &g_cmds[index] : NULL; }

void cmd_shutdown(void)
{
    free(g_cmds);
    g_cmds = NULL;
    g_ncmds = g_capcmds = 0;
}

/* ---- parsing ----------------------------------------------------------- */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The bytes cmd_quote writes as \xHH: control bytes, which the parser
 * refuses raw outside quotes. Other \x text stays as typed. */
static bool is_escaped_byte(int v) { return (v > 0 && v < 0x20 && v != '\t') || v == 0x7f; }

int cmd_parse(const char *text, cmd_visit_fn fn, void *user, char *err, size_t errlen)
{
    char dummy[8];
    if (!err) { err = dummy; errlen = sizeof dummy; }
    err[0] = 0;
    size_t len = strlen(text);
    if (len >= CMD_MAX_LINE * 16) {
        snprintf(err, errlen, "line too long (%zu characters, at most %d)", len, CMD_MAX_LINE * 16);
        return -1;
    }
    /* Two passes: the first only validates, so a syntax error anywhere runs nothing. */
    for (int pass = 0; pass < 2; pass++) {
        const char *p = text;
        while (*p) {
            cmd_args a;
            a.argc = 0;
            size_t out = 0;
            const char *start = p;
            bool done_cmd = false;
            while (!done_cmd) {
                while (*p == ' ' || *p == '\t' || *p == '\r') p++;
                if (*p == 0 || *p == ';' || *p == '\n') { if (*p) p++; break; }
                if (p[0] == '/' && p[1] == '/') { while (*p && *p != '\n') p++; continue; }
                if ((unsigned char)*p < 0x20 && *p != '\t') {
                    snprintf(err, errlen, "column %d: control character 0x%02x", (int)(p - text) + 1, (unsigned char)*p);
                    return -1;
                }
                if (a.argc == CMD_MAX_ARGS) {
                    snprintf(err, errlen, "column %d: too many arguments (at most %d)", (int)(p - text) + 1, CMD_MAX_ARGS);
                    return -1;
                }
                a.argv[a.argc++] = a.buf + out;
                if (*p == '"') {
                    const char *q = p++;
                    for (;;) {
                        if (*p == 0 || *p == '\n') {
                            snprintf(err, errlen, "column %d: unbalanced quote", (int)(q - text) + 1);
                            return -1;
                        }
                        if (*p == '"') { p++; break; }
                        char ch = *p++;
                        if (ch == '\\' && (*p == '"' || *p == '\\' || *p == 'n')) {
                            ch = *p == 'n' ? '\n' : *p;
                            p++;
                        } else if (ch == '\\' && *p == 'x' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0 &&
                                   is_escaped_byte(hexval(p[1]) * 16 + hexval(p[2]))) {
                            ch = (char)(hexval(p[1]) * 16 + hexval(p[2])); /* what cmd_quote writes for control bytes */
                            p += 3;
                        }
                        if (out + 2 >= sizeof a.buf) goto toolong;
                        a.buf[out++] = ch;
                    }
                } else {
                    while (*p && *p != ' ' && *p != '\t' && *p != ';' && *p != '\n' && *p != '"' &&
                           !(p[0] == '/' && p[1] == '/')) {
                        if ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\r') break;
                        if (*p == '\r') { p++; continue; }
                        if (out + 2 >= sizeof a.buf) goto toolong;
                        a.buf[out++] = *p++;
                    }
                }
                a.buf[out++] = 0;
            }
            if (pass == 1 && a.argc > 0) {
                char source[256];
                while (*start == ' ' || *start == '\t' || *start == '\r') start++; /* "failed: regen", one space */
                size_t n = p > start ? (size_t)(p - start) : 0;
                if (n >= sizeof source) n = sizeof source - 1;
                memcpy(source, start, n);
                source[n] = 0;
                while (n > 0 && (source[n - 1] == ';' || source[n - 1] == ' ' || source[n - 1] == '\n')) source[--n] = 0;
                int rc = fn(user, &a, source);
                if (rc) return rc;
            }
            continue;
        toolong:
            snprintf(err, errlen, "column %d: command too long (at most %d characters)", (int)(p - text) + 1,
                     CMD_MAX_LINE);
            return -1;
        }
    }
    return 0;
}

/* ---- suggestions ------------------------------------------------------- */

int cmd_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 99;
    int row[65];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int sub = prev + (a[i - 1] != b[j - 1]);
            int del = row[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            prev = cur;
        }
    }
    return row[lb];
}

const char *cmd_suggest(const char *name)
{
    const char *best = NULL;
    int bestd = 3; /* farther than two edits is not a typo */
    for (int i = 0; i < g_ncmds; i++) {
        int d = cmd_edit_distance(name, g_cmds[i].name);
        if (d < bestd) { bestd = d; best = g_cmds[i].name; }
    }
    for (int i = 0; i < cvar_count(); i++) {
        int d = cmd_edit_distance(name, cvar_at(i)->d.name);
        if (d < bestd) { bestd = d; best = cvar_at(i)->d.name; }
    }
    return best;
}

/* ---- execution --------------------------------------------------------- */

static bool (*g_ready_fn)(void *user);
static void *g_ready_user;
static bool g_stop;  /* quit ran: skip the rest of the script */
static int g_nesting; /* cmd_exec / cmd_exec_file calls in progress */

void cmd_set_ready_fn(bool (*ready)(void *user), void *user)
{
    g_ready_fn = ready;
    g_ready_user = user;
}

void cmd_stop(void) { g_stop = true; }
bool cmd_stopped(void) { return g_stop; }

static void leave_exec(void)
{
    if (--g_nesting == 0) g_stop = false;
}

static int run_one(void *user, cmd_args *a, const char *source)
{
    (void)user;
    if (g_stop) return 0;
    const cmd_desc *c = cmd_find(a->argv[0]);
    int rc;
    if (c && (c->flags & CMD_NEEDS_WORLD) && g_ready_fn && !g_ready_fn(g_ready_user)) {
        log_error("%s: no world yet (a config file runs before the world is made; use --exec or the console)",
                  c->name);
        rc = 1;
    } else if (c) {
        rc = c->fn(c->user, a->argc, a->argv);
    } else if (cvar_find(a->argv[0])) {
        /* Quake style: a bare cvar name prints it, "name value" sets it */
        cvar *v = cvar_find(a->argv[0]);
        if (a->argc == 1) { log_out("%s=%s", v->d.name, v->str); rc = 0; }
        else rc = cvar_set_by_name(a->argv[0], a->argv[1]) ? 0 : 1;
    } else {
        const char *s = cmd_suggest(a->argv[0]);
        if (s) log_error("unknown command '%s' — did you mean '%s'?", a->argv[0], s);
        else log_error("unknown command '%s' (try 'help')", a->argv[0]);
        rc = 1;
    }
    if (rc) log_error("failed: %s", source);
    return rc ? 1 : 0;
}

int cmd_exec(const char *line)
{
    char err[256];
    g_nesting++;
    int rc = cmd_parse(line, run_one, NULL, err, sizeof err);
    leave_exec();
    if (rc < 0) {
        log_error("%s", err);
        return 1;
    }
    return rc;
}

/* A config that execs itself would otherwise recurse until the stack is gone. */
#define CMD_MAX_EXEC_DEPTH 8
static int g_exec_depth;

/* A file of commands is read whole (at most this much) and checked before
 * any line runs: random bytes or a binary file would otherwise run the
 * lines that happen to parse before the first bad byte. */
#define CMD_MAX_FILE (4 << 20)

/* Whether the bytes are text: UTF-8 without NUL or control bytes other
 * than tab, CR and LF. If not, where the first bad byte is (line:col, from
 * 1) and what it is. */
static bool text_check(const unsigned char *p, size_t n, int *line, int *col, const char **what)
{
    *line = *col = 1;
    for (size_t i = 0; i < n; (*col)++) {
        unsigned c = p[i];
        if (c == '\n') {
            (*line)++, *col = 0, i++;
            continue;
        }
        if (c == 0 || (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
            *what = c == 0 ? "a NUL byte" : "a control byte";
            return false;
        }
        size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        bool ok = len && i + len <= n && !(len == 2 && c < 0xc2) && !(len == 4 && c > 0xf4);
        for (size_t k = 1; ok && k < len; k++) ok = (p[i + k] & 0xc0) == 0x80;
        if (!ok) {
            *what = "a byte that is not UTF-8";
            return false;
        }
        i += len;
    }
    return true;
}

/* The file's bytes (NUL-terminated, *n long), or NULL with errno set:
 * EISDIR for a directory, EINVAL for anything else that is not a regular
 * file (a FIFO or a device would block or never end), EFBIG when larger
 * than CMD_MAX_FILE. Opened without blocking so that a FIFO with no
 * writer cannot hang the game at the open. */
static char *read_whole(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    int e = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : !S_ISREG(st.st_mode) ? EINVAL
                                      : st.st_size > CMD_MAX_FILE                              ? EFBIG
                                                                                               : 0;
    char *buf = e ? NULL : malloc((size_t)st.st_size + 1);
    if (!e && !buf) e = ENOMEM;
    size_t got = 0;
    while (!e && got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) e = errno;
        if (r <= 0) break; /* shrank while read: what is there */
        got += (size_t)r;
    }
    close(fd);
    if (e) {
        free(buf);
        errno = e;
        return NULL;
    }
    buf[got] = 0;
    *n = got;
    return buf;
}

const char *cmd_file_error(int e)
{
    if (e == EINVAL) return "not a regular file (a FIFO or device is not read)";
    if (e == EFBIG) return "larger than 4 MiB: not a file of commands";
    if (e == EILSEQ) return "not text, so not a file of commands (none of it was run)";
    return e ? strerror(e) : "unknown error";
}

int cmd_exec_file(const char *path)
{
    if (g_exec_depth >= CMD_MAX_EXEC_DEPTH) {
        log_error("exec %s: nested more than %d deep (does a file exec itself?)", path, CMD_MAX_EXEC_DEPTH);
        errno = ELOOP;
        return -1;
    }
    size_t size = 0;
    char *text = read_whole(path, &size);
    if (!text) return -1;
    int bad_line, bad_col;
    const char *what = "";
    if (!text_check((const unsigned char *)text, size, &bad_line, &bad_col, &what)) {
        log_error("%s:%d:%d: %s", path, bad_line, bad_col, what);
        free(text);
        errno = EILSEQ;
        return -1;
    }
    g_exec_depth++;
    g_nesting++;
    int lineno = 0, failures = 0;
    for (char *p = text; !g_stop && p < text + size;) {
        char *nl = strchr(p, '\n');
        char *end = nl ? nl : text + size;
        *end = 0;
        lineno++;
        char *line = p;
        p = end + 1;
        if ((size_t)(end - line) >= CMD_MAX_LINE) {
            log_error("%s:%d: line too long (at most %d characters)", path, lineno, CMD_MAX_LINE - 1);
            failures++;
            continue;
        }
        char err[256];
        int rc = cmd_parse(line, run_one, NULL, err, sizeof err);
        if (rc < 0) log_error("%s:%d: %s", path, lineno, err);
        else if (rc) log_error("%s:%d: the line above failed", path, lineno);
        if (rc) failures++;
    }
    free(text);
    g_exec_depth--;
    leave_exec();
    return failures;
}

/* ---- built-in commands ------------------------------------------------- */

static int c_set(void *u, int argc, char **argv)
{
    if (argc < 3) { log_error("usage: set NAME VALUE"); return 1; }
    char value[CMD_MAX_LINE];
    /* "set tool.shape x x * ..." — join the rest so formulas need no quotes */
    size_t n = 0;
    value[0] = 0;
    for (int i = 2; i < argc; i++) n += (size_t)snprintf(value + n, sizeof value - n, "%s%s", i > 2 ? " " : "", argv[i]);
    if (!cvar_find(argv[1])) {
        const char *s = cmd_suggest(argv[1]);
        if (s) log_error("unknown cvar '%s' — did you mean '%s'?", argv[1], s);
        else log_error("unknown cvar '%s'", argv[1]);
        return 1;
    }
    return cvar_set_by_name(argv[1], value) ? 0 : 1;
}

static int c_get(void *u, int argc, char **argv)
{
    if (argc != 2) { log_error("usage: get NAME"); return 1; }
    cvar *c = cvar_find(argv[1]);
    if (!c) { log_error("unknown cvar '%s'", argv[1]); return 1; }
    log_out("%s=%s", c->d.name, c->str);
    return 0;
}

static int c_reset(void *u, int argc, char **argv)
{
    if (argc != 2) { log_error("usage: reset NAME"); return 1; }
    cvar *c = cvar_find(argv[1]);
    if (!c) { log_error("unknown cvar '%s'", argv[1]); return 1; }
    cvar_reset(c);
    return 0;
}

static int c_toggle(void *u, int argc, char **argv)
{
    if (argc != 2) { log_error("usage: toggle NAME"); return 1; }
    cvar *c = cvar_find(argv[1]);
    if (!c || c->d.type != CVAR_BOOL) { log_error("'%s' is not a bool cvar", argv[1]); return 1; }
    return cvar_set_by_name(argv[1], c->b ? "0" : "1") ? 0 : 1;
}

static int c_help(void *u, int argc, char **argv)
{
    if (argc == 1) {
        int nw = 0, uw = 0; /* columns as wide as their widest entry: the help lines up */
        for (int i = 0; i < g_ncmds; i++) {
            int n = (int)strlen(g_cmds[i].name), k = g_cmds[i].usage ? (int)strlen(g_cmds[i].usage) : 0;
            if (n > nw) nw = n;
            if (k > uw) uw = k;
        }
        for (int i = 0; i < g_ncmds; i++)
            log_out("%-*s %-*s %s", nw, g_cmds[i].name, uw, g_cmds[i].usage ? g_cmds[i].usage : "", g_cmds[i].help);
        log_out("(cvars: 'cvarlist [prefix]'; 'help NAME' for one)");
        return 0;
    }
    const cmd_desc *c = cmd_find(argv[1]);
    if (c) { log_out("%s %s — %s", c->name, c->usage ? c->usage : "", c->help); return 0; }
    cvar *v = cvar_find(argv[1]);
    if (v) {
        char range[256];
        cvar_describe_range(v, range, sizeof range);
        const char *flags = (v->d.flags & CVAR_READONLY) ? "; read-only"
                            : (v->d.flags & CVAR_REGEN) ? "; regenerates the world"
                            : (v->d.flags & CVAR_LATCH) ? "; needs 'regen'"
                                                        : "";
        log_out("%s=%s (default %s; %s%s%s) — %s", v->d.name, v->str, v->d.def, range, flags,
                (v->d.flags & CVAR_ARCHIVE) ? "; saved" : "", v->d.help);
        return 0;
    }
    log_error("no command or cvar named '%s'", argv[1]);
    return 1;
}

static int c_cvarlist(void *u, int argc, char **argv)
{
    const char *prefix = argc > 1 ? argv[1] : "";
    for (int i = 0; i < cvar_count(); i++) {
        cvar *v = cvar_at(i);
        if (strncmp(v->d.name, prefix, strlen(prefix)) == 0) log_out("%s=%s", v->d.name, v->str);
    }
    return 0;
}

static int c_cmdlist(void *u, int argc, char **argv)
{
    for (int i = 0; i < g_ncmds; i++) log_out("%s", g_cmds[i].name);
    return 0;
}

static int c_echo(void *u, int argc, char **argv)
{
    char line[CMD_MAX_LINE];
    size_t n = 0;
    line[0] = 0;
    for (int i = 1; i < argc && n < sizeof line; i++) n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", i > 1 ? " " : "", argv[i]);
    log_out("%s", line);
    return 0;
}

static int c_exec(void *u, int argc, char **argv)
{
    if (argc != 2) { log_error("usage: exec FILE"); return 1; }
    errno = 0;
    int failures = cmd_exec_file(argv[1]);
    if (failures < 0) {
        log_error("exec: cannot read '%s': %s", argv[1], cmd_file_error(errno));
        return 1;
    }
    return failures ? 1 : 0;
}

static void (*g_quit_fn)(void *user);
static void *g_quit_user;

void cmd_set_quit_fn(void (*fn)(void *user), void *user)
{
    g_quit_fn = fn;
    g_quit_user = user;
}

static int c_quit(void *u, int argc, char **argv)
{
    if (!g_quit_fn) { log_error("quit: nothing to quit from here"); return 1; }
    g_quit_fn(g_quit_user);
    cmd_stop();
    return 0;
}

/* ---- completion -------------------------------------------------------- */

void cmd_complete_names(const char *prefix, bool commands, bool cvars, cmd_complete_add_fn add, void *ctx)
{
    size_t n = strlen(prefix);
    if (commands)
        for (int i = 0; i < g_ncmds; i++)
            if (strncmp(g_cmds[i].name, prefix, n) == 0) add(ctx, g_cmds[i].name);
    if (cvars)
        for (int i = 0; i < cvar_count(); i++)
            if (strncmp(cvar_at(i)->d.name, prefix, n) == 0) add(ctx, cvar_at(i)->d.name);
}

void cmd_complete_cvar_values(const char *cvar_name, const char *prefix, cmd_complete_add_fn add, void *ctx)
{
    const cvar *c = cvar_find(cvar_name);
    if (!c) return;
    size_t n = strlen(prefix);
    static const char *const bools[] = { "0", "1", "false", "true", NULL };
    const char *const *vals = c->d.type == CVAR_BOOL ? bools : c->d.type == CVAR_ENUM ? c->d.values : NULL;
    for (int i = 0; vals && vals[i]; i++)
        if (strncmp(vals[i], prefix, n) == 0) add(ctx, vals[i]);
}

static void complete_cvar_arg(void *u, int argc, char **argv, const char *prefix, cmd_complete_add_fn add, void *ctx)
{
    if (argc == 1) cmd_complete_names(prefix, false, true, add, ctx);
}

static void complete_set(void *u, int argc, char **argv, const char *prefix, cmd_complete_add_fn add, void *ctx)
{
    if (argc == 1) cmd_complete_names(prefix, false, true, add, ctx);
    else if (argc == 2) cmd_complete_cvar_values(argv[1], prefix, add, ctx);
}

static void complete_toggle(void *u, int argc, char **argv, const char *prefix, cmd_complete_add_fn add, void *ctx)
{
    if (argc != 1) return;
    size_t n = strlen(prefix);
    for (int i = 0; i < cvar_count(); i++) {
        const cvar *c = cvar_at(i);
        if (c->d.type == CVAR_BOOL && strncmp(c->d.name, prefix, n) == 0) add(ctx, c->d.name);
    }
}

static void complete_help(void *u, int argc, char **argv, const char *prefix, cmd_complete_add_fn add, void *ctx)
{
    if (argc == 1) cmd_complete_names(prefix, true, true, add, ctx);
}

size_t cmd_complete(const char *text, cmd_complete_add_fn add, void *ctx)
{
    /* A forgiving tokenizer: the line is half typed, so an open quote is
     * the word being completed, not an error. */
    char buf[CMD_MAX_LINE];
    char *argv[CMD_MAX_ARGS];
    int argc = 0;
    size_t out = 0, len = strlen(text), word_start = 0;
    bool in_word = false, quoted = false;
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (!quoted && (ch == ';' || ch == '\n')) { argc = 0; out = 0; in_word = false; continue; }
        if (!quoted && ch == '/' && text[i + 1] == '/') return len; /* inside a comment: nothing to offer */
        if (!quoted && (ch == ' ' || ch == '\t')) {
            if (in_word) { buf[out++] = 0; in_word = false; }
            continue;
        }
        if (!in_word) {
            if (argc == CMD_MAX_ARGS || out + 2 >= sizeof buf) return len;
            argv[argc++] = buf + out;
            in_word = true;
            word_start = i;
        }
        if (ch == '"') {
            quoted = !quoted;
            if (quoted && word_start == i) word_start = i + 1;
            continue;
        }
        if (out + 2 >= sizeof buf) return len;
        buf[out++] = ch;
    }
    const char *prefix = "";
    if (in_word) {
        buf[out] = 0;
        prefix = argv[--argc];
    } else {
        word_start = len;
    }
    if (argc == 0) {
        cmd_complete_names(prefix, true, true, add, ctx);
    } else {
        const cmd_desc *c = cmd_find(argv[0]);
        if (c && c->complete) c->complete(c->user, argc, argv, prefix, add, ctx);
        else if (!c && argc == 1 && cvar_find(argv[0])) cmd_complete_cvar_values(argv[0], prefix, add, ctx);
    }
    return word_start;
}

bool cmd_quote(const char *s, char *out, size_t len)
{
    size_t n0 = strlen(out), n = n0;
    if (n + 3 > len) return false;
    out[n++] = '"';
    for (; *s; s++) {
        char esc[8] = "";
        if (*s == '"' || *s == '\\') snprintf(esc, sizeof esc, "\\%c", *s);
        else if (*s == '\n') snprintf(esc, sizeof esc, "\\n");
        else if (is_escaped_byte((unsigned char)*s))
            snprintf(esc, sizeof esc, "\\x%02x", (unsigned char)*s); /* read back as the same byte */
        size_t k = esc[0] ? strlen(esc) : 1;
        if (n + k + 2 > len) { out[n0] = 0; return false; }
        if (esc[0]) { memcpy(out + n, esc, k); n += k; }
        else out[n++] = *s;
    }
    out[n++] = '"';
    out[n] = 0;
    return true;
}

void cmd_register_builtins(void)
{
    static const cmd_desc table[] = {
        { "set", "NAME VALUE", "set a cvar (checked against its type and range)", c_set, NULL, complete_set },
        { "get", "NAME", "print a cvar as NAME=VALUE", c_get, NULL, complete_cvar_arg },
        { "reset", "NAME", "restore a cvar's default", c_reset, NULL, complete_cvar_arg },
        { "toggle", "NAME", "flip a bool cvar", c_toggle, NULL, complete_toggle },
        { "help", "[NAME]", "list commands, or describe one command or cvar", c_help, NULL, complete_help },
        { "cvarlist", "[PREFIX]", "list cvars and their values", c_cvarlist, NULL, complete_cvar_arg },
        { "cmdlist", "", "list command names", c_cmdlist, NULL },
        { "echo", "TEXT...", "print text", c_echo, NULL },
        { "exec", "FILE", "run a file of commands (errors report file:line)", c_exec, NULL },
        { "quit", "", "leave the game (settings are saved)", c_quit, NULL },
    };
    cmd_register_table(table, (int)(sizeof table / sizeof table[0]));
}
