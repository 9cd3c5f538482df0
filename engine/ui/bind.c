#include "ui/bind.h"

#include <GLFW/glfw3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"
#include "ui/cmd.h"

/* Part of the console's global registry (DESIGN.md): bindings are settings. */
static char *g_binds[BIND_KEY_COUNT];
/* The program's own bindings, as bind_mark_defaults saw them: the config
 * stores only what differs, so defaults added by a newer version reach
 * users who already have a config file. */
static char *g_defaults[BIND_KEY_COUNT];
static bool g_have_defaults;

typedef struct key_name {
    int key;
    const char *name;
} key_name;

/* Letters and digits are named by their character and handled in code. */
static const key_name g_names[] = {
    { GLFW_KEY_SPACE, "SPACE" },          { GLFW_KEY_APOSTROPHE, "APOSTROPHE" },
    { GLFW_KEY_COMMA, "COMMA" },          { GLFW_KEY_MINUS, "MINUS" },
    { GLFW_KEY_PERIOD, "PERIOD" },        { GLFW_KEY_SLASH, "SLASH" },
    { GLFW_KEY_SEMICOLON, "SEMICOLON" },  { GLFW_KEY_EQUAL, "EQUALS" },
    { GLFW_KEY_LEFT_BRACKET, "LBRACKET" }, { GLFW_KEY_BACKSLASH, "BACKSLASH" },
    { GLFW_KEY_RIGHT_BRACKET, "RBRACKET" }, { GLFW_KEY_GRAVE_ACCENT, "GRAVE" },
    { GLFW_KEY_ESCAPE, "ESCAPE" },        { GLFW_KEY_ENTER, "ENTER" },
    { GLFW_KEY_TAB, "TAB" },              { GLFW_KEY_BACKSPACE, "BACKSPACE" },
    { GLFW_KEY_INSERT, "INSERT" },        { GLFW_KEY_DELETE, "DELETE" },
    { GLFW_KEY_RIGHT, "RIGHTARROW" },     { GLFW_KEY_LEFT, "LEFTARROW" },
    { GLFW_KEY_DOWN, "DOWNARROW" },       { GLFW_KEY_UP, "UPARROW" },
    { GLFW_KEY_PAGE_UP, "PGUP" },         { GLFW_KEY_PAGE_DOWN, "PGDN" },
    { GLFW_KEY_HOME, "HOME" },            { GLFW_KEY_END, "END" },
    { GLFW_KEY_CAPS_LOCK, "CAPSLOCK" },   { GLFW_KEY_PRINT_SCREEN, "PRINTSCREEN" },
    { GLFW_KEY_PAUSE, "PAUSE" },          { GLFW_KEY_KP_0, "KP_0" },
    { GLFW_KEY_KP_1, "KP_1" },            { GLFW_KEY_KP_2, "KP_2" },
    { GLFW_KEY_KP_3, "KP_3" },            { GLFW_KEY_KP_4, "KP_4" },
    { GLFW_KEY_KP_5, "KP_5" },            { GLFW_KEY_KP_6, "KP_6" },
    { GLFW_KEY_KP_7, "KP_7" },            { GLFW_KEY_KP_8, "KP_8" },
    { GLFW_KEY_KP_9, "KP_9" },            { GLFW_KEY_KP_DECIMAL, "KP_DEL" },
    { GLFW_KEY_KP_DIVIDE, "KP_SLASH" },   { GLFW_KEY_KP_MULTIPLY, "KP_STAR" },
    { GLFW_KEY_KP_SUBTRACT, "KP_MINUS" }, { GLFW_KEY_KP_ADD, "KP_PLUS" },
    { GLFW_KEY_KP_ENTER, "KP_ENTER" },    { GLFW_KEY_LEFT_SHIFT, "SHIFT" },
    { GLFW_KEY_LEFT_CONTROL, "CTRL" },    { GLFW_KEY_LEFT_ALT, "ALT" },
    { GLFW_KEY_RIGHT_SHIFT, "RSHIFT" },   { GLFW_KEY_RIGHT_CONTROL, "RCTRL" },
    { GLFW_KEY_RIGHT_ALT, "RALT" },       { BIND_MOUSE1 + 0, "MOUSE1" },
    { BIND_MOUSE1 + 1, "MOUSE2" },        { BIND_MOUSE1 + 2, "MOUSE3" },
    { BIND_MOUSE1 + 3, "MOUSE4" },        { BIND_MOUSE1 + 4, "MOUSE5" },
    { BIND_WHEEL_UP, "WHEELUP" },         { BIND_WHEEL_DOWN, "WHEELDOWN" },
};
#define NAME_COUNT (int)(sizeof g_names / sizeof g_names[0])

