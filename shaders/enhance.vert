#version 450 core
// Enhanced fragments (seed 000) as flat-shaded cubes: 8-byte vertices from
// engine/mesh/enhance_mesh.h, corners in fragments of the chunk. Each face
// shows its material's atlas tile repeated once per voxel, as the blocks
// mode does, so the fragments of a voxel together show its tile and a
// fragment reads as the material it came from (seed 000 section 5).
layout(location = 0) in uint a_pos;   // x | y<<10 | z<<20
layout(location = 1) in uint a_info;  // tile | tint<<8 | face<<16

uniform mat4 u_viewproj;
uniform vec3 u_origin;     // chunk origin in world voxels
uniform vec3 u_camera;
uniform float u_inv_factor;

uniform sampler2DArray u_atlas;

out vec3 v_uvw;          // u, v in voxels, atlas layer
flat out uint v_tint;
flat out uint v_face;
out vec3 v_world;
out float v_dist;

void main()
{
    vec3 p = vec3(float(a_pos & 1023u), float((a_pos >> 10) & 1023u), float((a_pos >> 20) & 1023u));
    vec3 wp = u_origin + p * u_inv_factor;
    v_tint = (a_info >> 8) & 255u;
    v_face = (a_info >> 16) & 7u;
    vec2 uv; // the orientation of chunk.vert: image up is world up on the sides
    if (v_face < 2u) uv = vec2(wp.x, -wp.y);
    else if (v_face < 4u) uv = vec2(wp.x, wp.z);
    else uv = vec2(wp.z, -wp.y);
    v_uvw = vec3(uv, float(a_info & 255u));
    v_world = wp;
    v_dist = distance(wp, u_camera);
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
