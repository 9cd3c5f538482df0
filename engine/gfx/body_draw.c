#include "gfx/body_draw.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/light_tex.h"
#include "gfx/quad_index.h"
#include "gfx/shader.h"
#include "mesh/mesh_blocks.h"

/* One 32^3 tile of a body's grid: where its quads are in the body's VBO. */
typedef struct tile {
    float origin[3];
    int first[PASS_COUNT], count[PASS_COUNT];
} tile;

typedef struct body_mesh {
    uint32_t id;
    GLuint vbo;
    tile *tiles;
    int tile_count;
    bool seen; /* drawn this frame: the others belong to bodies gone */
} body_mesh;

/* A body to draw this frame and how near its sphere comes to the eye. */
typedef struct body_order {
    float dist;
    const body *b;
    int m; /* index in d->m (mesh_of may move the array) */
} body_order;

struct body_draw {
    GLuint prog, vao, ibo;
    body_order *order; /* the bodies body_draw_opaque drew, nearest first */
    int order_cap, shown;
    int ibo_quads;
    body_mesh *m;
    int count, cap;
    mesh_input *in;
    chunk_mesh cm;
    struct {
        GLint viewproj, model, origin, camera, atlas, pass, sun, fog_color, fog_start, fog_end, tints, coarse;
    } u;
};

body_draw *body_draw_create(char *err, size_t errlen)
{
    body_draw *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->in = malloc(sizeof *d->in);
    d->prog = d->in ? shader_load("body.vert", "chunk.frag", err, errlen) : 0;
    if (!d->prog) {
        body_draw_destroy(d);
        return NULL;
    }
#define U(name) glGetUniformLocation(d->prog, "u_" #name)
    d->u.viewproj = U(viewproj), d->u.model = U(model), d->u.origin = U(origin), d->u.camera = U(camera);
    d->u.atlas = U(atlas), d->u.pass = U(pass), d->u.sun = U(sun), d->u.fog_color = U(fog_color);
    d->u.fog_start = U(fog_start), d->u.fog_end = U(fog_end), d->u.tints = U(tints), d->u.coarse = U(coarse);
#undef U
    /* the chunk renderer's vertex layout */
    glCreateVertexArrays(1, &d->vao);
    glEnableVertexArrayAttrib(d->vao, 0);
    glEnableVertexArrayAttrib(d->vao, 1);
    glVertexArrayAttribIFormat(d->vao, 0, 1, GL_UNSIGNED_INT, 0);
    glVertexArrayAttribIFormat(d->vao, 1, 1, GL_UNSIGNED_INT, 4);
    glVertexArrayAttribBinding(d->vao, 0, 0);
    glVertexArrayAttribBinding(d->vao, 1, 0);
    glCreateBuffers(1, &d->ibo);
    return d;
}

static void drop(body_mesh *m)
{
    if (m->vbo) glDeleteBuffers(1, &m->vbo);
    free(m->tiles);
    memset(m, 0, sizeof *m);
}

void body_draw_destroy(body_draw *d)
{
    if (!d) return;
    for (int i = 0; i < d->count; i++) drop(&d->m[i]);
    free(d->m);
    free(d->order);
    mesh_free(&d->cm);
    free(d->in);
    if (d->prog) glDeleteProgram(d->prog);
    if (d->vao) glDeleteVertexArrays(1, &d->vao);
    if (d->ibo) glDeleteBuffers(1, &d->ibo);
    free(d);
}

/* The body's cells round grid tile (tx, ty, tz), one cell of border, air
 * outside the grid. */
static void gather(const body *b, int tx, int ty, int tz, mesh_input *in)
{
    for (int y = -1; y <= CHUNK_SIZE; y++)
        for (int z = -1; z <= CHUNK_SIZE; z++)
            for (int x = -1; x <= CHUNK_SIZE; x++) {
                int gx = tx + x, gy = ty + y, gz = tz + z;
                size_t k = MESH_PAD_INDEX(x, y, z);
                bool inside = gx >= 0 && gy >= 0 && gz >= 0 && gx < b->size[0] && gy < b->size[1] && gz < b->size[2];
                in->vox[k] = inside ? b->mat[body_index(b, gx, gy, gz)] : MAT_AIR;
                in->tint[k] = inside ? b->tint[body_index(b, gx, gy, gz)] : 0;
            }
}

/* Meshes a body into one VBO, tile after tile. False when GL or memory
 * refused (the body is then not drawn, and tried again next frame). */
