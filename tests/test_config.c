/* Settings persistence: writeconfig -> exec round trip of cvars and
 * bindings, bad lines reported as file:line with the rest applied, path
 * resolution, autoexec order, key names and held (+/-) bindings. */
#include "test_support.h"

#include <GLFW/glfw3.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "ui/bind.h"
#include "ui/cmd.h"
#include "ui/config.h"
#include "ui/cvar.h"

static char g_log[16384];
static void capture(void *user, log_level level, const char *line)
{
    size_t n = strlen(g_log);
    snprintf(g_log + n, sizeof g_log - n, "%d:%s\n", (int)level, line);
}

static void register_all(void)
{
    cmd_register_builtins();
    bind_register_commands();
    config_register_commands();
    static const char *const modes[] = { "blocks", "smooth", "enhanced", NULL };
    const cvar_desc vars[] = {
        { .name = "a.bool", .type = CVAR_BOOL, .flags = CVAR_ARCHIVE, .def = "0" },
        { .name = "a.int", .type = CVAR_INT, .flags = CVAR_ARCHIVE, .def = "8", .min = 2, .max = 32 },
        { .name = "a.float", .type = CVAR_FLOAT, .flags = CVAR_ARCHIVE, .def = "70" },
        { .name = "a.str", .type = CVAR_STRING, .flags = CVAR_ARCHIVE, .def = "x" },
        { .name = "a.enum", .type = CVAR_ENUM, .flags = CVAR_ARCHIVE, .def = "blocks", .values = modes },
        { .name = "a.vec", .type = CVAR_VEC3, .flags = CVAR_ARCHIVE, .def = "0 0 0" },
        { .name = "n.temp", .type = CVAR_INT, .def = "1" }, /* not archived */
        { .name = "n.ro", .type = CVAR_INT, .flags = CVAR_ARCHIVE | CVAR_READONLY, .def = "1" },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
}

static void unregister_all(void)
{
    bind_shutdown();
    cmd_shutdown();
    cvar_shutdown();
}

static int setup(void **state)
{
    g_log[0] = 0;
    log_set_sink(capture, NULL);
    register_all();
    return 0;
}

static int teardown(void **state)
{
    unregister_all();
    log_reset_sink();
    return 0;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_round_trip(void **state)
{
    const char *path = test_binary_path("test_config_rt/sub/config.cfg"); /* directories are created */
    assert_int_equal(cmd_exec("set a.bool 1; set a.int 31; set a.float 0.1; set a.enum smooth; set a.vec 1 -2.5 3e3"), 0);
    assert_true(cvar_set(cvar_find("a.str"), "say \"hi\" \\ there; // not a comment\nline 2", NULL, 0));
    assert_int_equal(cmd_exec("set n.temp 5"), 0);
    assert_int_equal(cmd_exec("bind w +forward; bind F1 \"biome desert; echo \\\"desert\\\"\"; bind MOUSE1 cut; "
                              "bind WHEELUP \"set a.int 3\"; bind grave toggleconsole"),
                     0);
    char line[1200];
    snprintf(line, sizeof line, "writeconfig %s", path);
    assert_int_equal(cmd_exec(line), 0);

    /* a fresh process: defaults, no bindings, then the config */
    unregister_all();
    register_all();
    assert_int_equal(cvar_find("a.int")->i, 8);
    assert_null(bind_get(GLFW_KEY_W));
    bind_set(GLFW_KEY_Q, "stale"); /* bindings not in the file go away */
    assert_int_equal(cmd_exec_file(path), 0);
    assert_true(cvar_find("a.bool")->b);
    assert_int_equal(cvar_find("a.int")->i, 31);
    assert_true(cvar_find("a.float")->f == 0.1f);
    assert_string_equal(cvar_find("a.enum")->str, "smooth");
    assert_true(cvar_find("a.vec")->v[1] == -2.5f && cvar_find("a.vec")->v[2] == 3000.f);
    assert_string_equal(cvar_find("a.str")->str, "say \"hi\" \\ there; // not a comment\nline 2");
    assert_int_equal(cvar_find("n.temp")->i, 1); /* not archived */
    assert_string_equal(bind_get(GLFW_KEY_W), "+forward");
    assert_string_equal(bind_get(GLFW_KEY_F1), "biome desert; echo \"desert\"");
    assert_string_equal(bind_get(BIND_MOUSE1), "cut");
    assert_string_equal(bind_get(BIND_WHEEL_UP), "set a.int 3");
    assert_string_equal(bind_get(GLFW_KEY_GRAVE_ACCENT), "toggleconsole");
    assert_null(bind_get(GLFW_KEY_Q));

    /* no temporary file is left behind */
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    assert_int_not_equal(access(tmp, F_OK), 0);
    FILE *f = fopen(path, "r");
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    assert_null(strstr(text, "n.ro")); /* read-only values are not settings */
    remove(path);
}

/* With program defaults marked, the config keeps only the user's changes:
 * a changed key, an unbound default, a new key. A default added by a newer
 * version is not wiped by an older config file. */
static void test_bindings_store_only_changes(void **state)
{
    const char *path = test_binary_path("test_config_binds.cfg");
    bind_set(GLFW_KEY_F1, "biome desert");
    bind_set(GLFW_KEY_F2, "biome taiga");
    bind_set(GLFW_KEY_H, "toggle hud.help");
    bind_mark_defaults();
    assert_int_equal(cmd_exec("bind F1 \"biome hills\"; unbind F2; bind q newseed"), 0);
    char line[1200];
    snprintf(line, sizeof line, "writeconfig %s", path);
    assert_int_equal(cmd_exec(line), 0);
    FILE *f = fopen(path, "r");
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    assert_null(strstr(text, "unbindall"));
    assert_null(strstr(text, "hud.help")); /* unchanged default: not written */

    /* the next version adds F7 and changes nothing else */
    bind_shutdown();
    bind_set(GLFW_KEY_F1, "biome desert");
    bind_set(GLFW_KEY_F2, "biome taiga");
    bind_set(GLFW_KEY_H, "toggle hud.help");
    bind_set(GLFW_KEY_F7, "biome formula");
    bind_mark_defaults();
    assert_int_equal(cmd_exec_file(path), 0);
    assert_string_equal(bind_get(GLFW_KEY_F1), "biome hills");
    assert_null(bind_get(GLFW_KEY_F2));
    assert_string_equal(bind_get(GLFW_KEY_Q), "newseed");
    assert_string_equal(bind_get(GLFW_KEY_H), "toggle hud.help");
    assert_string_equal(bind_get(GLFW_KEY_F7), "biome formula");
    remove(path);

    /* a config from before: "unbindall" and every key it knew. Its own
     * bindings win; the defaults it never heard of come back. */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", test_binary_path("test_config_legacy"));
    setenv("XDG_CONFIG_HOME", dir, 1);
    config_init(NULL);
    assert_true(config_write(NULL)); /* makes the directory */
    write_file(config_path(), "set a.int 9\nunbindall\nbind F1 \"biome hills\"\nbind H \"toggle hud.help\"\n");
    assert_int_equal(config_load(), 0);
    assert_int_equal(cvar_find("a.int")->i, 9);
    assert_string_equal(bind_get(GLFW_KEY_F1), "biome hills");
    assert_string_equal(bind_get(GLFW_KEY_F2), "biome taiga");
    assert_string_equal(bind_get(GLFW_KEY_F7), "biome formula");
    assert_null(bind_get(GLFW_KEY_Q)); /* not a default: stays unbound */
    assert_non_null(strstr(g_log, "2 default key bindings restored"));
    /* and the next save is in the new form */
    assert_true(config_write(NULL));
    FILE *g = fopen(config_path(), "r");
    n = fread(text, 1, sizeof text - 1, g);
    text[n] = 0;
    fclose(g);
    assert_null(strstr(text, "unbindall"));
    assert_non_null(strstr(text, "bind F1 \"biome hills\""));
    remove(config_path());
}

static void test_bad_lines_reported_rest_applied(void **state)
{
    const char *path = test_binary_path("test_config_bad.cfg");
    write_file(path, "set a.int 10\n"
                     "sett a.int 11\n"              /* 2: typo */
                     "set a.int 99\n"               /* 3: out of range */
                     "set a.enum \"smooth\n"        /* 4: unbalanced quote */
                     "set a.bool 1 // fine\n"
                     "bind NOTAKEY echo\n"          /* 6: bad key */
                     "set a.float 42\n");
    assert_int_equal(cmd_exec_file(path), 4);
    char want[1200];
    const int bad[] = { 2, 3, 4, 6 };
    for (int i = 0; i < 4; i++) {
        snprintf(want, sizeof want, "%s:%d:", path, bad[i]);
        if (!strstr(g_log, want)) fail_msg("no report for line %d in:\n%s", bad[i], g_log);
    }
    assert_non_null(strstr(g_log, "did you mean 'set'?"));
    assert_non_null(strstr(g_log, "expected int in [2, 32]"));
    assert_non_null(strstr(g_log, "unknown key 'NOTAKEY'"));
    assert_int_equal(cvar_find("a.int")->i, 10);
    assert_true(cvar_find("a.bool")->b);
    assert_true(cvar_find("a.float")->f == 42.f);
    remove(path);
}

/* A file that is not text runs no line at all, even the ones before its
 * first bad byte, which is reported as file:line:col. */
static void test_not_text_runs_nothing(void **state)
{
    const char *path = test_binary_path("test_config_binary.cfg");
    const char *const bodies[] = { "set a.int 11\nset a.bool 1\nok\x01then\n", "set a.int 11\nset a.bool 1\nok\xff\xfe\n",
                                   "set a.int 11\nset a.bool 1\nok\xc3(\n" };
    for (int k = 0; k < 3; k++) {
        write_file(path, bodies[k]);
        g_log[0] = 0;
        errno = 0;
        assert_int_equal(cmd_exec_file(path), -1);
        assert_int_equal(errno, EILSEQ);
        assert_int_equal(cvar_find("a.int")->i, 8);
        assert_false(cvar_find("a.bool")->b);
        char want[1200];
        snprintf(want, sizeof want, "%s:3:3: ", path);
        if (!strstr(g_log, want)) fail_msg("no %s in:\n%s", want, g_log);
    }
    /* UTF-8 text is text */
    write_file(path, "set a.int 11 // caf\xc3\xa9 \xe2\x82\xac\n");
    assert_int_equal(cmd_exec_file(path), 0);
    assert_int_equal(cvar_find("a.int")->i, 11);
    remove(path);
}

/* A FIFO (or a device) is refused at once: reading one would wait for a
 * writer that never comes, and the window would freeze with it. */
static void test_fifo_refused(void **state)
{
    const char *path = test_binary_path("test_config_fifo");
    remove(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    g_log[0] = 0;
    assert_int_equal(cmd_exec_file(path), -1);
    assert_int_equal(errno, EINVAL);
    char line[1200];
    snprintf(line, sizeof line, "exec %s", path);
    assert_int_equal(cmd_exec(line), 1);
    assert_non_null(strstr(g_log, "not a regular file"));
    remove(path);
}

static void test_missing_exec_file(void **state)
{
    assert_int_equal(cmd_exec("exec /no/such/dir/x.cfg"), 1);
    assert_non_null(strstr(g_log, "exec: cannot read '/no/such/dir/x.cfg': No such file or directory"));
    assert_int_equal(cmd_exec("exec"), 1);
    assert_non_null(strstr(g_log, "usage: exec FILE"));
}

static void test_paths_and_autoexec(void **state)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", test_binary_path("test_config_xdg"));
    setenv("XDG_CONFIG_HOME", dir, 1);
    config_init(NULL);
    char want[1200];
    snprintf(want, sizeof want, "%s/strata/config.cfg", dir);
    assert_string_equal(config_path(), want);
    char sib[1200];
    assert_true(config_sibling("autoexec.cfg", sib, sizeof sib));

    /* the config sets a value, autoexec runs after it and wins */
    assert_int_equal(cmd_exec("set a.int 20"), 0);
    assert_true(config_write(NULL));
    write_file(sib, "set a.int 21\necho from autoexec\n");
    cmd_exec("set a.int 5");
    assert_int_equal(config_load(), 0);
    assert_int_equal(cvar_find("a.int")->i, 21);
    assert_non_null(strstr(g_log, "from autoexec"));
    /* exec finds files beside the config */
    assert_int_equal(cmd_exec("set a.int 5; exec autoexec.cfg"), 0);
    assert_int_equal(cvar_find("a.int")->i, 21);
    remove(sib);
    remove(config_path());

    setenv("XDG_CONFIG_HOME", "relative/ignored", 1); /* the XDG spec: relative is invalid */
    setenv("HOME", "/home/someone", 1);
    config_init(NULL);
    assert_string_equal(config_path(), "/home/someone/.config/strata/config.cfg");
    config_init("/tmp/x/my.cfg"); /* --config wins */
    assert_string_equal(config_path(), "/tmp/x/my.cfg");
    assert_true(config_sibling("history", sib, sizeof sib));
    assert_string_equal(sib, "/tmp/x/history");
    unsetenv("XDG_CONFIG_HOME");
    unsetenv("HOME");
    config_init(NULL);
    assert_null(config_path());
    assert_int_equal(config_load(), 0); /* nothing persisted, nothing fails */
}

static void test_screenshot_path(void **state)
{
    char home[1024], out[2048];
    snprintf(home, sizeof home, "%s", test_binary_path("test_config_home"));
    setenv("HOME", home, 1);
    unsetenv("XDG_CONFIG_HOME");
    unsetenv("XDG_PICTURES_DIR");
    assert_true(config_screenshot_path(out, sizeof out));
    char prefix[1100];
    snprintf(prefix, sizeof prefix, "%s/Pictures/strata/strata-", home);
    assert_memory_equal(out, prefix, strlen(prefix));
    assert_non_null(strstr(out, ".png"));
    write_file(out, "x"); /* taken: the next one in the same second gets a suffix */
    char next[2048];
    assert_true(config_screenshot_path(next, sizeof next));
    assert_string_not_equal(out, next);
    remove(out);
}

static void test_key_names_round_trip(void **state)
{
    int named = 0;
    for (int k = 0; k < BIND_KEY_COUNT; k++) {
        const char *name = bind_key_name(k);
        if (!name) continue;
        named++;
        assert_int_equal(bind_key_from_name(name), k);
    }
    assert_true(named > 100);
    assert_int_equal(bind_key_from_name("w"), GLFW_KEY_W);
    assert_int_equal(bind_key_from_name("f12"), GLFW_KEY_F12);
    assert_int_equal(bind_key_from_name("`"), GLFW_KEY_GRAVE_ACCENT);
    assert_int_equal(bind_key_from_name("esc"), GLFW_KEY_ESCAPE);
    assert_int_equal(bind_key_from_name("mouse2"), BIND_MOUSE1 + 1);
    assert_int_equal(bind_key_from_name("F26"), -1);
    assert_int_equal(bind_key_from_name(""), -1);
    assert_int_equal(bind_key_from_name("\xff"), -1);
}

static void test_held_bindings(void **state)
{
    cvar_register(&(cvar_desc){ .name = "p.fwd", .type = CVAR_INT, .def = "0" });
    assert_int_equal(cmd_exec("bind w \"+p\""), 0);
    assert_int_equal(cmd_exec("bind x \"set p.fwd 7\""), 0);
    assert_true(bind_key_event(GLFW_KEY_X, GLFW_PRESS));
    assert_int_equal(cvar_find("p.fwd")->i, 7);
    assert_true(bind_key_event(GLFW_KEY_X, GLFW_REPEAT)); /* repeats do not re-run */
    assert_false(bind_key_event(GLFW_KEY_Z, GLFW_PRESS));
    g_log[0] = 0;
    bind_key_event(GLFW_KEY_W, GLFW_PRESS);
    bind_key_event(GLFW_KEY_W, GLFW_RELEASE);
    assert_non_null(strstr(g_log, "unknown command '+p'"));
    assert_non_null(strstr(g_log, "unknown command '-p'"));
    /* a binding that rebinds its own key is safe */
    assert_int_equal(cmd_exec("bind k \"bind k echo second\""), 0);
    bind_key_event(GLFW_KEY_K, GLFW_PRESS);
    assert_string_equal(bind_get(GLFW_KEY_K), "echo second");
    g_log[0] = 0;
    assert_int_equal(cmd_exec("bind k; unbind k; bind k; bindlist"), 0);
    assert_non_null(strstr(g_log, "K=\"echo second\""));
    assert_non_null(strstr(g_log, "K is not bound"));
    assert_non_null(strstr(g_log, "W=\"+p\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bindings_store_only_changes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_lines_reported_rest_applied, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_text_runs_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fifo_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_exec_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paths_and_autoexec, setup, teardown),
        cmocka_unit_test_setup_teardown(test_screenshot_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_key_names_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_held_bindings, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
