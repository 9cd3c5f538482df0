/* bodies: the voxel bodies of a world and their rigid-body dynamics.
 * Gravity, a fixed step cut into substeps, contacts found with seed 003's
 * octrees of bounding spheres (a body's octree posed in the terrain's, or
 * in another body's, octree_intersect_near), and a sequential-impulse
 * solver with restitution and sliding, rolling and spinning friction by
 * material (body_surface); a body that stays still falls asleep (the game
 * then merges it back into the world, body_merge).
 * Pure CPU. Contacts of each body are found on the workers into their own
 * lists and solved in body order, so a run is the same bit for bit on
 * any number of workers. The set and the solver are in bodies.c, the
 * contacts and rest in bodies_contact.c, the cutting tool and ray picks
 * on bodies in bodies_cut.c. See docs/physics.md. */
#ifndef STRATA_BODIES_H
#define STRATA_BODIES_H

#include <stdbool.h>

#include "core/jobs.h"
#include "physics/body.h"
#include "physics/octree.h"
#include "voxel/world.h"

typedef struct bodies_params {
    float gravity;      /* voxels / s^2, downward */
    float dt;           /* one step, seconds */
    int substeps;       /* per step: contacts are found and solved in each */
    int iterations;     /* solver passes per substep */
    float restitution;  /* bounce, for impacts faster than 2 voxels / s */
    float sleep_speed;  /* voxels / s: a body whose voxels all stay within sleep_speed * sleep_time */
    float sleep_time;   /* of where they were for sleep_time seconds is still, and sleeps */
    float max_age;      /* seconds: a body still moving then sleeps where it is */
    float lost_y;       /* a body whose centre falls below this has left the world */
} bodies_params;

bodies_params bodies_params_default(void);
/* Whether the parameters make a stable simulation; if not, why in err. */
bool bodies_params_check(const bodies_params *p, char *err, size_t errlen);

/* The fastest a body may move: under half a voxel a substep, so a voxel
 * (a sphere of radius 1/2 in the contact test) can never cross a
 * one-voxel floor between two substeps (no tunnelling). */
float bodies_max_speed(const bodies_params *p);

/* One contact: body a against body b (b < 0: the terrain), normal n from
 * b to a, the point, the depth (negative: a gap, a speculative contact). */
typedef struct bodies_contact {
    int a, b;
    float n[3], p[3], depth;
    body_surface surf; /* the two materials' mix (body_surface_mix) */
    /* solver state */
    float ra[3], rb[3], t[2][3];
    float wa[3][3], wb[3][3]; /* angular velocity per unit impulse along n, t0, t1 */
    float kn[2];              /* normal speed per unit friction impulse along t0, t1 */
    float mass_n, mass_t[2], target, jn, jt[2];
    float mass_spin, mass_roll[2], jspin, jroll[2]; /* angular: about n, t0, t1 */
} bodies_contact;

/* The pairs of voxels found near between two bodies, kept while the two
 * together have moved less than the extra reach they were found with. */
typedef struct bodies_kept {
    uint32_t id;      /* the other body */
    float at[2][7];   /* both poses then: pos xyz, rot xyzw */
    octree_pairs pairs;
    bool used;        /* met this substep (else dropped) */
} bodies_kept;

typedef struct bodies_contacts {
    bodies_contact *v;
    int count, cap;
    octree_pairs pairs;
    octree_pairs near; /* scratch of the body-pair queries */
    long pair_count; /* the octree pairs this list came from (queries made) */
    bool brute;      /* use the brute-force query (benchmarks) */
    /* bodies_step keeps a body's terrain pairs (found with a wider reach)
     * while the body has moved less than the extra reach since, the
     * terrain's octree is unchanged and the list is still this body's */
    bool kept;
    uint32_t id;
    const octree *terrain;
    uint64_t version;
    float at_pos[3], at_rot[4];
    /* and its pairs with the bodies after it (owner: the body they are of) */
    bodies_kept *kept_pairs;
    int kept_count, kept_cap;
    uint32_t kept_owner;
} bodies_contacts;

