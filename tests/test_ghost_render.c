/* The cutting tool's ghost drawn headless (EGL surfaceless, Mesa llvmpipe):
 * the shape shows where the pose transform puts it, tinted over what is
 * behind it, faintly through terrain in front, and leaves GL as found. */
#include "test_support.h"

#include <glad/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/atlas.h"
#include "gfx/camera.h"
#include "gfx/ghost.h"
#include "gfx/renderer.h"
#include "gfx/screenshot.h"
#include "mesh/mesh_world.h"
#include "platform/platform.h"

static shape make_shape(const char *formula, int sx, int sy, int sz)
{
    shape s = { 0 };
    char err[256];
    if (!shape_from_formula(&s, formula, sx, sy, sz, err, sizeof err)) fail_msg("%s", err);
    return s;
}

#define W 160
#define H 120
static const float k_bg[3] = { 0.2f, 0.2f, 0.4f }; /* exact in 8 bits: 51 51 102 */
static const float k_tool[4] = { 1.0f, 0.5f, 0.1f, 0.6f };

typedef struct scene {
    platform *plat;
    ghost_renderer *ghost;
} scene;

static int setup(void **state)
{
    scene *s = calloc(1, sizeof *s);
    char err[1024];
    s->plat = platform_create(&(platform_desc){ .width = W, .height = H, .headless = true }, err, sizeof err);
    if (!s->plat) {
        print_error("headless context: %s\n", err);
        return -1;
    }
    s->ghost = ghost_create(err, sizeof err);
    if (!s->ghost) {
        print_error("%s\n", err);
        return -1;
    }
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    scene *s = *state;
    ghost_destroy(s->ghost);
    platform_destroy(s->plat);
    free(s);
    return 0;
}

static camera make_camera(float x, float y, float z, float yaw, float pitch)
{
    camera c = { .pos = { x, y, z }, .yaw = yaw, .pitch = pitch, .fov = 70, .aspect = (float)W / H, .znear = 0.05f,
                 .zfar = 400 };
    camera_update(&c);
    return c;
}

static void set_shape(scene *s, const char *formula, int sx, int sy, int sz)
{
    shape sh = make_shape(formula, sx, sy, sz);
    assert_true(ghost_set_shape(s->ghost, &sh));
    shape_free(&sh);
}

/* Clears to the background (depth 1 everywhere, or `wall_depth` left of
 * column wall_x: an opaque wall of the background colour in front of the
 * tool there), draws the ghost, reads the image back. */
static ghost_style g_style = GHOST_SOLID; /* what draw() draws with */

static uint8_t *draw(scene *s, const camera *cam, const octree_pose *pose, int wall_x, double wall_depth)
{
    unsigned fb = platform_framebuffer(s->plat);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glViewport(0, 0, W, H);
    glClearColor(k_bg[0], k_bg[1], k_bg[2], 1);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (wall_x > 0) {
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, 0, wall_x, H);
        glClearDepth(wall_depth);
        glClear(GL_DEPTH_BUFFER_BIT);
        glClearDepth(1.0);
        glDisable(GL_SCISSOR_TEST);
    }
    if (g_style == GHOST_SOLID) ghost_draw(s->ghost, cam, pose, k_tool, fb, W, H);
    else ghost_draw_style(s->ghost, cam, pose, k_tool, fb, W, H, g_style);
    uint8_t *px = screenshot_read(fb, W, H);
    assert_non_null(px);
    return px;
}

static const uint8_t *pixel(const uint8_t *px, int x, int y) { return px + ((size_t)y * W + (size_t)x) * 4; }

/* Sum over RGB of |a - b| in 0..1 units. */
static float diff(const uint8_t *a, const float b[3])
{
    float d = 0;
    for (int k = 0; k < 3; k++) d += fabsf((float)a[k] / 255.f - b[k]);
    return d;
}

static bool is_background(const uint8_t *p)
{
    return p[0] == 51 && p[1] == 51 && p[2] == 102;
}

