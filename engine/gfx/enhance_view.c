/* enhance_view: per chunk the enhanced fragments, the input they came from
 * (so an edit's changed box is found by comparison and only its window is
 * re-enhanced) and the fragment mesh in one arena (gfx/mesh_arena, a slot
 * a chunk), drawn as the blocks mode draws its own (render.gpu_cull: on
 * the depth read back, or culled on the GPU, one choice for the near
 * fragments and the blocks beyond them). */
#include "gfx/enhance_view.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "gfx/gpu_cull.h"
#include "gfx/light_tex.h"
#include "gfx/mesh_arena.h"
#include "gfx/quad_index.h"
#include "gfx/renderer.h"
#include "gfx/shader.h"
#include "mesh/enhance_mesh.h"
#include "ui/cvar.h"

#define EV_PARTS (OCCLUSION_CELLS * FACE_COUNT)

/* A chunk's uploaded quads (what a pending upload carries to its
 * landing): grouped by part (cell * FACE_COUNT + face, cells of
 * occlusion.h by a quad's first corner): part k is quads [part[k],
 * part[k + 1]) of its range; lo/hi the chunk-local box (voxels) of each
 * cell's quads (lo > hi: none), what culling tests. */
typedef struct ev_drawn {
    int chunk[3]; /* the chunk they were built for: drawn only while the slot holds it */
    int quads;
    int part[EV_PARTS + 1];
    float lo[OCCLUSION_CELLS][3], hi[OCCLUSION_CELLS][3];
} ev_drawn;

typedef struct ev_chunk {
    enhance_chunk ec;
    enhance_input *in;   /* what ec was made from (NULL: not enhanced) */
    int ocx, ocz;        /* its column: a streamed window hands the slot to
                          * another before the render builds it again */
    bool stale;          /* the world may have changed under it */
    bool changed;        /* the last enhance job changed its fragments' input */
    bool mesh_stale;
    enhance_mesh mesh;   /* built on a worker, uploaded on the main thread */
    ev_drawn d;          /* what its range of the arena holds */
} ev_chunk;

typedef struct enhance_view {
    void *blocks;                 /* the blocks mode, for chunks beyond the radius */
    /* vao: the arena's quads, the chunk's origin (attribute 2) constant per
     * draw; cull_vao: the same instanced (binding 1), for the GPU cull */
    GLuint prog, vao, cull_vao, ibo;
    mesh_arena *arena;
    gpu_cull_pick pick;
    gpu_cull_frame frame;
    int ibo_quads;
    enhance_vertex *sorted; /* scratch: a chunk's quads grouped by part for upload */
    int *keys;              /* scratch: each quad's part */
    int sorted_cap;         /* vertices sorted (and keys) hold */
    GLsizei counts[EV_PARTS]; /* scratch: one chunk's draw ranges */
    const void *offsets[EV_PARTS];
    GLint bases[EV_PARTS];
    struct { GLint viewproj, camera, inv_factor, factor, atlas, fog_color, fog_start, fog_end, tints; } u;
    enhance_ctx *ctx;
    enhance_params p;
    int cx, cy, cz, n;
    ev_chunk *ch;
    const world *w;               /* the world of the last build */
    job_pool *jobs;
    int *work;
    render_item *near, *far;
    double last_ms;
} enhance_view;

/* ---- chunks ------------------------------------------------------------- */

/* Empties chunk i's range of the arena (and drops its pending upload). */
static void drop_drawn(enhance_view *v, int i)
{
    mesh_arena_drop(v->arena, i);
    memset(&v->ch[i].d, 0, sizeof v->ch[i].d);
}

static void drop_chunk(enhance_view *v, int i)
{
    ev_chunk *c = &v->ch[i];
    enhance_chunk_free(&c->ec);
    free(c->in);
    c->in = NULL;
    enhance_mesh_free(&c->mesh);
    drop_drawn(v, i);
    c->stale = c->mesh_stale = false;
}

static void drop_all(enhance_view *v)
{
    for (int i = 0; i < v->n && v->ch; i++) drop_chunk(v, i);
}

/* New parameters: a new context, every chunk enhanced again when seen. */
static bool sync_params(enhance_view *v)
{
    enhance_params p = enhance_view_params();
    if (v->ctx && enhance_view_params_equal(&p, &v->p)) return true;
    char err[256];
    enhance_ctx *e = enhance_create(&p, err, sizeof err);
    if (!e) {
        log_warn("enhanced mode: %s", err);
        return v->ctx != NULL;
    }
    enhance_destroy(v->ctx);
    v->ctx = e;
    v->p = p;
    drop_all(v);
    return true;
}

