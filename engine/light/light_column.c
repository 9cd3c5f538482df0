/* light_column: one streamed column's light, baked by a worker from a copy
 * of its ring of 8 columns (light.h). Split from light.c, which holds the
 * volume and the walk both use. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/timer.h"
#include "light/light_internal.h"

struct light_column {
    int cx, cz;      /* the column */
    int reach;       /* the snapshot's: planes on z this far from the column were copied */
    bool ready;      /* a snapshot was taken */
    world *ring;     /* its voxels and the 8 columns' around it */
    light *vol;      /* over the ring */
    /* per (x, z) of the ring: 1 + the highest opaque voxel (0: none);
     * then the most of it around each column, by rows, and hcut (walk) */
    short tops[3 * CHUNK_SIZE][3 * CHUNK_SIZE], rows[3 * CHUNK_SIZE][CHUNK_SIZE];
    float hcut[CHUNK_SIZE * CHUNK_SIZE];
    trace_ctx c;     /* tables kept while the params stay the same */
    bool tables;
    long elements[CHUNK_SIZE], particles[CHUNK_SIZE];
    light_stats stats;
};

light_column *light_column_create(int cy)
{
    light_column *lc = calloc(1, sizeof *lc);
    if (!lc) return NULL;
    lc->ring = world_create_window(0, 0, 3, cy, 3);
    lc->vol = light_create(3 * CHUNK_SIZE, cy * CHUNK_SIZE, 3 * CHUNK_SIZE);
    if (!lc->ring || !lc->vol) {
        light_column_destroy(lc);
        return NULL;
    }
    return lc;
}

void light_column_destroy(light_column *lc)
{
    if (!lc) return;
    world_destroy(lc->ring);
    light_destroy(lc->vol);
    free(lc);
}

bool light_column_snapshot(light_column *lc, const world *w, int cx, int cz, int reach)
{
    lc->ready = false;
    if (w->cy != lc->ring->cy) return false;
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++)
            if (!world_chunk_valid(w, cx + dx, 0, cz + dz)) return false;
    /* every byte the bake reads is copied below: no clear first */
    if (world_move_scratch(lc->ring, cx - 1, cz - 1) < 0) return false;
    reach = reach < 0 ? 0 : reach > CHUNK_SIZE ? CHUNK_SIZE : reach;
    /* Voxels only (tints do not stop light), and of the columns before and
     * after on z only the planes within reach: the bake reads the ring's
     * z within reach of the column, in whole rows of x (light_read_box),
     * so that is all it can see. A plane of a chunk's y-slice is one run. */
    for (int dz = -1; dz <= 1; dz++) {
        const int z0 = dz < 0 ? CHUNK_SIZE - reach : 0, z1 = dz > 0 ? reach : CHUNK_SIZE;
        if (z1 <= z0) continue;
        for (int dx = -1; dx <= 1; dx++)
            for (int y = 0; y < w->cy; y++) {
                uint8_t *dst = world_chunk(lc->ring, cx + dx, y, cz + dz)->vox;
                const uint8_t *src = world_chunk(w, cx + dx, y, cz + dz)->vox;
                if (z0 == 0 && z1 == CHUNK_SIZE) {
                    memcpy(dst, src, CHUNK_VOLUME);
                    continue;
                }
                for (int ly = 0; ly < CHUNK_SIZE; ly++)
                    memcpy(dst + CHUNK_INDEX(0, ly, z0), src + CHUNK_INDEX(0, ly, z0), (size_t)(z1 - z0) * CHUNK_SIZE);
            }
    }
    lc->cx = cx, lc->cz = cz, lc->reach = reach;
    lc->ready = true;
    return true;
}

static bool params_equal(const light_params *a, const light_params *b)
{
    return a->sun_particles == b->sun_particles && a->sky_particles == b->sky_particles && a->steps == b->steps &&
           a->step == b->step && a->radius == b->radius && a->sun_dir[0] == b->sun_dir[0] &&
           a->sun_dir[1] == b->sun_dir[1] && a->sun_dir[2] == b->sun_dir[2] && a->jitter == b->jitter &&
           a->seed == b->seed;
}

/* hcut of the centre column's voxels (trace_ctx): the highest top
 * within r columns on x and z, for the planes [z0, z1) read. Columns
 * outside them hold an older bake's tops: the walk tests none of them. */
