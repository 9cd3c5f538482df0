/* Every cvar type's parsing and range checks: refused values keep the old
 * value and the message names the allowed range or values. */
#include "test_support.h"

#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

static char g_log[8192];
static void capture(void *user, log_level level, const char *line)
{
    size_t n = strlen(g_log);
    snprintf(g_log + n, sizeof g_log - n, "%d:%s\n", (int)level, line);
}

static int g_changes;
static void on_change(cvar *c, void *user) { g_changes++; }

static int setup(void **state)
{
    g_log[0] = 0;
    g_changes = 0;
    log_set_sink(capture, NULL);
    cmd_register_builtins();
    return 0;
}

static int teardown(void **state)
{
    cmd_shutdown();
    cvar_shutdown();
    log_reset_sink();
    return 0;
}

/* Refused: returns false, value and modified count unchanged, err mentions `want`. */
static void refused(cvar *c, const char *value, const char *want)
{
    char before[256], err[320];
    snprintf(before, sizeof before, "%s", c->str);
    unsigned mod = c->modified;
    assert_false(cvar_set(c, value, err, sizeof err));
    assert_string_equal(c->str, before);
    assert_int_equal(c->modified, mod);
    if (!strstr(err, want)) fail_msg("'%s' -> '%s' lacks '%s'", value, err, want);
}

static void accepted(cvar *c, const char *value, const char *norm)
{
    char err[320];
    if (!cvar_set(c, value, err, sizeof err)) fail_msg("'%s' refused: %s", value, err);
    assert_string_equal(c->str, norm);
}

static void test_bool(void **state)
{
    cvar *c = cvar_register(&(cvar_desc){ .name = "t.b", .type = CVAR_BOOL, .def = "0" });
    const char *yes[] = { "1", "true", "on", "yes" }, *no[] = { "0", "false", "off", "no" };
    for (int i = 0; i < 4; i++) {
        accepted(c, yes[i], "1");
        assert_true(c->b);
        accepted(c, no[i], "0");
        assert_false(c->b);
    }
    refused(c, "maybe", "bool (0/1, true/false, on/off)");
    refused(c, "", "bool");
    refused(c, "2", "bool");
}

static void test_int_range(void **state)
{
    cvar *c = cvar_register(&(cvar_desc){ .name = "t.i", .type = CVAR_INT, .def = "8", .min = 2, .max = 32 });
    assert_int_equal(c->i, 8);
    accepted(c, "32", "32");
    accepted(c, "2", "2");
    assert_int_equal(c->i, 2);
    refused(c, "33", "int in [2, 32]");
    refused(c, "1", "int in [2, 32]");
    refused(c, "1.5", "int in [2, 32]");
    refused(c, "12abc", "int in [2, 32]");
    refused(c, "", "int");
    refused(c, "nan", "int");
    assert_int_equal(c->i, 2);
    cvar *u = cvar_register(&(cvar_desc){ .name = "t.iu", .type = CVAR_INT, .def = "0" }); /* no range */
    accepted(u, "-2147483647", "-2147483647");
    refused(u, "99999999999", "int");
}

static void test_float_range_and_round_trip(void **state)
{
    cvar *c = cvar_register(&(cvar_desc){ .name = "t.f", .type = CVAR_FLOAT, .def = "70", .min = 30, .max = 120 });
    accepted(c, "90.5", "90.5");
    accepted(c, "1e2", "100");
    refused(c, "120.01", "float in [30, 120]");
    refused(c, "inf", "float in [30, 120]");
    refused(c, "nan", "float");
    refused(c, "1e400", "float");
    refused(c, "ninety", "float");
    cvar *u = cvar_register(&(cvar_desc){ .name = "t.fu", .type = CVAR_FLOAT, .def = "0.1" });
    assert_string_equal(u->str, "0.1"); /* short text, not 0.100000001 */
    /* the text written to a config reads back as the very same float */
    const char *samples[] = { "0.333333333333", "1e-7", "123456.789", "-2.5e10", "3.14159265358979" };
    for (int i = 0; i < 5; i++) {
        assert_true(cvar_set(u, samples[i], NULL, 0));
        float f = u->f;
        char text[64];
        snprintf(text, sizeof text, "%s", u->str);
        assert_true(cvar_set(u, "0", NULL, 0));
        assert_true(cvar_set(u, text, NULL, 0));
        assert_memory_equal(&f, &u->f, sizeof f);
    }
}

