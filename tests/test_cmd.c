/* The command language: quotes, ';', comments, escapes, syntax errors with
 * columns, hostile input, "did you mean", quoting round trips, completion. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/rng.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

/* ---- log capture ------------------------------------------------------- */

static char g_log[16384];
static void capture(void *user, log_level level, const char *line)
{
    size_t n = strlen(g_log);
    snprintf(g_log + n, sizeof g_log - n, "%d:%s\n", (int)level, line);
}

/* ---- parse visitor: records every command as "argv0|argv1|...;" ---------- */

static char g_seen[8192];
static int record(void *user, cmd_args *a, const char *source)
{
    size_t n = strlen(g_seen);
    for (int i = 0; i < a->argc; i++) n += (size_t)snprintf(g_seen + n, sizeof g_seen - n, "%s%s", i ? "|" : "", a->argv[i]);
    snprintf(g_seen + n, sizeof g_seen - n, ";");
    return 0;
}

static int parse(const char *text, char *err, size_t errlen)
{
    g_seen[0] = 0;
    return cmd_parse(text, record, NULL, err, errlen);
}

static int setup(void **state)
{
    g_log[0] = 0;
    log_set_sink(capture, NULL);
    cmd_register_builtins();
    static const char *const modes[] = { "blocks", "smooth", "enhanced", NULL };
    cvar_register(&(cvar_desc){ .name = "render.mode", .type = CVAR_ENUM, .def = "blocks", .values = modes });
    cvar_register(&(cvar_desc){ .name = "render.wire", .type = CVAR_BOOL, .def = "0" });
    cvar_register(&(cvar_desc){ .name = "view.fov", .type = CVAR_FLOAT, .def = "70", .min = 30, .max = 120 });
    cvar_register(&(cvar_desc){ .name = "view.distance", .type = CVAR_INT, .def = "8", .min = 2, .max = 32 });
    return 0;
}

static int teardown(void **state)
{
    cmd_shutdown();
    cvar_shutdown();
    log_reset_sink();
    return 0;
}

static void test_words_and_quotes(void **state)
{
    char err[256];
    assert_int_equal(parse("set  a\t\"hello world\"  x", err, sizeof err), 0);
    assert_string_equal(g_seen, "set|a|hello world|x;");
    assert_int_equal(parse("echo \"\"", err, sizeof err), 0);
    assert_string_equal(g_seen, "echo|;");
}

static void test_semicolons_and_newlines(void **state)
{
    char err[256];
    assert_int_equal(parse("echo a; echo b;;echo c\necho d", err, sizeof err), 0);
    assert_string_equal(g_seen, "echo|a;echo|b;echo|c;echo|d;");
    assert_int_equal(parse("echo \"a;b\"", err, sizeof err), 0); /* quoted ';' is text */
    assert_string_equal(g_seen, "echo|a;b;");
}

static void test_comments(void **state)
{
    char err[256];
    assert_int_equal(parse("echo a // not this; echo b", err, sizeof err), 0);
    assert_string_equal(g_seen, "echo|a;");
    assert_int_equal(parse("// only a comment", err, sizeof err), 0);
    assert_string_equal(g_seen, "");
    assert_int_equal(parse("echo \"a // b\"", err, sizeof err), 0);
    assert_string_equal(g_seen, "echo|a // b;");
    assert_int_equal(parse("echo a//b", err, sizeof err), 0);
    assert_string_equal(g_seen, "echo|a;");
}

static void test_escapes(void **state)
{
    char err[256];
    assert_int_equal(parse("echo \"q\\\"b\\\\s\\nn\\t\"", err, sizeof err), 0);
    /* \" \\ \n are escapes; any other backslash stays */
    assert_string_equal(g_seen, "echo|q\"b\\s\nn\\t;");
}

static void test_unbalanced_quote_reports_column_and_runs_nothing(void **state)
{
    char err[256];
    assert_int_equal(parse("echo ok; echo \"abc", err, sizeof err), -1);
    assert_string_equal(g_seen, ""); /* nothing ran: the first command is not half-applied */
    assert_non_null(strstr(err, "column 15"));
    assert_non_null(strstr(err, "unbalanced quote"));
}

static void test_too_many_and_too_long(void **state)
{
    char err[256];
    char line[CMD_MAX_LINE * 2];
    size_t n = 0;
    for (int i = 0; i < CMD_MAX_ARGS + 3; i++) n += (size_t)snprintf(line + n, sizeof line - n, "a%d ", i);
    assert_int_equal(parse(line, err, sizeof err), -1);
    assert_non_null(strstr(err, "too many arguments"));

    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = 0;
    assert_int_equal(parse(line, err, sizeof err), -1);
    assert_non_null(strstr(err, "too long"));

    /* far beyond any buffer: refused up front */
    size_t big = (size_t)CMD_MAX_LINE * 40;
    char *huge = malloc(big + 1);
    assert_non_null(huge);
    memset(huge, 'y', big);
    huge[big] = 0;
    assert_int_equal(cmd_exec(huge), 1);
    assert_non_null(strstr(g_log, "line too long"));
    free(huge);
}

