#include "gfx/sky.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>

#include "gfx/shader.h"

/* The grid the sky's colour is made on: cells of 80 pixels at 1280x720.
 * Every vertex of it is a software rasterizer's memory a frame in flight
 * (64 x 36 held 100 MB more over cli_robust's frames). */
#define SKY_CELLS_X 16
#define SKY_CELLS_Y 9

struct sky {
    unsigned prog, vao;
};

sky *sky_create(char *err, size_t errlen)
{
    sky *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->prog = shader_load_composed_vertex("sky.vert", "sky.frag", err, errlen);
    if (!k->prog) {
        free(k);
        return NULL;
    }
    glCreateVertexArrays(1, &k->vao);
    return k;
}

void sky_destroy(sky *k)
{
    if (!k) return;
    glDeleteProgram(k->prog);
    glDeleteVertexArrays(1, &k->vao);
    free(k);
}

void sky_draw(sky *k, const camera *cam, const render_settings *s)
{
    if (!k || !s->look.sky) return;
    glUseProgram(k->prog);
    mat4 inv;
    glm_mat4_inv((vec4 *)cam->viewproj, inv);
    glUniformMatrix4fv(glGetUniformLocation(k->prog, "u_inv_viewproj"), 1, GL_FALSE, (const float *)inv);
    glUniform1f(glGetUniformLocation(k->prog, "u_sun_cos"), cosf(s->look.sun_radius_deg * 0.017453292f));
    glUniform1i(glGetUniformLocation(k->prog, "u_clouds"), s->look.clouds);
    glUniform2i(glGetUniformLocation(k->prog, "u_cells"), SKY_CELLS_X, SKY_CELLS_Y);
    compose_apply(k->prog, &s->look, cam->pos, s->sun, COMPOSE_EMIT_UNIT);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    glBindVertexArray(k->vao);
    glDrawArrays(GL_TRIANGLES, 0, 6 * SKY_CELLS_X * SKY_CELLS_Y);
    glEnable(GL_CULL_FACE);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
}
