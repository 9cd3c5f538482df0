/* app_enhance: voxel detail enhancement as the app's component "enhance"
 * (render.mode enhanced, the enhance.* cvars, 'enhance stats'). */
#ifndef STRATA_APP_ENHANCE_H
#define STRATA_APP_ENHANCE_H

#include "app_internal.h"

extern const component app_enhance_component;

#endif