static void test_control_bytes_refused(void **state)
{
    char err[256];
    assert_int_equal(parse("echo a\x01" "b", err, sizeof err), -1);
    assert_non_null(strstr(err, "control character 0x01"));
}

static void test_binary_garbage_never_crashes(void **state)
{
    rng r = rng_make(1234);
    char line[600];
    for (int iter = 0; iter < 3000; iter++) {
        int n = (int)(rng_next(&r) % (sizeof line - 1));
        for (int i = 0; i < n; i++) {
            unsigned v = (unsigned)rng_next(&r);
            /* bias towards the characters the parser cares about */
            static const char special[] = "\";/\\ \n\t";
            line[i] = (v & 3) == 0 ? special[(v >> 2) % (sizeof special - 1)] : (char)(v >> 8);
        }
        line[n] = 0;
        g_log[0] = 0;
        cmd_exec(line); /* any result is fine; it must just return */
    }
}

static void test_did_you_mean(void **state)
{
    assert_int_equal(cmd_exec("sett view.fov 90"), 1);
    assert_non_null(strstr(g_log, "unknown command 'sett' — did you mean 'set'?"));
    g_log[0] = 0;
    assert_int_equal(cmd_exec("set view.fvo 90"), 1);
    assert_non_null(strstr(g_log, "did you mean 'view.fov'?"));
    g_log[0] = 0;
    assert_int_equal(cmd_exec("qqqqqqqq"), 1);
    assert_null(strstr(g_log, "did you mean"));
    assert_non_null(strstr(g_log, "failed: qqqqqqqq"));
    assert_string_equal(cmd_suggest("cvarlst"), "cvarlist");
}

static void test_execution_stops_at_first_failure(void **state)
{
    assert_int_equal(cmd_exec("set view.fov 80; set view.fov 999; set view.fov 90"), 1);
    assert_string_equal(cvar_find("view.fov")->str, "80");
    assert_non_null(strstr(g_log, "expected float in [30, 120]"));
}

static void test_quote_round_trip(void **state)
{
    /* control bytes too: a config round trip gives back the same bytes */
    const char *samples[] = { "plain", "two words", "q\"uote", "back\\slash", "new\nline", "", "semi;colon // x",
                              "echo a\x01b", "bell\x07 esc\x1b[0m del\x7f", "tab\there", "\\x41 stays text",
                              "tab\there\r\x1f\x7f", "not \\x41 an escape" };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        char line[256] = "echo ", err[128];
        assert_true(cmd_quote(samples[i], line, sizeof line));
        assert_int_equal(parse(line, err, sizeof err), 0);
        char expect[256];
        snprintf(expect, sizeof expect, "echo|%s;", samples[i]);
        assert_string_equal(g_seen, expect);
    }
    char err[128];
    /* \xNN reads as its byte only for the control bytes cmd_quote writes so */
    assert_int_equal(parse("echo \"\\x41\\x0a\"", err, sizeof err), 0);
    assert_string_equal(g_seen, "echo|\\x41\n;");
    assert_int_equal(parse("echo \"a\\x00b\"", err, sizeof err), 0); /* never a NUL: it would cut the argument */
    assert_string_equal(g_seen, "echo|a\\x00b;");
    char small[8] = "";
    assert_false(cmd_quote("far too long for this", small, sizeof small));
    assert_string_equal(small, ""); /* untouched on failure */
}

/* ---- completion ---------------------------------------------------------- */

static char g_cands[4096];
static void add_cand(void *ctx, const char *s)
{
    size_t n = strlen(g_cands);
    snprintf(g_cands + n, sizeof g_cands - n, "%s ", s);
}

static size_t complete(const char *text)
{
    g_cands[0] = 0;
    return cmd_complete(text, add_cand, NULL);
}

static void test_complete_commands_and_cvars(void **state)
{
    assert_int_equal(complete("cvarl"), 0);
    assert_string_equal(g_cands, "cvarlist ");
    assert_int_equal(complete("echo a; ge"), 8);
    assert_string_equal(g_cands, "get ");
    complete("view.");
    assert_string_equal(g_cands, "view.distance view.fov ");
    assert_int_equal(complete("set "), 4);
    assert_string_equal(g_cands, "render.mode render.wire view.distance view.fov ");
    complete("toggle r");
    assert_string_equal(g_cands, "render.wire "); /* only bools toggle */
}

static void test_complete_values(void **state)
{
    assert_int_equal(complete("set render.mode "), 16);
    assert_string_equal(g_cands, "blocks smooth enhanced ");
    complete("set render.mode sm");
    assert_string_equal(g_cands, "smooth ");
    complete("render.mode e");
    assert_string_equal(g_cands, "enhanced ");
    complete("set render.wire t");
    assert_string_equal(g_cands, "true ");
    complete("set view.fov ");
    assert_string_equal(g_cands, ""); /* free numbers: nothing to offer */
    complete("echo a // set ");
    assert_string_equal(g_cands, "");
    assert_int_equal(complete("set \"render.m"), 5); /* inside an open quote */
    assert_string_equal(g_cands, "render.mode ");
}

