/* app_bodies: voxel bodies in the running game (issue 21). Hears every
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
/* Bodies still moving, not counting those held beyond the loaded terrain
 * (autosave waits for them to settle; a held one would never). */
int app_bodies_awake(const struct app *a);
/* Bodies, those awake and their voxels (the debug HUD). */
void app_bodies_counts(const struct app *a, int *count, int *awake, long *voxels);
/* The stats lines: bodies=, bodies_awake=, body_voxels=. An edit made by
 * a command is searched for loose voxels at the next frame (the frame is
 * the unit of play: `cut; stats` reports the world as cut, `cut; frames 1;
 * stats` the body it let fall), so reports between frames never see a
 * world half taken apart. */
void app_bodies_print_stats(struct app *a);

#endif
