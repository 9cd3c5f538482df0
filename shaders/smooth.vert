#version 450 core
// Smooth terrain (surface nets, engine/mesh/mesh_smooth.h): float chunk-local
// positions, snorm8 normals, the cell's material and tint.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_nrm;
layout(location = 2) in uvec2 a_mat; // material, tint
// The chunk: its origin relative to the render origin (xyz) and the
// coarse reach of its level (w, below). A constant attribute per draw on
// the read-back path; per instance (the draw command's) on the GPU cull's
// multi-draws (engine/gfx/gpu_cull.h). Zero for a body's nets.
layout(location = 3) in vec4 a_chunk;

uniform mat4 u_viewproj;
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
// a_chunk.w, the coarse reach: 0 at level of detail 0. At a coarse level,
// a vertex may lie inside the terrain the light was computed for, or above
// the one-voxel shell of elements (free air holds no light): where no
// element is half a voxel out, the elements this far out

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
// nothing is stored (solid, free air, not baked), else 1 + 254 x the
// element's light (light_encode in light/light.h). Above the world and
// beyond the window's sides is open air, fully lit.
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

// Trilinear between the voxel centres around p, over the elements only
// (solid voxels and free air hold no light; blended in as zeros they drew
// dark bands at every terrace foot): the weighted sum in xy, the weight
// in z.
vec3 light_trilinear(vec3 p)
{
    vec3 q = p - 0.5;
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
    return acc;
}

// The light a vertex takes (sun, sky): the elements half a voxel out
// along its normal. A coarse level's vertex stands for the outer shell of
// what it smooths over (a canopy, a terrace's edge) and may lie inside it,
// among the dim elements of its hollows, or above the shell of elements.
// It reads the coarse reach out as well, and twice that (a vertex a whole
// cell deep in the canopy it smooths finds the dim elements of its inner
// gaps a reach out; two reaches out lie above the canopy's outer shell),
// and takes the brightest, as an enhanced fragment takes the brightest of
// its reads. Where neither the half-voxel nor the reach read finds an
// element, the smoothing has swept the vertex out into the free air beyond
// the shell (a canopy's crown rounded up by half a cell): the shell lies
// behind it, and reads inward, half the reach and the whole of it, stand
// in for those two. Inward reads come only then, so that a thin wall's far
// side never lights a vertex that found its own side's elements. A vertex
// that finds no element either way stands in open air farther than a cell
// from any surface the light was computed for (a crown at the near
// field's edge, over columns whose light has not landed): open air is
// fully lit, as above the world and beyond the window's sides, and as the
// far rings light every face.
vec2 light_mean(vec3 a) { return a.z > 1e-6 ? a.xy / a.z : vec2(0.0); }

vec2 surface_light(vec3 wp, vec3 n, float reach)
{
    vec3 a = light_trilinear(wp + n * 0.5);
    if (reach <= 0.0) return light_mean(a);
    vec3 b = light_trilinear(wp + n * reach);
    if (a.z + b.z <= 1e-6) {
        a = light_trilinear(wp - n * (0.5 * reach));
        b = light_trilinear(wp - n * reach);
        if (a.z + b.z <= 1e-6) return vec2(1.0);
    }
    vec2 near = light_mean(a), far = light_mean(b);
    vec2 best = far.x + far.y > near.x + near.y ? far : near;
    vec2 out2 = light_mean(light_trilinear(wp + n * (2.0 * reach)));
    return out2.x + out2.y > best.x + best.y ? out2 : best;
}

void main()
{
    vec3 wp = (u_model * vec4(a_chunk.xyz + a_pos, 1.0)).xyz;
    v_world = wp;
    v_normal = mat3(u_model) * a_nrm.xyz;
    v_mat = a_mat.x;
    v_tint = a_mat.y > 0u ? vec4(u_tints[min(a_mat.y, 7u)], 1.0) : vec4(0.0);
    v_dist = distance(wp, u_camera);
    vec3 n = normalize(v_normal);
    if (!u_light_on) {
        v_light = vec2(1.0);
    } else {
        v_light = surface_light(wp, n, a_chunk.w);
    }
    v_light = max(v_light, u_light_floor);
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
