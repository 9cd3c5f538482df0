/* grammar_gpu: uploads the compiled program (symbol and transform cells
 * without IGN and NOP, and each rule's cells as bit planes) and the grid,
 * dispatches one step per (iteration, group) and reads the grid back.
 * Why it is exact: the CPU derivation is one chain of windows per slab,
 * each seeing the writes of the windows before it. A window whose rules
 * fail on the step's input and that no rewritten window overlaps sees that
 * input still, so only live (bit planes say a rule may match) and dirty
 * (a rewritten window overlapped it) windows are derived. Those the shader
 * visits in the CPU's order on one invocation (walk), or in waves: two
 * windows depend on each other only when they overlap, and with
 * o = ceil(size / stride) per axis (windows o or more steps apart never
 * overlap) the wave number
 *   t = cx*tx + cy*ty + cz*tz,  cx = [ox > 1], cy = [oy > 1] * (cx*(ox-1) + 1),
 *                               cz = [oz > 1] * (cx*(ox-1) + cy*(oy-1) + 1)
 * is larger for every window than for each overlapping window before it in
 * the CPU's order, so deriving wave after wave gives the CPU's bits. */
#include "gfx/grammar_gpu.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "gfx/shader.h"

enum {
    U_PASS, U_DIM, U_PLANES, U_WORDS, U_LO, U_STRIDE, U_NW, U_SIZE, U_REACH, U_RULES, U_COEF, U_SOLVE, U_WAVES, U_DEPTH,
    U_LANE_STEP, U_PHASE, U_ORDER, U_HASH, U_N
};
static const char *const k_uniforms[U_N] = { "u_pass",  "u_dim",   "u_planes", "u_words", "u_lo",    "u_stride",    "u_nw",
                                             "u_size",  "u_reach", "u_rules", "u_coef",  "u_solve",     "u_waves",
                                             "u_depth", "u_lane_step", "u_phase", "u_order", "u_hash" };
enum { PASS_PLANES, PASS_LIVE, PASS_WAVES };
#define MAX_PLANES 32

/* The shader's buffers, by binding. */
enum { B_GRID, B_RULES, B_CELLS, B_COUNT, B_PREDS, B_PLANES, B_LIVE, B_DIRTY, B_N };

struct grammar_gpu {
    GLuint prog, buf[B_N];
    GLint loc[U_N];
    size_t cap[B_N]; /* bytes each buffer holds */
    int dim[3], planes;
    grammar_gpu_order order;
};

/* The shader's operator codes (grammar_derive.comp), by name, so a new
 * operator in the engine's enums is refused rather than misread. */
static int sym_code(int op)
{
    switch (op) {
    case GSYM_IGN: return 0;
    case GSYM_PRES: return 1;
    case GSYM_ABS: return 2;
    case GSYM_EQ: return 3;
    case GSYM_NEQ: return 4;
    case GSYM_LT: return 5;
    case GSYM_LEQ: return 6;
    case GSYM_GT: return 7;
    case GSYM_GEQ: return 8;
    default: return -1;
    }
}

static int xf_code(int op)
{
    switch (op) {
    case GXF_NOP: return 0;
    case GXF_SET: return 1;
    case GXF_ADD: return 2;
    default: return -1;
    }
}

/* A value the GPU computes with exactly as the CPU does: zero, or within
 * 2^-100 <= |v| <= 2^100. Sums of such values stay far from the subnormals
 * a GPU may flush and from the infinities and NaNs whose comparisons GLSL
 * leaves undefined (a voxel takes far fewer than 2^20 additions). */
static bool plain_value(float v) { return v == 0.f || (fabsf(v) >= 0x1p-100f && fabsf(v) <= 0x1p100f); }

bool grammar_gpu_supports(const grammar_program *prog, char *why, size_t whylen)
{
    for (int r = 0; r < prog->count; r++) {
        const grammar_wrule *w = &prog->rules[r];
        if (!isfinite(w->weight)) {
            snprintf(why, whylen, "rule %d: weight %g is not finite", w->source, (double)w->weight);
            return false;
        }
        int n = w->size[0] * w->size[1] * w->size[2];
        for (int c = 0; c < n; c++) {
            grammar_cell s = w->sym[c], t = w->xf[c];
            if (sym_code(s.op) < 0 || xf_code(t.op) < 0) {
                snprintf(why, whylen, "rule %d: operator %s/%s has no GPU form", w->source, grammar_sym_name(s.op),
                         grammar_xf_name(t.op));
                return false;
            }
            if ((grammar_sym_has_value(s.op) && !plain_value(s.v)) || (grammar_xf_has_value(t.op) && !plain_value(t.v))) {
                snprintf(why, whylen, "rule %d: a value lies outside 2^-100 <= |v| <= 2^100", w->source);
                return false;
            }
        }
    }
    return true;
}

