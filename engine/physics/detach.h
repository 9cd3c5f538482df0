/* detach: after an edit, the groups of voxels it cut loose from the ground
 * Voxels hold together 6-connected through non-air voxels;
 * the ground is the world's floor (a voxel at y = 0 rests on the bedrock
 * below), and so is anything the search cannot finish within a bound, so a
 * mountain is never "loose", or (streamed) that reaches a column the window
 * does not hold or has not generated; foliage holds to what it grows on but holds
 * nothing up (see DETACH_LEAF_REACH). Only voxels in or beside the edited box start
 * a search. Pure CPU; the caller removes the groups and makes them bodies. */
#ifndef STRATA_DETACH_H
#define STRATA_DETACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voxel/world.h"

/* Foliage carries no load: two touching crowns do not hold each other
 * up, so felling a tree in a forest drops its crown. A loose group takes
 * the leaves that are nearer to it (in leaf steps) than to any other
 * tree, at most this many steps out; the rest stay with their trees. */
#define DETACH_LEAF_REACH 6

/* One loose group: its voxels are vox[first .. first + count) (x y z
 * triples, in the order the search met them) and their box [lo, hi). */
typedef struct detach_group {
    size_t first, count;
    int lo[3], hi[3];
} detach_group;

/* Results and scratch, kept between calls so steady edits allocate
 * nothing. Zero-initialise; detach_free when done. */
typedef struct detach {
    /* the visited set: open addressing, a slot is live when its stamp is
     * the current call's (so a call never clears the table) */
    uint64_t *key;
    uint32_t *stamp;
    int32_t *search; /* which search visited the voxel */
    size_t cap, used;
    uint32_t now;
    int *stack;
    size_t stack_cap;
    int *trail; /* x y z of the voxels the current search visited */
    size_t trail_count, trail_cap;
    uint8_t *label; /* the leaves' race (take_leaves): per voxel of a box */
    size_t label_cap;
    size_t *queue;
    size_t queue_cap;
    /* output */
    int *vox;
    size_t vox_count, vox_cap;
    detach_group *groups;
    size_t group_count, group_cap;
    int leaf_reach;      /* 0: DETACH_LEAF_REACH */
    /* The world goes on past its window (a streamed one), so a search
     * that reaches a column the window does not hold, or one not
     * generated yet, does not know what is there: it counts as ground, as
     * a search too long to finish does. A finite world ends at its sides:
     * false, and past them is air. Set before detach_find. */
    bool unbounded;
    long visited;        /* voxels the last call looked at */
    int bounded;         /* searches the last call gave up on (counted as ground) */
    int unknown;         /* searches the last call stopped at a column it has not (unbounded) */
    bool out_of_memory;  /* the last call could not finish: it reports no group */
} detach;

void detach_free(detach *d);

/* Finds the loose groups among the non-air voxels in [lo - 1, hi + 1) (the
 * edited box and its neighbours; clipped to the world). A search that
 * visits more than `limit` voxels counts as grounded. Replaces d's groups
 * and returns their number (0 when out of memory: nothing is cut loose
 * on a guess). Deterministic: the same world and box give the same groups
 * in the same order. */
size_t detach_find(detach *d, const world *w, const int lo[3], const int hi[3], long limit);

#endif
