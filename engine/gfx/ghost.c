#include "gfx/ghost.h"

#include <glad/gl.h>
#include <stdint.h>
#include <stdlib.h>

#include "gfx/quad_index.h"
#include "gfx/shader.h"

/* ---- drawing (GL, main thread) --------------------------------------------- */

struct ghost_renderer {
    GLuint prog, vao, vbo, ibo, line_vbo;
    int quads;
    int lines; /* segments of the outline (mesh_shape.h) */
    float pivot[3]; /* the shape's size / 2: the octree's pivot */
    shape_mesh scratch; /* kept so a new shape of similar size allocates nothing */
    shape_outline outline;
    struct {
        GLint mvp, rot, color, alpha, lines, eye;
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
    g->u.lines = glGetUniformLocation(g->prog, "u_lines");
    g->u.eye = glGetUniformLocation(g->prog, "u_eye");

    glCreateVertexArrays(1, &g->vao);
    glCreateBuffers(1, &g->vbo);
    glCreateBuffers(1, &g->ibo);
    glCreateBuffers(1, &g->line_vbo);
    glEnableVertexArrayAttrib(g->vao, 0);
    glEnableVertexArrayAttrib(g->vao, 1);
    glVertexArrayAttribFormat(g->vao, 0, 3, GL_FLOAT, GL_FALSE, (GLuint)offsetof(shape_mesh_vertex, pos));
    glVertexArrayAttribIFormat(g->vao, 1, 1, GL_UNSIGNED_INT, (GLuint)offsetof(shape_mesh_vertex, face));
    glVertexArrayAttribBinding(g->vao, 0, 0);
    glVertexArrayAttribBinding(g->vao, 1, 0);
    glVertexArrayVertexBuffer(g->vao, 0, g->vbo, 0, sizeof(shape_mesh_vertex));
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
    if (g->line_vbo) glDeleteBuffers(1, &g->line_vbo);
    shape_mesh_free(&g->scratch);
    shape_outline_free(&g->outline);
    free(g);
}

/* The outline: the edges where the shape bends, each once (a few hundred
 * segments for the default ball; greedy seams are not lines of the shape). */
static bool upload_lines(ghost_renderer *g, const shape *s)
{
    if (!shape_outline_build(s, &g->outline)) return false;
    int n = g->outline.segments;
    size_t bytes = sizeof(shape_mesh_vertex) * 2 * (size_t)n;
    if (n) glNamedBufferData(g->line_vbo, (GLsizeiptr)bytes, g->outline.v, GL_STATIC_DRAW);
    g->lines = n;
    return true;
}

bool ghost_set_shape(ghost_renderer *g, const shape *s)
{
    g->quads = 0;
    g->lines = 0;
    if (!s || !s->vox) return true;
    if (!shape_mesh_build(s, &g->scratch)) return false;
    int n = g->scratch.quads;
    if (n == 0) return true;
    if (!quad_index_upload(g->ibo, n) || !upload_lines(g, s)) return false;
    glNamedBufferData(g->vbo, (GLsizeiptr)(sizeof(shape_mesh_vertex) * 4 * (size_t)n), g->scratch.v, GL_STATIC_DRAW);
    g->pivot[0] = (float)s->sx * 0.5f, g->pivot[1] = (float)s->sy * 0.5f, g->pivot[2] = (float)s->sz * 0.5f;
    g->quads = n;
    return true;
}

int ghost_quads(const ghost_renderer *g) { return g->quads; }

/* The pose's position relative to the camera's render origin: the frames'
 * integer difference first, so it is exact wherever both are. */
static void pose_rel(const octree_pose *pose, const camera *cam, float out[3])
{
    for (int r = 0; r < 3; r++) out[r] = (float)(pose->org[r] - cam->origin[r]) + pose->pos[r];
}

/* model = translate(pos) * rot * translate(-pivot), as the octree's
 * tool_to_world: p -> pos + rot (p - pivot), pos relative to the render
 * origin. cglm is column-major. */
static void pose_matrix(const octree_pose *pose, const camera *cam, const float pivot[3], mat4 out)
{
    float pos[3];
    pose_rel(pose, cam, pos);
    glm_mat4_identity(out);
    for (int r = 0; r < 3; r++) {
        float t = pos[r];
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

static void draw_lines(ghost_renderer *g, GLenum depth_func, float alpha)
{
    glDepthFunc(depth_func);
    glUniform1f(g->u.alpha, alpha);
    glDrawArrays(GL_LINES, 0, g->lines * 2);
}

void ghost_draw(ghost_renderer *g, const camera *cam, const octree_pose *pose, const float rgba[4],
                unsigned framebuffer, int width, int height)
{
    ghost_draw_style(g, cam, pose, rgba, framebuffer, width, height, GHOST_SOLID);
}

void ghost_draw_style(ghost_renderer *g, const camera *cam, const octree_pose *pose, const float rgba[4],
                      unsigned framebuffer, int width, int height, ghost_style style)
{
    if (g->quads == 0) return;
    mat4 model, mvp;
    pose_matrix(pose, cam, g->pivot, model);
    glm_mat4_mul((vec4 *)cam->viewproj, model, mvp);

    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, width, height);
    glUseProgram(g->prog);
    glUniformMatrix4fv(g->u.mvp, 1, GL_FALSE, (const float *)mvp);
    /* row-major in the pose: let GL transpose it */
    glUniformMatrix3fv(g->u.rot, 1, GL_TRUE, &pose->rot[0][0]);
    glUniform4fv(g->u.color, 1, rgba);
    /* the eye in the tool's grid: rot^T (eye - pos) + pivot */
    float eye[3], pos[3];
    pose_rel(pose, cam, pos);
    for (int c = 0; c < 3; c++) {
        eye[c] = g->pivot[c];
        for (int r = 0; r < 3; r++) eye[c] += pose->rot[r][c] * (cam->pos[r] - pos[r]);
    }
    glUniform3fv(g->u.eye, 1, eye);
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
    if (style == GHOST_FRONT) {
        glUniform1i(g->u.lines, 0);
        draw_pass(g, GL_LESS, GL_BACK, 1.f);
    } else if (style == GHOST_SOLID) {
        glUniform1i(g->u.lines, 0);
        draw_pass(g, GL_GREATER, GL_BACK, GHOST_HIDDEN_ALPHA);
        draw_pass(g, GL_LESS, GL_FRONT, GHOST_BACK_ALPHA);
        draw_pass(g, GL_LESS, GL_BACK, 1.f);
    } else {
        /* Edges only: a few thousand pixels instead of a quarter of the
         * screen three times over. In front of the terrain they are drawn
         * strongly, inside it (where the tool touches, what a cut takes)
         * faintly; edges on the tool's far side (both faces turned away)
         * are left out by the vertex shader. */
        glUniform1i(g->u.lines, 1);
        glDisable(GL_CULL_FACE);
        glVertexArrayVertexBuffer(g->vao, 0, g->line_vbo, 0, sizeof(shape_mesh_vertex));
        draw_lines(g, GL_GREATER, GHOST_HIDDEN_ALPHA);
        draw_lines(g, GL_LESS, 1.f);
        glVertexArrayVertexBuffer(g->vao, 0, g->vbo, 0, sizeof(shape_mesh_vertex));
        glEnable(GL_CULL_FACE);
    }

    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    glCullFace(GL_BACK);
    glBindVertexArray(0);
}
