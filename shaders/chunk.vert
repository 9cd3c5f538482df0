#version 450 core
// Block terrain: 8-byte packed vertices (see engine/mesh/mesh_blocks.h).
// Texture coordinates come from the world position, so a merged quad
// repeats its tile once per voxel (the atlas is an array texture).
layout(location = 0) in uint a_pos;  // x | y<<6 | z<<12 | face<<18
layout(location = 1) in uint a_mat;  // tile | tint<<8

// The chunk's origin relative to the render origin, and w 1 for its
// coarse level: a constant attribute set per draw (one multi-draw a
// chunk), or an instanced one whose element is each indirect command's
// baseInstance (engine/gfx/gpu_cull.h: many chunks a draw).
layout(location = 2) in vec4 a_origin;

uniform mat4 u_viewproj;
uniform vec3 u_camera;

out vec3 v_uvw;          // u, v, layer
out vec3 v_normal;
out vec3 v_wpos;         // world position, for the light volume
out float v_dist;
flat out uint v_tint;
flat out int v_coarse;   // 1: the chunk's coarse level (engine/mesh/mesh_lod.h)

const vec3 k_normals[6] = vec3[6](vec3(0, 0, 1), vec3(0, 0, -1), vec3(0, 1, 0),
                                  vec3(0, -1, 0), vec3(-1, 0, 0), vec3(1, 0, 0));

// Sealing T-junctions. A greedy quad's long edge passes through corners of
// the smaller quads beside it, and after projection those corners round a
// hair off the edge: single pixels of sky sparkle through (measured: a few
// frames in every hundred of a flight over the hills, none without greedy
// merging). Each corner is pushed out along its face's two axes by a fixed
// fraction of a pixel (the push grows with distance as pixels do), so
// neighbours overlap by that much instead of leaving a gap. Corners come in
// the mesher's order (mesh_blocks.c mesh_emit): c0 the minimum, c1 = +U,
// c2 = +U+V, c3 = +V, U and V the face's axes below, and every quad's four
// vertices start at a multiple of 4, so gl_VertexID & 3 names the corner.
const ivec2 k_face_uv[6] = ivec2[6](ivec2(0, 1), ivec2(1, 0), ivec2(2, 0), ivec2(0, 2), ivec2(2, 1), ivec2(1, 2));
const float k_seal = 1.0 / 2048.0; // voxels per voxel of distance: ~1/4 pixel at 1280x720
uniform int u_pass;                // 2: translucent, not sealed (overlaps would blend twice)
const float k_pull = 1.0 / 64.0;   // voxels the light's read point stays inside a quad

void main()
{
    uvec3 p = uvec3(a_pos & 63u, (a_pos >> 6) & 63u, (a_pos >> 12) & 63u);
    uint face = (a_pos >> 18) & 7u;
    vec3 wp = a_origin.xyz + vec3(p);
    v_coarse = a_origin.w > 0.5 ? 1 : 0;
    vec2 uv;
    if (face < 2u) uv = vec2(wp.x, -wp.y);      // back/front: image up is world up
    else if (face < 4u) uv = vec2(wp.x, wp.z);  // top/bottom
    else uv = vec2(wp.z, -wp.y);                // left/right
    v_uvw = vec3(uv, float(a_mat & 255u));
    v_tint = (a_mat >> 8) & 255u;
    v_normal = k_normals[min(face, 5u)];
    // fog by horizontal distance: flying high still shows the ground below
    // (the view distance is a radius on the map, not a sphere round the eye)
    v_dist = distance(wp.xz, u_camera.xz);
    // Where the light is read: pulled k_pull inwards along both face axes,
    // so the quad's edges (and a rounding past them) read its own voxels,
    // never the neighbouring column's. Linear over the quad, so exact.
    vec3 seal = vec3(0.0), pull = vec3(0.0);
    if (face < 6u) {
        uint corner = uint(gl_VertexID) & 3u;
        ivec2 ax = k_face_uv[face];
        vec2 out_sign = vec2((corner == 1u || corner == 2u) ? 1.0 : -1.0, corner >= 2u ? 1.0 : -1.0);
        pull[ax.x] = -k_pull * out_sign.x;
        pull[ax.y] = -k_pull * out_sign.y;
        if (u_pass != 2) {
            float eps = k_seal * distance(wp, u_camera);
            seal[ax.x] = eps * out_sign.x;
            seal[ax.y] = eps * out_sign.y;
            // A face's upper edge is never lifted: a boundary face buried
            // in the neighbour's coarse cells ends level with their top,
            // and lifted it showed as a dash across it. The top face over
            // the edge is pushed past it instead, which seals it.
            seal.y = min(seal.y, 0.0);
        }
    }
    v_wpos = wp + pull;
    gl_Position = u_viewproj * vec4(wp + seal, 1.0);
}
