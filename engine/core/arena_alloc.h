/* arena_alloc: ranges of one large buffer handed out and taken back, the
 * bookkeeping of a GPU arena (gfx/mesh_arena keeps every chunk mesh in one
 * vertex buffer) with no GL in it.
 *
 * Space is counted in units (the arena's caller picks them: the blocks
 * mode counts quads, so every range starts on a quad and gl_VertexID & 3
 * still names a corner). The free space is a list of ranges sorted by
 * offset; a freed range merges with the free ranges on either side, so
 * two neighbours freed leave one range. An allocation takes the smallest
 * free range that fits (best fit: the large ranges stay whole for the
 * large meshes).
 *
 * Fragmentation is measured as the share of the free space outside its
 * largest range, and bounded by the owner: when arena_should_pack says
 * so, the owner moves every live range down to the start (arena_pack
 * says where each goes), which leaves one free range. A pack is one copy
 * of every live range, so it waits until the holes are many
 * (ARENA_MAX_FRAGMENTS) or an allocation fails while the free space
 * would hold it. */
#ifndef STRATA_ARENA_ALLOC_H
#define STRATA_ARENA_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

/* free ranges past which the owner packs (arena_should_pack) */
#define ARENA_MAX_FRAGMENTS 64

typedef struct arena_range {
    uint32_t at, size; /* units */
    int owner;         /* the caller's name for a live range (arena_pack keeps it with its range) */
} arena_range;

typedef struct arena_alloc {
    uint32_t capacity, used; /* units */
    int live;                /* ranges handed out and not taken back */
    arena_range *free;       /* sorted by at, never two touching */
    int free_count, free_cap;
} arena_alloc;

/* An empty arena of `capacity` units; false when out of memory. */
bool arena_init(arena_alloc *a, uint32_t capacity);
void arena_release(arena_alloc *a);
/* A range of `size` units (> 0) into *at; false when no free range is
 * that large (or no memory to split one: nothing changes then). */
bool arena_take(arena_alloc *a, uint32_t size, uint32_t *at);
/* Gives back a range arena_take handed out, whole. */
void arena_give(arena_alloc *a, uint32_t at, uint32_t size);
/* A larger capacity: the units added at the end are free. */
bool arena_grow(arena_alloc *a, uint32_t capacity);
uint32_t arena_largest_free(const arena_alloc *a);
/* 0 (one free range, or none) .. 1: the free space outside the largest
 * free range over all free space. */
float arena_fragmentation(const arena_alloc *a);
/* Whether the owner should pack: the free ranges passed
 * ARENA_MAX_FRAGMENTS, or `need` units (0: none asked) fit in the free
 * space but in no free range. */
bool arena_should_pack(const arena_alloc *a, uint32_t need);
/* The arena emptied, its capacity set to `capacity` (at least what the
 * live ranges hold), and live[0..n) (every range handed out) placed back
 * to back from 0 in the order of their old offsets: each live[i].at is
 * its new offset, and no range moves up, so copying them in that order
 * within one buffer never overwrites one not yet copied. False (nothing
 * changed) when out of memory or they do not fit. */
bool arena_pack(arena_alloc *a, arena_range *live, int n, uint32_t capacity);

#endif
