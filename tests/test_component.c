/* The app's component table and the render-mode table: hooks run in table
 * order (shutdown reversed), an edit reaches every component once with its
 * box clipped to the world, a tool cut or fill announces one box holding
 * every voxel it changed, modes are found by name and cycle. */
#include "test_support.h"

#include <string.h>

#include "app/app_internal.h"
#include "app/app_world.h"
#include "app/component.h"
#include "gfx/render_mode.h"
#include "play/tool.h"

static char g_log[256];
static world_edit g_edits[8];
static int g_edit_count;

static void *init_a(app *a) { strcat(g_log, "iA "); return g_log; }
static void *init_b(app *a) { strcat(g_log, "iB "); return NULL; }
static void shut_a(void *self, app *a) { assert_ptr_equal(self, g_log); strcat(g_log, "sA "); }
static void shut_b(void *self, app *a) { strcat(g_log, "sB "); }
static void frame_a(void *self, app *a, double now, float dt) { strcat(g_log, "fA "); }
static void edit_b(void *self, app *a, const world_edit *e)
{
    if (g_edit_count < 8) g_edits[g_edit_count] = *e;
    g_edit_count++;
}

static const component comp_a = { .name = "a", .init = init_a, .on_frame = frame_a, .shutdown = shut_a };
static const component comp_b = { .name = "b", .init = init_b, .on_edit = edit_b, .shutdown = shut_b };
static const component comp_a_again = { .name = "a" };

static void test_walk_order(void **state)
{
    component_table t = { 0 };
    g_log[0] = 0;
    assert_true(component_add(&t, &comp_a));
    assert_true(component_add(&t, &comp_b));
    assert_false(component_add(&t, &comp_a_again)); /* names are unique */
    component_init_all(&t, NULL);
    assert_ptr_equal(component_state(&t, "a"), g_log);
    assert_null(component_state(&t, "b"));
    assert_null(component_state(&t, "nope"));
    component_frame_all(&t, NULL, 0, 0);
    component_shutdown_all(&t, NULL);
    assert_string_equal(g_log, "iA iB fA sB sA ");
    assert_int_equal(t.count, 0);
}

static void test_edit_box_clipped_once(void **state)
{
    app a = { 0 };
    a.w = world_create(1, 1, 1);
    assert_non_null(a.w);
    assert_true(component_add(&a.comps, &comp_b));
    g_edit_count = 0;
    app_world_edited(&a, (int[]){ -4, 10, 30 }, (int[]){ 5, 12, 40 }, &comp_a);
    assert_int_equal(g_edit_count, 1);
    assert_int_equal(g_edits[0].lo[0], 0);
    assert_int_equal(g_edits[0].hi[0], 5);
    assert_int_equal(g_edits[0].lo[2], 30);
    assert_int_equal(g_edits[0].hi[2], 32);
    assert_ptr_equal(g_edits[0].source, &comp_a);
    /* wholly outside: nothing changed, nobody is told */
    app_world_edited(&a, (int[]){ 40, 0, 0 }, (int[]){ 50, 5, 5 }, NULL);
    assert_int_equal(g_edit_count, 1);
    world_destroy(a.w);
}

static int g_tool_calls;
static int g_lo[3], g_hi[3];
static void on_tool_edit(void *user, const int lo[3], const int hi[3])
{
    g_tool_calls++;
    memcpy(g_lo, lo, sizeof g_lo);
    memcpy(g_hi, hi, sizeof g_hi);
}

/* Every voxel that differs between before and after lies in the box. */
static void check_box(const uint8_t *before, const world *w)
{
    int changed = 0;
    for (int y = 0; y < w->sy; y++)
        for (int z = 0; z < w->sz; z++)
            for (int x = 0; x < w->sx; x++) {
                size_t i = (size_t)x + (size_t)z * w->sx + (size_t)y * w->sx * w->sz;
                if (before[i] == world_get(w, x, y, z)) continue;
                changed++;
                assert_true(x >= g_lo[0] && x < g_hi[0] && y >= g_lo[1] && y < g_hi[1] && z >= g_lo[2] &&
                            z < g_hi[2]);
            }
    assert_true(changed > 0);
}

static void test_tool_announces_its_box(void **state)
{
    world *w = world_create(2, 1, 2);
    for (int y = 0; y < 20; y++)
        for (int z = 0; z < w->sz; z++)
            for (int x = 0; x < w->sx; x++) world_set(w, x, y, z, y == 0 ? MAT_BEDROCK : MAT_STONE);
    tool t;
    char err[256];
    assert_true(tool_init(&t, err, sizeof err));
    t.edited = on_tool_edit;
    size_t n = (size_t)w->sx * w->sy * w->sz;
    uint8_t *before = malloc(n);
    for (int y = 0; y < w->sy; y++)
        for (int z = 0; z < w->sz; z++)
            for (int x = 0; x < w->sx; x++) before[(size_t)x + (size_t)z * w->sx + (size_t)y * w->sx * w->sz] = world_get(w, x, y, z);
    octree_pose pose;
    octree_pose_from_yaw_pitch(&pose, 30, -20, (float[]){ 20.3f, 18.f, 31.7f });
    g_tool_calls = 0;
    assert_true(tool_cut(&t, w, &pose) > 0);
    assert_int_equal(g_tool_calls, 1);
    check_box(before, w);
    for (int y = 0; y < w->sy; y++)
        for (int z = 0; z < w->sz; z++)
            for (int x = 0; x < w->sx; x++) before[(size_t)x + (size_t)z * w->sx + (size_t)y * w->sx * w->sz] = world_get(w, x, y, z);
    octree_pose_from_yaw_pitch(&pose, 0, 0, (float[]){ 40.f, 24.f, 20.f });
    assert_true(tool_fill(&t, w, &pose, MAT_DIRT, NULL) > 0);
    assert_int_equal(g_tool_calls, 2);
    check_box(before, w);
    /* a cut in the air changes nothing and says nothing */
    octree_pose_from_yaw_pitch(&pose, 0, 0, (float[]){ 40.f, 100.f, 20.f });
    assert_int_equal(tool_cut(&t, w, &pose), 0);
    assert_int_equal(g_tool_calls, 2);
    free(before);
    tool_free(&t);
    world_destroy(w);
}

static const render_mode mode_x = { .name = "x-test" }, mode_y = { .name = "y-test" }, mode_x2 = { .name = "x-test" };

static void test_render_mode_table(void **state)
{
    int base = render_mode_count();
    assert_true(render_mode_register(&mode_x));
    assert_true(render_mode_register(&mode_x)); /* the same entry twice is one */
    assert_false(render_mode_register(&mode_x2)); /* a name is taken once */
    assert_true(render_mode_register(&mode_y));
    assert_int_equal(render_mode_count(), base + 2);
    assert_ptr_equal(render_mode_find("y-test"), &mode_y);
    assert_null(render_mode_find("smooth-not-here"));
    assert_ptr_equal(render_mode_next(&mode_x), &mode_y);
    assert_ptr_equal(render_mode_next(&mode_y), render_mode_at(0)); /* wraps */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_order),
        cmocka_unit_test(test_edit_box_clipped_once),
        cmocka_unit_test(test_tool_announces_its_box),
        cmocka_unit_test(test_render_mode_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
