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

// Bit per column slot of the texture: set where the slot holds its own
// column's light; clear where a moved window left the light of the column
// that went, read as holding none (light_fresh_bits in light/light.h).
layout(std140, binding = 0) uniform LightFresh { uvec4 u_light_fresh[1024]; };
bool light_fresh(ivec3 t)
{
    int s = (t.x >> 5) + (t.z >> 5) * (u_light_size.x >> 5); // 32: CHUNK_SIZE
    return ((u_light_fresh[s >> 7][(s >> 5) & 3] >> uint(s & 31)) & 1u) != 0u;
}

// The texel of window voxel w (clamped into the window): the volume keeps
// the world's toroidal slots, so add the window's first slot and wrap.
ivec3 light_texel(ivec3 w)
{
    ivec3 t = clamp(w, ivec3(0), u_light_size - 1) + u_light_slot;
    return t - u_light_size * ivec3(greaterThanEqual(t, u_light_size));
}

// Sun, sky and whether voxel c (global) holds light: a byte is 0 where
// nothing is stored, else 1 + 254 x the element's light (light_encode in
// light/light.h). Above the world and beyond the window's sides is open
// air, fully lit.
vec3 light_at(ivec3 c)
{
    ivec3 w = c - u_light_origin;
    if (w.y >= u_light_size.y || any(lessThan(w.xz, ivec2(0))) || any(greaterThanEqual(w.xz, u_light_size.xz)))
        return vec3(1.0);
    ivec3 t = light_texel(w);
    if (!light_fresh(t)) return vec3(0.0);
    vec2 b = texelFetch(u_light, t, 0).rg * 255.0;
    return b.x + b.y > 0.5 ? vec3((b - 1.0) / 254.0, 1.0) : vec3(0.0);
}

// The light a vertex takes (sun, sky), as smooth.vert's: trilinear
// between the voxel centres half a voxel out along the normal, over the
// elements only (cells without light are left out, not blended as dark).
vec2 surface_light(vec3 wp, vec3 n)
{
    vec3 q = wp + n * 0.5 - 0.5;
    ivec3 b = ivec3(floor(q));
    vec3 f = q - vec3(b);
    vec3 acc = vec3(0.0);
    for (int i = 0; i < 8; i++) {
        ivec3 o = ivec3(i & 1, (i >> 1) & 1, i >> 2);
        vec3 w3 = mix(1.0 - f, f, vec3(o));
        vec3 l = light_at(b + o);
        float w = w3.x * w3.y * w3.z * l.z;
        acc += vec3(l.xy * w, w);
    }
    return acc.z > 1e-6 ? acc.xy / acc.z : vec2(0.0);
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
    v_light = u_light_on ? surface_light(wp, normalize(v_normal)) : vec2(1.0);
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
