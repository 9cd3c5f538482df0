#include "gfx/renderer.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gfx/gpu_cull.h"
#include "gfx/light_tex.h"
#include "gfx/mesh_arena.h"
#include "gfx/quad_index.h"
#include "gfx/shader.h"
#include "mesh/mesh_world.h"
#include "ui/cvar.h"
#include "voxel/chunk.h"

/* A chunk's quads are culled by cell (occlusion.h, by a quad's minimum
 * corner). A part is one face direction of one cell: cell * FACE_COUNT +
 * face. */
#define CELLS OCCLUSION_CELLS
#define PARTS (CELLS * FACE_COUNT)

/* One level of detail of one chunk: its passes back to back in one range
 * of the arena (gfx/mesh_arena; slot chunk * RENDERER_LODS + level), each
 * pass's quads grouped by part (sorted at upload), so the directions
 * facing away from the eye and the cells outside the frustum or hidden
 * behind what is already drawn can be left out. */
typedef struct gpu_mesh {
    bool live;             /* in the arena */
    /* the chunk it was built for: a mesh still waiting to land (a frame's
     * upload budget) leaves the slot's older one, drawn only while the
     * slot holds that chunk, never at a streamed successor's place */
    int chunk[3];
    int first[PASS_COUNT]; /* first vertex of each pass inside the range */
    int count[PASS_COUNT]; /* vertices of each pass */
    int part[PASS_COUNT][PARTS + 1]; /* vertex where part k starts, from first[p]; [PARTS] = count */
    size_t bytes;            /* the range's size */
    /* chunk-local box around the opaque and cut-out quads of each cell
     * (lo > hi: none), what occlusion culling tests */
    float lo[CELLS][3], hi[CELLS][3];
} gpu_mesh;

typedef struct gpu_chunk {
    gpu_mesh lod[RENDERER_LODS];
} gpu_chunk;

struct renderer {
    GLuint prog, vao, ibo;
    mesh_arena *arena;
    int ibo_quads;
    GLuint atlas;
    int cx, cy, cz;
    world_grid grid; /* which chunk each slot holds (the world's window) */
    gpu_chunk *chunks;
    unsigned char *has;   /* per chunk: any geometry (the visible set skips the rest) */
    render_item *order;   /* scratch: the visible set */
    renderer_options opt;
    size_t bytes;         /* every chunk mesh together */
    /* the mode's build output, kept for upload */
    chunk_mesh *meshes, *lod_meshes;
    int mesh_cap, mesh_count;
    mesh_vertex *sorted;  /* scratch: a chunk's quads sorted by part for upload */
    int sorted_cap;
    struct {
        GLint viewproj, camera, atlas, pass, sun, fog_color, fog_start, fog_end, tints;
    } u;
    /* the opaque pass culled on the GPU (gfx/gpu_cull), and its vertex
     * array: the packed vertex at binding 0, the chunk's origin an
     * instanced attribute at binding 1 */
    gpu_cull_pick pick;
    gpu_cull_frame frame;
    GLuint gpu_vao;
    int cull_force; /* render.gpu_cull as another mode chose it for this one (-1: the cvar's) */
};

renderer *renderer_create(char *err, size_t errlen)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->prog = shader_load_composed("chunk.vert", "chunk.frag", err, errlen);
    if (!r->prog) goto fail;
#define U(name) glGetUniformLocation(r->prog, "u_" #name)
    r->u.viewproj = U(viewproj), r->u.camera = U(camera), r->u.atlas = U(atlas);
    r->u.pass = U(pass), r->u.sun = U(sun), r->u.fog_color = U(fog_color), r->u.fog_start = U(fog_start);
    r->u.fog_end = U(fog_end), r->u.tints = U(tints);
