#include "gfx/smooth_renderer.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gfx/gpu_cull.h"
#include "gfx/light_tex.h"
#include "gfx/mesh_arena.h"
#include "gfx/shader.h"
#include "gfx/surfnets_gpu.h"
#include "voxel/chunk.h"
#include "voxel/material.h"

#define CELLS OCCLUSION_CELLS

/* One level of detail of one chunk: a range of the arena (gfx/mesh_arena,
 * slot chunk * SMOOTH_LODS + level) holding its vertices, then its
 * indices (local to them) padded to a vertex's size; what a pending
 * upload carries to its landing. */
typedef struct smooth_level {
    bool built; /* uploaded for `chunk` (maybe empty: a fir can vanish at a coarse level) */
    /* the chunk it was built for: a mesh still waiting to land (a frame's
     * upload budget) leaves the slot's older one, drawn only while the
     * slot holds that chunk, never at a streamed successor's place */
    int chunk[3];
    int vertices, indices;
    int skirt[7]; /* smooth_mesh's: the surface, then skirts by face (triangles) */
    size_t bytes;
    /* The surface's triangles are grouped by cell (occlusion.h, by a
     * triangle's first vertex) at upload: cell c is triangles
     * [cell[c], cell[c + 1]), so culling can skip the hidden ones; lo/hi
     * is the chunk-local box of each (lo > hi: none), and [CELLS] that of
     * the skirts. */
    int cell[CELLS + 1];
    float lo[CELLS + 1][3], hi[CELLS + 1][3];
} smooth_level;

typedef struct smooth_chunk {
    smooth_level lvl[SMOOTH_LODS];
    size_t bytes; /* the GPU mesh's */
    surfnets_gpu_mesh gm; /* made by the compute passes: drawn indirectly */
    bool gpu;
    /* the compute passes' triangle count, read once their fence has passed
     * (never waited for): -1 until then; only the HUD and stats read it */
    int gpu_tris;
    GLsync done;
} smooth_chunk;

typedef struct smooth_prog {
    GLuint prog;
    GLint viewproj, origin, camera, atlas, tiles, sun, fog_color, fog_start, fog_end, tints;
} smooth_prog;

struct smooth_renderer {
    smooth_prog cpu, gpu;
    /* vao: the arena's vertices and indices, the chunk (attribute 3) a
     * constant per draw; cull_vao: the same with the chunk an instanced
     * attribute (binding 1), for the GPU cull's multi-draws */
    GLuint vao, cull_vao, gpu_vao, atlas;
    mesh_arena *arena;
    int cx, cy, cz;
    world_grid grid; /* which chunk each slot holds (the world's window) */
    smooth_chunk *chunks;
    render_item *visible; /* scratch for smooth_renderer_draw */
    unsigned char *has;
    float lod_distance;   /* mesh_smooth_lod_for's far; 0 = always level 0 */
    unsigned char *stage; /* scratch: a level's range (vertices, indices grouped by cell) for upload */
    size_t stage_cap;
    int gpu_cull;         /* render.gpu_cull */
    size_t upload_budget; /* bytes a frame lands */
    gpu_cull_pick pick;
    gpu_cull_frame frame;
};

/* A program drawing nets with smooth.frag: per material its top, bottom
 * and side tiles for the three projections; u_model the identity. */
static GLuint program(const char *vert, char *err, size_t errlen)
{
    GLuint prog = shader_load_composed(vert, "smooth.frag", err, errlen);
    if (!prog) return 0;
    GLuint tiles[32 * 4] = { 0 };
    for (int m = 0; m < MAT_COUNT && m < 32; m++) {
        tiles[4 * m] = material_table[m].tile[FACE_TOP];
        tiles[4 * m + 1] = material_table[m].tile[FACE_BOTTOM];
        tiles[4 * m + 2] = material_table[m].tile[FACE_BACK];
    }
    glProgramUniform4uiv(prog, glGetUniformLocation(prog, "u_tiles"), 32, tiles);
    static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    glProgramUniformMatrix4fv(prog, glGetUniformLocation(prog, "u_model"), 1, GL_FALSE, identity); /* terrain */
    return prog;
}

unsigned smooth_program_load(char *err, size_t errlen) { return program("smooth.vert", err, errlen); }

