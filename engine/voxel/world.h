/* world: a window of cx x cy x cz chunks onto the unbounded plane of chunk
 * columns, with voxel get/set across chunk borders and dirty tracking, so
 * only changed chunks are re-meshed.
 *
 * Coordinates are global: voxel (x, y, z) is the same place whatever the
 * window holds. The window covers chunk columns [ocx, ocx + cx) x
 * [ocz, ocz + cz) and layers [0, cy); a finite world is the window at
 * origin 0 that never moves. world_move shifts the window (streaming):
 * the columns it leaves are emptied and the ones it enters start empty,
 * stored in the freed slots, so memory is the window's, never the
 * distance travelled. Slots are toroidal (column X lives in slot X mod cx),
 * which is why a move touches only the columns that change.
 *
 * Outside the window is air, except below y = 0, which reads as bedrock:
 * the world rests on an endless floor, so its underside is never meshed
 * and the player can never fall out. */
#ifndef STRATA_WORLD_H
#define STRATA_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voxel/chunk.h"
#include "voxel/material.h"

typedef struct world {
    int cx, cy, cz;  /* size in chunks */
    int sx, sy, sz;  /* size in voxels */
    int ocx, ocz;    /* chunk coordinates of the window's lowest column */
    int slot_x0, slot_z0; /* ocx mod cx, ocz mod cz: the slot column ocx lives in */
    /* Per column slot (x fastest): WORLD_COL_READY once generation filled
     * it; a column the window just entered is 0 until then. */
    uint8_t *col_state;
    int chunk_count;
    chunk *chunks;   /* index: x fastest, then z, then y (as inside a chunk) */
    uint8_t *dirty;  /* one flag per chunk: its mesh is out of date */
    int dirty_count;
    /* Per chunk, for saves: WORLD_EDITED once a world_set/world_set_tint
     * changed it after generation (generation writes voxels directly),
     * WORLD_UNSAVED while that change has not been handed to a save. */
    uint8_t *edit;
    int unsaved_count;
    /* A pthread_mutex_t world_set/world_set_tint hold while they write,
     * when another thread reads chunks of this world (the save writer, see
     * io/save.h); NULL otherwise. */
    void *guard;
    /* Voxel arrays the world owns but no chunk uses (world_move_release
     * gave them back; world_take_spare hands them out), so a streamed
     * window's arrays go round without malloc or free while it flies. */
    uint8_t **spare;
    int spare_n, spare_cap;
} world;

enum { WORLD_EDITED = 1, WORLD_UNSAVED = 2 };
enum { WORLD_COL_EMPTY = 0, WORLD_COL_READY = 1 };

/* Returns NULL (and logs) when the size is not positive or too large. */
/* 4096 chunks = 128 MiB of voxels: plenty for a sandbox, and a guard
 * against a typo in a cvar allocating the machine's memory. */
#define WORLD_MAX_CHUNKS 4096
/* Whether cx*cy*cz chunks make a world world_create accepts; if not, why
 * (with the limit) in err. The world.size_* cvars veto with it. */
bool world_size_check(int cx, int cy, int cz, char *err, size_t errlen);
/* A window at origin 0 whose columns are all ready (the finite world). */
world *world_create(int cx, int cy, int cz);
/* A window whose lowest column is (ocx, ocz); ready as world_create's. */
world *world_create_at(int ocx, int ocz, int cx, int cy, int cz);
/* A streamed world's window may be larger than a finite world (its
 * memory is checked against stream.memory_mb by the game): up to
 * WORLD_MAX_STREAM_CHUNKS. */
#define WORLD_MAX_STREAM_CHUNKS (1 << 16)
world *world_create_window(int ocx, int ocz, int cx, int cy, int cz);
void world_destroy(world *w);

/* Chunk coordinates that keep every voxel coordinate, and x + sx, inside
 * 32 bits (with room for the reach of tools and light). */
#define WORLD_COORD_LIMIT (1 << 30)
/* Positions (voxels, doubles) that physics and the player still take:
 * past every voxel a window can hold (WORLD_COORD_LIMIT), and far enough
 * below INT_MAX that a cell index plus a box, a step or a ray's reach
 * stays an int. Beyond it a move is refused (NaN, a damaged save). */
#define WORLD_POS_LIMIT 1.5e9

/* Slot of column coordinate c in a window of n from origin o whose slot is
 * s0; c must be in the window. No division: c - o < n. */
static inline int world_slot_(int c, int o, int s0, int n)
{
    int s = c - o + s0;
    return s >= n ? s - n : s;
}

/* The window's chunk geometry alone: which slot holds which chunk. A
 * renderer keeps a copy, so its per-chunk tables follow the world's slots
 * (a column that stays keeps its index and its meshes when the window
 * moves). */
