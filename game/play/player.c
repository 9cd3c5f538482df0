/* player: velocity from input, substepped integration, collision via
 * physics/collide. Tunables are gathered at the top; they were chosen to
 * feel like Minecraft's walker, not to match it exactly. */
#include "player.h"

#include <math.h>

#define PLAYER_DEG2RAD 0.017453292519943295f

/* Velocity chases its target as v += (target - v) * (1 - e^(-k h)): the same
 * feel at any frame rate. Larger k = snappier. On the ground the player
 * reaches walking speed in about 0.15 s and stops as fast; in the air
 * there is little control, so jumps keep their momentum. */
#define PLAYER_ACCEL_GROUND 20.0f
#define PLAYER_ACCEL_AIR 3.0f
#define PLAYER_ACCEL_FLY 8.0f
#define PLAYER_FLY_SPRINT 2.0f /* flying fast is for crossing a biome */

/* Muskeg is a bog, not a floor: the player sinks in slowly, wades at half
 * speed and can swim up by holding jump. */
#define PLAYER_MUSKEG_SPEED 0.5f
#define PLAYER_MUSKEG_SINK 2.5f
#define PLAYER_MUSKEG_SWIM 3.0f

/* Spawn just above the ground rather than on it, so the first update finds
 * the box free and settles it by falling a hair. */
#define PLAYER_SPAWN_MARGIN 0.01f

collide_box_desc player_box(void)
{
    return (collide_box_desc){ .size = { PLAYER_WIDTH, PLAYER_HEIGHT, PLAYER_WIDTH } };
}

void player_bounds(const player *p, double lo[3], double hi[3])
{
    const double hw = 0.5 * PLAYER_WIDTH; /* anchored at the centre of the feet */
    lo[0] = p->pos[0] - hw, hi[0] = p->pos[0] + hw;
    lo[1] = p->pos[1], hi[1] = p->pos[1] + PLAYER_HEIGHT;
    lo[2] = p->pos[2] - hw, hi[2] = p->pos[2] + hw;
}

static float player_clampf(float v, float lo, float hi)
{
    if (isnan(v)) return 0.0f; /* NaN from a broken input device reads as "no input" */
    return v < lo ? lo : v > hi ? hi : v;
}

static float player_approach(float v, float target, float k, float h)
{
    return v + (target - v) * (1.0f - expf(-k * h));
}

/* Does the lower half of the box overlap muskeg? The lower half, so that
 * standing on a bank beside the bog does not count, and wading waist-deep
 * does. */
static bool player_in_muskeg(const player *p, const world *w)
{
    /* a teleport can put the player anywhere; keep the int conversions defined */
    for (int a = 0; a < 3; a++)
        if (!(fabs(p->pos[a]) < WORLD_POS_LIMIT)) return false;
    const double hw = 0.5 * PLAYER_WIDTH;
    const int x0 = (int)floor(p->pos[0] - hw), x1 = (int)ceil(p->pos[0] + hw) - 1;
    const int z0 = (int)floor(p->pos[2] - hw), z1 = (int)ceil(p->pos[2] + hw) - 1;
    const int y0 = (int)floor(p->pos[1]), y1 = (int)ceil(p->pos[1] + 0.5 * PLAYER_HEIGHT) - 1;
    for (int y = y0; y <= y1; y++)
        for (int z = z0; z <= z1; z++)
            for (int x = x0; x <= x1; x++)
                if (world_get(w, x, y, z) == MAT_MUSKEG) return true;
    return false;
}

/* The world's x/z edge is a wall at every height: a box that is inside the
 * world on an axis never crosses its edge on that axis (it stops a skin
 * short), so the player cannot walk or fly off the world into the endless
 * bedrock plain below it. A box already outside (a teleport) is not pulled
 * back; it can walk in, and then stays. */
