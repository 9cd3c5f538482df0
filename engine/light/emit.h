/* emit: block light from emissive materials (the lamp, glowing ore), a
 * flood fill of EMIT_MAX_LEVEL levels that loses one level a voxel through
 * whatever lets light through (Minecraft's block light), added by the
 * shaders to the snowflake terms (docs/light.md, "Light from emitters").
 * One byte a voxel in the world's window and toroidal column slots, as
 * the snowflake volume keeps them; exact under edits: relighting an edit's
 * window gives the bytes a whole fill gives. Pure CPU, main thread. */
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
 * and returns that box in out_lo/out_hi. False when none of them changed
 * or can have (no emitter near, nothing lit there): nothing to upload. */
bool emit_relight(emit *e, const world *w, const int lo[3], const int hi[3], int out_lo[3], int out_hi[3]);

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
