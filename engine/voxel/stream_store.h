/* stream_store: the stream's store of edited chunks of columns outside
 * the window (stream.c's alone; the rest of the engine speaks stream.h).
 * Open addressing on (cx, cy, cz), linear probing, tombstones; it grows
 * with what the player edited, never with the distance travelled. A paged
 * entry keeps only the coordinates: its chunk is safely in the save file
 * (stream_page_out_saved) and the pager reads it back when its column
 * comes, so the voxels in memory are bounded by what is not yet written. */

#ifndef STRATA_STREAM_STORE_H
#define STRATA_STREAM_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "voxel/chunk.h"

typedef struct stored {
    int cx, cy, cz;
    chunk *c;      /* NULL: empty slot, or paged */
    bool tomb;     /* a removed entry: probing goes on past it */
    bool paged;    /* the chunk lives only in the file (c is NULL) */
    uint8_t flags; /* the world's edit flags (WORLD_EDITED | WORLD_UNSAVED) */
    uint64_t gen_fp; /* chunk_fingerprint of the chunk as generated (0: unknown) */
} stored;

/* an entry holding a chunk, in memory or in the file */
static inline bool store_live(const stored *e) { return e->c || e->paged; }

typedef struct store {
    stored *e;
    int cap, used, live; /* used counts live entries and tombstones */
} store;

/* The entry at (cx, cy, cz), or NULL. */
stored *store_find(const store *st, int cx, int cy, int cz);
/* Takes ownership of c (replacing any stored chunk at the same place); c
 * NULL with `paged`: the chunk is in the file only. False: out of memory
 * (c is not taken). */
bool store_put(store *st, int cx, int cy, int cz, chunk *c, bool paged, uint8_t flags, uint64_t gen_fp);
/* Drops an entry (its chunk, if any, is the caller's). */
void store_remove(store *st, stored *e);
void store_free(store *st);
/* Frees a chunk made for the store: its tint, then itself. */
void store_free_chunk(chunk *c);

#endif
