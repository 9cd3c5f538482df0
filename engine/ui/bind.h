/* bind: key bindings, Quake style. Every key (GLFW code, or the mouse codes
 * below) may hold a command line; the game loop hands key events to
 * bind_key_event. A binding that starts with '+' is a held action: "+forward"
 * runs on press and "-forward" on release. Names are the config's spelling. */
#ifndef STRATA_BIND_H
#define STRATA_BIND_H

#include <stdbool.h>
#include <stdio.h>

/* Mouse buttons and wheel get codes past GLFW_KEY_LAST (348) so one table holds all. */
#define BIND_MOUSE1 400 /* GLFW_MOUSE_BUTTON_LEFT + BIND_MOUSE1 */
#define BIND_MOUSE_BUTTONS 8
#define BIND_WHEEL_UP 410
#define BIND_WHEEL_DOWN 411
#define BIND_KEY_COUNT 412

/* "W", "F1", "GRAVE", "MOUSE1", ... for a code; NULL for an unnamed code. */
const char *bind_key_name(int key);
/* Case-insensitive name (or a single printable character like "w" or "[") to
 * a code; -1 if unknown. */
int bind_key_from_name(const char *name);

/* The command line bound to key, or NULL. */
const char *bind_get(int key);
/* Binds (NULL or "" unbinds). Returns false for an invalid key. */
bool bind_set(int key, const char *command);
void bind_clear_all(void);
/* Next bound key after `key` (start with -1); -1 when none is left. */
int bind_next(int key);

/* Runs the key's binding for a GLFW action (press, release; repeats are
 * ignored). Returns true if the key is bound. Wheel codes take press only. */
bool bind_key_event(int key, int action);

/* Registers bind, unbind, unbindall, bindlist. */
void bind_register_commands(void);
/* Remembers the current bindings as the program's defaults (call after
 * setting them, before reading the config). */
void bind_mark_defaults(void);
/* Binds every default key that is unbound now back to its default (after
 * an old config's "unbindall"); returns how many. */
int bind_restore_missing_defaults(void);
/* Writes the bindings as commands. After bind_mark_defaults: only what
 * differs from the defaults ("bind KEY "commands"" or "unbind KEY"), so new
 * default keys reach old config files. Without defaults: "unbindall" and
 * every binding. */
void bind_write(FILE *f);
/* Frees every binding (shutdown, tests). */
void bind_shutdown(void);

#endif
