/* enhance: voxel detail enhancement (seed 000, Smith 2011). Coarse voxels
 * the player edits become fine fragments for display: recursive subdivision
 * (2x per level, Scale2x-like) or direct resampling (random probes, any
 * integer factor). Only surface voxels are enhanced; results are cached by
 * neighbourhood configuration. Pure CPU; safe on worker threads. */
#ifndef STRATA_ENHANCE_H
#define STRATA_ENHANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voxel/world.h"

typedef enum enhance_operator { ENHANCE_SUBDIVIDE = 0, ENHANCE_RESAMPLE = 1 } enhance_operator;

#define ENHANCE_MAX_LEVELS 4   /* 16x: the paper's Figure 1 */
#define ENHANCE_MAX_FACTOR 16  /* a fragment row is one uint16 */
#define ENHANCE_MAX_PROBES 1024
#define ENHANCE_MAX_SPREAD 1.5f /* keeps the probe reach within 2 voxels (a 5^3 window) */
#define ENHANCE_SUBUNIT 256  /* probe offsets are in 1/(2F * 256) of a voxel */
#define ENHANCE_PAD 2          /* window radius the input carries around a chunk */

typedef struct enhance_params {
    enhance_operator op;
    int levels;        /* subdivision: factor = 2^levels, 1..4 */
    int thr_low;       /* threshold below `altitude` (paper: 1) */
    int thr_even;      /* above it, for fragments with an even altitude (paper: 3) */
    int thr_odd;       /* ... and odd (paper: 4) */
    int altitude;      /* in voxels: fragments whose centre is below use thr_low */
    int factor;        /* resampling: any integer 1..16 */
    int probes;        /* resampling: probe count */
    float spread;      /* resampling: offsets in [-spread, spread] voxels */
    uint32_t probe_seed;
    int percent;       /* resampling: on when more than percent% of probes hit solid */
    /* The material-aware rules (seed 000 section 5; docs/enhance.md). Off,
     * the fields below are unused and the fragments are exactly the paper's.
     * On, a voxel's fragments follow its source material's own threshold
     * pattern (even / odd fragment heights; the altitude rule is not used)
     * or probe percentage, and fragments grown into an empty voxel count
     * only neighbours of their material's class (material_table). */
    bool materials;
    uint8_t mat_even[MAT_COUNT], mat_odd[MAT_COUNT]; /* 1..4 */
    uint8_t mat_percent[MAT_COUNT];                  /* 0..99 */
} enhance_params;

/* The paper's settings: subdivision 4x, thresholds 1 / 3,4 alternating,
 * materials off; the per-material columns from material_table. */
enhance_params enhance_params_default(void);
/* Fragments per voxel edge. */
int enhance_factor(const enhance_params *p);
/* Voxels around a source voxel that can change its fragments (1 or 2). */
int enhance_radius(const enhance_params *p);
/* Refuses out-of-range parameters with the range in err. */
bool enhance_params_check(const enhance_params *p, char *err, size_t errlen);

/* One enhanced voxel: its fragments are rows[row .. row + F*F), row index
 * fy * F + fz, bit fx. Fragments take the material of the source voxel (an
 * empty source takes that of a solid neighbour). */
typedef struct enhance_voxel {
    uint16_t index;   /* CHUNK_INDEX within the chunk */
    uint8_t material, tint;
    uint32_t row;
} enhance_voxel;

/* A chunk's fragments: only the voxels whose window is mixed. A voxel not
 * listed is all-solid (if its material is solid) or all-empty. */
typedef struct enhance_chunk {
    int factor;
    int count, cap;
    enhance_voxel *vox;    /* sorted by index */
    uint16_t *rows;
    size_t row_count, row_cap;
    uint64_t fragments;    /* fragments on in the listed voxels */
    int skipped;           /* voxels skipped as uniformly solid or empty */
    uint32_t skip[CHUNK_VOLUME / 32]; /* which ones, so updates recount exactly */
} enhance_chunk;
void enhance_chunk_free(enhance_chunk *c);

/* Input: a chunk's materials with ENHANCE_PAD voxels of border. */
#define ENHANCE_IN (CHUNK_SIZE + 2 * ENHANCE_PAD)
#define ENHANCE_IN_INDEX(x, y, z) \
    (((x) + ENHANCE_PAD) + ((z) + ENHANCE_PAD) * ENHANCE_IN + ((y) + ENHANCE_PAD) * ENHANCE_IN * ENHANCE_IN)
