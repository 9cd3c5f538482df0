/* body_draw: draws voxel bodies (physics/body.h) at their pose, as blocks
 * (each body's greedy block mesh, mesh_blocks in 32^3 tiles of its grid,
 * chunk.frag) or, in the smooth mode, as their own surface nets
 * (mesh_smooth_grid, smooth.frag); each mesh built once, when the body
 * first shows in that style, drawn with the body's model matrix and lit by
 * the same light volume as the terrain. Opaque faces are drawn before the
 * world (they occlude it), translucent ones after. GL, main thread. */
#ifndef STRATA_BODY_DRAW_H
#define STRATA_BODY_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include "gfx/camera.h"
#include "gfx/render_mode.h"
#include "physics/body.h"

/* The light volume holds light only in cells beside surfaces; a body in
 * mid-air reads cells the particles stored nothing for. Its faces take at
 * least this much sun and sky light (under a canopy they stay dimmer than
 * in the open, never black). */
#define BODY_DRAW_LIGHT_FLOOR_SUN 0.6f
#define BODY_DRAW_LIGHT_FLOOR_SKY 0.8f

typedef struct body_draw body_draw;

/* How bodies look: as blocks (the greedy block mesh of their grid, every
 * mode but smooth), or as their own surface nets (the smooth mode: the
 * grid meshed by mesh_smooth_grid at the mode's sharpness). */
typedef struct body_draw_style {
    bool nets;
    float sharpness; /* render.smooth_sharpness */
} body_draw_style;

body_draw *body_draw_create(char *err, size_t errlen);
void body_draw_destroy(body_draw *d);
/* Draws the opaque (and cut-out) faces of bodies v[0 .. n) in the frustum,
 * nearest first (meshing those it has not seen; forgetting the meshes of
 * bodies no longer in the list). Meant to run on the cleared frame before
 * the world: a crown falling in front of the eye then hides the terrain
 * behind it from early depth and from the occlusion read-back (what is
 * hidden is not drawn at all) instead of being painted over it. Returns
 * the triangles drawn. */
long body_draw_opaque(body_draw *d, body *const *v, int n, const camera *cam, const render_settings *s,
                      body_draw_style style);
/* The translucent faces of the bodies the last body_draw_opaque drew
 * (the same frame, its bodies still alive), farthest first, after the
 * world: blended over what is behind them. Nets have none (the smooth
 * mode draws every material solid). */
long body_draw_translucent(body_draw *d, const camera *cam, const render_settings *s);

#endif
