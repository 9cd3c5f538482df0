#version 450 core
// Block terrain: 8-byte packed vertices (see engine/mesh/mesh_blocks.h).
// Texture coordinates come from the world position, so a merged quad
// repeats its tile once per voxel (the atlas is an array texture).
layout(location = 0) in uint a_pos;  // x | y<<6 | z<<12 | face<<18
layout(location = 1) in uint a_mat;  // tile | tint<<8

uniform mat4 u_viewproj;
uniform vec3 u_origin;   // chunk origin in world voxels
uniform vec3 u_camera;

out vec3 v_uvw;          // u, v, layer
out vec3 v_normal;
out vec3 v_wpos;         // world position, for the light volume
out float v_dist;
flat out uint v_tint;

const vec3 k_normals[6] = vec3[6](vec3(0, 0, 1), vec3(0, 0, -1), vec3(0, 1, 0),
                                  vec3(0, -1, 0), vec3(-1, 0, 0), vec3(1, 0, 0));

void main()
{
    uvec3 p = uvec3(a_pos & 63u, (a_pos >> 6) & 63u, (a_pos >> 12) & 63u);
    uint face = (a_pos >> 18) & 7u;
    vec3 wp = u_origin + vec3(p);
    vec2 uv;
    if (face < 2u) uv = vec2(wp.x, -wp.y);      // back/front: image up is world up
    else if (face < 4u) uv = vec2(wp.x, wp.z);  // top/bottom
    else uv = vec2(wp.z, -wp.y);                // left/right
    v_uvw = vec3(uv, float(a_mat & 255u));
    v_tint = (a_mat >> 8) & 255u;
    v_normal = k_normals[min(face, 5u)];
    v_dist = distance(wp, u_camera);
    v_wpos = wp;
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
