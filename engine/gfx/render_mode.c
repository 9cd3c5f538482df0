#include "gfx/render_mode.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "voxel/chunk.h"
#include "voxel/material.h"

/* The registry is written while the app starts (each mode's owner inserts
 * it) and only read afterwards. */
static const render_mode *g_modes[RENDER_MODE_MAX];
static int g_mode_count;

bool render_mode_register(const render_mode *m)
{
    if (!m || !m->name) return false;
    for (int i = 0; i < g_mode_count; i++) {
        if (g_modes[i] == m) return true;
        if (strcmp(g_modes[i]->name, m->name) == 0) return false;
    }
    if (g_mode_count == RENDER_MODE_MAX) return false;
    g_modes[g_mode_count++] = m;
    return true;
}

const render_mode *render_mode_find(const char *name)
{
    for (int i = 0; name && i < g_mode_count; i++)
        if (strcmp(g_modes[i]->name, name) == 0) return g_modes[i];
    return NULL;
}

int render_mode_count(void) { return g_mode_count; }

const render_mode *render_mode_at(int i) { return i >= 0 && i < g_mode_count ? g_modes[i] : NULL; }

const render_mode *render_mode_next(const render_mode *m)
{
    if (g_mode_count == 0) return NULL;
    for (int i = 0; i < g_mode_count; i++)
        if (g_modes[i] == m) return g_modes[(i + 1) % g_mode_count];
    return g_modes[0];
}

float render_chunk_sphere(const camera *cam, int cx, int cy, int cz, float centre[3])
{
    const int h = CHUNK_SIZE / 2;
    camera_rel(cam, cx * CHUNK_SIZE + h, cy * CHUNK_SIZE + h, cz * CHUNK_SIZE + h, centre);
    return CHUNK_SIZE * 0.8660254f; /* half the chunk diagonal */
}

static int cmp_dist_asc(const void *a, const void *b)
{
    float da = ((const render_item *)a)->dist, db = ((const render_item *)b)->dist;
    int ia = ((const render_item *)a)->index, ib = ((const render_item *)b)->index;
    /* ties by index: the order (and so the picture) never depends on qsort */
    return da != db ? (da > db) - (da < db) : (ia > ib) - (ia < ib);
}

int render_visible_set(const camera *cam, float view_distance, const world_grid *g, const unsigned char *has,
                       render_item *out)
{
    int n = g->cx * g->cy * g->cz, count = 0;
    for (int i = 0; i < n; i++) {
        if (has && !has[i]) continue;
        int x, y, z;
        world_grid_coords(g, i, &x, &y, &z);
        vec3 c;
        float radius = render_chunk_sphere(cam, x, y, z, c);
        float d = glm_vec3_distance(c, (float *)cam->pos);
        /* the view distance is measured on the map, as the fog is: from
         * high above, the ground under the eye stays in view */
        float h = hypotf(c[0] - cam->pos[0], c[2] - cam->pos[2]);
        if (h - radius > view_distance) continue;
        if (!camera_sphere_visible(cam, c, radius)) continue;
        out[count++] = (render_item){ i, d };
    }
    qsort(out, (size_t)count, sizeof *out, cmp_dist_asc);
    return count;
}

void render_frame_begin(const render_settings *s)
{
    glBindFramebuffer(GL_FRAMEBUFFER, s->framebuffer);
    glViewport(0, 0, s->width, s->height);
    glClearColor(s->sky[0], s->sky[1], s->sky[2], 1);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
}

/* Face directions of chunk (x, y, z) that can face the eye: a face of
 * direction +x lies on a plane x = p with p > the chunk's low x and is front
 * facing only when eye.x > p, and so on. Faces left out are exactly those
 * back-face culling would drop: the picture is the same. */
unsigned render_facing_mask(const camera *cam, int x, int y, int z)
{
    const float *eye = cam->pos;
    float lo[3];
    camera_rel(cam, x * CHUNK_SIZE, y * CHUNK_SIZE, z * CHUNK_SIZE, lo);
    unsigned m = 0;
    for (int f = 0; f < FACE_COUNT; f++) {
        for (int a = 0; a < 3; a++) {
            int n = face_normal[f][a];
            if (n > 0 && eye[a] > lo[a]) m |= 1u << f;
            if (n < 0 && eye[a] < lo[a] + CHUNK_SIZE) m |= 1u << f;
        }
    }
    return m;
}
