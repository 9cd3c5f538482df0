#include "gfx/occlusion_gpu.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>

#include "gfx/shader.h"

/* The texture unit and storage buffer binding the shader uses: units and
 * bindings no render mode uses, so nothing of the frame's needs putting
 * back but the program and these two. */
#define DEPTH_UNIT 15
#define TILES_BINDING 7

struct occlusion_gpu {
    unsigned prog;
    GLint u_size, u_tiles;
    unsigned fbo, tex;  /* the copy of the depth, in the framebuffer's own format */
    int tex_w, tex_h;
    GLenum tex_fmt;
    unsigned buf;       /* the tiles, as the shader writes them */
    size_t buf_bytes;
};

occlusion_gpu *occlusion_gpu_create(char *err, size_t errlen)
{
    unsigned prog = shader_load_compute("occlusion_tiles.comp", err, errlen);
    if (!prog) return NULL;
    occlusion_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        glDeleteProgram(prog);
        snprintf(err, errlen, "no memory");
        return NULL;
    }
    g->prog = prog;
    g->u_size = glGetUniformLocation(prog, "u_size");
    g->u_tiles = glGetUniformLocation(prog, "u_tiles");
    return g;
}

static void drop_copy(occlusion_gpu *g)
{
    if (g->fbo) glDeleteFramebuffers(1, &g->fbo);
    if (g->tex) glDeleteTextures(1, &g->tex);
    g->fbo = g->tex = 0, g->tex_w = g->tex_h = 0, g->tex_fmt = 0;
}

void occlusion_gpu_destroy(occlusion_gpu *g)
{
    if (!g) return;
    drop_copy(g);
    if (g->buf) glDeleteBuffers(1, &g->buf);
    glDeleteProgram(g->prog);
    free(g);
}

/* The texture format a blit of fb's depth can land in: a blit of depth
 * needs the same depth and stencil formats on both sides. 0 when fb has
 * no depth or one no texture format matches. */
static GLenum depth_format(unsigned fb)
{
    const GLenum da = fb ? GL_DEPTH_ATTACHMENT : GL_DEPTH, sa = fb ? GL_STENCIL_ATTACHMENT : GL_STENCIL;
    GLint type = GL_NONE, bits = 0, comp = 0, stype = GL_NONE, sbits = 0;
    glGetNamedFramebufferAttachmentParameteriv(fb, da, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type == GL_NONE) return 0;
    glGetNamedFramebufferAttachmentParameteriv(fb, da, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &bits);
    glGetNamedFramebufferAttachmentParameteriv(fb, da, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &comp);
    glGetNamedFramebufferAttachmentParameteriv(fb, sa, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &stype);
    if (stype != GL_NONE)
        glGetNamedFramebufferAttachmentParameteriv(fb, sa, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE, &sbits);
    const bool fl = comp == GL_FLOAT, st = sbits > 0;
    if (fl && bits == 32) return st ? GL_DEPTH32F_STENCIL8 : GL_DEPTH_COMPONENT32F;
    if (fl) return 0;
    if (bits == 24) return st ? GL_DEPTH24_STENCIL8 : GL_DEPTH_COMPONENT24;
    if (st) return 0; /* 16 or 32 bits with stencil: no such format */
    return bits == 16 ? GL_DEPTH_COMPONENT16 : bits == 32 ? GL_DEPTH_COMPONENT32 : 0;
}