static void enhance_job(void *arg, int k)
{
    enhance_view *v = arg;
    int i = v->work[k];
    ev_chunk *c = &v->ch[i];
    int cx, cy, cz;
    world_chunk_coords(v->w, i, &cx, &cy, &cz);
    enhance_input *in = malloc(sizeof *in);
    if (!in) return;
    enhance_gather(v->w, cx, cy, cz, in);
    if (c->in && c->stale && c->ocx == cx && c->ocz == cz) {
        /* the box that changed, from the input it was made from */
        int lo[3] = { CHUNK_SIZE + ENHANCE_PAD, CHUNK_SIZE + ENHANCE_PAD, CHUNK_SIZE + ENHANCE_PAD };
        int hi[3] = { -ENHANCE_PAD - 1, -ENHANCE_PAD - 1, -ENHANCE_PAD - 1 };
        for (int y = -ENHANCE_PAD; y < CHUNK_SIZE + ENHANCE_PAD; y++)
            for (int z = -ENHANCE_PAD; z < CHUNK_SIZE + ENHANCE_PAD; z++) {
                int row = ENHANCE_IN_INDEX(-ENHANCE_PAD, y, z);
                if (!memcmp(in->vox + row, c->in->vox + row, ENHANCE_IN) &&
                    !memcmp(in->tint + row, c->in->tint + row, ENHANCE_IN))
                    continue;
                for (int x = -ENHANCE_PAD; x < CHUNK_SIZE + ENHANCE_PAD; x++) {
                    int j = row + x + ENHANCE_PAD;
                    if (in->vox[j] == c->in->vox[j] && in->tint[j] == c->in->tint[j]) continue;
                    int p[3] = { x, y, z };
                    for (int a = 0; a < 3; a++) {
                        if (p[a] < lo[a]) lo[a] = p[a];
                        if (p[a] > hi[a]) hi[a] = p[a];
                    }
                }
            }
        c->changed = hi[0] >= lo[0];
        if (c->changed) enhance_chunk_update(v->ctx, in, lo, hi, &c->ec);
    } else {
        enhance_chunk_build(v->ctx, in, true, &c->ec);
        c->changed = true;
    }
    free(c->in);
    c->in = in;
    c->ocx = cx, c->ocz = cz;
    c->stale = false;
}

/* The enhanced neighbour across `face`; NULL with *open set when the
 * neighbour exists but is drawn as blocks (or not enhanced yet). */
static const enhance_chunk *neighbour(const enhance_view *v, int i, int face, bool *open)
{
    int cx, cy, cz;
    world_chunk_coords(v->w, i, &cx, &cy, &cz);
    cx += face_normal[face][0], cy += face_normal[face][1], cz += face_normal[face][2];
    *open = false;
    if (!world_chunk_valid(v->w, cx, cy, cz)) return NULL;
    const ev_chunk *c = &v->ch[world_chunk_index(v->w, cx, cy, cz)];
    if (c->in && !c->stale) return &c->ec;
    *open = true;
    return NULL;
}

static void mesh_job(void *arg, int k)
{
    enhance_view *v = arg;
    int i = v->work[k];
    ev_chunk *c = &v->ch[i];
    const enhance_chunk *nb[6];
    unsigned open = 0;
    for (int f = 0; f < 6; f++) {
        bool o;
        nb[f] = neighbour(v, i, f, &o);
        if (o) open |= 1u << f;
    }
    enhance_mesh_build(&c->ec, c->in, nb, open, &c->mesh);
    /* the shader wants the tile of the face, not the material */
    for (int q = 0; q < c->mesh.count; q++) {
        uint32_t b = c->mesh.v[q].b;
        const material *m = material_get((uint8_t)(b & 255u));
        c->mesh.v[q].b = (b & ~255u) | m->tile[(b >> 16) & 7u];
    }
}

/* A vertex's chunk-local position in voxels (corners count fragments). */
static void ev_vertex_pos(const enhance_vertex *q, float f, float p[3])
{
    p[0] = (float)(q->a & 1023u) / f, p[1] = (float)((q->a >> 10) & 1023u) / f, p[2] = (float)((q->a >> 20) & 1023u) / f;
}

/* The chunk's mesh into dst grouped by part (a counting sort, stable;
 * key[i] scratch for quad i), each cell's box from its quads' corners
 * (quads list all four). */
