/* app_bodies: voxel bodies in the running game. Hears every
 * edit's box, cuts what it left loose out of the world into bodies (same
 * frame), steps them at a fixed rate, draws them at their pose, and merges
 * each back into the world when it comes to rest. docs/physics.md. */
#ifndef STRATA_APP_BODIES_H
#define STRATA_APP_BODIES_H

#include "component.h"

/* The component "bodies": cvars physics.*, command `bodies`. */
extern const component app_bodies_component;

/* Every body goes back into the world where it is now, asleep or not
 * (saves call it before writing: a file never misses a falling crown).
 * What rests on nothing is cut loose again on the next frame. */
void app_bodies_settle(struct app *a);
/* Boxes the detach search has still to look at (edits of this frame,
 * the bodies a save just settled, those a window move put back), at most
 * max, as lo x y z, hi x y z. Saves write them with the player, so a body
 * falling at quit falls on after a load instead of floating there. */
int app_bodies_searches(const struct app *a, int (*box)[6], int max);
/* The boxes app_bodies_search_later keeps at most (past them the oldest
 * is forgotten): what a save writes at most. */
#define APP_BODIES_SEARCHES_MAX 96
/* Searches [lo, hi) once its columns and those around them are ready. */
void app_bodies_search_later(struct app *a, const int lo[3], const int hi[3]);
/* Bodies still moving, not counting those held beyond the loaded terrain
 * (autosave waits for them to settle; a held one would never). */
int app_bodies_awake(const struct app *a);
/* The bodies in flight, NULL without the component (the sound hears
 * them land). Read between frames; the set changes as they step. */
const struct bodies *app_bodies_set(const struct app *a);
/* Bodies, those awake and their voxels (the debug HUD). */
void app_bodies_counts(const struct app *a, int *count, int *awake, long *voxels);
/* The stats lines: bodies=, bodies_awake=, body_voxels=. An edit made by
 * a command is searched for loose voxels at the next frame (the frame is
 * the unit of play: `cut; stats` reports the world as cut, `cut; frames 1;
 * stats` the body it let fall), so reports between frames never see a
 * world half taken apart. */
void app_bodies_print_stats(struct app *a);

#endif
