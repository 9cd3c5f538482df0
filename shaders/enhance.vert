#version 450 core
// Enhanced fragments (seed 000) as flat-shaded cubes: 8-byte vertices from
// engine/mesh/enhance_mesh.h, corners in fragments of the chunk.
layout(location = 0) in uint a_pos;   // x | y<<10 | z<<20
layout(location = 1) in uint a_info;  // tile | tint<<8 | face<<16

uniform mat4 u_viewproj;
uniform vec3 u_origin;     // chunk origin in world voxels
uniform vec3 u_camera;
uniform float u_inv_factor;

uniform sampler2DArray u_atlas;

flat out vec3 v_albedo;  // the tile's average colour: its smallest mip level
flat out uint v_tint;
flat out uint v_face;
out vec3 v_world;
out float v_dist;

void main()
{
    vec3 p = vec3(float(a_pos & 1023u), float((a_pos >> 10) & 1023u), float((a_pos >> 20) & 1023u));
    vec3 wp = u_origin + p * u_inv_factor;
    v_albedo = textureLod(u_atlas, vec3(0.5, 0.5, float(a_info & 255u)), 16.0).rgb;
    v_tint = (a_info >> 8) & 255u;
    v_face = (a_info >> 16) & 7u;
    v_world = wp;
    v_dist = distance(wp, u_camera);
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