static void sort_parts(const ev_chunk *c, float f, enhance_vertex *dst, int *key, ev_drawn *d)
{
    int n[EV_PARTS] = { 0 }, at[EV_PARTS];
    for (int q = 0; q < c->mesh.count; q += 4) {
        float p[3];
        ev_vertex_pos(&c->mesh.v[q], f, p);
        int face = (int)((c->mesh.v[q].b >> 16) & 7u);
        key[q / 4] = occlusion_cell(p[0], p[1], p[2]) * FACE_COUNT + (face < FACE_COUNT ? face : 0);
        n[key[q / 4]]++;
    }
    d->part[0] = 0;
    for (int k = 0; k < EV_PARTS; k++) d->part[k + 1] = d->part[k] + n[k], at[k] = d->part[k];
    for (int cell = 0; cell < OCCLUSION_CELLS; cell++)
        for (int k = 0; k < 3; k++) d->lo[cell][k] = INFINITY, d->hi[cell][k] = -INFINITY;
    for (int q = 0; q < c->mesh.count; q += 4) {
        int k = key[q / 4], cell = k / FACE_COUNT;
        memcpy(dst + 4 * at[k]++, c->mesh.v + q, 4 * sizeof *dst);
        for (int i = 0; i < 4; i++) {
            float p[3];
            ev_vertex_pos(&c->mesh.v[q + i], f, p);
            for (int a = 0; a < 3; a++) d->lo[cell][a] = fminf(d->lo[cell][a], p[a]), d->hi[cell][a] = fmaxf(d->hi[cell][a], p[a]);
        }
    }
}

/* A chunk's quads are in the arena (at once, or a later frame). */
static void landed(void *user, int slot, const void *meta)
{
    enhance_view *v = user;
    if (meta) memcpy(&v->ch[slot].d, meta, sizeof(ev_drawn));
    else drop_drawn(v, slot); /* no room after all */
}

static void upload(enhance_view *v, int i)
{
    ev_chunk *c = &v->ch[i];
    c->mesh_stale = false;
    if (c->mesh.count == 0) {
        drop_drawn(v, i);
        return;
    }
    int quads = c->mesh.count / 4;
    if (quads > v->ibo_quads) {
        int n = v->ibo_quads ? v->ibo_quads : 16384;
        while (n < quads) n *= 2;
        if (quad_index_upload(v->ibo, n)) v->ibo_quads = n;
    }
    if (c->mesh.count > v->sorted_cap) {
        enhance_vertex *sv = realloc(v->sorted, sizeof *sv * (size_t)c->mesh.count);
        if (sv) v->sorted = sv;
        int *keys = realloc(v->keys, sizeof *keys * (size_t)quads);
        if (keys) v->keys = keys;
        if (!sv || !keys) {
            log_warn("enhanced mode: no memory to sort %d quads; the chunk is not drawn", quads);
            drop_drawn(v, i);
            return;
        }
        v->sorted_cap = c->mesh.count;
    }
    if (v->ibo_quads < quads) {
        log_warn("enhanced mode: no GPU memory for %d quads' indices; the chunk is not drawn", quads);
        drop_drawn(v, i);
        return;
    }
    ev_drawn d = { .quads = quads };
    world_chunk_coords(v->w, i, &d.chunk[0], &d.chunk[1], &d.chunk[2]);
    sort_parts(c, (float)enhance_factor(&v->p), v->sorted, v->keys, &d);
    mesh_arena_begin_frame(v->arena, landed, v);
    switch (mesh_arena_put(v->arena, i, v->sorted, (uint32_t)quads, &d)) {
    case MESH_ARENA_LANDED: landed(v, i, &d); break;
    case MESH_ARENA_PENDING: break; /* the old quads are drawn until these land */
    default: drop_drawn(v, i); break;
    }
    enhance_mesh_free(&c->mesh); /* the arena holds it now (or its copy, waiting) */
}

/* Enhances and meshes chunks near[0..count) that need it. */
static void prepare(enhance_view *v, const render_item *items, int count)
{
    if (!v->w || !v->ctx) return;
    uint64_t t0 = timer_ns();
    int n = 0;
    for (int k = 0; k < count; k++) {
        ev_chunk *c = &v->ch[items[k].index];
        if (!c->in || c->stale) v->work[n++] = items[k].index;
    }
    if (n) {
        job_parallel_for(v->jobs, n, enhance_job, v);
        /* a chunk's border faces depend on its neighbours' fragments */
        for (int k = 0; k < n; k++) {
            int i = v->work[k];
            if (!v->ch[i].changed) continue;
            v->ch[i].mesh_stale = true;
            int cx, cy, cz;
            world_chunk_coords(v->w, i, &cx, &cy, &cz);
            for (int f = 0; f < 6; f++) {
                int x = cx + face_normal[f][0], y = cy + face_normal[f][1], z = cz + face_normal[f][2];
                if (world_chunk_valid(v->w, x, y, z)) v->ch[world_chunk_index(v->w, x, y, z)].mesh_stale = true;
            }
        }
    }
    int m = 0;
    for (int k = 0; k < count; k++) {
        ev_chunk *c = &v->ch[items[k].index];
        if (c->in && c->mesh_stale) v->work[m++] = items[k].index;
    }
    if (m) {
        job_parallel_for(v->jobs, m, mesh_job, v);
        for (int k = 0; k < m; k++) upload(v, v->work[k]);
    }
    if (n || m) v->last_ms = timer_ms_since(t0);
}