/* Every column the box [x0, x1] x [z0, z1] touches is generated. */
static bool player_columns_ready(const world *w, double x0, double x1, double z0, double z1)
{
    int c0 = (int)floor(x0) >> CHUNK_BITS, c1 = (int)floor(x1) >> CHUNK_BITS;
    int d0 = (int)floor(z0) >> CHUNK_BITS, d1 = (int)floor(z1) >> CHUNK_BITS;
    for (int cz = d0; cz <= d1; cz++)
        for (int cx = c0; cx <= c1; cx++)
            if (world_column_state(w, cx, cz) != WORLD_COL_READY) return false;
    return true;
}

/* hold_unready: a column that is not generated yet is a wall, and a box
 * over one (a teleport) neither falls nor moves until it comes. */
static void player_hold(const player *p, const world *w, float delta[3], bool blocked[3])
{
    const double hw = 0.5 * PLAYER_WIDTH, x = p->pos[0], z = p->pos[2];
    if (!player_columns_ready(w, x - hw, x + hw, z - hw, z + hw)) {
        for (int a = 0; a < 3; a++) delta[a] = 0.0f, blocked[a] = true;
        return;
    }
    if (!player_columns_ready(w, x - hw + delta[0], x + hw + delta[0], z - hw, z + hw)) delta[0] = 0, blocked[0] = true;
    if (!player_columns_ready(w, x - hw + delta[0], x + hw + delta[0], z - hw + delta[2], z + hw + delta[2]))
        delta[2] = 0, blocked[2] = true;
}

static void player_border(const player *p, const world *w, float delta[3], bool blocked[3])
{
    if (p->hold_unready) {
        player_hold(p, w, delta, blocked);
        return;
    }
    /* the finite world is at the origin and at most 1024 wide: float is
     * exact enough here, and keeps the edge where it always was */
    const float hw = 0.5f * PLAYER_WIDTH;
    for (int a = 0; a <= 2; a += 2) {
        const float size = (float)(a == 0 ? w->sx : w->sz), lo = (float)p->pos[a] - hw, hi = (float)p->pos[a] + hw;
        if (delta[a] < 0 && lo > -COLLIDE_SKIN && lo + delta[a] < COLLIDE_SKIN) {
            delta[a] = lo > COLLIDE_SKIN ? COLLIDE_SKIN - lo : 0.0f;
            blocked[a] = true;
        } else if (delta[a] > 0 && hi < size + COLLIDE_SKIN && hi + delta[a] > size - COLLIDE_SKIN) {
            delta[a] = hi < size - COLLIDE_SKIN ? size - COLLIDE_SKIN - hi : 0.0f;
            blocked[a] = true;
        }
    }
}

/* The highest stair on a grid: two cells (a ramp's stair is one; the
 * strata of thresholds 3 and 4 make some of two), at most PLAYER_STEP_MAX,
 * so a whole voxel stays a step to jump at every factor. */
static float player_stair(const collide_grid *g)
{
    const float s = 2.0f / (float)g->scale;
    return s < PLAYER_STEP_MAX ? s : PLAYER_STEP_MAX;
}

/* A box inside the fragments (they grow above the voxels it stood on: the
 * mode was switched, or an edit re-enhanced the ground under it) is lifted
 * onto them, a cell at a time up to a voxel and a stair: collision only
 * ever lets a box out of what it overlaps, never up through it. */
static void player_surface(player *p, const world *w, const collide_grid *g)
{
    double lo[3], hi[3];
    player_bounds(p, lo, hi);
    const float cell = 1.0f / (float)g->scale;
    for (int k = 0; k * cell <= 1.0f + PLAYER_STEP_MAX; k++) {
        double l[3] = { lo[0], lo[1] + (float)k * cell + COLLIDE_SKIN, lo[2] };
        double h[3] = { hi[0], hi[1] + (float)k * cell + COLLIDE_SKIN, hi[2] };
        if (collide_grid_box_hits(w, g, l, h)) continue;
        if (k) p->pos[1] = l[1];
        return;
    }
}

