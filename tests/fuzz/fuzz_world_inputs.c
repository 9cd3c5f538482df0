/* A world file's generation inputs (game/app/app_save): lines of "name value"
 * set cvars. Any text is either applied or refused with a message, and a
 * refusal leaves every cvar as it was. */
#include <stdbool.h>

#include "app/app_save.h"
#include "fuzz_common.h"
#include "worldgen/terrain.h"
#include "ui/cvar.h"

static void setup(void)
{
    static bool done;
    if (done) return;
    done = true;
    fuzz_quiet();
    terrain_register();
    fuzz_register_cvars(CVAR_REGEN);
    cvar_register(&(cvar_desc){ "world.size_x", "", CVAR_INT, CVAR_REGEN, "16", 1, 64 });
}

static char *all_values(void)
{
    size_t cap = 1, len = 0;
    for (int i = 0; i < cvar_count(); i++) cap += strlen(cvar_at(i)->str) + 1;
    char *s = malloc(cap);
    for (int i = 0; i < cvar_count(); i++) {
        size_t n = strlen(cvar_at(i)->str);
        memcpy(s + len, cvar_at(i)->str, n);
        s[len + n] = '\n';
        len += n + 1;
    }
    s[len] = 0;
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384) return 0;
    setup();
    char *text = fuzz_string(data, size);
    char *before = all_values(), err[1024];
    if (!app_save_apply_inputs(text, "fuzz.strata", err, sizeof err)) {
        char *after = all_values();
        FUZZ_CHECK(strcmp(before, after) == 0); /* refused: nothing changed */
        FUZZ_CHECK(strstr(err, "fuzz.strata") != NULL);
        free(after);
    }
    /* back to the defaults so every input starts from the same state */
    for (int i = 0; i < cvar_count(); i++) cvar_reset(cvar_at(i));
    free(before);
    free(text);
    return 0;
}
