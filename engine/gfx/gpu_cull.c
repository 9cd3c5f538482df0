#include "gfx/gpu_cull.h"

#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "gfx/occlusion.h"
#include "gfx/occlusion_gpu.h"
#include "gfx/render_mode.h"
#include "gfx/shader.h"

/* frames of counts in flight before the oldest slot is written again */
#define COUNT_SLOTS 4

/* A buffer the frame's lists are copied into, grown (rarely) by doubling. */
typedef struct stream_buf {
    GLuint name;
    size_t bytes;
} stream_buf;

struct gpu_cull {
    GLuint prog;
    struct {
        GLint viewproj, planes, first, n, test, size, tiles;
    } u;
    stream_buf cmds, boxes, insts, draws;
    GLuint counts;  /* the frame's counts, cleared each frame */
    GLuint back;    /* COUNT_SLOTS frames of counts, mapped for reading */
    const uint32_t *back_map;
    GLsync fence[COUNT_SLOTS];
    long slot_frame[COUNT_SLOTS];
    long frame;
    gpu_cull_counts last;
    occlusion_gpu *tiles;
};

static bool env_says_no(void)
{
    const char *e = getenv("STRATA_GL_NO_INDIRECT");
    return e && *e && strcmp(e, "0") != 0;
}

gpu_cull *gpu_cull_create(char *err, size_t errlen)
{
    if (env_says_no()) {
        snprintf(err, errlen, "indirect draws turned off (STRATA_GL_NO_INDIRECT)");
        return NULL;
    }
    if (!GLAD_GL_VERSION_4_3 || !shader_compute_supported()) {
        snprintf(err, errlen, "no GL 4.3 (multi-draw indirect and compute shaders)");
        return NULL;
    }
    gpu_cull *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "no memory");
        return NULL;
    }
    if (!(g->prog = shader_load_compute("chunk_cull.comp", err, errlen))) goto fail;
    if (!(g->tiles = occlusion_gpu_create(err, errlen))) goto fail;
#define U(name) glGetUniformLocation(g->prog, "u_" #name)
    g->u.viewproj = U(viewproj), g->u.planes = U(planes), g->u.first = U(first), g->u.n = U(n);
    g->u.test = U(test), g->u.size = U(size), g->u.tiles = U(tiles);
#undef U
    while (glGetError() != GL_NO_ERROR) {}
    glCreateBuffers(1, &g->counts);
    glNamedBufferStorage(g->counts, 4 * sizeof(uint32_t), NULL, GL_DYNAMIC_STORAGE_BIT);
    const GLbitfield map = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    glCreateBuffers(1, &g->back);
    glNamedBufferStorage(g->back, COUNT_SLOTS * 4 * sizeof(uint32_t), NULL, map);
    g->back_map = glMapNamedBufferRange(g->back, 0, COUNT_SLOTS * 4 * sizeof(uint32_t), map);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR || !g->back_map) {
        snprintf(err, errlen, "cannot make the cull's buffers (GL error 0x%04x)", e);
        goto fail;
    }
    return g;
fail:
    gpu_cull_destroy(g);
    return NULL;
}

void gpu_cull_destroy(gpu_cull *g)
{
    if (!g) return;
    for (int i = 0; i < COUNT_SLOTS; i++)
        if (g->fence[i]) glDeleteSync(g->fence[i]);
    if (g->back_map) glUnmapNamedBuffer(g->back);
    const GLuint bufs[] = { g->cmds.name, g->boxes.name, g->insts.name, g->draws.name, g->counts, g->back };
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        if (bufs[i]) glDeleteBuffers(1, &bufs[i]);
    if (g->prog) glDeleteProgram(g->prog);
    occlusion_gpu_destroy(g->tiles);
    free(g);
}

static bool grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap) return true;
    int n = *cap ? *cap : 1024;
    while (n < need) n *= 2;
    void *q = realloc(*p, size * (size_t)n);
    if (!q) return false;
    *p = q, *cap = n;
    return true;
}

bool gpu_cull_reserve(gpu_cull_frame *f, int cmds, int boxes, int insts)
{
    return grow((void **)&f->cmd, &f->cmd_cap, f->cmd_n + cmds, sizeof *f->cmd) &&
           grow((void **)&f->box, &f->box_cap, f->box_n + boxes, sizeof *f->box) &&
           grow((void **)&f->inst, &f->inst_cap, f->inst_n + insts, sizeof *f->inst);
}

void gpu_cull_frame_free(gpu_cull_frame *f)
{
    free(f->cmd), free(f->box), free(f->inst);
    memset(f, 0, sizeof *f);
}

void gpu_cull_list_begin(gpu_cull_frame *f, int rings, float near)
{
    f->cmd_n = f->box_n = f->inst_n = 0;
    f->rings = rings > 0 ? (rings + 1 < GPU_CULL_RINGS ? rings + 1 : GPU_CULL_RINGS) : 1;
    f->ring = 0, f->next = near;
}

