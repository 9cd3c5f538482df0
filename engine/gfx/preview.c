#include "gfx/preview.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>

#include "gfx/shader.h"

struct preview_renderer {
    GLuint prog, vao, mask, depth, depth_fbo;
    int mask_dim[3];  /* the mask texture's size (x, z, y); grows, never shrinks */
    int depth_dim[2]; /* the depth copy's size */
    int lo[3], size[3];
    struct {
        GLint depth, mask, inv_viewproj, eye, lo, size, screen, fill, outline, px, soft;
    } u;
};

preview_renderer *preview_create(char *err, size_t errlen)
{
    preview_renderer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->prog = shader_load("preview.vert", "preview.frag", err, errlen);
    if (!p->prog) {
        free(p);
        return NULL;
    }
    const struct { GLint *loc; const char *name; } u[] = {
        { &p->u.depth, "u_depth" },   { &p->u.mask, "u_mask" },     { &p->u.inv_viewproj, "u_inv_viewproj" },
        { &p->u.eye, "u_eye" },       { &p->u.lo, "u_lo" },         { &p->u.size, "u_size" },
        { &p->u.screen, "u_screen" }, { &p->u.fill, "u_fill" },     { &p->u.outline, "u_outline" },
        { &p->u.px, "u_px" },         { &p->u.soft, "u_soft" },
    };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) *u[i].loc = glGetUniformLocation(p->prog, u[i].name);
    glCreateVertexArrays(1, &p->vao);
    return p;
}

void preview_destroy(preview_renderer *p)
{
    if (!p) return;
    glDeleteProgram(p->prog);
    glDeleteVertexArrays(1, &p->vao);
    if (p->mask) glDeleteTextures(1, &p->mask);
    if (p->depth) glDeleteTextures(1, &p->depth);
    if (p->depth_fbo) glDeleteFramebuffers(1, &p->depth_fbo);
    free(p);
}

