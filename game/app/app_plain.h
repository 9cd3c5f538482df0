/* app_plain: the component that draws the endless bedrock floor beyond the
 * world's x/z edge (engine/gfx/plain.h) after the world, in every render
 * mode, so the world's edge never shows its underside. */
#ifndef STRATA_APP_PLAIN_H
#define STRATA_APP_PLAIN_H

#include "component.h"

extern const component app_plain_component;

#endif
