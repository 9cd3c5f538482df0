/* plain: draws the endless bedrock floor the world rests on (world.h: below
 * y = 0 everything is bedrock) beyond the world's x/z edge, lit and fogged
 * like the terrain's top faces, so looking out or down from the edge shows
 * ground fading into the fog, never a sky-coloured void under the horizon.
 * One camera-centred quad drawn by shaders/plain.*; GL on the main thread. */
#ifndef STRATA_PLAIN_H
#define STRATA_PLAIN_H

#include <stddef.h>

#include "gfx/camera.h"
#include "gfx/render_mode.h"

typedef struct plain_renderer plain_renderer;

/* Loads shaders/plain.vert and shaders/plain.frag. NULL with err set. */
plain_renderer *plain_create(char *err, size_t errlen);
void plain_destroy(plain_renderer *p);

/* Draws the plane y = 0 outside [0, sx] x [0, sz] (everywhere when they
 * are 0; coordinates relative to the camera's render origin) out to the far plane,
 * textured with atlas layer `tile`, with the sun, sky and fog of `s` as the
 * chunk shader uses them. Call it right after renderer_draw (same
 * framebuffer, depth buffer still bound); it leaves the same GL state. */
void plain_draw(plain_renderer *p, const camera *cam, const render_settings *s, unsigned atlas, int tile, int sx,
                int sz);

#endif
