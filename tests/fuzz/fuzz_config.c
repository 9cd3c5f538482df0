/* Config files: any bytes as a file run through cmd_exec_file (the way
 * --config and exec read them) with the cvars and key-binding commands a
 * config holds. File-touching commands (exec, writeconfig) are not here. */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "ui/bind.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

static char g_path[64];

static void setup(void)
{
    static bool done;
    if (done) return;
    done = true;
    fuzz_quiet();
    cmd_register_builtins();
    cmd_unregister("exec");
    bind_register_commands();
    static const char *const kinds[] = { "hills", "desert", NULL };
    cvar_register(&(cvar_desc){ "world.biome", "", CVAR_ENUM, CVAR_ARCHIVE, "hills", 0, 0, kinds });
    cvar_register(&(cvar_desc){ "world.seed", "", CVAR_INT, CVAR_ARCHIVE, "1", -2147483647.0, 2147483647.0 });
    cvar_register(&(cvar_desc){ "view.fov", "", CVAR_FLOAT, CVAR_ARCHIVE, "70", 20, 140 });
    cvar_register(&(cvar_desc){ "tool.shape", "", CVAR_STRING, CVAR_ARCHIVE, "x" });
    cvar_register(&(cvar_desc){ "tool.pos", "", CVAR_VEC3, CVAR_ARCHIVE, "0 0 0", -10, 10 });
    cvar_register(&(cvar_desc){ "input.invert_y", "", CVAR_BOOL, CVAR_ARCHIVE, "0" });
    snprintf(g_path, sizeof g_path, "/tmp/strata-fuzz-config-%d.cfg", (int)getpid());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024) return 0;
    setup();
    FILE *f = fopen(g_path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    int failed = cmd_exec_file(g_path);
    FUZZ_CHECK(failed >= 0);
    unlink(g_path);
    return 0;
}
