/* enhance_gpu: uploads a chunk's materials (the rules need them, not only
 * occupancy) and the rule table, dispatches one invocation per voxel and
 * reads the fragment rows back. */
#include "gfx/enhance_gpu.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/shader.h"

#define VOX_BYTES (ENHANCE_IN * ENHANCE_IN * ENHANCE_IN)
_Static_assert(VOX_BYTES % 4 == 0, "materials upload as whole uints");

struct enhance_gpu {
    unsigned prog[2]; /* subdivide, resample */
    GLuint occ, probes, rows, flags, rules;
    size_t rows_bytes;
    const int32_t *probe_src; /* the pattern now uploaded, and its parameters */
    enhance_params probe_params;
    uint32_t *host_rows;
    uint32_t *host_flags;
    uint16_t *tmp_rows;
    uint8_t *tmp_mixed;
};

enhance_gpu *enhance_gpu_create(char *err, size_t errlen)
{
    enhance_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "enhance_gpu: out of memory");
        return NULL;
    }
    g->prog[0] = shader_load_compute("enhance_subdivide.comp", err, errlen);
    g->prog[1] = g->prog[0] ? shader_load_compute("enhance_resample.comp", err, errlen) : 0;
    g->host_flags = malloc(sizeof *g->host_flags * CHUNK_VOLUME);
    g->tmp_mixed = malloc(CHUNK_VOLUME);
    if (!g->prog[0] || !g->prog[1] || !g->host_flags || !g->tmp_mixed) {
        enhance_gpu_destroy(g);
        return NULL;
    }
    glCreateBuffers(1, &g->occ);
    glCreateBuffers(1, &g->probes);
    glCreateBuffers(1, &g->rows);
    glCreateBuffers(1, &g->flags);
    glCreateBuffers(1, &g->rules);
    glNamedBufferStorage(g->occ, VOX_BYTES, NULL, GL_DYNAMIC_STORAGE_BIT);
    glNamedBufferStorage(g->rules, sizeof(uint32_t) * 256, NULL, GL_DYNAMIC_STORAGE_BIT);
    glNamedBufferStorage(g->flags, sizeof(uint32_t) * CHUNK_VOLUME, NULL, GL_DYNAMIC_STORAGE_BIT);
    return g;
}

void enhance_gpu_destroy(enhance_gpu *g)
{
    if (!g) return;
    for (int i = 0; i < 2; i++)
        if (g->prog[i]) glDeleteProgram(g->prog[i]);
    if (g->occ) {
        glDeleteBuffers(1, &g->occ);
        glDeleteBuffers(1, &g->probes);
        glDeleteBuffers(1, &g->rows);
        glDeleteBuffers(1, &g->flags);
        glDeleteBuffers(1, &g->rules);
    }
    free(g->host_rows);
    free(g->host_flags);
    free(g->tmp_rows);
    free(g->tmp_mixed);
    free(g);
}

/* Buffers sized for the context's factor and probes; regrown on change. */
static bool ensure_buffers(enhance_gpu *g, const enhance_ctx *e, char *err, size_t errlen)
{
    const enhance_params *p = enhance_ctx_params(e);
    int f = enhance_factor(p);
    size_t rb = sizeof(uint32_t) * (size_t)CHUNK_VOLUME * (size_t)(f * f);
    if (rb != g->rows_bytes) {
        glDeleteBuffers(1, &g->rows);
        glCreateBuffers(1, &g->rows);
        glNamedBufferStorage(g->rows, (GLsizeiptr)rb, NULL, 0);
        free(g->host_rows);
        free(g->tmp_rows);
        g->host_rows = malloc(rb);
        g->tmp_rows = malloc(rb / 2);
        if (!g->host_rows || !g->tmp_rows) {
            snprintf(err, errlen, "enhance_gpu: out of memory for %zu KiB of rows", rb >> 10);
            g->rows_bytes = 0;
            return false;
        }
        g->rows_bytes = rb;
    }
    if (g->probe_src != enhance_probes(e) || memcmp(&g->probe_params, p, sizeof *p) != 0) {
        size_t pb = sizeof(int32_t) * 3 * (size_t)p->probes;
        glDeleteBuffers(1, &g->probes);
        glCreateBuffers(1, &g->probes);
        glNamedBufferStorage(g->probes, (GLsizeiptr)pb, enhance_probes(e), 0);
        g->probe_src = enhance_probes(e);
        g->probe_params = *p;
    }
    return true;
}

