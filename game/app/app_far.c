#include "app_far.h"

#include "app_far_edits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_render.h"
#include "app_stream.h"
#include "app_world.h"
#include "core/log.h"
#include "core/timer.h"
#include "gfx/far.h"
#include "mesh/far_mesh.h"
#include "ui/cmd.h"
#include "ui/cvar.h"
#include "worldgen/worldgen.h"

typedef struct far_job {
    far_ring r;
    const worldgen_stream *ws;
    const far_edits *edits;
    float lower_in, lower_out, lower; /* ring 0: lowered under the near field's edge (see build_ring) */
    far_mesh mesh;
    float *h;  /* the ring's grid heights, (n + 1)^2, kept for `far at` and the curtain */
    uint8_t *mt; /* the materials there, (n + 1)^2, for the curtain */
    bool ok;
} far_job;

typedef struct far_comp {
    cvar *far, *cells, *memory_mb, *show;
    far_gfx *gfx;
    worldgen_stream *ws;
    /* what the slots hold */
    far_layout drawn;
    bool slot_ok[FAR_RING_MAX];
    bool dirty[FAR_RING_MAX]; /* an edit touched the ring since it was built */
    bool dirty_after[FAR_RING_MAX]; /* ... since the build in flight copied the summaries */
    float *heights[FAR_RING_MAX];
    uint8_t *mats[FAR_RING_MAX];
    /* the build in flight */
    job_group group;
    bool building;
    far_layout want;
    far_job jobs[FAR_RING_MAX];
    bool job_on[FAR_RING_MAX];
    far_edits snap;
    uint64_t build_t0;
    far_edit_set *edits; /* what the rings know of the player's edits */
    unsigned char *mask;
    size_t mask_cap;
    far_vertex *curtain; /* this frame's curtain round the near field (far_curtain_build) */
    int curtain_cap;
    far_draw_stats st;
    int builds;
    double build_ms, build_ms_max;
} far_comp;

static far_comp *state(const app *a) { return component_state(&a->comps, app_far_component.name); }

static bool far_on(const far_comp *c, const app *a)
{
    return c && c->ws && c->far->f > a->cv.distance->f && app_stream((app *)a) != NULL;
}

float app_far_distance(const app *a)
{
    const far_comp *c = state(a);
    return far_on(c, a) ? c->far->f : 0.f;
}

/* ---- edits ---- */

/* Marks the rings of layout l whose cells column (cx, cz) touches. */
static void dirty_layout(const far_layout *l, bool *dirty, int cx, int cz)
{
    int x0 = cx * CHUNK_SIZE, z0 = cz * CHUNK_SIZE, x1 = x0 + CHUNK_SIZE, z1 = z0 + CHUNK_SIZE;
    for (int k = 0; k < l->count; k++) {
        const far_ring *r = &l->ring[k];
        int box[4];
        far_ring_box(r, box);
        if (x1 <= box[0] || x0 >= box[2] || z1 <= box[1] || z0 >= box[3]) continue;
        int mid = r->n / 2, h0x = box[0] + (mid - r->hole) * r->cell, h1x = box[0] + (mid + r->hole) * r->cell;
        int h0z = box[1] + (mid - r->hole) * r->cell, h1z = box[1] + (mid + r->hole) * r->cell;
        if (x0 >= h0x && x1 <= h1x && z0 >= h0z && z1 <= h1z) continue; /* inside the static hole */
        dirty[k] = true;
    }
}

/* The rings drawn now and, while a build is in flight from a copy of the
 * summaries taken before this change, the ones it will land. */
static void dirty_rings(far_comp *c, int cx, int cz)
{
    dirty_layout(&c->drawn, c->dirty, cx, cz);
    if (c->building) dirty_layout(&c->want, c->dirty_after, cx, cz);
}

static void far_edit_changed(void *self, int cx, int cz) { dirty_rings(self, cx, cz); }

static void far_edit_hook(void *self, app *a, const world_edit *e)
{
    far_comp *c = self;
    if (!c || !a->w || !app_stream(a)) return;
    /* an arrival: a summary when a stored edit came with it, none when
     * not (one the file's chunks made, if they turned out damaged) */
    for (int cz = e->lo[2] >> CHUNK_BITS; cz <= (e->hi[2] - 1) >> CHUNK_BITS; cz++)
        for (int cx = e->lo[0] >> CHUNK_BITS; cx <= (e->hi[0] - 1) >> CHUNK_BITS; cx++) far_edits_take(c->edits, a->w, cx, cz);
}

