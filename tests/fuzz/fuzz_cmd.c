/* The command-line language (engine/ui/cmd): parse any line; complete any
 * prefix; and what cmd_quote writes parses back to the same argument. */
#include <stdbool.h>

#include "fuzz_common.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

static int count_visit(void *user, cmd_args *a, const char *source)
{
    int *n = user;
    FUZZ_CHECK(a->argc >= 1 && a->argc <= CMD_MAX_ARGS);
    for (int i = 0; i < a->argc; i++) FUZZ_CHECK(a->argv[i] != NULL);
    (*n)++;
    return 0;
}

typedef struct quoted {
    const char *want;
    bool ok;
} quoted;

static int quote_visit(void *user, cmd_args *a, const char *source)
{
    quoted *q = user;
    q->ok = a->argc == 2 && strcmp(a->argv[1], q->want) == 0;
    return 0;
}

static void add_nothing(void *ctx, const char *c) { (void)ctx, (void)c; }

static void setup(void)
{
    static bool done;
    if (done) return;
    done = true;
    fuzz_quiet();
    cmd_register_builtins();
    fuzz_register_cvars(CVAR_ARCHIVE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2 * CMD_MAX_LINE) return 0;
    setup();
    char *s = fuzz_string(data, size);
    char err[256];
    int n = 0;
    int rc = cmd_parse(s, count_visit, &n, err, sizeof err);
    FUZZ_CHECK(rc == 0 || rc == -1);
    if (rc == -1) FUZZ_CHECK(err[0] != 0);
    size_t at = cmd_complete(s, add_nothing, NULL);
    FUZZ_CHECK(at <= size);
    /* quoting: any string without NUL comes back as one argument */
    char line[3 * CMD_MAX_LINE];
    memcpy(line, "x ", 3);
    if (strlen(s) < CMD_MAX_LINE / 3 && cmd_quote(s, line + 2, sizeof line - 2) && strlen(line) < CMD_MAX_LINE) {
        quoted q = { s, false };
        FUZZ_CHECK(cmd_parse(line, quote_visit, &q, err, sizeof err) == 0);
        FUZZ_CHECK(q.ok);
    }
    free(s);
    return 0;
}