unsigned smooth_vertex_array(void)
{
    GLuint vao;
    glCreateVertexArrays(1, &vao);
    for (int i = 0; i < 3; i++) {
        glEnableVertexArrayAttrib(vao, (GLuint)i);
        glVertexArrayAttribBinding(vao, (GLuint)i, 0);
    }
    glVertexArrayAttribFormat(vao, 0, 3, GL_FLOAT, GL_FALSE, offsetof(smooth_vertex, pos));
    glVertexArrayAttribFormat(vao, 1, 4, GL_BYTE, GL_TRUE, offsetof(smooth_vertex, nrm));
    glVertexArrayAttribIFormat(vao, 2, 2, GL_UNSIGNED_BYTE, offsetof(smooth_vertex, mat));
    return vao;
}

static bool load_prog(smooth_prog *p, const char *vert, char *err, size_t errlen)
{
    p->prog = program(vert, err, errlen);
    if (!p->prog) return false;
#define U(name) glGetUniformLocation(p->prog, "u_" #name)
    p->viewproj = U(viewproj), p->origin = U(origin), p->camera = U(camera), p->atlas = U(atlas);
    p->tiles = U(tiles), p->sun = U(sun), p->fog_color = U(fog_color), p->fog_start = U(fog_start);
    p->fog_end = U(fog_end), p->tints = U(tints);
#undef U
    return true;
}

