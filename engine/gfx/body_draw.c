#include "gfx/body_draw.h"

#include <glad/gl.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gfx/light_tex.h"
#include "gfx/quad_index.h"
#include "gfx/shader.h"
#include "gfx/smooth_renderer.h"
#include "mesh/mesh_blocks.h"
#include "mesh/mesh_smooth.h"

/* One 32^3 tile of a body's grid: where its quads are in the body's VBO. */
typedef struct tile {
    float origin[3];
    int first[PASS_COUNT], count[PASS_COUNT];
} tile;

typedef struct body_mesh {
    uint32_t id;
    bool seen; /* in this frame's list: the others belong to bodies gone */
    /* blocks: built when first drawn as blocks */
    bool blocks;
    GLuint vbo;
    tile *tiles;
    int tile_count;
    /* nets: built when first drawn as nets (a body's grid only changes by
     * being cut, and a cut body is a new body), again if the sharpness
     * changed */
    bool nets;
    float sharpness;
    GLuint nvbo, nibo;
    int nindices;
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
        GLint model, origin, pass;
    } u;
    /* nets: smooth.vert + smooth.frag (0: not loaded, bodies drawn as blocks) */
    GLuint nprog, nvao;
    struct {
        GLint model, grid, on_body;
    } nu;
    smooth_input *nin;
    smooth_mesh ntile, nmesh;
    body_draw_style style; /* the last body_draw_opaque's */
};

body_draw *body_draw_create(char *err, size_t errlen)
{
    body_draw *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->in = malloc(sizeof *d->in);
    d->prog = d->in ? shader_load_composed("body.vert", "chunk.frag", err, errlen) : 0;
    if (!d->prog) {
        body_draw_destroy(d);
        return NULL;
    }
#define U(name) glGetUniformLocation(d->prog, "u_" #name)
    d->u.model = U(model), d->u.origin = U(origin), d->u.pass = U(pass);
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
    char nerr[1024];
    d->nin = malloc(sizeof *d->nin);
    d->nprog = d->nin ? smooth_program_load(nerr, sizeof nerr) : 0;
    if (d->nprog) {
#define U(name) glGetUniformLocation(d->nprog, "u_" #name)
        d->nu.model = U(model), d->nu.grid = U(grid), d->nu.on_body = U(on_body);
#undef U
        d->nvao = smooth_vertex_array();
    } else {
        log_warn("falling bodies will be drawn as blocks in every mode: %s", d->nin ? nerr : "no memory");
    }
    return d;
}

static void drop_blocks(body_mesh *m)
{
    if (m->vbo) glDeleteBuffers(1, &m->vbo);
    free(m->tiles);
    m->vbo = 0, m->tiles = NULL, m->tile_count = 0, m->blocks = false;
}

static void drop_nets(body_mesh *m)
{
    if (m->nvbo) glDeleteBuffers(1, &m->nvbo);
    if (m->nibo) glDeleteBuffers(1, &m->nibo);
    m->nvbo = m->nibo = 0, m->nindices = 0, m->nets = false;
}

