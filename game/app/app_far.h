/* app_far: the far rings as the app's component "far" (docs/streaming.md,
 * "The far rings"). Around a streamed world's near window, out to
 * `view.far` voxels, nested rings of a coarser and coarser height field
 * (mesh/far_mesh.h) built on the workers from the generator's surface
 * (worldgen_stream_surface) and from the player's edits (app_far_edits:
 * each edited column's top, this run's and the save file's), drawn
 * by gfx/far.h after the near field and before the sky. A ring is rebuilt
 * when the player crossed two of its cells or an edit touched it; a build
 * lands whole (its rings swap in together), so the rings always nest.
 * Cvars: view.far, far.cells, far.memory_mb, far.show. Command: `far`
 * (its stats), `far wait`, `far at X Z`. */
#ifndef STRATA_APP_FAR_H
#define STRATA_APP_FAR_H

#include "app_internal.h"

extern const component app_far_component;

/* Where the far rings end (view.far) while they are on for the current
 * world, else 0: the frame fogs and clips there instead of at
 * view.distance. */
float app_far_distance(const app *a);
/* Builds and uploads whatever the rings lack around the player now,
 * waiting for the workers (`stream wait` ends with it). */
void app_far_settle(app *a);
/* far_* lines for `stats` (nothing while the rings are off). */
void app_far_print_stats(app *a);

#endif
