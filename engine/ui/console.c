#include "ui/console.h"

#include <GLFW/glfw3.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/cmd.h"
#include "ui/cvar.h"
#include "core/utf8.h"

#define CONSOLE_MAX_LINE 1024 /* bytes kept of one scrollback line */
#define CONSOLE_SLIDE_SECONDS 0.12

typedef struct console_line_rec {
    char *text;
    double time;
    unsigned char color;
} console_line_rec;

struct console {
    console_desc d;
    pthread_mutex_t lock;
    console_line_rec *lines; /* ring of d.max_lines */
    int head, count;         /* head = next slot to write */
    int scroll;

    char input[CONSOLE_MAX_INPUT];
    size_t len, cursor;

    char **history;
    int hist_count, hist_pos; /* hist_pos == hist_count: editing a fresh line */
    char draft[CONSOLE_MAX_INPUT];

    bool open, attached, swallow_toggle_char;
    float frac;
    double time;
};

/* ---- scrollback -------------------------------------------------------- */

static void push_line(console *c, console_color color, const char *s, size_t n)
{
    if (n > CONSOLE_MAX_LINE) n = CONSOLE_MAX_LINE;
    /* keep the line free of control bytes so the view can count columns */
    char *t = malloc(n + 1);
    if (!t) return;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        t[i] = ch == '\t' ? ' ' : (ch < 0x20 || ch == 0x7F) ? '?' : (char)ch;
    }
    t[n] = 0;
    console_line_rec *slot = &c->lines[c->head];
    free(slot->text);
    slot->text = t;
    slot->color = (unsigned char)color;
    slot->time = c->time;
    c->head = (c->head + 1) % c->d.max_lines;
    if (c->count < c->d.max_lines) c->count++;
    /* someone reading old output keeps their place while new lines arrive */
    if (c->scroll > 0 && c->scroll < c->count - 1) c->scroll++;
}

void console_print(console *c, console_color color, const char *text)
{
    if (!text) return;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        if (n && text[n - 1] == '\r') n--;
        push_line(c, color, text, n);
        if (!nl) break;
        text = nl + 1;
        if (!*text) break;
    }
    pthread_mutex_unlock(&c->lock);
}

void console_clear(console *c)
{
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->d.max_lines; i++) {
        free(c->lines[i].text);
        c->lines[i].text = NULL;
    }
    c->head = c->count = c->scroll = 0;
    pthread_mutex_unlock(&c->lock);
}

void console_lock(console *c) { pthread_mutex_lock(&c->lock); }
void console_unlock(console *c) { pthread_mutex_unlock(&c->lock); }
int console_line_count(const console *c) { return c->count; }
int console_scroll_offset(const console *c) { return c->scroll; }

const char *console_line(const console *c, int index, console_color *color, double *time)
{
    if (index < 0 || index >= c->count) return NULL;
    const console_line_rec *l = &c->lines[(c->head - 1 - index + c->d.max_lines) % c->d.max_lines];
    if (color) *color = (console_color)l->color;
    if (time) *time = l->time;
    return l->text;
}

void console_scroll(console *c, int lines)
{
    pthread_mutex_lock(&c->lock);
    long s = (long)c->scroll + lines;
    long max = c->count > 0 ? c->count - 1 : 0;
    c->scroll = (int)(s < 0 ? 0 : s > max ? max : s);
    pthread_mutex_unlock(&c->lock);
}

static void log_sink(void *user, log_level level, const char *line)
{
    console *c = user;
    /* developer notices stay in the log (stderr) unless asked for on screen */
    if (level != LOG_DEV || cvar_int("developer", 0) != 0) console_print(c, (console_color)level, line);
    if (c->d.echo_stdio) {
        FILE *f = level == LOG_OUTPUT ? stdout : stderr;
        const char *prefix = level == LOG_ERROR ? "error: " : level == LOG_WARN ? "warning: " : "";
        fprintf(f, "%s%s\n", prefix, line);
        fflush(f);
    }
}

void console_attach_log(console *c)
{
    log_set_sink(log_sink, c);
    c->attached = true;
}

/* ---- commands ---------------------------------------------------------- */

static int c_clear(void *user, int argc, char **argv)
{
    console_clear(user);
    return 0;
}

static int c_toggleconsole(void *user, int argc, char **argv)
{
    console_toggle(user);
    return 0;
}