/* ---- building ---- */

/* The surface at the ring's grid points, with the edits over it: a point
 * inside an edited column takes that voxel column's top, and any edited
 * voxel column higher than a point within half a cell of it raises it (a
 * tower narrower than a cell still shows). */
static void apply_edits(const far_job *j, worldgen_point *pts, int s)
{
    const far_ring *r = &j->r;
    int gx0 = r->x0 - r->cell, gz0 = r->z0 - r->cell, half = r->cell / 2;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < j->edits->count; k++) {
            const far_edit *e = &j->edits->e[k];
            int ex0 = e->cx * CHUNK_SIZE, ez0 = e->cz * CHUNK_SIZE;
            /* the points whose cell [p - half, p + half) meets the column */
            int i0 = (int)ceil((double)(ex0 - half - gx0 + 1) / r->cell), i1 = (int)floor((double)(ex0 + CHUNK_SIZE + half - 1 - gx0) / r->cell);
            int j0 = (int)ceil((double)(ez0 - half - gz0 + 1) / r->cell), j1 = (int)floor((double)(ez0 + CHUNK_SIZE + half - 1 - gz0) / r->cell);
            if (i0 < 0) i0 = 0;
            if (j0 < 0) j0 = 0;
            if (i1 > s - 1) i1 = s - 1;
            if (j1 > s - 1) j1 = s - 1;
            for (int jj = j0; jj <= j1; jj++)
                for (int ii = i0; ii <= i1; ii++) {
                    worldgen_point *p = &pts[jj * s + ii];
                    int px = gx0 + ii * r->cell, pz = gz0 + jj * r->cell;
                    if (pass == 0) {
                        if (px < ex0 || px >= ex0 + CHUNK_SIZE || pz < ez0 || pz >= ez0 + CHUNK_SIZE) continue;
                        int v = (pz - ez0) * CHUNK_SIZE + (px - ex0);
                        p->top = p->ground = e->top[v];
                        p->mat = p->ground_mat = e->mat[v];
                        continue;
                    }
                    int x0 = px - half > ex0 ? px - half : ex0, x1 = px + half < ex0 + CHUNK_SIZE ? px + half : ex0 + CHUNK_SIZE;
                    int z0 = pz - half > ez0 ? pz - half : ez0, z1 = pz + half < ez0 + CHUNK_SIZE ? pz + half : ez0 + CHUNK_SIZE;
                    for (int z = z0; z < z1; z++)
                        for (int x = x0; x < x1; x++) {
                            int v = (z - ez0) * CHUNK_SIZE + (x - ex0);
                            if (e->top[v] > p->top) {
                                p->top = e->top[v];
                                p->mat = e->mat[v];
                            }
                        }
                }
        }
}

static void build_ring(void *arg)
{
    far_job *j = arg;
    const far_ring *r = &j->r;
    int s = r->n + 3;
    size_t np = (size_t)s * (size_t)s;
    worldgen_point *pts = malloc(sizeof *pts * np);
    float *h = malloc(sizeof *h * np);
    uint8_t *mat = malloc(np);
    j->h = malloc(sizeof(float) * (size_t)(r->n + 1) * (size_t)(r->n + 1));
    j->mt = malloc((size_t)(r->n + 1) * (size_t)(r->n + 1));
    j->ok = false;
    if (pts && h && mat && j->h && j->mt) {
        worldgen_stream_surface(j->ws, r->x0 - r->cell, r->z0 - r->cell, r->cell, s, s, pts);
        apply_edits(j, pts, s);
        float mid_x = (float)r->x0 + (float)(r->n / 2 * r->cell), mid_z = (float)r->z0 + (float)(r->n / 2 * r->cell);
        for (int jj = 0; jj < s; jj++)
            for (int ii = 0; ii < s; ii++) {
                size_t p = (size_t)jj * (size_t)s + (size_t)ii;
                float y = (float)pts[p].top + 1.f; /* the top of the top voxel */
                if (j->lower > 0.f) {
                    /* Ring 0 meets the near field's edge: where its surface
                     * lay above the last near voxels, a ray over them would
                     * pass under it and find no surface. Lowered there by
                     * the most its interpolation can stand above them,
                     * back to exact at its outer edge (the walls' heights);
                     * a quarter cell: the smooth mode's skirts show what
                     * lies below its edge. */
                    float dx = fabsf((float)(r->x0 + (ii - 1) * r->cell) - mid_x);
                    float dz = fabsf((float)(r->z0 + (jj - 1) * r->cell) - mid_z);
                    float d = fmaxf(dx, dz), t = (j->lower_out - d) / (j->lower_out - j->lower_in);
                    y -= j->lower * (t < 0.f ? 0.f : t > 1.f ? 1.f : t);
                }
                h[p] = y;
                mat[p] = pts[p].mat;
            }
        for (int jj = 0; jj <= r->n; jj++) {
            memcpy(j->h + (size_t)jj * (size_t)(r->n + 1), h + (size_t)(jj + 1) * (size_t)s + 1, sizeof(float) * (size_t)(r->n + 1));
            memcpy(j->mt + (size_t)jj * (size_t)(r->n + 1), mat + (size_t)(jj + 1) * (size_t)s + 1, (size_t)(r->n + 1));
        }
        far_grid g = { h, mat };
        j->ok = far_mesh_build(r, &g, &j->mesh);
    }
    free(pts);
    free(h);
    free(mat);
}