#undef U
    r->arena = mesh_arena_create(4 * sizeof(mesh_vertex), 0, sizeof(gpu_mesh), err, errlen);
    if (!r->arena) goto fail;

    /* One VAO for every chunk, the arena its vertex buffer; the chunk's
     * origin (attribute 2) is a constant attribute set per draw. */
    glCreateVertexArrays(1, &r->vao);
    glEnableVertexArrayAttrib(r->vao, 0);
    glEnableVertexArrayAttrib(r->vao, 1);
    glVertexArrayAttribIFormat(r->vao, 0, 1, GL_UNSIGNED_INT, 0);
    glVertexArrayAttribIFormat(r->vao, 1, 1, GL_UNSIGNED_INT, 4);
    glVertexArrayAttribBinding(r->vao, 0, 0);
    glVertexArrayAttribBinding(r->vao, 1, 0);
    glCreateVertexArrays(1, &r->gpu_vao);
    for (GLuint a = 0; a < 3; a++) glEnableVertexArrayAttrib(r->gpu_vao, a);
    glVertexArrayAttribIFormat(r->gpu_vao, 0, 1, GL_UNSIGNED_INT, 0);
    glVertexArrayAttribIFormat(r->gpu_vao, 1, 1, GL_UNSIGNED_INT, 4);
    glVertexArrayAttribFormat(r->gpu_vao, 2, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(r->gpu_vao, 0, 0);
    glVertexArrayAttribBinding(r->gpu_vao, 1, 0);
    glVertexArrayAttribBinding(r->gpu_vao, 2, 1);
    glVertexArrayBindingDivisor(r->gpu_vao, 1, 1);
    glCreateBuffers(1, &r->ibo);
    r->opt = renderer_default_options();
    r->cull_force = -1;
    gpu_cull_pick_init(&r->pick, "blocks");
    return r;
fail:
    renderer_destroy(r);
    return NULL;
}

static void free_chunks(renderer *r)
{
    if (r->arena) mesh_arena_reset(r->arena, 0);
    free(r->chunks);
    free(r->order);
    free(r->has);
    r->bytes = 0;
    r->chunks = NULL;
    r->order = NULL;
    r->has = NULL;
}

void renderer_destroy(renderer *r)
{
    if (!r) return;
    free_chunks(r);
    mesh_arena_destroy(r->arena);
    gpu_cull_pick_free(&r->pick);
    gpu_cull_frame_free(&r->frame);
    if (r->prog) glDeleteProgram(r->prog);
    if (r->vao) glDeleteVertexArrays(1, &r->vao);
    if (r->gpu_vao) glDeleteVertexArrays(1, &r->gpu_vao);
    if (r->ibo) glDeleteBuffers(1, &r->ibo);
    for (int i = 0; i < r->mesh_cap; i++) mesh_free(&r->meshes[i]), mesh_free(&r->lod_meshes[i]);
    free(r->meshes);
    free(r->lod_meshes);
    free(r->sorted);
    free(r);
}

void renderer_set_atlas(renderer *r, unsigned texture) { r->atlas = texture; }

renderer_options renderer_default_options(void)
{
    return (renderer_options){ .face_ranges = true, .lod_distance = RENDERER_LOD_DISTANCE };
}

void renderer_set_options(renderer *r, const renderer_options *o) { r->opt = *o; }

void renderer_reset(renderer *r, int cx, int cy, int cz)
{
    free_chunks(r);
    r->cx = cx, r->cy = cy, r->cz = cz;
    r->grid = world_grid_origin(cx, cy, cz);
    int n = cx * cy * cz;
    r->chunks = calloc((size_t)n, sizeof *r->chunks);
    r->order = malloc(sizeof *r->order * (size_t)n);
    r->has = calloc((size_t)n, 1);
    if (!mesh_arena_reset(r->arena, n * RENDERER_LODS)) log_warn("no memory for the mesh arena's %d slots", n * RENDERER_LODS);
}

/* The shared quad indices, for as many quads as the largest chunk. */
static void ensure_indices(renderer *r, int quads)
{
    if (quads <= r->ibo_quads) return;
    int n = r->ibo_quads ? r->ibo_quads : 4096;
    while (n < quads) n *= 2;
    if (quad_index_upload(r->ibo, n)) r->ibo_quads = n;
}

/* Frees one level of chunk i (an empty chunk, or one GL could not hold). */
static void drop_mesh(renderer *r, int i, int level)
{
    gpu_mesh *g = &r->chunks[i].lod[level];
    mesh_arena_drop(r->arena, i * RENDERER_LODS + level);
    r->bytes -= g->bytes;
    memset(g, 0, sizeof *g);
    if (level == 0) r->has[i] = 0;
}

