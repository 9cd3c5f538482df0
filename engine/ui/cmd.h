/* cmd: the command registry and the command-line language.
 * Like Quake III's cmd.c: commands are declared as a table entry with help
 * text; a line holds several commands separated by ';', arguments may be
 * "quoted" (with \" \\ \n escapes), and '//' starts a comment. The same
 * language drives the console, config files and --exec. */
#ifndef STRATA_CMD_H
#define STRATA_CMD_H

#include <stdbool.h>
#include <stddef.h>

#define CMD_MAX_ARGS 32
#define CMD_MAX_LINE 4096

/* Returns 0 on success; on failure it has logged why (log_error). */
typedef int (*cmd_fn)(void *user, int argc, char **argv);

typedef struct cmd_desc {
    const char *name;
    const char *usage; /* arguments, e.g. "X Y Z" */
    const char *help;  /* one line */
    cmd_fn fn;
    void *user;
} cmd_desc;

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
const cmd_desc *cmd_find(const char *name);
int cmd_count(void);
const cmd_desc *cmd_at(int index); /* name order */

/* Runs every command of a line. Returns 0 if all succeeded; otherwise logs
 * "failed: <command>" and returns 1 (execution stops at the failure). */
int cmd_exec(const char *line);
/* Runs a config file line by line; errors are reported as file:line and the
 * remaining lines still run. Returns the number of failed lines, or -1 if
 * the file cannot be read. */
int cmd_exec_file(const char *path);

/* The registry's own commands: set get reset toggle help cvarlist cmdlist echo exec. */
void cmd_register_builtins(void);
void cmd_shutdown(void);

/* Levenshtein distance, for "did you mean". */
int cmd_edit_distance(const char *a, const char *b);
/* Closest command or cvar name within a small distance, or NULL. */
const char *cmd_suggest(const char *name);

#endif