static bool same_ring(const far_ring *a, const far_ring *b)
{
    return a->cell == b->cell && a->x0 == b->x0 && a->z0 == b->z0 && a->n == b->n && a->hole == b->hole &&
           a->cut == b->cut && a->outer == b->outer;
}

static void layout_now(const far_comp *c, const app *a, far_layout *out)
{
    far_layout_make(a->cv.distance->f, c->far->f, c->cells->i, a->pl.pos[0], a->pl.pos[2], out);
}

/* Starts a build of the rings the player's place or an edit changed;
 * false when nothing needs building. */
static bool start_build(far_comp *c, app *a)
{
    layout_now(c, a, &c->want);
    bool any = false;
    for (int k = 0; k < c->want.count; k++) {
        c->job_on[k] = !c->slot_ok[k] || c->dirty[k] || k >= c->drawn.count ||
                       !same_ring(&c->want.ring[k], &c->drawn.ring[k]);
        any |= c->job_on[k];
    }
    if (!any && c->want.count == c->drawn.count) return false;
    free(c->snap.e);
    far_edits_copy(c->edits, &c->snap);
    c->building = true;
    memset(c->dirty_after, 0, sizeof c->dirty_after);
    c->build_t0 = timer_ns();
    memset(&c->group, 0, sizeof c->group);
    for (int k = 0; k < c->want.count; k++) {
        c->dirty[k] = false;
        if (!c->job_on[k]) continue;
        far_job *j = &c->jobs[k];
        memset(j, 0, sizeof *j);
        j->r = c->want.ring[k];
        j->ws = c->ws;
        j->edits = &c->snap;
        if (k == 0) {
            j->lower = (float)(j->r.cell / 4 + 1);
            j->lower_in = a->cv.distance->f + 48.f;
            j->lower_out = (float)((j->r.n / 2 - 1) * j->r.cell);
            if (j->lower_out <= j->lower_in) j->lower_in = j->lower_out - (float)j->r.cell;
        }
        job_submit(a->jobs, &c->group, build_ring, j);
    }
    return true;
}

/* The build is done: its rings go up together (GL uploads only). */
static void land_build(far_comp *c)
{
    for (int k = 0; k < c->want.count; k++) {
        if (!c->job_on[k]) continue;
        far_job *j = &c->jobs[k];
        bool ok = j->ok && c->gfx && far_gfx_upload(c->gfx, k, &j->r, &j->mesh);
        if (!j->ok) log_warn("far: no memory for ring %d (cells of %d voxels): it is left out", k, j->r.cell);
        far_mesh_free(&j->mesh);
        free(c->heights[k]);
        free(c->mats[k]);
        c->heights[k] = j->h;
        c->mats[k] = j->mt;
        j->h = NULL;
        j->mt = NULL;
        c->slot_ok[k] = ok;
    }
    for (int k = c->want.count; k < FAR_RING_MAX; k++) {
        c->slot_ok[k] = false;
        free(c->heights[k]);
        free(c->mats[k]);
        c->heights[k] = NULL;
        c->mats[k] = NULL;
    }
    if (c->gfx) far_gfx_clear(c->gfx, c->want.count);
    c->drawn = c->want;
    for (int k = 0; k < c->drawn.count; k++) c->dirty[k] = c->dirty_after[k];
    c->building = false;
    c->builds++;
    c->build_ms = timer_ms_since(c->build_t0);
    if (c->build_ms > c->build_ms_max) c->build_ms_max = c->build_ms;
}

static void wait_build(far_comp *c, app *a)
{
    if (!c->building) return;
    job_group_wait(a->jobs, &c->group);
    land_build(c);
}