/* Quake's condump: the scrollback as the console holds it, oldest first,
 * so a script can read what the player was shown. */
static int c_condump(void *user, int argc, char **argv)
{
    console *c = user;
    if (argc != 2) {
        log_error("usage: condump PATH (writes the console's scrollback, oldest line first)");
        return 1;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        log_error("condump: cannot write %s: %s", argv[1], strerror(errno));
        return 1;
    }
    pthread_mutex_lock(&c->lock);
    for (int i = c->count - 1; i >= 0; i--) fprintf(f, "%s\n", console_line(c, i, NULL, NULL));
    pthread_mutex_unlock(&c->lock);
    bool ok = fclose(f) == 0;
    if (!ok) log_error("condump: cannot write %s: %s", argv[1], strerror(errno));
    return ok ? 0 : 1;
}

console *console_create(const console_desc *d)
{
    console *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (d) c->d = *d;
    if (c->d.max_lines <= 0) c->d.max_lines = 2000;
    if (c->d.max_history <= 0) c->d.max_history = 500;
    c->lines = calloc((size_t)c->d.max_lines, sizeof *c->lines);
    c->history = calloc((size_t)c->d.max_history, sizeof *c->history);
    if (!c->lines || !c->history) {
        free(c->lines);
        free(c->history);
        free(c);
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
    const cmd_desc cmds[] = {
        { "clear", "", "empty the console's scrollback", c_clear, c },
        { "toggleconsole", "", "open or close the console", c_toggleconsole, c },
        { "condump", "PATH", "write the console's scrollback to PATH, oldest line first", c_condump, c },
    };
    cmd_register_table(cmds, 3);
    return c;
}

void console_destroy(console *c)
{
    if (!c) return;
    if (c->attached) log_reset_sink();
    const cmd_desc *cl = cmd_find("clear");
    if (cl && cl->user == c) cmd_unregister("clear");
    const cmd_desc *tg = cmd_find("toggleconsole");
    if (tg && tg->user == c) cmd_unregister("toggleconsole");
    const cmd_desc *cd = cmd_find("condump");
    if (cd && cd->user == c) cmd_unregister("condump");
    for (int i = 0; i < c->d.max_lines; i++) free(c->lines[i].text);
    for (int i = 0; i < c->hist_count; i++) free(c->history[i]);
    free(c->lines);
    free(c->history);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* ---- open state -------------------------------------------------------- */

bool console_is_open(const console *c) { return c->open; }
void console_set_open(console *c, bool open) { c->open = open; }
void console_toggle(console *c) { c->open = !c->open; }
double console_time(const console *c) { return c->time; }

void console_update(console *c, double dt)
{
    if (!(dt > 0)) dt = 0; /* NaN or a clock step back must not freeze the slide */
    if (dt > 1) dt = 1;
    c->time += dt;
    float step = (float)(dt / CONSOLE_SLIDE_SECONDS);
    if (c->open) c->frac = c->frac + step > 1 ? 1 : c->frac + step;
    else c->frac = c->frac - step < 0 ? 0 : c->frac - step;
}

float console_fraction(const console *c)
{
    float t = c->frac;
    return t * (2 - t); /* ease out: quick start, soft landing */
}

/* ---- input line -------------------------------------------------------- */

const char *console_input(const console *c) { return c->input; }
size_t console_cursor(const console *c) { return c->cursor; }

/* Inserts n bytes of valid UTF-8; cuts at a codepoint boundary when full. */
static void insert_bytes(console *c, const char *s, size_t n)
{
    size_t room = sizeof c->input - 1 - c->len;
    if (n > room) {
        n = room;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    }
    if (n == 0) return;
    memmove(c->input + c->cursor + n, c->input + c->cursor, c->len - c->cursor + 1);
    memcpy(c->input + c->cursor, s, n);
    c->len += n;
    c->cursor += n;
}

static void delete_range(console *c, size_t from, size_t to)
{
    if (to <= from) return;
    memmove(c->input + from, c->input + to, c->len - to + 1);
    c->len -= to - from;
    c->cursor = from;
}

void console_set_input(console *c, const char *text)
{
    c->len = c->cursor = 0;
    c->input[0] = 0;
    console_paste(c, text ? text : "");
}

static bool is_word_char(char ch) { return ch != ' ' && ch != ';' && ch != '"' && ch != '\t'; }

static size_t word_left(const console *c, size_t i)
{
    while (i > 0 && !is_word_char(c->input[i - 1])) i--;
    while (i > 0 && is_word_char(c->input[i - 1])) i--;
    return i;
}

static size_t word_right(const console *c, size_t i)
{
    while (i < c->len && !is_word_char(c->input[i])) i++;
    while (i < c->len && is_word_char(c->input[i])) i++;
    return i;
}

void console_paste(console *c, const char *utf8)
{
    if (!utf8) return;
    size_t n = strlen(utf8);
    char buf[CONSOLE_MAX_INPUT];
    size_t out = 0;
    bool pending_sep = false;
    for (size_t i = 0; i < n && out + 8 < sizeof buf;) {
        unsigned cp;
        size_t k = utf8_decode(utf8 + i, n - i, &cp);
        i += k;
        if (cp == '\n' || cp == '\r') { pending_sep = out > 0; continue; }
        if (cp == UTF8_REPLACEMENT && k == 1) continue;            /* malformed byte */
        if (cp == '\t') cp = ' ';
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) continue;
        if (pending_sep) { buf[out++] = ';'; buf[out++] = ' '; pending_sep = false; }
        out += utf8_encode(cp, buf + out);
    }
    insert_bytes(c, buf, out);
}

bool console_char(console *c, unsigned cp)
{
    if (c->swallow_toggle_char) {
        c->swallow_toggle_char = false;
        if (cp == '`') return true;
    }
    if (!c->open) return false;
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) return true;
    char buf[4];
    size_t n = utf8_encode(cp, buf);
    if (n) insert_bytes(c, buf, n);
    return true;
}

