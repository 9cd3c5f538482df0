/* Config files: any bytes as a file run through cmd_exec_file (the way
 * --config and exec read them) with the cvars and key-binding commands a
 * config holds. File-touching commands (exec, writeconfig) are not here. */
#include <errno.h>
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
    fuzz_register_cvars(CVAR_ARCHIVE);
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
    /* a regular file under 64 KiB is run, or refused whole as not text */
    FUZZ_CHECK(failed >= 0 || (failed == -1 && errno == EILSEQ));
    unlink(g_path);
    return 0;
}
