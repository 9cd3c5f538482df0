/* compose: the uniforms of shaders/compose.glsl, the final colour every
 * terrain pass shares: block light from emitters (light/emit.h, an R8 3D
 * texture), the player's lamp, the brightness lift of the darks, and fog
 * that takes the colour of the sky behind each fragment (gfx/sky.h draws
 * that sky with the same function). GL, main thread only. */
#ifndef STRATA_COMPOSE_H
#define STRATA_COMPOSE_H

#include <stdbool.h>

typedef struct compose_look {
    bool sky;                /* gradient, sun and fog to the sky; false: flat fog of render_settings.sky */
    bool clouds;
    float zenith[3], horizon[3], sun_color[3];
    float sun_radius_deg;    /* the disc's angular radius */
    bool emit;               /* block light from emitters (false while none is lit: no fetch) */
    unsigned emit_tex;       /* GL_TEXTURE_3D, GL_R8, levels 0..15 */
    int emit_size[3];
    int emit_lo[3];          /* the window's first voxel relative to the render origin */
    int emit_shift[3];       /* the render origin mod emit_size (x, z; y 0) */
    float emit_color[3];
    bool lamp;               /* the player's lamp */
    float lamp_dir[3], lamp_color[3], lamp_range;
    float brightness;        /* view.brightness, 0..1 */
} compose_look;

/* What a look with everything new off gives: the flat fog, nothing added. */
compose_look compose_look_plain(void);
/* Sets compose.glsl's uniforms on the program in use: eye relative to the
 * render origin, sun the direction towards it (normalised here), the
 * emitters' texture on `unit`. */
void compose_apply(unsigned program, const compose_look *c, const float eye[3], const float sun[3], int unit);

/* The texture unit the passes give the emitters' light. */
#define COMPOSE_EMIT_UNIT 5

#endif
