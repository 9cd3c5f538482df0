#include "gfx/smooth_renderer.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gfx/light_tex.h"
#include "gfx/shader.h"
#include "gfx/surfnets_gpu.h"
#include "voxel/chunk.h"
#include "voxel/material.h"

#define CELLS OCCLUSION_CELLS

typedef struct smooth_level {
    GLuint vbo, ibo;
    int indices;
    int skirt[7]; /* smooth_mesh's: the surface, then skirts by face (triangles) */
    size_t bytes;
    bool built; /* uploaded (maybe empty: a fir can vanish at a coarse level) */
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
    GLint viewproj, origin, camera, atlas, tiles, sun, fog_color, fog_start, fog_end, tints, coarse_reach;
} smooth_prog;

struct smooth_renderer {
    smooth_prog cpu, gpu;
    GLuint vao, gpu_vao, atlas;
    int cx, cy, cz;
    world_grid grid; /* which chunk each slot holds (the world's window) */
    smooth_chunk *chunks;
    render_item *visible; /* scratch for smooth_renderer_draw */
    unsigned char *has;
    float lod_distance;   /* mesh_smooth_lod_for's far; 0 = always level 0 */
    uint32_t *sorted;     /* scratch: a level's indices grouped by cell for upload */
    int sorted_cap;
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
    p->fog_end = U(fog_end), p->tints = U(tints), p->coarse_reach = U(coarse_reach);
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
    r->lod_distance = SMOOTH_LOD_DISTANCE_DEFAULT;
    r->vao = smooth_vertex_array();
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

/* Frees a level's buffers; zeroes it (not built). */
static void clear_level(smooth_level *l)
{
    if (l->vbo) glDeleteBuffers(1, &l->vbo);
    if (l->ibo) glDeleteBuffers(1, &l->ibo);
    memset(l, 0, sizeof *l);
}

/* Frees a chunk's buffers, every level and the GPU mesh; zeroes it. */
static void clear_chunk(smooth_chunk *g)
{
    for (int l = 0; l < SMOOTH_LODS; l++) clear_level(&g->lvl[l]);
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
    for (int i = 0; i < n && r->chunks; i++) clear_chunk(&r->chunks[i]);
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
    if (r->gpu_vao) glDeleteVertexArrays(1, &r->gpu_vao);
    free(r->sorted);
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
}

static int tri_cell(const smooth_mesh *m, int t)
{
    const float *p = m->v[m->idx[3 * t]].pos;
    return occlusion_cell(p[0], p[1], p[2]);
}

/* The mesh's indices into r->sorted with the surface grouped by cell (a
 * counting sort, stable) and the skirts after it as they were; each
 * cell's box, and the skirts', from their triangles' corners. False when
 * out of memory. */
static bool sort_cells(smooth_renderer *r, const smooth_mesh *m, smooth_level *l)
{
    if (3 * m->triangles > r->sorted_cap) {
        uint32_t *s = realloc(r->sorted, sizeof *s * 3 * (size_t)m->triangles);
        if (!s) return false;
        r->sorted = s, r->sorted_cap = 3 * m->triangles;
    }
    int surface = m->skirt[0], at[CELLS];
    memset(l->cell, 0, sizeof l->cell);
    for (int t = 0; t < surface; t++) l->cell[tri_cell(m, t) + 1]++;
    for (int c = 0; c < CELLS; c++) l->cell[c + 1] += l->cell[c], at[c] = l->cell[c];
    for (int c = 0; c <= CELLS; c++)
        for (int k = 0; k < 3; k++) l->lo[c][k] = INFINITY, l->hi[c][k] = -INFINITY;
    for (int t = 0; t < m->triangles; t++) {
        int c = t < surface ? tri_cell(m, t) : CELLS;
        if (c < CELLS) memcpy(r->sorted + 3 * at[c]++, m->idx + 3 * t, 3 * sizeof *m->idx);
        for (int i = 0; i < 3; i++) {
            const float *p = m->v[m->idx[3 * t + i]].pos;
            for (int k = 0; k < 3; k++) l->lo[c][k] = fminf(l->lo[c][k], p[k]), l->hi[c][k] = fmaxf(l->hi[c][k], p[k]);
        }
    }
    memcpy(r->sorted + 3 * surface, m->idx + 3 * surface, sizeof *m->idx * 3 * (size_t)(m->triangles - surface));
    return true;
}

void smooth_renderer_upload_level(smooth_renderer *r, int cx, int cy, int cz, int level, const smooth_mesh *m)
{
    if (!r->chunks || !world_grid_valid(&r->grid, cx, cy, cz)) return;
    if (level < 0 || level >= SMOOTH_LODS) return;
    smooth_chunk *g = &r->chunks[world_grid_index(&r->grid, cx, cy, cz)];
    if (g->gpu) clear_chunk(g); /* a CPU mesh replaces the compute passes' */
    smooth_level *l = &g->lvl[level];
    bool sorted = m->triangles > 0 && sort_cells(r, m, l);
    if (m->triangles > 0 && !sorted)
        log_warn("smooth chunk %d %d %d: no memory to sort %d triangles; level %d is not drawn", cx, cy, cz,
                 m->triangles, level);
    if (!sorted) {
        clear_level(l);
    } else {
        if (!l->vbo) glCreateBuffers(1, &l->vbo);
        if (!l->ibo) glCreateBuffers(1, &l->ibo);
        size_t vb = sizeof(smooth_vertex) * (size_t)m->vertices, ib = sizeof(uint32_t) * 3 * (size_t)m->triangles;
        glNamedBufferData(l->vbo, (GLsizeiptr)vb, m->v, GL_STATIC_DRAW);
        glNamedBufferData(l->ibo, (GLsizeiptr)ib, r->sorted, GL_STATIC_DRAW);
        l->indices = 3 * m->triangles;
        l->bytes = vb + ib;
        memcpy(l->skirt, m->skirt, sizeof l->skirt);
    }
    l->built = true;
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
    smooth_chunk *g = &r->chunks[world_grid_index(&r->grid, cx, cy, cz)];
    clear_chunk(g);
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
    return !g->gpu && g->lvl[want].built ? want : 0;
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

/* Triangle ranges of one draw: following ranges merge into one. */
typedef struct draw_list {
    GLsizei count[CELLS + 6];
    const void *offset[CELLS + 6];
    int n, end; /* ranges; the triangle after the last one */
} draw_list;

static void add_range(draw_list *d, int from, int upto)
{
    if (upto <= from) return;
    if (d->n && d->end == from) {
        d->count[d->n - 1] += 3 * (upto - from);
    } else {
        d->count[d->n] = 3 * (upto - from);
        d->offset[d->n++] = (const void *)(sizeof(uint32_t) * 3 * (size_t)from);
    }
    d->end = upto;
}

/* One chunk's level (buffers bound): the surface's cells culling keeps
 * (keep[0..CELLS)), nearest first (order) so early depth rejects what the
 * chunk's own near cells hide, and when culling keeps them (keep[CELLS])
 * the skirts over the faces whose neighbour is drawn finer (elsewhere they
 * hang hidden in the solid). One multi-draw. */
static void draw_level(const smooth_renderer *r, const render_view *v, const smooth_level *l, int level, int x, int y,
                       int z, const bool keep[CELLS + 1], const int order[CELLS], render_stats *stats)
{
    draw_list d = { .n = 0 };
    for (int k = 0; k < CELLS; k++) {
        int c = order[k];
        if (keep[c]) add_range(&d, l->cell[c], l->cell[c + 1]);
    }
    for (int f = 0; f < 6; f++)
        if (keep[CELLS] && neighbour_finer(r, v, x, y, z, f, level)) add_range(&d, l->skirt[f], l->skirt[f + 1]);
    if (!d.n) return;
    glMultiDrawElements(GL_TRIANGLES, d.count, GL_UNSIGNED_INT, d.offset, d.n);
    stats->draw_calls++;
    for (int i = 0; i < d.n; i++) stats->triangles += d.count[i] / 3;
}

void smooth_renderer_draw_view(smooth_renderer *r, const render_view *v, render_stats *stats)
{
    const render_settings *s = v->s;
    smooth_renderer_set_grid(r, v->grid);
    int n = r->cx * r->cy * r->cz;
    for (int i = 0; r->chunks && i < n; i++) {
        if (!has_geometry(&r->chunks[i])) continue;
        stats->chunks_loaded++;
        stats->triangles_loaded += r->chunks[i].gpu ? gpu_triangles(&r->chunks[i]) : r->chunks[i].lvl[0].indices / 3;
    }
    glPolygonMode(GL_FRONT_AND_BACK, s->wireframe ? GL_LINE : GL_FILL);
    vec3 sun = { s->sun[0], s->sun[1], s->sun[2] };
    glm_vec3_normalize(sun);
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
        glBindVertexArray(pass ? r->gpu_vao : r->vao);
        /* the visible set is nearest first: the depth test rejects hidden
         * fragments before the (triplanar) shading */
        for (int k = 0; k < v->visible_count; k++) {
            int i = v->visible[k].index;
            if (i < 0 || i >= n || !r->chunks) continue;
            smooth_chunk *g = &r->chunks[i];
            if (!has_geometry(g) || g->gpu != (pass == 1)) continue;
            int x, y, z;
            world_grid_coords(&v->grid, i, &x, &y, &z);
            /* the level for its distance; one not built yet draws as level 0 */
            int level = level_at(r, v->cam, x, y, z);
            const smooth_level *l = &g->lvl[level];
            bool keep[CELLS + 1] = { 0 }; /* the cells and the skirts to draw (CPU-meshed chunks) */
            if (!pass) {
                if (!l->indices) continue; /* nothing left at this level */
                /* the compute passes' meshes have no box on the CPU: always drawn */
                float o[3];
                camera_rel(v->cam, x * CHUNK_SIZE, y * CHUNK_SIZE, z * CHUNK_SIZE, o);
                if (!occlusion_keep_parts(v->occ, v->visible[k].dist, o, l->lo, l->hi, CELLS + 1, keep)) {
                    stats->chunks_occluded++;
                    continue;
                }
                glUniform1f(p->coarse_reach, level ? 0.5f * (float)(1 << level) + 0.5f : 0.f);
            }
            stats->chunks_drawn++;
            float o = pass ? -0.5f : 0.f; /* the passes' grid starts at voxel -1's centre */
            float co[3]; /* relative to the render origin, as the eye is */
            camera_rel(v->cam, x * CHUNK_SIZE, y * CHUNK_SIZE, z * CHUNK_SIZE, co);
            glUniform3f(p->origin, co[0] + o, co[1] + o, co[2] + o);
            if (pass) {
                glVertexArrayVertexBuffer(r->gpu_vao, 0, g->gm.verts, 0, 16);
                glVertexArrayVertexBuffer(r->gpu_vao, 1, g->gm.normals, 0, 16);
                glVertexArrayElementBuffer(r->gpu_vao, g->gm.indices);
                glBindBuffer(GL_DRAW_INDIRECT_BUFFER, g->gm.counters);
                glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_INT, NULL); /* drawn by the count on the GPU */
                stats->draw_calls++;
                stats->triangles += gpu_triangles(g);
            } else {
                glVertexArrayVertexBuffer(r->vao, 0, l->vbo, 0, sizeof(smooth_vertex));
                glVertexArrayElementBuffer(r->vao, l->ibo);
                int order[CELLS];
                occlusion_cell_order(v->cam->pos, co, order);
                draw_level(r, v, l, level, x, y, z, keep, order, stats);
            }
        }
    }
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glBindVertexArray(0);
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
