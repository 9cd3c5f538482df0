#include "gfx/shader.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"

static char *read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open shader '%s'", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = (n >= 0 && n < (1 << 22)) ? malloc((size_t)n + 1) : NULL;
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        snprintf(err, errlen, "cannot read shader '%s'", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = 0;
    fclose(f);
    return buf;
}

static GLuint compile(GLenum type, const char *name, char *err, size_t errlen)
{
    char rel[256];
    snprintf(rel, sizeof rel, "shaders/%s", name);
    const char *path = platform_find_asset(rel);
    if (!path) {
        snprintf(err, errlen, "shader '%s' not found beside the executable (see the message above for the paths searched)", rel);
        return 0;
    }
    char *src = read_file(path, err, errlen);
    if (!src) return 0;
    GLuint s = glCreateShader(type);
    const char *srcs[] = { src };
    glShaderSource(s, 1, srcs, NULL);
    glCompileShader(s);
    free(src);
    GLint ok;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        snprintf(err, errlen, "%s: compile failed:\n%s", path, log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

static GLuint link(GLuint *stages, int n, const char *what, char *err, size_t errlen)
{
    GLuint prog = glCreateProgram();
    for (int i = 0; i < n; i++) glAttachShader(prog, stages[i]);
    glLinkProgram(prog);
    for (int i = 0; i < n; i++) glDeleteShader(stages[i]);
    GLint ok;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        snprintf(err, errlen, "%s: link failed:\n%s", what, log);
        glDeleteProgram(prog);
        return 0;
    }
    return prog;
}

/* Vertex shader objects vert and vert2 and fragment shader objects frag
 * and frag2 (the second of each may be NULL), linked. */
static unsigned load_stages(const char *vert, const char *vert2, const char *frag, const char *frag2, char *err,
                            size_t errlen)
{
    GLuint st[4];
    int n = 0;
    const char *names[4] = { vert, vert2, frag, frag2 };
    for (int i = 0; i < 4; i++) {
        if (!names[i]) continue;
        st[n] = compile(i < 2 ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER, names[i], err, errlen);
        if (!st[n]) {
            for (int k = 0; k < n; k++) glDeleteShader(st[k]);
            return 0;
        }
        n++;
    }
    return link(st, n, vert, err, errlen);
}

unsigned shader_load(const char *vert, const char *frag, char *err, size_t errlen)
{
    return load_stages(vert, NULL, frag, NULL, err, errlen);
}

unsigned shader_load_composed(const char *vert, const char *frag, char *err, size_t errlen)
{
    return load_stages(vert, NULL, frag, "compose.glsl", err, errlen);
}

unsigned shader_load_composed_vertex(const char *vert, const char *frag, char *err, size_t errlen)
{
    return load_stages(vert, "compose.glsl", frag, NULL, err, errlen);
}

bool shader_compute_supported(void)
{
    static int simulated_without = -1; /* GL is main-thread only: no race */
    if (simulated_without < 0) {
        const char *e = getenv("STRATA_GL_NO_COMPUTE");
        simulated_without = e && strcmp(e, "1") == 0;
    }
    return GLAD_GL_VERSION_4_3 != 0 && !simulated_without;
}

unsigned shader_load_compute(const char *comp, char *err, size_t errlen)
{
    if (!shader_compute_supported()) {
        snprintf(err, errlen, "%s: compute shaders need GL 4.3%s", comp,
                 GLAD_GL_VERSION_4_3 ? "; STRATA_GL_NO_COMPUTE=1 hides them" : "");
        return 0;
    }
    GLuint st = compile(GL_COMPUTE_SHADER, comp, err, errlen);
    return st ? link(&st, 1, comp, err, errlen) : 0;
}
