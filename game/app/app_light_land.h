/* app_light_land: which columns' light has landed, so that a chunk is drawn
 * once its light is there and never first without it (docs/light.md, "How
 * light arrives"). The light component (app_light.c) says when a column's
 * light lands or is to be baked again; the render component asks for the
 * chunks to draw (light_land_mask) and the HUD for what is left. The emit
 * component keeps one of its own: the columns whose block light was made.
 * Per column slot of the world's window it keeps the global column whose
 * light landed there, so a move of the window needs no clearing: a column
 * that enters a slot is not the one that landed in it. */
#ifndef STRATA_APP_LIGHT_LAND_H
#define STRATA_APP_LIGHT_LAND_H

#include <stdbool.h>

#include "voxel/world.h"

typedef struct light_land {
    int cx, cz;          /* the window's size in columns */
    int *gx, *gz;        /* per column slot: the column whose light landed there */
    bool *landed;        /* per slot: gx, gz say something */
    unsigned char *mask; /* the chunks drawn this frame (light_land_mask) */
    int mask_cap;
    bool settling;       /* a new world: the bar counts what is left in view */
} light_land;

/* A new world (or one of another size): nothing has landed. False when
 * there is no memory (then every chunk is drawn, as without it). */
bool light_land_reset(light_land *l, const world *w);
/* Column (cx, cz) has its light (landed) or is to be baked (not landed). */
void light_land_set(light_land *l, const world *w, int cx, int cz, bool landed);
/* A whole bake landed: every column of a finite world, and every column of
 * a streamed window whose ring is there (the others are baked when it is). */
void light_land_all(light_land *l, const world *w, bool streamed);
bool light_land_has(const light_land *l, const world *w, int cx, int cz);
/* The chunks to draw: those of `has` (NULL: all) whose column has landed. */
const unsigned char *light_land_mask(light_land *l, const world *w, const unsigned char *has);
/* Columns whose square comes within `distance` of (x, z): how many have
 * their light (*lit), how many wait for it with their ring there (*baking)
 * and how many wait for their terrain or ring (*coming). */
void light_land_count(const light_land *l, const world *w, bool streamed, double x, double z, double distance,
                      int *lit, int *baking, int *coming);
void light_land_free(light_land *l);

#endif
