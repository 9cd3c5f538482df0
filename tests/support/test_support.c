#include "test_support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app/app.h"
#include "core/jobs.h"
#include "gfx/atlas.h"
#include "gfx/renderer.h"
#include "mesh/mesh_world.h"
#include "platform/platform.h"
#include "ui/cmd.h"
#include <stb/stb_image.h>

const char *test_source_path(const char *rel)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) & 3;
    snprintf(buf[k], sizeof buf[k], "%s/%s", STRATA_SOURCE_DIR, rel);
    return buf[k];
}

const char *test_binary_path(const char *rel)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) & 3;
    snprintf(buf[k], sizeof buf[k], "%s/%s", STRATA_BINARY_DIR, rel);
    return buf[k];
}

struct platform *test_headless_open(int width, int height)
{
    char err[1024];
    platform *p = platform_create(&(platform_desc){ .width = width, .height = height, .headless = true }, err, sizeof err);
    if (!p) print_error("headless context: %s\n", err);
    return p;
}

int test_gl_open(test_gl *g, int width, int height)
{
    char err[1024];
    *g = (test_gl){ 0 };
    g->plat = test_headless_open(width, height);
    if (!g->plat) return 0;
    g->atlas = atlas_texture_load(platform_find_asset("assets/atlas.png"), err, sizeof err);
    if (!g->atlas) {
        print_error("atlas: %s\n", err);
        return 0;
    }
    g->rend = renderer_create(err, sizeof err);
    if (!g->rend) {
        print_error("%s\n", err);
        return 0;
    }
    renderer_set_atlas(g->rend, g->atlas);
    g->jobs = job_pool_create(2);
    return 1;
}

void test_gl_close(test_gl *g)
{
    renderer_destroy(g->rend);
    if (g->atlas) atlas_texture_destroy(g->atlas);
    job_pool_destroy(g->jobs);
    platform_destroy(g->plat);
    *g = (test_gl){ 0 };
}

void test_gl_upload_world(test_gl *g, const world *w)
{
    int n = w->chunk_count;
    int *idx = malloc(sizeof *idx * (size_t)n);
    chunk_mesh *m = calloc((size_t)n, sizeof *m), *l = calloc((size_t)n, sizeof *l);
    assert_true(idx && m && l);
    for (int i = 0; i < n; i++) idx[i] = i;
    mesh_world_chunks_lod(w, g->jobs, idx, n, true, m, l);
    renderer_reset(g->rend, w->cx, w->cy, w->cz);
    renderer_set_grid(g->rend, world_grid_of(w));
    for (int i = 0; i < n; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, i, &cx, &cy, &cz);
        assert_true(renderer_upload_lod(g->rend, cx, cy, cz, 0, &m[i]));
        assert_true(renderer_upload_lod(g->rend, cx, cy, cz, 1, &l[i]));
        mesh_free(&m[i]);
        mesh_free(&l[i]);
    }
    free(m);
    free(l);
    free(idx);
}

enhance_ctx *test_enhance_ctx(enhance_params p)
{
    char err[256];
    enhance_ctx *e = enhance_create(&p, err, sizeof err);
    if (!e) print_error("%s\n", err);
    assert_non_null(e);
    return e;
}

light *test_light_bake(const world *w, const light_params *p, job_pool *jobs)
{
    light *l = light_create(w->sx, w->sy, w->sz);
    assert_non_null(l);
    light_read_world(l, w, NULL, NULL, jobs);
    light_bake(l, p, jobs, NULL, NULL, NULL);
    return l;
}

int test_pixels_differ(const uint8_t *a, const uint8_t *b, int n, int tol)
{
    int differ = 0;
    for (int p = 0; p < n; p++)
        for (int k = 0; k < 3; k++)
            if (abs((int)a[4 * p + k] - (int)b[4 * p + k]) > tol) {
                differ++;
                break;
            }
    return differ;
}

unsigned char *test_screenshot_rgb(const char *path, int *w, int *h)
{
    /* the file is this process's own: a slow file's shards run side by
     * side in one directory, each taking and removing its shots */
    char own[400], cmd[512];
    snprintf(own, sizeof own, "%ld.%s", (long)getpid(), path);
    snprintf(cmd, sizeof cmd, "screenshot %s", own);
    assert_int_equal(cmd_exec(cmd), 0);
    int n;
    unsigned char *px = stbi_load(own, w, h, &n, 3);
    assert_non_null(px);
    remove(own);
    return px;
}

int test_crack_pixels(const uint8_t *px, int w, int h, bool (*sky)(const uint8_t *rgba))
{
    int n = 0;
#define SKY(x, y) sky(px + 4 * ((y) * w + (x)))
    for (int y = 2; y < h - 2; y++)
        for (int x = 2; x < w - 2; x++)
            n += SKY(x, y) && ((!SKY(x - 2, y) && !SKY(x + 2, y)) || (!SKY(x, y - 2) && !SKY(x, y + 2)));
#undef SKY
    return n;
}

bool test_game_sky(const uint8_t *p)
{
    return abs((int)p[0] - 158) <= 3 && abs((int)p[1] - 194) <= 3 && abs((int)p[2] - 237) <= 3;
}

int test_run_group(const char *group, const struct CMUnitTest *tests, size_t count,
                   CMFixtureFunction setup, CMFixtureFunction teardown)
{
    const char *shard = getenv("STRATA_TEST_SHARD");
    unsigned i = 0, n = 1;
    char end;
    if (shard && *shard && (sscanf(shard, "%u/%u%c", &i, &n, &end) != 2 || n == 0 || i >= n)) {
        fprintf(stderr, "STRATA_TEST_SHARD '%s' is not i/n with 0 <= i < n\n", shard);
        return 1;
    }
    if (n == 1)
        return _cmocka_run_group_tests(group, tests, count, setup, teardown);
    struct CMUnitTest *part = malloc(count * sizeof *part);
    if (!part) {
        fprintf(stderr, "%s: out of memory for shard %u/%u\n", group, i, n);
        return 1;
    }
    size_t k = 0;
    for (size_t t = i; t < count; t += n)
        part[k++] = tests[t];
    int failed = k ? _cmocka_run_group_tests(group, part, k, setup, teardown) : 0;
    free(part);
    return failed;
}

int test_app_setup(void **state, int width, int height, const char *script)
{
    app_desc d = { .headless = true, .width = width, .height = height };
    app *a = app_create(&d);
    if (!a) {
        print_error("no app: a GL context or the assets are missing\n");
        return -1;
    }
    if (cmd_exec(script) != 0) {
        print_error("the setup script failed: %s\n", script);
        app_destroy(a);
        return -1;
    }
    *state = a;
    return 0;
}

int test_app_teardown(void **state)
{
    app_destroy(*state);
    return 0;
}

void test_cmd(const char *fmt, ...)
{
    char cmd[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof cmd) fail_msg("command too long for the test's buffer: %.64s...", cmd);
    if (cmd_exec(cmd) != 0) fail_msg("command failed: %s", cmd);
}