static bool build(body_draw *d, const body *b, body_mesh *out)
{
    int nt[3];
    for (int a = 0; a < 3; a++) nt[a] = (b->size[a] + CHUNK_SIZE - 1) / CHUNK_SIZE;
    out->tiles = calloc((size_t)nt[0] * (size_t)nt[1] * (size_t)nt[2], sizeof *out->tiles);
    mesh_vertex *all = NULL;
    int total = 0, cap = 0;
    if (!out->tiles) return false;
    for (int ty = 0; ty < nt[1]; ty++)
        for (int tz = 0; tz < nt[2]; tz++)
            for (int tx = 0; tx < nt[0]; tx++) {
                gather(b, tx * CHUNK_SIZE, ty * CHUNK_SIZE, tz * CHUNK_SIZE, d->in);
                mesh_build(d->in, true, &d->cm);
                tile *t = &out->tiles[out->tile_count++];
                t->origin[0] = (float)(tx * CHUNK_SIZE), t->origin[1] = (float)(ty * CHUNK_SIZE);
                t->origin[2] = (float)(tz * CHUNK_SIZE);
                for (int p = 0; p < PASS_COUNT; p++) {
                    const mesh_buffer *mb = &d->cm.pass[p];
                    if (total + mb->count > cap) {
                        int c = cap ? cap : 1024;
                        while (c < total + mb->count) c *= 2;
                        mesh_vertex *v = realloc(all, sizeof *v * (size_t)c);
                        if (!v) {
                            free(all);
                            return false;
                        }
                        all = v, cap = c;
                    }
                    if (mb->count) memcpy(all + total, mb->v, sizeof *all * (size_t)mb->count);
                    t->first[p] = total, t->count[p] = mb->count;
                    total += mb->count;
                }
            }
    int quads = total / 4;
    if (quads > d->ibo_quads) {
        int n = d->ibo_quads ? d->ibo_quads : 4096;
        while (n < quads) n *= 2;
        if (quad_index_upload(d->ibo, n)) d->ibo_quads = n;
    }
    glCreateBuffers(1, &out->vbo);
    glNamedBufferData(out->vbo, (GLsizeiptr)(sizeof *all * (size_t)(total ? total : 1)), all, GL_STATIC_DRAW);
    free(all);
    return glGetError() != GL_OUT_OF_MEMORY && quads <= d->ibo_quads;
}

static body_mesh *mesh_of(body_draw *d, const body *b)
{
    for (int i = 0; i < d->count; i++)
        if (d->m[i].id == b->id) return &d->m[i];
    if (d->count == d->cap) {
        int cap = d->cap ? d->cap * 2 : 16;
        body_mesh *m = realloc(d->m, sizeof *m * (size_t)cap);
        if (!m) return NULL;
        d->m = m, d->cap = cap;
    }
    body_mesh *m = &d->m[d->count];
    memset(m, 0, sizeof *m);
    if (!build(d, b, m)) {
        drop(m);
        return NULL;
    }
    m->id = b->id;
    d->count++;
    return m;
}

/* grid -> world, column-major: T(pos) R T(-com) */
static void model_matrix(const body *b, float out[16])
{
    float r[3][3];
    body_rotation(b, r);
    memset(out, 0, sizeof(float) * 16);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) out[j * 4 + i] = r[i][j];
        out[12 + i] = b->pos[i] - (r[i][0] * b->com[0] + r[i][1] * b->com[1] + r[i][2] * b->com[2]);
    }
    out[15] = 1;
}

static long draw_pass(body_draw *d, const body_mesh *m, int pass)
{
    long tris = 0;
    for (int t = 0; t < m->tile_count; t++) {
        const tile *tl = &m->tiles[t];
        int first = tl->first[pass], count = tl->count[pass];
        if (pass == PASS_OPAQUE) count += tl->count[PASS_CUTOUT]; /* back to back: one draw, as chunks do */
        if (!count) continue;
        glUniform3fv(d->u.origin, 1, tl->origin);
        glDrawElementsBaseVertex(GL_TRIANGLES, count / 4 * 6, GL_UNSIGNED_INT, NULL, first);
        tris += count / 2;
    }
    return tris;
}

static int cmp_order(const void *pa, const void *pb)
{
    const body_order *a = pa, *b = pb;
    if (a->dist != b->dist) return a->dist < b->dist ? -1 : 1;
    return a->b->id < b->b->id ? -1 : a->b->id > b->b->id; /* ties by id: the picture never depends on qsort */
}