/* Tinted: clearly off the background, and nearer the tool colour. */
static bool is_tinted(const uint8_t *p)
{
    float bg_to_tool = fabsf(k_bg[0] - k_tool[0]) + fabsf(k_bg[1] - k_tool[1]) + fabsf(k_bg[2] - k_tool[2]);
    return diff(p, k_bg) > 0.08f && diff(p, k_tool) < bg_to_tool - 0.05f;
}

/* The CPU side of the pose: the octree's p -> pos + rot (p - pivot), then
 * viewproj, then pixels (x right, y down, top row first like the image). */
static void project(const camera *cam, const octree_pose *pose, const float pivot[3], const float p[3], float out[2])
{
    float w[3];
    for (int i = 0; i < 3; i++)
        w[i] = pose->pos[i] + pose->rot[i][0] * (p[0] - pivot[0]) + pose->rot[i][1] * (p[1] - pivot[1]) +
               pose->rot[i][2] * (p[2] - pivot[2]);
    vec4 c;
    glm_mat4_mulv((vec4 *)cam->viewproj, (vec4){ w[0], w[1], w[2], 1 }, c);
    assert_true(c[3] > 0); /* in front of the eye */
    out[0] = (c[0] / c[3] * 0.5f + 0.5f) * W;
    out[1] = (0.5f - c[1] / c[3] * 0.5f) * H;
}

static float cross2(const float o[2], const float a[2], const float b[2])
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static int cmp_point(const void *a, const void *b)
{
    const float *p = a, *q = b;
    if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}

/* A convex polygon in pixels, one consistent turn. */
typedef struct hull {
    float p[17][2];
    int n;
} hull;

/* Convex hull of the 8 projected corners of the box [lo, hi) (monotone chain). */
static hull box_hull(const camera *cam, const octree_pose *pose, const float pivot[3], const float lo[3],
                     const float hi[3])
{
    hull h;
    float (*out)[2] = h.p;
    float pts[8][2];
    for (int i = 0; i < 8; i++) {
        float p[3] = { (i & 1) ? hi[0] : lo[0], (i & 2) ? hi[1] : lo[1], (i & 4) ? hi[2] : lo[2] };
        project(cam, pose, pivot, p, pts[i]);
    }
    qsort(pts, 8, sizeof pts[0], cmp_point);
    int k = 0;
    for (int i = 0; i < 8; i++) {
        while (k >= 2 && cross2(out[k - 2], out[k - 1], pts[i]) <= 0) k--;
        memcpy(out[k++], pts[i], sizeof pts[i]);
    }
    for (int i = 6, t = k + 1; i >= 0; i--) {
        while (k >= t && cross2(out[k - 2], out[k - 1], pts[i]) <= 0) k--;
        memcpy(out[k++], pts[i], sizeof pts[i]);
    }
    h.n = k - 1;
    return h;
}

/* Signed distance in pixels of (x, y) from the hull's edges: > 0 inside by
 * at least that much, < 0 outside by at least its size. */
static float hull_depth(const hull *h, float x, float y)
{
    float best = INFINITY;
    for (int i = 0; i < h->n; i++) {
        const float *a = h->p[i], *b = h->p[(i + 1) % h->n];
        float ex = b[0] - a[0], ey = b[1] - a[1], len = sqrtf(ex * ex + ey * ey);
        float d = (ex * (y - a[1]) - ey * (x - a[0])) / len;
        if (d < best) best = d;
    }
    return best;
}

/* Every pixel clearly inside the predicted silhouette is tinted, every
 * pixel clearly outside is exactly background. Returns the inside count. */