smooth_renderer *smooth_renderer_create(char *err, size_t errlen)
{
    smooth_renderer *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    if (!load_prog(&r->cpu, "smooth.vert", err, errlen)) {
        free(r);
        return NULL;
    }
    r->arena = mesh_arena_create(sizeof(smooth_vertex), 0, sizeof(smooth_level), err, errlen);
    if (!r->arena) {
        glDeleteProgram(r->cpu.prog);
        free(r);
        return NULL;
    }
    r->lod_distance = SMOOTH_LOD_DISTANCE_DEFAULT;
    r->vao = smooth_vertex_array();
    r->cull_vao = smooth_vertex_array();
    glEnableVertexArrayAttrib(r->cull_vao, 3);
    glVertexArrayAttribFormat(r->cull_vao, 3, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(r->cull_vao, 3, 1);
    glVertexArrayBindingDivisor(r->cull_vao, 1, 1);
    gpu_cull_pick_init(&r->pick, "smooth");
    /* the compute passes' buffers: positions and normals, a vec4 each */
    char gerr[1024];
    if (surfnets_gpu_supported() && load_prog(&r->gpu, "smooth_gpu.vert", gerr, sizeof gerr)) {
        glCreateVertexArrays(1, &r->gpu_vao);
        for (int i = 0; i < 2; i++) {
            glEnableVertexArrayAttrib(r->gpu_vao, (GLuint)i);
            glVertexArrayAttribBinding(r->gpu_vao, (GLuint)i, (GLuint)i);
            glVertexArrayAttribFormat(r->gpu_vao, (GLuint)i, 4, GL_FLOAT, GL_FALSE, 0);
        }
    }
    return r;
}

/* A chunk draws when its level 0 has triangles, or the compute passes made
 * it (their count stays on the GPU). */
static bool has_geometry(const smooth_chunk *g) { return g->gpu || g->lvl[0].indices > 0; }

/* Empties a level's range (and drops its pending upload); zeroes it (not built). */
static void clear_level(smooth_renderer *r, int i, int level)
{
    mesh_arena_drop(r->arena, i * SMOOTH_LODS + level);
    memset(&r->chunks[i].lvl[level], 0, sizeof r->chunks[i].lvl[level]);
}

/* A level is in the arena (at once, or a later frame: mesh_arena_put). */
static void landed(void *user, int slot, const void *meta)
{
    smooth_renderer *r = user;
    const int i = slot / SMOOTH_LODS, level = slot % SMOOTH_LODS;
    if (!meta) { /* no room after all */
        clear_level(r, i, level);
        return;
    }
    memcpy(&r->chunks[i].lvl[level], meta, sizeof(smooth_level));
}

/* Frees a chunk's meshes, every level and the GPU mesh; zeroes it. */
static void clear_chunk(smooth_renderer *r, int i)
{
    smooth_chunk *g = &r->chunks[i];
    for (int l = 0; l < SMOOTH_LODS; l++) clear_level(r, i, l);
    surfnets_gpu_mesh_free(&g->gm);
    if (g->done) glDeleteSync(g->done);
    memset(g, 0, sizeof *g);
}

/* A GPU-meshed chunk's triangles: 0 until the passes are known to be done,
 * then the count they wrote, read once (4 bytes, no stall). */
static int gpu_triangles(smooth_chunk *g)
{
    if (g->gpu_tris < 0 && g->done) {
        GLenum st = glClientWaitSync(g->done, 0, 0);
        if (st == GL_ALREADY_SIGNALED || st == GL_CONDITION_SATISFIED) {
            GLuint count = 0; /* DrawElementsIndirectCommand: the index count first */
            glGetNamedBufferSubData(g->gm.counters, 0, sizeof count, &count);
            g->gpu_tris = (int)(count / 3);
            glDeleteSync(g->done);
            g->done = NULL;
        }
    }
    return g->gpu_tris > 0 ? g->gpu_tris : 0;
}

static void free_chunks(smooth_renderer *r)
{
    int n = r->cx * r->cy * r->cz;
    for (int i = 0; i < n && r->chunks; i++) clear_chunk(r, i);
    if (r->arena) mesh_arena_reset(r->arena, 0);
    free(r->chunks);
    free(r->visible);
    free(r->has);
    r->chunks = NULL;
    r->visible = NULL;
    r->has = NULL;
}

void smooth_renderer_destroy(smooth_renderer *r)
{
    if (!r) return;
    free_chunks(r);
    if (r->cpu.prog) glDeleteProgram(r->cpu.prog);
    if (r->gpu.prog) glDeleteProgram(r->gpu.prog);
    if (r->vao) glDeleteVertexArrays(1, &r->vao);
    if (r->cull_vao) glDeleteVertexArrays(1, &r->cull_vao);
    if (r->gpu_vao) glDeleteVertexArrays(1, &r->gpu_vao);
    mesh_arena_destroy(r->arena);
    gpu_cull_pick_free(&r->pick);
    gpu_cull_frame_free(&r->frame);
    free(r->stage);
    free(r);
}

void smooth_renderer_set_atlas(smooth_renderer *r, unsigned texture) { r->atlas = texture; }

void smooth_renderer_reset(smooth_renderer *r, int cx, int cy, int cz)
{
    free_chunks(r);
    r->cx = cx, r->cy = cy, r->cz = cz;
    r->grid = world_grid_origin(cx, cy, cz);
    r->chunks = calloc((size_t)cx * cy * cz, sizeof *r->chunks);
    r->visible = malloc(sizeof *r->visible * (size_t)(cx * cy * cz > 0 ? cx * cy * cz : 1));
    r->has = calloc((size_t)(cx * cy * cz > 0 ? cx * cy * cz : 1), 1);
    if (!mesh_arena_reset(r->arena, cx * cy * cz * SMOOTH_LODS))
        log_warn("no memory for the smooth mesh arena's %d slots", cx * cy * cz * SMOOTH_LODS);
}

static int tri_cell(const smooth_mesh *m, int t)
{
    const float *p = m->v[m->idx[3 * t]].pos;
    return occlusion_cell(p[0], p[1], p[2]);
}

/* The mesh's indices into idx with the surface grouped by cell (a
 * counting sort, stable) and the skirts after it as they were; each
 * cell's box, and the skirts', from their triangles' corners. */
static void sort_cells(const smooth_mesh *m, smooth_level *l, uint32_t *idx)
{
    int surface = m->skirt[0], at[CELLS];
    memset(l->cell, 0, sizeof l->cell);
    for (int t = 0; t < surface; t++) l->cell[tri_cell(m, t) + 1]++;
    for (int c = 0; c < CELLS; c++) l->cell[c + 1] += l->cell[c], at[c] = l->cell[c];
    for (int c = 0; c <= CELLS; c++)
        for (int k = 0; k < 3; k++) l->lo[c][k] = INFINITY, l->hi[c][k] = -INFINITY;
    for (int t = 0; t < m->triangles; t++) {
        int c = t < surface ? tri_cell(m, t) : CELLS;
        if (c < CELLS) memcpy(idx + 3 * at[c]++, m->idx + 3 * t, 3 * sizeof *m->idx);
        for (int i = 0; i < 3; i++) {
            const float *p = m->v[m->idx[3 * t + i]].pos;
            for (int k = 0; k < 3; k++) l->lo[c][k] = fminf(l->lo[c][k], p[k]), l->hi[c][k] = fmaxf(l->hi[c][k], p[k]);
        }
    }
    memcpy(idx + 3 * surface, m->idx + 3 * surface, sizeof *m->idx * 3 * (size_t)(m->triangles - surface));
}

/* Units (vertices) of a level's range: its vertices, then its indices
 * rounded up to whole vertices (20 bytes, a multiple of an index's 4, so
 * the indices start on an index). */
static uint32_t range_units(int vertices, int indices)
{
    return (uint32_t)vertices + (uint32_t)((sizeof(uint32_t) * (size_t)indices + sizeof(smooth_vertex) - 1) /
                                           sizeof(smooth_vertex));
}

void smooth_renderer_upload_level(smooth_renderer *r, int cx, int cy, int cz, int level, const smooth_mesh *m)
{
    if (!r->chunks || !world_grid_valid(&r->grid, cx, cy, cz)) return;
    if (level < 0 || level >= SMOOTH_LODS) return;
    const int i = world_grid_index(&r->grid, cx, cy, cz), slot = i * SMOOTH_LODS + level;
    smooth_chunk *g = &r->chunks[i];
    if (g->gpu) clear_chunk(r, i); /* a CPU mesh replaces the compute passes' */
    smooth_level staged = { .built = true, .chunk = { cx, cy, cz } };
    const uint32_t units = range_units(m->vertices, 3 * m->triangles);
    const size_t bytes = sizeof(smooth_vertex) * (size_t)units;
    if (m->triangles > 0 && bytes > r->stage_cap) {
        unsigned char *st = realloc(r->stage, bytes);
        if (!st) {
            log_warn("smooth chunk %d %d %d: no memory to sort %d triangles; level %d is not drawn", cx, cy, cz,
                     m->triangles, level);
            clear_level(r, i, level);
            g->lvl[level] = staged; /* built, empty */
            return;
        }
        r->stage = st, r->stage_cap = bytes;
    }
    if (m->triangles <= 0) {
        clear_level(r, i, level);
        g->lvl[level] = staged;
        return;
    }
    const size_t vb = sizeof(smooth_vertex) * (size_t)m->vertices;
    memcpy(r->stage, m->v, vb);
    memset(r->stage + vb, 0, bytes - vb); /* the padding after the indices */
    sort_cells(m, &staged, (uint32_t *)(void *)(r->stage + vb));
    staged.vertices = m->vertices;
    staged.indices = 3 * m->triangles;
    staged.bytes = bytes;
    memcpy(staged.skirt, m->skirt, sizeof staged.skirt);
    mesh_arena_begin_frame(r->arena, landed, r);
    switch (mesh_arena_put(r->arena, slot, r->stage, units, &staged)) {
    case MESH_ARENA_LANDED: landed(r, slot, &staged); break;
    case MESH_ARENA_PENDING: break; /* the old level is drawn until it lands */
    default: clear_level(r, i, level); break;
    }
}

void smooth_renderer_set_lod_distance(smooth_renderer *r, float far) { r->lod_distance = far; }

void smooth_renderer_set_grid(smooth_renderer *r, world_grid g)
{
    if (g.cx == r->cx && g.cy == r->cy && g.cz == r->cz) r->grid = g; /* a grid of another size is another world */
}

bool smooth_renderer_gpu_ready(const smooth_renderer *r) { return r->gpu_vao != 0; }

void smooth_renderer_upload_gpu(smooth_renderer *r, int cx, int cy, int cz, surfnets_gpu_mesh *m)
{
    if (!r->chunks || !r->gpu_vao || !world_grid_valid(&r->grid, cx, cy, cz)) {
        surfnets_gpu_mesh_free(m);
        return;
    }
    const int i = world_grid_index(&r->grid, cx, cy, cz);
    smooth_chunk *g = &r->chunks[i];
    clear_chunk(r, i);
    if (!m->counters) return; /* nothing was meshed */
    g->gm = *m;
    g->gpu = true;
    g->gpu_tris = -1;
    g->done = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    g->bytes = (size_t)(m->vcap * 32 + m->icap * 4);
    memset(m, 0, sizeof *m);
}

size_t smooth_renderer_bytes(const smooth_renderer *r)
{
    size_t b = 0;
    for (int i = 0; r->chunks && i < r->cx * r->cy * r->cz; i++) {
        b += r->chunks[i].bytes;
        for (int l = 0; l < SMOOTH_LODS; l++) b += r->chunks[i].lvl[l].bytes;
    }
    return b;
}

/* Whether a chunk's level was built for chunk (x, y, z), the one its slot holds. */
static bool built_for(const smooth_level *l, int x, int y, int z)
{
    return l->built && l->chunk[0] == x && l->chunk[1] == y && l->chunk[2] == z;
}

/* The level chunk (x, y, z) is drawn at: the one for its centre's
 * distance, or 0 when that one is not built (or the compute passes made
 * the chunk). */
static int level_at(const smooth_renderer *r, const camera *cam, int x, int y, int z)
{
    float c[3];
    render_chunk_sphere(cam, x, y, z, c);
    float d[3] = { c[0] - cam->pos[0], c[1] - cam->pos[1], c[2] - cam->pos[2] };
    int want = mesh_smooth_lod_for(sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), r->lod_distance);
    const smooth_chunk *g = &r->chunks[world_grid_index(&r->grid, x, y, z)];
    return !g->gpu && built_for(&g->lvl[want], x, y, z) ? want : 0;
}