static void drop(body_mesh *m)
{
    drop_blocks(m);
    drop_nets(m);
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
    mesh_smooth_free(&d->ntile);
    mesh_smooth_free(&d->nmesh);
    free(d->nin);
    if (d->nprog) glDeleteProgram(d->nprog);
    if (d->nvao) glDeleteVertexArrays(1, &d->nvao);
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

/* Meshes a body's blocks into one VBO, tile after tile. False when GL or
 * memory refused (the body is then not drawn, and tried again next frame). */
static bool build_blocks(body_draw *d, const body *b, body_mesh *out)
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

/* The entry of body b (made, empty, when it has none; NULL when out of
 * memory). */
static body_mesh *entry_of(body_draw *d, const body *b)
{
    for (int i = 0; i < d->count; i++)
        if (d->m[i].id == b->id) return &d->m[i];
    if (d->count == d->cap) {
        int cap = d->cap ? d->cap * 2 : 16;
        body_mesh *m = realloc(d->m, sizeof *m * (size_t)cap);
        if (!m) return NULL;
        d->m = m, d->cap = cap;
    }
    body_mesh *m = &d->m[d->count++];
    memset(m, 0, sizeof *m);
    m->id = b->id;
    return m;
}

/* Uploads the nets of body b (mesh_smooth_grid: its grid has air all
 * round, so the net is closed). False when memory or GL refused. */
static bool build_nets(body_draw *d, const body *b, float sharpness, body_mesh *m)
{
    drop_nets(m);
    if (!mesh_smooth_grid(b->mat, b->tint, b->size, sharpness, d->nin, &d->ntile, &d->nmesh)) return false;
    const smooth_mesh *sm = &d->nmesh;
    glCreateBuffers(1, &m->nvbo);
    glCreateBuffers(1, &m->nibo);
    glNamedBufferData(m->nvbo, (GLsizeiptr)(sizeof *sm->v * (size_t)(sm->vertices ? sm->vertices : 1)), sm->v,
                      GL_STATIC_DRAW);
    glNamedBufferData(m->nibo, (GLsizeiptr)(sizeof *sm->idx * 3 * (size_t)(sm->triangles ? sm->triangles : 1)),
                      sm->idx, GL_STATIC_DRAW);
    if (glGetError() == GL_OUT_OF_MEMORY) {
        drop_nets(m);
        return false;
    }
    m->nindices = 3 * sm->triangles;
    m->sharpness = sharpness;
    m->nets = true;
    return true;
}

/* The mesh body b is drawn with in this style, built if need be; false
 * when it cannot be (not drawn this frame, tried again the next). */
static bool ready(body_draw *d, const body *b, body_mesh *m, body_draw_style st)
{
    if (st.nets) return (m->nets && m->sharpness == st.sharpness) || build_nets(d, b, st.sharpness, m);
    if (!m->blocks) {
        m->blocks = build_blocks(d, b, m);
        if (!m->blocks) drop_blocks(m);
    }
    return m->blocks;
}

/* grid -> world relative to the camera's render origin (camera.h),
 * column-major: T(pos - origin) R T(-com) */
static void model_matrix(const body *b, const camera *cam, float out[16])
{
    float r[3][3];
    body_rotation(b, r);
    memset(out, 0, sizeof(float) * 16);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) out[j * 4 + i] = r[i][j];
        /* the body's frame to the render origin: integers, then its small float */
        out[12 + i] = (float)((double)(b->org[i] - cam->origin[i]) + b->pos[i]) -
                      (r[i][0] * b->com[0] + r[i][1] * b->com[1] + r[i][2] * b->com[2]);
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

/* Uses program p and sets what both programs (blocks and nets) take from
 * the view: camera, sun, fog, tints, atlas, light and the bodies' floor. */
static void use_program(GLuint p, const camera *cam, const render_settings *s)
{
    glPolygonMode(GL_FRONT_AND_BACK, s->wireframe ? GL_LINE : GL_FILL);
    glUseProgram(p);
#define U(name) glGetUniformLocation(p, "u_" #name)
    glUniformMatrix4fv(U(viewproj), 1, GL_FALSE, (const float *)cam->viewproj);
    glUniform3fv(U(camera), 1, cam->pos);
    vec3 sun = { s->sun[0], s->sun[1], s->sun[2] };
    glm_vec3_normalize(sun);
    glUniform3fv(U(sun), 1, sun);
    glUniform3fv(U(fog_color), 1, s->sky);
    glUniform1f(U(fog_start), render_fog_start(s));
    glUniform1f(U(fog_end), render_fog_end(s));
    glUniform3fv(U(tints), 8, &s->tints[0][0]);
    glUniform1i(U(atlas), 0);
    glUniform2f(U(light_floor), BODY_DRAW_LIGHT_FLOOR_SUN, BODY_DRAW_LIGHT_FLOOR_SKY);
#undef U
    glBindTextureUnit(0, s->atlas);
    light_shading_apply(p, &s->light, 1);
    compose_apply(p, &s->look, cam->pos, s->sun, COMPOSE_EMIT_UNIT);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
}

/* The blocks program and the state every blocks draw shares. */
static void begin(body_draw *d, const camera *cam, const render_settings *s)
{
    use_program(d->prog, cam, s);
    glBindVertexArray(d->vao);
    glVertexArrayElementBuffer(d->vao, d->ibo);
}

static void end(void)
{
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glEnable(GL_CULL_FACE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}

/* One pass of the bodies in d->order (the translucent one farthest first). */
static long draw_ordered(body_draw *d, const camera *cam, int pass)
{
    long tris = 0;
    glUniform1i(d->u.pass, pass);
    for (int k = 0; k < d->shown; k++) {
        const body_order *o = &d->order[pass == PASS_TRANSLUCENT ? d->shown - 1 - k : k];
        float model[16];
        model_matrix(o->b, cam, model);
        glUniformMatrix4fv(d->u.model, 1, GL_FALSE, model);
        glVertexArrayVertexBuffer(d->vao, 0, d->m[o->m].vbo, 0, sizeof(mesh_vertex));
        tris += draw_pass(d, &d->m[o->m], pass);
    }
    return tris;
}

/* world -> grid: the inverse of model_matrix (a rotation and a shift) */
static void grid_matrix(const float model[16], float out[16])
{
    memset(out, 0, sizeof(float) * 16);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) out[j * 4 + i] = model[i * 4 + j]; /* R^T */
        out[12 + i] = -(model[i * 4] * model[12] + model[i * 4 + 1] * model[13] + model[i * 4 + 2] * model[14]);
    }
    out[15] = 1;
}