static void drop_rings(far_comp *c, app *a)
{
    wait_build(c, a);
    if (c->gfx) far_gfx_clear(c->gfx, 0);
    for (int k = 0; k < FAR_RING_MAX; k++) {
        c->slot_ok[k] = false;
        c->dirty[k] = false;
        free(c->heights[k]);
        free(c->mats[k]);
        c->heights[k] = NULL;
        c->mats[k] = NULL;
    }
    memset(&c->drawn, 0, sizeof c->drawn);
}

/* How far from the player a column whose edits are only in the file is
 * summarized for the rings: past their corners. */
static double saved_radius(const far_comp *c) { return 1.5 * (double)c->far->f; }

static bool far_ready(far_comp *c, const app *a)
{
    if (!far_on(c, a) || c->building) return false;
    if (!far_edits_saved_done(c->edits, app_stream((app *)a), a->pl.pos[0], a->pl.pos[2], saved_radius(c))) return false;
    far_layout want;
    layout_now(c, a, &want);
    if (want.count != c->drawn.count) return false;
    for (int k = 0; k < want.count; k++)
        if (!c->slot_ok[k] || c->dirty[k] || !same_ring(&want.ring[k], &c->drawn.ring[k])) return false;
    return true;
}

static void far_step(far_comp *c, app *a, bool wait)
{
    if (c->building && (wait || job_group_done(a->jobs, &c->group))) wait_build(c, a);
    if (!far_on(c, a)) {
        if (c->drawn.count) drop_rings(c, a);
        return;
    }
    /* the summaries of edits only the file has, before a build reads them */
    far_edits_saved_step(c->edits, app_stream(a), a->jobs, a->pl.pos[0], a->pl.pos[2], saved_radius(c), wait);
    if (!c->building && start_build(c, a) && wait) wait_build(c, a);
}

static void far_frame(void *self, app *a, double now, float dt)
{
    (void)now, (void)dt;
    far_comp *c = self;
    if (c) far_step(c, a, false);
}

void app_far_settle(app *a)
{
    far_comp *c = state(a);
    if (!c) return;
    for (int i = 0; i < 4 && !far_ready(c, a); i++) far_step(c, a, true);
    if (!far_on(c, a)) far_step(c, a, true);
}

/* ---- drawing ---- */

static void far_draw_hook(void *self, app *a, const frame_draw *f)
{
    far_comp *c = self;
    if (!c) return;
    memset(&c->st, 0, sizeof c->st);
    if (!c->gfx || !far_on(c, a) || !c->show->b || !c->drawn.count || !f->s->atlas) return;
    const world *w = a->w;
    size_t need = (size_t)w->cx * (size_t)w->cz;
    if (need > c->mask_cap) {
        unsigned char *m = realloc(c->mask, need);
        if (!m) return;
        c->mask = m;
        c->mask_cap = need;
    }
    app_render_drawn_columns(a, c->mask, w->cx, w->cz, w->ocx, w->ocz);
    bool smooth = a->render_mode && strcmp(a->render_mode, "smooth") == 0;
    far_view v = { c->drawn.count, c->mask, w->cx, w->cz, w->ocx, w->ocz, smooth, NULL, 0 };
    if (c->slot_ok[0] && c->heights[0] && c->mats[0]) {
        /* deep enough to pass under the near terrain at the edge: ring 0's
         * cell (what its height field may stand above the voxels it
         * samples) and the tallest trees it keeps as its surface */
        const far_ring *r0 = &c->drawn.ring[0];
        float drop = (float)r0->cell + 48.f;
        int verts = far_curtain_build(r0, c->heights[0], c->mats[0], c->mask, w->cx, w->cz, w->ocx * CHUNK_SIZE,
                                     w->ocz * CHUNK_SIZE, drop, c->curtain, c->curtain_cap);
        if (verts > c->curtain_cap) { /* grows a few times at most: then it holds every frame's */
            far_vertex *g = realloc(c->curtain, sizeof *g * (size_t)verts);
            if (g) {
                c->curtain = g;
                c->curtain_cap = verts;
                verts = far_curtain_build(r0, c->heights[0], c->mats[0], c->mask, w->cx, w->cz, w->ocx * CHUNK_SIZE,
                                         w->ocz * CHUNK_SIZE, drop, c->curtain, c->curtain_cap);
            }
        }
        v.curtain = c->curtain;
        v.curtain_n = verts <= c->curtain_cap ? verts : 0;
    }
    far_gfx_draw(c->gfx, f->cam, f->s, &v, &c->st);
    a->stats.triangles += c->st.triangles;
    a->stats.triangles_loaded += c->st.triangles_loaded;
}