/* Is the neighbour across face f (-x +x -y +y -z +z) of a chunk drawn at
 * `level` drawn finer? Outside the world there is nothing to meet, and
 * neither is there in a column still to come (v->slots): its chunks are
 * built empty at every level, which would count as finer, and the skirt
 * hung into the void as a dark band against the sky (after a teleport). */
static bool neighbour_finer(const smooth_renderer *r, const render_view *v, int x, int y, int z, int f, int level)
{
    static const int off[6][3] = { { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 }, { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 } };
    int nx = x + off[f][0], ny = y + off[f][1], nz = z + off[f][2];
    if (!world_grid_valid(&r->grid, nx, ny, nz)) return false;
    if (v->slots && !(v->slots[world_grid_index(&r->grid, nx, ny, nz)] & RENDER_SLOT_GENERATED)) return false;
    return level_at(r, v->cam, nx, ny, nz) < level;
}

/* The CPU-meshed level visible chunk k draws (by its distance), its
 * level, the first vertex of its range in the arena, its coordinates and
 * its origin relative to the render origin; NULL when it has nothing to
 * draw (no triangles, meshed by the compute passes, another chunk's). */
static const smooth_level *chunk_level(const smooth_renderer *r, const render_view *v, int k, int *level, long *base,
                                       int xyz[3], float o[3])
{
    const int i = v->visible[k].index;
    if (i < 0 || i >= r->cx * r->cy * r->cz || !r->chunks) return NULL;
    const smooth_chunk *g = &r->chunks[i];
    if (g->gpu) return NULL;
    world_grid_coords(&v->grid, i, &xyz[0], &xyz[1], &xyz[2]);
    *level = level_at(r, v->cam, xyz[0], xyz[1], xyz[2]);
    const smooth_level *l = &g->lvl[*level];
    if (!l->indices || !built_for(l, xyz[0], xyz[1], xyz[2])) return NULL;
    *base = mesh_arena_first(r->arena, i * SMOOTH_LODS + *level);
    if (*base < 0) return NULL;
    camera_rel(v->cam, xyz[0] * CHUNK_SIZE, xyz[1] * CHUNK_SIZE, xyz[2] * CHUNK_SIZE, o);
    return l;
}