/* ---- history ----------------------------------------------------------- */

static void history_push(console *c, const char *line)
{
    if (!*line) return;
    if (c->hist_count > 0 && strcmp(c->history[c->hist_count - 1], line) == 0) return;
    char *s = strdup(line);
    if (!s) return;
    if (c->hist_count == c->d.max_history) { /* drop the oldest */
        free(c->history[0]);
        memmove(c->history, c->history + 1, sizeof *c->history * (size_t)(c->hist_count - 1));
        c->hist_count--;
    }
    c->history[c->hist_count++] = s;
}

int console_history_count(const console *c) { return c->hist_count; }
const char *console_history_at(const console *c, int i) { return (i >= 0 && i < c->hist_count) ? c->history[i] : NULL; }

static void history_move(console *c, int dir)
{
    int pos = c->hist_pos + dir;
    if (pos < 0 || pos > c->hist_count) return;
    if (c->hist_pos == c->hist_count) memcpy(c->draft, c->input, c->len + 1);
    c->hist_pos = pos;
    const char *text = pos == c->hist_count ? c->draft : c->history[pos];
    char tmp[CONSOLE_MAX_INPUT];
    snprintf(tmp, sizeof tmp, "%s", text);
    c->len = c->cursor = 0;
    c->input[0] = 0;
    insert_bytes(c, tmp, strlen(tmp));
}

static bool valid_history_line(const char *s, size_t n)
{
    if (n == 0 || n >= CONSOLE_MAX_INPUT) return false;
    for (size_t i = 0; i < n;) {
        unsigned cp;
        size_t k = utf8_decode(s + i, n - i, &cp);
        if ((cp == UTF8_REPLACEMENT && k == 1) || cp < 0x20 || cp == 0x7F) return false;
        i += k;
    }
    return true;
}

bool console_history_load(console *c, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT;
    char line[CONSOLE_MAX_INPUT + 2];
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        bool whole = n > 0 && line[n - 1] == '\n';
        if (!whole && !feof(f)) { /* over-long: skip the rest of it */
            int ch;
            while ((ch = fgetc(f)) != EOF && ch != '\n') {}
            continue;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (valid_history_line(line, n)) history_push(c, line);
    }
    fclose(f);
    c->hist_pos = c->hist_count;
    return true;
}

bool console_history_save(const console *c, const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) return false;
    FILE *f = fopen(tmp, "wb");
    if (!f) return false;
    for (int i = 0; i < c->hist_count; i++) fprintf(f, "%s\n", c->history[i]);
    bool ok = fflush(f) == 0 && !ferror(f);
    ok = (fclose(f) == 0) && ok;
    if (ok) ok = rename(tmp, path) == 0;
    if (!ok) remove(tmp);
    return ok;
}

/* ---- submit and completion --------------------------------------------- */

