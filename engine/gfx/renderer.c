#include "gfx/renderer.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gfx/light_tex.h"
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

/* One level of detail of one chunk: its passes back to back in one VBO,
 * each pass's quads grouped by part (sorted at upload), so the directions
 * facing away from the eye and the cells outside the frustum or hidden
 * behind what is already drawn can be left out. */
typedef struct gpu_mesh {
    GLuint vbo;
    int first[PASS_COUNT]; /* first vertex of each pass inside the VBO */
    int count[PASS_COUNT]; /* vertices of each pass */
    int part[PASS_COUNT][PARTS + 1]; /* vertex where part k starts, from first[p]; [PARTS] = count */
    size_t bytes;            /* the VBO's size */
    /* chunk-local box around the opaque and cut-out quads of each cell
     * (lo > hi: none), what occlusion culling tests */
    float lo[CELLS][3], hi[CELLS][3];
} gpu_mesh;

typedef struct gpu_chunk {
    gpu_mesh lod[RENDERER_LODS];
} gpu_chunk;

struct renderer {
    GLuint prog, vao, ibo;
    int ibo_quads;
    GLuint atlas;
    int cx, cy, cz;
    world_grid grid; /* which chunk each slot holds (the world's window) */
    gpu_chunk *chunks;
    unsigned char *has;   /* per chunk: any geometry (the visible set skips the rest) */
    render_item *order;   /* scratch: the visible set */
    renderer_options opt;
    size_t bytes;         /* every chunk VBO together */
    /* the mode's build output, kept for upload */
    chunk_mesh *meshes, *lod_meshes;
    int mesh_cap, mesh_count;
    mesh_vertex *sorted;  /* scratch: a chunk's quads sorted by part for upload */
    int sorted_cap;
    struct {
        GLint viewproj, origin, camera, atlas, pass, sun, fog_color, fog_start, fog_end, tints, coarse;
    } u;
};

renderer *renderer_create(char *err, size_t errlen)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->prog = shader_load_composed("chunk.vert", "chunk.frag", err, errlen);
    if (!r->prog) goto fail;
#define U(name) glGetUniformLocation(r->prog, "u_" #name)
    r->u.viewproj = U(viewproj), r->u.origin = U(origin), r->u.camera = U(camera), r->u.atlas = U(atlas);
    r->u.pass = U(pass), r->u.sun = U(sun), r->u.fog_color = U(fog_color), r->u.fog_start = U(fog_start);
    r->u.fog_end = U(fog_end), r->u.tints = U(tints), r->u.coarse = U(coarse);
#undef U

    /* One VAO for every chunk: only the vertex buffer binding changes per draw. */
    glCreateVertexArrays(1, &r->vao);
    glEnableVertexArrayAttrib(r->vao, 0);
    glEnableVertexArrayAttrib(r->vao, 1);
    glVertexArrayAttribIFormat(r->vao, 0, 1, GL_UNSIGNED_INT, 0);
    glVertexArrayAttribIFormat(r->vao, 1, 1, GL_UNSIGNED_INT, 4);
    glVertexArrayAttribBinding(r->vao, 0, 0);
    glVertexArrayAttribBinding(r->vao, 1, 0);
    glCreateBuffers(1, &r->ibo);
    r->opt = renderer_default_options();
    return r;
fail:
    renderer_destroy(r);
    return NULL;
}

