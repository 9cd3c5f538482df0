/* render_mode: the ways the same world can be drawn (blocks, smooth surface
 * nets, enhanced fragments) as a table of functions, and what every mode
 * shares: the visible set of chunks (frustum + view distance, front to
 * back), fog, the sky clear. Registering a mode is a table insert; the frame
 * loop, the ghost and the HUD never ask which mode is on. See docs/renderer.md. */
#ifndef STRATA_RENDER_MODE_H
#define STRATA_RENDER_MODE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/jobs.h"
#include "gfx/camera.h"
#include "gfx/compose.h"
#include "gfx/light_tex.h"
#include "gfx/occlusion.h"
#include "voxel/world.h"

/* Fog starts at this fraction of view_distance and is full at view_distance;
 * every pass that draws ground uses it, so surfaces meet without a seam. */
#define RENDER_FOG_START 0.6f

typedef struct render_settings {
    int width, height;     /* framebuffer size */
    unsigned framebuffer;  /* 0 = window */
    float view_distance;   /* horizontal: chunks beyond are not drawn; fog ends here */
    float fog_distance;    /* where fog ends instead, when beyond (the far rings': view.far); 0: none */
    float sky[3];
    float sun[3];          /* direction towards the sun (need not be normalised) */
    float tints[8][3];     /* tint id -> colour; 0 unused */
    bool wireframe;
    unsigned atlas;        /* the block atlas array texture (0: the mode's own) */
    /* Per-voxel light for every mode (snowflake lighting): an RG8 3D
     * texture over the whole world, one texel (sun, sky) per voxel, read by
     * the fragment shader at the voxel in front of the face (world position
     * + normal / 2). Disabled: the fixed directional shade. A texture keeps
     * greedy merging intact: quads carry no light. */
    light_shading light;
    /* The final colour every pass shares (gfx/compose.h): emitters, the
     * player's lamp, brightness, the sky and the fog towards it. Zero:
     * all off, the flat fog of `sky`. */
    compose_look look;
} render_settings;

/* Where every pass's fog starts: RENDER_FOG_START of view_distance, with
 * far rings too (their reach is then where it is full: a haze over the
 * whole far field, nothing over the near field). */
static inline float render_fog_start(const render_settings *s) { return s->view_distance * RENDER_FOG_START; }
/* Where every pass's fog is full: view_distance, or the far rings' reach. */
static inline float render_fog_end(const render_settings *s)
{
    return s->fog_distance > s->view_distance ? s->fog_distance : s->view_distance;
}

typedef struct render_stats {
    int chunks_loaded;  /* chunks with any geometry */
    int chunks_drawn;   /* after culling, with geometry */
    long triangles;     /* drawn this frame */
    long triangles_loaded;
    int chunks_occluded; /* in the visible set, every part culled: hidden behind what was drawn or outside the frustum (occlusion.h) */
    int chunks_meshed;   /* built and uploaded this frame (the streamed world's budget: stream.upload_budget) */
    float mesh_ms;       /* the frame's wait for that, wall time */
    int draw_calls;      /* GL draw calls of the world's opaque pass (the blocks mode) */
    int gpu_waits;       /* read-backs and blocking waits for the GPU this frame */
    bool gpu_cull;       /* the opaque pass was culled on the GPU (gfx/gpu_cull) */
    size_t arena_bytes, arena_used; /* the blocks mode's mesh arena (gfx/mesh_arena) */
    int arena_fragments, arena_pending;
} render_stats;

/* One chunk of the visible set. */
typedef struct render_item {
    int index;   /* world chunk index (world_chunk_coords) */
    float dist;  /* eye to chunk centre, voxels */
    /* The blocks mode draws it from its fine level at any distance: the
     * enhanced mode's fragments next to it closed their border against its
     * voxels (enhance_view.c, next_to_fragments). */
    bool fine;
} render_item;

/* What every mode's draw gets: the view and the chunks it may draw, nearest
 * first (opaque front to back lets early depth reject hidden pixels). */
