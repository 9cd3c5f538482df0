/* light_tex: the snowflake light volume (engine/light) as an RG8 3D texture
 * the terrain shaders sample per fragment, so lighting needs no vertex data
 * and greedy-merged quads stay merged. Only changed boxes are uploaded.
 * The texture is the size of the world's window and holds the volume as it
 * is, in the world's toroidal slots (light.h): a moved window re-uploads
 * only the columns that change, and shaders find a voxel's texel from the
 * window's origin and first slot (light_shading). GL, main thread only. */
#ifndef STRATA_LIGHT_TEX_H
#define STRATA_LIGHT_TEX_H

#include <stdbool.h>
#include <stdint.h>

#include "light/light.h"

/* The uniform block the shaders read light_fresh_bits from (LightFresh,
 * binding 0): 16 KiB, the least GL_MAX_UNIFORM_BLOCK_SIZE GL 4.5 gives,
 * so 131072 column slots, more than the largest window (view.distance
 * 2048 and stream.margin 512: 179 x 179). */
#define LIGHT_FRESH_BINDING 0
#define LIGHT_FRESH_WORDS 4096

typedef struct light_tex {
    unsigned tex;   /* GL_TEXTURE_3D, GL_RG8, nearest, clamped */
    unsigned fresh; /* GL_UNIFORM_BUFFER: the volume's light_fresh_bits */
    uint32_t *bits; /* what it holds, LIGHT_FRESH_WORDS words */
    int sx, sy, sz;
} light_tex;

/* How the terrain shaders light a fragment: ambient + sun * sun_color +
 * sky * sky_color, sun and sky read from the volume at the voxel in front of
 * the face. Disabled: the old fixed directional shade. */
typedef struct light_shading {
    bool enabled;
    unsigned texture, fresh; /* a light_tex's tex and fresh */
    int size[3];
    /* The window's first voxel (x0, 0, z0), global, and its texel (the
     * slot, light_slot): a shader subtracts the one, adds the other and
     * wraps, in integers, so it is exact wherever the window is. Zero: the
     * origin window, whose texel is the voxel. */
    int origin[3], slot[3];
    float sun_color[3], sky_color[3], ambient;
    /* Smooth light: each point of a face blends the elements around it
     * (u_light_smooth); false: each face voxel reads its own element. */
    bool smooth;
} light_shading;

/* Sized for a world of sx*sy*sz voxels; false (and the reason in err) when
 * the driver cannot hold it. */
bool light_tex_create(light_tex *t, int sx, int sy, int sz, char *err, size_t errlen);
void light_tex_destroy(light_tex *t);
/* Uploads the box [lo, hi) of the light volume (global coordinates, clamped
 * to its window; whole when NULL), in up to four pieces where it wraps
 * around the texture's edges. */
void light_tex_upload(light_tex *t, const light *l, const int lo[3], const int hi[3]);
/* Gives the shaders the volume's light_fresh_bits, when they changed: a
 * column a move left is drawn holding no light, its texels untouched, as
 * light_get reads it, until its own light lands and is uploaded. (Clearing
 * those texels instead was a fifth of a millisecond a column on llvmpipe,
 * and a column at the drawn field's edge whose light lands has a few such
 * neighbours.) Every slot fresh until then. */
void light_tex_sync_fresh(light_tex *t, const light *l);
/* Sets the light uniforms every terrain shader declares (u_light_on,
 * u_light, u_light_size, u_light_origin, u_light_slot, u_sun_color,
 * u_sky_color, u_ambient, u_light_smooth; see
 * shaders/chunk.frag) on the program in use, binding the volume to texture
 * `unit` and its fresh bits to uniform block LIGHT_FRESH_BINDING. Every render mode calls this, so they light alike. */
void light_shading_apply(unsigned program, const light_shading *ls, int unit);

/* Every voxel fully lit: what the shaders see before the first bake. */
void light_tex_fill(light_tex *t, unsigned char sun, unsigned char sky);

#endif