typedef struct world_grid {
    int cx, cy, cz, ocx, ocz, slot_x0, slot_z0;
} world_grid;

static inline world_grid world_grid_of(const world *w)
{
    return (world_grid){ w->cx, w->cy, w->cz, w->ocx, w->ocz, w->slot_x0, w->slot_z0 };
}
/* A window at origin 0 (the finite world, and renderers before a world). */
static inline world_grid world_grid_origin(int cx, int cy, int cz)
{
    return (world_grid){ cx, cy, cz, 0, 0, 0, 0 };
}
static inline bool world_grid_valid(const world_grid *g, int cx, int cy, int cz)
{
    return cy >= 0 && cy < g->cy && (unsigned)(cx - g->ocx) < (unsigned)g->cx &&
           (unsigned)(cz - g->ocz) < (unsigned)g->cz;
}
/* Index of chunk (cx, cy, cz), global chunk coordinates inside the window. */
static inline int world_grid_index(const world_grid *g, int cx, int cy, int cz)
{
    return world_slot_(cx, g->ocx, g->slot_x0, g->cx) + world_slot_(cz, g->ocz, g->slot_z0, g->cz) * g->cx +
           cy * g->cx * g->cz;
}
/* Global chunk coordinates of a chunk index. */
void world_grid_coords(const world_grid *g, int index, int *cx, int *cy, int *cz);

static inline int world_chunk_index(const world *w, int cx, int cy, int cz)
{
    return world_slot_(cx, w->ocx, w->slot_x0, w->cx) + world_slot_(cz, w->ocz, w->slot_z0, w->cz) * w->cx +
           cy * w->cx * w->cz;
}
static inline bool world_chunk_valid(const world *w, int cx, int cy, int cz)
{
    return cy >= 0 && cy < w->cy && (unsigned)(cx - w->ocx) < (unsigned)w->cx &&
           (unsigned)(cz - w->ocz) < (unsigned)w->cz;
}
/* First voxel x and z of the window. */
static inline int world_x0(const world *w) { return w->ocx * CHUNK_SIZE; }
static inline int world_z0(const world *w) { return w->ocz * CHUNK_SIZE; }
static inline chunk *world_chunk(const world *w, int cx, int cy, int cz)
{
    return world_chunk_valid(w, cx, cy, cz) ? &w->chunks[world_chunk_index(w, cx, cy, cz)] : NULL;
}
/* Global chunk coordinates of a chunk index. */
void world_chunk_coords(const world *w, int index, int *cx, int *cy, int *cz);

static inline bool world_in_bounds(const world *w, int x, int y, int z)
{
    /* subtracted as unsigned: x - x0 can pass INT_MAX at the coordinate
     * limit (x = 2^30 in a window at -2^30), which wraps to "outside" */
    return y >= 0 && y < w->sy && (unsigned)x - (unsigned)world_x0(w) < (unsigned)w->sx &&
           (unsigned)z - (unsigned)world_z0(w) < (unsigned)w->sz;
}

static inline uint8_t world_get(const world *w, int x, int y, int z)
{
    if (y < 0) return MAT_BEDROCK;
    if (!world_in_bounds(w, x, y, z)) return MAT_AIR;
    const chunk *c = &w->chunks[world_chunk_index(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS)];
    return c->vox[CHUNK_INDEX(x & CHUNK_MASK, y & CHUNK_MASK, z & CHUNK_MASK)];
}

/* Tints colour faces, not voxels: the tint stored in a cell is the colour
 * of every neighbour face that looks into it. A cut stores its colour in
 * the cells it carves, so the faces it exposes take that colour, faces that
 * were visible before keep theirs (their neighbour cell was not carved by
 * it), and a later cut in another colour paints only the cells it carves.
 * 1 byte per voxel, allocated per chunk on the first tint. */
uint8_t world_get_tint(const world *w, int x, int y, int z);
/* Colour of face f of voxel (x, y, z): the tint of the cell it faces. */
static inline uint8_t world_face_tint(const world *w, int x, int y, int z, int face)
{
    return world_get_tint(w, x + face_normal[face][0], y + face_normal[face][1], z + face_normal[face][2]);
}

/* Sets a voxel and marks its chunk dirty, plus any neighbour chunk whose
 * mesh shows the changed voxel's faces (voxel on a chunk border). Out of
 * bounds writes are ignored and return false. A changed material clears
 * the cell's tint: the carved space it coloured is gone (a cut sets the
 * tint after removing the voxel). */
bool world_set(world *w, int x, int y, int z, uint8_t m);
bool world_set_tint(world *w, int x, int y, int z, uint8_t tint);