const char *bind_key_name(int key)
{
    /* one static string per printable key: names must outlive the call */
    static char single[128][2];
    if ((key >= GLFW_KEY_0 && key <= GLFW_KEY_9) || (key >= GLFW_KEY_A && key <= GLFW_KEY_Z)) {
        single[key][0] = (char)key;
        return single[key];
    }
    if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25) {
        static char fnames[25][4];
        int n = key - GLFW_KEY_F1 + 1;
        char *s = fnames[n - 1];
        s[0] = 'F';
        if (n >= 10) { s[1] = (char)('0' + n / 10); s[2] = (char)('0' + n % 10); s[3] = 0; }
        else { s[1] = (char)('0' + n); s[2] = 0; }
        return s;
    }
    for (int i = 0; i < NAME_COUNT; i++)
        if (g_names[i].key == key) return g_names[i].name;
    return NULL;
}

int bind_key_from_name(const char *name)
{
    if (!name || !*name) return -1;
    if (!name[1]) {
        char ch = name[0];
        if (ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
        if ((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z')) return ch;
        static const char punct[] = "'-,./;=[\\]` ";
        static const int keys[] = { GLFW_KEY_APOSTROPHE, GLFW_KEY_MINUS, GLFW_KEY_COMMA, GLFW_KEY_PERIOD,
                                    GLFW_KEY_SLASH, GLFW_KEY_SEMICOLON, GLFW_KEY_EQUAL, GLFW_KEY_LEFT_BRACKET,
                                    GLFW_KEY_BACKSLASH, GLFW_KEY_RIGHT_BRACKET, GLFW_KEY_GRAVE_ACCENT,
                                    GLFW_KEY_SPACE };
        const char *p = strchr(punct, ch);
        return p ? keys[p - punct] : -1;
    }
    if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' && name[1] <= '9') {
        char *end;
        long n = strtol(name + 1, &end, 10);
        if (!*end && n >= 1 && n <= 25) return GLFW_KEY_F1 + (int)n - 1;
    }
    for (int i = 0; i < NAME_COUNT; i++)
        if (strcasecmp(g_names[i].name, name) == 0) return g_names[i].key;
    /* the obvious spellings people type */
    static const key_name aliases[] = {
        { GLFW_KEY_ESCAPE, "ESC" },          { GLFW_KEY_ENTER, "RETURN" },     { GLFW_KEY_UP, "UP" },
        { GLFW_KEY_DOWN, "DOWN" },           { GLFW_KEY_LEFT, "LEFT" },        { GLFW_KEY_RIGHT, "RIGHT" },
        { GLFW_KEY_PAGE_UP, "PAGEUP" },      { GLFW_KEY_PAGE_DOWN, "PAGEDOWN" }, { GLFW_KEY_DELETE, "DEL" },
        { GLFW_KEY_GRAVE_ACCENT, "TILDE" },  { GLFW_KEY_LEFT_CONTROL, "CONTROL" }, { GLFW_KEY_EQUAL, "EQUAL" },
        { GLFW_KEY_INSERT, "INS" },          { BIND_MOUSE1, "MOUSELEFT" },     { BIND_MOUSE1 + 1, "MOUSERIGHT" },
        { BIND_MOUSE1 + 2, "MOUSEMIDDLE" },
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcasecmp(aliases[i].name, name) == 0) return aliases[i].key;
    return -1;
}

static bool valid_key(int key) { return key >= 0 && key < BIND_KEY_COUNT && bind_key_name(key) != NULL; }

const char *bind_get(int key) { return (key >= 0 && key < BIND_KEY_COUNT) ? g_binds[key] : NULL; }

bool bind_set(int key, const char *command)
{
    if (!valid_key(key)) return false;
    char *s = NULL;
    if (command && *command) {
        s = strdup(command);
        if (!s) return false;
    }
    free(g_binds[key]);
    g_binds[key] = s;
    return true;
}

void bind_clear_all(void)
{
    for (int i = 0; i < BIND_KEY_COUNT; i++) {
        free(g_binds[i]);
        g_binds[i] = NULL;
    }
}

static void clear_defaults(void)
{
    for (int i = 0; i < BIND_KEY_COUNT; i++) {
        free(g_defaults[i]);
        g_defaults[i] = NULL;
    }
    g_have_defaults = false;
}

void bind_mark_defaults(void)
{
    clear_defaults();
    for (int i = 0; i < BIND_KEY_COUNT; i++)
        if (g_binds[i]) g_defaults[i] = strdup(g_binds[i]);
    g_have_defaults = true;
}

int bind_restore_missing_defaults(void)
{
    int n = 0;
    for (int k = 0; k < BIND_KEY_COUNT; k++)
        if (g_defaults[k] && !g_binds[k] && bind_set(k, g_defaults[k])) n++;
    return n;
}

void bind_shutdown(void)
{
    bind_clear_all();
    clear_defaults();
}

int bind_next(int key)
{
    for (int k = key < 0 ? 0 : key + 1; k < BIND_KEY_COUNT; k++)
        if (g_binds[k]) return k;
    return -1;
}

bool bind_key_event(int key, int action)
{
    const char *b = bind_get(key);
    if (!b) return false;
    if (action == GLFW_PRESS) {
        char line[CMD_MAX_LINE];
        snprintf(line, sizeof line, "%s", b); /* the command may rebind this very key */
        cmd_exec(line);
    } else if (action == GLFW_RELEASE && b[0] == '+' && !strchr(b, ';')) {
        /* held action: release runs the '-' twin with the same arguments */
        char line[CMD_MAX_LINE];
        snprintf(line, sizeof line, "-%s", b + 1);
        cmd_exec(line);
    }
    return true;
}

/* ---- commands ---------------------------------------------------------- */

static int parse_key(const char *name)
{
    int key = bind_key_from_name(name);
    if (key < 0) log_error("unknown key '%s' (e.g. W, F1, SPACE, GRAVE, MOUSE1, WHEELUP; 'bindlist' shows bound ones)", name);
    return key;
}

static int c_bind(void *u, int argc, char **argv)
{
    if (argc < 2) { log_error("usage: bind KEY [\"commands\"]"); return 1; }
    int key = parse_key(argv[1]);
    if (key < 0) return 1;
    if (argc == 2) {
        const char *b = bind_get(key);
        if (b) log_out("%s=\"%s\"", bind_key_name(key), b);
        else log_out("%s is not bound", bind_key_name(key));
        return 0;
    }
    /* bind K set a b  ==  bind K "set a b": join the rest like Quake */
    char line[CMD_MAX_LINE];
    size_t n = 0;
    line[0] = 0;
    for (int i = 2; i < argc && n < sizeof line; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", i > 2 ? " " : "", argv[i]);
    return bind_set(key, line) ? 0 : 1;
}

static int c_unbind(void *u, int argc, char **argv)
{
    if (argc != 2) { log_error("usage: unbind KEY"); return 1; }
    int key = parse_key(argv[1]);
    if (key < 0) return 1;
    bind_set(key, NULL);
    return 0;
}

static int c_unbindall(void *u, int argc, char **argv)
{
    bind_clear_all();
    return 0;
}

static int c_bindlist(void *u, int argc, char **argv)
{
    for (int k = bind_next(-1); k >= 0; k = bind_next(k)) log_out("%s=\"%s\"", bind_key_name(k), g_binds[k]);
    return 0;
}

static void complete_key(void *u, int argc, char **argv, const char *prefix, cmd_complete_add_fn add, void *ctx)
{
    if (argc != 1) return;
    size_t n = strlen(prefix);
    for (int k = 0; k < BIND_KEY_COUNT; k++) {
        const char *name = bind_key_name(k);
        if (name && strncasecmp(name, prefix, n) == 0) add(ctx, name);
    }
}

static void complete_bind(void *u, int argc, char **argv, const char *prefix, cmd_complete_add_fn add, void *ctx)
{
    if (argc == 1) complete_key(u, argc, argv, prefix, add, ctx);
    else if (argc == 2) cmd_complete_names(prefix, true, true, add, ctx);
}

void bind_register_commands(void)
{
    static const cmd_desc table[] = {
        { "bind", "KEY [\"commands\"]", "bind a key to commands (+name: held action), or show its binding", c_bind,
          NULL, complete_bind },
        { "unbind", "KEY", "remove a key's binding", c_unbind, NULL, complete_key },
        { "unbindall", "", "remove every key binding", c_unbindall, NULL },
        { "bindlist", "", "list key bindings as KEY=\"commands\"", c_bindlist, NULL },
    };
    cmd_register_table(table, (int)(sizeof table / sizeof table[0]));
}

void bind_write(FILE *f)
{
    if (!g_have_defaults) fprintf(f, "unbindall\n");
    for (int k = 0; k < BIND_KEY_COUNT; k++) {
        const char *now = g_binds[k], *def = g_have_defaults ? g_defaults[k] : NULL;
        if (now && def && strcmp(now, def) == 0) continue; /* a default: not the user's to keep */
        if (!now) {
            if (def) fprintf(f, "unbind %s\n", bind_key_name(k));
            continue;
        }
        char q[CMD_MAX_LINE + 16] = "";
        if (!cmd_quote(now, q, sizeof q)) continue;
        fprintf(f, "bind %s %s\n", bind_key_name(k), q);
    }
}
