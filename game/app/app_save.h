/* app_save: worlds that persist. A world file holds one slot per world kind
 * (biome): the generation inputs, the player, the edited chunks. Loading
 * regenerates from the inputs and applies the edits; the save writer
 * (engine/io/save) does the disk work on its own thread. */
#ifndef STRATA_APP_SAVE_H
#define STRATA_APP_SAVE_H

#include <stdbool.h>
#include <stddef.h>

#include "component.h"

/* The component "save": cvar save.autosave and the commands save, load,
 * worlds, world, sleep; on a world's leaving its edits go to the writer, a
 * new world gets its slot's edits and player back, autosave per frame, save
 * on exit. */
extern const component app_save_component;

/* Registers sleep and probe (app_save_script.c); save_init calls it. */
void app_save_script_register(struct app *a);

/* Opens --world FILE (or, windowed, the default world) and sets the cvars
 * to its current slot's inputs; app_run calls it after the config and
 * before the first generation. */
void app_save_start(struct app *a);
/* How often this session a world file asked for was not given (unusable
 * and moved aside, unopenable, a slot refused), each said as an error: a
 * headless run then exits 1 even if every command succeeded. */
int app_save_failures(void);
/* The save on exit failed (said once, with where the edits were kept):
 * the run exits non-zero. Asked after the app is destroyed. */
bool app_save_exit_failed(void);
/* `biome NAME`: each kind comes back as it was saved (its seed and
 * parameters). False (logged) when the slot is refused. */
bool app_save_restore_kind(struct app *a, const char *kind);

/* Saves made this session because edited chunks of a streamed world left
 * the window (paging), and the longest main-thread share of one, in ms. */
void app_save_paging_stats(int *saves, double *ms_max);

/* A world name is a file name stem: letters, digits, '-', '_', '.', no
 * path separators, no leading dot (so no ".."). */
bool app_save_name_ok(const char *name, char *err, size_t errlen);
/* $XDG_DATA_HOME/strata/worlds/NAME.strata (or ~/.local/share/...). */
bool app_save_world_path(const char *name, char *out, size_t len);

/* The generation inputs of the current world as text, and applying such
 * text to the cvars (every line checked; on failure nothing changes). */
char *app_save_inputs_text(struct app *a);
bool app_save_apply_inputs(const char *inputs, const char *where, char *err, size_t errlen);
/* The generator version the inputs name (-1: none readable). */
int app_save_inputs_generator(const char *inputs);
/* Whether a slot's stored inputs are the world's `now` (both as written by
 * app_save_inputs_text, of any version of the form). */
bool app_save_same_inputs(const char *stored, const char *now);

#endif
