/* app_save_script: the commands scripted tests of saves use: `sleep` (a
 * pause, or a wait for a cue file from outside) and `probe` (what a voxel or
 * a box holds, to check that an edit came back with its world). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "app_internal.h"
#include "app_save.h"
#include "app_world.h"
#include "core/hash.h"
#include "core/log.h"
#include "ui/cmd.h"
#include "voxel/material.h"
#include "voxel/world.h"

/* `sleep SECONDS [FILE]`: a pause, or with FILE a wait of at most SECONDS
 * until FILE exists (a script's cue from outside: the test writes the file
 * and the game goes on, with no fifo to block on). */
static int c_sleep(void *u, int argc, char **argv)
{
    char *end;
    double s = argc == 2 || argc == 3 ? strtod(argv[1], &end) : -1;
    if (argc < 2 || argc > 3 || *end || end == argv[1] || !(s >= 0 && s <= 3600)) {
        log_error("usage: sleep SECONDS [FILE] (0 to 3600; with FILE: until it exists; for scripted tests)");
        return 1;
    }
    double step = argc == 3 ? 0.02 : s;
    for (double left = s; left > 0 && !(argc == 3 && access(argv[2], F_OK) == 0); left -= step) {
        double d = left < step ? left : step;
        struct timespec ts = { (time_t)d, (long)((d - floor(d)) * 1e9) };
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
    }
    if (argc == 3 && access(argv[2], F_OK) != 0) {
        log_error("sleep: %s did not appear within %g s", argv[2], s);
        return 1;
    }
    return 0;
}

/* `probe X Y Z [X2 Y2 Z2]`: what a voxel (or a box) holds, so scripts can
 * check that an edit far away came back with its world (world_hash covers
 * only the window, and which columns of it are ready varies). */
static int c_probe(void *u, int argc, char **argv)
{
    app *a = u;
    long v[6];
    bool ok = argc == 4 || argc == 7;
    for (int i = 0; ok && i < argc - 1; i++) {
        char *end;
        v[i] = strtol(argv[i + 1], &end, 10);
        ok = *end == 0 && end != argv[i + 1] && labs(v[i]) <= WORLD_COORD_LIMIT;
    }
    if (!ok) {
        log_error("usage: probe X Y Z [X2 Y2 Z2] (voxel coordinates, within +-%d)", WORLD_COORD_LIMIT);
        return 1;
    }
    app_sync_world(a);
    if (argc == 4) v[3] = v[0], v[4] = v[1], v[5] = v[2];
    long lo[3], hi[3], n = 1;
    for (int i = 0; i < 3; i++) {
        lo[i] = v[i] < v[i + 3] ? v[i] : v[i + 3];
        hi[i] = v[i] < v[i + 3] ? v[i + 3] : v[i];
        n *= hi[i] - lo[i] + 1;
        if (n > 1 << 24) {
            log_error("probe: the box holds over %d voxels", 1 << 24);
            return 1;
        }
    }
    const world *w = a->w;
    uint64_t h = HASH_SEED, solid = 0;
    bool ready = true;
    for (long z = lo[2]; z <= hi[2]; z++)
        for (long x = lo[0]; x <= hi[0]; x++) {
            int cx = (int)(x >> CHUNK_BITS), cz = (int)(z >> CHUNK_BITS);
            ready = ready && world_chunk_valid(w, cx, 0, cz) && world_column_state(w, cx, cz) == WORLD_COL_READY;
            for (long y = lo[1]; y <= hi[1]; y++) {
                uint8_t m = world_get(w, (int)x, (int)y, (int)z), t = world_get_tint(w, (int)x, (int)y, (int)z);
                uint8_t both[2] = { m, t };
                h = hash_bytes(h, both, 2);
                solid += m != MAT_AIR;
            }
        }
    if (argc == 4) log_out("probe=%s", material_table[world_get(w, (int)v[0], (int)v[1], (int)v[2])].name);
    log_out("probe_hash=%016llx", (unsigned long long)h);
    log_out("probe_solid=%llu", (unsigned long long)solid);
    log_out("probe_ready=%d", ready ? 1 : 0); /* 0: part of it is not generated yet (air for now) */
    return 0;
}

void app_save_script_register(app *a)
{
    const cmd_desc table[] = {
        { "sleep", "SECONDS [FILE]", "wait, or with FILE until it exists (for scripted tests)", c_sleep, a },
        { "probe", "X Y Z [X2 Y2 Z2]", "the material at a voxel, or a hash of a box (for scripted tests of saves)",
          c_probe, a, NULL, CMD_NEEDS_WORLD },
    };
    cmd_register_table(table, (int)(sizeof table / sizeof table[0]));
}