/* u_coarse_reach of smooth.vert at a level (the w of its chunk attribute) */
static float coarse_reach(int level) { return level ? 0.5f * (float)(1 << level) + 0.5f : 0.f; }

/* Triangle ranges of one draw: following ranges merge into one. */
typedef struct draw_list {
    GLsizei count[CELLS + 6];
    const void *offset[CELLS + 6];
    GLint base[CELLS + 6];
    int n, end; /* ranges; the triangle after the last one */
} draw_list;

static void add_range(draw_list *d, size_t idx_byte, GLint base, int from, int upto)
{
    if (upto <= from) return;
    if (d->n && d->end == from) {
        d->count[d->n - 1] += 3 * (upto - from);
    } else {
        d->count[d->n] = 3 * (upto - from);
        d->offset[d->n] = (const void *)(idx_byte + sizeof(uint32_t) * 3 * (size_t)from);
        d->base[d->n++] = base;
    }
    d->end = upto;
}

/* One chunk's level (the arena bound): the surface's cells culling keeps
 * (keep[0..CELLS)), nearest first (order) so early depth rejects what the
 * chunk's own near cells hide, and when culling keeps them (keep[CELLS])
 * the skirts over the faces whose neighbour is drawn finer (elsewhere they
 * hang hidden in the solid). One multi-draw. */
