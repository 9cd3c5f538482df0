#version 450 core
// The endless bedrock floor (engine/gfx/plain.h): one quad on y = 0,
// centred under the camera and reaching the far plane. Counter-clockwise
// seen from above, like a terrain top face.
uniform mat4 u_viewproj;
uniform vec3 u_camera;
uniform float u_extent;

out vec3 v_world;

const vec2 k_corner[6] = vec2[6](vec2(-1, -1), vec2(-1, 1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(1, -1));

void main()
{
    vec2 xz = u_camera.xz + k_corner[gl_VertexID] * u_extent;
    v_world = vec3(xz.x, 0.0, xz.y);
    gl_Position = u_viewproj * vec4(v_world, 1.0);
}
