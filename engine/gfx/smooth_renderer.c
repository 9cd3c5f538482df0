#include "gfx/smooth_renderer.h"

#include <glad/gl.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/shader.h"
#include "voxel/chunk.h"
#include "voxel/material.h"

typedef struct smooth_chunk {
    GLuint vbo, ibo;
    int indices;
    size_t bytes;
} smooth_chunk;

struct smooth_renderer {
    GLuint prog, vao, atlas;
    int cx, cy, cz;
    smooth_chunk *chunks;
    struct smooth_item { int index; float dist; } *visible;
    struct {
        GLint viewproj, origin, camera, atlas, tiles, sun, fog_color, fog_start, fog_end, tints;
    } u;
};

smooth_renderer *smooth_renderer_create(char *err, size_t errlen)
{
    smooth_renderer *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->prog = shader_load("smooth.vert", "smooth.frag", err, errlen);
    if (!r->prog) {
        free(r);
        return NULL;
    }
#define U(name) glGetUniformLocation(r->prog, "u_" #name)
    r->u.viewproj = U(viewproj), r->u.origin = U(origin), r->u.camera = U(camera), r->u.atlas = U(atlas);
    r->u.tiles = U(tiles), r->u.sun = U(sun), r->u.fog_color = U(fog_color), r->u.fog_start = U(fog_start);
    r->u.fog_end = U(fog_end), r->u.tints = U(tints);
#undef U
    glCreateVertexArrays(1, &r->vao);
    for (int i = 0; i < 3; i++) {
        glEnableVertexArrayAttrib(r->vao, (GLuint)i);
        glVertexArrayAttribBinding(r->vao, (GLuint)i, 0);
    }
    glVertexArrayAttribFormat(r->vao, 0, 3, GL_FLOAT, GL_FALSE, offsetof(smooth_vertex, pos));
    glVertexArrayAttribFormat(r->vao, 1, 4, GL_BYTE, GL_TRUE, offsetof(smooth_vertex, nrm));
    glVertexArrayAttribIFormat(r->vao, 2, 2, GL_UNSIGNED_BYTE, offsetof(smooth_vertex, mat));
    /* per material: top, bottom and side tiles for the three projections */
    GLuint tiles[32 * 4] = { 0 };
    for (int m = 0; m < MAT_COUNT && m < 32; m++) {
        tiles[4 * m] = material_table[m].tile[FACE_TOP];
        tiles[4 * m + 1] = material_table[m].tile[FACE_BOTTOM];
        tiles[4 * m + 2] = material_table[m].tile[FACE_BACK];
    }
    glProgramUniform4uiv(r->prog, r->u.tiles, 32, tiles);
    return r;
}

static void free_chunks(smooth_renderer *r)
{
    int n = r->cx * r->cy * r->cz;
    for (int i = 0; i < n && r->chunks; i++) {
        if (r->chunks[i].vbo) glDeleteBuffers(1, &r->chunks[i].vbo);
        if (r->chunks[i].ibo) glDeleteBuffers(1, &r->chunks[i].ibo);
    }
    free(r->chunks);
    free(r->visible);
    r->chunks = NULL;
    r->visible = NULL;
}

void smooth_renderer_destroy(smooth_renderer *r)
{
    if (!r) return;
    free_chunks(r);
    if (r->prog) glDeleteProgram(r->prog);
    if (r->vao) glDeleteVertexArrays(1, &r->vao);
    free(r);
}

void smooth_renderer_set_atlas(smooth_renderer *r, unsigned texture) { r->atlas = texture; }

void smooth_renderer_reset(smooth_renderer *r, int cx, int cy, int cz)
{
    free_chunks(r);
    r->cx = cx, r->cy = cy, r->cz = cz;
    r->chunks = calloc((size_t)cx * cy * cz, sizeof *r->chunks);
    r->visible = malloc(sizeof *r->visible * (size_t)(cx * cy * cz > 0 ? cx * cy * cz : 1));
}