/* A mesh is in the arena (at once, or a later frame: mesh_arena_put). */
static void landed(void *user, int slot, const void *meta)
{
    renderer *r = user;
    const int i = slot / RENDERER_LODS, level = slot % RENDERER_LODS;
    gpu_mesh *g = &r->chunks[i].lod[level];
    if (!meta) { /* no room after all */
        drop_mesh(r, i, level);
        return;
    }
    r->bytes -= g->bytes;
    memcpy(g, meta, sizeof *g);
    g->live = true;
    r->bytes += g->bytes;
    if (level == 0) r->has[i] = 1;
}

static int quad_part(uint32_t a)
{
    int cell = occlusion_cell((float)(a & 63u), (float)((a >> 6) & 63u), (float)((a >> 12) & 63u));
    int face = (int)((a >> 18) & 7u);
    return cell * FACE_COUNT + (face < FACE_COUNT ? face : 0);
}

/* Copies a pass's quads into dst grouped by part (a counting sort: stable,
 * so the mesher's order stays within a part) and says where each part
 * starts; widens each cell's box by its quads' corners (cull: the pass is
 * one occlusion culling tests). */
static void sort_parts(const mesh_buffer *b, mesh_vertex *dst, int part[PARTS + 1], gpu_mesh *g, bool cull)
{
    int n[PARTS] = { 0 }, at[PARTS];
    for (int q = 0; q < b->count; q += 4) n[quad_part(b->v[q].a)] += 4;
    part[0] = 0;
    for (int k = 0; k < PARTS; k++) part[k + 1] = part[k] + n[k], at[k] = part[k];
    for (int q = 0; q < b->count; q += 4) {
        int k = quad_part(b->v[q].a), cell = k / FACE_COUNT;
        memcpy(dst + at[k], b->v + q, 4 * sizeof *dst);
        at[k] += 4;
        for (int c = 0; cull && c < 4; c++) { /* quads list all four corners: they bound the quad */
            uint32_t a = b->v[q + c].a;
            const float p[3] = { (float)(a & 63u), (float)((a >> 6) & 63u), (float)((a >> 12) & 63u) };
            for (int i = 0; i < 3; i++)
                g->lo[cell][i] = fminf(g->lo[cell][i], p[i]), g->hi[cell][i] = fmaxf(g->hi[cell][i], p[i]);
        }
    }
}

bool renderer_upload_lod(renderer *r, int cx, int cy, int cz, int level, const chunk_mesh *m)
{
    if (!world_grid_valid(&r->grid, cx, cy, cz) || level < 0 || level >= RENDERER_LODS) return false;
    int i = world_grid_index(&r->grid, cx, cy, cz);
    gpu_mesh staged = { .chunk = { cx, cy, cz } }, *g = &staged;
    int total = 0, maxq = 0;
    for (int p = 0; p < PASS_COUNT; p++) {
        g->first[p] = total;
        g->count[p] = m->pass[p].count;
        total += m->pass[p].count;
        if (m->pass[p].count / 4 > maxq) maxq = m->pass[p].count / 4;
    }
    if (total == 0) {
        drop_mesh(r, i, level);
        return true;
    }
    if (total > r->sorted_cap) {
        mesh_vertex *v = realloc(r->sorted, sizeof *v * (size_t)total);
        if (!v) {
            log_warn("chunk %d %d %d: no memory to sort %d vertices; the chunk is not drawn", cx, cy, cz, total);
            drop_mesh(r, i, level);
            return false;
        }
        r->sorted = v, r->sorted_cap = total;
    }
    for (int c = 0; c < CELLS; c++)
        for (int k = 0; k < 3; k++) g->lo[c][k] = INFINITY, g->hi[c][k] = -INFINITY;
    for (int p = 0; p < PASS_COUNT; p++)
        sort_parts(&m->pass[p], r->sorted + g->first[p], g->part[p], g, p != PASS_TRANSLUCENT);
    ensure_indices(r, maxq);
    size_t bytes = sizeof(mesh_vertex) * (size_t)total;
    const gpu_mesh *old = &r->chunks[i].lod[level];
    if (r->opt.budget_bytes && r->bytes - old->bytes + bytes > r->opt.budget_bytes) {
        log_warn("chunk %d %d %d: %zu bytes would pass the GPU memory budget (%zu); the chunk is not drawn", cx, cy,
                 cz, bytes, r->opt.budget_bytes);
        drop_mesh(r, i, level);
        return false;
    }
    g->bytes = bytes;
    if (r->ibo_quads < maxq) {
        log_warn("chunk %d %d %d: no GPU memory for %d quads' indices; the chunk is not drawn", cx, cy, cz, maxq);
        drop_mesh(r, i, level);
        return false;
    }
    /* passes start on a quad (every count is a multiple of 4): the arena
     * counts in quads, so every base vertex stays a multiple of 4 */
    mesh_arena_begin_frame(r->arena, landed, r);
    switch (mesh_arena_put(r->arena, i * RENDERER_LODS + level, r->sorted, (uint32_t)(total / 4), g)) {
    case MESH_ARENA_LANDED: landed(r, i * RENDERER_LODS + level, g); return true;
    case MESH_ARENA_PENDING: return true; /* the old mesh is drawn until it lands */
    default: drop_mesh(r, i, level); return false;
    }
}

