/* crosshair: the two thin bars in the middle of the screen, drawn last in
 * every render mode (after the world and the tool's ghost, so nothing tints
 * it) by inverting what is behind, so it shows on any terrain. */
#ifndef STRATA_CROSSHAIR_H
#define STRATA_CROSSHAIR_H

#include <stddef.h>

#include "gfx/render_mode.h"

typedef struct crosshair crosshair;

crosshair *crosshair_create(char *err, size_t errlen);
void crosshair_destroy(crosshair *c);
/* Leaves depth test on, blending off. */
void crosshair_draw(crosshair *c, const render_settings *s);

#endif