/* ---- world, cvars, commands ---- */

static void far_new_world(void *self, app *a, world *w)
{
    far_comp *c = self;
    if (!c) return;
    drop_rings(c, a);
    worldgen_stream_destroy(c->ws);
    c->ws = NULL;
    /* the same world in another window keeps its summaries */
    far_edits_forget(c->edits, a->jobs, !a->world_resizing);
    if (!app_stream(a) || !a->world_kind) return;
    char err[256];
    c->ws = worldgen_stream_create(a->world_kind, a->world_seed, w, err, sizeof err);
    if (!c->ws) log_warn("far: the far rings are off for this world: %s", err);
}

static void far_world_leaving(void *self, app *a, world *old)
{
    (void)old;
    far_comp *c = self;
    if (!c) return;
    wait_build(c, a);
    far_edits_forget(c->edits, a->jobs, false); /* its jobs read the stream about to go */
}

/* The memory the rings for `distance` take: each ring's mesh while it is
 * built and again in GL until the next build lands. */
static double far_bytes_for(const far_comp *c, const app *a, float distance, int *rings, int *cells)
{
    far_layout l;
    *rings = far_layout_make(a->cv.distance->f, distance, c->cells->i, 0, 0, &l);
    *cells = l.half_cells * 2;
    return 2.0 * (double)*rings * (double)far_mesh_bytes(*cells);
}

static bool far_validate(const cvar *proposed, char *err, size_t errlen, void *user)
{
    app *a = user;
    const far_comp *c = state(a);
    if (!c) return true;
    int rings, cells;
    double mb = far_bytes_for(c, a, proposed->f, &rings, &cells) / (1024.0 * 1024.0);
    if (mb <= c->memory_mb->f) return true;
    snprintf(err, errlen, "view.far %.0f needs %d rings of %dx%d cells: %.1f MiB of meshes, over far.memory_mb %.0f",
             (double)proposed->f, rings, cells, cells, mb, (double)c->memory_mb->f);
    return false;
}

void app_far_print_stats(app *a)
{
    far_comp *c = state(a);
    if (!c || !far_on(c, a)) return;
    log_out("far_rings=%d", c->drawn.count);
    log_out("far_ready=%d", far_ready(c, a));
    log_out("far_cell_min=%d", c->drawn.count ? c->drawn.ring[0].cell : 0);
    log_out("far_cell_max=%d", c->drawn.count ? c->drawn.ring[c->drawn.count - 1].cell : 0);
    log_out("far_triangles=%ld", c->st.triangles);
    log_out("far_triangles_loaded=%ld", c->st.triangles_loaded);
    log_out("far_curtain_triangles=%ld", c->st.curtain_triangles);
    log_out("far_tiles_drawn=%d", c->st.tiles_drawn);
    log_out("far_bytes=%zu", far_gfx_bytes(c->gfx));
    log_out("far_edited_columns=%d", far_edits_count(c->edits));
    log_out("far_edited_columns_read=%d", far_edits_read_count(c->edits));
    log_out("far_builds=%d", c->builds);
    log_out("far_build_ms=%.1f", c->build_ms);
    log_out("far_build_ms_max=%.1f", c->build_ms_max);
}

/* The height the rings draw at (x, z): the finest ring holding it, between
 * its grid points (bilinear, as its triangles are to within a cell), and
 * in out[1] the highest corner of its cell there. */
static bool far_height_at(const far_comp *c, double x, double z, float *out, int *ring)
{
    for (int k = 0; k < c->drawn.count; k++) {
        const far_ring *r = &c->drawn.ring[k];
        if (!c->slot_ok[k] || !c->heights[k]) continue;
        double fx = (x - r->x0) / r->cell, fz = (z - r->z0) / r->cell;
        if (fx < 0 || fz < 0 || fx >= r->n || fz >= r->n) continue;
        int i = (int)fx, j = (int)fz, s = r->n + 1;
        float tx = (float)(fx - i), tz = (float)(fz - j);
        const float *h = c->heights[k];
        float a0 = h[j * s + i] + (h[j * s + i + 1] - h[j * s + i]) * tx;
        float a1 = h[(j + 1) * s + i] + (h[(j + 1) * s + i + 1] - h[(j + 1) * s + i]) * tx;
        *out = a0 + (a1 - a0) * tz;
        out[1] = fmaxf(fmaxf(h[j * s + i], h[j * s + i + 1]), fmaxf(h[(j + 1) * s + i], h[(j + 1) * s + i + 1]));
        *ring = k;
        return true;
    }
    return false;
}

