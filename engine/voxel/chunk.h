/* chunk: a 32^3 block of one-byte material ids.
 * Layout is x fastest, then z, then y (seed 003's "innermost loop walks
 * contiguous memory"); a y-slice is one contiguous 1 KiB run, which suits
 * column fills during generation and slice sweeps in the mesher. */
#ifndef STRATA_CHUNK_H
#define STRATA_CHUNK_H

#include <stdbool.h>
#include <stdint.h>

#define CHUNK_BITS 5
#define CHUNK_SIZE 32
#define CHUNK_MASK 31
#define CHUNK_AREA (CHUNK_SIZE * CHUNK_SIZE)
#define CHUNK_VOLUME (CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE)

/* Local index of (x, y, z), each in [0, 32). */
#define CHUNK_INDEX(x, y, z) ((x) | ((z) << CHUNK_BITS) | ((y) << (2 * CHUNK_BITS)))

typedef struct chunk {
    /* CHUNK_VOLUME bytes. A pointer, not an array, so that a streamed
     * column is installed by handing its arrays over rather than copying
     * them (world_swap_vox): a world owns its chunks' arrays, and a heap
     * chunk (chunk_new) carries its own right behind the struct. */
    uint8_t *vox;
    /* Tint (cutting tool colour id), same indexing; 0 = none. Only a cell a
     * cut carved out carries one: it is the colour of the faces of its
     * neighbours that face it, i.e. of exactly the faces that cut exposed
     * (seed 003: "these new triangles are created with the current color").
     * Allocated on first use: most chunks are never cut. */
    uint8_t *tint;
} chunk;

static inline uint8_t chunk_tint(const chunk *c, int i) { return c->tint ? c->tint[i] : 0; }

/* A chunk of air on the heap, its voxels in the same block: one free()
 * of the chunk frees them (its tint is freed apart). NULL: no memory. */
chunk *chunk_new(void);
/* A chunk over caller-owned storage of CHUNK_VOLUME bytes (a stack
 * buffer in a test, a writer's scratch). */
static inline chunk chunk_over(uint8_t *vox) { return (chunk){ vox, 0 }; }

/* True when every voxel equals vox[0] (fast skip for empty/solid chunks). */
bool chunk_is_uniform(const chunk *c);
/* Hash of a chunk's voxels and tints: equal chunks, equal prints (the
 * saves' per-chunk fingerprint of a chunk as generated). */
uint64_t chunk_fingerprint(const chunk *c);

#endif