void smooth_renderer_upload(smooth_renderer *r, int cx, int cy, int cz, const smooth_mesh *m)
{
    if (!r->chunks || cx < 0 || cy < 0 || cz < 0 || cx >= r->cx || cy >= r->cy || cz >= r->cz) return;
    smooth_chunk *g = &r->chunks[cx + cz * r->cx + cy * r->cx * r->cz];
    if (m->triangles == 0) {
        if (g->vbo) glDeleteBuffers(1, &g->vbo);
        if (g->ibo) glDeleteBuffers(1, &g->ibo);
        memset(g, 0, sizeof *g);
        return;
    }
    if (!g->vbo) glCreateBuffers(1, &g->vbo);
    if (!g->ibo) glCreateBuffers(1, &g->ibo);
    size_t vb = sizeof(smooth_vertex) * (size_t)m->vertices, ib = sizeof(uint32_t) * 3 * (size_t)m->triangles;
    glNamedBufferData(g->vbo, (GLsizeiptr)vb, m->v, GL_STATIC_DRAW);
    glNamedBufferData(g->ibo, (GLsizeiptr)ib, m->idx, GL_STATIC_DRAW);
    g->indices = 3 * m->triangles;
    g->bytes = vb + ib;
}

size_t smooth_renderer_bytes(const smooth_renderer *r)
{
    size_t b = 0;
    for (int i = 0; r->chunks && i < r->cx * r->cy * r->cz; i++) b += r->chunks[i].bytes;
    return b;
}

static int cmp_near_first(const void *a, const void *b)
{
    float x = ((const struct smooth_item *)a)->dist, y = ((const struct smooth_item *)b)->dist;
    return (x > y) - (x < y);
}

void smooth_renderer_draw(smooth_renderer *r, const camera *cam, const render_settings *s, render_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    glBindFramebuffer(GL_FRAMEBUFFER, s->framebuffer);
    glViewport(0, 0, s->width, s->height);
    glClearColor(s->sky[0], s->sky[1], s->sky[2], 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glPolygonMode(GL_FRONT_AND_BACK, s->wireframe ? GL_LINE : GL_FILL);

    /* the block renderer's culling: bounding sphere against the frustum
     * and the view distance (a chunk's nets stay within half a voxel of it) */
    const float radius = (CHUNK_SIZE + 1) * 0.8660254f;
    int n = r->cx * r->cy * r->cz, visible = 0;
    for (int i = 0; r->chunks && i < n; i++) {
        smooth_chunk *g = &r->chunks[i];
        if (!g->indices) continue;
        stats->chunks_loaded++;
        stats->triangles_loaded += g->indices / 3;
        int x = i % r->cx, z = (i / r->cx) % r->cz, y = i / (r->cx * r->cz);
        vec3 c = { (float)x * CHUNK_SIZE + CHUNK_SIZE / 2, (float)y * CHUNK_SIZE + CHUNK_SIZE / 2,
                   (float)z * CHUNK_SIZE + CHUNK_SIZE / 2 };
        float d = glm_vec3_distance(c, (float *)cam->pos);
        if (d - radius > s->view_distance) continue;
        if (!camera_sphere_visible(cam, c, radius)) continue;
        r->visible[visible++] = (struct smooth_item){ i, d };
    }
    stats->chunks_drawn = visible;
    /* near to far: the depth test then rejects hidden fragments before the
     * (triplanar) shading, which is most of a software rasterizer's frame */
    qsort(r->visible, (size_t)visible, sizeof *r->visible, cmp_near_first);

    glUseProgram(r->prog);
    glUniformMatrix4fv(r->u.viewproj, 1, GL_FALSE, (const float *)cam->viewproj);
    glUniform3fv(r->u.camera, 1, cam->pos);
    vec3 sun = { s->sun[0], s->sun[1], s->sun[2] };
    glm_vec3_normalize(sun);
    glUniform3fv(r->u.sun, 1, sun);
    glUniform3fv(r->u.fog_color, 1, s->sky);
    glUniform1f(r->u.fog_start, s->view_distance * 0.6f);
    glUniform1f(r->u.fog_end, s->view_distance);
    glUniform3fv(r->u.tints, 8, &s->tints[0][0]);
    glUniform1i(r->u.atlas, 0);
    glBindTextureUnit(0, r->atlas);
    glBindVertexArray(r->vao);
    for (int k = 0; k < visible; k++) {
        int i = r->visible[k].index;
        smooth_chunk *g = &r->chunks[i];
        int x = i % r->cx, z = (i / r->cx) % r->cz, y = i / (r->cx * r->cz);
        glUniform3f(r->u.origin, (float)(x * CHUNK_SIZE), (float)(y * CHUNK_SIZE), (float)(z * CHUNK_SIZE));
        glVertexArrayVertexBuffer(r->vao, 0, g->vbo, 0, sizeof(smooth_vertex));
        glVertexArrayElementBuffer(r->vao, g->ibo);
        glDrawElements(GL_TRIANGLES, g->indices, GL_UNSIGNED_INT, NULL);
        stats->triangles += g->indices / 3;
    }
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glBindVertexArray(0);
}