void console_submit(console *c)
{
    char line[CONSOLE_MAX_INPUT];
    memcpy(line, c->input, c->len + 1);
    c->len = c->cursor = 0;
    c->input[0] = 0;
    c->draft[0] = 0;
    history_push(c, line);
    c->hist_pos = c->hist_count;
    pthread_mutex_lock(&c->lock);
    c->scroll = 0;
    pthread_mutex_unlock(&c->lock);
    char echo[CONSOLE_MAX_INPUT + 4];
    snprintf(echo, sizeof echo, "] %s", line);
    console_print(c, CONSOLE_ECHO, echo);
    if (line[0]) cmd_exec(line); /* failures were logged, and so shown */
}

typedef struct cand_list {
    char **items;
    int count, cap;
} cand_list;

static void cand_add(void *ctx, const char *s)
{
    cand_list *l = ctx;
    if (l->count == l->cap) {
        int cap = l->cap ? l->cap * 2 : 32;
        char **items = realloc(l->items, sizeof *items * (size_t)cap);
        if (!items) return;
        l->items = items;
        l->cap = cap;
    }
    char *d = strdup(s);
    if (d) l->items[l->count++] = d;
}

static int cand_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void list_candidates(console *c, cand_list *l)
{
    /* a few: one per line with what they are; many: packed in columns */
    if (l->count <= 12) {
        /* columns as wide as their widest entry, so the help lines up;
         * long values are cut (get NAME prints them whole) */
        enum { VALUE_MAX = 24 };
        int nw = 0, vw = 0;
        for (int i = 0; i < l->count; i++) {
            const cvar *v = cmd_find(l->items[i]) ? NULL : cvar_find(l->items[i]);
            int n = (int)strlen(l->items[i]), k = v ? (int)strlen(v->str) : 0;
            if (n > nw) nw = n;
            if (k > vw) vw = k > VALUE_MAX ? VALUE_MAX : k;
        }
        for (int i = 0; i < l->count; i++) {
            const char *name = l->items[i];
            const cmd_desc *cd = cmd_find(name);
            const cvar *v = cd ? NULL : cvar_find(name);
            char line[1024], val[VALUE_MAX + 1] = "";
            if (v && strlen(v->str) > VALUE_MAX) snprintf(val, sizeof val, "%.*s...", VALUE_MAX - 3, v->str);
            else if (v) snprintf(val, sizeof val, "%s", v->str);
            snprintf(line, sizeof line, "  %-*s %s %-*s  %s", nw, name, v ? "=" : " ", vw, val,
                     cd && cd->help ? cd->help : v ? v->d.help : "");
            console_print(c, CONSOLE_INFO, line);
        }
        return;
    }
    size_t width = 0;
    for (int i = 0; i < l->count; i++) {
        size_t n = strlen(l->items[i]);
        if (n > width) width = n;
    }
    width += 2;
    int per_line = (int)(100 / width) > 0 ? (int)(100 / width) : 1;
    int shown = l->count > 300 ? 300 : l->count;
    char line[1024];
    size_t n = 0;
    for (int i = 0; i < shown; i++) {
        n += (size_t)snprintf(line + n, sizeof line - n, "  %-*s", (int)width - 2, l->items[i]);
        if ((i + 1) % per_line == 0 || i == shown - 1 || n > sizeof line - 128) {
            console_print(c, CONSOLE_INFO, line);
            n = 0;
        }
    }
    if (shown < l->count) {
        snprintf(line, sizeof line, "  ... and %d more", l->count - shown);
        console_print(c, CONSOLE_INFO, line);
    }
}