/* ---- the mode ------------------------------------------------------------- */

static void ev_destroy(void *self)
{
    enhance_view *v = self;
    if (!v) return;
    drop_all(v);
    free(v->sorted);
    free(v->keys);
    free(v->ch);
    free(v->work);
    free(v->near);
    free(v->far);
    if (v->blocks) renderer_blocks_mode.destroy(v->blocks);
    if (v->prog) glDeleteProgram(v->prog);
    if (v->vao) glDeleteVertexArrays(1, &v->vao);
    if (v->cull_vao) glDeleteVertexArrays(1, &v->cull_vao);
    if (v->ibo) glDeleteBuffers(1, &v->ibo);
    mesh_arena_destroy(v->arena);
    gpu_cull_pick_free(&v->pick);
    gpu_cull_frame_free(&v->frame);
    enhance_destroy(v->ctx);
    free(v);
}

static void *ev_create(char *err, size_t errlen)
{
    enhance_view *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "enhanced mode: out of memory");
        return NULL;
    }
    gpu_cull_pick_init(&v->pick, "enhanced");
    v->blocks = renderer_blocks_mode.create(err, errlen);
    v->prog = v->blocks ? shader_load_composed("enhance.vert", "enhance.frag", err, errlen) : 0;
    v->arena = v->prog ? mesh_arena_create(4 * sizeof(enhance_vertex), 0, sizeof(ev_drawn), err, errlen) : NULL;
    if (!v->arena) {
        ev_destroy(v);
        return NULL;
    }
#define U(n) glGetUniformLocation(v->prog, "u_" #n)
    v->u.viewproj = U(viewproj), v->u.camera = U(camera), v->u.inv_factor = U(inv_factor);
    v->u.factor = U(factor), v->u.atlas = U(atlas), v->u.fog_color = U(fog_color), v->u.fog_start = U(fog_start);
    v->u.fog_end = U(fog_end), v->u.tints = U(tints);
#undef U
    GLuint *vaos[2] = { &v->vao, &v->cull_vao };
    for (int k = 0; k < 2; k++) {
        const GLuint a = (glCreateVertexArrays(1, vaos[k]), *vaos[k]);
        glEnableVertexArrayAttrib(a, 0);
        glEnableVertexArrayAttrib(a, 1);
        glVertexArrayAttribIFormat(a, 0, 1, GL_UNSIGNED_INT, 0);
        glVertexArrayAttribIFormat(a, 1, 1, GL_UNSIGNED_INT, 4);
        glVertexArrayAttribBinding(a, 0, 0);
        glVertexArrayAttribBinding(a, 1, 0);
    }
    glEnableVertexArrayAttrib(v->cull_vao, 2);
    glVertexArrayAttribFormat(v->cull_vao, 2, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(v->cull_vao, 2, 1);
    glVertexArrayBindingDivisor(v->cull_vao, 1, 1);
    glCreateBuffers(1, &v->ibo);
    if (!sync_params(v)) {
        snprintf(err, errlen, "enhanced mode: the enhance.* parameters are not usable");
        ev_destroy(v);
        return NULL;
    }
    return v;
}

static void ev_reset(void *self, int cx, int cy, int cz)
{
    enhance_view *v = self;
    renderer_blocks_mode.reset(v->blocks, cx, cy, cz);
    drop_all(v);
    free(v->ch);
    free(v->work);
    free(v->near);
    free(v->far);
    v->cx = cx, v->cy = cy, v->cz = cz, v->n = cx * cy * cz;
    v->ch = calloc((size_t)v->n, sizeof *v->ch);
    if (!mesh_arena_reset(v->arena, v->n)) log_warn("enhanced mode: no memory for the arena's %d slots", v->n);
    v->work = malloc(sizeof *v->work * (size_t)v->n);
    v->near = malloc(sizeof *v->near * (size_t)v->n);
    v->far = malloc(sizeof *v->far * (size_t)v->n);
    v->w = NULL;
    if (!v->ch || !v->work || !v->near || !v->far) {
        log_error("enhanced mode: no memory for %d chunks", v->n);
        v->n = 0;
    }
}

