/* app: the sandbox itself — owns the platform, world, renderer, player and
 * the worker pool, runs the frame loop, and carries out the commands of the
 * scripting contract (DESIGN.md). main.c only parses the command line. */
#ifndef STRATA_APP_H
#define STRATA_APP_H

#include <stdbool.h>
#include <stdio.h>

typedef struct app_desc {
    bool headless;
    int width, height;
    const char *config;  /* --config FILE */
    const char *world;   /* --world FILE (saves: a later issue) */
    const char *exec;    /* --exec "CMD; CMD" */
} app_desc;

/* The view a new world opens with (and render.frame measures): standing
 * at the centre of the world, looking across it and slightly down. */
#define APP_DEFAULT_YAW 45.f
#define APP_DEFAULT_PITCH -12.f

typedef struct app app;

/* The game up to its first world, without running anything (benchmarks and
 * tests drive it with cmd_exec and app_render); NULL when start-up failed
 * (logged). app_destroy shuts it down; the cvar and command registries are
 * emptied with it. */
app *app_create(const app_desc *d);
void app_destroy(app *a);
/* The command-line options, one table for the usage text and the man page. */
typedef struct app_option {
    const char *flag, *arg, *help;
} app_option;
extern const app_option app_options[];
extern const int app_option_count;

/* Writes the manual page strata(6) in troff to f: options, every command,
 * every cvar (type, range, default, help) and the default key bindings,
 * all read from the registries, so it never goes stale. False on a write
 * error. */
bool app_write_man(FILE *f);

/* Runs until quit. Returns the process exit code: 0 when every --exec
 * command succeeded, 1 when one failed (headless) or start-up failed. */
int app_run(const app_desc *d);

#endif