typedef struct bodies_stats {
    long pairs;      /* octree pairs the queries of the last step found (kept ones not again) */
    long contacts;   /* contacts solved in the last step */
    int awake;
} bodies_stats;

typedef struct bodies {
    body **v;
    int count, cap;
    uint32_t next_id;
    bodies_params p;
    bodies_stats stats;
    bodies_contacts *per;   /* per body: its contacts with the terrain and with the bodies
                             * after it (the workers' lists), its kept terrain pairs */
    int per_cap;
    bodies_contacts all;    /* every contact of a substep, in body order */
    struct bodies_solve *solve; /* per body: the solver's inverse mass and inertia */
    int solve_cap;
    int *isl;               /* the solver's islands: scratch kept between steps */
    size_t isl_cap;
    int *isl_order;
    size_t isl_order_cap;
    bool brute;             /* brute-force contact queries (benchmarks compare) */
    bool fresh;             /* query every contact afresh each substep, keep no pairs
                             * (tests: keeping them changes no bit) */
    bool unbounded;         /* the world goes on past its window (streamed): a body
                             * beyond the loaded terrain waits rather than falls out */
} bodies;

void bodies_init(bodies *s);
void bodies_free(bodies *s); /* destroys every body */
/* Takes b over (an id is given). False (b untouched, still the caller's)
 * when out of memory. */
bool bodies_add(bodies *s, body *b);
/* Takes body i out of the set (order kept) and gives it back. */
body *bodies_take(bodies *s, int i);
int bodies_awake(const bodies *s);
long bodies_voxels(const bodies *s);

/* One step (p.dt) of every awake body against the world (terrain: an
 * occupancy octree of w, octree_from_world or _box; solid materials only
 * block) and each other. Bodies that sleep stay where they are. A body
 * the terrain octree's box does not cover (its radius plus its reach in a
 * step, on x and z), or over a column of w not generated, is held (body
 * `held`): not moved, static to the others, its velocity kept, not asleep
 * (so never merged) until the box covers it again. In a finite world
 * (!unbounded) only the columns inside the window count: past its sides a
 * body falls out, as it always did. */
void bodies_step(bodies *s, const world *w, const octree *terrain, job_pool *jobs);

/* How far to move the box [lo, hi) (the player's, world coordinates) so no body's voxel
 * (a ball of radius 1/2, as in the contacts) overlaps it: per axis the
 * largest push each way. `carry` gets the velocity of the body that
 * pushes the box up most (the box stands on it; zero if none). Returns
 * whether any body touched the box. */
bool bodies_push_box(const bodies *s, const double lo[3], const double hi[3], float push[3], float carry[3]);

/* The cutting tool on the bodies (seed 003's cut, as on the terrain):
 * every body voxel whose centre lies in a voxel of the tool (octree
 * `tool`, placed at `pose` in the world as octree_intersect places a tool
 * over terrain) is removed, and the body cells it leaves that a face now
 * looks into take the tint `color` (the colour the faces it exposed will
 * keep when the body merges). A body cut in two or more 6-connected
 * groups becomes that many bodies (body_split: each moving as that part
 * of it moved); one cut to nothing is gone. The voxels removed are added
 * to removed[material] (NULL: not counted); returns how many. `scratch`:
 * the caller's pair list, reused. A body that cannot be split (out of
 * memory) is left whole and uncut. */
long bodies_cut(bodies *s, const octree *tool, const octree_pose *pose, const body_density *dens, uint8_t color,
                long removed[MAT_COUNT], octree_pairs *scratch);

/* The body a ray from `origin` along `dir` (any length) meets first
 * within max_dist, by its voxels (each body's octree, posed): its index,
 * or -1; dist (may be NULL) gets the distance along the normalised
 * direction. */
int bodies_raycast(const bodies *s, const double origin[3], const float dir[3], float max_dist, float *dist);

/* The contacts of body i against the terrain at its pose now, appended to
 * out (tests and benchmarks: octree against brute force). */
void bodies_terrain_contacts(const bodies *s, int i, const world *w, const octree *terrain, bodies_contacts *out);
void bodies_contacts_free(bodies_contacts *c);

#endif