static void test_string(void **state)
{
    cvar *c = cvar_register(&(cvar_desc){ .name = "t.s", .type = CVAR_STRING, .def = "x * y" });
    accepted(c, "a \"quoted\" \\ value", "a \"quoted\" \\ value");
    accepted(c, "", "");
    /* formulas are text: a few KiB is fine; past the limit the message says it */
    static char longv[CVAR_STRING_MAX + 1];
    memset(longv, 'z', 400);
    longv[400] = 0;
    accepted(c, longv, longv);
    accepted(c, "x", "x");
    memset(longv, 'z', sizeof longv - 1);
    longv[sizeof longv - 1] = 0;
    refused(c, longv, "string of at most 4095 bytes");
}

/* Float cvars beyond int range keep a saturated int view (no UB in the
 * conversion); underflow is zero, not an error; whole bounds print whole. */
static void test_numeric_edges(void **state)
{
    cvar *f = cvar_register(&(cvar_desc){ .name = "t.big", .type = CVAR_FLOAT, .def = "0", .min = -1e12, .max = 1e12 });
    accepted(f, "3e9", "3e+09");
    assert_int_equal(f->i, 2147483647);
    accepted(f, "-3e9", "-3e+09");
    assert_int_equal(f->i, -2147483647 - 1);
    accepted(f, "1e-400", "0");
    cvar *i = cvar_register(&(cvar_desc){ .name = "t.seed", .type = CVAR_INT, .def = "1", .min = -2147483647.0, .max = 2147483647.0 });
    accepted(i, "1e-400", "0");
    char range[128];
    cvar_describe_range(i, range, sizeof range);
    assert_string_equal(range, "int in [-2147483647, 2147483647]");
    cvar_describe_range(f, range, sizeof range);
    assert_string_equal(range, "float in [-1000000000000, 1000000000000]");
}

static void test_enum(void **state)
{
    static const char *const modes[] = { "blocks", "smooth", "enhanced", NULL };
    cvar *c = cvar_register(&(cvar_desc){ .name = "t.e", .type = CVAR_ENUM, .def = "smooth", .values = modes });
    assert_int_equal(c->i, 1);
    accepted(c, "enhanced", "enhanced");
    assert_int_equal(c->i, 2);
    refused(c, "Smooth", "one of: blocks smooth enhanced");
    refused(c, "2", "one of: blocks smooth enhanced");
}

static void test_vec3(void **state)
{
    cvar *c = cvar_register(&(cvar_desc){ .name = "t.v", .type = CVAR_VEC3, .def = "1 0.5 0", .min = 0, .max = 1 });
    assert_true(c->v[1] == 0.5f);
    accepted(c, "0.25   1 0", "0.25 1 0");
    assert_true(c->v[0] == 0.25f && c->v[1] == 1.f && c->v[2] == 0.f);
    refused(c, "1 1", "vec3 in [0, 1]");
    refused(c, "1 1 1 1", "vec3 in [0, 1]");
    refused(c, "1 2 1", "vec3 in [0, 1]");
    refused(c, "a b c", "vec3");
    refused(c, "nan 0 0", "vec3");
}

static void test_readonly_and_force(void **state)
{
    cvar *c = cvar_register(&(cvar_desc){ .name = "t.ro", .type = CVAR_INT, .flags = CVAR_READONLY, .def = "3" });
    refused(c, "4", "read-only");
    assert_true(cvar_set_ex(c, "4", true, NULL, 0));
    assert_int_equal(c->i, 4);
    assert_int_equal(cmd_exec("set t.ro 5"), 1);
    assert_non_null(strstr(g_log, "t.ro is read-only"));
}

static void test_on_change_reset_and_bad_default(void **state)
{
    cvar *c = cvar_register(&(cvar_desc){ .name = "t.c", .type = CVAR_INT, .def = "1", .on_change = on_change });
    assert_int_equal(g_changes, 0); /* the default is not a change */
    assert_true(cvar_set(c, "2", NULL, 0));
    assert_true(cvar_set(c, "2", NULL, 0)); /* same value: no event */
    assert_int_equal(g_changes, 1);
    cvar_reset(c);
    assert_int_equal(c->i, 1);
    assert_int_equal(g_changes, 2);
    assert_int_equal(cmd_exec("reset t.c; toggle t.c"), 1); /* toggle wants a bool */
    assert_non_null(strstr(g_log, "'t.c' is not a bool cvar"));
    g_log[0] = 0;
    cvar_register(&(cvar_desc){ .name = "t.bad", .type = CVAR_INT, .def = "x", .min = 0, .max = 1 });
    assert_non_null(strstr(g_log, "bad default"));
}

