/* app_save_inputs: a world's generation inputs as text (the slot's
 * `inputs`): written from the cvars that shape the world, read back into
 * them with every line checked, and compared, so a slot is found again for
 * the same world whatever version of the form it was saved in. Split from
 * app_save.c, which keeps the file, the slots and the saves. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "app_save.h"
#include "app_stream.h"
#include "app_world.h"
#include "ui/cmd.h"

/* world.stream came after worlds were saved: a finite world's inputs leave
 * it out, so they stay the text every earlier save wrote (inputs are
 * compared as text), and a slot without it is finite. A streamed world's
 * width is not world.size_x/z (the window follows view.distance): changing
 * them must not make it a new world. */
#define STREAM_CVAR "world.stream"
static bool not_an_input(const char *name, bool streamed)
{
    /* finite (0, or a finite kind such as the formula world): the form before streaming */
    if (strcmp(name, STREAM_CVAR) == 0) return !streamed;
    return streamed && (strcmp(name, "world.size_x") == 0 || strcmp(name, "world.size_z") == 0);
}

char *app_save_inputs_text(app *a)
{
    size_t cap = 1024, len = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    len = (size_t)snprintf(out, cap, "generator %d\n", WORLDGEN_VERSION);
    const worldgen_kind *k = a->world_kind ? a->world_kind : app_kind(a);
    for (int i = 0; i < cvar_count(); i++) {
        cvar *c = cvar_at(i);
        if (!(c->d.flags & CVAR_REGEN) || !worldgen_cvar_affects(k, c->d.name)) continue;
        if (not_an_input(c->d.name, app_streaming(a))) continue;
        size_t need = strlen(c->d.name) + 2 * strlen(c->str) + 8;
        if (len + need >= cap) {
            while (len + need >= cap) cap *= 2;
            char *n = realloc(out, cap);
            if (!n) {
                free(out);
                return NULL;
            }
            out = n;
        }
        len += (size_t)snprintf(out + len, cap - len, "%s ", c->d.name);
        cmd_quote(c->str, out + len, cap - len);
        len += strlen(out + len);
        out[len++] = '\n';
        out[len] = 0;
    }
    return out;
}

typedef struct input_line {
    char name[128];
    char *value;
} input_line;

typedef struct inputs_parse {
    input_line *lines;
    int count, cap;
    int generator;
    char *err;
    size_t errlen;
} inputs_parse;

static bool add_line(inputs_parse *p, const char *name, const char *value)
{
    if (p->count == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 32;
        input_line *n = realloc(p->lines, sizeof *n * (size_t)p->cap);
        if (!n) return true;
        p->lines = n;
    }
    input_line *l = &p->lines[p->count++];
    snprintf(l->name, sizeof l->name, "%s", name);
    l->value = strdup(value);
    return false;
}

static bool inputs_name(const inputs_parse *p, const char *name)
{
    for (int i = 0; i < p->count; i++)
        if (strcmp(p->lines[i].name, name) == 0) return true;
    return false;
}

static int visit_input(void *user, cmd_args *args, const char *source)
{
    inputs_parse *p = user;
    if (args->argc != 2) {
        snprintf(p->err, p->errlen, "bad parameter line '%s'", source);
        return 1;
    }
    if (strcmp(args->argv[0], "generator") == 0) {
        char *end;
        long v = strtol(args->argv[1], &end, 10);
        if (*end || v < 0 || v > INT_MAX) {
            snprintf(p->err, p->errlen, "bad generator version '%s'", args->argv[1]);
            return 1;
        }
        p->generator = (int)v;
        return 0;
    }
    cvar *c = cvar_find(args->argv[0]);
    if (!c || !(c->d.flags & CVAR_REGEN)) {
        snprintf(p->err, p->errlen, "unknown world parameter '%.100s'", args->argv[0]);
        return 1;
    }
    return add_line(p, args->argv[0], args->argv[1]) ? 1 : 0;
}

static void parse_free(inputs_parse *p)
{
    for (int i = 0; i < p->count; i++) free(p->lines[i].value);
    free(p->lines);
}

bool app_save_apply_inputs(const char *inputs, const char *where, char *err, size_t errlen)
{
    char why[512] = "";
    inputs_parse p = { .generator = -1, .err = why, .errlen = sizeof why };
    int rc = cmd_parse(inputs, visit_input, &p, why, sizeof why);
    if (rc == 0 && p.generator < 0) snprintf(why, sizeof why, "no generator version"), rc = 1;
    if (rc == 0 && cvar_find(STREAM_CVAR) && !inputs_name(&p, STREAM_CVAR) && add_line(&p, STREAM_CVAR, "0"))
        rc = 1; /* a slot that does not say so is finite */
    if (rc == 0 && p.generator != WORLDGEN_VERSION)
        snprintf(why, sizeof why,
                 "made by world generator %d, this program has %d: its edits would land on different terrain",
                 p.generator, WORLDGEN_VERSION),
            rc = 1;
    /* set every value; on the first refusal put back the ones already set */
    char **old = calloc((size_t)p.count + 1, sizeof *old);
    int set = 0;
    for (; rc == 0 && set < p.count; set++) {
        cvar *c = cvar_find(p.lines[set].name);
        old[set] = strdup(c->str);
        char cerr[256];
        if (!cvar_set(c, p.lines[set].value, cerr, sizeof cerr)) {
            snprintf(why, sizeof why, "%s: %s", p.lines[set].name, cerr);
            rc = 1;
            free(old[set]);
            old[set] = NULL;
            break;
        }
    }
    if (rc != 0) { /* newest first: a name given twice ends at its value from before */
        for (int i = set - 1; i >= 0; i--) {
            char cerr[256];
            if (old[i]) cvar_set(cvar_find(p.lines[i].name), old[i], cerr, sizeof cerr);
        }
        snprintf(err, errlen, "%s: %s", where, why[0] ? why : "bad parameters");
    }
    for (int i = 0; i < p.count; i++) free(old[i]);
    free(old);
    parse_free(&p);
    return rc == 0;
}

int app_save_inputs_generator(const char *inputs)
{
    char err[256];
    inputs_parse p = { .generator = -1, .err = err, .errlen = sizeof err };
    cmd_parse(inputs, visit_input, &p, err, sizeof err);
    parse_free(&p);
    return p.generator;
}

/* Whether a slot's stored inputs are the world's: a slot saved while
 * finite worlds still wrote `world.stream "0"` is the same world as one
 * without the line. */
bool app_save_same_inputs(const char *stored, const char *now)
{
    static const char line[] = "\n" STREAM_CVAR " \"0\"\n";
    const char *at = strstr(stored, line);
    if (!at) return strcmp(stored, now) == 0;
    size_t head = (size_t)(at - stored) + 1, skip = sizeof line - 2;
    return strncmp(stored, now, head) == 0 && strcmp(stored + head + skip, now + head) == 0;
}