static bool ev_build(void *self, const world *w, job_pool *jobs, const int *idx, int n)
{
    enhance_view *v = self;
    if (!renderer_blocks_mode.build(v->blocks, w, jobs, idx, n)) return false;
    v->w = w;
    v->jobs = jobs;
    /* The window of a fragment reaches two voxels: an edit near a chunk's
     * border can change its neighbours' fragments even where the block
     * mesher's one-voxel border marked nothing; they are compared on the
     * next draw and kept when nothing in their input changed. */
    for (int k = 0; k < n && v->n; k++) {
        int cx, cy, cz;
        world_chunk_coords(w, idx[k], &cx, &cy, &cz);
        for (int dy = -1; dy <= 1; dy++)
            for (int dz = -1; dz <= 1; dz++)
                for (int dx = -1; dx <= 1; dx++)
                    if (world_chunk_valid(w, cx + dx, cy + dy, cz + dz)) {
                        ev_chunk *c = &v->ch[world_chunk_index(w, cx + dx, cy + dy, cz + dz)];
                        if (c->in) c->stale = true;
                    }
    }
    return true;
}

static void ev_upload(void *self, const world *w, const int *idx, int n)
{
    enhance_view *v = self;
    renderer_blocks_mode.upload(v->blocks, w, idx, n);
}

static float radius_voxels(void) { return (float)cvar_int("enhance.radius", 64); }

static void draw_near(enhance_view *v, const render_view *view, int nn, bool gpu, render_stats *stats);

/* Chunks left well behind (two chunks beyond the radius, so walking along
 * the edge does not thrash) give their fragments back: what the mode holds
 * stays what enhance.radius was checked for. Their enhanced neighbours
 * close their border again. */
static void evict_far(enhance_view *v, const camera *cam, float radius)
{
    float keep = radius + 2.f * CHUNK_SIZE;
    for (int i = 0; i < v->n; i++) {
        ev_chunk *c = &v->ch[i];
        if (!c->in) continue;
        int cx, cy, cz;
        world_chunk_coords(v->w, i, &cx, &cy, &cz);
        float p[3];
        const float *eye = cam->pos;
        render_chunk_sphere(cam, cx, cy, cz, p);
        float d2 = (p[0] - eye[0]) * (p[0] - eye[0]) + (p[1] - eye[1]) * (p[1] - eye[1]) + (p[2] - eye[2]) * (p[2] - eye[2]);
        if (d2 <= keep * keep) continue;
        drop_chunk(v, i);
        for (int f = 0; f < 6; f++) {
            int x = cx + face_normal[f][0], y = cy + face_normal[f][1], z = cz + face_normal[f][2];
            if (world_chunk_valid(v->w, x, y, z)) v->ch[world_chunk_index(v->w, x, y, z)].mesh_stale = true;
        }
    }
}

/* Whether chunk i, drawn as blocks, touches a chunk drawn as fragments.
 * Those closed their border toward it against its fine voxels (the open
 * sides of enhance_mesh_build), so it must be drawn from them: its coarse
 * level (render.lod_distance) has 2x2x2 cells standing up to a voxel above
 * the voxels, and hides a boundary face wherever the voxel across is solid
 * even where that voxel's fragments are eroded. Between the two, sky
 * showed through: the lone pixels of docs/streaming.md, at the corners of
 * chunks just beyond enhance.radius. */
static bool next_to_fragments(const enhance_view *v, int i)
{
    int cx, cy, cz;
    world_chunk_coords(v->w, i, &cx, &cy, &cz);
    for (int f = 0; f < FACE_COUNT; f++) {
        int x = cx + face_normal[f][0], y = cy + face_normal[f][1], z = cz + face_normal[f][2];
        if (world_chunk_valid(v->w, x, y, z) && v->ch[world_chunk_index(v->w, x, y, z)].in) return true;
    }
    return false;
}

