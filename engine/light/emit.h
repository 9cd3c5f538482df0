/* emit: block light from emissive materials (the lamp, glowing ore), a
 * flood fill of EMIT_MAX_LEVEL levels that loses one level a voxel through
 * whatever lets light through (Minecraft's block light), added by the
 * shaders to the snowflake terms (docs/light.md, "Light from emitters").
 * One byte a voxel in the world's window and toroidal column slots, as
 * the snowflake volume keeps them; exact under edits: relighting an edit's
 * window gives the bytes a whole fill gives. Pure CPU; a volume on one
 * thread, an emit_column on any. */
#ifndef STRATA_EMIT_H
#define STRATA_EMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "voxel/world.h"

#define EMIT_MAX_LEVEL 15
/* Voxels beyond an edit whose bytes it can change: light travels at most
 * EMIT_MAX_LEVEL - 1 voxels of air, and a solid voxel holds the light of
 * its brightest open neighbour, one voxel more. */
#define EMIT_REACH (EMIT_MAX_LEVEL + 1)

typedef struct emit emit;

/* The level a material gives off (0: none). */
int emit_level(uint8_t material);
/* Whether light stops at a material (as the snowflake particles do). */
bool emit_blocks(uint8_t material);

/* A volume for a window of sx x sy x sz voxels at x0 = z0 = 0, dark; NULL
 * without memory. */
emit *emit_create(int sx, int sy, int sz);
void emit_destroy(emit *e);
void emit_size(const emit *e, int *sx, int *sy, int *sz);
void emit_origin(const emit *e, int *x0, int *z0);
/* Follows the world's window to first voxel (x0, z0). The columns that
 * enter keep whatever their slots held until they are relit (a streamed
 * column is, when it arrives): nothing reads them before, since nothing
 * there is drawn and a fill reads only the world. */
void emit_move(emit *e, int x0, int z0);

/* Every byte of the window from the world's voxels. */
void emit_fill_all(emit *e, const world *w);
/* After the voxels of [lo, hi) changed (global): relights the bytes that
 * can change, [lo - EMIT_REACH, hi + EMIT_REACH) clipped to the window,
 * and returns in out_lo/out_hi the box of those it rewrote: within that
 * box, where light was before or is now; every byte outside it is as it
 * was. False when it rewrote none (no emitter near, nothing lit there):
 * nothing to upload. */
bool emit_relight(emit *e, const world *w, const int lo[3], const int hi[3], int out_lo[3], int out_hi[3]);

/* Column (cx, cz) arrived in w (streaming) and its bytes come later, from
 * an emit_column: its emitters are counted (a relight of an edit beside
 * it finds them) and what its slot held, a column's that left, is
 * cleared; out_lo/out_hi, the box cleared (false: none, nothing to
 * upload). */
bool emit_column_arrived(emit *e, const world *w, int cx, int cz, int out_lo[3], int out_hi[3]);

/* A column's bytes made apart from the volume (on a worker), then landed
 * into it (main thread). A voxel's byte depends on the world within
 * EMIT_REACH of it alone, so a column's bytes are exact from its ring of
 * 8 once every column of the ring is there, and stay so until an edit
 * comes within EMIT_REACH (relit by emit_relight): made once per column,
 * where each arrival relighting EMIT_REACH around itself made every
 * column's bytes again for each of its neighbours. */
typedef struct emit_column emit_column;
/* Scratch for columns sy voxels high; NULL without memory. */
emit_column *emit_column_create(int sy);
void emit_column_destroy(emit_column *c);
/* Column (cx, cz)'s bytes from `ring`, a world of 3 x 3 columns whose
 * first is (cx - 1, cz - 1) holding the column whole and its neighbours
 * within EMIT_REACH of it (light_column's snapshot, taken with a reach of
 * at least EMIT_REACH). Reads ring and writes c alone: any thread. False
 * when ring is of another height or memory ran out. */
bool emit_column_fill(emit_column *c, const world *ring, int cx, int cz);
/* Writes the filled column into e, where e's window holds it, and returns
 * in out_lo/out_hi the box it rewrote (false: none, nothing to upload). */
bool emit_column_land(const emit_column *c, emit *e, int out_lo[3], int out_hi[3]);

/* Level of global voxel (x, y, z); 0 outside the window. Open voxels
 * hold the light that reached them, solid ones the brightest of their
 * open neighbours' (the light on their brightest face), emitters their
 * own level. */
uint8_t emit_get(const emit *e, int x, int y, int z);
/* The bytes, x fastest, then y, then z; voxel x in slot x mod sx (z
 * likewise), as the texture holds them. */
const uint8_t *emit_data(const emit *e);
/* Hash of the window's bytes in window order (equal light, equal hash). */
uint64_t emit_hash(const emit *e);
/* Whether any byte may be lit (false: the shaders need not look). */
bool emit_any_lit(const emit *e);
/* Voxels the last fill or relight visited with light (a cost measure). */
long emit_last_visited(const emit *e);

#endif
