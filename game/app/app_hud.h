/* app_hud: what the tool strip shows (engine/ui/hud), read from the tool and
 * its cvars each frame, as the component "hud", which keeps the block atlas
 * on the CPU so the strip shows the fill material's own texture. */
#ifndef STRATA_APP_HUD_H
#define STRATA_APP_HUD_H

#include "app_internal.h"

extern const component app_hud_component;

/* The strip as the tool is now: false when there is no tool (or
 * hud.toolbar is 0), then nothing is drawn. The strings live in the
 * component until the next call. */
bool app_hud_toolbar(app *a, hud_toolbar *out);

#endif
