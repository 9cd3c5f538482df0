#version 450 core
// Smooth terrain meshed by the compute passes (surfnets_*.comp): vec4
// positions in the chunk field's grid units (w: cell), vec4 normals (w: the
// cell's material). Drawn by an indirect draw from the passes' counters.
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_nrm;

uniform mat4 u_viewproj;
uniform vec3 u_origin;   // chunk origin - 0.5: sample 0 is voxel -1's centre
uniform vec3 u_camera;

out vec3 v_world;
out vec3 v_normal;
out float v_dist;
flat out uint v_mat;
out vec4 v_tint;

void main()
{
    vec3 wp = u_origin + a_pos.xyz;
    v_world = wp;
    v_normal = a_nrm.xyz;
    v_mat = uint(a_nrm.w + 0.5);
    v_tint = vec4(0.0); // the GPU path carries no cut tints
    v_dist = distance(wp, u_camera);
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
