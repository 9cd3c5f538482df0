/* app_tool: the cutting tool (seed 003) as the app's component "tool":
 * it follows the view every frame, turns held +cut/+fill into edits,
 * keeps its terrain octree exact across edits made by others, and draws
 * its ghost after the world. */
#ifndef STRATA_APP_TOOL_H
#define STRATA_APP_TOOL_H

#include "app_internal.h"
#include "physics/octree.h"

extern const component app_tool_component;

/* The tool's terrain octree when it describes the current world, else NULL:
 * the player's collision broad phase. Rebinding frees the old tree, so this
 * is asked right before every player update, never kept. */
const octree *app_occupancy(const app *a);
/* The same tree for a command that reads the ground now: built around the
 * eye first if no frame has done it (a streamed world binds its tree on
 * the first pick, so right after `stream wait` app_occupancy is NULL). */
const octree *app_occupancy_now(app *a);
/* The cutting tool when it is ready, else NULL (tool.mesh gives it a
 * mesh's shape; import reads its material). */
struct tool *app_tool(const app *a);

#endif
