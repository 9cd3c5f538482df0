#include "gfx/renderer.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/light_tex.h"
#include "gfx/quad_index.h"
#include "core/log.h"
#include "gfx/shader.h"
#include "mesh/mesh_world.h"
#include "ui/cvar.h"
#include "voxel/chunk.h"

typedef struct gpu_chunk {
    GLuint vbo;
    int first[PASS_COUNT]; /* first vertex of each pass inside the VBO */
    int count[PASS_COUNT]; /* vertices of each pass */
} gpu_chunk;

struct renderer {
    GLuint prog, vao, ibo;
    int ibo_quads;
    GLuint atlas;
    int cx, cy, cz;
    gpu_chunk *chunks;
    unsigned char *has;   /* per chunk: any geometry (the visible set skips the rest) */
    render_item *order;   /* scratch: the visible set */
    /* the mode's build output, kept for upload */
    chunk_mesh *meshes;
    int mesh_cap, mesh_count;
    struct {
        GLint viewproj, origin, camera, atlas, pass, sun, fog_color, fog_start, fog_end, tints;
    } u;
};

renderer *renderer_create(char *err, size_t errlen)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->prog = shader_load("chunk.vert", "chunk.frag", err, errlen);
    if (!r->prog) goto fail;
#define U(name) glGetUniformLocation(r->prog, "u_" #name)
    r->u.viewproj = U(viewproj), r->u.origin = U(origin), r->u.camera = U(camera), r->u.atlas = U(atlas);
    r->u.pass = U(pass), r->u.sun = U(sun), r->u.fog_color = U(fog_color), r->u.fog_start = U(fog_start);
    r->u.fog_end = U(fog_end), r->u.tints = U(tints);
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
    return r;
fail:
    renderer_destroy(r);
    return NULL;
}

static void free_chunks(renderer *r)
{
    int n = r->cx * r->cy * r->cz;
    for (int i = 0; i < n && r->chunks; i++)
        if (r->chunks[i].vbo) glDeleteBuffers(1, &r->chunks[i].vbo);
    free(r->chunks);
    free(r->order);
    free(r->has);
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
    for (int i = 0; i < r->mesh_cap; i++) mesh_free(&r->meshes[i]);
    free(r->meshes);
    free(r);
}

void renderer_set_atlas(renderer *r, unsigned texture) { r->atlas = texture; }