grammar_gpu *grammar_gpu_create(char *err, size_t errlen)
{
    grammar_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "grammar_gpu: out of memory");
        return NULL;
    }
    g->prog = shader_load_compute("grammar_derive.comp", err, errlen);
    if (!g->prog) {
        free(g);
        return NULL;
    }
    for (int i = 0; i < U_N; i++) g->loc[i] = glGetUniformLocation(g->prog, k_uniforms[i]);
    return g;
}

void grammar_gpu_destroy(grammar_gpu *g)
{
    if (!g) return;
    glDeleteProgram(g->prog);
    for (int i = 0; i < B_N; i++)
        if (g->buf[i]) glDeleteBuffers(1, &g->buf[i]);
    free(g);
}

/* (Re)creates buffer b when it holds less than `bytes`; fills it from
 * data unless that is NULL. */
static void put(grammar_gpu *g, int b, const void *data, size_t bytes)
{
    if (!g->buf[b] || g->cap[b] < bytes) {
        if (g->buf[b]) glDeleteBuffers(1, &g->buf[b]);
        glCreateBuffers(1, &g->buf[b]);
        glNamedBufferData(g->buf[b], (GLsizeiptr)bytes, NULL, GL_DYNAMIC_COPY);
        g->cap[b] = bytes;
    }
    if (data) glNamedBufferSubData(g->buf[b], 0, (GLsizeiptr)bytes, data);
}

/* Rule r: ivec4 (symbol cells start, count, transform cells start, count),
 * ivec4 (plane cells start, count), vec4 (weight); a cell: code (op or
 * plane | dx << 8 | dy << 16 | dz << 24), value. */
typedef struct gpu_rule {
    int32_t cells[4];
    int32_t live[4];
    float weight[4];
} gpu_rule;

/* The plane of predicate s: the first alike, else a new one; -1 when all
 * MAX_PLANES are taken (the cell then filters nothing). */
static int plane_of(uint32_t *preds, int *n, int code, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    for (int i = 0; i < *n; i++)
        if (preds[2 * i] == (uint32_t)code && preds[2 * i + 1] == bits) return i;
    if (*n == MAX_PLANES) return -1;
    preds[2 * *n] = (uint32_t)code;
    preds[2 * *n + 1] = bits;
    return (*n)++;
}

static uint32_t cell_code(int op, int c, const int *size)
{
    int dx = c % size[0], dy = (c / size[0]) % size[1], dz = c / (size[0] * size[1]);
    return (uint32_t)op | (uint32_t)dx << 8 | (uint32_t)dy << 16 | (uint32_t)dz << 24;
}

static bool upload_program(grammar_gpu *g, const grammar_program *prog, char *err, size_t errlen)
{
    size_t ncells = 0;
    for (int r = 0; r < prog->count; r++)
        ncells += 3 * (size_t)(prog->rules[r].size[0] * prog->rules[r].size[1] * prog->rules[r].size[2]);
    uint32_t preds[2 * MAX_PLANES];
    int npreds = 0;
    gpu_rule *rules = calloc((size_t)prog->count + 1, sizeof *rules);
    uint32_t *cells = malloc(sizeof(uint32_t) * 2 * (ncells + 1));
    if (!rules || !cells) {
        free(rules);
        free(cells);
        snprintf(err, errlen, "grammar_gpu: out of memory for the program");
        return false;
    }
    int32_t at = 0;
    for (int r = 0; r < prog->count; r++) {
        const grammar_wrule *w = &prog->rules[r];
        int n = w->size[0] * w->size[1] * w->size[2];
        rules[r].weight[0] = w->weight;
        for (int pass = 0; pass < 3; pass++) { /* symbol cells, transform cells, plane cells */
            int32_t *range = pass < 2 ? &rules[r].cells[2 * pass] : rules[r].live;
            range[0] = at;
            for (int c = 0; c < n; c++) {
                grammar_cell cell = pass == 1 ? w->xf[c] : w->sym[c];
                int code = pass == 1 ? xf_code(cell.op) : sym_code(cell.op);
                if (code == 0) continue; /* IGN, NOP */
                if (pass == 2 && (code = plane_of(preds, &npreds, code, cell.v)) < 0) continue;
                cells[2 * at] = cell_code(code, c, w->size);
                memcpy(&cells[2 * at + 1], &cell.v, sizeof(float));
                at++;
            }
            range[1] = at - range[0];
        }
    }
    put(g, B_RULES, rules, sizeof *rules * (size_t)(prog->count + 1));
    put(g, B_CELLS, cells, sizeof(uint32_t) * 2 * (size_t)(at + 1));
    put(g, B_PREDS, preds, sizeof(uint32_t) * 2 * (size_t)(npreds ? npreds : 1));
    g->planes = npreds;
    free(rules);
    free(cells);
    return true;
}

