#include "gfx/plain.h"

#include <glad/gl.h>
#include <stdlib.h>

#include "gfx/shader.h"

struct plain_renderer {
    GLuint prog, vao;
    struct {
        GLint viewproj, camera, extent, atlas, layer, sun, fog_color, fog_start, fog_end, world_size;
    } u;
};

plain_renderer *plain_create(char *err, size_t errlen)
{
    plain_renderer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->prog = shader_load_composed("plain.vert", "plain.frag", err, errlen);
    if (!p->prog) {
        plain_destroy(p);
        return NULL;
    }
#define U(name) glGetUniformLocation(p->prog, "u_" #name)
    p->u.viewproj = U(viewproj), p->u.camera = U(camera), p->u.extent = U(extent), p->u.atlas = U(atlas);
    p->u.layer = U(layer), p->u.sun = U(sun), p->u.fog_color = U(fog_color), p->u.fog_start = U(fog_start);
    p->u.fog_end = U(fog_end), p->u.world_size = U(world_size);
#undef U
    glCreateVertexArrays(1, &p->vao); /* the quad's corners come from gl_VertexID */
    return p;
}

void plain_destroy(plain_renderer *p)
{
    if (!p) return;
    if (p->prog) glDeleteProgram(p->prog);
    if (p->vao) glDeleteVertexArrays(1, &p->vao);
    free(p);
}

void plain_draw(plain_renderer *p, const camera *cam, const render_settings *s, unsigned atlas, int tile, int sx,
                int sz)
{
    glUseProgram(p->prog);
    glUniformMatrix4fv(p->u.viewproj, 1, GL_FALSE, (const float *)cam->viewproj);
    glUniform3fv(p->u.camera, 1, cam->pos);
    glUniform1f(p->u.extent, cam->zfar);
    vec3 sun = { s->sun[0], s->sun[1], s->sun[2] };
    glm_vec3_normalize(sun);
    glUniform3fv(p->u.sun, 1, sun);
    /* the fog of renderer_draw, so the plain meets the terrain seamlessly */
    glUniform3fv(p->u.fog_color, 1, s->sky);
    glUniform1f(p->u.fog_start, render_fog_start(s));
    glUniform1f(p->u.fog_end, render_fog_end(s));
    glUniform2f(p->u.world_size, (float)sx, (float)sz);
    glUniform1f(p->u.layer, (float)tile);
    glUniform1i(p->u.atlas, 0);
    glBindTextureUnit(0, atlas);
    compose_apply(p->prog, &s->look, cam->pos, s->sun, COMPOSE_EMIT_UNIT);
    glBindVertexArray(p->vao);
    glDrawArrays(GL_TRIANGLES, 0, 6);
}