static bool make_copy(occlusion_gpu *g, GLenum fmt, int w, int h)
{
    if (g->tex && g->tex_fmt == fmt && g->tex_w == w && g->tex_h == h) return true;
    drop_copy(g);
    glCreateTextures(GL_TEXTURE_2D, 1, &g->tex);
    glTextureStorage2D(g->tex, 1, fmt, w, h);
    glTextureParameteri(g->tex, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(g->tex, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(g->tex, GL_TEXTURE_COMPARE_MODE, GL_NONE);
    const bool stencil = fmt == GL_DEPTH24_STENCIL8 || fmt == GL_DEPTH32F_STENCIL8;
    /* sampled, a depth-stencil texture gives its depth */
    if (stencil) glTextureParameteri(g->tex, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_DEPTH_COMPONENT);
    glCreateFramebuffers(1, &g->fbo);
    glNamedFramebufferTexture(g->fbo, stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT, g->tex, 0);
    glNamedFramebufferDrawBuffer(g->fbo, GL_NONE);
    glNamedFramebufferReadBuffer(g->fbo, GL_NONE);
    if (glCheckNamedFramebufferStatus(g->fbo, GL_DRAW_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        drop_copy(g);
        return false;
    }
    g->tex_fmt = fmt, g->tex_w = w, g->tex_h = h;
    return true;
}

bool occlusion_gpu_reduce(occlusion_gpu *g, unsigned fb, int w, int h, unsigned *buf, char *err, size_t errlen)
{
    if (w <= 0 || h <= 0) {
        snprintf(err, errlen, "a %dx%d framebuffer has no depth to reduce", w, h);
        return false;
    }
    GLenum fmt = depth_format(fb);
    if (!fmt) {
        snprintf(err, errlen, "the framebuffer's depth has no texture format to be copied into");
        return false;
    }
    if (!make_copy(g, fmt, w, h)) {
        snprintf(err, errlen, "cannot make a %dx%d depth texture (format 0x%04x)", w, h, fmt);
        return false;
    }
    const int tw = (w + OCCLUSION_TILE - 1) / OCCLUSION_TILE, th = (h + OCCLUSION_TILE - 1) / OCCLUSION_TILE;
    const size_t bytes = sizeof(float) * (size_t)tw * (size_t)th;
    if (bytes > g->buf_bytes) {
        if (g->buf) glDeleteBuffers(1, &g->buf);
        glCreateBuffers(1, &g->buf);
        glNamedBufferStorage(g->buf, (GLsizeiptr)bytes, NULL, 0);
        g->buf_bytes = bytes;
    }
    glBlitNamedFramebuffer(fb, g->fbo, 0, 0, w, h, 0, 0, w, h, GL_DEPTH_BUFFER_BIT, GL_NEAREST);

    GLint prog = 0, old_buf = 0, old_unit = 0, old_tex = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, TILES_BINDING, &old_buf);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &old_unit);
    glActiveTexture(GL_TEXTURE0 + DEPTH_UNIT);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &old_tex);
    glActiveTexture((GLenum)old_unit);

    glUseProgram(g->prog);
    glProgramUniform2i(g->prog, g->u_size, w, h);
    glProgramUniform2i(g->prog, g->u_tiles, tw, th);
    glBindTextureUnit(DEPTH_UNIT, g->tex);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, TILES_BINDING, g->buf);
    glDispatchCompute((unsigned)(tw + 7) / 8u, (unsigned)(th + 7) / 8u, 1);
    *buf = g->buf;

    glUseProgram((unsigned)prog);
    glBindTextureUnit(DEPTH_UNIT, (unsigned)old_tex);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, TILES_BINDING, (unsigned)old_buf);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "GL error 0x%04x copying or reducing the depth", e);
        return false;
    }
    return true;
}

bool occlusion_gpu_tiles(occlusion_gpu *g, unsigned fb, int w, int h, occlusion_tiles *t, char *err, size_t errlen)
{
    if (!occlusion_tiles_size(t, w, h)) {
        snprintf(err, errlen, "no memory for %dx%d tiles", t->tw, t->th);
        return false;
    }
    unsigned buf = 0;
    if (!occlusion_gpu_reduce(g, fb, w, h, &buf, err, errlen)) return false;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(buf, 0, (GLsizeiptr)(sizeof(float) * (size_t)t->tw * (size_t)t->th), t->far);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "GL error 0x%04x reading the tiles back", e);
        return false;
    }
    return true;
}