bool renderer_upload(renderer *r, int cx, int cy, int cz, const chunk_mesh *m)
{
    /* without a coarse level the chunk is drawn fine at every distance */
    bool ok = renderer_upload_lod(r, cx, cy, cz, 0, m);
    static const chunk_mesh none;
    for (int l = 1; l < RENDERER_LODS; l++) renderer_upload_lod(r, cx, cy, cz, l, &none);
    return ok;
}

void renderer_set_grid(renderer *r, world_grid g)
{
    if (g.cx == r->cx && g.cy == r->cy && g.cz == r->cz) r->grid = g;
}

/* The level visible chunk k draws (its coarse one beyond lod_distance,
 * unless it has none yet), its level, the base vertex of its range in the
 * arena, its coordinates and its origin relative to the render origin;
 * NULL when it has nothing to draw. */
static const gpu_mesh *chunk_level(const renderer *r, const render_view *v, int k, int *level, long *base, float o[3],
                                   int xyz[3])
{
    const int i = v->visible[k].index;
    if (i < 0 || i >= r->cx * r->cy * r->cz || !r->has[i]) return NULL;
    *level = !v->visible[k].fine && r->opt.lod_distance > 0 && v->visible[k].dist > r->opt.lod_distance ? 1 : 0;
    const gpu_mesh *g = &r->chunks[i].lod[*level];
    if (!g->live) g = &r->chunks[i].lod[0], *level = 0; /* no coarse level (yet): fine */
    const long q = mesh_arena_first(r->arena, i * RENDERER_LODS + *level);
    if (q < 0) return NULL;
    *base = q * 4;
    world_grid_coords(&v->grid, i, &xyz[0], &xyz[1], &xyz[2]);
    if (xyz[0] != g->chunk[0] || xyz[1] != g->chunk[1] || xyz[2] != g->chunk[2]) return NULL; /* another chunk's */
    camera_rel(v->cam, xyz[0] * CHUNK_SIZE, xyz[1] * CHUNK_SIZE, xyz[2] * CHUNK_SIZE, o);
    return g;
}

/* The read-back path: one multi-draw per chunk, each chunk's cells asked of the
 * occlusion culler (which reads the depth back at each ring). */