bool preview_set_mask(preview_renderer *p, const int lo[3], const int size[3], const uint8_t *v)
{
    for (int k = 0; k < 3; k++) p->lo[k] = lo[k], p->size[k] = size[k] > 0 ? size[k] : 0;
    if (!p->size[0] || !p->size[1] || !p->size[2]) return true;
    const int dim[3] = { p->size[0], p->size[2], p->size[1] }; /* the shape layout: x, z, y */
    if (!p->mask || dim[0] > p->mask_dim[0] || dim[1] > p->mask_dim[1] || dim[2] > p->mask_dim[2]) {
        if (p->mask) glDeleteTextures(1, &p->mask);
        for (int k = 0; k < 3; k++) p->mask_dim[k] = dim[k] > p->mask_dim[k] ? dim[k] : p->mask_dim[k];
        glCreateTextures(GL_TEXTURE_3D, 1, &p->mask);
        glTextureStorage3D(p->mask, 1, GL_R8UI, p->mask_dim[0], p->mask_dim[1], p->mask_dim[2]);
        glTextureParameteri(p->mask, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTextureParameteri(p->mask, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        if (glGetError() == GL_OUT_OF_MEMORY) {
            p->size[0] = 0;
            return false;
        }
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage3D(p->mask, 0, 0, 0, 0, dim[0], dim[1], dim[2], GL_RED_INTEGER, GL_UNSIGNED_BYTE, v);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    return true;
}

/* The pixels the marked box covers (x0 y0 x1 y1), or the whole screen when
 * a corner is behind the eye; false when the box is wholly off screen. */
static bool screen_box(const preview_renderer *p, const camera *cam, int width, int height, int out[4])
{
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int c = 0; c < 8; c++) {
        float v[4] = { 0, 0, 0, 1 };
        for (int k = 0; k < 3; k++) v[k] = (float)(p->lo[k] - cam->origin[k] + ((c >> k) & 1) * p->size[k]);
        float clip[4];
        for (int r = 0; r < 4; r++)
            clip[r] = cam->viewproj[0][r] * v[0] + cam->viewproj[1][r] * v[1] + cam->viewproj[2][r] * v[2] +
                      cam->viewproj[3][r];
        if (clip[3] < cam->znear) {
            out[0] = 0, out[1] = 0, out[2] = width, out[3] = height;
            return true;
        }
        float sx = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)width, sy = (clip[1] / clip[3] * 0.5f + 0.5f) * (float)height;
        x0 = fminf(x0, sx), y0 = fminf(y0, sy), x1 = fmaxf(x1, sx), y1 = fmaxf(y1, sy);
    }
    out[0] = (int)fmaxf(floorf(x0) - 2.f, 0.f), out[1] = (int)fmaxf(floorf(y0) - 2.f, 0.f);
    out[2] = (int)fminf(ceilf(x1) + 2.f, (float)width), out[3] = (int)fminf(ceilf(y1) + 2.f, (float)height);
    return out[2] > out[0] && out[3] > out[1];
}

/* A copy of the frame's depth the pass can read while drawing into it: a
 * blit where the formats match (a plain copy of the depth values; a
 * software rasterizer's texture copy of depth converts every value and
 * cost several times the pass), else a texture copy. */
static bool copy_depth(preview_renderer *p, unsigned framebuffer, int width, int height, const int box[4])
{
    if (!p->depth || p->depth_dim[0] != width || p->depth_dim[1] != height) {
        if (p->depth) glDeleteTextures(1, &p->depth);
        glCreateTextures(GL_TEXTURE_2D, 1, &p->depth);
        glTextureStorage2D(p->depth, 1, GL_DEPTH_COMPONENT24, width, height);
        glTextureParameteri(p->depth, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTextureParameteri(p->depth, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        if (!p->depth_fbo) glCreateFramebuffers(1, &p->depth_fbo);
        glNamedFramebufferTexture(p->depth_fbo, GL_DEPTH_ATTACHMENT, p->depth, 0);
        p->depth_dim[0] = width, p->depth_dim[1] = height;
    }
    glBlitNamedFramebuffer(framebuffer, p->depth_fbo, box[0], box[1], box[2], box[3], box[0], box[1], box[2], box[3],
                           GL_DEPTH_BUFFER_BIT, GL_NEAREST);
    if (glGetError() == GL_NO_ERROR) return true;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
    glCopyTextureSubImage2D(p->depth, 0, box[0], box[1], box[0], box[1], box[2] - box[0], box[3] - box[1]);
    return glGetError() == GL_NO_ERROR;
}

void preview_draw(preview_renderer *p, const camera *cam, const preview_style *st, unsigned framebuffer, int width,
                  int height)
{
    int box[4];
    if (!p->size[0] || !p->size[1] || !p->size[2] || width < 1 || height < 1) return;
    if (!screen_box(p, cam, width, height, box)) return;
    while (glGetError() != GL_NO_ERROR) {} /* only the copy's own error counts below */
    if (!copy_depth(p, framebuffer, width, height, box)) return;

    mat4 inv;
    glm_mat4_inv((vec4 *)cam->viewproj, inv);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, width, height);
    glUseProgram(p->prog);
    glUniformMatrix4fv(p->u.inv_viewproj, 1, GL_FALSE, (const float *)inv);
    glUniform3fv(p->u.eye, 1, cam->pos);
    glUniform3i(p->u.lo, p->lo[0] - cam->origin[0], p->lo[1] - cam->origin[1], p->lo[2] - cam->origin[2]);
    glUniform3i(p->u.size, p->size[0], p->size[1], p->size[2]);
    glUniform2f(p->u.screen, (float)width, (float)height);
    glUniform4fv(p->u.fill, 1, st->fill);
    glUniform4fv(p->u.outline, 1, st->outline);
    glUniform1f(p->u.px, st->outline_px > 1.f ? st->outline_px : 1.f);
    glUniform1i(p->u.soft, st->soft);
    glUniform1i(p->u.depth, 0);
    glUniform1i(p->u.mask, 1);
    glBindTextureUnit(0, p->depth);
    glBindTextureUnit(1, p->mask);

    glEnable(GL_SCISSOR_TEST);
    glScissor(box[0], box[1], box[2] - box[0], box[3] - box[1]);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    /* destination alpha is left alone, so screenshots stay opaque */
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    glBindVertexArray(p->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);

    glBindVertexArray(0);
    glBindTextureUnit(0, 0);
    glBindTextureUnit(1, 0);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glEnable(GL_CULL_FACE);
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
}