int gpu_cull_list_chunk(gpu_cull_frame *f, float dist, int cmds, int boxes, const float o[3], float w)
{
    while (f->ring < f->rings - 1 && dist > f->next) f->ring_end[f->ring++] = f->cmd_n, f->next *= 2.f;
    if (!gpu_cull_reserve(f, cmds, boxes, 1)) return -1;
    const int inst = f->inst_n++;
    memcpy(f->inst[inst], o, 3 * sizeof *o);
    f->inst[inst][3] = w;
    return inst;
}

void gpu_cull_list_box(gpu_cull_frame *f, int cmd0, const float o[3], const float lo[3], const float hi[3])
{
    if (f->cmd_n == cmd0) return;
    float *b = f->box[f->box_n++];
    for (int a = 0; a < 3; a++) b[a] = o[a] + lo[a], b[4 + a] = o[a] + hi[a];
    b[3] = b[7] = 0.f;
}

void gpu_cull_list_quads(gpu_cull_frame *f, int cmd0, int32_t at, int quads, uint32_t box, uint32_t inst)
{
    gpu_cull_cmd *last = f->cmd_n > cmd0 ? &f->cmd[f->cmd_n - 1] : NULL;
    if (last && last->base_vertex + (int32_t)(last->count / 6 * 4) == at) {
        last->count += (uint32_t)quads * 6u;
        return;
    }
    const uint32_t first = f->cmd_n == cmd0 ? GPU_CULL_FIRST : 0u;
    f->cmd[f->cmd_n++] = (gpu_cull_cmd){ (uint32_t)quads * 6u, 0, at, box, inst | first };
}

void gpu_cull_list_end(gpu_cull_frame *f)
{
    for (; f->ring < f->rings; f->ring++) f->ring_end[f->ring] = f->cmd_n;
}

/* bytes into b: its store made anew only when too small (doubled) */
static void stream(stream_buf *b, const void *data, size_t bytes)
{
    if (bytes > b->bytes) {
        size_t n = b->bytes ? b->bytes : 65536;
        while (n < bytes) n *= 2;
        if (!b->name) glCreateBuffers(1, &b->name);
        glNamedBufferData(b->name, (GLsizeiptr)n, NULL, GL_STREAM_DRAW);
        b->bytes = n;
    }
    if (data && bytes) glNamedBufferSubData(b->name, 0, (GLsizeiptr)bytes, data);
}

/* Counts of frames whose fence has passed, polled (no wait). */
static void poll_counts(gpu_cull *g)
{
    for (int s = 0; s < COUNT_SLOTS; s++) {
        if (!g->fence[s]) continue;
        GLenum r = glClientWaitSync(g->fence[s], 0, 0);
        if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED) continue;
        glDeleteSync(g->fence[s]);
        g->fence[s] = NULL;
        if (g->slot_frame[s] < g->last.frame) continue;
        const uint32_t *c = g->back_map + 4 * s;
        g->last = (gpu_cull_counts){ g->slot_frame[s], (long)c[0], (int)c[1], (int)c[2], (int)c[3] };
    }
}

gpu_cull_counts gpu_cull_last(const gpu_cull *g) { return g ? g->last : (gpu_cull_counts){ 0 }; }

int gpu_cull_draw(gpu_cull *g, const gpu_cull_frame *f, const camera *cam, int test, unsigned fb, int w, int h,
                  unsigned vao, char *err, size_t errlen)
{
    poll_counts(g);
    g->frame++;
    if (f->cmd_n == 0) return 0;
    stream(&g->cmds, f->cmd, sizeof *f->cmd * (size_t)f->cmd_n);
    stream(&g->boxes, f->box, sizeof *f->box * (size_t)f->box_n);
    stream(&g->insts, f->inst, sizeof *f->inst * (size_t)f->inst_n);
    stream(&g->draws, NULL, 5 * sizeof(uint32_t) * (size_t)f->cmd_n);
    glClearNamedBufferData(g->counts, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);

    GLint draw_prog = 0, bound_vao = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &draw_prog);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &bound_vao);
    glVertexArrayVertexBuffer(vao, 1, g->insts.name, 0, 4 * sizeof(float));
    glProgramUniformMatrix4fv(g->prog, g->u.viewproj, 1, GL_FALSE, (const float *)cam->viewproj);
    glProgramUniform4fv(g->prog, g->u.planes, 6, (const float *)cam->planes);
    glProgramUniform2i(g->prog, g->u.size, w, h);
    glProgramUniform2i(g->prog, g->u.tiles, (w + OCCLUSION_TILE - 1) / OCCLUSION_TILE, (h + OCCLUSION_TILE - 1) / OCCLUSION_TILE);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, g->cmds.name);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, g->boxes.name);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, g->draws.name);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, g->counts);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, g->draws.name);

    int calls = 0, from = 0;
    bool failed = false;
    for (int r = 0; r < f->rings && !failed; r++) {
        const int to = f->ring_end[r], n = to - from;
        if (n <= 0) continue;
        int ring_test = test > 1 && r == 0 ? 1 : test;
        if (ring_test > 1) {
            /* the depth of the nearer rings, as drawn, into tiles where it lies */
            unsigned tiles = 0;
            if (occlusion_gpu_reduce(g->tiles, fb, w, h, &tiles, err, errlen)) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, tiles);
            else failed = true, ring_test = 1;
        }
        glUseProgram(g->prog);
        glProgramUniform1ui(g->prog, g->u.first, (GLuint)from);
        glProgramUniform1ui(g->prog, g->u.n, (GLuint)n);
        glProgramUniform1i(g->prog, g->u.test, ring_test);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); /* the tiles, written by the reduction */
        glDispatchCompute((GLuint)(n + 63) / 64u, 1, 1);
        glMemoryBarrier(GL_COMMAND_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
        glUseProgram((GLuint)draw_prog);
        glBindVertexArray(vao);
        glMultiDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_INT, (const void *)(sizeof(uint32_t) * 5 * (size_t)from),
                                    n, 0);
        glBindVertexArray((GLuint)bound_vao);
        calls++;
        from = to;
    }
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    /* the counts, copied into this frame's slot of the mapped buffer */
    const int s = (int)(g->frame % COUNT_SLOTS);
    if (g->fence[s]) glDeleteSync(g->fence[s]), g->fence[s] = NULL; /* four frames behind: dropped */
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glCopyNamedBufferSubData(g->counts, g->back, 0, (GLintptr)(4 * sizeof(uint32_t) * (size_t)s), 4 * sizeof(uint32_t));
    g->fence[s] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    g->slot_frame[s] = g->frame;
    GLenum e = glGetError();
    if (failed) return -1;
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "GL error 0x%04x culling or drawing", e);
        return -1;
    }
    return calls;
}

