#version 450 core
// Flat shading by face direction (the paper draws fragments as small
// cubes), times the snowflake light of the voxel in front of the fragment
// when the light volume is on (the same uniforms as chunk.frag). The colour
// is the material's atlas tile (see enhance.vert), with a slight
// per-fragment variation so single fragments read as cubes.
in vec3 v_uvw;
flat in uint v_tint;
flat in uint v_face;
in vec3 v_world;
in float v_dist;

uniform sampler2DArray u_atlas;
uniform vec3 u_fog_color;
uniform float u_fog_start;
uniform float u_fog_end;
uniform vec3 u_tints[8];
uniform float u_factor;
uniform bool u_light_on;
uniform sampler3D u_light;
uniform ivec3 u_light_size;
uniform ivec3 u_light_origin; // the window's first voxel (global)
uniform ivec3 u_light_slot;   // its texel (light_shading in gfx/light_tex.h)
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;
uniform float u_ambient;

out vec4 o_color;

// the final colour: emitters, the lamp, brightness, fog to the sky (compose.glsl)
vec3 compose(vec3 albedo, vec3 lit, vec3 wpos, vec3 n, float fog);

// back front top bottom left right
const float k_shade[6] = float[6](0.78, 0.70, 1.0, 0.45, 0.62, 0.86);
const vec3 k_normals[6] = vec3[6](vec3(0, 0, 1), vec3(0, 0, -1), vec3(0, 1, 0),
                                  vec3(0, -1, 0), vec3(-1, 0, 0), vec3(1, 0, 0));

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

// Sun, sky and whether the voxel at p holds light: a byte is 0 where
// nothing is stored, else 1 + 254 x the element's light (light_encode in
// light/light.h). Above the world and beyond the window's sides is open
// air, fully lit.
vec3 light_at(vec3 p)
{
    ivec3 w = ivec3(floor(p)) - u_light_origin;
    if (w.y >= u_light_size.y || any(lessThan(w.xz, ivec2(0))) || any(greaterThanEqual(w.xz, u_light_size.xz)))
        return vec3(1.0);
    ivec3 t = light_texel(w);
    if (!light_fresh(t)) return vec3(0.0);
    vec2 b = texelFetch(u_light, t, 0).rg * 255.0;
    return b.x + b.y > 0.5 ? vec3((b - 1.0) / 254.0, 1.0) : vec3(0.0);
}

// The light a fragment face takes (sun, sky). Light is per voxel,
// fragments are finer: a face inside an eroded solid voxel reads the voxel
// a whole step in front, or the one above it (the open side of a
// stratum); the brightest element of the three (cells without light
// count as none).
vec2 surface_light(vec3 world, vec3 n)
{
    vec3 p = world + n * (0.5 / u_factor);
    return max(max(light_at(p), light_at(world + n)), light_at(p + vec3(0.0, 1.0, 0.0))).xy;
}

void main()
{
    vec4 tex = texture(u_atlas, v_uvw);
    // leaves are drawn solid, their holes dark, as chunk.frag does
    vec3 albedo = tex.rgb * mix(0.4, 1.0, tex.a);
    if (v_tint > 0u) {
        float lum = dot(albedo, vec3(0.299, 0.587, 0.114));
        albedo = u_tints[min(v_tint, 7u)] * (0.45 + 0.9 * lum);
    }
    uint face = min(v_face, 5u);
    // the fragment this pixel belongs to: step half a fragment inside
    ivec3 f = ivec3(floor((v_world - k_normals[face] * (0.5 / u_factor)) * u_factor));
    uint h = uint(f.x) * 73856093u ^ uint(f.y) * 19349663u ^ uint(f.z) * 83492791u;
    float jitter = 0.93 + 0.07 * float((h >> 8) & 255u) / 255.0;
    vec3 lit = albedo * k_shade[face] * jitter;
    if (u_light_on) {
        vec3 n = k_normals[face];
        vec2 sl = surface_light(v_world, n);
        // the floor keeps faces the voxel-scale light cannot see into
        // (under a fragment overhang) from going black
        vec3 l = u_ambient + sl.x * u_sun_color + sl.y * (0.75 + 0.25 * n.y) * u_sky_color;
        lit *= max(l, vec3(0.35));
    }
    float fog = smoothstep(u_fog_start, u_fog_end, v_dist);
    o_color = vec4(compose(albedo, lit, v_world, k_normals[face], fog), 1.0);
}
