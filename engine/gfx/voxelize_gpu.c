#include "gfx/voxelize_gpu.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/shader.h"

#define FIX (1 << VOXELIZE_FIX_BITS)
/* Fixed-point coordinates within [-LIMIT_LO, LIMIT_HI] keep every product
 * in the shader an integer below 2^53 (see the shader's header). */
#define LIMIT_HI ((int64_t)VOXELIZE_MAX_RES * FIX + (1 << 14))
#define LIMIT_LO ((int64_t)1 << 14)

struct voxelize_gpu {
    unsigned prog;
    unsigned buf[5]; /* tris, lines, cell_start, cell_tris, votes */
    int u_dir, u_grid, u_lines, u_fix;
};

voxelize_gpu *voxelize_gpu_create(char *err, size_t errlen)
{
    if (!shader_compute_supported()) {
        snprintf(err, errlen, "GPU voxelization needs OpenGL 4.3 compute shaders");
        return NULL;
    }
    voxelize_gpu *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    v->prog = shader_load_compute("voxelize_parity.comp", err, errlen);
    if (!v->prog) {
        free(v);
        return NULL;
    }
    glGenBuffers(5, v->buf);
    v->u_dir = glGetUniformLocation(v->prog, "u_dir");
    v->u_grid = glGetUniformLocation(v->prog, "u_grid");
    v->u_lines = glGetUniformLocation(v->prog, "u_lines");
    v->u_fix = glGetUniformLocation(v->prog, "u_fix");
    return v;
}

void voxelize_gpu_destroy(voxelize_gpu *v)
{
    if (!v) return;
    glDeleteBuffers(5, v->buf);
    glDeleteProgram(v->prog);
    free(v);
}

/* Zero-sized buffers cannot be bound: every upload is at least one word. */
static void upload(unsigned buf, int binding, const void *data, size_t bytes)
{
    static const int zero = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(bytes ? bytes : sizeof zero), bytes ? data : &zero,
                 GL_STREAM_DRAW);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)binding, buf);
}

long voxelize_gpu_parity(voxelize_gpu *v, const obj_mesh *m, const voxelize_grid *g, const voxelize_desc *d,
                         uint8_t *out, char *err, size_t errlen)
{
    /* the same refusals as the CPU, from the same code */
    voxelize_desc check = *d;
    check.method = VOXELIZE_PARITY;
    if (!voxelize_check(m, g, &check, err, errlen)) return -1;
    voxelize_tri *tris;
    int nt;
    if (!voxelize_quantize(m, g, &tris, &nt, err, errlen)) return -1;
    for (int i = 0; i < nt; i++)
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++)
                if (tris[i].p[c][k] < -LIMIT_LO || tris[i].p[c][k] > LIMIT_HI) {
                    snprintf(err, errlen, "the mesh reaches too far outside the grid for the GPU's exact arithmetic");
                    free(tris);
                    return -1;
                }
    size_t n = (size_t)g->nx * g->ny * g->nz;
    double *td = malloc(sizeof *td * 9 * (size_t)(nt > 0 ? nt : 1));
    uint32_t *votes = calloc(n, sizeof *votes);
    if (!td || !votes) {
        free(td);
        free(votes);
        free(tris);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < nt; i++)
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) td[9 * i + 3 * c + k] = (double)tris[i].p[c][k];
    upload(v->buf[0], 0, td, sizeof *td * 9 * (size_t)nt);
    upload(v->buf[4], 4, votes, sizeof *votes * n);
    free(td);
    glUseProgram(v->prog);
    glUniform3i(v->u_grid, g->nx, g->ny, g->nz);
    glUniform1i(v->u_fix, FIX);
    int rays[VOXELIZE_MAX_DIRECTIONS][3];
    int nd = voxelize_ray_directions(d, rays);
    bool ok = true;
    for (int k = 0; k < nd && ok; k++) {
        const int *ld = rays[k];
        voxelize_plan plan;
        ok = voxelize_plan_build(tris, nt, g, ld, &plan);
        if (ok && plan.nlines > 0) {
            upload(v->buf[1], 1, plan.lines, sizeof(int) * 4 * (size_t)plan.nlines);
            upload(v->buf[2], 2, plan.cell_start, sizeof(int) * ((size_t)plan.cells + 1));
            upload(v->buf[3], 3, plan.cell_tris, sizeof(int) * (size_t)plan.cell_start[plan.cells]);
            glUniform3i(v->u_dir, ld[0], ld[1], ld[2]);
            glUniform1i(v->u_lines, plan.nlines);
            glDispatchCompute((GLuint)((plan.nlines + 63) / 64), 1, 1);
            /* the next direction adds to the same votes */
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        }
        voxelize_plan_free(&plan);
    }
    free(tris);
    if (!ok) {
        free(votes);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, v->buf[4]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(sizeof *votes * n), votes);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    glUseProgram(0);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        free(votes);
        snprintf(err, errlen, "GL error 0x%x during GPU voxelization", e);
        return -1;
    }
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)votes[i];
    free(votes);
    return voxelize_majority(out, n, nd);
}
