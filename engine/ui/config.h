/* config: where settings live and how they are saved. The config file holds
 * archived cvars as `set` lines and key bindings as `bind` lines, so reading
 * it back is just running it (cmd_exec_file reports bad lines as file:line
 * and applies the rest). autoexec.cfg and the console history sit beside it. */
#ifndef STRATA_CONFIG_H
#define STRATA_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* Resolves the paths: `override` (--config FILE) if given, else
 * $XDG_CONFIG_HOME/strata/config.cfg, else $HOME/.config/strata/config.cfg.
 * Without either variable, settings are not persisted (a warning says so). */
void config_init(const char *override);
/* The config file, or NULL when nothing is persisted. */
const char *config_path(void);
/* A file beside the config ("autoexec.cfg", "history"), in out; false if none. */
bool config_sibling(const char *name, char *out, size_t len);

/* Runs the config file, then autoexec.cfg; a missing file is not an error
 * (a directory is). Returns the number of failed lines (they were reported). */
int config_load(void);
/* Runs the config file alone (headless --config: no autoexec.cfg). A file
 * that does not exist yet is not an error; a directory or unreadable file
 * counts as one failure. Returns the number of failed lines. */
int config_load_file(void);
/* Writes archived cvars and bindings to path (NULL = config_path()),
 * creating the directory, through a temporary file and rename. */
bool config_write(const char *path);

/* Registers writeconfig, and makes `exec NAME` also look beside the config. */
void config_register_commands(void);

/* $XDG_PICTURES_DIR (from user-dirs.dirs), else ~/Pictures, plus "/strata";
 * created if needed. False when there is no home to write to. */
bool config_pictures_dir(char *out, size_t len);
/* A fresh timestamped screenshot path: DIR/strata-YYYYmmdd-HHMMSS[-N].png. */
bool config_screenshot_path(char *out, size_t len);

/* Creates a directory and its parents (mkdir -p). */
bool config_mkdirs(const char *dir);

#endif