/* Moves the box by delta against the voxels, or against p->ground. On the
 * ground, walking: a horizontal move stopped by a stair is tried again from
 * a stair higher (up, across, back down onto it) and kept if it gets
 * further; a move that walks off a stair is put back down onto the ground
 * below it when that is within a stair, instead of falling (and hopping)
 * down a ramp. */
/* One move of the box against what the player walks on: the voxels, or
 * the fragments of p->ground. */
static void player_sweep(const player *p, const world *w, double pos[3], const float d[3], collide_result *r)
{
    const collide_box_desc box = player_box();
    if (p->ground) collide_move_grid(w, p->ground, pos, &box, d, r);
    else collide_move_octree(w, p->occupancy, pos, &box, d, r);
}

/* Autostep: a walking move stopped across is tried again a voxel higher
 * (up, across, down onto the rise) and kept when the rise was reached:
 * the box rose the whole voxel (no ceiling), got further across and
 * stands on something after coming down. */
static void player_autostep(player *p, const world *w, const double start[3], const float delta[3],
                            collide_result *r)
{
    const float rise = PLAYER_AUTOSTEP + 2.0f * COLLIDE_SKIN;
    double q[3] = { start[0], start[1], start[2] };
    collide_result up, across, down;
    player_sweep(p, w, q, (const float[3]){ 0, rise, 0 }, &up);
    if (up.moved[1] < rise - 1e-4f) return; /* a ceiling: no room to step up */
    player_sweep(p, w, q, (const float[3]){ delta[0], 0, delta[2] }, &across);
    player_sweep(p, w, q, (const float[3]){ 0, -rise, 0 }, &down);
    const float dx0 = (float)(p->pos[0] - start[0]), dz0 = (float)(p->pos[2] - start[2]);
    const float dx1 = (float)(q[0] - start[0]), dz1 = (float)(q[2] - start[2]);
    if (!down.on_ground || q[1] < start[1] + 0.5 || dx1 * dx1 + dz1 * dz1 <= dx0 * dx0 + dz0 * dz0 + 1e-8f) return;
    for (int a = 0; a < 3; a++) p->pos[a] = q[a], r->moved[a] = (float)(q[a] - start[a]);
    r->blocked[0] = across.blocked[0];
    r->blocked[2] = across.blocked[2];
    r->blocked[1] = true;
    r->on_ground = true;
}

static void player_move(player *p, const world *w, const float delta[3], collide_result *r)
{
    const collide_box_desc box = player_box();
    if (!p->ground) {
        const double start[3] = { p->pos[0], p->pos[1], p->pos[2] };
        collide_move_octree(w, p->occupancy, p->pos, &box, delta, r);
        if (p->autostep && p->on_ground && !p->flying && (r->blocked[0] || r->blocked[2]))
            player_autostep(p, w, start, delta, r);
        return;
    }
    const collide_grid *g = p->ground;
    player_surface(p, w, g);
    const double start[3] = { p->pos[0], p->pos[1], p->pos[2] };
    const bool walking = p->on_ground && !p->flying && delta[1] <= 0;
    collide_move_grid(w, g, p->pos, &box, delta, r);
    if (!walking) return;
    const float stair = player_stair(g);
    if (r->blocked[0] || r->blocked[2]) {
        double q[3] = { start[0], start[1], start[2] };
        collide_result up, across, down;
        collide_move_grid(w, g, q, &box, (const float[3]){ 0, stair, 0 }, &up);
        collide_move_grid(w, g, q, &box, (const float[3]){ delta[0], 0, delta[2] }, &across);
        collide_move_grid(w, g, q, &box, (const float[3]){ 0, -up.moved[1], 0 }, &down);
        const float dx0 = (float)(p->pos[0] - start[0]), dz0 = (float)(p->pos[2] - start[2]);
        const float dx1 = (float)(q[0] - start[0]), dz1 = (float)(q[2] - start[2]);
        if (dx1 * dx1 + dz1 * dz1 > dx0 * dx0 + dz0 * dz0 + 1e-8f) {
            for (int a = 0; a < 3; a++) p->pos[a] = q[a];
            r->blocked[0] = across.blocked[0];
            r->blocked[2] = across.blocked[2];
            r->blocked[1] = down.blocked[1];
            r->on_ground = down.on_ground;
            for (int a = 0; a < 3; a++) r->moved[a] = (float)(q[a] - start[a]);
        }
        if (p->autostep && (r->blocked[0] || r->blocked[2])) player_autostep(p, w, start, delta, r);
    } else if (!r->on_ground) {
        double q[3] = { p->pos[0], p->pos[1], p->pos[2] };
        collide_result down;
        collide_move_grid(w, g, q, &box, (const float[3]){ 0, -stair, 0 }, &down);
        if (down.on_ground) {
            r->moved[1] += (float)(q[1] - p->pos[1]);
            p->pos[1] = q[1];
            r->on_ground = true;
            r->blocked[1] = true;
        }
    }
}

