#include "gfx/ghost.h"

#include <glad/gl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/shader.h"

const int ghost_face_normal[GHOST_FACES][3] = {
    { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 }, { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 },
};

/* ---- meshing (pure CPU) ---------------------------------------------------- */

void ghost_mesh_free(ghost_mesh *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}

static bool mesh_reserve(ghost_mesh *m, int quads)
{
    if (quads <= m->cap) return true;
    int cap = m->cap ? m->cap : 256;
    while (cap < quads) {
        /* 4 vertices and 6 indices a quad are counted in ints downstream */
        if (cap > INT_MAX / 16) return false;
        cap *= 2;
    }
    ghost_vertex *v = realloc(m->v, sizeof *v * 4 * (size_t)cap);
    if (!v) return false;
    m->v = v;
    m->cap = cap;
    return true;
}

/* One slice of one face direction: the faces on side pos (0 = negative,
 * 1 = positive) of axis d of the voxels in layer `layer`; its mask is
 * size[u] x size[v] over the in-plane axes, u fastest. */
typedef struct slice {
    int d, u, v, pos, layer;
    int size[3];
} slice;

static bool emit_quad(ghost_mesh *m, const slice *sl, int u0, int v0, int w, int h)
{
    if (!mesh_reserve(m, m->quads + 1)) return false;
    float corner[4][3];
    /* corners in the order of the header: positive faces walk u then v,
     * negative faces v then u, so both wind CCW seen from outside */
    const int du[4] = { 0, w, w, 0 }, dv[4] = { 0, 0, h, h };
    for (int k = 0; k < 4; k++) {
        int kk = sl->pos ? k : (4 - k) % 4;
        corner[k][sl->d] = (float)(sl->layer + sl->pos);
        corner[k][sl->u] = (float)(u0 + du[kk]);
        corner[k][sl->v] = (float)(v0 + dv[kk]);
    }
    ghost_vertex *out = &m->v[4 * (size_t)m->quads++];
    for (int k = 0; k < 4; k++) {
        memcpy(out[k].pos, corner[k], sizeof out[k].pos);
        out[k].face = (uint32_t)(2 * sl->d + sl->pos);
    }
    return true;
}

/* Marks the exposed faces of one slice; returns how many. Walks the voxel
 * bytes by strides: this loop runs 6 * sx * sy * sz times per build. */
static long fill_mask(const shape *s, const slice *sl, uint8_t *mask)
{
    const size_t stride[3] = { 1, (size_t)s->sx * (size_t)s->sz, (size_t)s->sx };
    int nu = sl->size[sl->u], nv = sl->size[sl->v];
    size_t su = stride[sl->u], sv = stride[sl->v];
    /* the neighbour across the face, or none at the grid's edge (empty) */
    int next = sl->layer + (sl->pos ? 1 : -1);
    bool inside = next >= 0 && next < sl->size[sl->d];
    ptrdiff_t off = sl->pos ? (ptrdiff_t)stride[sl->d] : -(ptrdiff_t)stride[sl->d];
    const uint8_t *base = s->vox + (size_t)sl->layer * stride[sl->d];
    long n = 0;
    for (int j = 0; j < nv; j++) {
        const uint8_t *row = base + (size_t)j * sv;
        uint8_t *m = mask + (size_t)j * (size_t)nu;
        for (int i = 0; i < nu; i++) {
            const uint8_t *c = row + (size_t)i * su;
            bool e = *c && !(inside && c[off]);
            m[i] = e;
            n += e;
        }
    }
    return n;
}

/* Greedy merge: grow each unclaimed cell along u as far as the row allows,
 * then along v while the whole run is set. Claimed cells are cleared, so
 * every cell lands in exactly one rectangle. */
static bool merge_mask(ghost_mesh *m, const slice *sl, uint8_t *mask)
{
    int nu = sl->size[sl->u], nv = sl->size[sl->v];
    for (int j = 0; j < nv; j++) {
        for (int i = 0; i < nu; i++) {
            if (!mask[i + j * nu]) continue;
            int w = 1;
            while (i + w < nu && mask[i + w + j * nu]) w++;
            int h = 1;
            for (; j + h < nv; h++) {
                const uint8_t *row = mask + (size_t)(j + h) * (size_t)nu + i;
                int k = 0;
                while (k < w && row[k]) k++;
                if (k < w) break;
            }
            for (int y = 0; y < h; y++) memset(mask + (size_t)(j + y) * (size_t)nu + i, 0, (size_t)w);
            if (!emit_quad(m, sl, i, j, w, h)) return false;
            i += w - 1;
        }
    }
    return true;
}