static void draw_level(const smooth_renderer *r, const render_view *v, const smooth_level *l, long base, int level,
                       const int xyz[3], const bool keep[CELLS + 1], const int order[CELLS], render_stats *stats)
{
    draw_list d = { .n = 0 };
    const size_t idx = sizeof(smooth_vertex) * ((size_t)base + (size_t)l->vertices);
    for (int k = 0; k < CELLS; k++) {
        int c = order[k];
        if (keep[c]) add_range(&d, idx, (GLint)base, l->cell[c], l->cell[c + 1]);
    }
    for (int f = 0; f < 6; f++)
        if (keep[CELLS] && neighbour_finer(r, v, xyz[0], xyz[1], xyz[2], f, level))
            add_range(&d, idx, (GLint)base, l->skirt[f], l->skirt[f + 1]);
    if (!d.n) return;
    glMultiDrawElementsBaseVertex(GL_TRIANGLES, d.count, GL_UNSIGNED_INT, d.offset, d.n, d.base);
    stats->draw_calls++;
    for (int i = 0; i < d.n; i++) stats->triangles += d.count[i] / 3;
}

/* The read-back path: a multi-draw a chunk, its cells asked of the
 * occlusion culler (which reads the depth back at each ring). */
static void draw_meshed_cpu(smooth_renderer *r, const render_view *v, render_stats *stats)
{
    glBindVertexArray(r->vao);
    glVertexArrayVertexBuffer(r->vao, 0, mesh_arena_buffer(r->arena), 0, sizeof(smooth_vertex));
    glVertexArrayElementBuffer(r->vao, mesh_arena_buffer(r->arena));
    for (int k = 0; k < v->visible_count; k++) {
        int level, xyz[3];
        long base;
        float o[3];
        const smooth_level *l = chunk_level(r, v, k, &level, &base, xyz, o);
        if (!l) continue;
        bool keep[CELLS + 1] = { 0 }; /* the cells and the skirts to draw */
        if (!occlusion_keep_parts(v->occ, v->visible[k].dist, o, l->lo, l->hi, CELLS + 1, keep)) {
            stats->chunks_occluded++;
            continue;
        }
        stats->chunks_drawn++;
        glVertexAttrib4f(3, o[0], o[1], o[2], coarse_reach(level));
        int order[CELLS];
        occlusion_cell_order(v->cam->pos, o, order);
        draw_level(r, v, l, base, level, xyz, keep, order, stats);
    }
}

/* The GPU path's list (gfx/gpu_cull): the read-back path's draws in its
 * order, a command a cell and one for the skirts, in rings by distance
 * as the occlusion culler reads. False when out of memory. */
