#include "ui/cvar.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

/* The registry is process-wide by design (DESIGN.md): every module can
 * register its tunables without a handle being threaded through. */
static cvar **g_vars;
static int g_count, g_cap;
static struct {
    unsigned flags;
    cvar_changed_fn fn;
    void *user;
} g_observer;
static bool g_registering; /* applying a default: not a change anyone observes */

static char *dupstr(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

const char *cvar_type_name(cvar_type t)
{
    static const char *names[] = { "bool", "int", "float", "string", "enum", "vec3" };
    return (unsigned)t < 6 ? names[t] : "?";
}

static int find_index(const char *name, bool *found)
{
    int lo = 0, hi = g_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp(g_vars[mid]->d.name, name);
        if (c == 0) { *found = true; return mid; }
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    *found = false;
    return lo;
}

cvar *cvar_find(const char *name)
{
    bool found;
    int i = find_index(name, &found);
    return found ? g_vars[i] : NULL;
}

int cvar_count(void) { return g_count; }
cvar *cvar_at(int index) { return (index >= 0 && index < g_count) ? g_vars[index] : NULL; }

/* Whole bounds print as integers (-2147483647, not -2.14748e+09); others
 * with as many digits as they need. */
static void format_bound(char *out, size_t len, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) snprintf(out, len, "%.0f", v);
    else snprintf(out, len, "%.9g", v);
}

void cvar_describe_range(const cvar *c, char *out, size_t len)
{
    const cvar_desc *d = &c->d;
    switch (d->type) {
    case CVAR_BOOL: snprintf(out, len, "bool (0/1, true/false, on/off)"); break;
    case CVAR_STRING: snprintf(out, len, "string of at most %d bytes", CVAR_STRING_MAX - 1); break;
    case CVAR_ENUM: {
        size_t n = (size_t)snprintf(out, len, "one of:");
        for (int i = 0; d->values && d->values[i] && n < len; i++) n += (size_t)snprintf(out + n, len - n, " %s", d->values[i]);
        break;
    }
    default:
        if (d->min < d->max) {
            char lo[40], hi[40];
            format_bound(lo, sizeof lo, d->min);
            format_bound(hi, sizeof hi, d->max);
            snprintf(out, len, "%s in [%s, %s]", cvar_type_name(d->type), lo, hi);
        }
        else
            snprintf(out, len, "%s", cvar_type_name(d->type));
    }
}

static bool parse_float(const char *s, double *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* underflow (1e-400) is not an error: the value is 0 or a tiny subnormal */
    if (errno == ERANGE && fabs(v) <= DBL_MIN) errno = 0;
    if (errno || end == s || *end || !isfinite(v)) return false;
    *out = v;
    return true;
}

static bool parse_bool(const char *s, bool *out)
{
    static const char *yes[] = { "1", "true", "on", "yes" }, *no[] = { "0", "false", "off", "no" };
    for (int i = 0; i < 4; i++) {
        if (strcmp(s, yes[i]) == 0) { *out = true; return true; }
        if (strcmp(s, no[i]) == 0) { *out = false; return true; }
    }
    return false;
}

/* The shortest text that reads back as the same float, so `get` shows 0.1
 * (not 0.100000001) and a config round trip is still bit-exact. */
static void format_float(char *out, size_t len, float f)
{
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(out, len, "%.*g", digits, (double)f);
        if (strtof(out, NULL) == f) return;
    }
}

static bool out_of_range(const cvar *c, double v)
{
    return c->d.min < c->d.max && (v < c->d.min || v > c->d.max);
}

