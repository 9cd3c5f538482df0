/* mesh_arena: every chunk mesh of a render mode in one GL vertex buffer,
 * filled through a persistently mapped upload ring.
 *
 * One buffer for all chunks is what lets a frame's opaque pass be one
 * multi-draw (gfx/gpu_cull): every draw of it reads the same vertex
 * buffer, each from its own base vertex. The ranges are handed out by
 * core/arena_alloc in units of `unit` bytes (the blocks mode: a quad, so
 * a base vertex is a multiple of 4); the buffer is made once, up front,
 * and only made anew (a larger one, or the same size packed) when an
 * allocation finds no room or the free ranges pass ARENA_MAX_FRAGMENTS:
 * then every live range is copied GPU-side into the new buffer, in one
 * go, and the old one deleted.
 *
 * Uploads go through a ring of MESH_ARENA_REGIONS regions of a buffer
 * mapped once (GL_MAP_PERSISTENT | GL_MAP_COHERENT): a frame writes its
 * meshes into its region with memcpy, the GPU copies them into the arena,
 * and a fence marks the region; a region is written again only once its
 * fence has passed, polled without waiting. A frame lands at most
 * `budget` bytes (render.upload_budget); the rest waits, copied aside, for
 * the next frames (the chunk's old mesh is drawn meanwhile); a region
 * whose fence has not passed lands nothing that frame. Until the first
 * frame ends after a reset (a new world: nothing on screen to keep
 * smooth) every upload lands at once, past the ring straight into the
 * arena when it is full.
 *
 * GL on the main thread only. */
#ifndef STRATA_MESH_ARENA_H
#define STRATA_MESH_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MESH_ARENA_REGIONS 3

typedef struct mesh_arena mesh_arena;

typedef struct mesh_arena_stats {
    size_t bytes, used;  /* the buffer; what live ranges hold */
    int fragments;       /* free ranges */
    int pending;         /* uploads waiting for a later frame */
    int packs;           /* buffers made anew since the start */
    size_t landed;       /* bytes landed this frame */
} mesh_arena_stats;

/* What put did with a mesh. */
enum { MESH_ARENA_FAILED, MESH_ARENA_LANDED, MESH_ARENA_PENDING };

/* An arena of `unit`-byte units for `slots` owners (the caller's numbers
 * 0 .. slots-1); `meta` bytes of the caller's description travel with a
 * pending upload. NULL with err set when GL cannot give the buffers. */
mesh_arena *mesh_arena_create(size_t unit, int slots, size_t meta, char *err, size_t errlen);
void mesh_arena_destroy(mesh_arena *m);
/* Everything dropped, room for `slots` owners (the buffers stay). */
bool mesh_arena_reset(mesh_arena *m, int slots);
/* Bytes a frame lands at most (0: no limit but the ring's: a region a
 * frame, none while its fence is pending; MESH_ARENA_ALL: every upload
 * lands when it is put, past the ring when the ring cannot take it). */
void mesh_arena_set_budget(mesh_arena *m, size_t bytes);
#define MESH_ARENA_ALL ((size_t)-1)
/* The mesh of `slot`: `units` units of data (replacing what the slot held).
 * LANDED: in the buffer now; PENDING: the data and meta copied aside, to
 * land in a later frame (the slot keeps its old range until then; the
 * landed callback says when); FAILED: no GPU memory or no memory (said by
 * log_warn), the slot emptied. */
int mesh_arena_put(mesh_arena *m, int slot, const void *data, uint32_t units, const void *meta);
/* Empties a slot (and drops its pending upload). */
void mesh_arena_drop(mesh_arena *m, int slot);
/* The first unit of the slot's range, -1 when it holds nothing. */
long mesh_arena_first(const mesh_arena *m, int slot);
/* The start of a frame's uploads: pending meshes land, oldest first,
 * within the budget; `landed(user, slot, meta)` for each. Once a frame
 * (again after mesh_arena_end_frame). */
void mesh_arena_begin_frame(mesh_arena *m, void (*landed)(void *user, int slot, const void *meta), void *user);
/* The frame's uploads are all issued: its region fenced, the next one's turn. */
void mesh_arena_end_frame(mesh_arena *m);
/* The vertex buffer (changes when the arena is packed or grown). */
unsigned mesh_arena_buffer(const mesh_arena *m);
mesh_arena_stats mesh_arena_get_stats(const mesh_arena *m);

#endif
