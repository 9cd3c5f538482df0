#include "gfx/surfnets_gpu.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/shader.h"

enum { PASS_COM, PASS_VBUF, PASS_IBUF, PASS_NORMALS, PASS_N };
static const char *const k_pass_files[PASS_N] = { "surfnets_com.comp", "surfnets_vbuf.comp", "surfnets_ibuf.comp",
                                                  "surfnets_normals.comp" };

struct surfnets_gpu {
    GLuint prog[PASS_N];
    GLint dims[PASS_N], own_lo, max_vertices, max_indices, has_mats;
};

bool surfnets_gpu_supported(void) { return shader_compute_supported(); }

surfnets_gpu *surfnets_gpu_create(char *err, size_t errlen)
{
    surfnets_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (int i = 0; i < PASS_N; i++) {
        g->prog[i] = shader_load_compute(k_pass_files[i], err, errlen);
        if (!g->prog[i]) {
            surfnets_gpu_destroy(g);
            return NULL;
        }
        g->dims[i] = glGetUniformLocation(g->prog[i], "u_dims");
    }
    g->max_vertices = glGetUniformLocation(g->prog[PASS_VBUF], "u_max_vertices");
    g->own_lo = glGetUniformLocation(g->prog[PASS_IBUF], "u_own_lo");
    g->max_indices = glGetUniformLocation(g->prog[PASS_IBUF], "u_max_indices");
    g->has_mats = glGetUniformLocation(g->prog[PASS_NORMALS], "u_has_mats");
    return g;
}

void surfnets_gpu_destroy(surfnets_gpu *g)
{
    if (!g) return;
    for (int i = 0; i < PASS_N; i++)
        if (g->prog[i]) glDeleteProgram(g->prog[i]);
    free(g);
}

/* (Re)creates a buffer when it must hold more than it has. */
static void ensure(GLuint *buf, long *cap, long need, size_t elem)
{
    if (*buf && *cap >= need) return;
    if (*buf) glDeleteBuffers(1, buf);
    long n = need < 64 ? 64 : need;
    glCreateBuffers(1, buf);
    glNamedBufferData(*buf, (GLsizeiptr)((size_t)n * elem), NULL, GL_DYNAMIC_DRAW);
    *cap = n;
}

bool surfnets_gpu_extract(surfnets_gpu *g, const surfnets_field *f, const uint8_t *mats, const uint8_t *tints,
                          long max_vertices, surfnets_gpu_mesh *m)
{
    if (!g || !f || !f->d || f->nx < 2 || f->ny < 2 || f->nz < 2 || max_vertices < 0) return false;
    long samples = (long)f->nx * f->ny * f->nz, cells = (long)(f->nx - 1) * (f->ny - 1) * (f->nz - 1);
    ensure(&m->field, &m->field_cap, samples, sizeof(float));
    ensure(&m->com, &m->com_cap, cells, 4 * sizeof(float));
    ensure(&m->lut, &m->lut_cap, cells, sizeof(int32_t));
    ensure(&m->verts, &m->vcap, max_vertices, 4 * sizeof(float));
    ensure(&m->normals, &m->ncap, max_vertices, 4 * sizeof(float));
    ensure(&m->indices, &m->icap, 18 * max_vertices, sizeof(uint32_t));
    ensure(&m->counters, &m->ccap, 8, sizeof(uint32_t));
    if (mats) { /* materials, then tints from the next whole word */
        long words = (samples + 3) / 4;
        GLintptr tint_at = (GLintptr)((size_t)words * sizeof(uint32_t));
        ensure(&m->mats, &m->mats_cap, 2 * words, sizeof(uint32_t));
        glNamedBufferSubData(m->mats, 0, (GLsizeiptr)samples, mats);
        if (tints)
            glNamedBufferSubData(m->mats, tint_at, (GLsizeiptr)samples, tints);
        else
            glClearNamedBufferSubData(m->mats, GL_R32UI, tint_at, (GLsizeiptr)((size_t)words * sizeof(uint32_t)),
                                      GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    }
    glNamedBufferSubData(m->field, 0, (GLsizeiptr)((size_t)samples * sizeof(float)), f->d);
    return surfnets_gpu_dispatch(g, f, mats != NULL, max_vertices, m);
}

bool surfnets_gpu_dispatch(surfnets_gpu *g, const surfnets_field *f, bool has_mats, long max_vertices,
                           surfnets_gpu_mesh *m)
{
    long cells = (long)(f->nx - 1) * (f->ny - 1) * (f->nz - 1);
    if (!m->field || m->com_cap < cells || m->vcap < max_vertices || (has_mats && !m->mats)) return false;
    const uint32_t reset[8] = { 0, 1, 0, 0, 0, 0, 0, 0 }; /* count, instances, first, base vertex, base instance, vertices */
    glNamedBufferSubData(m->counters, 0, sizeof reset, reset);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, m->field);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, m->com);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, m->verts);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, m->normals);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, m->lut);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, m->indices);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, m->counters);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 7, has_mats ? m->mats : m->field); /* bound either way: unread without */

    long groups = (cells + 63) / 64;
    GLuint gx = (GLuint)(groups < 65535 ? groups : 65535), gy = (GLuint)((groups + gx - 1) / gx);
    for (int p = 0; p < PASS_N; p++) {
        glUseProgram(g->prog[p]);
        glUniform3i(g->dims[p], f->nx, f->ny, f->nz);
        if (p == PASS_VBUF) glUniform1ui(g->max_vertices, (GLuint)max_vertices);
        if (p == PASS_IBUF) {
            glUniform3i(g->own_lo, f->own_lo[0], f->own_lo[1], f->own_lo[2]);
            glUniform1ui(g->max_indices, (GLuint)(18 * max_vertices));
        }
        if (p == PASS_NORMALS) glUniform1i(g->has_mats, has_mats);
        glDispatchCompute(gx, gy, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    /* the draw reads the buffers as vertices, indices and an indirect command */
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT | GL_COMMAND_BARRIER_BIT |
                    GL_BUFFER_UPDATE_BARRIER_BIT);
    glUseProgram(0);
    return true;
}