/* The bodies in d->order as nets, as the smooth mode draws its terrain
 * (smooth.vert + smooth.frag: triplanar tiles by material, light read per
 * vertex half a voxel out, the cut tints), placed by the model matrix,
 * textured in the body's grid, with the bodies' light floor. */
static long draw_nets(body_draw *d, const camera *cam, const render_settings *s)
{
    use_program(d->nprog, cam, s);
    glVertexAttrib4f(3, 0.f, 0.f, 0.f, 0.f); /* smooth.vert's chunk: the model matrix places the body */
    glUniform1i(d->nu.on_body, 1);
    glBindVertexArray(d->nvao);
    long tris = 0;
    for (int k = 0; k < d->shown; k++) {
        const body_order *o = &d->order[k];
        const body_mesh *m = &d->m[o->m];
        if (!m->nindices) continue;
        float model[16], grid[16];
        model_matrix(o->b, cam, model);
        grid_matrix(model, grid);
        glUniformMatrix4fv(d->nu.model, 1, GL_FALSE, model);
        glUniformMatrix4fv(d->nu.grid, 1, GL_FALSE, grid);
        glVertexArrayVertexBuffer(d->nvao, 0, m->nvbo, 0, sizeof(smooth_vertex));
        glVertexArrayElementBuffer(d->nvao, m->nibo);
        glDrawElements(GL_TRIANGLES, m->nindices, GL_UNSIGNED_INT, NULL);
        tris += m->nindices / 3;
    }
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glBindVertexArray(0);
    return tris;
}

long body_draw_opaque(body_draw *d, body *const *v, int n, const camera *cam, const render_settings *s,
                      body_draw_style style)
{
    if (style.nets && !d->nprog) style.nets = false; /* no nets program: blocks */
    d->style = style;
    d->shown = 0;
    if (n > d->order_cap) {
        body_order *o = realloc(d->order, sizeof *o * (size_t)n);
        if (!o) return 0; /* nothing drawn this frame; the bodies still fall */
        d->order = o, d->order_cap = n;
    }
    /* forget the meshes of bodies gone (merged, removed) */
    for (int i = 0; i < d->count; i++) d->m[i].seen = false;
    for (int i = 0; i < n; i++) {
        body_mesh *m = entry_of(d, v[i]);
        if (m) m->seen = true;
    }
    int kept = 0;
    for (int i = 0; i < d->count; i++) {
        if (d->m[i].seen) d->m[kept++] = d->m[i];
        else drop(&d->m[i]);
    }
    d->count = kept;
    /* the bodies in the frustum, nearest first: early depth rejects what a
     * near crown hides of the ones behind it */
    for (int i = 0; i < n; i++) {
        /* the body's bounding sphere (its centre of mass is its centre) */
        vec3 c;
        for (int a = 0; a < 3; a++) c[a] = (float)((double)(v[i]->org[a] - cam->origin[a]) + v[i]->pos[a]);
        if (!camera_sphere_visible(cam, c, v[i]->radius)) continue;
        body_mesh *m = NULL;
        for (int k = 0; k < d->count && !m; k++)
            if (d->m[k].id == v[i]->id) m = &d->m[k];
        if (!m || !ready(d, v[i], m, style)) continue;
        float dist = glm_vec3_distance(c, (float *)cam->pos) - v[i]->radius;
        d->order[d->shown++] = (body_order){ dist, v[i], (int)(m - d->m) };
    }
    if (!d->shown) return 0; /* (d->order may be NULL: no body yet) */
    qsort(d->order, (size_t)d->shown, sizeof *d->order, cmp_order);
    if (style.nets) return draw_nets(d, cam, s);
    begin(d, cam, s);
    long tris = draw_ordered(d, cam, PASS_OPAQUE);
    end();
    return tris;
}

long body_draw_translucent(body_draw *d, const camera *cam, const render_settings *s)
{
    bool any = false;
    for (int k = 0; k < d->shown && !any && !d->style.nets; k++) { /* nets are all opaque, as smooth terrain */
        const body_mesh *m = &d->m[d->order[k].m];
        for (int t = 0; t < m->tile_count && !any; t++) any = m->tiles[t].count[PASS_TRANSLUCENT] > 0;
    }
    if (!any) return 0;
    begin(d, cam, s);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    long tris = draw_ordered(d, cam, PASS_TRANSLUCENT);
    end();
    return tris;
}