bool ghost_build(const shape *s, ghost_mesh *out)
{
    out->quads = 0;
    out->faces = 0;
    if (!s || !s->vox || s->sx < 1 || s->sy < 1 || s->sz < 1) return true;
    int size[3] = { s->sx, s->sy, s->sz };
    int biggest = 0; /* largest slice area, for one mask reused by all */
    for (int d = 0; d < 3; d++) {
        int a = size[(d + 1) % 3] * size[(d + 2) % 3];
        if (a > biggest) biggest = a;
    }
    uint8_t *mask = malloc((size_t)biggest);
    if (!mask) return false;
    bool ok = true;
    for (int face = 0; face < GHOST_FACES && ok; face++) {
        slice sl = { .d = face / 2, .pos = face & 1 };
        sl.u = (sl.d + 1) % 3, sl.v = (sl.d + 2) % 3;
        memcpy(sl.size, size, sizeof size);
        for (sl.layer = 0; sl.layer < size[sl.d] && ok; sl.layer++) {
            long n = fill_mask(s, &sl, mask);
            out->faces += n;
            if (n) ok = merge_mask(out, &sl, mask);
        }
    }
    free(mask);
    if (!ok) out->quads = 0, out->faces = 0;
    return ok;
}

/* ---- drawing (GL, main thread) --------------------------------------------- */

struct ghost_renderer {
    GLuint prog, vao, vbo, ibo;
    int quads;
    float pivot[3]; /* the shape's size / 2: the octree's pivot */
    ghost_mesh scratch; /* kept so a new shape of similar size allocates nothing */
    struct {
        GLint mvp, rot, color, alpha;
    } u;
};

ghost_renderer *ghost_create(char *err, size_t errlen)
{
    ghost_renderer *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->prog = shader_load("ghost.vert", "ghost.frag", err, errlen);
    if (!g->prog) {
        ghost_destroy(g);
        return NULL;
    }
    g->u.mvp = glGetUniformLocation(g->prog, "u_mvp");
    g->u.rot = glGetUniformLocation(g->prog, "u_rot");
    g->u.color = glGetUniformLocation(g->prog, "u_color");
    g->u.alpha = glGetUniformLocation(g->prog, "u_alpha");

    glCreateVertexArrays(1, &g->vao);
    glCreateBuffers(1, &g->vbo);
    glCreateBuffers(1, &g->ibo);
    glEnableVertexArrayAttrib(g->vao, 0);
    glEnableVertexArrayAttrib(g->vao, 1);
    glVertexArrayAttribFormat(g->vao, 0, 3, GL_FLOAT, GL_FALSE, (GLuint)offsetof(ghost_vertex, pos));
    glVertexArrayAttribIFormat(g->vao, 1, 1, GL_UNSIGNED_INT, (GLuint)offsetof(ghost_vertex, face));
    glVertexArrayAttribBinding(g->vao, 0, 0);
    glVertexArrayAttribBinding(g->vao, 1, 0);
    glVertexArrayVertexBuffer(g->vao, 0, g->vbo, 0, sizeof(ghost_vertex));
    glVertexArrayElementBuffer(g->vao, g->ibo);
    return g;
}

void ghost_destroy(ghost_renderer *g)
{
    if (!g) return;
    if (g->prog) glDeleteProgram(g->prog);
    if (g->vao) glDeleteVertexArrays(1, &g->vao);
    if (g->vbo) glDeleteBuffers(1, &g->vbo);
    if (g->ibo) glDeleteBuffers(1, &g->ibo);
    ghost_mesh_free(&g->scratch);
    free(g);
}