static bool list_meshed_gpu(smooth_renderer *r, const render_view *v, int rings, float near, render_stats *stats)
{
    gpu_cull_frame *f = &r->frame;
    gpu_cull_list_begin(f, rings, near);
    for (int k = 0; k < v->visible_count; k++) {
        int level, xyz[3];
        long base;
        float o[3];
        const smooth_level *l = chunk_level(r, v, k, &level, &base, xyz, o);
        if (!l) continue;
        const int inst = gpu_cull_list_chunk(f, v->visible[k].dist, CELLS + 6, CELLS + 1, o, coarse_reach(level));
        if (inst < 0) return false;
        stats->chunks_drawn++;
        const uint32_t idx = (uint32_t)(((size_t)base + (size_t)l->vertices) * sizeof(smooth_vertex) / sizeof(uint32_t));
        int order[CELLS + 1];
        occlusion_cell_order(v->cam->pos, o, order);
        order[CELLS] = CELLS; /* the skirts last */
        for (int c = 0; c <= CELLS; c++) {
            const int cell = order[c];
            if (l->lo[cell][0] > l->hi[cell][0]) continue; /* no triangles */
            const uint32_t box = (uint32_t)f->box_n;
            const int cmd0 = f->cmd_n;
            for (int part = 0; part < (cell < CELLS ? 1 : 6); part++) {
                int from, to;
                if (cell < CELLS) {
                    from = l->cell[cell], to = l->cell[cell + 1];
                } else {
                    if (!neighbour_finer(r, v, xyz[0], xyz[1], xyz[2], part, level)) continue;
                    from = l->skirt[part], to = l->skirt[part + 1];
                }
                if (to <= from) continue;
                gpu_cull_cmd *last = f->cmd_n > cmd0 ? &f->cmd[f->cmd_n - 1] : NULL;
                if (last && last->first_index + last->count == idx + 3u * (uint32_t)from) {
                    last->count += 3u * (uint32_t)(to - from);
                } else {
                    const uint32_t first = f->cmd_n == cmd0 ? GPU_CULL_FIRST : 0u; /* the box's first */
                    f->cmd[f->cmd_n++] = (gpu_cull_cmd){ 3u * (uint32_t)(to - from), idx + 3u * (uint32_t)from,
                                                         (int32_t)base, box, (uint32_t)inst | first };
                }
            }
            gpu_cull_list_box(f, cmd0, o, l->lo[cell], l->hi[cell]);
        }
    }
    gpu_cull_list_end(f);
    return true;
}

/* The GPU path; false (nothing drawn, or a part: the read-back path draws
 * it all again, over it) when it cannot run this frame. */
static bool draw_meshed_gpu(smooth_renderer *r, const render_view *v, render_stats *stats)
{
    float near = 0.f;
    const int rings = occlusion_rings_asked(v->occ, &near);
    render_stats st = *stats;
    for (GLenum e; (e = glGetError()) != GL_NO_ERROR;) log_warn("GL error 0x%04x while drawing (before the GPU cull)", e);
    if (!list_meshed_gpu(r, v, rings, near, &st)) return false;
    glVertexArrayVertexBuffer(r->cull_vao, 0, mesh_arena_buffer(r->arena), 0, sizeof(smooth_vertex));
    glVertexArrayElementBuffer(r->cull_vao, mesh_arena_buffer(r->arena));
    if (!gpu_cull_pick_draw(&r->pick, &r->frame, v->cam, v->s->width, v->s->height, rings, r->cull_vao, &st))
        return false;
    *stats = st;
    return true;
}

/* The compute passes' chunks: no box on the CPU, always drawn, each by
 * its own counters. */
static void draw_meshed_gpu_passes(smooth_renderer *r, const smooth_prog *p, const render_view *v,
                                   render_stats *stats)
{
    const int n = r->cx * r->cy * r->cz;
    glBindVertexArray(r->gpu_vao);
    for (int k = 0; k < v->visible_count; k++) {
        int i = v->visible[k].index;
        if (i < 0 || i >= n || !r->chunks) continue;
        smooth_chunk *g = &r->chunks[i];
        if (!g->gpu) continue;
        int x, y, z;
        world_grid_coords(&v->grid, i, &x, &y, &z);
        stats->chunks_drawn++;
        float co[3]; /* relative to the render origin, as the eye is; the passes' grid starts at voxel -1's centre */
        camera_rel(v->cam, x * CHUNK_SIZE, y * CHUNK_SIZE, z * CHUNK_SIZE, co);
        glUniform3f(p->origin, co[0] - 0.5f, co[1] - 0.5f, co[2] - 0.5f);
        glVertexArrayVertexBuffer(r->gpu_vao, 0, g->gm.verts, 0, 16);
        glVertexArrayVertexBuffer(r->gpu_vao, 1, g->gm.normals, 0, 16);
        glVertexArrayElementBuffer(r->gpu_vao, g->gm.indices);
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, g->gm.counters);
        glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_INT, NULL); /* drawn by the count on the GPU */
        stats->draw_calls++;
        stats->triangles += gpu_triangles(g);
    }
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
}

