/* light: seed 000's snowflake lighting on the voxel world.
 * From every lit element (a see-through voxel beside a drawn face) particles
 * wander in small random steps: a sun set drifting toward the sun, a sky set
 * whose headings are spread uniformly over all directions, each drifting
 * towards its own heading ("snowflakes falling in reverse", docs/light.md).
 * A particle that takes every step, or strays beyond the wander radius,
 * without entering an opaque voxel brings light home. The
 * result is two bytes per voxel (sun, sky), read by the renderers as a light
 * volume, so greedy-merged meshes stay merged.
 *
 * Each element's particles are seeded by its position, and a particle only
 * ever looks at voxels within the wander radius, so relighting the window an
 * edit can reach gives exactly what a whole bake would: the result is a pure
 * function of (occupancy, params), on any number of workers. Pure CPU.
 *
 * The volume is a window onto the world's unbounded plane, as the world is
 * (voxel/world.h): coordinates are global, the window covers voxels
 * [x0, x0 + sx) x [0, sy) x [z0, z0 + sz), and beyond its sides is open
 * air. A voxel's light depends on where it is, not on which window holds
 * it, so once every column within reach of a voxel is in, its light is
 * what a whole bake of those voxels gives (docs/light.md). */
#ifndef STRATA_LIGHT_H
#define STRATA_LIGHT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voxel/world.h"

struct job_pool;

#define LIGHT_DIRS 256       /* directions a step can take (table, indexed by random bytes) */
#define LIGHT_MAX_PARTICLES 256
#define LIGHT_MAX_STEPS 128
#define LIGHT_MAX_RADIUS 32.f
/* (sun + sky particles) x steps per element; past this a bake of the default
 * world takes tens of seconds, so such settings are refused. */
#define LIGHT_MAX_WORK 16384

/* What a voxel's byte stores, sun and sky alike: LIGHT_NONE where no light
 * is kept (not an element: solid, free air away from faces, or not baked
 * yet), else 1 + 254 x the element's light, so that a dark element (1) and
 * no data (0) differ and no reader has to guess which a zero is. */
#define LIGHT_NONE 0
#define LIGHT_SCALE 254.f
static inline uint8_t light_encode(float f) { return (uint8_t)(1 + lrintf(fminf(fmaxf(f, 0.f), 1.f) * LIGHT_SCALE)); }
/* An element's light in [0, 1] from its byte; 0 for LIGHT_NONE. */
static inline float light_decode(uint8_t b) { return b > LIGHT_NONE ? (float)(b - 1) / LIGHT_SCALE : 0.f; }

typedef struct light_params {
    int sun_particles, sky_particles; /* per element */
    int steps;                        /* steps a particle must survive */
    float step;                       /* step length in voxels */
    float radius;                     /* a particle this far from home has escaped */
    float sun_dir[3];                 /* towards the sun; need not be normalised */
    float jitter;                     /* how far a step strays from its heading, 0..2 */
    uint64_t seed;
} light_params;

/* The defaults the game starts with. */
light_params light_params_default(void);
/* Checks ranges and the cost bound; writes why into err. */
bool light_params_check(const light_params *p, char *err, size_t errlen);
/* Voxels an edit can influence in each direction: particles never look
 * further than this from their element (plus one for the element test). */
int light_reach(const light_params *p);

typedef struct light_stats {
    long elements;    /* lit elements in the last bake or relight */
    long particles;   /* particles traced */
    double ms;        /* wall time */
} light_stats;

typedef struct light light;

/* Light for a window of sx*sy*sz voxels (whole chunks) at origin 0; NULL
 * when out of memory or not a multiple of the chunk size. */
light *light_create(int sx, int sy, int sz);
void light_destroy(light *l);
void light_size(const light *l, int *sx, int *sy, int *sz);

/* Reads which voxels block light from the world, in the box [lo, hi)
 * (global coordinates, clamped to the window); the whole window when lo and
 * hi are NULL. First moves the volume to the world's window (light_move)
 * when the world moved. On the workers when a pool is given. */
void light_read_world(light *l, const world *w, const int lo[3], const int hi[3], struct job_pool *jobs);
/* Traces every element in [lo, hi) (global, clamped; whole window when NULL), on the
 * workers when a pool is given, and clears the non-elements there. */
void light_bake(light *l, const light_params *p, struct job_pool *jobs, const int lo[3], const int hi[3],
                light_stats *stats);
/* The same bake in the background, one job per z plane: the world stays
 * playable meanwhile. Nothing may change the light (or read_world) until the
 * task is finished. NULL when out of memory. */
typedef struct light_task light_task;
light_task *light_bake_start(light *l, const light_params *p, struct job_pool *jobs, const int lo[3],
                             const int hi[3]);
float light_task_progress(light_task *t); /* 0..1 */
bool light_task_done(light_task *t);
/* Waits for the rest, fills stats (when given) and frees the task. */
void light_task_finish(light_task *t, light_stats *stats);
/* Skips the planes not yet started, waits for the rest, frees the task. */
void light_task_cancel(light_task *t);
/* Frees a task whose pool has been destroyed (job_pool_destroy runs every
 * queued job first), without touching the pool. */
void light_task_release(light_task *t);

