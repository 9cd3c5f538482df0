#include "gfx/occlusion.h"

#include <glad/gl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"

/* Depth values are stored with 24 bits and interpolated by the rasterizer
 * with its own rounding; a box must lie this far behind a tile to count as
 * hidden. Far larger than either error (2^-24), far smaller than the gap
 * between a hill and what it hides (about 1e-4 at 50 voxels). */
#define DEPTH_EPS 1e-5f

bool occlusion_tiles_build(occlusion_tiles *t, const uint32_t *depth, int w, int h)
{
    t->w = w, t->h = h;
    t->tw = (w + OCCLUSION_TILE - 1) / OCCLUSION_TILE, t->th = (h + OCCLUSION_TILE - 1) / OCCLUSION_TILE;
    size_t n = (size_t)t->tw * (size_t)t->th;
    if (n > t->cap) {
        float *f = realloc(t->far, sizeof *f * n);
        if (!f) {
            t->tw = t->th = 0;
            return false;
        }
        t->far = f, t->cap = n;
    }
    /* A tile at a time, its rows 8 depths wide: the fixed-width max below
     * compiles to packed instructions, where a pixel at a time was a
     * compare and a branch each (1.0-1.2 ms a read of a 1280x720 depth, up
     * to four reads a frame, on the main thread). */
    const int full = w / OCCLUSION_TILE; /* tiles of a whole 8 columns */
    for (int ty = 0; ty < t->th; ty++) {
        const int y0 = ty * OCCLUSION_TILE, y1 = y0 + OCCLUSION_TILE < h ? y0 + OCCLUSION_TILE : h;
        float *tile = t->far + (size_t)ty * (size_t)t->tw;
        for (int tx = 0; tx < full; tx++) {
            uint32_t m[OCCLUSION_TILE] = { 0 };
            for (int y = y0; y < y1; y++) {
                const uint32_t *p = depth + (size_t)y * (size_t)w + (size_t)tx * OCCLUSION_TILE;
                for (int k = 0; k < OCCLUSION_TILE; k++) m[k] = p[k] > m[k] ? p[k] : m[k];
            }
            uint32_t v = m[0];
            for (int k = 1; k < OCCLUSION_TILE; k++) v = m[k] > v ? m[k] : v;
            tile[tx] = occlusion_depth_z(v);
        }
        if (full < t->tw) { /* the last, narrower column of tiles */
            uint32_t v = 0;
            for (int y = y0; y < y1; y++)
                for (int x = full * OCCLUSION_TILE; x < w; x++) {
                    uint32_t d = depth[(size_t)y * (size_t)w + (size_t)x];
                    v = d > v ? d : v;
                }
            tile[full] = occlusion_depth_z(v);
        }
    }
    return true;
}

void occlusion_tiles_free(occlusion_tiles *t)
{
    free(t->far);
    memset(t, 0, sizeof *t);
}

bool occlusion_box_hidden(const occlusion_tiles *t, const float viewproj[16], const float lo[3], const float hi[3])
{
    if (t->tw <= 0 || t->th <= 0) return false;
    float x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY, znear = INFINITY;
    for (int c = 0; c < 8; c++) {
        vec4 p = { c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2], 1.f }, q;
        glm_mat4_mulv((vec4 *)(uintptr_t)viewproj, p, q);
        /* a corner at or before the near plane: the box reaches the eye */
        if (q[3] <= 1e-4f || q[2] < -q[3]) return false;
        float sx = (q[0] / q[3] * 0.5f + 0.5f) * (float)t->w, sy = (q[1] / q[3] * 0.5f + 0.5f) * (float)t->h;
        float z = q[2] / q[3] * 0.5f + 0.5f;
        x0 = fminf(x0, sx), x1 = fmaxf(x1, sx), y0 = fminf(y0, sy), y1 = fmaxf(y1, sy);
        /* window z grows with eye depth, which is linear over the box:
         * its nearest point is a corner */
        znear = fminf(znear, z);
    }
    if (x1 < 0.f || y1 < 0.f || x0 > (float)t->w || y0 > (float)t->h) return false; /* off screen: the frustum's call */
    /* every pixel whose centre the projection can cover, and one more each
     * side for the rasterizer's rounding */
    int px0 = (int)floorf(x0) - 1, px1 = (int)ceilf(x1) + 1, py0 = (int)floorf(y0) - 1, py1 = (int)ceilf(y1) + 1;
    px0 = px0 < 0 ? 0 : px0, py0 = py0 < 0 ? 0 : py0;
    px1 = px1 >= t->w ? t->w - 1 : px1, py1 = py1 >= t->h ? t->h - 1 : py1;
    float limit = znear - DEPTH_EPS;
    for (int ty = py0 / OCCLUSION_TILE; ty <= py1 / OCCLUSION_TILE; ty++) {
        const float *row = t->far + (size_t)ty * (size_t)t->tw;
        for (int tx = px0 / OCCLUSION_TILE; tx <= px1 / OCCLUSION_TILE; tx++)
            if (row[tx] >= limit) return false;
    }
    return true;
}

