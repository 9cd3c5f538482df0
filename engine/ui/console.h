/* console: the in-game console's model, with no GL in it. A scrollback of
 * coloured lines fed by the log sink, an input line with editing, history
 * and tab completion, and the drop-down state. It is driven by key and
 * character events, so tests run it without a window; console_view draws it. */
#ifndef STRATA_CONSOLE_H
#define STRATA_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/log.h"

#define CONSOLE_MAX_INPUT 1024 /* bytes of the input line, terminator included */

/* Line colours: the log levels, plus the echo of what the user typed. */
typedef enum console_color {
    CONSOLE_INFO = LOG_INFO,
    CONSOLE_WARN = LOG_WARN,
    CONSOLE_ERROR = LOG_ERROR,
    CONSOLE_OUTPUT = LOG_OUTPUT,
    CONSOLE_DEV = LOG_DEV, /* a developer notice: kept only while developer is 1 */
    CONSOLE_ECHO,
} console_color;

typedef struct console console;

typedef struct console_desc {
    int max_lines;   /* scrollback; 0 = 2000 */
    int max_history; /* 0 = 500 */
    /* Also write every line where the default log sink would (LOG_OUTPUT to
     * stdout, the rest to stderr): scripts read stdout. */
    bool echo_stdio;
    /* Clipboard text for ctrl+V / shift+insert (platform_clipboard); optional. */
    const char *(*clipboard)(void *user);
    void *clipboard_user;
} console_desc;

/* Creates the console and registers its commands (clear, toggleconsole).
 * It does not take the log over until console_attach_log. */
console *console_create(const console_desc *d);
/* Detaches the log sink (if attached) and unregisters the commands. */
void console_destroy(console *c);
/* Installs the console as the log sink: every log_* line shows in it. */
void console_attach_log(console *c);

/* Appends text (may hold several lines) in a colour. Thread-safe: workers log too. */
void console_print(console *c, console_color color, const char *text);
void console_clear(console *c);

/* Open state and the drop-down animation. */
bool console_is_open(const console *c);
void console_set_open(console *c, bool open);
void console_toggle(console *c);
/* Advances the animation and the clock used for the cursor blink and notify lines. */
void console_update(console *c, double dt);
/* 0 = closed, 1 = fully down (eased). */
float console_fraction(const console *c);
double console_time(const console *c);

/* Events, GLFW codes. console_key takes presses and repeats (not releases):
 * the grave key toggles the console; while it is open every key is consumed.
 * Returns true when the event was used and the game must ignore it. */
bool console_key(console *c, int key, int mods);
bool console_char(console *c, unsigned codepoint);
/* Inserts text at the cursor; newlines become "; " (each pasted line is a
 * command), other control characters and malformed UTF-8 are dropped. */
void console_paste(console *c, const char *utf8);
/* Scrolls the scrollback by lines (positive = older); the mouse wheel. */
void console_scroll(console *c, int lines);
/* Echoes the input line, adds it to history, runs it; clears the input. */
void console_submit(console *c);
/* Tab: completes the word before the cursor to the candidates' common
 * prefix; lists the candidates when more than one remains. */
void console_complete(console *c);

/* The input line (UTF-8) and the cursor as a byte offset into it. */
const char *console_input(const console *c);
size_t console_cursor(const console *c);
void console_set_input(console *c, const char *text);

/* Scrollback, for drawing: lock around reading it, since worker threads
 * may print at any time. Index 0 is the newest line. */
void console_lock(console *c);
void console_unlock(console *c);
int console_line_count(const console *c);
const char *console_line(const console *c, int index, console_color *color, double *time);
/* How many lines the view is scrolled up from the newest. */
int console_scroll_offset(const console *c);

/* History, oldest first. Files are one command per line; malformed lines
 * are skipped. A missing file is not an error (first run). */
int console_history_count(const console *c);
const char *console_history_at(const console *c, int index);
bool console_history_load(console *c, const char *path);
/* Written through a temporary file and rename, so a crash never truncates it. */
bool console_history_save(const console *c, const char *path);

#endif
