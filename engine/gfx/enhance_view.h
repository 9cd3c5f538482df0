/* enhance_view: the "enhanced" render mode. Chunks within enhance.radius
 * of the eye are drawn as detail-enhanced fragments (gen/enhance, meshed by
 * mesh/enhance_mesh as flat-shaded cubes), the rest as blocks (the blocks
 * mode, kept inside). Chunks are enhanced lazily when they come near, and
 * an edit re-enhances only the window it can affect, in the same frame.
 * Parameters are the enhance.* cvars (read each frame; a change rebuilds). */
#ifndef STRATA_ENHANCE_VIEW_H
#define STRATA_ENHANCE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/enhance.h"
#include "gfx/render_mode.h"
#include "physics/collide.h"

extern const render_mode enhance_view_mode;

/* Parameters from the enhance.* cvars (defaults for those not registered). */
enhance_params enhance_view_params(void);
/* Whether two parameter sets enhance alike (every field, material rules too). */
bool enhance_view_params_equal(const enhance_params *a, const enhance_params *b);
/* Bytes the mode would hold for `chunks` enhanced chunks at factor f (the
 * memory limit check of enhance.factor, enhance.levels and enhance.radius). */
double enhance_view_estimate(int chunks, int factor);
#define ENHANCE_VIEW_MEMORY_LIMIT (768.0 * 1024 * 1024)

typedef struct enhance_view_stats {
    int chunks;            /* enhanced chunks held */
    uint64_t fragments;    /* fragments on in their surface voxels */
    long surface_voxels;   /* voxels enhanced and listed */
    long skipped;          /* voxels skipped as uniformly solid or empty */
    long quads;
    enhance_stats cache;
    int rule_sets;         /* distinct rules the material columns make (1: materials off) */
    int table_entries;     /* the paper's 128-entry table, once per rule set and altitude band */
    double last_ms;        /* enhancing + meshing in the last frame that did any */
} enhance_view_stats;
/* Stats of a mode instance (self as create returned). */
void enhance_view_get_stats(void *self, enhance_view_stats *out);
/* What the GPU cull counted for the near fragments' newest frame that has
 * come back, and (far) for the blocks beyond; verdicts as
 * renderer_gpu_counts (the mode's one choice for both). */
struct gpu_cull_counts;
struct gpu_cull_counts enhance_view_gpu_counts(void *self, int *verdicts, bool *gpu, struct gpu_cull_counts *far);
/* Enhances and meshes the chunks within the radius of `eye` now, as the
 * next draw would (scripts: 'enhance stats' before any frame). */
void enhance_view_prepare(void *self, const double eye[3]);

/* The fragments of the enhanced chunks as a ground to walk on (collision
 * in fragment cells; chunks not enhanced, or changed since, answer with
 * their voxels). False unless the mode holds world `w` (a new world is
 * not walked on the fragments of the old). The grid reads the mode's
 * chunks: use it on the main thread, between frames. */
bool enhance_view_ground(void *self, const world *w, collide_grid *out);

#endif