typedef struct enhance_input {
    int cx, cy, cz;   /* chunk coordinates (altitude needs the world y) */
    uint8_t vox[ENHANCE_IN * ENHANCE_IN * ENHANCE_IN];
    uint8_t tint[ENHANCE_IN * ENHANCE_IN * ENHANCE_IN];
} enhance_input;
void enhance_gather(const world *w, int cx, int cy, int cz, enhance_input *in);
static inline bool enhance_solid(uint8_t m) { return m != MAT_AIR; }

/* Probe pattern + cache. Shared by worker threads (the cache is locked). */
typedef struct enhance_ctx enhance_ctx;
/* NULL with a message when the parameters are out of range or the cache
 * would not fit its memory limit. */
enhance_ctx *enhance_create(const enhance_params *p, char *err, size_t errlen);
void enhance_destroy(enhance_ctx *e);
const enhance_params *enhance_ctx_params(const enhance_ctx *e);
/* Probe offsets in 1/(2F * ENHANCE_SUBUNIT) voxel units, xyz triples (the GPU uploads these). */
const int32_t *enhance_probes(const enhance_ctx *e);

typedef struct enhance_stats {
    uint64_t lookups, hits;
    int cache_entries;
    size_t cache_bytes;
} enhance_stats;
void enhance_get_stats(enhance_ctx *e, enhance_stats *out);

/* Enhances every voxel of the chunk; surface_only = false also enhances
 * voxels with uniform windows (for tests: the result must not change). */
void enhance_chunk_build(enhance_ctx *e, const enhance_input *in, bool surface_only, enhance_chunk *out);
/* Re-enhances only voxels within the radius of the edited box (chunk-local,
 * inclusive, may extend beyond the chunk); the rest of `c` is kept. */
void enhance_chunk_update(enhance_ctx *e, const enhance_input *in, const int box_lo[3], const int box_hi[3],
                          enhance_chunk *c);

/* Building a chunk from per-voxel results (the GPU path uses these too):
 * add applies the listing rule above; rows NULL marks the voxel skipped. */
void enhance_chunk_reset(const enhance_ctx *e, enhance_chunk *out);
void enhance_chunk_add(const enhance_ctx *e, const enhance_input *in, int x, int y, int z, const uint16_t *rows,
                       enhance_chunk *out);
void enhance_chunk_finish(enhance_chunk *out);

/* The window of a voxel as bits, x fastest, then z, then y, over
 * (2r+1)^3; returns false when the window is uniform (all solid or empty). */
bool enhance_window(const enhance_input *in, int x, int y, int z, int r, uint64_t bits[2]);
/* Fragments of one voxel from its window (no cache): rows F*F. `band` is
 * the voxel's y minus the altitude (subdivision thresholds). The reference
 * the cache, the lookup table and the GPU are checked against. */
void enhance_eval(const enhance_ctx *e, const uint64_t bits[2], int band, uint16_t *rows);
/* The fragments of voxel (x, y, z) of `in` exactly as a chunk build makes
 * them (window, source material, its class and thresholds when materials
 * are on), without the cache; returns false, rows untouched, when the
 * window is uniform. The reference the compute shaders are checked against. */
bool enhance_voxel_eval(const enhance_ctx *e, const enhance_input *in, int x, int y, int z, uint16_t *rows);
/* Distinct rule sets the material columns make (1 with materials off): the
 * paper's 128-entry table exists once per rule set and altitude band. */
int enhance_rule_sets(const enhance_ctx *e);
/* The rule of every material byte for the compute shaders: class | even << 8
 * | odd << 16 | percent << 24 (the fields the context's operator reads). */
void enhance_rule_table(const enhance_ctx *e, uint32_t out[256]);

/* The paper's 128-entry table: centre + 6 face neighbours (bit 0 centre,
 * then -x +x -y +y -z +z) to the fragment set at `levels` levels, with the
 * edge and corner voxels of the window empty. The centre and face
 * neighbours fix the first level exactly; deeper levels also see the
 * diagonal voxels, which the table cannot know. rows: 128 * F*F. */
void enhance_lut_build(const enhance_ctx *e, int band, uint16_t *rows);

/* Fragment (fx, fy, fz) of the chunk, chunk-local fragment coordinates,
 * looking up listed voxels and treating the rest as uniform. */
bool enhance_chunk_fragment(const enhance_chunk *c, const enhance_input *in, int fx, int fy, int fz);
/* The same fragment's material (MAT_AIR when it is off): what collision
 * asks, since some materials do not block (material_get()->solid). */
uint8_t enhance_chunk_fragment_material(const enhance_chunk *c, const enhance_input *in, int fx, int fy, int fz);

#endif