static void column_cuts(light_column *lc, int r, int z0, int z1)
{
    const light *l = lc->vol;
    const int n = 3 * CHUNK_SIZE;
    for (int z = z0; z < z1; z++) {
        /* from the top down, each column's first opaque voxel, a chunk row at a time */
        for (int k = 0; k < 3; k++) {
            uint32_t pending = 0xffffffffu;
            for (int y = l->sy - 1; y >= 0 && pending; y--) {
                size_t i = vidx(l, k * CHUNK_SIZE, y, z);
                uint32_t hit = (uint32_t)(l->opaque[i >> 6] >> (i & 63)) & pending;
                for (uint32_t h = hit; h; h &= h - 1) lc->tops[z][k * CHUNK_SIZE + __builtin_ctz(h)] = (short)(y + 1);
                pending &= ~hit;
            }
            for (uint32_t h = pending; h; h &= h - 1) lc->tops[z][k * CHUNK_SIZE + __builtin_ctz(h)] = 0;
        }
        for (int x = 0; x < CHUNK_SIZE; x++) {
            short m = 0;
            for (int d = -r; d <= r; d++) {
                int xx = CHUNK_SIZE + x + d;
                if (xx >= 0 && xx < n && lc->tops[z][xx] > m) m = lc->tops[z][xx];
            }
            lc->rows[z][x] = m;
        }
    }
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int x = 0; x < CHUNK_SIZE; x++) {
            short m = 0;
            for (int d = -r; d <= r; d++) {
                int zz = CHUNK_SIZE + z + d;
                if (zz >= z0 && zz < z1 && lc->rows[zz][x] > m) m = lc->rows[zz][x];
            }
            lc->hcut[z * CHUNK_SIZE + x] = (float)m;
        }
}

bool light_column_bake(light_column *lc, const light_params *p)
{
    const int reach = light_reach(p);
    if (!lc->ready || reach > CHUNK_SIZE || reach > lc->reach) return false;
    uint64_t t0 = timer_ns();
    light *l = lc->vol;
    /* The column's light reads voxels within reach of it only: those are
     * read (whole chunk rows in x), the rest of the volume is never looked
     * at, so it neither moves nor is cleared (light_place). */
    light_place(l, world_x0(lc->ring), world_z0(lc->ring));
    const int lo[3] = { lc->cx * CHUNK_SIZE, 0, lc->cz * CHUNK_SIZE };
    const int hi[3] = { lo[0] + CHUNK_SIZE, l->sy, lo[2] + CHUNK_SIZE };
    const int rlo[3] = { lo[0] - reach, 0, lo[2] - reach }, rhi[3] = { hi[0] + reach, l->sy, hi[2] + reach };
    light_read_box(l, lc->ring, rlo, rhi, NULL);
    trace_ctx *c = &lc->c;
    if (!lc->tables || !params_equal(&c->params, p)) light_trace_tables(c, p);
    lc->tables = true;
    /* the walk tests voxels within reach_max of its element on each axis;
     * when the walk's steps, not its radius, bound them, those lie inside
     * what was read (reach > reach_max): else no cuts */
    const int r = (int)ceilf(c->reach_max);
    c->hcut = NULL;
    if (c->r2 < 0 && r < reach) {
        column_cuts(lc, r, CHUNK_SIZE - reach, 2 * CHUNK_SIZE + reach);
        c->hcut = lc->hcut;
    }
    light_trace_window(c, l, lo, hi);
    c->elements = lc->elements, c->particles = lc->particles;
    lc->stats = (light_stats){ 0 };
    for (int k = 0; k < c->hi[2] - c->lo[2]; k++) {
        light_trace_plane(c, k);
        lc->stats.elements += lc->elements[k];
        lc->stats.particles += lc->particles[k];
    }
    lc->stats.ms = timer_ms_since(t0);
    return true;
}

const world *light_column_ring(const light_column *c) { return c->ring; }

void light_column_where(const light_column *lc, int *cx, int *cz)
{
    *cx = lc->cx, *cz = lc->cz;
}

light_stats light_column_stats(const light_column *lc) { return lc->stats; }

bool light_column_land(const light_column *lc, light *dst)
{
    const int x0 = lc->cx * CHUNK_SIZE, z0 = lc->cz * CHUNK_SIZE;
    if (!lc->ready || dst->sy != lc->vol->sy || (int64_t)x0 < dst->ox || (int64_t)x0 + CHUNK_SIZE > (int64_t)dst->ox + dst->sx ||
        (int64_t)z0 < dst->oz || (int64_t)z0 + CHUNK_SIZE > (int64_t)dst->oz + dst->sz)
        return false;
    const light *src = lc->vol;
    /* a chunk row never wraps in either volume's slots (both are whole
     * columns, their slots multiples of CHUNK_SIZE) */
    for (int z = 0; z < CHUNK_SIZE; z++)
        for (int y = 0; y < dst->sy; y++)
            memcpy(&dst->rg[2 * ridx(dst, x0 - dst->ox, y, z0 + z - dst->oz)],
                   &src->rg[2 * ridx(src, x0 - src->ox, y, z0 + z - src->oz)], 2 * CHUNK_SIZE);
    /* every pair of the column written: whatever a move left there is gone */
    int sx = slot_of(x0 - dst->ox, dst->kx, dst->sx), sz = slot_of(z0 - dst->oz, dst->kz, dst->sz);
    dst->stale[(sz / CHUNK_SIZE) * (dst->sx / CHUNK_SIZE) + sx / CHUNK_SIZE] = LIGHT_FRESH;
    return true;
}