static void ev_draw(void *self, const render_view *view, render_stats *stats)
{
    enhance_view *v = self;
    memset(stats, 0, sizeof *stats);
    int nn = 0, nf = 0;
    bool ok = v->n && v->w && sync_params(v);
    float radius = radius_voxels();
    for (int k = 0; k < view->visible_count; k++) {
        if (ok && view->visible[k].dist <= radius)
            v->near[nn++] = view->visible[k];
        else if (v->far)
            v->far[nf++] = view->visible[k];
    }
    if (ok) evict_far(v, view->cam, radius);
    /* one choice of path a frame for the fragments and the blocks beyond */
    const bool gpu = gpu_cull_pick_next(&v->pick, cvar_int("render.gpu_cull", 0));
    renderer_force_gpu_cull(v->blocks, gpu ? 1 : 0);
    /* every upload lands at once: fragments are made in the frame that
     * first sees them (prepare) and are drawn in it, as the eye meets them
     * (waiting, for a budget or the ring's fence, would show the old ones,
     * or none, for the frames they wait) */
    mesh_arena_set_budget(v->arena, MESH_ARENA_ALL);
    mesh_arena_begin_frame(v->arena, landed, v);
    /* near first: nearest first lets early depth reject what they hide */
    if (nn) draw_near(v, view, nn, gpu, stats);
    mesh_arena_end_frame(v->arena);
    for (int k = 0; ok && k < nf; k++) v->far[k].fine = next_to_fragments(v, v->far[k].index);
    render_view fv = *view;
    fv.visible = v->far ? v->far : view->visible;
    fv.visible_count = v->far ? nf : view->visible_count;
    render_stats far = { 0 };
    renderer_blocks_mode.draw(v->blocks, &fv, &far);
    stats->chunks_loaded += far.chunks_loaded;
    stats->chunks_drawn += far.chunks_drawn;
    stats->chunks_occluded += far.chunks_occluded;
    stats->draw_calls += far.draw_calls, stats->gpu_cull = stats->gpu_cull || far.gpu_cull;
    stats->triangles += far.triangles;
    stats->triangles_loaded += far.triangles_loaded;
    const mesh_arena_stats as = mesh_arena_get_stats(v->arena); /* the two arenas together */
    stats->arena_bytes = far.arena_bytes + as.bytes, stats->arena_used = far.arena_used + as.used;
    stats->arena_fragments = far.arena_fragments + as.fragments, stats->arena_pending = far.arena_pending + as.pending;
}

/* The near chunk k's quads (NULL: none, or another chunk's), its first
 * vertex in the arena, its coordinates and its origin relative to the
 * render origin. */
static const ev_drawn *near_drawn(const enhance_view *v, const render_view *view, int k, long *base, int xyz[3],
                                  float o[3])
{
    const int i = v->near[k].index;
    const ev_drawn *d = &v->ch[i].d;
    if (!d->quads) return NULL;
    world_chunk_coords(v->w, i, &xyz[0], &xyz[1], &xyz[2]);
    if (xyz[0] != d->chunk[0] || xyz[1] != d->chunk[1] || xyz[2] != d->chunk[2]) return NULL;
    const long q = mesh_arena_first(v->arena, i);
    if (q < 0) return NULL;
    *base = 4 * q;
    camera_rel(view->cam, xyz[0] * CHUNK_SIZE, xyz[1] * CHUNK_SIZE, xyz[2] * CHUNK_SIZE, o);
    return d;
}

/* The read-back path: a multi-draw a chunk, its cells asked of the
 * occlusion culler. */
static void draw_near_cpu(enhance_view *v, const render_view *view, int nn, render_stats *stats)
{
    GLsizei *counts = v->counts;
    GLint *bases = v->bases; /* every range starts at the pattern's first index (offsets are 0) */
    glBindVertexArray(v->vao);
    glVertexArrayElementBuffer(v->vao, v->ibo);
    glVertexArrayVertexBuffer(v->vao, 0, mesh_arena_buffer(v->arena), 0, sizeof(enhance_vertex));
    for (int k = 0; k < nn; k++) {
        int xyz[3];
        long base;
        float o[3];
        const ev_drawn *d = near_drawn(v, view, k, &base, xyz, o);
        if (!d) continue;
        bool keep[OCCLUSION_CELLS];
        if (!occlusion_keep_parts(view->occ, v->near[k].dist, o, d->lo, d->hi, OCCLUSION_CELLS, keep)) {
            stats->chunks_occluded++;
            continue;
        }
        /* nearest cell first; the directions that can face the eye */
        int order[OCCLUSION_CELLS], ranges = 0;
        occlusion_cell_order(view->cam->pos, o, order);
        unsigned mask = view->s->wireframe ? 0x3fu : render_facing_mask(view->cam, xyz[0], xyz[1], xyz[2]);
        for (int j = 0; j < OCCLUSION_CELLS; j++) {
            if (!keep[order[j]]) continue;
            for (int part = order[j] * FACE_COUNT; part < (order[j] + 1) * FACE_COUNT; part++) {
                int from = d->part[part], to = d->part[part + 1];
                if (from == to || !(mask >> (part % FACE_COUNT) & 1u)) continue;
                const GLint at = (GLint)base + 4 * from;
                if (ranges && bases[ranges - 1] + counts[ranges - 1] / 6 * 4 == at)
                    counts[ranges - 1] += 6 * (to - from);
                else
                    counts[ranges] = 6 * (to - from), bases[ranges++] = at;
            }
        }
        if (!ranges) continue;
        glVertexAttrib4f(2, o[0], o[1], o[2], 0.f);
        glMultiDrawElementsBaseVertex(GL_TRIANGLES, counts, GL_UNSIGNED_INT, v->offsets, ranges, bases);
        for (int q = 0; q < ranges; q++) stats->triangles += counts[q] / 3;
        stats->chunks_drawn++, stats->draw_calls++;
    }
}

