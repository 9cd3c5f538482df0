/* fuzz_common: what the libFuzzer harnesses share. Each fuzz_*.c defines
 * LLVMFuzzerTestOneInput; built with clang -fsanitize=fuzzer (STRATA_FUZZ)
 * it is a fuzzer, built with driver.c it replays its corpus as a test. */
#ifndef STRATA_FUZZ_COMMON_H
#define STRATA_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "ui/cvar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the input (the parsers take C strings); free it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    if (size) memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* Error messages are the expected outcome of most inputs: keep them quiet. */
static inline void fuzz_quiet_sink(void *user, log_level level, const char *line)
{
    (void)user, (void)level, (void)line;
}
static inline void fuzz_quiet(void) { log_set_sink(fuzz_quiet_sink, NULL); }

/* One cvar of each type, like the ones config files and console lines set. */
static inline void fuzz_register_cvars(unsigned flags)
{
    static const char *const kinds[] = { "hills", "desert", NULL };
    cvar_register(&(cvar_desc){ "world.biome", "", CVAR_ENUM, flags, "hills", 0, 0, kinds });
    cvar_register(&(cvar_desc){ "world.seed", "", CVAR_INT, flags, "1", -2147483647.0, 2147483647.0 });
    cvar_register(&(cvar_desc){ "view.fov", "", CVAR_FLOAT, CVAR_ARCHIVE, "70", 20, 140 });
    cvar_register(&(cvar_desc){ "tool.shape", "", CVAR_STRING, CVAR_ARCHIVE, "x" });
    cvar_register(&(cvar_desc){ "tool.pos", "", CVAR_VEC3, CVAR_ARCHIVE, "0 0 0", -10, 10 });
    cvar_register(&(cvar_desc){ "input.invert_y", "", CVAR_BOOL, CVAR_ARCHIVE, "0" });
}

/* A property the input broke: crash so libFuzzer keeps the input. */
#define FUZZ_CHECK(cond)                                                              \
    do {                                                                              \
        if (!(cond)) {                                                                \
            log_reset_sink();                                                         \
            log_error("fuzz property failed: %s (%s:%d)", #cond, __FILE__, __LINE__); \
            abort();                                                                  \
        }                                                                             \
    } while (0)

#endif