static void draw_opaque_cpu(renderer *r, const render_view *v, unsigned mask_all, render_stats *stats)
{
    const camera *cam = v->cam;
    GLsizei counts[2 * PARTS];
    const void *offsets[2 * PARTS];
    GLint bases[2 * PARTS];
    memset(offsets, 0, sizeof offsets); /* every range starts at the pattern's first index */
    for (int k = 0; k < v->visible_count; k++) {
        int level, xyz[3];
        long base;
        float o[3];
        const gpu_mesh *g = chunk_level(r, v, k, &level, &base, o, xyz);
        if (!g) continue;
        bool keep[CELLS]; /* the cells to draw */
        if (!occlusion_keep_parts(v->occ, v->visible[k].dist, o, g->lo, g->hi, CELLS, keep)) {
            stats->chunks_occluded++;
            continue;
        }
        stats->chunks_drawn++;
        unsigned mask = mask_all ? mask_all : render_facing_mask(cam, xyz[0], xyz[1], xyz[2]);
        int ranges = 0, order[CELLS];
        occlusion_cell_order(cam->pos, o, order);
        for (int c = 0; c < CELLS; c++) {
            if (!keep[order[c]]) continue;
            for (int pass = PASS_OPAQUE; pass <= PASS_CUTOUT; pass++) {
                for (int part = order[c] * FACE_COUNT; part < (order[c] + 1) * FACE_COUNT; part++) {
                    int from = g->part[pass][part], to = g->part[pass][part + 1];
                    if (from == to || !(mask >> (part % FACE_COUNT) & 1u)) continue;
                    /* parts next to each other in the buffer are one range */
                    const GLint at = (GLint)base + g->first[pass] + from;
                    if (ranges && bases[ranges - 1] + counts[ranges - 1] / 6 * 4 == at)
                        counts[ranges - 1] += (to - from) / 4 * 6;
                    else
                        counts[ranges] = (to - from) / 4 * 6, bases[ranges++] = at;
                }
            }
        }
        if (!ranges) continue;
        glVertexAttrib4f(2, o[0], o[1], o[2], (float)level);
        glMultiDrawElementsBaseVertex(GL_TRIANGLES, counts, GL_UNSIGNED_INT, offsets, ranges, bases);
        stats->draw_calls++;
        for (int q = 0; q < ranges; q++) stats->triangles += counts[q] / 3;
    }
}

/* The GPU path's list (gfx/gpu_cull): the CPU path's draws, in its order,
 * one command per cell, pass and run of face directions, in rings by
 * distance as the occlusion culler reads (render.occlusion_near, then
 * twice as far). False when out of memory. */
static bool list_opaque_gpu(renderer *r, const render_view *v, unsigned mask_all, int rings, float near,
                            render_stats *stats)
{
    gpu_cull_frame *f = &r->frame;
    gpu_cull_list_begin(f, rings, near);
    for (int k = 0; k < v->visible_count; k++) {
        int level, xyz[3];
        long base;
        float o[3];
        const gpu_mesh *g = chunk_level(r, v, k, &level, &base, o, xyz);
        if (!g) continue;
        const int inst = gpu_cull_list_chunk(f, v->visible[k].dist, 2 * PARTS, CELLS, o, (float)level);
        if (inst < 0) return false;
        stats->chunks_drawn++;
        unsigned mask = mask_all ? mask_all : render_facing_mask(v->cam, xyz[0], xyz[1], xyz[2]);
        int order[CELLS];
        occlusion_cell_order(v->cam->pos, o, order);
        for (int c = 0; c < CELLS; c++) {
            const int cell = order[c];
            if (g->lo[cell][0] > g->hi[cell][0]) continue; /* no opaque or cut-out quads */
            const uint32_t box = (uint32_t)f->box_n;
            const int cmd0 = f->cmd_n;
            for (int pass = PASS_OPAQUE; pass <= PASS_CUTOUT; pass++) {
                for (int part = cell * FACE_COUNT; part < (cell + 1) * FACE_COUNT; part++) {
                    int from = g->part[pass][part], to = g->part[pass][part + 1];
                    if (from == to || !(mask >> (part % FACE_COUNT) & 1u)) continue;
                    gpu_cull_list_quads(f, cmd0, (int32_t)base + g->first[pass] + from, (to - from) / 4, box,
                                        (uint32_t)inst);
                }
            }
            gpu_cull_list_box(f, cmd0, o, g->lo[cell], g->hi[cell]); /* unless nothing of the cell faces the eye */
        }
    }
    gpu_cull_list_end(f);
    return true;
}

/* The GPU path; false (nothing drawn, or a part: the CPU path draws it
 * all again, over it) when it cannot run this frame. */
static bool draw_opaque_gpu(renderer *r, const render_view *v, unsigned mask_all, render_stats *stats)
{
    float near = 0.f;
    const int rings = occlusion_rings_asked(v->occ, &near);
    render_stats st = *stats;
    for (GLenum e; (e = glGetError()) != GL_NO_ERROR;) log_warn("GL error 0x%04x while drawing (before the GPU cull)", e);
    if (!list_opaque_gpu(r, v, mask_all, rings, near, &st)) return false;
    glVertexArrayVertexBuffer(r->gpu_vao, 0, mesh_arena_buffer(r->arena), 0, sizeof(mesh_vertex));
    glVertexArrayElementBuffer(r->gpu_vao, r->ibo);
    if (!gpu_cull_pick_draw(&r->pick, &r->frame, v->cam, v->s->width, v->s->height, rings, r->gpu_vao, &st))
        return false;
    *stats = st;
    return true;
}

