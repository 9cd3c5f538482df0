/* renderer: draws the block world from per-chunk vertex buffers.
 * One VBO per chunk holds its opaque, cut-out and translucent quads back to
 * back; a shared index buffer turns quads into triangles. Chunks outside
 * the view frustum or beyond the view distance are skipped; translucent
 * chunks are drawn last, far to near. GL is used on the main thread only. */
#ifndef STRATA_RENDERER_H
#define STRATA_RENDERER_H

#include <stdbool.h>
#include <stddef.h>

#include "gfx/camera.h"
#include "gfx/light_tex.h"
#include "mesh/mesh_blocks.h"

typedef struct renderer renderer;

typedef struct render_settings {
    int width, height;     /* framebuffer size */
    unsigned framebuffer;  /* 0 = window */
    float view_distance;   /* chunks beyond are not drawn; fog ends here */
    float sky[3];
    float sun[3];          /* direction towards the sun (need not be normalised) */
    float tints[8][3];     /* tint id -> colour; 0 unused */
    bool wireframe;
    light_shading light;   /* snowflake light volume; .enabled false = fixed shade */
} render_settings;

typedef struct render_stats {
    int chunks_loaded;  /* chunks with any geometry */
    int chunks_drawn;   /* after culling */
    long triangles;     /* drawn this frame */
    long triangles_loaded;
} render_stats;

renderer *renderer_create(char *err, size_t errlen);
void renderer_destroy(renderer *r);
/* The atlas array texture (owned by the caller). */
void renderer_set_atlas(renderer *r, unsigned texture);
/* Drops every chunk buffer and sizes the table for a new world. */
void renderer_reset(renderer *r, int cx, int cy, int cz);
/* Uploads (replaces) one chunk's mesh. Empty meshes free the buffer. */
void renderer_upload(renderer *r, int cx, int cy, int cz, const chunk_mesh *m);
void renderer_draw(renderer *r, const camera *cam, const render_settings *s, render_stats *stats);
/* The crosshair, drawn last: after the world and whatever the caller draws
 * over it (the tool's ghost), so nothing tints it. */
void renderer_draw_crosshair(renderer *r, const render_settings *s);

#endif
