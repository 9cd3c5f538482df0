/* player: the first-person walker/flyer. Turns input axes into velocity
 * (Minecraft-like feel), integrates it in small substeps and lets
 * physics/collide keep the 0.6 x 1.8 x 0.6 box out of solid voxels.
 *
 * Conventions (world axes: +y up, right-handed, as OpenGL):
 *   yaw   in degrees, kept in [0, 360). Yaw 0 looks toward -z; yaw grows
 *         turning right, clockwise seen from above: yaw 90 looks toward +x,
 *         180 toward +z, 270 toward -x.
 *   pitch in degrees, clamped to [-89, 89]; positive looks up.
 *   forward = (sin yaw cos pitch, sin pitch, -cos yaw cos pitch),
 *   right   = (cos yaw, 0, sin yaw).
 * A zero-initialised player is valid: at the origin, walking, looking -z. */
#ifndef STRATA_PLAYER_H
#define STRATA_PLAYER_H

#include <stdbool.h>

#include "physics/collide.h"
#include "voxel/world.h"

#define PLAYER_WIDTH 0.6f
#define PLAYER_HEIGHT 1.8f
#define PLAYER_EYE_HEIGHT 1.62f

#define PLAYER_WALK_SPEED 4.3f    /* m/s */
#define PLAYER_SPRINT_SPEED 5.9f  /* m/s, forward only */
#define PLAYER_FLY_SPEED 12.0f    /* m/s, horizontal and vertical */
#define PLAYER_GRAVITY 28.0f      /* m/s^2, downward */
#define PLAYER_TERMINAL_SPEED 60.0f
#define PLAYER_JUMP_HEIGHT 1.25f  /* voxels: clears one block with room to spare */
#define PLAYER_MAX_SUBSTEP (1.0f / 120.0f)
#define PLAYER_MAX_DT 0.25f       /* longer frames are hitches: simulate only this much */
#define PLAYER_STEP_MAX 0.5f      /* voxels: the highest stair climbed on a fine ground */
#define PLAYER_AUTOSTEP 1.0f      /* voxels: the rise autostep climbs */

typedef struct player {
    /* Feet: centre of the bottom face of the box. Double, so that 10^7
     * voxels out a step is as fine as at the origin (a float's step there
     * is a whole voxel). The velocity stays float: it is small, and the
     * same float arithmetic everywhere gives the same deltas everywhere. */
    double pos[3];
    float vel[3]; /* m/s */
    float yaw, pitch; /* degrees, see above */
    bool flying;
    bool on_ground;
    bool in_muskeg; /* the box's lower half is in bog: slow, sinking, can swim up */
    /* Optional occupancy octree of the world being walked (the cutting
     * tool's terrain tree): the collision broad phase. It must be exact for
     * that world; NULL scans voxels directly, with the same results. */
    const struct octree *occupancy;
    /* Optional finer ground to walk on instead of the voxels: the enhanced
     * fragments near the player (render.mode enhanced). On it the player
     * climbs stairs up to PLAYER_STEP_MAX high and keeps its feet on a
     * ramp going down, so a ramp of fragment stairs is a walkable slope;
     * a whole voxel is still a step to jump. NULL walks on voxels. */
    const collide_grid *ground;
    /* A streamed world (voxel/stream.h): columns not generated yet are a
     * wall the player cannot enter, and a player over one (after a
     * teleport) hangs there until it comes, rather than falling into
     * terrain that is not there yet. A finite world's edge is its own wall. */
    bool hold_unready;
    /* Walking into a rise of one voxel steps up onto it (room for the box
     * above it, so never into a ceiling); two voxels stay a wall. */
    bool autostep;
} player;

typedef struct player_input {
    float forward; /* -1..1: +1 toward where the player looks (horizontally) */
    float strafe;  /* -1..1: +1 to the right */
    bool jump;     /* held: jumps again on every landing; swims up in muskeg */
    bool fly_up;   /* flying: rise (space); jump also rises */
    bool fly_down; /* flying: sink (shift) */
    bool sprint;
} player_input;

/* Advances the player by dt seconds (clamped to PLAYER_MAX_DT), in
 * substeps of at most PLAYER_MAX_SUBSTEP. The world's x/z edge is a wall
 * at every height: a player inside the world stays inside (with
 * hold_unready: every column not yet generated is such a wall). */
void player_update(player *p, const world *w, const player_input *in, float dt);

/* Adds to yaw (wrapped into [0, 360)) and pitch (clamped to +-89 so the view
 * never flips over the pole). */
void player_look(player *p, float dyaw, float dpitch);

void player_eye(const player *p, double out[3]);
/* Unit look direction. */
void player_forward(const player *p, float out[3]);

/* Puts the feet just above the highest solid voxel under the box's footprint
 * around column (x, z) (bedrock floor at y = 0 if none) and stops the player.
 * Orientation and the flying flag are kept. */
void player_spawn(player *p, const world *w, double x, double z);

/* Where a new world puts the player: standing on the ground (never on a
 * plant: leaves, logs, cacti), in the clearing nearest (x, z) within
 * PLAYER_CLEARING_SEARCH columns (a 3 x 3 patch of columns open to the
 * sky) whose view along the player's yaw is open (most of a fan of rays
 * ahead run 16 voxels free); else the nearest clearing; else on the ground
 * under the canopy at the nearest column with headroom. Set the yaw the
 * player will look along first. Returns false (and keeps the player) when
 * no column has ground. */
#define PLAYER_CLEARING_SEARCH 96
bool player_spawn_ground(player *p, const world *w, double x, double z);
/* The material a spawned player may stand on: solid, and not a plant. */
bool player_is_ground(uint8_t m);

/* The collision box the player uses, for callers that sweep or test it. */
collide_box_desc player_box(void);
/* Where that box is now, in world voxel units: [lo, hi). */
void player_bounds(const player *p, double lo[3], double hi[3]);

#endif
