/* cvar: typed console variables, the one registry of every tunable.
 * Modelled on Quake III's cvar.c: each variable has a type, a default, a
 * range or a list of values, help text and flags. Setting one validates
 * the text first, so a bad value never replaces a good one. */
#ifndef STRATA_CVAR_H
#define STRATA_CVAR_H

#include <stdbool.h>
#include <stddef.h>

/* The longest value a string cvar holds (formulas are text; a few KiB),
 * terminator included. Longer values are refused with this limit. */
#define CVAR_STRING_MAX 4096

typedef enum cvar_type { CVAR_BOOL, CVAR_INT, CVAR_FLOAT, CVAR_STRING, CVAR_ENUM, CVAR_VEC3 } cvar_type;

enum cvar_flags {
    CVAR_ARCHIVE = 1 << 0,  /* saved to the config file */
    CVAR_REGEN = 1 << 1,    /* changing it regenerates the world */
    CVAR_READONLY = 1 << 2, /* reported, never set by the user */
    CVAR_LATCH = 1 << 3,    /* takes effect at the next restart / world creation */
};

typedef struct cvar cvar;
typedef void (*cvar_changed_fn)(cvar *var, void *user);
/* Vetoes a value before it is stored. `proposed` is the cvar as it would be
 * (parsed, range-checked, str normalised; valid only during the call);
 * return false with the reason in err to refuse it, and the cvar keeps its
 * value. Not called for the default at registration. For checks a range cannot
 * express: a formula that does not compile, a size that does not fit. */
typedef bool (*cvar_validate_fn)(const cvar *proposed, char *err, size_t errlen, void *user);

typedef struct cvar_desc {
    const char *name;   /* dotted by subsystem: "view.fov" */
    const char *help;   /* one line */
    cvar_type type;
    unsigned flags;
    const char *def;    /* default, as the user would type it */
    double min, max;    /* inclusive range for int/float/vec3; ignored when min == max */
    const char *const *values; /* CVAR_ENUM: NULL-terminated list of names */
    cvar_changed_fn on_change;
    void *user;         /* passed to on_change and validate */
    cvar_validate_fn validate; /* optional veto, see above */
} cvar_desc;

struct cvar {
    cvar_desc d;     /* name/help/def/values are owned copies */
    char *str;       /* current value, normalised text */
    bool b;
    int i;           /* int value, bool as 0/1, enum index */
    float f;
    float v[3];
    unsigned modified; /* bumped on every change */
};

/* Registers (or returns the existing cvar of that name). The default must be
 * valid for the type; returns NULL with an error logged when it is not. */
cvar *cvar_register(const cvar_desc *d);
cvar *cvar_find(const char *name);

/* Parses and range-checks `value`; on failure writes why (with the allowed
 * range or values) into err and leaves the cvar unchanged. `force` allows
 * read-only cvars to be set by the engine itself. */
bool cvar_set_ex(cvar *c, const char *value, bool force, char *err, size_t errlen);
static inline bool cvar_set(cvar *c, const char *value, char *err, size_t errlen)
{
    return cvar_set_ex(c, value, false, err, errlen);
}
/* Sets by name; logs the error. */
bool cvar_set_by_name(const char *name, const char *value);
void cvar_reset(cvar *c);
/* "int in [1, 64]", "one of: desert taiga deciduous", ... */
void cvar_describe_range(const cvar *c, char *out, size_t len);
const char *cvar_type_name(cvar_type t);

/* An observer of every cvar that has any of `flags`, called after the
 * cvar's own on_change: the app hears about every CVAR_REGEN change without
 * each module wiring it. One slot: a new observer replaces the old; NULL
 * removes it. Registering a cvar (its default) is not a change. */
void cvar_observe_flags(unsigned flags, cvar_changed_fn fn, void *user);

/* Iteration in name order. */
int cvar_count(void);
cvar *cvar_at(int index);

/* Frees the registry (tests, shutdown). */
void cvar_shutdown(void);

/* Convenience: look up a cvar's numeric value, or fallback. */
float cvar_float(const char *name, float fallback);
int cvar_int(const char *name, int fallback);

#endif