void renderer_draw_view(renderer *r, const render_view *v, render_stats *stats)
{
    renderer_set_grid(r, v->grid);
    const render_settings *s = v->s;
    const camera *cam = v->cam;
    memset(stats, 0, sizeof *stats);
    mesh_arena_set_budget(r->arena, r->opt.upload_budget);
    mesh_arena_begin_frame(r->arena, landed, r); /* what waited lands first */
    int n = r->cx * r->cy * r->cz;
    for (int i = 0; i < n; i++) {
        if (!r->has[i]) continue;
        const gpu_mesh *g = &r->chunks[i].lod[0];
        stats->chunks_loaded++;
        stats->triangles_loaded += (g->count[0] + g->count[1] + g->count[2]) / 2;
    }
    glPolygonMode(GL_FRONT_AND_BACK, s->wireframe ? GL_LINE : GL_FILL);
    glUseProgram(r->prog);
    glUniformMatrix4fv(r->u.viewproj, 1, GL_FALSE, (const float *)cam->viewproj);
    glUniform3fv(r->u.camera, 1, cam->pos);
    vec3 sun = { s->sun[0], s->sun[1], s->sun[2] };
    glm_vec3_normalize(sun);
    glUniform3fv(r->u.sun, 1, sun);
    glUniform3fv(r->u.fog_color, 1, s->sky);
    glUniform1f(r->u.fog_start, render_fog_start(s));
    glUniform1f(r->u.fog_end, render_fog_end(s));
    glUniform3fv(r->u.tints, 8, &s->tints[0][0]);
    glUniform1i(r->u.atlas, 0);
    glBindTextureUnit(0, s->atlas ? s->atlas : r->atlas);
    light_shading_apply(r->prog, &s->light, 1);
    compose_apply(r->prog, &s->look, cam->pos, s->sun, COMPOSE_EMIT_UNIT);
    glBindVertexArray(r->vao);
    glVertexArrayElementBuffer(r->vao, r->ibo);
    glVertexArrayVertexBuffer(r->vao, 0, mesh_arena_buffer(r->arena), 0, sizeof(mesh_vertex));

    /* Opaque and cut-out together, nearest chunk first and in each chunk
     * nearest cell first: foliage is drawn solid (its holes dark, see
     * chunk.frag), so early depth rejects what lies behind it. */
    glUniform1i(r->u.pass, PASS_OPAQUE);
    const unsigned mask_all = r->opt.face_ranges && !s->wireframe ? 0u : 0x3fu; /* 0: per chunk */
    if (!(gpu_cull_pick_next(&r->pick, r->opt.gpu_cull) && draw_opaque_gpu(r, v, mask_all, stats))) draw_opaque_cpu(r, v, mask_all, stats);

    /* translucent, far to near so overlapping bog surfaces blend in order;
     * always the fine level (bogs are flat: nothing to gain) */
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE); /* a bog surface is seen from above and below */
    glUniform1i(r->u.pass, PASS_TRANSLUCENT);
    for (int k = v->visible_count - 1; k >= 0; k--) {
        int i = v->visible[k].index;
        if (i < 0 || i >= n || !r->has[i]) continue;
        const gpu_mesh *g = &r->chunks[i].lod[0];
        const long base = 4 * mesh_arena_first(r->arena, i * RENDERER_LODS);
        if (!g->count[PASS_TRANSLUCENT] || base < 0) continue;
        int x, y, z;
        world_grid_coords(&v->grid, i, &x, &y, &z);
        if (x != g->chunk[0] || y != g->chunk[1] || z != g->chunk[2]) continue; /* another chunk's (chunk_level) */
        float o[3];
        camera_rel(cam, x * CHUNK_SIZE, y * CHUNK_SIZE, z * CHUNK_SIZE, o);
        glVertexAttrib4f(2, o[0], o[1], o[2], 0.f);
        glDrawElementsBaseVertex(GL_TRIANGLES, g->count[PASS_TRANSLUCENT] / 4 * 6, GL_UNSIGNED_INT, NULL,
                                 (GLint)base + g->first[PASS_TRANSLUCENT]);
        stats->triangles += g->count[PASS_TRANSLUCENT] / 2;
    }
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glEnable(GL_CULL_FACE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glBindVertexArray(0);
    mesh_arena_end_frame(r->arena);
    const mesh_arena_stats as = mesh_arena_get_stats(r->arena);
    stats->arena_bytes = as.bytes, stats->arena_used = as.used;
    stats->arena_fragments = as.fragments, stats->arena_pending = as.pending;
}