/* The program with the grid's uniforms and every buffer bound. */
static void use(grammar_gpu *g)
{
    glUseProgram(g->prog);
    glUniform3i(g->loc[U_DIM], g->dim[0], g->dim[1], g->dim[2]);
    glUniform1i(g->loc[U_PLANES], g->planes);
    glUniform1i(g->loc[U_WORDS], (g->dim[0] + 31) / 32 + 1);
    for (int b = 0; b < B_N; b++) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)b, g->buf[b]);
}

bool grammar_gpu_upload(grammar_gpu *g, const grammar_program *prog, const grammar_grid *grid, char *err,
                        size_t errlen)
{
    size_t cells = (size_t)grid->nx * (size_t)grid->ny * (size_t)grid->nz;
    if (cells > (size_t)INT32_MAX / 2) { /* the shader indexes with int */
        snprintf(err, errlen, "grammar_gpu: a %d x %d x %d grid is too big", grid->nx, grid->ny, grid->nz);
        return false;
    }
    if (!grammar_gpu_supports(prog, err, errlen)) return false;
    for (size_t i = 0; i < cells; i++)
        if (!plain_value(grid->d[i])) {
            snprintf(err, errlen, "grammar_gpu: density %g at voxel %zu lies outside 2^-100 <= |d| <= 2^100",
                     (double)grid->d[i], i);
            return false;
        }
    if (!upload_program(g, prog, err, errlen)) return false;
    int words = (grid->nx + 31) / 32 + 1;
    if ((size_t)(g->planes ? g->planes : 1) * (size_t)grid->ny * (size_t)grid->nz * (size_t)words > (size_t)INT32_MAX / 2) {
        snprintf(err, errlen, "grammar_gpu: the bit planes of a %d x %d x %d grid are too big", grid->nx, grid->ny, grid->nz);
        return false;
    }
    while (glGetError() != GL_NO_ERROR) {
    }
    put(g, B_GRID, grid->d, sizeof(float) * cells);
    uint32_t zero = 0;
    put(g, B_COUNT, &zero, sizeof zero);
    /* one word more: a plane row's last word is read with its successor */
    put(g, B_PLANES, NULL, sizeof(uint32_t) * ((size_t)g->planes * (size_t)grid->ny * (size_t)grid->nz * (size_t)words + 1));
    put(g, B_LIVE, NULL, sizeof(uint32_t) * (size_t)grid->ny * (size_t)grid->nz * (size_t)words);
    put(g, B_DIRTY, NULL, sizeof(uint32_t) * (size_t)grid->ny * (size_t)grid->nz * (size_t)words);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "grammar_gpu: GL error 0x%x uploading %zu MiB", e, (sizeof(float) * cells) >> 20);
        return false;
    }
    g->dim[0] = grid->nx;
    g->dim[1] = grid->ny;
    g->dim[2] = grid->nz;
    /* the planes of the grid as uploaded; the windows keep them current */
    use(g);
    if (g->planes) {
        glUniform1i(g->loc[U_PASS], PASS_PLANES);
        glDispatchCompute((GLuint)((words * grid->ny + 63) / 64), (GLuint)grid->nz, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    glUseProgram(0);
    return true;
}

void grammar_gpu_step(grammar_gpu *g, const grammar_program *prog, const grammar_params *p, int iter, int group)
{
    int g0 = prog->group_start[group], g1 = prog->group_start[group + 1];
    const int *sz = prog->rules[g0].size;
    int nw[3], o[3], c[3];
    for (int a = 0; a < 3; a++) {
        nw[a] = grammar_positions(p->lo[a], p->hi[a], sz[a], p->stride[a]);
        if (nw[a] == 0) return;
        o[a] = (sz[a] + p->stride[a] - 1) / p->stride[a];
    }
    c[0] = o[0] > 1;
    c[1] = o[1] > 1 ? c[0] * (o[0] - 1) + 1 : 0;
    c[2] = o[2] > 1 ? c[0] * (o[0] - 1) + c[1] * (o[1] - 1) + 1 : 0;
    int solve = c[0] ? 0 : c[1] ? 1 : c[2] ? 2 : -1;
    /* a lane is one of the CPU's slabs; when window layers never overlap
     * every slab is independent (one dispatch), else even slabs, then odd */
    bool layers = o[2] == 1;
    int depth = GRAMMAR_SLAB, slabs = (nw[2] + depth - 1) / depth;
    int dz = nw[2] < depth ? nw[2] : depth;
    int waves = c[0] * (nw[0] - 1) + c[1] * (nw[1] - 1) + c[2] * (dz - 1) + 1;
    uint64_t key = rng_hash3_key(grammar_tiebreak_key(p->seed, iter, group));
    int words = (g->dim[0] + 31) / 32 + 1;
    use(g);
    glUniform3i(g->loc[U_LO], p->lo[0], p->lo[1], p->lo[2]);
    glUniform3i(g->loc[U_STRIDE], p->stride[0], p->stride[1], p->stride[2]);
    glUniform3i(g->loc[U_NW], nw[0], nw[1], nw[2]);
    glUniform3i(g->loc[U_SIZE], sz[0], sz[1], sz[2]);
    glUniform3i(g->loc[U_REACH], o[0] - 1, o[1] - 1, o[2] - 1);
    glUniform2i(g->loc[U_RULES], g0, g1);
    glUniform3i(g->loc[U_COEF], c[0], c[1], c[2]);
    glUniform1i(g->loc[U_SOLVE], solve);
    glUniform1i(g->loc[U_WAVES], waves);
    glUniform1i(g->loc[U_DEPTH], depth);
    glUniform1i(g->loc[U_LANE_STEP], layers ? 1 : 2);
    glUniform2ui(g->loc[U_HASH], (GLuint)key, (GLuint)(key >> 32));
    glUniform1i(g->loc[U_ORDER], (GLint)g->order);
    /* the live bits of this step's input; no window dirty yet */
    glUniform1i(g->loc[U_PASS], PASS_LIVE);
    glDispatchCompute((GLuint)(((words - 1) * nw[1] + 63) / 64), (GLuint)nw[2], 1);
    glClearNamedBufferSubData(g->buf[B_DIRTY], GL_R32UI, 0, sizeof(uint32_t) * (size_t)nw[1] * (size_t)nw[2] * (size_t)words,
                              GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUniform1i(g->loc[U_PASS], PASS_WAVES);
    for (int phase = 0; phase < (layers ? 1 : 2); phase++) {
        int lanes = layers ? slabs : (slabs - phase + 1) / 2;
        if (lanes <= 0) continue;
        glUniform1i(g->loc[U_PHASE], phase);
        glDispatchCompute((GLuint)lanes, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); /* the next phase or step reads these writes */
    }
    glUseProgram(0);
}

void grammar_gpu_set_order(grammar_gpu *g, grammar_gpu_order order) { g->order = order; }

bool grammar_gpu_read(grammar_gpu *g, grammar_grid *grid, long long *matches, char *err, size_t errlen)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    size_t cells = (size_t)grid->nx * (size_t)grid->ny * (size_t)grid->nz;
    if (grid->nx != g->dim[0] || grid->ny != g->dim[1] || grid->nz != g->dim[2]) {
        snprintf(err, errlen, "grammar_gpu: the grid read is not the grid uploaded");
        return false;
    }
    glGetNamedBufferSubData(g->buf[B_GRID], 0, (GLsizeiptr)(sizeof(float) * cells), grid->d);
    uint32_t n = 0;
    glGetNamedBufferSubData(g->buf[B_COUNT], 0, sizeof n, &n);
    if (matches) *matches = n;
    /* the derivation is over: leave no storage buffer bound for the next pass */
    for (int b = 0; b < B_N; b++) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)b, 0);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "grammar_gpu: GL error 0x%x", e);
        return false;
    }
    return true;
}

bool grammar_gpu_derive(grammar_gpu *g, const grammar_program *prog, grammar_grid *grid, const grammar_params *p,
                        grammar_stats *stats, char *err, size_t errlen)
{
    if (stats) memset(stats, 0, sizeof *stats);
    if (!grammar_params_check(p, grid, err, errlen) || !grammar_gpu_supports(prog, err, errlen)) return false;
    if (p->iterations == 0 || prog->count == 0) return true;
    if (!grammar_gpu_upload(g, prog, grid, err, errlen)) return false;
    long long windows = 0;
    for (int it = 0; it < p->iterations; it++)
        for (int gr = 0; gr < prog->groups; gr++) {
            const int *sz = prog->rules[prog->group_start[gr]].size;
            long long n = 1;
            for (int a = 0; a < 3; a++) n *= grammar_positions(p->lo[a], p->hi[a], sz[a], p->stride[a]);
            windows += n;
            grammar_gpu_step(g, prog, p, it, gr);
        }
    long long matches = 0;
    if (!grammar_gpu_read(g, grid, &matches, err, errlen)) return false;
    if (stats) {
        stats->windows = windows;
        stats->matches = matches;
    }
    return true;
}
