/* Save loading (engine/io/save + voxel/chunk_codec): the input is a chunk
 * record and also a whole world file. A record either decodes to a valid
 * chunk or is refused with a message; a file either opens (and every slot
 * and chunk reads or is refused) or is refused/moved aside, never a crash. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "io/save.h"
#include "voxel/chunk_codec.h"
#include "voxel/material.h"
#include "voxel/world.h"

static char g_dir[64], g_path[128];
static chunk_codec *g_codec;

static void setup(void)
{
    if (g_codec) return;
    fuzz_quiet();
    g_codec = chunk_codec_create();
    snprintf(g_dir, sizeof g_dir, "/tmp/strata-fuzz-save-%d", (int)getpid());
    mkdir(g_dir, 0755);
    snprintf(g_path, sizeof g_path, "%s/w.strata", g_dir);
}

static void clean_dir(void)
{
    DIR *d = opendir(g_dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p[400];
        snprintf(p, sizeof p, "%s/%s", g_dir, e->d_name);
        unlink(p);
    }
    if (d) closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256 * 1024) return 0;
    setup();
    /* as one chunk record */
    static uint8_t vox[CHUNK_VOLUME];
    chunk c = chunk_over(vox);
    char err[1024], note[2048];
    if (chunk_codec_decode(g_codec, data, size, &c, err, sizeof err)) {
        for (int i = 0; i < CHUNK_VOLUME; i++) FUZZ_CHECK(c.vox[i] < MAT_COUNT && chunk_tint(&c, i) < CHUNK_CODEC_TINTS);
    } else {
        FUZZ_CHECK(err[0] != 0);
    }
    free(c.tint);
    /* as a world file */
    clean_dir();
    FILE *f = fopen(g_path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    save_file *sf = save_open(g_path, note, sizeof note, err, sizeof err);
    if (sf) {
        save_slot *slots = NULL;
        int n = save_list_slots(sf, &slots, err, sizeof err);
        char cur[64];
        save_current_slot(sf, cur, sizeof cur, err, sizeof err);
        world *w = world_create(2, 1, 2);
        for (int i = 0; i < n; i++) {
            uint64_t before = world_hash(w);
            if (save_load_chunks(sf, slots[i].name, w, NULL, err, sizeof err) < 0) {
                FUZZ_CHECK(err[0] != 0);
                FUZZ_CHECK(world_hash(w) == before); /* all or nothing */
            }
            save_slot_free(&slots[i]);
        }
        free(slots);
        world_destroy(w);
        save_close(sf);
    } else {
        FUZZ_CHECK(err[0] != 0);
    }
    clean_dir();
    return 0;
}