bool cvar_set_ex(cvar *c, const char *value, bool force, char *err, size_t errlen)
{
    char range[256], norm[CVAR_STRING_MAX];
    char errbuf[320];
    if (!err) { err = errbuf; errlen = sizeof errbuf; }
    if (!value) value = "";
    if ((c->d.flags & CVAR_READONLY) && !force) {
        snprintf(err, errlen, "%s is read-only", c->d.name);
        return false;
    }
    cvar tmp = *c;
    switch (c->d.type) {
    case CVAR_BOOL:
        if (!parse_bool(value, &tmp.b)) goto bad;
        tmp.i = tmp.b;
        tmp.f = (float)tmp.b;
        snprintf(norm, sizeof norm, "%d", tmp.i);
        break;
    case CVAR_INT: {
        double v;
        if (!parse_float(value, &v) || v != floor(v) || fabs(v) > 2147483647.0 || out_of_range(c, v)) goto bad;
        tmp.i = (int)v;
        tmp.f = (float)v;
        snprintf(norm, sizeof norm, "%d", tmp.i);
        break;
    }
    case CVAR_FLOAT: {
        double v;
        if (!parse_float(value, &v) || out_of_range(c, v)) goto bad;
        tmp.f = (float)v;
        /* the int view of a float cvar saturates: (int) of a value beyond int is undefined */
        tmp.i = v >= (double)INT_MAX ? INT_MAX : v <= (double)INT_MIN ? INT_MIN : (int)v;
        format_float(norm, sizeof norm, tmp.f);
        break;
    }
    case CVAR_STRING:
        if (strlen(value) >= sizeof norm) goto bad;
        snprintf(norm, sizeof norm, "%s", value);
        break;
    case CVAR_ENUM: {
        int found = -1;
        for (int i = 0; c->d.values && c->d.values[i]; i++)
            if (strcmp(c->d.values[i], value) == 0) found = i;
        if (found < 0) goto bad;
        tmp.i = found;
        tmp.f = (float)found;
        snprintf(norm, sizeof norm, "%s", value);
        break;
    }
    case CVAR_VEC3: {
        double v[3];
        char extra;
        if (sscanf(value, "%lf %lf %lf %c", &v[0], &v[1], &v[2], &extra) != 3) goto bad;
        for (int k = 0; k < 3; k++) {
            if (!isfinite(v[k]) || out_of_range(c, v[k])) goto bad;
            tmp.v[k] = (float)v[k];
        }
        {
            char a[40], b[40], cc[40];
            format_float(a, sizeof a, tmp.v[0]);
            format_float(b, sizeof b, tmp.v[1]);
            format_float(cc, sizeof cc, tmp.v[2]);
            snprintf(norm, sizeof norm, "%s %s %s", a, b, cc);
        }
        break;
    }
    }
    bool changed = strcmp(norm, c->str ? c->str : "") != 0;
    if (changed && c->d.validate) {
        char why[512] = "";
        tmp.str = norm; /* the proposal, as the value would read */
        if (!c->d.validate(&tmp, why, sizeof why, c->d.user)) {
            snprintf(err, errlen, "%s: refused '%.64s': %s", c->d.name, value, why[0] ? why : "invalid");
            return false;
        }
    }
    char *s = dupstr(norm);
    if (!s) { snprintf(err, errlen, "out of memory"); return false; }
    free(c->str);
    tmp.str = s;
    *c = tmp;
    if (changed) {
        c->modified++;
        if (c->d.on_change) c->d.on_change(c, c->d.user);
        if (g_observer.fn && (c->d.flags & g_observer.flags) && !g_registering) g_observer.fn(c, g_observer.user);
    }
    return true;
bad:
    cvar_describe_range(c, range, sizeof range);
    snprintf(err, errlen, "%s: invalid value '%.64s' (expected %s)", c->d.name, value, range);
    return false;
}

cvar *cvar_register(const cvar_desc *d)
{
    bool found;
    int at = find_index(d->name, &found);
    if (found) return g_vars[at];
    cvar *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->d = *d;
    c->d.name = dupstr(d->name);
    c->d.help = dupstr(d->help ? d->help : "");
    c->d.def = dupstr(d->def ? d->def : "");
    if (d->values) { /* own a copy of the value list: callers may pass stack arrays */
        int n = 0;
        while (d->values[n]) n++;
        const char **vals = calloc((size_t)n + 1, sizeof *vals);
        for (int i = 0; i < n && vals; i++) vals[i] = dupstr(d->values[i]);
        c->d.values = vals;
    }
    /* the default is applied without firing on_change: nothing depends on it yet */
    cvar_changed_fn cb = c->d.on_change;
    cvar_validate_fn check = c->d.validate;
    c->d.on_change = NULL;
    c->d.validate = NULL;
    char err[256];
    g_registering = true;
    bool ok = cvar_set_ex(c, c->d.def, true, err, sizeof err);
    g_registering = false;
    if (!ok) {
        log_error("cvar %s: bad default: %s", d->name, err);
    }
    c->d.on_change = cb;
    c->d.validate = check;
    c->modified = 0;
    if (g_count == g_cap) {
        g_cap = g_cap ? g_cap * 2 : 64;
        g_vars = realloc(g_vars, sizeof *g_vars * (size_t)g_cap);
    }
    memmove(g_vars + at + 1, g_vars + at, sizeof *g_vars * (size_t)(g_count - at));
    g_vars[at] = c;
    g_count++;
    return c;
}

bool cvar_set_by_name(const char *name, const char *value)
{
    cvar *c = cvar_find(name);
    if (!c) {
        log_error("unknown cvar '%s'", name);
        return false;
    }
    char err[320];
    unsigned before = c->modified;
    if (!cvar_set(c, value, err, sizeof err)) {
        log_error("%s", err);
        return false;
    }
    if ((c->d.flags & CVAR_LATCH) && c->modified != before) log_info("%s=%s: takes effect after 'regen'", c->d.name, c->str);
    return true;
}

void cvar_reset(cvar *c) { cvar_set_ex(c, c->d.def, true, NULL, 0); }

float cvar_float(const char *name, float fallback)
{
    cvar *c = cvar_find(name);
    return c ? c->f : fallback;
}

int cvar_int(const char *name, int fallback)
{
    cvar *c = cvar_find(name);
    return c ? c->i : fallback;
}

void cvar_shutdown(void)
{
    for (int i = 0; i < g_count; i++) {
        cvar *c = g_vars[i];
        free((char *)c->d.name);
        free((char *)c->d.help);
        free((char *)c->d.def);
        if (c->d.values) {
            for (int k = 0; c->d.values[k]; k++) free((char *)c->d.values[k]);
            free((void *)c->d.values);
        }
        free(c->str);
        free(c);
    }
    free(g_vars);
    g_vars = NULL;
    g_count = g_cap = 0;
    cvar_observe_flags(0, NULL, NULL);
}

void cvar_observe_flags(unsigned flags, cvar_changed_fn fn, void *user)
{
    g_observer.flags = flags;
    g_observer.fn = fn;
    g_observer.user = user;
}