static int check_silhouette(const uint8_t *px, const hull *h)
{
    int inside = 0, outside = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float d = hull_depth(h, (float)x + 0.5f, (float)y + 0.5f);
            const uint8_t *p = pixel(px, x, y);
            if (d > 1.5f) {
                if (!is_tinted(p)) fail_msg("pixel %d,%d inside the silhouette is %d %d %d", x, y, p[0], p[1], p[2]);
                inside++;
            } else if (d < -1.5f) {
                if (!is_background(p)) fail_msg("pixel %d,%d outside the silhouette is %d %d %d", x, y, p[0], p[1], p[2]);
                outside++;
            }
        }
    assert_true(outside > 0);
    return inside;
}

/* A 5^3 cube at the origin, 12 voxels in front of the eye. */
static void test_cube(void **state)
{
    scene *s = *state;
    set_shape(s, "1", 5, 5, 5);
    camera cam = make_camera(0, 0, 12, 0, 0);
    octree_pose pose;
    octree_pose_identity(&pose, (float[3]){ 0, 0, 0 });
    uint8_t *px = draw(s, &cam, &pose, 0, 1);
    const uint8_t *c = pixel(px, W / 2, H / 2);
    assert_true(is_tinted(c));
    assert_true(c[0] > 51 + 60); /* red rises toward the tool's 1.0 */
    assert_true(is_background(pixel(px, 2, 2)));
    assert_true(is_background(pixel(px, W - 3, H - 3)));
    float pivot[3] = { 2.5f, 2.5f, 2.5f }, lo[3] = { 0, 0, 0 }, hi[3] = { 5, 5, 5 };
    hull h = box_hull(&cam, &pose, pivot, lo, hi);
    assert_true(check_silhouette(px, &h) > 400);
    free(px);
}

/* Rotated (yaw 45, pitch 20) box that fills only part of its grid: the
 * image matches the octree's transform, including the pivot (the grid's
 * centre, not the solid's) and the direction of the rotation. */
static void test_rotated(void **state)
{
    scene *s = *state;
    set_shape(s, "x 6 <", 8, 4, 4); /* solid [0, 6) x [0, 4) x [0, 4) of an 8 x 4 x 4 grid */
    camera cam = make_camera(1, 2, 14, 0, 0);
    octree_pose pose;
    octree_pose_from_yaw_pitch(&pose, 45, 20, (float[3]){ 0, 0, 0 });
    uint8_t *px = draw(s, &cam, &pose, 0, 1);
    float pivot[3] = { 4, 2, 2 }, lo[3] = { 0, 0, 0 }, hi[3] = { 6, 4, 4 };
    hull h = box_hull(&cam, &pose, pivot, lo, hi);
    assert_true(check_silhouette(px, &h) > 300);

    /* the test can tell: the inverse rotation or the solid's own centre as
     * pivot would predict other pixels, and those are not what was drawn */
    octree_pose inv = pose;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) inv.rot[i][j] = pose.rot[j][i];
    float wrong_pivot[3] = { 3, 2, 2 };
    const octree_pose *wrong_pose[2] = { &inv, &pose };
    const float *wrong_piv[2] = { pivot, wrong_pivot };
    for (int w = 0; w < 2; w++) {
        hull h2 = box_hull(&cam, wrong_pose[w], wrong_piv[w], lo, hi);
        int mismatched = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float fx = (float)x + 0.5f, fy = (float)y + 0.5f;
                if (hull_depth(&h2, fx, fy) > 1.5f && hull_depth(&h, fx, fy) < -1.5f)
                    mismatched += is_background(pixel(px, x, y));
            }
        assert_true(mismatched > 20);
    }
    free(px);
}

/* Half the tool behind an opaque wall (the depth buffer says something is
 * nearer on the left half of the screen): the hidden half still shows,
 * fainter than the open half, and nothing shows outside the shape. */
