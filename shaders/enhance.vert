#version 450 core
// Enhanced fragments (seed 000) as flat-shaded cubes: 8-byte vertices from
// engine/mesh/enhance_mesh.h, corners in fragments of the chunk. Each face
// shows its material's atlas tile repeated once per voxel, as the blocks
// mode does, so the fragments of a voxel together show its tile and a
// fragment reads as the material it came from (seed 000 section 5).
layout(location = 0) in uint a_pos;   // x | y<<10 | z<<20
layout(location = 1) in uint a_info;  // tile | tint<<8 | face<<16
// The chunk's origin relative to the render origin (xyz): constant per
// draw on the read-back path, per instance on the GPU cull's multi-draws
// (engine/gfx/gpu_cull.h)
layout(location = 2) in vec4 a_chunk;

uniform mat4 u_viewproj;
uniform vec3 u_camera;
uniform float u_inv_factor;

uniform sampler2DArray u_atlas;

out vec3 v_uvw;          // u, v in voxels, atlas layer
flat out uint v_tint;
flat out uint v_face;
out vec3 v_world;
out float v_dist;

// Sealing T-junctions, as chunk.vert does (see there): the greedy
// rectangles' long edges pass through the corners of smaller ones beside
// them, and single pixels of sky sparkled through (a flight over the hills
// at 100 voxels a second: sky below the horizon in 66 of 120 frames, finite
// world or streamed). Corners come in push_quad's order (enhance_mesh.c:
// c0, +U, +U+V, +V, the axes below), four per quad from a multiple of 4 (the
// draw's base vertices are too), so gl_VertexID & 3 names the corner.
const ivec2 k_face_uv[6] = ivec2[6](ivec2(0, 1), ivec2(1, 0), ivec2(2, 0), ivec2(0, 2), ivec2(2, 1), ivec2(1, 2));
const float k_seal = 1.0 / 2048.0; // voxels per voxel of distance: ~1/4 pixel at 1280x720

void main()
{
    vec3 p = vec3(float(a_pos & 1023u), float((a_pos >> 10) & 1023u), float((a_pos >> 20) & 1023u));
    vec3 wp = a_chunk.xyz + p * u_inv_factor;
    v_tint = (a_info >> 8) & 255u;
    v_face = (a_info >> 16) & 7u;
    vec2 uv; // the orientation of chunk.vert: image up is world up on the sides
    if (v_face < 2u) uv = vec2(wp.x, -wp.y);
    else if (v_face < 4u) uv = vec2(wp.x, wp.z);
    else uv = vec2(wp.z, -wp.y);
    v_uvw = vec3(uv, float(a_info & 255u));
    v_world = wp;
    v_dist = distance(wp, u_camera);
    vec3 seal = vec3(0.0);
    if (v_face < 6u) {
        uint corner = uint(gl_VertexID) & 3u;
        float eps = k_seal * v_dist;
        seal[k_face_uv[v_face].x] = (corner == 1u || corner == 2u) ? eps : -eps;
        seal[k_face_uv[v_face].y] = corner >= 2u ? eps : -eps;
    }
    gl_Position = u_viewproj * vec4(wp + seal, 1.0);
}
