#version 450 core
// Smooth terrain (surface nets, engine/mesh/mesh_smooth.h): float chunk-local
// positions, snorm8 normals, the cell's material and tint.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_nrm;
layout(location = 2) in uvec2 a_mat; // material, tint

uniform mat4 u_viewproj;
uniform vec3 u_origin;
uniform vec3 u_camera;
uniform vec3 u_tints[8];

out vec3 v_world;
out vec3 v_normal;
out float v_dist;
flat out uint v_mat;
out vec4 v_tint; // tool colour (premultiplied) and weight: interpolated, so a cut's rim blends

void main()
{
    vec3 wp = u_origin + a_pos;
    v_world = wp;
    v_normal = a_nrm.xyz;
    v_mat = a_mat.x;
    v_tint = a_mat.y > 0u ? vec4(u_tints[min(a_mat.y, 7u)], 1.0) : vec4(0.0);
    v_dist = distance(wp, u_camera);
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