void gpu_cull_pick_init(gpu_cull_pick *p, const char *mode)
{
    memset(p, 0, sizeof *p);
    p->mode = mode;
    p->judged_for = -1;
}

void gpu_cull_pick_free(gpu_cull_pick *p)
{
    gpu_cull_destroy(p->gc);
    p->gc = NULL;
}

/* Makes the cull where it can run; false (said once) where not. */
static bool pick_have(gpu_cull_pick *p)
{
    if (p->gc) return true;
    if (p->failed) return false;
    char err[512];
    if (!(p->gc = gpu_cull_create(err, sizeof err))) {
        log_warn("render.gpu_cull: %s; the %s mode culls with the depth read back", err, p->mode);
        p->failed = true;
    }
    return p->gc != NULL;
}

bool gpu_cull_pick_next(gpu_cull_pick *p, int setting)
{
    if (setting != p->judged_for) {
        occlusion_judge_init(&p->judge);
        p->judge.frame -= JUDGE_TRIAL + JUDGE_BLOCK;
        p->judged_for = setting, p->last_ns = 0, p->said = false;
    }
    if (setting <= 0 || !pick_have(p)) return false;
    if (setting == 1) return true;
    const uint64_t now = timer_ns();
    const double ms = p->last_ns ? (double)(now - p->last_ns) * 1e-6 : -1.0;
    p->last_ns = now;
    const int before = p->judge.verdicts;
    const bool cpu = occlusion_judge_next(&p->judge, ms);
    if (p->judge.verdicts != before && !p->said) {
        const occlusion_judge *j = &p->judge; /* its times sorted by the verdict */
        log_dev("the %s mode culls %s (median frame: read-back %.2f ms, GPU cull %.2f ms)", p->mode,
                j->verdict ? "with the depth read back" : "on the GPU", j->n_on ? (double)j->on_ms[j->n_on / 2] : -1.0,
                j->n_off ? (double)j->off_ms[j->n_off / 2] : -1.0);
        p->said = true;
    }
    return !cpu;
}

void gpu_cull_pick_fail(gpu_cull_pick *p, const char *err)
{
    log_warn("render.gpu_cull: %s; the %s mode culls with the depth read back from now on", err, p->mode);
    gpu_cull_destroy(p->gc);
    p->gc = NULL, p->failed = true;
}

bool gpu_cull_pick_draw(gpu_cull_pick *p, const gpu_cull_frame *f, const camera *cam, int w, int h, int rings,
                        unsigned vao, render_stats *stats)
{
    GLint fb = 0, samples = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &fb);
    glGetIntegerv(GL_SAMPLE_BUFFERS, &samples);
    const int test = rings <= 0 ? 0 : samples ? 1 : 2;
    char err[512];
    const int calls = gpu_cull_draw(p->gc, f, cam, test, (unsigned)fb, w, h, vao, err, sizeof err);
    if (calls < 0) {
        gpu_cull_pick_fail(p, err);
        return false;
    }
    stats->draw_calls += calls;
    stats->triangles += gpu_cull_last(p->gc).triangles; /* the newest frame counted, a frame or two back */
    stats->gpu_cull = true;
    return true;
}

void gpu_cull_pick_verdicts(const gpu_cull_pick *p, int *verdicts, bool *gpu)
{
    if (verdicts) *verdicts = p->judge.verdicts;
    if (gpu) *gpu = !p->judge.verdict;
}
