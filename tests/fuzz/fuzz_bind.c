/* Key bindings: "bind KEY COMMANDS" lines from any bytes; whatever is bound
 * is written the way the config saves it and read back to the same bytes. */
#include <stdbool.h>
#include <stdio.h>

#include "fuzz_common.h"
#include "ui/bind.h"
#include "ui/cmd.h"

static void setup(void)
{
    static bool done;
    if (done) return;
    done = true;
    fuzz_quiet();
    bind_register_commands();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > CMD_MAX_LINE) return 0;
    setup();
    bind_clear_all();
    char *s = fuzz_string(data, size);
    /* first as a console line (bind F1 "..."; unbind ...) */
    cmd_exec(s);
    /* then as a key name and a command, straight */
    const char *sp = strchr(s, ' ');
    if (sp) {
        char name[32];
        size_t n = (size_t)(sp - s) < sizeof name - 1 ? (size_t)(sp - s) : sizeof name - 1;
        memcpy(name, s, n);
        name[n] = 0;
        int key = bind_key_from_name(name);
        if (key >= 0) bind_set(key, sp + 1);
    }
    /* the round trip: write, clear, read back, compare */
    char *saved[BIND_KEY_COUNT] = { 0 };
    for (int k = bind_next(-1); k >= 0; k = bind_next(k)) saved[k] = strdup(bind_get(k));
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    bind_write(mem);
    fclose(mem);
    bind_clear_all();
    char *line = strtok(text, "\n");
    for (; line; line = strtok(NULL, "\n")) cmd_exec(line);
    for (int k = 0; k < BIND_KEY_COUNT; k++) {
        const char *now = bind_get(k);
        if (saved[k]) FUZZ_CHECK(now && strcmp(now, saved[k]) == 0);
        else FUZZ_CHECK(!now || !now[0]);
        free(saved[k]);
    }
    free(text);
    free(s);
    return 0;
}