static void test_buried(void **state)
{
    scene *s = *state;
    set_shape(s, "1", 5, 5, 5);
    camera cam = make_camera(0, 0, 12, 0, 0);
    octree_pose pose;
    octree_pose_identity(&pose, (float[3]){ 0, 0, 0 });
    uint8_t *open = draw(s, &cam, &pose, 0, 1);
    uint8_t *px = draw(s, &cam, &pose, W / 2, 0.5f);
    int yc = H / 2, xl = W / 2 - 10, xr = W / 2 + 10;
    float hidden = diff(pixel(px, xl, yc), k_bg), shown = diff(pixel(px, xr, yc), k_bg);
    assert_true(hidden > 0.03f);         /* visible through the wall */
    assert_true(hidden < 0.6f * shown);  /* but clearly fainter */
    assert_memory_equal(pixel(px, xr, yc), pixel(open, xr, yc), 4); /* the open half is unchanged */
    assert_true(pixel(px, xl, yc)[0] > 51 + 8); /* toward the tool's red */
    assert_true(is_background(pixel(px, 2, yc)));
    free(px);
    free(open);
}

/* Window depth (0..1) of a world point. */
static double window_depth(const camera *cam, const float p[3])
{
    vec4 c;
    glm_mat4_mulv((vec4 *)cam->viewproj, (vec4){ p[0], p[1], p[2], 1 }, c);
    return (double)c[2] / (double)c[3] * 0.5 + 0.5;
}

/* A tool face exactly on a terrain face (odd sizes at whole positions do
 * this) counts as in front, everywhere: the same image as a wall a little
 * behind that face, not a speckle of visible and buried pixels. */
static void test_coplanar(void **state)
{
    scene *s = *state;
    set_shape(s, "1", 5, 5, 5);
    camera cam = make_camera(0, 0, 12, 0, 0);
    octree_pose pose;
    octree_pose_identity(&pose, (float[3]){ 0, 0, 0 }); /* front face on the plane z = 2.5 */
    /* "behind": about 0.02 voxels farther, a sliver of the side faces no pixel centre sees */
    double on = window_depth(&cam, (float[3]){ 0, 0, 2.5f }), behind = on + 1e-5;
    uint8_t *ref = draw(s, &cam, &pose, W, (float)behind);
    uint8_t *px = draw(s, &cam, &pose, W, (float)on);
    assert_memory_equal(ref, px, (size_t)W * H * 4);
    free(ref);
    free(px);
}

/* The eye inside a big tool (a 64^3 tool at reach 8 does this): its far
 * side still tints the whole view. */
static void test_eye_inside(void **state)
{
    scene *s = *state;
    set_shape(s, "1", 9, 9, 9);
    camera cam = make_camera(0.3f, 0.2f, 0.1f, 30, 10);
    octree_pose pose;
    octree_pose_identity(&pose, (float[3]){ 0, 0, 0 });
    uint8_t *px = draw(s, &cam, &pose, 0, 1);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) assert_true(diff(pixel(px, x, y), k_bg) > 0.05f);
    free(px);
}

/* ghost_draw leaves the state renderer_draw expects; an empty shape draws nothing. */
static void test_state(void **state)
{
    scene *s = *state;
    set_shape(s, "1", 3, 3, 3);
    camera cam = make_camera(0, 0, 8, 0, 0);
    octree_pose pose;
    octree_pose_identity(&pose, (float[3]){ 0, 0, 0 });
    free(draw(s, &cam, &pose, 0, 1));
    assert_true(glIsEnabled(GL_DEPTH_TEST));
    assert_true(glIsEnabled(GL_CULL_FACE));
    assert_false(glIsEnabled(GL_BLEND));
    assert_false(glIsEnabled(GL_POLYGON_OFFSET_FILL));
    GLint v;
    GLboolean mask;
    glGetIntegerv(GL_DEPTH_FUNC, &v);
    assert_int_equal(v, GL_LESS);
    glGetIntegerv(GL_CULL_FACE_MODE, &v);
    assert_int_equal(v, GL_BACK);
    glGetIntegerv(GL_FRONT_FACE, &v);
    assert_int_equal(v, GL_CCW);
    glGetBooleanv(GL_DEPTH_WRITEMASK, &mask);
    assert_true(mask);
    assert_int_equal(glGetError(), GL_NO_ERROR);

    set_shape(s, "0", 3, 3, 3);
    assert_int_equal(ghost_quads(s->ghost), 0);
    uint8_t *px = draw(s, &cam, &pose, 0, 1);
    for (int i = 0; i < W * H; i++) assert_true(is_background(px + 4 * i));
    free(px);
    assert_true(ghost_set_shape(s->ghost, NULL));
    assert_int_equal(ghost_quads(s->ghost), 0);
}