bool enhance_gpu_run(enhance_gpu *g, const enhance_ctx *e, const enhance_input *in, uint16_t *rows, uint8_t *mixed,
                     char *err, size_t errlen)
{
    if (!ensure_buffers(g, e, err, errlen)) return false;
    const enhance_params *p = enhance_ctx_params(e);
    /* byte i of the buffer is voxel i: the shader reads byte i%4 of uint
     * i/4, which is that byte on a little-endian host (test_enhance_gpu) */
    glNamedBufferSubData(g->occ, 0, VOX_BYTES, in->vox);
    uint32_t rules[256];
    enhance_rule_table(e, rules);
    glNamedBufferSubData(g->rules, 0, sizeof rules, rules);
    unsigned prog = g->prog[p->op == ENHANCE_SUBDIVIDE ? 0 : 1];
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "u_materials"), p->materials ? 1 : 0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, g->rules);
    if (p->op == ENHANCE_SUBDIVIDE) {
        glUniform1i(glGetUniformLocation(prog, "u_levels"), p->levels);
        glUniform1i(glGetUniformLocation(prog, "u_base_y"), in->cy * CHUNK_SIZE - p->altitude);
        glUniform3i(glGetUniformLocation(prog, "u_thr"), p->thr_low, p->thr_even, p->thr_odd);
    } else {
        glUniform1i(glGetUniformLocation(prog, "u_factor"), p->factor);
        glUniform1i(glGetUniformLocation(prog, "u_probes"), p->probes);
        glUniform1i(glGetUniformLocation(prog, "u_percent"), p->percent);
        glUniform1i(glGetUniformLocation(prog, "u_radius"), enhance_radius(p));
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, g->probes);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, g->occ);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, g->rows);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, g->flags);
    glDispatchCompute(CHUNK_VOLUME / 64, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(g->flags, 0, sizeof(uint32_t) * CHUNK_VOLUME, g->host_flags);
    glGetNamedBufferSubData(g->rows, 0, (GLsizeiptr)g->rows_bytes, g->host_rows);
    glUseProgram(0);
    int per = enhance_factor(p) * enhance_factor(p);
    for (int v = 0; v < CHUNK_VOLUME; v++) {
        if (mixed) mixed[v] = (uint8_t)(g->host_flags[v] != 0);
        if (rows && g->host_flags[v])
            for (int i = 0; i < per; i++) rows[(size_t)v * (size_t)per + (size_t)i] = (uint16_t)g->host_rows[(size_t)v * (size_t)per + (size_t)i];
    }
    GLenum ge = glGetError();
    if (ge != GL_NO_ERROR) {
        snprintf(err, errlen, "enhance_gpu: GL error 0x%x", ge);
        return false;
    }
    return true;
}

bool enhance_gpu_build(enhance_gpu *g, const enhance_ctx *e, const enhance_input *in, enhance_chunk *out, char *err,
                       size_t errlen)
{
    if (!ensure_buffers(g, e, err, errlen)) return false;
    if (!enhance_gpu_run(g, e, in, g->tmp_rows, g->tmp_mixed, err, errlen)) return false;
    int f = enhance_factor(enhance_ctx_params(e)), per = f * f;
    enhance_chunk_reset(e, out);
    for (int y = 0; y < CHUNK_SIZE; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                int v = CHUNK_INDEX(x, y, z);
                enhance_chunk_add(e, in, x, y, z, g->tmp_mixed[v] ? g->tmp_rows + (size_t)v * (size_t)per : NULL, out);
            }
    enhance_chunk_finish(out);
    return true;
}
