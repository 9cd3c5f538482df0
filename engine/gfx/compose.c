#include "gfx/compose.h"

#include <glad/gl.h>
#include <math.h>
#include <string.h>

compose_look compose_look_plain(void)
{
    compose_look c;
    memset(&c, 0, sizeof c);
    c.lamp_range = 1.f;
    return c;
}

void compose_apply(unsigned program, const compose_look *c, const float eye[3], const float sun[3], int unit)
{
    GLuint p = program;
#define U(name) glGetUniformLocation(p, "u_" #name)
    float len = sqrtf(sun[0] * sun[0] + sun[1] * sun[1] + sun[2] * sun[2]);
    float s[3] = { 0.f, 1.f, 0.f };
    if (len > 0.f) s[0] = sun[0] / len, s[1] = sun[1] / len, s[2] = sun[2] / len;
    glUniform3fv(U(eye), 1, eye);
    glUniform1i(U(sky_on), c->sky);
    glUniform3fv(U(sky_zenith), 1, c->zenith);
    glUniform3fv(U(sky_horizon), 1, c->horizon);
    glUniform3fv(U(sky_sun), 1, s);
    glUniform3fv(U(sky_sun_color), 1, c->sun_color);
    bool emit = c->emit && c->emit_tex;
    glUniform1i(U(emit_on), emit);
    glUniform1i(U(emit), unit);
    if (emit) {
        glBindTextureUnit((GLuint)unit, c->emit_tex);
        glUniform3i(U(emit_size), c->emit_size[0], c->emit_size[1], c->emit_size[2]);
        glUniform3i(U(emit_shift), c->emit_shift[0], c->emit_shift[1], c->emit_shift[2]);
        glUniform3i(U(emit_lo), c->emit_lo[0], c->emit_lo[1], c->emit_lo[2]);
        glUniform3fv(U(emit_color), 1, c->emit_color);
    }
    glUniform1i(U(lamp_on), c->lamp);
    glUniform3fv(U(lamp_dir), 1, c->lamp_dir);
    glUniform3fv(U(lamp_color), 1, c->lamp_color);
    glUniform1f(U(lamp_range), c->lamp_range > 0.f ? c->lamp_range : 1.f);
    glUniform1f(U(brightness), c->brightness);
#undef U
}