/* The real thing: a tool half inside a stone floor drawn by the chunk
 * renderer. Above ground it is tinted, below it shows faintly through the
 * stone; the depth buffer is the same before and after the ghost (it
 * writes none), and drawing the world again afterwards gives the same image
 * as before (it left the renderer's state). */
static void test_in_world(void **state)
{
    scene *s = *state;
    char err[1024];
    unsigned atlas = atlas_texture_load(platform_find_asset("assets/atlas.png"), err, sizeof err);
    assert_true(atlas != 0);
    renderer *rend = renderer_create(err, sizeof err);
    assert_non_null(rend);
    renderer_set_atlas(rend, atlas);

    world *w = world_create(1, 1, 1);
    assert_non_null(w);
    for (int y = 0; y < 16; y++)
        for (int z = 0; z < 32; z++)
            for (int x = 0; x < 32; x++) world_set(w, x, y, z, MAT_STONE);
    job_pool *jobs = job_pool_create(1);
    chunk_mesh m = { 0 };
    int idx = 0;
    mesh_world_chunks(w, jobs, &idx, 1, true, &m);
    renderer_reset(rend, 1, 1, 1);
    renderer_upload(rend, 0, 0, 0, &m);
    mesh_free(&m);

    set_shape(s, "1", 6, 6, 6);
    camera cam = make_camera(16, 24, 34, 0, -30);
    octree_pose pose;
    octree_pose_identity(&pose, (float[3]){ 16, 16, 20 }); /* spans y 13..19: half buried */
    unsigned fb = platform_framebuffer(s->plat);
    render_settings rs = { .width = W, .height = H, .framebuffer = fb, .view_distance = 300,
                           .sky = { 0.2f, 0.4f, 0.9f }, .sun = { 0.3f, 1, 0.2f } };
    render_stats st;
    renderer_draw(rend, &cam, &rs, &st);
    uint8_t *before = screenshot_read(fb, W, H);
    renderer_draw(rend, &cam, &rs, &st);
    /* the depth buffer before and after the ghost: it must write none */
    float *depth0 = malloc(sizeof(float) * W * H), *depth1 = malloc(sizeof(float) * W * H);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glReadPixels(0, 0, W, H, GL_DEPTH_COMPONENT, GL_FLOAT, depth0);
    ghost_draw(s->ghost, &cam, &pose, k_tool, fb, W, H);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glReadPixels(0, 0, W, H, GL_DEPTH_COMPONENT, GL_FLOAT, depth1);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    assert_memory_equal(depth0, depth1, sizeof(float) * W * H);
    free(depth0);
    free(depth1);
    uint8_t *with = screenshot_read(fb, W, H);
    renderer_draw(rend, &cam, &rs, &st);
    uint8_t *after = screenshot_read(fb, W, H);
    assert_memory_equal(before, after, (size_t)W * H * 4);

    /* points on the tool's front face (z = 23): one above ground, one buried
     * (the eye's ray to it meets the floor's top at z = 25.2, inside the world) */
    float pivot[3] = { 3, 3, 3 }, up[2], down[2];
    project(&cam, &pose, pivot, (float[3]){ 3, 5, 6 }, up);
    project(&cam, &pose, pivot, (float[3]){ 3, 1, 6 }, down);
    float ref[3];
    for (int k = 0; k < 3; k++) ref[k] = pixel(before, (int)up[0], (int)up[1])[k] / 255.f;
    float shown = diff(pixel(with, (int)up[0], (int)up[1]), ref);
    for (int k = 0; k < 3; k++) ref[k] = pixel(before, (int)down[0], (int)down[1])[k] / 255.f;
    float hidden = diff(pixel(with, (int)down[0], (int)down[1]), ref);
    assert_true(shown > 0.15f);
    assert_true(hidden > 0.02f && hidden < shown);
    /* far from the tool nothing changed */
    assert_memory_equal(pixel(with, 2, 2), pixel(before, 2, 2), 4);
    assert_memory_equal(pixel(with, W - 3, H - 3), pixel(before, W - 3, H - 3), 4);

    free(before);
    free(with);
    free(after);
    job_pool_destroy(jobs);
    world_destroy(w);
    renderer_destroy(rend);
    atlas_texture_destroy(atlas);
}