void world_mark_dirty(world *w, int cx, int cy, int cz);
void world_mark_all_dirty(world *w);
/* Moves up to `max` dirty chunk indices into `out` (clearing them) and
 * returns how many; lowest index first, so the order is deterministic. */
int world_take_dirty(world *w, int *out, int max);

/* Moves up to `max` indices of chunks changed since they were last taken
 * into `out` (lowest first) and returns how many. */
int world_take_unsaved(world *w, int *out, int max);
/* Marks every edited chunk unsaved again (a save failed: write them all). */
void world_mark_edited_unsaved(world *w);
/* Chunk `index` goes back to unsaved (a save could not take it). */
void world_mark_unsaved(world *w, int index);
/* Chunk `index` now holds saved edits (loaded from a file): edited, saved,
 * and its mesh (and its neighbours') out of date. */
void world_mark_loaded(world *w, int index);
int world_count_edited(const world *w);
/* Generation's own world_set calls (a carving pass) are not edits: the new
 * world starts with none. */
void world_forget_edits(world *w);

/* Fills everything with air and clears tints (before regeneration). */
void world_clear(world *w);

/* Moves the window's lowest column to (ocx, ocz). Columns that stay keep
 * their voxels, flags and slots; columns that leave are emptied (air, no
 * tints, no edit flags: save them first, world_take_unsaved still reports
 * them until the move) and the entering ones start WORLD_COL_EMPTY and
 * dirty. Returns how many columns entered. Refuses (returns -1) an origin
 * beyond WORLD_COORD_LIMIT. */
int world_move(world *w, int ocx, int ocz);
/* world_move for a scratch window whose caller reads only what it copies
 * in after the move: the columns that leave keep their old voxels (no
 * clear of bytes about to be overwritten; light_column's ring). */
int world_move_scratch(world *w, int ocx, int ocz);
/* world_move for the streamed window: the columns that leave give their
 * voxel arrays to the spare list and read as air through one shared
 * array (world_vox_shared) until a column is handed in (world_swap_vox);
 * no byte is cleared on the caller's thread. A write into such a chunk is
 * refused (world_set returns false): nothing is there yet. */
int world_move_release(world *w, int ocx, int ocz);
/* Whether `vox` is the shared air of the columns world_move_release emptied. */
bool world_vox_shared(const uint8_t *vox);
/* Swaps chunk `index`'s voxel array with *vox (under the guard): the
 * caller hands a finished array in and gets the old one back (the shared
 * air, or an array of its own, its bytes whatever they were). */
void world_swap_vox(world *w, int index, uint8_t **vox);
/* A voxel array off the spare list (its bytes stale), or a new one when
 * the list is empty; NULL when out of memory. */
uint8_t *world_take_spare(world *w);
/* Keeps `vox` on the spare list (the shared air is ignored). */
void world_give_spare(world *w, uint8_t *vox);
/* Every chunk of `w` reading the shared air gets an array of its own from
 * `from`'s spare list (a generation job's column about to be written);
 * false when out of memory. */
bool world_own_storage(world *w, world *from);
/* State of column (cx, cz), global; WORLD_COL_EMPTY outside the window. */
int world_column_state(const world *w, int cx, int cz);
void world_set_column_state(world *w, int cx, int cz, int state);
/* Whether voxel column (x, z) (voxel coordinates) is the window's and
 * generated: a streamed column still to come reads as air but is not, so
 * nothing may be written there or decided from it. */
static inline bool world_voxel_ready(const world *w, int x, int z)
{
    return world_column_state(w, x >> CHUNK_BITS, z >> CHUNK_BITS) == WORLD_COL_READY;
}
/* No column of the window is WORLD_COL_READY: a streamed window just
 * begun or moved past everything (a finite world's columns are all ready). */
bool world_window_empty(const world *w);

/* Hash of every voxel and tint, in chunk order: equal worlds hash equal. */
uint64_t world_hash(const world *w);
/* Folds one chunk's voxels and tints into h, as world_hash does. */
uint64_t world_hash_chunk(uint64_t h, const chunk *c);
void world_count_materials(const world *w, uint64_t counts[MAT_COUNT]);
/* Faces drawn with a tint: visible faces (material_face_visible) whose
 * neighbour cell carries one. */
uint64_t world_count_tinted(const world *w);
/* Bytes held by tint storage (chunks that were ever tinted, 32 KiB each). */
size_t world_tint_bytes(const world *w);
/* Highest y whose voxel is solid in column (x, z), or -1 if none (or
 * outside the window). */
int world_surface_y(const world *w, int x, int z);

#endif