bool surfnets_gpu_read(const surfnets_gpu_mesh *m, surfnets_mesh *out)
{
    uint32_t counters[8];
    glGetNamedBufferSubData(m->counters, 0, sizeof counters, counters);
    long nv = counters[5], ni = counters[0];
    if (nv > m->vcap || ni > m->icap) return false;
    size_t v4 = (size_t)nv * 4;
    float *verts = malloc(sizeof(float) * (v4 ? v4 : 1)), *norms = malloc(sizeof(float) * (v4 ? v4 : 1));
    float *pos = realloc(out->pos, sizeof(float) * 3 * (size_t)(nv ? nv : 1));
    if (pos) out->pos = pos;
    float *nrm = realloc(out->nrm, sizeof(float) * 3 * (size_t)(nv ? nv : 1));
    if (nrm) out->nrm = nrm;
    uint32_t *cell = realloc(out->cell, sizeof(uint32_t) * (size_t)(nv ? nv : 1));
    if (cell) out->cell = cell;
    uint32_t *idx = realloc(out->idx, sizeof(uint32_t) * (size_t)(ni ? ni : 1));
    if (idx) out->idx = idx;
    if (!verts || !norms || !pos || !nrm || !cell || !idx) {
        free(verts), free(norms);
        return false;
    }
    out->vcap = (int)(nv ? nv : 1), out->tcap = (int)(ni ? ni : 1) / 3;
    if (nv) {
        glGetNamedBufferSubData(m->verts, 0, (GLsizeiptr)(v4 * sizeof(float)), verts);
        glGetNamedBufferSubData(m->normals, 0, (GLsizeiptr)(v4 * sizeof(float)), norms);
    }
    if (ni) glGetNamedBufferSubData(m->indices, 0, (GLsizeiptr)((size_t)ni * sizeof(uint32_t)), out->idx);
    for (long i = 0; i < nv; i++) {
        memcpy(out->pos + 3 * i, verts + 4 * i, 3 * sizeof(float));
        memcpy(out->nrm + 3 * i, norms + 4 * i, 3 * sizeof(float));
        memcpy(out->cell + i, verts + 4 * i + 3, sizeof(uint32_t));
    }
    out->vertices = (int)nv, out->triangles = (int)(ni / 3);
    free(verts), free(norms);
    return true;
}

bool surfnets_gpu_read_materials(const surfnets_gpu_mesh *m, int vertices, uint8_t *mat, uint8_t *tint)
{
    if (vertices < 0 || vertices > m->ncap) return false;
    float *norms = malloc(sizeof(float) * 4 * (size_t)(vertices ? vertices : 1));
    if (!norms) return false;
    if (vertices) glGetNamedBufferSubData(m->normals, 0, (GLsizeiptr)(sizeof(float) * 4 * (size_t)vertices), norms);
    for (int i = 0; i < vertices; i++) {
        uint32_t w = (uint32_t)lrintf(norms[4 * i + 3]);
        mat[i] = (uint8_t)(w & 255u), tint[i] = (uint8_t)(w >> 8);
    }
    free(norms);
    return true;
}

void surfnets_gpu_mesh_free(surfnets_gpu_mesh *m)
{
    GLuint b[] = { m->field, m->mats, m->com, m->lut, m->verts, m->normals, m->indices, m->counters };
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
        if (b[i]) glDeleteBuffers(1, &b[i]);
    memset(m, 0, sizeof *m);
}