/* The wire style (what the game draws every frame; the solid
 * ghost cost ~10 ms on llvmpipe): the outline inside the silhouette only,
 * a small fraction of the solid's pixels, the faces' insides untouched, no
 * edges of the far side; edges behind the terrain fainter than edges in
 * front. */
static void test_wire(void **state)
{
    scene *s = *state;
    set_shape(s, "1", 5, 5, 5);
    camera cam = make_camera(0, 0, 12, 0, 0);
    octree_pose pose;
    octree_pose_identity(&pose, (float[3]){ 0, 0, 0 });
    g_style = GHOST_SOLID;
    uint8_t *solid = draw(s, &cam, &pose, 0, 1);
    g_style = GHOST_WIRE;
    uint8_t *wire = draw(s, &cam, &pose, 0, 1);
    float pivot[3] = { 2.5f, 2.5f, 2.5f }, lo[3] = { 0, 0, 0 }, hi[3] = { 5, 5, 5 };
    hull h = box_hull(&cam, &pose, pivot, lo, hi);
    int n_solid = 0, n_wire = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            n_solid += !is_background(pixel(solid, x, y));
            if (is_background(pixel(wire, x, y))) continue;
            n_wire++;
            assert_true(hull_depth(&h, (float)x + 0.5f, (float)y + 0.5f) > -1.5f); /* never outside the shape */
        }
    assert_true(n_wire > 40);
    assert_true(n_wire * 4 < n_solid);
    assert_true(is_background(pixel(wire, W / 2, H / 2))); /* the front face's inside is left alone */
    /* the far side's edges (the back square, the edges along the view)
     * would show inside the front face's square: none are drawn */
    float c0[2], c1[2];
    project(&cam, &pose, pivot, (float[3]){ 0, 0, 5 }, c0);
    project(&cam, &pose, pivot, (float[3]){ 5, 5, 5 }, c1);
    int x0 = (int)fminf(c0[0], c1[0]) + 3, x1 = (int)fmaxf(c0[0], c1[0]) - 3;
    int y0 = (int)fminf(c0[1], c1[1]) + 3, y1 = (int)fmaxf(c0[1], c1[1]) - 3;
    assert_true(x1 - x0 > 20 && y1 - y0 > 20);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) assert_true(is_background(pixel(wire, x, y)));

    /* a wall nearer than the tool over the left half: edges there are buried */
    uint8_t *half = draw(s, &cam, &pose, W / 2, 0.0);
    float left = 0, right = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float d = diff(pixel(half, x, y), k_bg);
            if (x < W / 2 - 2 && d > left) left = d;
            if (x > W / 2 + 2 && d > right) right = d;
        }
    assert_true(left > 0.02f && left < right);
    g_style = GHOST_SOLID;
    free(solid), free(wire), free(half);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube),
        cmocka_unit_test(test_rotated),
        cmocka_unit_test(test_buried),
        cmocka_unit_test(test_coplanar),
        cmocka_unit_test(test_eye_inside),
        cmocka_unit_test(test_state),
        cmocka_unit_test(test_in_world),
        cmocka_unit_test(test_wire),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