static void player_step(player *p, const world *w, const player_input *in, float h)
{
    const float yaw = p->yaw * PLAYER_DEG2RAD;
    const float f = player_clampf(in->forward, -1, 1), s = player_clampf(in->strafe, -1, 1);
    /* horizontal forward (sin, -cos) and right (cos, sin), see player.h */
    float wx = sinf(yaw) * f + cosf(yaw) * s;
    float wz = -cosf(yaw) * f + sinf(yaw) * s;
    const float len = sqrtf(wx * wx + wz * wz);
    if (len > 1.0f) wx /= len, wz /= len; /* diagonals are not faster */

    float dy;
    if (p->flying) {
        const float speed = PLAYER_FLY_SPEED * (in->sprint ? PLAYER_FLY_SPRINT : 1.0f);
        const float up = (float)((in->jump || in->fly_up) - in->fly_down);
        p->vel[0] = player_approach(p->vel[0], wx * speed, PLAYER_ACCEL_FLY, h);
        p->vel[2] = player_approach(p->vel[2], wz * speed, PLAYER_ACCEL_FLY, h);
        p->vel[1] = player_approach(p->vel[1], up * PLAYER_FLY_SPEED, PLAYER_ACCEL_FLY, h);
        dy = p->vel[1] * h;
    } else {
        float speed = in->sprint && f > 0 ? PLAYER_SPRINT_SPEED : PLAYER_WALK_SPEED;
        if (p->in_muskeg) speed *= PLAYER_MUSKEG_SPEED;
        const float k = p->on_ground || p->in_muskeg ? PLAYER_ACCEL_GROUND : PLAYER_ACCEL_AIR;
        p->vel[0] = player_approach(p->vel[0], wx * speed, k, h);
        p->vel[2] = player_approach(p->vel[2], wz * speed, k, h);

        /* v0 = sqrt(2 g H) peaks at exactly H because the fall below is
         * integrated with the average of the old and new velocity (exact
         * for constant gravity), not with the new one alone. */
        if (in->jump && p->on_ground) p->vel[1] = sqrtf(2.0f * PLAYER_GRAVITY * PLAYER_JUMP_HEIGHT);
        const float v0 = p->vel[1];
        float v1 = v0 - PLAYER_GRAVITY * h;
        if (p->in_muskeg) {
            if (in->jump && v1 < PLAYER_MUSKEG_SWIM) v1 = PLAYER_MUSKEG_SWIM;
            if (v1 < -PLAYER_MUSKEG_SINK) v1 = -PLAYER_MUSKEG_SINK;
        }
        if (v1 < -PLAYER_TERMINAL_SPEED) v1 = -PLAYER_TERMINAL_SPEED;
        p->vel[1] = v1;
        dy = 0.5f * (v0 + v1) * h;
    }

    float delta[3] = { p->vel[0] * h, dy, p->vel[2] * h };
    bool border[3] = { false, false, false };
    player_border(p, w, delta, border);
    collide_result r;
    player_move(p, w, delta, &r);
    /* A blocked axis loses its speed: no pressing into walls, no bouncing
     * off the floor, and a head bump ends the jump. */
    for (int a = 0; a < 3; a++)
        if (r.blocked[a] || border[a]) p->vel[a] = 0.0f;
    p->on_ground = r.on_ground;
    p->in_muskeg = player_in_muskeg(p, w);
}

