/* camera: view/projection matrices and the view frustum.
 * Frustum culling tests bounding spheres against six planes (seed 003's
 * future work): one dot product per plane per chunk. Pure math, no GL. */
#ifndef STRATA_CAMERA_H
#define STRATA_CAMERA_H

#include <cglm/cglm.h>
#include <stdbool.h>

typedef struct camera {
    vec3 pos;
    float yaw, pitch;  /* degrees; yaw 0 looks towards -z, positive turns right; pitch positive looks up */
    float fov;         /* vertical, degrees */
    float aspect;
    float znear, zfar;
    mat4 view, proj, viewproj;
    vec4 planes[6];    /* normalised, inside where dot(n, p) + d >= 0 */
} camera;

/* Recomputes matrices and frustum planes from the fields above. */
void camera_update(camera *c);
void camera_forward(float yaw, float pitch, vec3 out);
bool camera_sphere_visible(const camera *c, const vec3 center, float radius);
/* False when the box [lo, hi] lies wholly outside one frustum plane. */
bool camera_box_visible(const camera *c, const float lo[3], const float hi[3]);

#endif