static int c_far(void *u, int argc, char **argv)
{
    app *a = u;
    far_comp *c = state(a);
    app_sync_world(a);
    if (!far_on(c, a)) {
        log_error("far: the far rings are off (set view.far above view.distance in a streamed world)");
        return 1;
    }
    if (argc >= 2 && strcmp(argv[1], "wait") == 0) {
        uint64_t t0 = timer_ns();
        app_far_settle(a);
        log_out("far_wait_ms=%.1f", timer_ms_since(t0));
    } else if (argc == 4 && strcmp(argv[1], "at") == 0) {
        char *e1, *e2;
        double x = strtod(argv[2], &e1), z = strtod(argv[3], &e2);
        if (*e1 || *e2 || !isfinite(x) || !isfinite(z)) {
            log_error("far at: '%s %s' is not a place (X Z in voxels)", argv[2], argv[3]);
            return 1;
        }
        float h[2];
        int ring;
        if (!far_height_at(c, x, z, h, &ring)) {
            log_error("far at: %.0f %.0f is outside the far rings", x, z);
            return 1;
        }
        log_out("far_height=%.2f", (double)h[0]);
        log_out("far_cell_top=%.2f", (double)h[1]);
        log_out("far_ring=%d", ring);
        return 0;
    } else if (argc >= 2) {
        log_error("usage: far [wait | at X Z]");
        return 1;
    }
    app_far_print_stats(a);
    return 0;
}

static void *far_init(app *a)
{
    far_comp *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->edits = far_edits_create(far_edit_changed, c);
    if (!c->edits) {
        free(c);
        return NULL;
    }
    const cvar_desc vars[] = {
        { "view.far", "how far the far rings of coarse terrain reach, in voxels (0 or at most view.distance: none)",
          CVAR_FLOAT, CVAR_ARCHIVE, "4096", 0, 65536, NULL, NULL, a, far_validate },
        { "far.cells", "cells from a far ring's middle to its edge (each ring's cell twice the last)", CVAR_INT,
          CVAR_ARCHIVE, "16", 8, 64 },
        { "far.memory_mb", "the most memory the far rings' meshes may take", CVAR_FLOAT, CVAR_ARCHIVE, "64", 1, 4096 },
        { "far.show", "draw the far rings (0: built and fogged to, not drawn; for comparisons)", CVAR_BOOL, 0, "1" },
    };
    cvar **slots[] = { &c->far, &c->cells, &c->memory_mb, &c->show };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) *slots[i] = cvar_register(&vars[i]);
    const cmd_desc table[] = {
        { "far", "[wait | at X Z]",
          "the far rings' state; wait: until they are built round the player; at: the height they draw at (X, Z)",
          c_far, a, NULL, CMD_NEEDS_WORLD },
    };
    cmd_register_table(table, 1);
    return c;
}

static bool far_gfx_init(void *self, app *a)
{
    (void)a;
    far_comp *c = self;
    if (!c) return false;
    char err[1024];
    c->gfx = far_gfx_create(err, sizeof err);
    if (!c->gfx) log_warn("the far rings will not be drawn: %s", err);
    return c->gfx != NULL;
}

static void far_shutdown(void *self, app *a)
{
    (void)a;
    far_comp *c = self;
    if (!c) return;
    /* the app destroyed the job pool first, which finished every job */
    for (int k = 0; k < FAR_RING_MAX; k++) {
        far_mesh_free(&c->jobs[k].mesh);
        free(c->jobs[k].h);
        free(c->jobs[k].mt);
    }
    for (int k = 0; k < FAR_RING_MAX; k++) {
        free(c->heights[k]);
        free(c->mats[k]);
    }
    free(c->curtain);
    far_gfx_destroy(c->gfx);
    worldgen_stream_destroy(c->ws);
    free(c->snap.e);
    far_edits_destroy(c->edits);
    free(c->mask);
    cmd_unregister("far");
    free(c);
}

const component app_far_component = {
    .name = "far",
    .init = far_init,
    .gfx_init = far_gfx_init,
    .on_new_world = far_new_world,
    .on_world_leaving = far_world_leaving,
    .on_edit = far_edit_hook,
    .on_frame = far_frame,
    .draw = far_draw_hook,
    .shutdown = far_shutdown,
};