void player_update(player *p, const world *w, const player_input *in, float dt)
{
    if (!(dt > 0)) return; /* also refuses NaN */
    if (dt > PLAYER_MAX_DT) dt = PLAYER_MAX_DT;
    const int n = (int)ceilf(dt / PLAYER_MAX_SUBSTEP);
    const float h = dt / (float)n;
    for (int i = 0; i < n; i++) player_step(p, w, in, h);
}

void player_look(player *p, float dyaw, float dpitch)
{
    if (isfinite(dyaw)) {
        float y = fmodf(p->yaw + dyaw, 360.0f);
        if (y < 0) y += 360.0f;
        if (y >= 360.0f) y = 0.0f; /* -tiny + 360 can round to 360 */
        p->yaw = y;
    }
    if (isfinite(dpitch)) p->pitch = player_clampf(p->pitch + dpitch, -89.0f, 89.0f);
}

void player_eye(const player *p, double out[3])
{
    out[0] = p->pos[0];
    out[1] = p->pos[1] + PLAYER_EYE_HEIGHT;
    out[2] = p->pos[2];
}

void player_forward(const player *p, float out[3])
{
    const float yaw = p->yaw * PLAYER_DEG2RAD, pitch = p->pitch * PLAYER_DEG2RAD;
    out[0] = sinf(yaw) * cosf(pitch);
    out[1] = sinf(pitch);
    out[2] = -cosf(yaw) * cosf(pitch);
}

void player_spawn(player *p, const world *w, double x, double z)
{
    /* Every column under the footprint, not just the centre one: spawning
     * beside a tree trunk must not put the box inside it. */
    if (!(fabs(x) < WORLD_POS_LIMIT) || !(fabs(z) < WORLD_POS_LIMIT)) return; /* NaN or absurd: keep the player */
    const double hw = 0.5 * PLAYER_WIDTH;
    const int x0 = (int)floor(x - hw), x1 = (int)ceil(x + hw) - 1;
    const int z0 = (int)floor(z - hw), z1 = (int)ceil(z + hw) - 1;
    int top = -1; /* no solid voxel: the bedrock floor's top is y = 0 */
    for (int cz = z0; cz <= z1; cz++)
        for (int cx = x0; cx <= x1; cx++) {
            const int s = world_surface_y(w, cx, cz);
            if (s > top) top = s;
        }
    p->pos[0] = x;
    p->pos[1] = (double)((float)(top + 1) + PLAYER_SPAWN_MARGIN);
    p->pos[2] = z;
    p->vel[0] = p->vel[1] = p->vel[2] = 0.0f;
    p->on_ground = false;
    p->in_muskeg = player_in_muskeg(p, w);
}

bool player_is_ground(uint8_t m)
{
    return material_get(m)->solid && m != MAT_OAK_LEAVES && m != MAT_FIR_LEAVES && m != MAT_OAK_LOG &&
           m != MAT_FIR_LOG && m != MAT_CACTUS;
}

/* A column open to the sky: its highest solid voxel is ground. */
static bool player_column_open(const world *w, int x, int z)
{
    if (!world_voxel_ready(w, x, z)) return false; /* the window's, wherever it is, generated */
    int s = world_surface_y(w, x, z);
    return s < 0 || player_is_ground(world_get(w, x, s, z));
}

/* The highest ground voxel of a column with room for the player above it
 * (nothing solid in the next two voxels: the box is 1.8 high), or -1. */
static int player_column_floor(const world *w, int x, int z)
{
    if (!world_voxel_ready(w, x, z)) return -1;
    for (int y = world_surface_y(w, x, z); y >= 0; y--)
        if (player_is_ground(world_get(w, x, y, z)) && !material_get(world_get(w, x, y + 1, z))->solid &&
            !material_get(world_get(w, x, y + 2, z))->solid)
            return y;
    return -1;
}