void renderer_force_gpu_cull(renderer *r, int setting) { r->cull_force = setting; }

gpu_cull_counts renderer_gpu_counts(const renderer *r, int *verdicts, bool *gpu)
{
    gpu_cull_pick_verdicts(&r->pick, verdicts, gpu);
    return gpu_cull_last(r->pick.gc);
}

void renderer_draw(renderer *r, const camera *cam, const render_settings *s, render_stats *stats)
{
    render_frame_begin(s);
    int n = render_visible_set(cam, s->view_distance, &r->grid, r->has, r->order);
    render_view v = { cam, s, r->order, n, r->grid };
    renderer_draw_view(r, &v, stats);
}

/* ---- the blocks render mode ------------------------------------------- */

static void *blocks_create(char *err, size_t errlen) { return renderer_create(err, errlen); }
static void blocks_destroy(void *self) { renderer_destroy(self); }
static void blocks_reset(void *self, int cx, int cy, int cz) { renderer_reset(self, cx, cy, cz); }

/* the settings a player can change; tests set options directly */
static void read_cvars(renderer *r)
{
    const cvar *lod = cvar_find("render.lod_distance"), *ranges = cvar_find("render.face_ranges");
    const cvar *gpu = cvar_find("render.gpu_cull"), *budget = cvar_find("render.upload_budget");
    if (lod) r->opt.lod_distance = lod->f;
    if (ranges) r->opt.face_ranges = ranges->b;
    if (gpu) r->opt.gpu_cull = gpu->i;
    if (r->cull_force >= 0) r->opt.gpu_cull = r->cull_force;
    if (budget) r->opt.upload_budget = (size_t)budget->i << 10;
    mesh_arena_set_budget(r->arena, r->opt.upload_budget);
}

static bool blocks_build(void *self, const world *w, job_pool *jobs, const int *idx, int n)
{
    renderer *r = self;
    if (n > r->mesh_cap) {
        chunk_mesh *m = realloc(r->meshes, sizeof *m * (size_t)n);
        if (m) r->meshes = m;
        chunk_mesh *l = realloc(r->lod_meshes, sizeof *l * (size_t)n);
        if (l) r->lod_meshes = l;
        if (!m || !l) {
            log_warn("no memory to mesh %d chunks; they stay as they were", n);
            r->mesh_count = 0;
            return false;
        }
        memset(m + r->mesh_cap, 0, sizeof *m * (size_t)(n - r->mesh_cap));
        memset(l + r->mesh_cap, 0, sizeof *l * (size_t)(n - r->mesh_cap));
        r->mesh_cap = n;
    }
    const cvar *greedy = cvar_find("render.greedy");
    mesh_world_chunks_lod(w, jobs, idx, n, greedy ? greedy->b : true, r->meshes, r->lod_meshes);
    r->mesh_count = n;
    return true;
}

static void blocks_upload(void *self, const world *w, const int *idx, int n)
{
    renderer *r = self;
    read_cvars(r);
    renderer_set_grid(r, world_grid_of(w)); /* the window may have moved */
    for (int i = 0; i < n && i < r->mesh_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, idx[i], &cx, &cy, &cz);
        if (renderer_upload_lod(r, cx, cy, cz, 0, &r->meshes[i]))
            renderer_upload_lod(r, cx, cy, cz, 1, &r->lod_meshes[i]);
    }
}

static void blocks_draw(void *self, const render_view *v, render_stats *stats)
{
    renderer *r = self;
    read_cvars(r);
    renderer_draw_view(r, v, stats);
}

const render_mode renderer_blocks_mode = {
    .name = "blocks",
    .help = "textured blocks from the atlas, greedy-merged quads (seed 001)",
    .create = blocks_create,
    .destroy = blocks_destroy,
    .reset = blocks_reset,
    .build = blocks_build,
    .upload = blocks_upload,
    .draw = blocks_draw,
};