static void test_commands_report_range(void **state)
{
    cvar_register(&(cvar_desc){ .name = "view.fov", .type = CVAR_FLOAT, .def = "70", .min = 30, .max = 120 });
    assert_int_equal(cmd_exec("set view.fov 500"), 1);
    assert_non_null(strstr(g_log, "view.fov: invalid value '500' (expected float in [30, 120])"));
    assert_int_equal(cmd_exec("view.fov 80; get view.fov"), 0);
    assert_non_null(strstr(g_log, "3:view.fov=80"));
    g_log[0] = 0;
    assert_int_equal(cmd_exec("help view.fov"), 0);
    assert_non_null(strstr(g_log, "default 70; float in [30, 120]"));
}

static void test_latch_says_regen(void **state)
{
    cvar_register(&(cvar_desc){ .name = "world.size", .type = CVAR_INT, .flags = CVAR_LATCH, .def = "4" });
    assert_int_equal(cmd_exec("set world.size 6"), 0);
    assert_non_null(strstr(g_log, "world.size=6: takes effect after 'regen'"));
}

/* A veto sees the parsed proposal; refusing keeps the value, says why and
 * fires no change; accepting stores as usual. */
static bool even_only(const cvar *proposed, char *err, size_t errlen, void *user)
{
    (*(int *)user)++;
    if (proposed->i % 2 == 0 && strcmp(proposed->str, "") != 0) return true;
    snprintf(err, errlen, "%d is odd", proposed->i);
    return false;
}

static void test_validate_vetoes(void **state)
{
    int calls = 0;
    cvar *c = cvar_register(&(cvar_desc){ .name = "t.even", .type = CVAR_INT, .def = "3", .min = 0, .max = 100,
                                          .on_change = on_change, .user = &calls, .validate = even_only });
    assert_int_equal(calls, 0); /* the default is the programmer's, not checked */
    refused(c, "5", "t.even: refused '5': 5 is odd");
    assert_int_equal(calls, 1);
    refused(c, "500", "expected int in [0, 100]"); /* the range is checked first */
    assert_int_equal(calls, 1);
    accepted(c, "8", "8");
    assert_int_equal(calls, 2);
    assert_int_equal(g_changes, 1);
    accepted(c, "8", "8"); /* unchanged: nothing to veto */
    assert_int_equal(calls, 2);
    assert_int_equal(cmd_exec("set t.even 7"), 1);
    assert_non_null(strstr(g_log, "7 is odd"));
    assert_int_equal(c->i, 8);
}

static int g_observed;
static void observer(cvar *c, void *user) { g_observed += *(int *)user; }

static void test_flag_observer(void **state)
{
    int one = 1;
    cvar *r = cvar_register(&(cvar_desc){ .name = "t.regen", .type = CVAR_INT, .flags = CVAR_REGEN, .def = "1",
                                          .on_change = on_change });
    cvar *p = cvar_register(&(cvar_desc){ .name = "t.plain", .type = CVAR_INT, .def = "1" });
    g_observed = 0;
    cvar_observe_flags(CVAR_REGEN, observer, &one);
    assert_true(cvar_set(r, "2", NULL, 0));
    assert_true(cvar_set(p, "2", NULL, 0));
    assert_true(cvar_set(r, "2", NULL, 0)); /* no change, no event */
    assert_int_equal(g_observed, 1);
    assert_int_equal(g_changes, 1); /* the cvar's own callback still runs */
    /* registering one later applies its default: not a change */
    cvar_register(&(cvar_desc){ .name = "t.late", .type = CVAR_INT, .flags = CVAR_REGEN, .def = "4" });
    assert_int_equal(g_observed, 1);
    cvar_observe_flags(0, NULL, NULL);
    assert_true(cvar_set(r, "3", NULL, 0));
    assert_int_equal(g_observed, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bool, setup, teardown),
        cmocka_unit_test_setup_teardown(test_int_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_range_and_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_string, setup, teardown),
        cmocka_unit_test_setup_teardown(test_numeric_edges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_enum, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vec3, setup, teardown),
        cmocka_unit_test_setup_teardown(test_readonly_and_force, setup, teardown),
        cmocka_unit_test_setup_teardown(test_on_change_reset_and_bad_default, setup, teardown),
        cmocka_unit_test_setup_teardown(test_commands_report_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_latch_says_regen, setup, teardown),
        cmocka_unit_test_setup_teardown(test_validate_vetoes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flag_observer, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
