/* app_voxelize: meshes in the game (seed 002) as the component "voxelize":
 * the commands voxelize, overlap, import and tool.mesh and the voxelize.*
 * cvars. It keeps no state; imports announce their box (app_world_edited)
 * so re-meshing, the tool's octree and light follow. */
#ifndef STRATA_APP_VOXELIZE_H
#define STRATA_APP_VOXELIZE_H

#include "app_internal.h"

extern const component app_voxelize_component;

#endif
