#include "gfx/renderer.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/quad_index.h"
#include "gfx/shader.h"
#include "voxel/chunk.h"

typedef struct gpu_chunk {
    GLuint vbo;
    int first[PASS_COUNT]; /* first vertex of each pass inside the VBO */
    int count[PASS_COUNT]; /* vertices of each pass */
} gpu_chunk;

struct renderer {
    GLuint prog, overlay_prog, vao, overlay_vao, overlay_vbo, ibo;
    int ibo_quads;
    GLuint atlas;
    int cx, cy, cz;
    gpu_chunk *chunks;
    struct draw_item { int index; float dist; } *order; /* scratch: visible chunks */
    struct {
        GLint viewproj, origin, camera, atlas, pass, sun, fog_color, fog_start, fog_end, tints;
        GLint light, light_on, light_size, sun_color, sky_color, ambient;
    } u;
    GLint overlay_screen, overlay_color;
};

renderer *renderer_create(char *err, size_t errlen)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->prog = shader_load("chunk.vert", "chunk.frag", err, errlen);
    if (!r->prog) goto fail;
    r->overlay_prog = shader_load("overlay.vert", "overlay.frag", err, errlen);
    if (!r->overlay_prog) goto fail;
#define U(name) glGetUniformLocation(r->prog, "u_" #name)
    r->u.viewproj = U(viewproj), r->u.origin = U(origin), r->u.camera = U(camera), r->u.atlas = U(atlas);
    r->u.pass = U(pass), r->u.sun = U(sun), r->u.fog_color = U(fog_color), r->u.fog_start = U(fog_start);
    r->u.fog_end = U(fog_end), r->u.tints = U(tints);
    r->u.light = U(light), r->u.light_on = U(light_on), r->u.light_size = U(light_size);
    r->u.sun_color = U(sun_color), r->u.sky_color = U(sky_color), r->u.ambient = U(ambient);
#undef U
    r->overlay_screen = glGetUniformLocation(r->overlay_prog, "u_screen");
    r->overlay_color = glGetUniformLocation(r->overlay_prog, "u_color");

    /* One VAO for every chunk: only the vertex buffer binding changes per draw. */
    glCreateVertexArrays(1, &r->vao);
    glEnableVertexArrayAttrib(r->vao, 0);
    glEnableVertexArrayAttrib(r->vao, 1);
    glVertexArrayAttribIFormat(r->vao, 0, 1, GL_UNSIGNED_INT, 0);
    glVertexArrayAttribIFormat(r->vao, 1, 1, GL_UNSIGNED_INT, 4);
    glVertexArrayAttribBinding(r->vao, 0, 0);
    glVertexArrayAttribBinding(r->vao, 1, 0);
    glCreateBuffers(1, &r->ibo);

    glCreateVertexArrays(1, &r->overlay_vao);
    glCreateBuffers(1, &r->overlay_vbo);
    glNamedBufferData(r->overlay_vbo, sizeof(float) * 64, NULL, GL_STREAM_DRAW);
    glEnableVertexArrayAttrib(r->overlay_vao, 0);
    glVertexArrayAttribFormat(r->overlay_vao, 0, 2, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(r->overlay_vao, 0, 0);
    glVertexArrayVertexBuffer(r->overlay_vao, 0, r->overlay_vbo, 0, sizeof(float) * 2);
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
    r->chunks = NULL;
    r->order = NULL;
}

void renderer_destroy(renderer *r)
{
    if (!r) return;
    free_chunks(r);
    if (r->prog) glDeleteProgram(r->prog);
    if (r->overlay_prog) glDeleteProgram(r->overlay_prog);
    if (r->vao) glDeleteVertexArrays(1, &r->vao);
    if (r->overlay_vao) glDeleteVertexArrays(1, &r->overlay_vao);
    if (r->overlay_vbo) glDeleteBuffers(1, &r->overlay_vbo);
    if (r->ibo) glDeleteBuffers(1, &r->ibo);
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
}

/* The shared quad indices, for as many quads as the largest chunk. */
static void ensure_indices(renderer *r, int quads)
{
    if (quads <= r->ibo_quads) return;
    int n = r->ibo_quads ? r->ibo_quads : 4096;
    while (n < quads) n *= 2;
    if (quad_index_upload(r->ibo, n)) r->ibo_quads = n;
}

