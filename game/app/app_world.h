/* app_world: the world's lifecycle in the running game — generating it
 * (now or on the workers), installing it (every component hears
 * on_new_world) and announcing edits: app_world_edited is the one call an
 * edit makes, and re-meshing, the tool's octree, light and saves follow. */
#ifndef STRATA_APP_WORLD_H
#define STRATA_APP_WORLD_H

#include "app_internal.h"

const worldgen_kind *app_kind(const app *a);
/* Generates from the cvars now and installs the result. */
bool app_regenerate(app *a);
/* Starts generating on the workers; app_sync_world installs it. */
bool app_regenerate_async(app *a);
/* Commands that read the world see the settings as they are now: finishes
 * a background generation, or regenerates when a cvar asked for it. False
 * when those settings did not make a world (the old one stays). */
bool app_sync_world(app *a);
/* Voxels [lo, hi) of the current world changed: every component's on_edit
 * runs once with the box (clipped to the world). source: the component that
 * made the edit, or NULL. */
void app_world_edited(app *a, const int lo[3], const int hi[3], const component *source);

#endif