/* The GPU path (gfx/gpu_cull): the read-back path's draws in its order, a
 * command per cell and run of facing directions; false when it cannot
 * run this frame (the read-back path then draws it all). */
static bool draw_near_gpu(enhance_view *v, const render_view *view, int nn, render_stats *stats)
{
    float near = 0.f;
    const int rings = occlusion_rings_asked(view->occ, &near);
    render_stats st = *stats;
    gpu_cull_frame *f = &v->frame;
    gpu_cull_list_begin(f, rings, near);
    for (int k = 0; k < nn; k++) {
        int xyz[3];
        long base;
        float o[3];
        const ev_drawn *d = near_drawn(v, view, k, &base, xyz, o);
        if (!d) continue;
        const int inst = gpu_cull_list_chunk(f, v->near[k].dist, EV_PARTS, OCCLUSION_CELLS, o, 0.f);
        if (inst < 0) return false;
        st.chunks_drawn++;
        int order[OCCLUSION_CELLS];
        occlusion_cell_order(view->cam->pos, o, order);
        unsigned mask = view->s->wireframe ? 0x3fu : render_facing_mask(view->cam, xyz[0], xyz[1], xyz[2]);
        for (int j = 0; j < OCCLUSION_CELLS; j++) {
            const int cell = order[j];
            if (d->lo[cell][0] > d->hi[cell][0]) continue; /* no quads */
            const uint32_t box = (uint32_t)f->box_n;
            const int cmd0 = f->cmd_n;
            for (int part = cell * FACE_COUNT; part < (cell + 1) * FACE_COUNT; part++) {
                int from = d->part[part], to = d->part[part + 1];
                if (from == to || !(mask >> (part % FACE_COUNT) & 1u)) continue;
                gpu_cull_list_quads(f, cmd0, (int32_t)(base + 4 * from), to - from, box, (uint32_t)inst);
            }
            gpu_cull_list_box(f, cmd0, o, d->lo[cell], d->hi[cell]);
        }
    }
    gpu_cull_list_end(f);
    glVertexArrayElementBuffer(v->cull_vao, v->ibo);
    glVertexArrayVertexBuffer(v->cull_vao, 0, mesh_arena_buffer(v->arena), 0, sizeof(enhance_vertex));
    if (!gpu_cull_pick_draw(&v->pick, f, view->cam, view->s->width, view->s->height, rings, v->cull_vao, &st))
        return false;
    *stats = st;
    return true;
}

static void draw_near(enhance_view *v, const render_view *view, int nn, bool gpu, render_stats *stats)
{
    prepare(v, v->near, nn);
    const render_settings *s = view->s;
    glUseProgram(v->prog);
    glUniformMatrix4fv(v->u.viewproj, 1, GL_FALSE, (const float *)view->cam->viewproj);
    glUniform3fv(v->u.camera, 1, view->cam->pos);
    glUniform1f(v->u.inv_factor, 1.0f / (float)enhance_factor(&v->p));
    glUniform1f(v->u.factor, (float)enhance_factor(&v->p));
    glUniform3fv(v->u.fog_color, 1, s->sky);
    glUniform1f(v->u.fog_start, render_fog_start(s));
    glUniform1f(v->u.fog_end, render_fog_end(s));
    glUniform3fv(v->u.tints, 8, &s->tints[0][0]);
    glUniform1i(v->u.atlas, 0);
    glBindTextureUnit(0, s->atlas);
    light_shading_apply(v->prog, &s->light, 1);
    compose_apply(v->prog, &s->look, view->cam->pos, s->sun, COMPOSE_EMIT_UNIT);
    glPolygonMode(GL_FRONT_AND_BACK, s->wireframe ? GL_LINE : GL_FILL);
    for (int k = 0; k < nn; k++) stats->triangles_loaded += 2L * v->ch[v->near[k].index].d.quads;
    if (!(gpu && draw_near_gpu(v, view, nn, stats))) draw_near_cpu(v, view, nn, stats);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glBindVertexArray(0);
}