/* Visits columns in rings of growing Chebyshev radius around (cx, cz), in a
 * fixed order, until `ok` accepts one. */
static bool player_search(const world *w, const player *p, int cx, int cz, int radius,
                          bool (*ok)(const world *, const player *, int, int), int *ox, int *oz)
{
    for (int r = 0; r <= radius; r++)
        for (int dz = -r; dz <= r; dz++)
            for (int dx = -r; dx <= r; dx += (dz == -r || dz == r) ? 1 : 2 * r) {
                if (ok(w, p, cx + dx, cz + dz)) {
                    *ox = cx + dx, *oz = cz + dz;
                    return true;
                }
                if (r == 0) break;
            }
    return false;
}

static bool player_clearing(const world *w, const player *p, int x, int z)
{
    (void)p;
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++)
            if (!player_column_open(w, x + dx, z + dz)) return false;
    return player_column_floor(w, x, z) >= 0;
}

/* A clearing whose view is open: from the eye of a player standing there,
 * of a fan of rays about the player's yaw (PLAYER_SPAWN_FAN_YAW either
 * side, from a little below the horizon to a little above), at least
 * three in four run PLAYER_SPAWN_VIEW voxels before meeting anything
 * solid: ground ahead to walk onto, not a wall of leaves at arm's length. */
#define PLAYER_SPAWN_VIEW 16.0f
#define PLAYER_SPAWN_FAN_YAW 30.0f
static bool player_open_view(const world *w, const player *p, int x, int z)
{
    if (!player_clearing(w, p, x, z)) return false;
    const double eye[3] = { x + 0.5, player_column_floor(w, x, z) + 1.0 + PLAYER_EYE_HEIGHT, z + 0.5 };
    int open = 0, rays = 0;
    for (int i = -2; i <= 2; i++)
        for (int j = 0; j < 3; j++, rays++) {
            const float yaw = (p->yaw + (float)i * 0.5f * PLAYER_SPAWN_FAN_YAW) * PLAYER_DEG2RAD;
            const float pitch = (-5.0f + 10.0f * (float)j) * PLAYER_DEG2RAD;
            const float d[3] = { sinf(yaw) * cosf(pitch), sinf(pitch), -cosf(yaw) * cosf(pitch) };
            open += !collide_raycast(w, eye, d, PLAYER_SPAWN_VIEW, NULL, NULL, NULL);
        }
    return 4 * open >= 3 * rays;
}

static bool player_has_floor(const world *w, const player *p, int x, int z)
{
    (void)p;
    return player_column_floor(w, x, z) >= 0;
}

bool player_spawn_ground(player *p, const world *w, double x, double z)
{
    if (!(fabs(x) < WORLD_POS_LIMIT) || !(fabs(z) < WORLD_POS_LIMIT)) return false;
    int cx = (int)floor(x), cz = (int)floor(z), gx, gz;
    if (!player_search(w, p, cx, cz, PLAYER_CLEARING_SEARCH, player_open_view, &gx, &gz) &&
        !player_search(w, p, cx, cz, PLAYER_CLEARING_SEARCH, player_clearing, &gx, &gz) &&
        !player_search(w, p, cx, cz, w->sx > w->sz ? w->sx : w->sz, player_has_floor, &gx, &gz))
        return false;
    /* the box (0.6 wide) at the column's centre stays inside the column */
    p->pos[0] = gx + 0.5;
    p->pos[1] = (double)((float)(player_column_floor(w, gx, gz) + 1) + PLAYER_SPAWN_MARGIN);
    p->pos[2] = gz + 0.5;
    p->vel[0] = p->vel[1] = p->vel[2] = 0.0f;
    p->on_ground = false;
    p->in_muskeg = player_in_muskeg(p, w);
    return true;
}
