/* cmd: the command registry and the command-line language.
 * Like Quake III's cmd.c: commands are declared as a table entry with help
 * text; a line holds several commands separated by ';', arguments may be
 * "quoted" (with \" \\ \n \xNN escapes), and '//' starts a comment. The same
 * language drives the console, config files and --exec. */
#ifndef STRATA_CMD_H
#define STRATA_CMD_H

#include <stdbool.h>
#include <stddef.h>

#define CMD_MAX_ARGS 32
#define CMD_MAX_LINE 4096

/* Returns 0 on success; on failure it has logged why (log_error). */
typedef int (*cmd_fn)(void *user, int argc, char **argv);

/* Tab completion: a completer offers candidates for the word being typed.
 * argv holds the words before it (argv[0] is the command), so argc == 1
 * means the first argument is being completed. */
typedef void (*cmd_complete_add_fn)(void *ctx, const char *candidate);
typedef void (*cmd_complete_fn)(void *user, int argc, char **argv, const char *prefix, cmd_complete_add_fn add,
                                void *ctx);

enum cmd_flags {
    /* Acts on the game's world: refused with "no world yet" while the
     * ready check (cmd_set_ready_fn) says there is none, e.g. in a config
     * file, which runs before the world is made. */
    CMD_NEEDS_WORLD = 1 << 0,
};

typedef struct cmd_desc {
    const char *name;
    const char *usage; /* arguments, e.g. "X Y Z" */
    const char *help;  /* one line */
    cmd_fn fn;
    void *user;
    cmd_complete_fn complete; /* optional: completes arguments */
    unsigned flags;           /* cmd_flags */
} cmd_desc;

/* Whether CMD_NEEDS_WORLD commands can run now (the app sets it; without
 * one they always run). It may bring the world up to date first. */
void cmd_set_ready_fn(bool (*ready)(void *user), void *user);

/* Ends the current script: the rest of the line, and of every file being
 * executed, is skipped (quit; cmd does not run cmd). Cleared when the
 * outermost cmd_exec / cmd_exec_file returns. */
void cmd_stop(void);
bool cmd_stopped(void);

/* One parsed command: argv points into an internal buffer. */
typedef struct cmd_args {
    int argc;
    char *argv[CMD_MAX_ARGS];
    char buf[CMD_MAX_LINE];
} cmd_args;

/* Splits `text` into commands. Calls `fn` for each; stops at the first
 * that returns non-zero and returns that. On a syntax error (unbalanced
 * quote, too many arguments, over-long line) writes a message with the
 * column into err and returns -1 without running anything. */
typedef int (*cmd_visit_fn)(void *user, cmd_args *args, const char *source);
int cmd_parse(const char *text, cmd_visit_fn fn, void *user, char *err, size_t errlen);

void cmd_register(const cmd_desc *d);
void cmd_register_table(const cmd_desc *table, int count);
/* Removes a command (a module going away must not leave a dangling user pointer). */
void cmd_unregister(const char *name);
const cmd_desc *cmd_find(const char *name);
int cmd_count(void);
const cmd_desc *cmd_at(int index); /* name order */

/* Runs every command of a line. Returns 0 if all succeeded; otherwise logs
 * "failed: <command>" and returns 1 (execution stops at the failure). */
int cmd_exec(const char *line);
/* Runs a config file line by line; errors are reported as file:line and the
 * remaining lines still run. The file is checked whole first: one that is
 * not text (a NUL or control byte, bytes that are not UTF-8) runs no line:
 * its first bad byte is reported as file:line:col and it fails as EILSEQ.
 * Returns the number of failed lines, or -1 with errno set if the file
 * cannot be run (EISDIR for a directory, EINVAL for a FIFO or device,
 * EFBIG over 4 MiB, EILSEQ not text). */
int cmd_exec_file(const char *path);
/* What cmd_exec_file's errno means, for "cannot read FILE: ..." messages. */
const char *cmd_file_error(int e);

/* The registry's own commands: set get reset toggle help cvarlist cmdlist
 * echo exec quit. */
void cmd_register_builtins(void);
/* What `quit` does; the app sets it (without one, quit reports an error). */
void cmd_set_quit_fn(void (*fn)(void *user), void *user);

/* Completion of the last word of `text` (the input up to the cursor):
 * offers every candidate through add and returns the byte offset where that
 * word starts, so the caller can replace it. First words complete to command
 * and cvar names; later ones through the command's completer, or to a
 * cvar's values after a bare cvar name. */
size_t cmd_complete(const char *text, cmd_complete_add_fn add, void *ctx);
/* Building blocks for completers. */
void cmd_complete_names(const char *prefix, bool commands, bool cvars, cmd_complete_add_fn add, void *ctx);
void cmd_complete_cvar_values(const char *cvar_name, const char *prefix, cmd_complete_add_fn add, void *ctx);

/* Appends `s` to out as one argument the parser reads back unchanged:
 * quoted, with " \ and newlines escaped and other control bytes written as
 * \xHH. Returns false if it did not fit. */
bool cmd_quote(const char *s, char *out, size_t len);
void cmd_shutdown(void);

/* Levenshtein distance, for "did you mean". */
int cmd_edit_distance(const char *a, const char *b);
/* Closest command or cvar name within a small distance, or NULL. */
const char *cmd_suggest(const char *name);

#endif
