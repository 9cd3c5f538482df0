#version 450 core
// Smooth terrain meshed by the compute passes (surfnets_*.comp): vec4
// positions in the chunk field's grid units (w: cell), vec4 normals (w: the
// cell's material + 256 * its tint). Drawn by an indirect draw from the
// passes' counters.
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_nrm;

uniform mat4 u_viewproj;
uniform vec3 u_origin;   // chunk origin - 0.5: sample 0 is voxel -1's centre
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

// trilinear between voxel centres, half a voxel out along the normal
vec2 light_smooth(vec3 p)
{
    vec3 q = p - 0.5;
    ivec3 b = ivec3(floor(q));
    vec3 f = q - vec3(b);
    vec2 x00 = mix(light_at(b), light_at(b + ivec3(1, 0, 0)), f.x);
    vec2 x10 = mix(light_at(b + ivec3(0, 1, 0)), light_at(b + ivec3(1, 1, 0)), f.x);
    vec2 x01 = mix(light_at(b + ivec3(0, 0, 1)), light_at(b + ivec3(1, 0, 1)), f.x);
    vec2 x11 = mix(light_at(b + ivec3(0, 1, 1)), light_at(b + ivec3(1, 1, 1)), f.x);
    return mix(mix(x00, x10, f.y), mix(x01, x11, f.y), f.z);
}

void main()
{
    vec3 wp = u_origin + a_pos.xyz;
    v_world = wp;
    v_normal = a_nrm.xyz;
    uint mt = uint(a_nrm.w + 0.5);
    uint tint = mt >> 8;
    v_mat = mt & 255u;
    v_tint = tint > 0u ? vec4(u_tints[min(tint, 7u)], 1.0) : vec4(0.0);
    v_dist = distance(wp, u_camera);
    v_light = u_light_on ? light_smooth(wp + normalize(v_normal) * 0.5) : vec2(1.0);
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
