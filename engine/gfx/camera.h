/* camera: view/projection matrices and the view frustum.
 * Frustum culling tests bounding spheres against six planes (seed 003's
 * future work): one dot product per plane per chunk. Pure math, no GL. */
#ifndef STRATA_CAMERA_H
#define STRATA_CAMERA_H

#include <cglm/cglm.h>
#include <stdbool.h>

/* Camera-relative rendering. Floats cannot hold a position 10^7 voxels out
 * (their step there is a whole voxel), so the camera carries an integer
 * render origin (core/origin.h: 0 near the world's origin, so every finite
 * world draws what it always drew) and everything drawn is given relative
 * to it: the eye (pos), chunk origins, bodies, the tool, fog, culling,
 * light lookups. World voxel coordinates minus the origin are integers,
 * exact as floats. */
typedef struct camera {
    int origin[3];     /* render origin, world voxels; zero-initialised: the world's origin */
    vec3 pos;          /* the eye, relative to origin */
    float yaw, pitch;  /* degrees; yaw 0 looks towards -z, positive turns right; pitch positive looks up */
    float fov;         /* vertical, degrees */
    float aspect;
    float znear, zfar;
    mat4 view, proj, viewproj;
    vec4 planes[6];    /* normalised, inside where dot(n, p) + d >= 0 */
} camera;

/* Recomputes matrices and frustum planes from the fields above. */
void camera_update(camera *c);
/* Places the eye at world position `eye` (double): picks the render origin
 * as above and sets pos relative to it. */
void camera_set_eye(camera *c, const double eye[3]);
/* World voxel corner (x, y, z) relative to the render origin, as floats
 * (an integer subtraction first: exact). */
void camera_rel(const camera *c, int x, int y, int z, float out[3]);
void camera_forward(float yaw, float pitch, vec3 out);
bool camera_sphere_visible(const camera *c, const vec3 center, float radius);
/* False when the box [lo, hi] lies wholly outside one frustum plane. */
bool camera_box_visible(const camera *c, const float lo[3], const float hi[3]);

#endif
