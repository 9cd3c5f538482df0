/* app_enhance: voxel detail enhancement as the app's component "enhance"
 * (render.mode enhanced, the enhance.* cvars, 'enhance stats'). */
#ifndef STRATA_APP_ENHANCE_H
#define STRATA_APP_ENHANCE_H

#include "app_internal.h"

extern const component app_enhance_component;

/* The ground the player walks on this frame: the enhanced fragments when
 * render.mode is enhanced and enhance.walk is 1 (false otherwise: voxels). */
bool app_enhance_ground(app *a, collide_grid *out);

#endif