/* After voxels in [lo, hi) changed, or columns there arrived: reads them
 * and the voxels within twice the reach around them (all its walks test),
 * and relights the window they can reach. Writes that window (global,
 * clamped to the volume's window) into win_lo/win_hi when given. */
void light_relight(light *l, const world *w, const light_params *p, struct job_pool *jobs, const int lo[3],
                   const int hi[3], int win_lo[3], int win_hi[3], light_stats *stats);

/* Moves the window so its first voxel is (x0, z0) (multiples of
 * CHUNK_SIZE, as world_x0/world_z0 give): the light of the columns that
 * leave is cleared, and the columns that enter are empty (air) and dark
 * until they are read and relit, the way the world's own columns behave.
 * Columns that stay keep their light and their slots. The occupancy
 * bits light_read_world read are not kept: a bake reads what it walks
 * first (light_relight does; a whole bake reads the whole window).
 * When only some columns leave, their pairs are not cleared on the move:
 * light_get, bakes, relights, landings and light_hash see them dark, but
 * light_data's raw bytes keep the old light there until the column's own
 * light lands or a bake needs them cleared; a copy of the volume (the
 * texture) is read through light_fresh_bits, which leaves them out. When
 * every column leaves, all is cleared at once. */
void light_move(light *l, int x0, int z0);
/* One bit per column slot of the window (bit i of bits[i / 32], slot i =
 * sz / CHUNK_SIZE * (sx / CHUNK_SIZE) + sx / CHUNK_SIZE, as light_data lays
 * slots out): set where the slot's raw bytes are its column's own light
 * (or none yet, zero), clear where they are still a column's that left or
 * were cleared for a bake and not yet rewritten whole. A reader of the raw
 * bytes (the shaders, through the texture) takes a clear bit's cells as
 * holding no light, as light_get takes a left column's; a column a bake
 * cleared shows what the bake wrote there once its own light lands.
 * Returns the slots, or -1 when words cannot hold them. */
int light_fresh_bits(const light *l, uint32_t *bits, int words);
void light_origin(const light *l, int *x0, int *z0);
/* Slot (index in the volume) of the window's first voxel: x0 mod sx and
 * z0 mod sz. The texture stores the volume as it is, so shaders need it. */
void light_slot(const light *l, int *kx, int *kz);
/* Everything empty and dark (a new streamed window with no column yet). */
void light_clear(light *l);

/* One chunk column's light, baked away from the game's volume so a worker
 * can bake it while the main thread plays on. Light reads only voxels
 * within its reach (at most a column when light_reach <= CHUNK_SIZE), so
 * the light of column (cx, cz) is a function of its voxels and the 8
 * columns' around it: the snapshot copies those (main thread, nothing may
 * write them meanwhile), the bake reads only the snapshot (any thread),
 * and landing copies the column's light into the game's volume, equal
 * byte for byte to what a whole bake of the same voxels gives there. */
typedef struct light_column light_column;
/* Scratch for columns of cy chunks (a 3 x cy x 3 column world and its
 * volume); NULL when out of memory. */
light_column *light_column_create(int cy);
void light_column_destroy(light_column *c);
/* Copies the voxels of (cx, cz) and of its 8 neighbours within `reach`
 * (light_reach of the params it will be baked with; at most CHUNK_SIZE)
 * from w; false (and nothing to bake) when they are not all in w's window
 * or w has another height. */
bool light_column_snapshot(light_column *c, const world *w, int cx, int cz, int reach);
/* Bakes the snapshot's column; false without a snapshot, or when the
 * params reach past the ring (light_reach > CHUNK_SIZE) or past what the
 * snapshot copied. Any thread. */
bool light_column_bake(light_column *c, const light_params *p);
void light_column_where(const light_column *c, int *cx, int *cz);
/* The snapshot: a world of 3 x cy x 3 columns whose first is (cx - 1,
 * cz - 1), holding what light_column_snapshot copied (other planes hold
 * whatever an earlier snapshot left), for other bakes of the same column
 * (emit_column_fill). */
const world *light_column_ring(const light_column *c);
light_stats light_column_stats(const light_column *c);
/* Copies the baked column's light into dst, which must hold the whole
 * column; false when it does not (nothing written). */
bool light_column_land(const light_column *c, light *dst);

/* Does the material stop light? Opaque blocks and foliage do; air, the
 * placeholder and the translucent bog do not. */
bool light_blocks(uint8_t material);

/* Sun and sky bytes at a voxel (global), as stored (light_encode:
 * LIGHT_NONE for voxels that are not elements, and beside the window).
 * Above the world is open sky: full sky, full sun (255). */
void light_get(const light *l, int x, int y, int z, uint8_t *sun, uint8_t *sky);
/* The raw volume: (sun, sky) byte pairs, x fastest, then y, then z (an RG8
 * 3D texture's order), in slots: global (x, z) is at (x mod sx, z mod sz),
 * so at origin 0 the index is the coordinate. Columns a move left are not
 * cleared yet (light_move, light_fresh_bits). */
const uint8_t *light_data(const light *l);
/* Hash of both volumes (tests, determinism); clears what moves left. */
uint64_t light_hash(light *l);

#endif
