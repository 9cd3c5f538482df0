#include "gfx/crosshair.h"

#include <glad/gl.h>
#include <math.h>
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
    glNamedBufferData(c->vbo, sizeof(float) * 48, NULL, GL_STREAM_DRAW);
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

/* The two bars, grown by `grow` pixels on every side, as 12 vertices. */
static void bars(float *v, float cx, float cy, float len, float th, float grow)
{
    const float r[2][4] = { { cx - len - grow, cy - th - grow, cx + len + grow, cy + th + grow },
                            { cx - th - grow, cy - len - grow, cx + th + grow, cy + len + grow } };
    for (int b = 0; b < 2; b++, v += 12) {
        const float x0 = r[b][0], y0 = r[b][1], x1 = r[b][2], y1 = r[b][3];
        const float q[12] = { x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1 };
        for (int i = 0; i < 12; i++) v[i] = q[i];
    }
}

void crosshair_draw(crosshair *c, const render_settings *s)
{
    glBindFramebuffer(GL_FRAMEBUFFER, s->framebuffer);
    glViewport(0, 0, s->width, s->height);
    float cx = floorf((float)s->width * 0.5f), cy = floorf((float)s->height * 0.5f);
    float k = (float)(s->height > 1080 ? 2 : 1), len = 10.f * k, th = 1.f * k;
    /* a dark outline first, then light bars on it: one of the two always
     * differs from what is behind, on sky, grass, stone or shade alike */
    float v[48];
    bars(v, cx, cy, len, th, CROSSHAIR_OUTLINE_PX * k);
    bars(v + 24, cx, cy, len, th, 0.f);
    glNamedBufferSubData(c->vbo, 0, sizeof v, v);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    /* destination alpha is left alone, so screenshots stay opaque */
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    glUseProgram(c->prog);
    glUniform2f(c->screen, (float)s->width, (float)s->height);
    glBindVertexArray(c->vao);
    glUniform4f(c->color, 0.f, 0.f, 0.f, 0.85f);
    glDrawArrays(GL_TRIANGLES, 0, 12);
    glUniform4f(c->color, 1.f, 1.f, 1.f, 1.f);
    glDrawArrays(GL_TRIANGLES, 12, 12);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glBindVertexArray(0);
}
