#version 450 core
// Smooth terrain (surface nets, engine/mesh/mesh_smooth.h): float chunk-local
// positions, snorm8 normals, the cell's material and tint.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_nrm;
layout(location = 2) in uvec2 a_mat; // material, tint

uniform mat4 u_viewproj;
uniform vec3 u_origin;
// grid -> world: identity for terrain (smooth_renderer sets it); a falling
// body's pose when gfx/body_draw draws its nets
uniform mat4 u_model;
// least sun and sky light (0 for terrain): a body in mid-air reads cells
// of open air that hold no light (gfx/body_draw.h)
uniform vec2 u_light_floor;
uniform vec3 u_camera;
// Snowflake light, read here per vertex and interpolated: a net crosses
// voxels at any angle, and a per-fragment nearest read would paint the
// voxel grid onto it (light_shading_apply sets these for every mode)
uniform bool u_light_on;
uniform sampler3D u_light;
uniform ivec3 u_light_size;
uniform ivec3 u_light_origin; // the window's first voxel (global)
uniform ivec3 u_light_slot;   // its texel (light_shading in gfx/light_tex.h)
uniform vec3 u_tints[8];
// 0 at level of detail 0. At a coarse level, a vertex may lie inside the
// terrain the light was computed for, or above the one-voxel shell of lit
// elements (free air holds no light): light is then averaged over the lit
// texels only, half a voxel out, else this far out
uniform float u_coarse_reach;

out vec3 v_world;
out vec3 v_normal;
out float v_dist;
out vec2 v_light; // sun, sky
flat out uint v_mat;
out vec4 v_tint; // tool colour (premultiplied) and weight: interpolated, so a cut's rim blends

// The texel of window voxel w (clamped into the window): the volume keeps
// the world's toroidal slots, so add the window's first slot and wrap.
ivec3 light_texel(ivec3 w)
{
    ivec3 t = clamp(w, ivec3(0), u_light_size - 1) + u_light_slot;
    return t - u_light_size * ivec3(greaterThanEqual(t, u_light_size));
}

vec2 light_at(ivec3 c)
{
    // above the world and beyond its sides (of the window) is open air
    ivec3 w = c - u_light_origin;
    bool open_air = w.y >= u_light_size.y || any(lessThan(w.xz, ivec2(0))) || any(greaterThanEqual(w.xz, u_light_size.xz));
    return open_air ? vec2(1.0) : texelFetch(u_light, light_texel(w), 0).rg;
}

// Trilinear between the voxel centres around p: the weighted sum in xy, the
// weight in z (1 with every texel). lit_only leaves out texels without
// light (solid voxels, and free air away from any face, hold none).
vec3 light_trilinear(vec3 p, bool lit_only)
{
    vec3 q = p - 0.5;
    ivec3 b = ivec3(floor(q));
    vec3 f = q - vec3(b);
    vec3 acc = vec3(0.0);
    for (int i = 0; i < 8; i++) {
        ivec3 o = ivec3(i & 1, (i >> 1) & 1, i >> 2);
        vec3 w3 = mix(1.0 - f, f, vec3(o));
        vec2 l = light_at(b + o);
        float w = (!lit_only || l.x + l.y > 0.0) ? w3.x * w3.y * w3.z : 0.0;
        acc += vec3(l * w, w);
    }
    return acc;
}

void main()
{
    vec3 wp = (u_model * vec4(u_origin + a_pos, 1.0)).xyz;
    v_world = wp;
    v_normal = mat3(u_model) * a_nrm.xyz;
    v_mat = a_mat.x;
    v_tint = a_mat.y > 0u ? vec4(u_tints[min(a_mat.y, 7u)], 1.0) : vec4(0.0);
    v_dist = distance(wp, u_camera);
    vec3 n = normalize(v_normal);
    if (!u_light_on) {
        v_light = vec2(1.0);
    } else if (u_coarse_reach <= 0.0) { // half a voxel out along the normal
        v_light = light_trilinear(wp + n * 0.5, false).xy;
    } else {
        vec3 a = light_trilinear(wp + n * 0.5, true);
        if (a.z < 1e-3) a = light_trilinear(wp + n * u_coarse_reach, true);
        v_light = a.z > 0.0 ? a.xy / a.z : vec2(0.0);
    }
    v_light = max(v_light, u_light_floor);
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
