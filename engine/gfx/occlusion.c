#include "gfx/occlusion.h"

#include <glad/gl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "gfx/occlusion_gpu.h"
#include "gfx/occlusion_judge.h"

/* Depth values are stored with 24 bits and interpolated by the rasterizer
 * with its own rounding; a box must lie this far behind a tile to count as
 * hidden. Far larger than either error (2^-24), far smaller than the gap
 * between a hill and what it hides (about 1e-4 at 50 voxels). */
#define DEPTH_EPS 1e-5f

bool occlusion_tiles_size(occlusion_tiles *t, int w, int h)
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
    return true;
}

bool occlusion_tiles_build(occlusion_tiles *t, const uint32_t *depth, int w, int h)
{
    if (!occlusion_tiles_size(t, w, h)) return false;
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

/* render.occlusion_rings' largest */
#define RINGS_MAX 8
/* A ring whose read hid too little is read again after 2, 4, 8, ... then
 * every PROBE_MAX frames (about two seconds at 60 Hz) until a read pays
 * again: then every frame. A probe is a read like any other (1.5-2 ms on
 * llvmpipe), so the rings probe in different frames, never three reads'
 * worth of waiting in one frame: in a 60 s flight over open hills the
 * frames where all three probed together were most of the slowest 5%,
 * and at 64 frames apart the lone probes still made up 4.5% of a 10 s
 * flight's frames. A new view does not wait for its probe (occlusion_begin). */
#define PROBE_MAX 128
/* Reads timed each way (after one to warm up) before
 * render.occlusion_gpu 2 keeps the faster. */
#define WAY_SAMPLES 7

enum { WAY_UNDECIDED, WAY_CPU, WAY_GPU };

struct render_occlusion {
    const camera *cam;
    int w, h;
    int asked;     /* rings asked of occlusion_begin, */
    float asked_near; /* and the first one's radius */
    float next;    /* the next ring: a chunk beyond it reads the depth again */
    int rings, rings_left;
    bool on;       /* culling at all this frame */
    bool have;     /* tiles hold this frame's depth */
    bool warned_samples; /* a multisampled framebuffer (no depth to read), said once */
    uint32_t *depth; /* as read: occlusion_depth_z */
    size_t depth_cap;
    occlusion_tiles tiles;
    occlusion_stats stats;
    /* Each ring's read this frame (whether it ran, the parts tested
     * against its tiles and those hidden by them), and the frame it
     * reads next (occlusion_set_adaptive). */
    bool adaptive;
    long frame;
    int ring; /* whose read the tiles hold */
    bool ring_read[RINGS_MAX];
    int ring_tested[RINGS_MAX], ring_hidden[RINGS_MAX];
    /* the parts in each ring's range this frame, read or not, and when it
     * was last judged: a view that changes (a turn towards a forest, a
     * teleport) makes a waiting ring read at once */
    int at;
    int parts[RINGS_MAX], parts_judged[RINGS_MAX];
    long due[RINGS_MAX];
    int wait[RINGS_MAX];
    /* How the depth becomes tiles (occlusion_set_gpu): the way render.
     * occlusion_gpu 2 settled on, with the reads it timed to settle; the
     * shader's way is given up for good, said once, where it fails. */
    int gpu_mode, way;
    bool gpu_failed;
    float way_ms[3][WAY_SAMPLES + 1];
    int way_n[3];
    occlusion_gpu *gpu;
    /* whether culling pays at all here, by the frames' times
     * (occlusion_set_judged); the last frame's start */
    bool judged;
    occlusion_judge judge;
    uint64_t frame_start;
};

render_occlusion *occlusion_create(void)
{
    render_occlusion *o = calloc(1, sizeof(render_occlusion));
    if (o) o->adaptive = true, occlusion_judge_init(&o->judge);
    return o;
}

void occlusion_set_gpu(render_occlusion *o, int mode)
{
    if (!o || o->gpu_mode == mode) return;
    o->gpu_mode = mode, o->way = WAY_UNDECIDED; /* a new setting: measured afresh */
    memset(o->way_n, 0, sizeof o->way_n);
}

void occlusion_set_adaptive(render_occlusion *o, bool on)
{
    if (o) o->adaptive = on;
}

void occlusion_set_judged(render_occlusion *o, bool on)
{
    if (!o || o->judged == on) return;
    o->judged = on;
    occlusion_judge_init(&o->judge); /* a new setting: judged afresh */
    o->frame_start = 0;
}

bool occlusion_judge_verdict(const render_occlusion *o, int *verdicts, int *off)
{
    if (verdicts) *verdicts = o ? o->judge.verdicts : 0;
    if (off) *off = o ? o->judge.verdicts_off : 0;
    return !o || !o->judged || o->judge.verdict;
}

static int pick_way(const render_occlusion *o)
{
    if (o->gpu_mode == 0 || o->gpu_failed) return WAY_CPU;
    if (o->way) return o->way; /* mode 2, measured */
    if (o->gpu_mode == 1) return WAY_GPU;
    return o->way_n[WAY_GPU] <= o->way_n[WAY_CPU] ? WAY_GPU : WAY_CPU; /* alternately, while measuring */
}

static int cmp_ms(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* render.occlusion_gpu 2: one more read timed; with enough each way, the
 * faster for good (said once, with the medians). */
static void time_way(render_occlusion *o, int way, double ms)
{
    if (o->gpu_mode != 2 || o->way || o->gpu_failed || o->way_n[way] > WAY_SAMPLES) return;
    o->way_ms[way][o->way_n[way]++] = (float)ms; /* [0]: the warm-up, left out */
    if (o->way_n[WAY_CPU] <= WAY_SAMPLES || o->way_n[WAY_GPU] <= WAY_SAMPLES) return;
    float med[3];
    for (int k = WAY_CPU; k <= WAY_GPU; k++) {
        qsort(o->way_ms[k] + 1, WAY_SAMPLES, sizeof(float), cmp_ms);
        med[k] = o->way_ms[k][1 + WAY_SAMPLES / 2];
    }
    o->way = med[WAY_GPU] < med[WAY_CPU] ? WAY_GPU : WAY_CPU;
    log_dev("occlusion culling reduces the depth %s (a read: compute shader %.2f ms, CPU %.2f ms)",
             o->way == WAY_GPU ? "with a compute shader" : "on the CPU", med[WAY_GPU], med[WAY_CPU]);
}

void occlusion_destroy(render_occlusion *o)
{
    if (!o) return;
    occlusion_gpu_destroy(o->gpu);
    occlusion_tiles_free(&o->tiles);
    free(o->depth);
    free(o);
}

/* Whether a ring's read paid: it hid at least one in 8 of the parts
 * tested against it. On llvmpipe a read's reading and tiling take 1-2 ms
 * of the main thread, 7-10% of a 15-20 ms frame, and only the hidden
 * parts' vertices are saved (their fragments would fail early depth):
 * for a ring holding half the view's parts that breaks even at about a
 * fifth of them hidden. The measured views lie far to either side: from
 * the ground the rings hide 13-99% (taiga), 95% and more (deciduous),
 * 54-77% (desert); from 110 voxels up over the hills none, over the
 * deciduous forest 0, 2 and 9% (`stats` after `frames 20`, 1280x720,
 * view.distance 256). An eighth rather than a fifth keeps reading the
 * rings in between (the hills from the ground: 0, 15 and 21%). */
static bool ring_paid(int tested, int hidden) { return hidden > 0 && hidden * 8 >= tested; }

void occlusion_begin(render_occlusion *o, const camera *cam, int w, int h, float near, int rings)
{
    if (!o) return; /* none could be made: occlusion_keep keeps everything */
    o->asked = w > 0 && h > 0 && rings > 0 ? (rings > RINGS_MAX ? RINGS_MAX : rings) : 0;
    o->asked_near = near > 0.f ? near : 0.f;
    /* whether this frame culls at all (occlusion_judge), timed from the
     * last frame's start; with culling off the judge starts afresh */
    const uint64_t now = timer_ns();
    const double last_ms = o->frame_start ? (double)(now - o->frame_start) * 1e-6 : -1.0;
    o->frame_start = now;
    const bool judged_off = rings > 0 && o->judged && !occlusion_judge_next(&o->judge, last_ms);
    if (rings <= 0) occlusion_judge_init(&o->judge), o->frame_start = 0;
    if (judged_off) {
        /* no depth read this frame: parts are still tested against the
         * frustum while culling is on (the judge's frames without reads);
         * the rings' judgement below waits for a frame that reads */
        o->cam = cam, o->w = w, o->h = h;
        o->rings = o->rings_left = 0;
        o->on = true, o->have = false;
        o->at = -1;
        memset(&o->stats, 0, sizeof o->stats);
        o->stats.judged_off = true;
        return;
    }
    /* last frame's reads, judged: one that paid reads every frame, one
     * that did not waits twice as long as it last did */
    for (int r = 0; r < RINGS_MAX; r++) {
        if (!o->ring_read[r]) {
            /* half as many parts again as when it was judged, or half as
             * many: a new view (a turn, a teleport, a climb or a descent) */
            const int p = o->parts[r], j = o->parts_judged[r];
            if (o->wait[r] && (p > j + j / 2 + 32 || p + 32 < j / 2)) o->due[r] = o->frame + 1;
            continue;
        }
        o->parts_judged[r] = o->parts[r];
        o->wait[r] = ring_paid(o->ring_tested[r], o->ring_hidden[r]) ? 0
                     : o->wait[r] ? (o->wait[r] * 2 > PROBE_MAX ? PROBE_MAX : o->wait[r] * 2) : 2;
        o->due[r] = o->frame + (o->wait[r] ? o->wait[r] + r : 1); /* + r: the rings probe apart */
    }
    o->frame++;
    memset(o->ring_read, 0, sizeof o->ring_read);
    memset(o->ring_tested, 0, sizeof o->ring_tested);
    memset(o->ring_hidden, 0, sizeof o->ring_hidden);
    memset(o->parts, 0, sizeof o->parts);
    o->at = -1;
    o->cam = cam, o->w = w, o->h = h;
    o->next = near > 0.f ? near : 0.f;
    rings = rings > RINGS_MAX ? RINGS_MAX : rings;
    o->rings = o->rings_left = w > 0 && h > 0 ? rings : 0;
    o->on = rings > 0;
    o->have = false;
    memset(&o->stats, 0, sizeof o->stats);
}

/* The tiles by the compute shader; false when it cannot (then never
 * again this run: the reason is said once and the CPU way takes over). */
static bool reduce_on_gpu(render_occlusion *o)
{
    char err[512];
    if (!o->gpu && !(o->gpu = occlusion_gpu_create(err, sizeof err))) {
        log_warn("occlusion culling: %s; reducing the depth on the CPU", err);
        o->gpu_failed = true;
        return false;
    }
    GLint fb = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &fb);
    uint64_t t0 = timer_ns();
    if (!occlusion_gpu_tiles(o->gpu, (unsigned)fb, o->w, o->h, &o->tiles, err, sizeof err)) {
        log_warn("occlusion culling: %s; reducing the depth on the CPU", err);
        o->gpu_failed = true;
        return false;
    }
    double ms = (double)(timer_ns() - t0) * 1e-6;
    o->stats.read_ms += ms;
    time_way(o, WAY_GPU, ms);
    return true;
}

/* The depth drawn so far, into tiles: the one place that waits for the
 * rasterizer in the middle of a frame. */
static void read_depth(render_occlusion *o)
{
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
    if (pick_way(o) == WAY_GPU && reduce_on_gpu(o)) {
        o->have = true;
        o->stats.reads++;
        return;
    }
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
    uint64_t t2 = timer_ns();
    o->stats.read_ms += (double)(t1 - t0) * 1e-6, o->stats.tiles_ms += (double)(t2 - t1) * 1e-6;
    o->stats.reads++;
    time_way(o, WAY_CPU, (double)(t2 - t0) * 1e-6);
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
        /* a ring not due keeps the tiles an earlier ring read: farther
         * than this frame's depth now, so still never too much hidden */
        const int r = o->at = o->rings - o->rings_left;
        if (!o->adaptive || o->frame >= o->due[r]) {
            read_depth(o);
            if (o->have) o->ring = r, o->ring_read[r] = true;
        } else {
            o->stats.skipped++;
        }
        if (o->rings_left > 0) o->rings_left--;
        o->next *= 2.f;
    }
    if (o->at >= 0) o->parts[o->at]++;
    if (!o->have) return true;
    o->stats.tested++;
    o->ring_tested[o->ring]++;
    if (!occlusion_box_hidden(&o->tiles, (const float *)o->cam->viewproj, lo, hi)) return true;
    o->stats.hidden++;
    o->ring_hidden[o->ring]++;
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

int occlusion_rings_asked(const render_occlusion *o, float *near)
{
    if (near) *near = o ? o->asked_near : 0.f;
    return o ? o->asked : 0;
}

occlusion_stats occlusion_get_stats(const render_occlusion *o)
{
    return o ? o->stats : (occlusion_stats){ 0 };
}