void smooth_renderer_draw_view(smooth_renderer *r, const render_view *v, render_stats *stats)
{
    const render_settings *s = v->s;
    smooth_renderer_set_grid(r, v->grid);
    mesh_arena_set_budget(r->arena, r->upload_budget);
    mesh_arena_begin_frame(r->arena, landed, r); /* what waited lands first */
    int n = r->cx * r->cy * r->cz;
    for (int i = 0; r->chunks && i < n; i++) {
        if (!has_geometry(&r->chunks[i])) continue;
        stats->chunks_loaded++;
        stats->triangles_loaded += r->chunks[i].gpu ? gpu_triangles(&r->chunks[i]) : r->chunks[i].lvl[0].indices / 3;
    }
    glPolygonMode(GL_FRONT_AND_BACK, s->wireframe ? GL_LINE : GL_FILL);
    vec3 sun = { s->sun[0], s->sun[1], s->sun[2] };
    glm_vec3_normalize(sun);
    /* chosen once a frame, whatever this frame holds */
    const bool on_gpu = gpu_cull_pick_next(&r->pick, r->gpu_cull);
    for (int pass = 0; pass < 2; pass++) { /* CPU-meshed chunks, then GPU-meshed ones */
        const smooth_prog *p = pass ? &r->gpu : &r->cpu;
        if (!p->prog) continue;
        glUseProgram(p->prog);
        glUniformMatrix4fv(p->viewproj, 1, GL_FALSE, (const float *)v->cam->viewproj);
        glUniform3fv(p->camera, 1, v->cam->pos);
        glUniform3fv(p->sun, 1, sun);
        glUniform3fv(p->fog_color, 1, s->sky);
        glUniform1f(p->fog_start, render_fog_start(s));
        glUniform1f(p->fog_end, render_fog_end(s));
        glUniform3fv(p->tints, 8, &s->tints[0][0]);
        glUniform1i(p->atlas, 0);
        glBindTextureUnit(0, s->atlas ? s->atlas : r->atlas);
        light_shading_apply(p->prog, &s->light, 1);
        compose_apply(p->prog, &s->look, v->cam->pos, s->sun, COMPOSE_EMIT_UNIT);
        /* the visible set is nearest first: the depth test rejects hidden
         * fragments before the (triplanar) shading */
        if (pass) draw_meshed_gpu_passes(r, p, v, stats);
        else if (!(on_gpu && draw_meshed_gpu(r, v, stats))) draw_meshed_cpu(r, v, stats);
    }
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glBindVertexArray(0);
    mesh_arena_end_frame(r->arena);
    const mesh_arena_stats as = mesh_arena_get_stats(r->arena);
    stats->arena_bytes += as.bytes, stats->arena_used += as.used;
    stats->arena_fragments += as.fragments, stats->arena_pending += as.pending;
}

void smooth_renderer_set_cull(smooth_renderer *r, int cull, size_t upload_budget)
{
    r->gpu_cull = cull;
    r->upload_budget = upload_budget;
}

gpu_cull_counts smooth_renderer_gpu_counts(const smooth_renderer *r, int *verdicts, bool *gpu)
{
    gpu_cull_pick_verdicts(&r->pick, verdicts, gpu);
    return gpu_cull_last(r->pick.gc);
}

void smooth_renderer_draw(smooth_renderer *r, const camera *cam, const render_settings *s, render_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    render_frame_begin(s);
    int n = r->cx * r->cy * r->cz;
    for (int i = 0; r->chunks && i < n; i++) r->has[i] = has_geometry(&r->chunks[i]);
    int count = r->chunks ? render_visible_set(cam, s->view_distance, &r->grid, r->has, r->visible) : 0;
    render_view v = { cam, s, r->visible, count, r->grid };
    smooth_renderer_draw_view(r, &v, stats);
}
