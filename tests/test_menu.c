/* The pause menu's model (engine/ui/menu), without a window: rows follow
 * the cvar table (a setting whose cvar is missing is not shown, and shows
 * once it is registered), keys and clicks change the cvars within their
 * ranges, actions run their commands, Esc closes, and the layout keeps
 * every row inside the panel and the window. */
#include "test_support.h"

#include <GLFW/glfw3.h>
#include <string.h>

#include "ui/cmd.h"
#include "ui/cvar.h"
#include "ui/menu.h"

static int g_ran, g_sounds;

static int c_ping(void *u, int argc, char **argv)
{
    g_ran++;
    return 0;
}

static void sound(void *user, const char *what) { g_sounds++; }

static const menu_item k_items[] = {
    { "Resume", NULL, "ping", 0, NULL },
    { "Distance", "t.distance", NULL, 32, NULL },
    { "Brightness", "t.brightness", NULL, 0.1, NULL },
    { "Fullscreen", "t.fullscreen", NULL, 0, NULL },
    { "Mode", "t.mode", NULL, 0, NULL },
};

static int setup(void **state)
{
    static const char *const modes[] = { "blocks", "smooth", "enhanced", NULL };
    const cvar_desc vars[] = {
        { "t.distance", "", CVAR_FLOAT, CVAR_ARCHIVE, "192", 32, 256 },
        { "t.fullscreen", "", CVAR_BOOL, CVAR_ARCHIVE, "0" },
        { "t.mode", "", CVAR_ENUM, CVAR_ARCHIVE, "blocks", 0, 0, modes },
    };
    for (int i = 0; i < 3; i++) assert_non_null(cvar_register(&vars[i]));
    cmd_register(&(cmd_desc){ "ping", "", "", c_ping, NULL });
    return 0;
}

static int teardown(void **state)
{
    cmd_shutdown();
    cvar_shutdown();
    return 0;
}

static void test_rows_follow_the_cvar_table(void **state)
{
    menu *m = menu_create("Paused", k_items, 5, sound, NULL);
    assert_int_equal(menu_rows(m), 4); /* no t.brightness yet */
    assert_string_equal(menu_row(m, 1)->label, "Distance");
    assert_string_equal(menu_row(m, 2)->label, "Fullscreen");
    cvar_register(&(cvar_desc){ "t.brightness", "", CVAR_FLOAT, CVAR_ARCHIVE, "1", 0.2, 2 });
    assert_int_equal(menu_rows(m), 5);
    assert_string_equal(menu_row(m, 2)->label, "Brightness");
    char v[32];
    menu_value(m, 3, v, sizeof v);
    assert_string_equal(v, "off");
    menu_destroy(m);
}

static void test_keys_change_settings_within_range(void **state)
{
    menu *m = menu_create("Paused", k_items, 5, sound, NULL);
    assert_false(menu_key(m, GLFW_KEY_DOWN, GLFW_PRESS)); /* closed: the game hears it */
    menu_set_open(m, true);
    assert_int_equal(menu_selected(m), 0);
    assert_true(menu_key(m, GLFW_KEY_UP, GLFW_PRESS)); /* wraps to the last row */
    assert_int_equal(menu_selected(m), menu_rows(m) - 1);
    assert_true(menu_key(m, GLFW_KEY_DOWN, GLFW_PRESS));
    assert_true(menu_key(m, GLFW_KEY_DOWN, GLFW_PRESS)); /* Distance */
    assert_true(menu_key(m, GLFW_KEY_RIGHT, GLFW_PRESS));
    assert_float_equal(cvar_find("t.distance")->f, 224.f, 1e-4);
    assert_true(menu_key(m, GLFW_KEY_RIGHT, GLFW_REPEAT));
    assert_true(menu_key(m, GLFW_KEY_RIGHT, GLFW_PRESS)); /* 288 is past the range: 256 */
    assert_float_equal(cvar_find("t.distance")->f, 256.f, 1e-4);
    assert_false(menu_adjust(m, 1, 1)); /* at the end: nothing changes */
    assert_true(menu_adjust(m, 1, -100));
    assert_float_equal(cvar_find("t.distance")->f, 32.f, 1e-4);
    /* the number row ignores Enter; the bool toggles; the list cycles and wraps */
    assert_false(menu_activate(m, 1));
    assert_true(menu_activate(m, 3));
    assert_true(cvar_find("t.fullscreen")->b);
    assert_true(menu_adjust(m, 4, -1));
    assert_string_equal(cvar_find("t.mode")->str, "enhanced");
    /* an action runs its command; Esc closes */
    int ran = g_ran;
    assert_true(menu_select(m, 0));
    assert_true(menu_key(m, GLFW_KEY_ENTER, GLFW_PRESS));
    assert_int_equal(g_ran, ran + 1);
    assert_true(menu_key(m, GLFW_KEY_W, GLFW_PRESS)); /* swallowed while open */
    assert_true(menu_key(m, GLFW_KEY_ESCAPE, GLFW_PRESS));
    assert_false(menu_is_open(m));
    assert_true(g_sounds > 0);
    menu_destroy(m);
}

static void test_clicks_and_layout(void **state)
{
    menu *m = menu_create("Paused", k_items, 5, NULL, NULL);
    menu_set_open(m, true);
    const int sizes[][2] = { { 320, 240 }, { 640, 360 }, { 1280, 720 }, { 2560, 1440 } };
    for (int k = 0; k < 4; k++) {
        int w = sizes[k][0], h = sizes[k][1], lh = h / 48 < 12 ? 15 : h / 48 + 3, cw = lh * 6 / 10;
        menu_layout L = menu_layout_for(m, cw, lh, w, h);
        assert_int_equal(L.rows, menu_rows(m));
        assert_true(L.panel.x >= 0 && L.panel.y >= 0 && L.panel.x + L.panel.w <= w && L.panel.y + L.panel.h <= h);
        for (int r = 0; r < L.rows; r++) {
            assert_true(L.row[r].y >= L.panel.y && L.row[r].y + L.row[r].h <= L.panel.y + L.panel.h);
            if (r > 0) assert_true(L.row[r].y >= L.row[r - 1].y + L.row[r - 1].h);
        }
    }
    menu_layout L = menu_layout_for(m, 9, 15, 1280, 720);
    cvar_set_by_name("t.distance", "192");
    menu_box more = L.more[1], less = L.less[1];
    assert_true(more.w > 0 && less.w > 0 && L.more[0].w == 0); /* actions have no arrows */
    assert_true(menu_click(m, &L, more.x + more.w / 2, more.y + more.h / 2));
    assert_float_equal(cvar_find("t.distance")->f, 224.f, 1e-4);
    assert_true(menu_click(m, &L, less.x + less.w / 2, less.y + less.h / 2));
    assert_true(menu_click(m, &L, less.x + less.w / 2, less.y + less.h / 2));
    assert_float_equal(cvar_find("t.distance")->f, 160.f, 1e-4);
    assert_int_equal(menu_selected(m), 1);
    bool was = cvar_find("t.fullscreen")->b;
    assert_true(menu_click(m, &L, L.row[3].x + 4, L.row[3].y + L.row[3].h / 2)); /* the row itself: toggles */
    assert_true(cvar_find("t.fullscreen")->b != was);
    assert_false(menu_click(m, &L, 2, 2)); /* outside the panel */
    menu_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_follow_the_cvar_table),
        cmocka_unit_test(test_keys_change_settings_within_range),
        cmocka_unit_test(test_clicks_and_layout),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