/* The quad pattern 0 1 2, 0 2 3 for every quad. */
static bool upload_indices(GLuint ibo, int quads)
{
    uint32_t *idx = malloc(sizeof *idx * 6 * (size_t)quads);
    if (!idx) return false;
    for (int q = 0; q < quads; q++) {
        uint32_t b = (uint32_t)q * 4, *o = idx + 6 * (size_t)q;
        o[0] = b, o[1] = b + 1, o[2] = b + 2, o[3] = b, o[4] = b + 2, o[5] = b + 3;
    }
    glNamedBufferData(ibo, (GLsizeiptr)(sizeof *idx * 6 * (size_t)quads), idx, GL_STATIC_DRAW);
    free(idx);
    return true;
}

bool ghost_set_shape(ghost_renderer *g, const shape *s)
{
    g->quads = 0;
    if (!s || !s->vox) return true;
    if (!ghost_build(s, &g->scratch)) return false;
    int n = g->scratch.quads;
    if (n == 0) return true;
    if (!upload_indices(g->ibo, n)) return false;
    glNamedBufferData(g->vbo, (GLsizeiptr)(sizeof(ghost_vertex) * 4 * (size_t)n), g->scratch.v, GL_STATIC_DRAW);
    g->pivot[0] = (float)s->sx * 0.5f, g->pivot[1] = (float)s->sy * 0.5f, g->pivot[2] = (float)s->sz * 0.5f;
    g->quads = n;
    return true;
}

int ghost_quads(const ghost_renderer *g) { return g->quads; }

/* model = translate(pos) * rot * translate(-pivot), as the octree's
 * tool_to_world: p -> pos + rot (p - pivot). cglm is column-major. */
static void pose_matrix(const octree_pose *pose, const float pivot[3], mat4 out)
{
    glm_mat4_identity(out);
    for (int r = 0; r < 3; r++) {
        float t = pose->pos[r];
        for (int c = 0; c < 3; c++) {
            out[c][r] = pose->rot[r][c];
            t -= pose->rot[r][c] * pivot[c];
        }
        out[3][r] = t;
    }
}

static void draw_pass(ghost_renderer *g, GLenum depth_func, GLenum cull, float alpha)
{
    glDepthFunc(depth_func);
    glCullFace(cull);
    glUniform1f(g->u.alpha, alpha);
    glDrawElements(GL_TRIANGLES, g->quads * 6, GL_UNSIGNED_INT, NULL);
}

void ghost_draw(ghost_renderer *g, const camera *cam, const octree_pose *pose, const float rgba[4],
                unsigned framebuffer, int width, int height)
{
    if (g->quads == 0) return;
    mat4 model, mvp;
    pose_matrix(pose, g->pivot, model);
    glm_mat4_mul((vec4 *)cam->viewproj, model, mvp);

    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, width, height);
    glUseProgram(g->prog);
    glUniformMatrix4fv(g->u.mvp, 1, GL_FALSE, (const float *)mvp);
    /* row-major in the pose: let GL transpose it */
    glUniformMatrix3fv(g->u.rot, 1, GL_TRUE, &pose->rot[0][0]);
    glUniform4fv(g->u.color, 1, rgba);
    glBindVertexArray(g->vao);

    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE); /* a ghost must not hide the terrain, nor itself */
    glEnable(GL_BLEND);
    /* destination alpha is left alone, so screenshots stay opaque */
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    glEnable(GL_CULL_FACE);
    glFrontFace(GL_CCW);
    /* Tool faces often lie exactly on terrain faces (odd sizes at whole
     * positions): pulled slightly toward the eye they count as in front,
     * instead of flickering between the visible and buried passes. */
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(-1.f, -2.f);

    /* Buried part first (it lies behind everything else drawn here), then
     * the far side, then the near side: back to front for a convex shape.
     * GL_GREATER against the world's depth keeps exactly the fragments that
     * terrain hides, so a tool half inside a hill still shows all of itself. */
    draw_pass(g, GL_GREATER, GL_BACK, GHOST_HIDDEN_ALPHA);
    draw_pass(g, GL_LESS, GL_FRONT, GHOST_BACK_ALPHA);
    draw_pass(g, GL_LESS, GL_BACK, 1.f);

    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    glCullFace(GL_BACK);
    glBindVertexArray(0);
}
