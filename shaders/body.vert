#version 450 core
// Voxel bodies: a body's block mesh, the same packed vertices as
// chunk.vert, placed by the body's model matrix. Texture coordinates come
// from the body's own grid, so its tiles stay on it as it turns.
layout(location = 0) in uint a_pos;  // x | y<<6 | z<<12 | face<<18
layout(location = 1) in uint a_mat;  // tile | tint<<8

uniform mat4 u_viewproj;
uniform mat4 u_model;    // body grid -> world
uniform vec3 u_origin;   // the mesh tile's corner in the body grid
uniform vec3 u_camera;

out vec3 v_uvw;
out vec3 v_normal;
out vec3 v_wpos;
out float v_dist;
flat out uint v_tint;
flat out int v_coarse; // chunk.frag's: a body is always fine

const vec3 k_normals[6] = vec3[6](vec3(0, 0, 1), vec3(0, 0, -1), vec3(0, 1, 0),
                                  vec3(0, -1, 0), vec3(-1, 0, 0), vec3(1, 0, 0));

void main()
{
    uvec3 p = uvec3(a_pos & 63u, (a_pos >> 6) & 63u, (a_pos >> 12) & 63u);
    uint face = (a_pos >> 18) & 7u;
    vec3 gp = u_origin + vec3(p);
    vec2 uv;
    if (face < 2u) uv = vec2(gp.x, -gp.y);
    else if (face < 4u) uv = vec2(gp.x, gp.z);
    else uv = vec2(gp.z, -gp.y);
    v_uvw = vec3(uv, float(a_mat & 255u));
    v_tint = (a_mat >> 8) & 255u;
    v_normal = mat3(u_model) * k_normals[min(face, 5u)];
    vec3 wp = (u_model * vec4(gp, 1.0)).xyz;
    v_dist = distance(wp.xz, u_camera.xz);
    v_wpos = wp;
    v_coarse = 0;
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