/* The program and the state every body draw shares. */
static void begin(body_draw *d, const camera *cam, const render_settings *s)
{
    glPolygonMode(GL_FRONT_AND_BACK, s->wireframe ? GL_LINE : GL_FILL);
    glUseProgram(d->prog);
    glUniformMatrix4fv(d->u.viewproj, 1, GL_FALSE, (const float *)cam->viewproj);
    glUniform3fv(d->u.camera, 1, cam->pos);
    float sun[3] = { s->sun[0], s->sun[1], s->sun[2] }, l = sqrtf(sun[0] * sun[0] + sun[1] * sun[1] + sun[2] * sun[2]);
    for (int i = 0; i < 3 && l > 0; i++) sun[i] /= l;
    glUniform3fv(d->u.sun, 1, sun);
    glUniform3fv(d->u.fog_color, 1, s->sky);
    glUniform1f(d->u.fog_start, s->view_distance * RENDER_FOG_START);
    glUniform1f(d->u.fog_end, s->view_distance);
    glUniform3fv(d->u.tints, 8, &s->tints[0][0]);
    glUniform1i(d->u.coarse, 0);
    glUniform1i(d->u.atlas, 0);
    glBindTextureUnit(0, s->atlas);
    light_shading_apply(d->prog, &s->light, 1);
    glUniform2f(glGetUniformLocation(d->prog, "u_light_floor"), BODY_DRAW_LIGHT_FLOOR_SUN, BODY_DRAW_LIGHT_FLOOR_SKY);
    glBindVertexArray(d->vao);
    glVertexArrayElementBuffer(d->vao, d->ibo);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
}

static void end(void)
{
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glEnable(GL_CULL_FACE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}

/* One pass of the bodies in d->order (the translucent one farthest first). */
static long draw_ordered(body_draw *d, int pass)
{
    long tris = 0;
    glUniform1i(d->u.pass, pass);
    for (int k = 0; k < d->shown; k++) {
        const body_order *o = &d->order[pass == PASS_TRANSLUCENT ? d->shown - 1 - k : k];
        float model[16];
        model_matrix(o->b, model);
        glUniformMatrix4fv(d->u.model, 1, GL_FALSE, model);
        glVertexArrayVertexBuffer(d->vao, 0, d->m[o->m].vbo, 0, sizeof(mesh_vertex));
        tris += draw_pass(d, &d->m[o->m], pass);
    }
    return tris;
}

long body_draw_opaque(body_draw *d, body *const *v, int n, const camera *cam, const render_settings *s)
{
    if (n > d->order_cap) {
        body_order *o = realloc(d->order, sizeof *o * (size_t)n);
        if (!o) n = 0; /* nothing drawn this frame; the bodies still fall */
        else d->order = o, d->order_cap = n;
    }
    for (int i = 0; i < d->count; i++) d->m[i].seen = false;
    long tris = 0;
    /* the bodies in the frustum, nearest first: early depth rejects what a
     * near crown hides of the ones behind it */
    d->shown = 0;
    for (int i = 0; i < n; i++) {
        body_mesh *m = mesh_of(d, v[i]);
        if (!m) continue;
        m->seen = true;
        /* the body's bounding sphere (its centre of mass is its centre) */
        vec3 c = { v[i]->pos[0], v[i]->pos[1], v[i]->pos[2] };
        if (!camera_sphere_visible(cam, c, v[i]->radius)) continue;
        float dist = glm_vec3_distance(c, (float *)cam->pos) - v[i]->radius;
        d->order[d->shown++] = (body_order){ dist, v[i], (int)(m - d->m) };
    }
    qsort(d->order, (size_t)d->shown, sizeof *d->order, cmp_order);
    if (d->shown > 0) {
        begin(d, cam, s);
        tris = draw_ordered(d, PASS_OPAQUE);
        end();
    }
    /* the meshes of bodies gone (merged, removed) */
    int k = 0;
    for (int i = 0; i < d->count; i++) {
        if (d->m[i].seen) d->m[k++] = d->m[i];
        else drop(&d->m[i]);
    }
    d->count = k;
    return tris;
}

long body_draw_translucent(body_draw *d, const camera *cam, const render_settings *s)
{
    bool any = false;
    for (int k = 0; k < d->shown && !any; k++) {
        const body_mesh *m = &d->m[d->order[k].m];
        for (int t = 0; t < m->tile_count && !any; t++) any = m->tiles[t].count[PASS_TRANSLUCENT] > 0;
    }
    if (!any) return 0;
    begin(d, cam, s);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    long tris = draw_ordered(d, PASS_TRANSLUCENT);
    end();
    return tris;
}