void renderer_reset(renderer *r, int cx, int cy, int cz)
{
    free_chunks(r);
    r->cx = cx, r->cy = cy, r->cz = cz;
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

/* Frees chunk i's buffer (an empty chunk, or one GL could not hold). */
static void drop_chunk(renderer *r, int i)
{
    gpu_chunk *g = &r->chunks[i];
    if (g->vbo) glDeleteBuffers(1, &g->vbo);
    memset(g, 0, sizeof *g);
    r->has[i] = 0;
}

bool renderer_upload(renderer *r, int cx, int cy, int cz, const chunk_mesh *m)
{
    if (cx < 0 || cy < 0 || cz < 0 || cx >= r->cx || cy >= r->cy || cz >= r->cz) return false;
    int i = cx + cz * r->cx + cy * r->cx * r->cz;
    gpu_chunk *g = &r->chunks[i];
    int total = 0, maxq = 0;
    for (int p = 0; p < PASS_COUNT; p++) {
        g->first[p] = total;
        g->count[p] = m->pass[p].count;
        total += m->pass[p].count;
        if (m->pass[p].count / 4 > maxq) maxq = m->pass[p].count / 4;
    }
    if (total == 0) {
        drop_chunk(r, i);
        return true;
    }
    ensure_indices(r, maxq);
    if (!g->vbo) glCreateBuffers(1, &g->vbo);
    while (glGetError() != GL_NO_ERROR) {} /* only this upload's errors count below */
    /* Re-specifying the whole (small) store lets the driver orphan the old
     * one instead of stalling on it: the paper's conclusion, done cheaply. */
    glNamedBufferData(g->vbo, (GLsizeiptr)(sizeof(mesh_vertex) * (size_t)total), NULL, GL_STATIC_DRAW);
    if (glGetError() == GL_OUT_OF_MEMORY || r->ibo_quads < maxq) {
        log_warn("chunk %d %d %d: no GPU memory for %d vertices; the chunk is not drawn", cx, cy, cz, total);
        drop_chunk(r, i);
        return false;
    }
    for (int p = 0; p < PASS_COUNT; p++)
        if (m->pass[p].count)
            glNamedBufferSubData(g->vbo, (GLintptr)(sizeof(mesh_vertex) * (size_t)g->first[p]),
                                 (GLsizeiptr)(sizeof(mesh_vertex) * (size_t)m->pass[p].count), m->pass[p].v);
    r->has[i] = 1;
    return true;
}

void renderer_draw_view(renderer *r, const render_view *v, render_stats *stats)
{
    const render_settings *s = v->s;
    const camera *cam = v->cam;
    memset(stats, 0, sizeof *stats);
    int n = r->cx * r->cy * r->cz;
    for (int i = 0; i < n; i++) {
        if (!r->has[i]) continue;
        const gpu_chunk *g = &r->chunks[i];
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
    glUniform1f(r->u.fog_start, s->view_distance * RENDER_FOG_START);
    glUniform1f(r->u.fog_end, s->view_distance);
    glUniform3fv(r->u.tints, 8, &s->tints[0][0]);
    glUniform1i(r->u.atlas, 0);
    glBindTextureUnit(0, s->atlas ? s->atlas : r->atlas);
    light_shading_apply(r->prog, &s->light, 1);
    glBindVertexArray(r->vao);
    glVertexArrayElementBuffer(r->vao, r->ibo);

    for (int pass = 0; pass < PASS_COUNT; pass++) {
        bool translucent = pass == PASS_TRANSLUCENT;
        if (translucent) {
            /* far to near so overlapping bog surfaces blend in order */
            glEnable(GL_BLEND);
            glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
            glDepthMask(GL_FALSE);
            glDisable(GL_CULL_FACE); /* a bog surface is seen from above and below */
        }
        glUniform1i(r->u.pass, pass);
        for (int k = 0; k < v->visible_count; k++) {
            int i = v->visible[translucent ? v->visible_count - 1 - k : k].index;
            if (i < 0 || i >= n || !r->has[i]) continue;
            gpu_chunk *g = &r->chunks[i];
            if (pass == 0) stats->chunks_drawn++;
            if (!g->count[pass]) continue;
            int x = i % r->cx, z = (i / r->cx) % r->cz, y = i / (r->cx * r->cz);
            glUniform3f(r->u.origin, (float)(x * CHUNK_SIZE), (float)(y * CHUNK_SIZE), (float)(z * CHUNK_SIZE));
            glVertexArrayVertexBuffer(r->vao, 0, g->vbo, 0, sizeof(mesh_vertex));
            glDrawElementsBaseVertex(GL_TRIANGLES, g->count[pass] / 4 * 6, GL_UNSIGNED_INT, NULL, g->first[pass]);
            stats->triangles += g->count[pass] / 2;
        }
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
    int n = render_visible_set(cam, s->view_distance, r->cx, r->cy, r->cz, r->has, r->order);
    render_view v = { cam, s, r->order, n, r->cx, r->cy, r->cz };
    renderer_draw_view(r, &v, stats);
}

/* ---- the blocks render mode ------------------------------------------- */

static void *blocks_create(char *err, size_t errlen) { return renderer_create(err, errlen); }
static void blocks_destroy(void *self) { renderer_destroy(self); }
static void blocks_reset(void *self, int cx, int cy, int cz) { renderer_reset(self, cx, cy, cz); }

static void blocks_build(void *self, const world *w, job_pool *jobs, const int *idx, int n)
{
    renderer *r = self;
    if (n > r->mesh_cap) {
        chunk_mesh *m = realloc(r->meshes, sizeof *m * (size_t)n);
        if (!m) {
            log_warn("no memory to mesh %d chunks; they stay as they were", n);
            r->mesh_count = 0;
            return;
        }
        memset(m + r->mesh_cap, 0, sizeof *m * (size_t)(n - r->mesh_cap));
        r->meshes = m, r->mesh_cap = n;
    }
    const cvar *greedy = cvar_find("render.greedy");
    mesh_world_chunks(w, jobs, idx, n, greedy ? greedy->b : true, r->meshes);
    r->mesh_count = n;
}

static void blocks_upload(void *self, const world *w, const int *idx, int n)
{
    renderer *r = self;
    for (int i = 0; i < n && i < r->mesh_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, idx[i], &cx, &cy, &cz);
        renderer_upload(r, cx, cy, cz, &r->meshes[i]);
    }
}

static void blocks_draw(void *self, const render_view *v, render_stats *stats) { renderer_draw_view(self, v, stats); }

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
