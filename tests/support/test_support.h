/* test_support: shared helpers for the cmocka tests. */
#ifndef STRATA_TEST_SUPPORT_H
#define STRATA_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gen/enhance.h"
#include "light/light.h"

/* Path of a file in the source tree, e.g. test_path("assets/atlas.png"). */
const char *test_source_path(const char *rel);
const char *test_binary_path(const char *rel);

/* A headless GL context (EGL surfaceless), current; NULL with the reason
 * printed when none can be made. */
struct platform *test_headless_open(int width, int height);

/* A headless GL context with the block atlas and a blocks renderer, for
 * render tests (the context is current until test_gl_close). */
struct platform;
struct renderer;
struct job_pool;
struct world;
typedef struct test_gl {
    struct platform *plat;
    struct renderer *rend;
    unsigned atlas;
    struct job_pool *jobs; /* two workers */
} test_gl;
/* False (with the reason printed) when no context or asset is available. */
int test_gl_open(test_gl *g, int width, int height);
void test_gl_close(test_gl *g);
/* Meshes every chunk of w, fine and coarse levels, and uploads them. */
void test_gl_upload_world(test_gl *g, const struct world *w);

/* An enhancement context for p; fails the test (with enhance_create's
 * reason) when none can be made. */
enhance_ctx *test_enhance_ctx(enhance_params p);

/* A light volume of w's window, read and baked whole (fails the test when
 * none can be made). */
light *test_light_bake(const struct world *w, const light_params *p, struct job_pool *jobs);

/* The real game, headless at width x height, after `script` ran: the
 * setup of the tests that play it (a cmocka group's state; fails the test
 * when the game cannot start or the script fails). test_app_teardown ends it. */
struct app;
int test_app_setup(void **state, int width, int height, const char *script);
int test_app_teardown(void **state);
/* Runs a console command made from a printf format in the running game;
 * fails the test, naming the command, when it fails. */
void test_cmd(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Pixels (RGBA, n of them) where some channel of a and b differs by more
 * than tol: pictures that should match but for edge pixels rounding the
 * other way. */
int test_pixels_differ(const uint8_t *a, const uint8_t *b, int n, int tol);
/* The running game's `screenshot` into a file named for this process and
 * `path` (a bare name, in the working directory), read back as RGB (w x h;
 * the file removed); the caller frees it. Fails the test when it cannot. */
unsigned char *test_screenshot_rgb(const char *path, int *w, int *h);

/* Crack pixels of a w x h RGBA picture (top row first): sky, as `sky`
 * says, with something drawn two pixels either side of it across or down
 * (a thinner tree top against the sky is not one). */
int test_crack_pixels(const uint8_t *px, int w, int h, bool (*sky)(const uint8_t *rgba));
/* The game's clear colour (0.62, 0.76, 0.93), with a little room for fog. */
bool test_game_sky(const uint8_t *rgba);

/* One slow test file can stand as several ctest entries: with
 * STRATA_TEST_SHARD="i/n" in the environment a file runs only the tests
 * whose index in its table is i modulo n, so each entry fits the default
 * suite's per-test time. Without the variable every test runs. Every
 * file's `cmocka_run_group_tests` comes through here. */
int test_run_group(const char *group, const struct CMUnitTest *tests, size_t count,
                   CMFixtureFunction setup, CMFixtureFunction teardown);
#undef cmocka_run_group_tests
#define cmocka_run_group_tests(group_tests, group_setup, group_teardown)                            \
    test_run_group(#group_tests, (group_tests), sizeof(group_tests) / sizeof((group_tests)[0]),     \
                   (group_setup), (group_teardown))
#endif
