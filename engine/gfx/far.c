#include "gfx/far.h"

#include <glad/gl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gfx/compose.h"
#include "gfx/shader.h"

typedef struct far_slot {
    bool used;
    far_ring r;
    GLuint vbo, ibo;
    far_tile *tiles;
    int ntiles;
    long triangles;
    size_t bytes;
} far_slot;

struct far_gfx {
    GLuint prog, vao, mask_tex;
    int mask_w, mask_h;
    GLuint curtain_vbo; /* the curtain's vertices, rewritten each frame */
    int curtain_cap;
    far_slot slot[FAR_RING_MAX];
    GLsizei *counts; /* scratch: the ranges of one multi-draw */
    const void **offsets;
    int cap;
    struct {
        GLint viewproj, origin, camera, sun, atlas, hole_on, hole, mask_on, mask, mask_origin, mask_size, fog_start,
            fog_end, smooth;
    } u;
};

far_gfx *far_gfx_create(char *err, size_t errlen)
{
    far_gfx *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->prog = shader_load_composed("far.vert", "far.frag", err, errlen);
    if (!g->prog) {
        free(g);
        return NULL;
    }
#define U(name) glGetUniformLocation(g->prog, "u_" #name)
    g->u.viewproj = U(viewproj), g->u.origin = U(origin), g->u.camera = U(camera), g->u.sun = U(sun);
    g->u.atlas = U(atlas), g->u.hole_on = U(hole_on), g->u.hole = U(hole), g->u.mask_on = U(mask_on);
    g->u.mask = U(mask), g->u.mask_origin = U(mask_origin), g->u.mask_size = U(mask_size);
    g->u.fog_start = U(fog_start), g->u.fog_end = U(fog_end), g->u.smooth = U(smooth);
#undef U
    glCreateVertexArrays(1, &g->vao);
    glEnableVertexArrayAttrib(g->vao, 0);
    glVertexArrayAttribFormat(g->vao, 0, 3, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(g->vao, 0, 0);
    glEnableVertexArrayAttrib(g->vao, 1);
    glVertexArrayAttribIFormat(g->vao, 1, 1, GL_UNSIGNED_INT, 12);
    glVertexArrayAttribBinding(g->vao, 1, 0);
    return g;
}

static void slot_clear(far_slot *s)
{
    if (s->vbo) glDeleteBuffers(1, &s->vbo);
    if (s->ibo) glDeleteBuffers(1, &s->ibo);
    free(s->tiles);
    memset(s, 0, sizeof *s);
}

void far_gfx_clear(far_gfx *g, int from)
{
    for (int i = from < 0 ? 0 : from; g && i < FAR_RING_MAX; i++) slot_clear(&g->slot[i]);
}

void far_gfx_destroy(far_gfx *g)
{
    if (!g) return;
    far_gfx_clear(g, 0);
    glDeleteProgram(g->prog);
    glDeleteVertexArrays(1, &g->vao);
    if (g->mask_tex) glDeleteTextures(1, &g->mask_tex);
    if (g->curtain_vbo) glDeleteBuffers(1, &g->curtain_vbo);
    free(g->counts);
    free(g->offsets);
    free(g);
}

bool far_gfx_upload(far_gfx *g, int ring, const far_ring *r, const far_mesh *m)
{
    if (ring < 0 || ring >= FAR_RING_MAX) return false;
    far_slot *s = &g->slot[ring];
    slot_clear(s);
    s->tiles = malloc(sizeof(far_tile) * (size_t)(m->ntiles ? m->ntiles : 1));
    if (!s->tiles) {
        log_warn("far: no memory for ring %d's tiles", ring);
        return false;
    }
    memcpy(s->tiles, m->tiles, sizeof(far_tile) * (size_t)m->ntiles);
    s->ntiles = m->ntiles;
    glCreateBuffers(1, &s->vbo);
    glCreateBuffers(1, &s->ibo);
    while (glGetError() != GL_NO_ERROR) {}
    glNamedBufferData(s->vbo, (GLsizeiptr)(sizeof(far_vertex) * (size_t)m->nv), m->v, GL_STATIC_DRAW);
    glNamedBufferData(s->ibo, (GLsizeiptr)(sizeof(uint32_t) * (size_t)m->ni), m->idx, GL_STATIC_DRAW);
    if (glGetError() == GL_OUT_OF_MEMORY) {
        log_warn("far: no memory for ring %d's buffers", ring);
        slot_clear(s);
        return false;
    }
    s->r = *r;
    s->used = true;
    s->triangles = m->ni / 3;
    s->bytes = sizeof(far_vertex) * (size_t)m->nv + sizeof(uint32_t) * (size_t)m->ni;
    return true;
}

size_t far_gfx_bytes(const far_gfx *g)
{
    size_t b = 0;
    for (int i = 0; g && i < FAR_RING_MAX; i++) b += g->slot[i].bytes;
    return b;
}

static void upload_mask(far_gfx *g, const far_view *v)
{
    if (!g->mask_tex || g->mask_w != v->mask_w || g->mask_h != v->mask_h) {
        if (g->mask_tex) glDeleteTextures(1, &g->mask_tex);
        glCreateTextures(GL_TEXTURE_2D, 1, &g->mask_tex);
        glTextureStorage2D(g->mask_tex, 1, GL_R8, v->mask_w, v->mask_h);
        glTextureParameteri(g->mask_tex, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTextureParameteri(g->mask_tex, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        g->mask_w = v->mask_w;
        g->mask_h = v->mask_h;
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(g->mask_tex, 0, 0, 0, v->mask_w, v->mask_h, GL_RED, GL_UNSIGNED_BYTE, v->mask);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

/* The curtain round the near field (mesh/far_mesh.h), with ring 0's origin
 * and none of its cut-outs: it stands on the drawn columns' edges, which
 * the mask would take for theirs. Both faces: it faces the drawn column,
 * and the eye may stand outside it. */
static void draw_curtain(far_gfx *g, const camera *cam, const far_view *v, far_draw_stats *st)
{
    if (!v->curtain || v->curtain_n <= 0 || !g->slot[0].used) return;
    GLsizeiptr bytes = (GLsizeiptr)(sizeof(far_vertex) * (size_t)v->curtain_n);
    if (v->curtain_n > g->curtain_cap) { /* storage grows to the largest curtain yet, then is rewritten */
        if (!g->curtain_vbo) glCreateBuffers(1, &g->curtain_vbo);
        glNamedBufferData(g->curtain_vbo, bytes, v->curtain, GL_STREAM_DRAW);
        g->curtain_cap = v->curtain_n;
    } else {
        glNamedBufferSubData(g->curtain_vbo, 0, bytes, v->curtain);
    }
    float o[3];
    camera_rel(cam, g->slot[0].r.x0, 0, g->slot[0].r.z0, o);
    glUniform3fv(g->u.origin, 1, o);
    glUniform1i(g->u.hole_on, 0);
    glUniform1i(g->u.mask_on, 0);
    glDisable(GL_CULL_FACE);
    glVertexArrayVertexBuffer(g->vao, 0, g->curtain_vbo, 0, sizeof(far_vertex));
    glDrawArrays(GL_TRIANGLES, 0, v->curtain_n);
    glEnable(GL_CULL_FACE);
    st->triangles += v->curtain_n / 3;
    st->curtain_triangles = v->curtain_n / 3;
}

void far_gfx_draw(far_gfx *g, const camera *cam, const render_settings *s, const far_view *v, far_draw_stats *st)
{
    memset(st, 0, sizeof *st);
    if (!g) return;
    for (int i = 0; i < v->rings && i < FAR_RING_MAX; i++) st->triangles_loaded += g->slot[i].triangles;
    glUseProgram(g->prog);
    glUniformMatrix4fv(g->u.viewproj, 1, GL_FALSE, (const float *)cam->viewproj);
    glUniform3fv(g->u.camera, 1, cam->pos);
    vec3 sun = { s->sun[0], s->sun[1], s->sun[2] };
    glm_vec3_normalize(sun);
    glUniform3fv(g->u.sun, 1, sun);
    glUniform1f(g->u.fog_start, render_fog_start(s));
    glUniform1f(g->u.fog_end, render_fog_end(s));
    glUniform1i(g->u.smooth, v->smooth);
    glUniform1i(g->u.atlas, 0);
    glBindTextureUnit(0, s->atlas);
    light_shading_apply(g->prog, &s->light, 1);
    compose_apply(g->prog, &s->look, cam->pos, s->sun, COMPOSE_EMIT_UNIT);
    bool mask = v->mask && v->mask_w > 0 && v->mask_h > 0;
    glUniform1i(g->u.mask_on, mask);
    glUniform1i(g->u.mask, 2);
    if (mask) {
        upload_mask(g, v);
        glBindTextureUnit(2, g->mask_tex);
        float o[3];
        camera_rel(cam, v->mask_cx * 32, 0, v->mask_cz * 32, o);
        glUniform2i(g->u.mask_origin, (int)o[0], (int)o[2]);
        glUniform2i(g->u.mask_size, v->mask_w, v->mask_h);
    }
    glPolygonMode(GL_FRONT_AND_BACK, s->wireframe ? GL_LINE : GL_FILL);
    /* the state render_frame_begin set: the passes before may leave it changed */
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glBindVertexArray(g->vao);
    for (int i = 0; i < v->rings && i < FAR_RING_MAX; i++) {
        far_slot *sl = &g->slot[i];
        if (!sl->used) continue;
        float o[3];
        camera_rel(cam, sl->r.x0, 0, sl->r.z0, o);
        glUniform3fv(g->u.origin, 1, o);
        const far_slot *in = i > 0 ? &g->slot[i - 1] : NULL;
        glUniform1i(g->u.hole_on, in && in->used);
        if (in && in->used) {
            int box[4];
            far_ring_box(&in->r, box);
            float lo[3], hi[3];
            camera_rel(cam, box[0], 0, box[1], lo);
            camera_rel(cam, box[2], 0, box[3], hi);
            glUniform4f(g->u.hole, lo[0], lo[2], hi[0], hi[2]);
        }
        if (sl->ntiles > g->cap) {
            GLsizei *c2 = realloc(g->counts, sizeof *c2 * (size_t)sl->ntiles);
            if (c2) g->counts = c2;
            const void **o2 = realloc(g->offsets, sizeof *o2 * (size_t)sl->ntiles);
            if (o2) g->offsets = o2;
            if (!c2 || !o2) continue;
            g->cap = sl->ntiles;
        }
        GLsizei *counts = g->counts;
        const void **offsets = g->offsets;
        glVertexArrayVertexBuffer(g->vao, 0, sl->vbo, 0, sizeof(far_vertex));
        glVertexArrayElementBuffer(g->vao, sl->ibo);
        int k = 0;
        for (int t = 0; t < sl->ntiles; t++) {
            const far_tile *ft = &sl->tiles[t];
            if (!ft->count) continue;
            float lo[3] = { o[0] + ft->lo[0], ft->lo[1], o[2] + ft->lo[2] };
            float hi[3] = { o[0] + ft->hi[0], ft->hi[1], o[2] + ft->hi[2] };
            if (!camera_box_visible(cam, lo, hi)) continue;
            /* consecutive tiles in one range: fewer draws */
            if (k > 0 && (const char *)offsets[k - 1] + sizeof(uint32_t) * (size_t)counts[k - 1] ==
                             (const char *)(uintptr_t)(sizeof(uint32_t) * ft->first))
                counts[k - 1] += (GLsizei)ft->count;
            else {
                counts[k] = (GLsizei)ft->count;
                offsets[k] = (const void *)(uintptr_t)(sizeof(uint32_t) * ft->first);
                k++;
            }
            st->triangles += ft->count / 3;
            st->tiles_drawn++;
        }
        if (k > 0) glMultiDrawElements(GL_TRIANGLES, counts, GL_UNSIGNED_INT, (const void *const *)offsets, k);
    }
    draw_curtain(g, cam, v, st);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}
