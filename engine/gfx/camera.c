#include "gfx/camera.h"

#include <math.h>

#include "core/origin.h"

void camera_set_eye(camera *c, const double eye[3])
{
    for (int a = 0; a < 3; a++) {
        /* y stays absolute: the world is at most a few hundred voxels high */
        c->origin[a] = a == 1 ? 0 : origin_snap(eye[a]);
        c->pos[a] = (float)(eye[a] - c->origin[a]);
    }
}

void camera_rel(const camera *c, int x, int y, int z, float out[3])
{
    out[0] = (float)(x - c->origin[0]);
    out[1] = (float)(y - c->origin[1]);
    out[2] = (float)(z - c->origin[2]);
}

void camera_forward(float yaw, float pitch, vec3 out)
{
    float y = glm_rad(yaw), p = glm_rad(pitch);
    out[0] = sinf(y) * cosf(p);
    out[1] = sinf(p);
    out[2] = -cosf(y) * cosf(p);
}

void camera_update(camera *c)
{
    vec3 fwd, target, up = { 0, 1, 0 };
    camera_forward(c->yaw, c->pitch, fwd);
    glm_vec3_add(c->pos, fwd, target);
    glm_lookat(c->pos, target, up, c->view);
    glm_perspective(glm_rad(c->fov), c->aspect, c->znear, c->zfar, c->proj);
    glm_mat4_mul(c->proj, c->view, c->viewproj);
    /* Gribb/Hartmann: planes are sums/differences of the matrix rows */
    mat4 m;
    glm_mat4_transpose_to(c->viewproj, m); /* cglm is column-major: rows of viewproj are columns of m */
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 4; k++) {
            c->planes[2 * i][k] = m[3][k] + m[i][k];
            c->planes[2 * i + 1][k] = m[3][k] - m[i][k];
        }
    }
    for (int i = 0; i < 6; i++) {
        float len = sqrtf(c->planes[i][0] * c->planes[i][0] + c->planes[i][1] * c->planes[i][1] +
                          c->planes[i][2] * c->planes[i][2]);
        if (len > 0) glm_vec4_scale(c->planes[i], 1.f / len, c->planes[i]);
    }
}

bool camera_sphere_visible(const camera *c, const vec3 center, float radius)
{
    for (int i = 0; i < 6; i++) {
        const float *p = c->planes[i];
        if (p[0] * center[0] + p[1] * center[1] + p[2] * center[2] + p[3] < -radius) return false;
    }
    return true;
}

bool camera_box_visible(const camera *c, const float lo[3], const float hi[3])
{
    for (int i = 0; i < 6; i++) {
        const float *p = c->planes[i];
        /* the corner farthest along the plane's inward normal */
        float x = p[0] > 0 ? hi[0] : lo[0], y = p[1] > 0 ? hi[1] : lo[1], z = p[2] > 0 ? hi[2] : lo[2];
        if (p[0] * x + p[1] * y + p[2] * z + p[3] < 0) return false;
    }
    return true;
}
