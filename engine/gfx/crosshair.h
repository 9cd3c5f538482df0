/* crosshair: the two thin bars in the middle of the screen, drawn last in
 * every render mode (after the world and the tool's preview, so nothing
 * tints it): light bars on a dark outline, so it shows on any background. */
#ifndef STRATA_CROSSHAIR_H
#define STRATA_CROSSHAIR_H

#include <stddef.h>

#include "gfx/render_mode.h"

/* The dark outline's width around the light bars, in pixels (doubled above 1080 lines). */
#define CROSSHAIR_OUTLINE_PX 1.f

typedef struct crosshair crosshair;

crosshair *crosshair_create(char *err, size_t errlen);
void crosshair_destroy(crosshair *c);
/* Leaves depth test on, blending off. */
void crosshair_draw(crosshair *c, const render_settings *s);

#endif