static void free_chunks(renderer *r)
{
    int n = r->cx * r->cy * r->cz;
    for (int i = 0; i < n && r->chunks; i++)
        for (int l = 0; l < RENDERER_LODS; l++)
            if (r->chunks[i].lod[l].vbo) glDeleteBuffers(1, &r->chunks[i].lod[l].vbo);
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
    if (r->prog) glDeleteProgram(r->prog);
    if (r->vao) glDeleteVertexArrays(1, &r->vao);
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
    if (g->vbo) glDeleteBuffers(1, &g->vbo);
    r->bytes -= g->bytes;
    memset(g, 0, sizeof *g);
    if (level == 0) r->has[i] = 0;
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
    gpu_mesh *g = &r->chunks[i].lod[level];
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
    if (!g->vbo) glCreateBuffers(1, &g->vbo);
    size_t bytes = sizeof(mesh_vertex) * (size_t)total;
    if (r->opt.budget_bytes && r->bytes - g->bytes + bytes > r->opt.budget_bytes) {
        log_warn("chunk %d %d %d: %zu bytes would pass the GPU memory budget (%zu); the chunk is not drawn", cx, cy,
                 cz, bytes, r->opt.budget_bytes);
        drop_mesh(r, i, level);
        return false;
    }
    while (glGetError() != GL_NO_ERROR) {} /* only this upload's errors count below */
    /* Re-specifying the whole (small) store lets the driver orphan the old
     * one instead of stalling on it: the paper's conclusion, done cheaply. */
    glNamedBufferData(g->vbo, (GLsizeiptr)bytes, NULL, GL_STATIC_DRAW);
    r->bytes += bytes - g->bytes;
    g->bytes = bytes;
    if (glGetError() == GL_OUT_OF_MEMORY || r->ibo_quads < maxq) {
        log_warn("chunk %d %d %d: no GPU memory for %d vertices; the chunk is not drawn", cx, cy, cz, total);
        drop_mesh(r, i, level);
        return false;
    }
    glNamedBufferSubData(g->vbo, 0, (GLsizeiptr)bytes, r->sorted);
    if (level == 0) r->has[i] = 1;
    return true;
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

void renderer_draw_view(renderer *r, const render_view *v, render_stats *stats)
{
    renderer_set_grid(r, v->grid);
    const render_settings *s = v->s;
    const camera *cam = v->cam;
    memset(stats, 0, sizeof *stats);
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

    /* Opaque and cut-out together, nearest chunk first and in each chunk
     * nearest cell first: foliage is drawn solid (its holes dark, see
     * chunk.frag), so early depth rejects what lies behind it, and one
     * multi-draw per chunk covers both passes. */
    GLsizei counts[2 * PARTS];
    const void *offsets[2 * PARTS];
    GLint bases[2 * PARTS];
    memset(offsets, 0, sizeof offsets); /* every range starts at the pattern's first index */
    glUniform1i(r->u.pass, PASS_OPAQUE);
    int drawn_level = 0;
    glUniform1i(r->u.coarse, 0);
    for (int k = 0; k < v->visible_count; k++) {
        int i = v->visible[k].index;
        if (i < 0 || i >= n || !r->has[i]) continue;
        int level = !v->visible[k].fine && r->opt.lod_distance > 0 && v->visible[k].dist > r->opt.lod_distance ? 1 : 0;
        const gpu_mesh *g = &r->chunks[i].lod[level];
        if (!g->vbo) g = &r->chunks[i].lod[0], level = 0; /* no coarse level (yet): fine */
        int x, y, z;
        world_grid_coords(&v->grid, i, &x, &y, &z);
        float o[3]; /* relative to the render origin, as the eye is */
        camera_rel(cam, x * CHUNK_SIZE, y * CHUNK_SIZE, z * CHUNK_SIZE, o);
        bool keep[CELLS]; /* the cells to draw */
        if (!occlusion_keep_parts(v->occ, v->visible[k].dist, o, g->lo, g->hi, CELLS, keep)) {
            stats->chunks_occluded++;
            continue;
        }
        stats->chunks_drawn++;
        if (level != drawn_level) glUniform1i(r->u.coarse, drawn_level = level);
        unsigned mask = r->opt.face_ranges && !s->wireframe ? render_facing_mask(cam, x, y, z) : 0x3fu;
        int ranges = 0, order[CELLS];
        occlusion_cell_order(cam->pos, o, order);
        for (int c = 0; c < CELLS; c++) {
            if (!keep[order[c]]) continue;
            for (int pass = PASS_OPAQUE; pass <= PASS_CUTOUT; pass++) {
                for (int part = order[c] * FACE_COUNT; part < (order[c] + 1) * FACE_COUNT; part++) {
                    int from = g->part[pass][part], to = g->part[pass][part + 1];
                    if (from == to || !(mask >> (part % FACE_COUNT) & 1u)) continue;
                    /* parts next to each other in the buffer are one range */
                    if (ranges && bases[ranges - 1] + counts[ranges - 1] / 6 * 4 == g->first[pass] + from)
                        counts[ranges - 1] += (to - from) / 4 * 6;
                    else
                        counts[ranges] = (to - from) / 4 * 6, bases[ranges++] = g->first[pass] + from;
                }
            }
        }
        if (!ranges) continue;
        glUniform3f(r->u.origin, o[0], o[1], o[2]);
        glVertexArrayVertexBuffer(r->vao, 0, g->vbo, 0, sizeof(mesh_vertex));
        glMultiDrawElementsBaseVertex(GL_TRIANGLES, counts, GL_UNSIGNED_INT, offsets, ranges, bases);
        for (int q = 0; q < ranges; q++) stats->triangles += counts[q] / 3;
    }

    /* translucent, far to near so overlapping bog surfaces blend in order;
     * always the fine level (bogs are flat: nothing to gain) */
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE); /* a bog surface is seen from above and below */
    glUniform1i(r->u.pass, PASS_TRANSLUCENT);
    glUniform1i(r->u.coarse, 0);
    for (int k = v->visible_count - 1; k >= 0; k--) {
        int i = v->visible[k].index;
        if (i < 0 || i >= n || !r->has[i]) continue;
        const gpu_mesh *g = &r->chunks[i].lod[0];
        if (!g->count[PASS_TRANSLUCENT]) continue;
        int x, y, z;
        world_grid_coords(&v->grid, i, &x, &y, &z);
        float o[3];
        camera_rel(cam, x * CHUNK_SIZE, y * CHUNK_SIZE, z * CHUNK_SIZE, o);
        glUniform3fv(r->u.origin, 1, o);
        glVertexArrayVertexBuffer(r->vao, 0, g->vbo, 0, sizeof(mesh_vertex));
        glDrawElementsBaseVertex(GL_TRIANGLES, g->count[PASS_TRANSLUCENT] / 4 * 6, GL_UNSIGNED_INT, NULL,
                                 g->first[PASS_TRANSLUCENT]);
        stats->triangles += g->count[PASS_TRANSLUCENT] / 2;
    }
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glEnable(GL_CULL_FACE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glBindVertexArray(0);
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
    /* the settings a player can change; tests set options directly */
    const cvar *lod = cvar_find("render.lod_distance"), *ranges = cvar_find("render.face_ranges");
    if (lod) r->opt.lod_distance = lod->f;
    if (ranges) r->opt.face_ranges = ranges->b;
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