typedef struct render_view {
    const camera *cam;
    const render_settings *s;
    const render_item *visible;
    int visible_count;
    world_grid grid; /* the world's chunk slots: index -> chunk coordinates */
    /* Occlusion culling (NULL: none): before drawing a visible chunk's
     * opaque geometry a mode asks occlusion_keep with the box that bounds
     * what it would draw, and skips the chunk on false. */
    render_occlusion *occ;
    /* Per chunk slot of a streamed window (NULL: every slot, a finite
     * world): RENDER_SLOT_DRAWN when the slot's mesh is its column's,
     * RENDER_SLOT_GENERATED as well when that column was generated when
     * it was built. A chunk of a column still to come has nothing for a
     * neighbour's seam to meet (the smooth mode's skirts). */
    const unsigned char *slots;
} render_view;

enum { RENDER_SLOT_DRAWN = 1, RENDER_SLOT_GENERATED = 2 };

/* A render mode. `self` is what create returned. All but build run on the
 * main thread with the GL context current.
 *   create   load shaders, make buffers; NULL with err set on failure
 *   reset    a new world of cx*cy*cz chunks: drop every chunk, size tables
 *   build    make the meshes of chunks idx[0..n) of w (CPU: on jobs, and
 *            wait; GPU: a compute dispatch); the world is not written
 *            meanwhile. False (and a log_warn) when there was no memory
 *            for them: nothing was built, the caller must not upload, and
 *            the chunks stay as they were until it tries them again
 *   upload   hand the chunks built by the last build to GL. A chunk whose
 *            buffer cannot be allocated is reported (log_warn) and skipped.
 *   draw     draw the chunks of v->visible that have geometry (the frame
 *            has cleared colour and depth), asking v->occ about each one
 *            beyond the near ones; fill stats
 *   destroy  free everything (GL included) */
typedef struct render_mode {
    const char *name; /* the value of render.mode */
    const char *help; /* one line, for `help render.mode` */
    void *(*create)(char *err, size_t errlen);
    void (*destroy)(void *self);
    void (*reset)(void *self, int cx, int cy, int cz);
    bool (*build)(void *self, const world *w, job_pool *jobs, const int *idx, int n);
    void (*upload)(void *self, const world *w, const int *idx, int n);
    void (*draw)(void *self, const render_view *v, render_stats *stats);
} render_mode;

#define RENDER_MODE_MAX 8

/* Adds a mode to the table (the same pointer twice is one entry; a name
 * already taken or a full table is refused with false). `m` must outlive
 * the table (a static const). */
bool render_mode_register(const render_mode *m);
const render_mode *render_mode_find(const char *name);
int render_mode_count(void);
const render_mode *render_mode_at(int i);
/* The mode after `m` in registration order, wrapping (the cycle hotkey). */
const render_mode *render_mode_next(const render_mode *m);

/* Bounding sphere of a chunk (centre and radius), the one culling rule;
 * the centre relative to cam's render origin (camera.h), as everything
 * drawn is. */
float render_chunk_sphere(const camera *cam, int cx, int cy, int cz, float centre[3]);
/* Fills out[0..) with the chunks of grid g inside the frustum and within
 * view_distance of the eye measured horizontally (as the fog is), nearest
 * first (3D distance); returns how many. out holds cx*cy*cz items. `has`
 * (NULL: all) skips chunks with has[i] == 0. */
int render_visible_set(const camera *cam, float view_distance, const world_grid *g, const unsigned char *has,
                       render_item *out);
/* Bit f set for each face direction f (voxel/material.h face ids) whose
 * faces inside chunk (x, y, z) can face the eye: the others are exactly
 * what back-face culling would drop, so a mode that groups its quads by
 * direction may leave them out. */
unsigned render_facing_mask(const camera *cam, int x, int y, int z);
/* Binds the framebuffer, sets the viewport, clears to the sky colour and
 * sets the depth/cull state every mode draws with. */
void render_frame_begin(const render_settings *s);

#endif
