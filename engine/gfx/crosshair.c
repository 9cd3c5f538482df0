#include "gfx/crosshair.h"

#include <glad/gl.h>
#include <stdlib.h>

#include "gfx/shader.h"

struct crosshair {
    GLuint prog, vao, vbo;
    GLint screen, color;
};

crosshair *crosshair_create(char *err, size_t errlen)
{
    crosshair *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->prog = shader_load("overlay.vert", "overlay.frag", err, errlen);
    if (!c->prog) {
        free(c);
        return NULL;
    }
    c->screen = glGetUniformLocation(c->prog, "u_screen");
    c->color = glGetUniformLocation(c->prog, "u_color");
    glCreateVertexArrays(1, &c->vao);
    glCreateBuffers(1, &c->vbo);
    glNamedBufferData(c->vbo, sizeof(float) * 64, NULL, GL_STREAM_DRAW);
    glEnableVertexArrayAttrib(c->vao, 0);
    glVertexArrayAttribFormat(c->vao, 0, 2, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(c->vao, 0, 0);
    glVertexArrayVertexBuffer(c->vao, 0, c->vbo, 0, sizeof(float) * 2);
    return c;
}

void crosshair_destroy(crosshair *c)
{
    if (!c) return;
    glDeleteProgram(c->prog);
    glDeleteVertexArrays(1, &c->vao);
    glDeleteBuffers(1, &c->vbo);
    free(c);
}

void crosshair_draw(crosshair *c, const render_settings *s)
{
    glBindFramebuffer(GL_FRAMEBUFFER, s->framebuffer);
    glViewport(0, 0, s->width, s->height);
    float cx = (float)s->width * 0.5f, cy = (float)s->height * 0.5f;
    float k = (float)(s->height > 1080 ? 2 : 1), len = 9.f * k, th = 1.f * k;
    /* two thin rectangles as triangles */
    float v[] = {
        cx - len, cy - th, cx + len, cy - th, cx + len, cy + th, cx - len, cy - th, cx + len, cy + th, cx - len, cy + th,
        cx - th, cy - len, cx + th, cy - len, cx + th, cy + len, cx - th, cy - len, cx + th, cy + len, cx - th, cy + len,
    };
    glNamedBufferSubData(c->vbo, 0, sizeof v, v);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE_MINUS_DST_COLOR, GL_ZERO); /* inverts what is behind: visible on any terrain */
    glUseProgram(c->prog);
    glUniform2f(c->screen, (float)s->width, (float)s->height);
    glUniform4f(c->color, 1, 1, 1, 1);
    glBindVertexArray(c->vao);
    glDrawArrays(GL_TRIANGLES, 0, 12);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glBindVertexArray(0);
}
