/* sky: draws the sky where the world left the frame empty, a gradient from
 * horizon to zenith with the sun's glow and disc at the light's sun and a
 * few cheap clouds, with compose.glsl's sky_color (made on a grid of
 * vertices, the disc per pixel), so the fog the terrain passes blend to is
 * the sky behind them (docs/renderer.md, "Sky and fog"). GL, main thread
 * only. */
#ifndef STRATA_SKY_H
#define STRATA_SKY_H

#include <stddef.h>

#include "gfx/camera.h"
#include "gfx/render_mode.h"

typedef struct sky sky;

sky *sky_create(char *err, size_t errlen);
void sky_destroy(sky *k);
/* Fills every pixel whose depth is still the clear's with the sky of
 * s->look (nothing when s->look.sky is off). Depth and blend state are put
 * back as render_frame_begin leaves them. */
void sky_draw(sky *k, const camera *cam, const render_settings *s);

#endif