static void test_exec_missing_and_recursive(void **state)
{
    assert_int_equal(cmd_exec("exec /nonexistent/dir/file.cfg"), 1);
    assert_non_null(strstr(g_log, "exec: cannot read '/nonexistent/dir/file.cfg': No such file or directory"));

    const char *path = test_binary_path("test_cmd_self.cfg");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "exec %s\n", path);
    fclose(f);
    g_log[0] = 0;
    char line[1200];
    snprintf(line, sizeof line, "exec %s", path);
    assert_int_equal(cmd_exec(line), 1); /* refused by depth, not by a stack overflow */
    assert_non_null(strstr(g_log, "nested more than"));
    remove(path);
}

/* /dev/zero never ends and is all NUL bytes: refused at its first line,
 * not read forever; a directory is an error, not silence. */
static void test_exec_binary_and_directory(void **state)
{
    assert_int_equal(cmd_exec("exec /dev/zero"), 1); /* a device: refused unread, it would never end */
    assert_non_null(strstr(g_log, "exec: cannot read '/dev/zero': not a regular file"));
    g_log[0] = 0;
    assert_int_equal(cmd_exec("exec /"), 1);
    assert_non_null(strstr(g_log, "exec: cannot read '/': Is a directory"));
    const char *path = test_binary_path("test_cmd_binary.cfg");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    static const char bytes[] = "set view.fov 80\nset view.fov 9\0\n0\nset view.fov 90\n";
    fwrite(bytes, 1, sizeof bytes - 1, f);
    fclose(f);
    g_log[0] = 0;
    char before[64];
    snprintf(before, sizeof before, "%s", cvar_find("view.fov")->str);
    assert_int_equal(cmd_exec_file(path), -1);
    assert_non_null(strstr(g_log, ":2:15: a NUL byte"));
    assert_string_equal(cvar_find("view.fov")->str, before); /* not even the lines before the NUL ran */
    remove(path);
}

static int g_world_ok;
static bool world_ok(void *user) { return *(int *)user; }
static int g_ran;
static int c_needs(void *u, int argc, char **argv) { g_ran++; return 0; }

/* Commands flagged as needing the world are refused with a reason while
 * there is none (a config file runs before it exists), and run after. */
static void test_commands_needing_a_world(void **state)
{
    cmd_register(&(cmd_desc){ .name = "stats", .help = "x", .fn = c_needs, .flags = CMD_NEEDS_WORLD });
    cmd_register(&(cmd_desc){ .name = "plain", .help = "x", .fn = c_needs });
    g_world_ok = 0;
    g_ran = 0;
    cmd_set_ready_fn(world_ok, &g_world_ok);
    assert_int_equal(cmd_exec("plain; stats"), 1);
    assert_int_equal(g_ran, 1);
    assert_non_null(strstr(g_log, "stats: no world yet"));
    assert_non_null(strstr(g_log, "failed: stats\n")); /* one space after "failed:" */
    g_world_ok = 1;
    assert_int_equal(cmd_exec("stats"), 0);
    assert_int_equal(g_ran, 2);
    cmd_set_ready_fn(NULL, NULL);
}

static void test_quit_hook(void **state)
{
    assert_int_equal(cmd_exec("quit"), 1); /* no app: a clear error */
    assert_non_null(strstr(g_log, "quit: nothing to quit"));
}

static int g_quit_called;
static void on_quit(void *user) { g_quit_called = *(int *)user; }

static void test_quit_calls_app(void **state)
{
    int marker = 7;
    cmd_set_quit_fn(on_quit, &marker);
    assert_int_equal(cmd_exec("quit"), 0);
    assert_int_equal(g_quit_called, 7);
    /* nothing after quit runs, in the line or in the file */
    assert_int_equal(cmd_exec("set view.fov 80; quit; set view.fov 90"), 0);
    assert_string_equal(cvar_find("view.fov")->str, "80");
    const char *path = test_binary_path("test_cmd_quit.cfg");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "set view.fov 100\nquit\nset view.fov 110\n");
    fclose(f);
    assert_int_equal(cmd_exec_file(path), 0);
    assert_string_equal(cvar_find("view.fov")->str, "100");
    assert_int_equal(cmd_exec("set view.fov 60"), 0); /* the next script runs again */
    assert_string_equal(cvar_find("view.fov")->str, "60");
    remove(path);
    cmd_set_quit_fn(NULL, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_words_and_quotes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_semicolons_and_newlines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_comments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unbalanced_quote_reports_column_and_runs_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_too_many_and_too_long, setup, teardown),
        cmocka_unit_test_setup_teardown(test_control_bytes_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_binary_garbage_never_crashes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_did_you_mean, setup, teardown),
        cmocka_unit_test_setup_teardown(test_execution_stops_at_first_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quote_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_complete_commands_and_cvars, setup, teardown),
        cmocka_unit_test_setup_teardown(test_complete_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exec_missing_and_recursive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exec_binary_and_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_commands_needing_a_world, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quit_hook, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quit_calls_app, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