gpu_cull_counts enhance_view_gpu_counts(void *self, int *verdicts, bool *gpu, gpu_cull_counts *far)
{
    enhance_view *v = self;
    if (far) *far = renderer_gpu_counts(v->blocks, NULL, NULL);
    gpu_cull_pick_verdicts(&v->pick, verdicts, gpu);
    return gpu_cull_last(v->pick.gc);
}

void enhance_view_get_stats(void *self, enhance_view_stats *out)
{
    enhance_view *v = self;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < v->n; i++) {
        const ev_chunk *c = &v->ch[i];
        if (!c->in) continue;
        out->chunks++;
        out->fragments += c->ec.fragments;
        out->surface_voxels += c->ec.count;
        out->skipped += c->ec.skipped;
        out->quads += c->d.quads;
    }
    if (v->ctx) {
        enhance_get_stats(v->ctx, &out->cache);
        out->rule_sets = enhance_rule_sets(v->ctx);
        /* subdivision with materials off has 4 altitude bands; on, and for
         * resampling, thresholds do not depend on height */
        int bands = v->p.op == ENHANCE_SUBDIVIDE && !v->p.materials ? 4 : 1;
        out->table_entries = 128 * bands * out->rule_sets;
    }
    out->last_ms = v->last_ms;
}

void enhance_view_prepare(void *self, const double eye[3])
{
    enhance_view *v = self;
    if (!v->n || !v->w || !sync_params(v)) return;
    float radius = radius_voxels();
    int n = 0;
    for (int i = 0; i < v->n; i++) {
        int cx, cy, cz;
        world_chunk_coords(v->w, i, &cx, &cy, &cz);
        /* in double: the eye may be far from the origin */
        const double h = CHUNK_SIZE / 2, dx = cx * CHUNK_SIZE + h - eye[0], dy = cy * CHUNK_SIZE + h - eye[1],
                     dz = cz * CHUNK_SIZE + h - eye[2];
        float d = (float)sqrt(dx * dx + dy * dy + dz * dz);
        if (d <= radius) v->near[n++] = (render_item){ i, d };
    }
    prepare(v, v->near, n);
}

/* A fragment cell of the window (collide_grid: fragments counted from the
 * window's first voxel, inside its extent, as collide asks, so never
 * negative and a plain division is the voxel; below the world's 0 C's
 * division would round the wrong way): solid when its material blocks.
 * Chunk and fragment stay window-relative until the voxel's global
 * coordinates are needed, so nothing is large far away. */
static bool ground_solid(void *user, int fx, int fy, int fz)
{
    const enhance_view *v = user;
    const int x0 = world_x0(v->w), z0 = world_z0(v->w);
    int f = enhance_factor(&v->p), x = x0 + fx / f, y = fy / f, z = z0 + fz / f;
    int cx = x >> CHUNK_BITS, cy = y >> CHUNK_BITS, cz = z >> CHUNK_BITS;
    if (!world_chunk_valid(v->w, cx, cy, cz)) return false;
    const ev_chunk *c = &v->ch[world_chunk_index(v->w, cx, cy, cz)];
    /* not enhanced, changed since, or another column's fragments still */
    if (!c->in || c->stale || c->ocx != cx || c->ocz != cz) return material_get(world_get(v->w, x, y, z))->solid;
    /* the chunk's first fragment, from the window's first voxel */
    int m = CHUNK_SIZE * f, ax = (cx * CHUNK_SIZE - x0) * f, az = (cz * CHUNK_SIZE - z0) * f;
    uint8_t mat = enhance_chunk_fragment_material(&c->ec, c->in, fx - ax, fy - cy * m, fz - az);
    return material_get(mat)->solid;
}

bool enhance_view_ground(void *self, const world *w, collide_grid *out)
{
    enhance_view *v = self;
    if (!v || !v->n || !w || v->w != w || !v->ctx) return false;
    *out = (collide_grid){ .scale = enhance_factor(&v->p), .solid = ground_solid, .user = v };
    return true;
}

const render_mode enhance_view_mode = {
    .name = "enhanced",
    .help = "detail-enhanced fragments near the player (seed 000), blocks beyond",
    .create = ev_create,
    .destroy = ev_destroy,
    .reset = ev_reset,
    .build = ev_build,
    .upload = ev_upload,
    .draw = ev_draw,
};