void occlusion_cell_order(const float eye[3], const float origin[3], int order[OCCLUSION_CELLS])
{
    float d[OCCLUSION_CELLS];
    const float half = (float)(1 << OCCLUSION_CELL_BITS) * 0.5f;
    for (int c = 0; c < OCCLUSION_CELLS; c++) {
        int i[3] = { c % OCCLUSION_CELLS_AXIS, c / OCCLUSION_CELLS_AXIS % OCCLUSION_CELLS_AXIS,
                     c / (OCCLUSION_CELLS_AXIS * OCCLUSION_CELLS_AXIS) };
        float s = 0.f;
        for (int k = 0; k < 3; k++) {
            float e = origin[k] + (float)(i[k] << OCCLUSION_CELL_BITS) + half - eye[k];
            s += e * e;
        }
        /* insertion: 64 cells, already nearly sorted along the grid */
        int at = c;
        while (at > 0 && d[at - 1] > s) d[at] = d[at - 1], order[at] = order[at - 1], at--;
        d[at] = s, order[at] = c;
    }
}

struct render_occlusion {
    const camera *cam;
    int w, h;
    float next;    /* the next ring: a chunk beyond it reads the depth again */
    int rings_left;
    bool on;       /* culling at all this frame */
    bool have;     /* tiles hold this frame's depth */
    bool warned_samples; /* a multisampled framebuffer (no depth to read), said once */
    uint32_t *depth; /* as read: occlusion_depth_z */
    size_t depth_cap;
    occlusion_tiles tiles;
    occlusion_stats stats;
};

render_occlusion *occlusion_create(void) { return calloc(1, sizeof(render_occlusion)); }

void occlusion_destroy(render_occlusion *o)
{
    if (!o) return;
    occlusion_tiles_free(&o->tiles);
    free(o->depth);
    free(o);
}

void occlusion_begin(render_occlusion *o, const camera *cam, int w, int h, float near, int rings)
{
    if (!o) return; /* none could be made: occlusion_keep keeps everything */
    o->cam = cam, o->w = w, o->h = h;
    o->next = near > 0.f ? near : 0.f;
    o->rings_left = w > 0 && h > 0 ? rings : 0;
    o->on = rings > 0;
    o->have = false;
    memset(&o->stats, 0, sizeof o->stats);
}

/* The depth drawn so far, into tiles: the one place that waits for the
 * rasterizer in the middle of a frame. */
static void read_depth(render_occlusion *o)
{
    size_t n = (size_t)o->w * (size_t)o->h;
    if (n > o->depth_cap) {
        uint32_t *d = realloc(o->depth, sizeof *d * n);
        if (!d) {
            log_warn("occlusion culling: no memory for a %dx%d depth image; off this frame", o->w, o->h);
            o->rings_left = 0, o->have = false;
            return;
        }
        o->depth = d, o->depth_cap = n;
    }
    /* a multisampled framebuffer (a driver that forces antialiasing) has
     * no depth to read: draw everything rather than guess */
    GLint samples = 0;
    glGetIntegerv(GL_SAMPLE_BUFFERS, &samples);
    if (samples) {
        if (!o->warned_samples) log_warn("occlusion culling: the framebuffer is multisampled, its depth cannot be read; off");
        o->warned_samples = true, o->rings_left = 0, o->have = false;
        return;
    }
    /* errors the frame raised before this point are the drawing's, not the
     * read's: say them as the app would, then judge the read alone */
    for (GLenum e; (e = glGetError()) != GL_NO_ERROR;) log_warn("GL error 0x%04x while drawing (before the occlusion read-back)", e);
    uint64_t t0 = timer_ns();
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glReadPixels(0, 0, o->w, o->h, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, o->depth);
    uint64_t t1 = timer_ns();
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) { /* stale or no depth: nothing may be culled by it */
        log_warn("occlusion culling: GL error 0x%04x reading the depth; off this frame", e);
        o->rings_left = 0, o->have = false;
        return;
    }
    o->have = occlusion_tiles_build(&o->tiles, o->depth, o->w, o->h);
    o->stats.read_ms += (double)(t1 - t0) * 1e-6, o->stats.tiles_ms += (double)(timer_ns() - t1) * 1e-6;
    o->stats.reads++;
}

bool occlusion_keep(render_occlusion *o, float dist, const float lo[3], const float hi[3])
{
    if (!o || !o->on) return true;
    /* the visible set tests a chunk's sphere; its parts' boxes can still
     * lie outside (the octants behind the eye of the chunk it stands in) */
    if (!camera_box_visible(o->cam, lo, hi)) {
        o->stats.outside++;
        return false;
    }
    if (dist > o->next && o->rings_left > 0) {
        read_depth(o);
        o->rings_left--;
        o->next *= 2.f;
    }
    if (!o->have) return true;
    o->stats.tested++;
    if (!occlusion_box_hidden(&o->tiles, (const float *)o->cam->viewproj, lo, hi)) return true;
    o->stats.hidden++;
    return false;
}

bool occlusion_keep_parts(render_occlusion *o, float dist, const float origin[3], const float (*lo)[3],
                          const float (*hi)[3], int n, bool *keep)
{
    bool any = false, tested = false;
    for (int i = 0; i < n; i++) {
        keep[i] = true;
        if (lo[i][0] > hi[i][0]) continue;
        const float a[3] = { origin[0] + lo[i][0], origin[1] + lo[i][1], origin[2] + lo[i][2] };
        const float b[3] = { origin[0] + hi[i][0], origin[1] + hi[i][1], origin[2] + hi[i][2] };
        keep[i] = occlusion_keep(o, dist, a, b);
        tested = true, any |= keep[i];
    }
    return any || !tested;
}

occlusion_stats occlusion_get_stats(const render_occlusion *o)
{
    return o ? o->stats : (occlusion_stats){ 0 };
}