void console_complete(console *c)
{
    char before[CONSOLE_MAX_INPUT];
    memcpy(before, c->input, c->cursor);
    before[c->cursor] = 0;
    cand_list l = { 0 };
    size_t start = cmd_complete(before, cand_add, &l);
    if (l.count > 0) {
        qsort(l.items, (size_t)l.count, sizeof *l.items, cand_cmp);
        int u = 1; /* a name can come from both a command and a cvar */
        for (int i = 1; i < l.count; i++) {
            if (strcmp(l.items[i], l.items[u - 1]) == 0) free(l.items[i]);
            else l.items[u++] = l.items[i];
        }
        l.count = u;
        size_t common = strlen(l.items[0]);
        for (int i = 1; i < l.count; i++) {
            size_t k = 0;
            while (k < common && l.items[i][k] == l.items[0][k]) k++;
            common = k;
        }
        while (common > 0 && ((unsigned char)l.items[0][common] & 0xC0) == 0x80) common--; /* whole codepoints */
        bool unique = l.count == 1;
        bool space_follows = c->cursor < c->len && c->input[c->cursor] == ' ';
        bool quote = strchr(l.items[0], ' ') != NULL && (start == 0 || c->input[start - 1] != '"');
        char repl[CONSOLE_MAX_INPUT];
        snprintf(repl, sizeof repl, "%s%.*s%s%s", quote ? "\"" : "", (int)common, l.items[0],
                 unique && quote ? "\"" : "", unique && !space_follows ? " " : "");
        if (!unique) {
            char echo[CONSOLE_MAX_INPUT + 4];
            snprintf(echo, sizeof echo, "] %s", c->input);
            console_print(c, CONSOLE_ECHO, echo);
            list_candidates(c, &l);
        }
        delete_range(c, start, c->cursor);
        insert_bytes(c, repl, strlen(repl));
        if (unique && space_follows) c->cursor++;
    }
    for (int i = 0; i < l.count; i++) free(l.items[i]);
    free(l.items);
}

/* ---- keys -------------------------------------------------------------- */

bool console_key(console *c, int key, int mods)
{
    bool ctrl = (mods & GLFW_MOD_CONTROL) != 0, shift = (mods & GLFW_MOD_SHIFT) != 0;
    /* only the bare grave key toggles: Shift+grave is '~' (a US layout),
     * which is text, and its char event must reach the input line */
    if (key == GLFW_KEY_GRAVE_ACCENT && !ctrl && !shift) {
        console_toggle(c);
        c->swallow_toggle_char = true; /* the char event for '`' follows this key */
        return true;
    }
    if (!c->open) return false;
    switch (key) {
    case GLFW_KEY_ESCAPE: c->open = false; break;
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER: console_submit(c); break;
    case GLFW_KEY_TAB: console_complete(c); break;
    case GLFW_KEY_LEFT: c->cursor = ctrl ? word_left(c, c->cursor) : utf8_prev(c->input, c->cursor); break;
    case GLFW_KEY_RIGHT: c->cursor = ctrl ? word_right(c, c->cursor) : utf8_next(c->input, c->len, c->cursor); break;
    case GLFW_KEY_HOME:
        if (ctrl) console_scroll(c, c->count);
        else c->cursor = 0;
        break;
    case GLFW_KEY_END:
        if (ctrl) console_scroll(c, -c->count);
        else c->cursor = c->len;
        break;
    case GLFW_KEY_BACKSPACE:
        delete_range(c, ctrl ? word_left(c, c->cursor) : utf8_prev(c->input, c->cursor), c->cursor);
        break;
    case GLFW_KEY_DELETE: {
        size_t cur = c->cursor;
        delete_range(c, cur, ctrl ? word_right(c, cur) : utf8_next(c->input, c->len, cur));
        c->cursor = cur;
        break;
    }
    case GLFW_KEY_UP: history_move(c, -1); break;
    case GLFW_KEY_DOWN: history_move(c, +1); break;
    case GLFW_KEY_PAGE_UP: console_scroll(c, shift ? 1 : 10); break;
    case GLFW_KEY_PAGE_DOWN: console_scroll(c, shift ? -1 : -10); break;
    case GLFW_KEY_INSERT:
        if (shift && c->d.clipboard) console_paste(c, c->d.clipboard(c->d.clipboard_user));
        break;
    default:
        if (!ctrl) break;
        /* readline's keys, for muscle memory */
        switch (key) {
        case GLFW_KEY_A: c->cursor = 0; break;
        case GLFW_KEY_E: c->cursor = c->len; break;
        case GLFW_KEY_W: delete_range(c, word_left(c, c->cursor), c->cursor); break;
        case GLFW_KEY_U: delete_range(c, 0, c->cursor); break;
        case GLFW_KEY_K: c->len = c->cursor; c->input[c->len] = 0; break;
        case GLFW_KEY_L: console_clear(c); break;
        case GLFW_KEY_C:
            c->len = c->cursor = 0;
            c->input[0] = 0;
            c->hist_pos = c->hist_count;
            break;
        case GLFW_KEY_V:
            if (c->d.clipboard) console_paste(c, c->d.clipboard(c->d.clipboard_user));
            break;
        default: break;
        }
    }
    return true;
}