void renderer_upload(renderer *r, int cx, int cy, int cz, const chunk_mesh *m)
{
    if (cx < 0 || cy < 0 || cz < 0 || cx >= r->cx || cy >= r->cy || cz >= r->cz) return;
    gpu_chunk *g = &r->chunks[cx + cz * r->cx + cy * r->cx * r->cz];
    int total = 0, maxq = 0;
    for (int p = 0; p < PASS_COUNT; p++) {
        g->first[p] = total;
        g->count[p] = m->pass[p].count;
        total += m->pass[p].count;
        if (m->pass[p].count / 4 > maxq) maxq = m->pass[p].count / 4;
    }
    if (total == 0) {
        if (g->vbo) glDeleteBuffers(1, &g->vbo);
        g->vbo = 0;
        return;
    }
    ensure_indices(r, maxq);
    if (!g->vbo) glCreateBuffers(1, &g->vbo);
    /* Re-specifying the whole (small) store lets the driver orphan the old
     * one instead of stalling on it: the paper's conclusion, done cheaply. */
    glNamedBufferData(g->vbo, (GLsizeiptr)(sizeof(mesh_vertex) * (size_t)total), NULL, GL_STATIC_DRAW);
    for (int p = 0; p < PASS_COUNT; p++)
        if (m->pass[p].count)
            glNamedBufferSubData(g->vbo, (GLintptr)(sizeof(mesh_vertex) * (size_t)g->first[p]),
                                 (GLsizeiptr)(sizeof(mesh_vertex) * (size_t)m->pass[p].count), m->pass[p].v);
}


static int cmp_dist_desc(const void *a, const void *b)
{
    float da = ((const struct draw_item *)a)->dist, db = ((const struct draw_item *)b)->dist;
    return (da < db) - (da > db);
}

static void draw_overlay(renderer *r, const render_settings *s)
{
    float cx = (float)s->width * 0.5f, cy = (float)s->height * 0.5f;
    float k = (float)(s->height > 1080 ? 2 : 1), len = 9.f * k, th = 1.f * k;
    /* two thin rectangles as triangles */
    float v[] = {
        cx - len, cy - th, cx + len, cy - th, cx + len, cy + th, cx - len, cy - th, cx + len, cy + th, cx - len, cy + th,
        cx - th, cy - len, cx + th, cy - len, cx + th, cy + len, cx - th, cy - len, cx + th, cy + len, cx - th, cy + len,
    };
    glNamedBufferSubData(r->overlay_vbo, 0, sizeof v, v);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE_MINUS_DST_COLOR, GL_ZERO); /* inverts what is behind: visible on any terrain */
    glUseProgram(r->overlay_prog);
    glUniform2f(r->overlay_screen, (float)s->width, (float)s->height);
    glUniform4f(r->overlay_color, 1, 1, 1, 1);
    glBindVertexArray(r->overlay_vao);
    glDrawArrays(GL_TRIANGLES, 0, 12);
    glDisable(GL_BLEND);
}

void renderer_draw(renderer *r, const camera *cam, const render_settings *s, render_stats *stats)
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

    /* Cull: frustum test on each chunk's bounding sphere, then distance. */
    const float radius = CHUNK_SIZE * 0.8660254f; /* half the chunk diagonal */
    int n = r->cx * r->cy * r->cz, visible = 0;
    for (int i = 0; i < n; i++) {
        gpu_chunk *g = &r->chunks[i];
        if (!g->vbo) continue;
        stats->chunks_loaded++;
        stats->triangles_loaded += (g->count[0] + g->count[1] + g->count[2]) / 2;
        int x = i % r->cx, z = (i / r->cx) % r->cz, y = i / (r->cx * r->cz);
        vec3 c = { (float)x * CHUNK_SIZE + CHUNK_SIZE / 2, (float)y * CHUNK_SIZE + CHUNK_SIZE / 2,
                   (float)z * CHUNK_SIZE + CHUNK_SIZE / 2 };
        float d = glm_vec3_distance(c, (float *)cam->pos);
        if (d - radius > s->view_distance) continue;
        if (!camera_sphere_visible(cam, c, radius)) continue;
        r->order[visible++] = (struct draw_item){ i, d };
    }
    stats->chunks_drawn = visible;

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
    const light_shading *ls = &s->light;
    glUniform1i(r->u.light_on, ls->enabled);
    glUniform1i(r->u.light, 1);
    if (ls->enabled) {
        glBindTextureUnit(1, ls->texture);
        glUniform3i(r->u.light_size, ls->size[0], ls->size[1], ls->size[2]);
        glUniform3fv(r->u.sun_color, 1, ls->sun_color);
        glUniform3fv(r->u.sky_color, 1, ls->sky_color);
        glUniform1f(r->u.ambient, ls->ambient);
    }
    glBindVertexArray(r->vao);
    glVertexArrayElementBuffer(r->vao, r->ibo);

    for (int pass = 0; pass < PASS_COUNT; pass++) {
        if (pass == PASS_TRANSLUCENT) {
            /* far to near so overlapping bog surfaces blend in order */
            qsort(r->order, (size_t)visible, sizeof *r->order, cmp_dist_desc);
            glEnable(GL_BLEND);
            glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
            glDepthMask(GL_FALSE);
            glDisable(GL_CULL_FACE); /* a bog surface is seen from above and below */
        }
        glUniform1i(r->u.pass, pass);
        for (int k = 0; k < visible; k++) {
            int i = r->order[k].index;
            gpu_chunk *g = &r->chunks[i];
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

void renderer_draw_crosshair(renderer *r, const render_settings *s)
{
    glBindFramebuffer(GL_FRAMEBUFFER, s->framebuffer);
    glViewport(0, 0, s->width, s->height);
    draw_overlay(r, s);
    glEnable(GL_DEPTH_TEST);
    glBindVertexArray(0);
}
