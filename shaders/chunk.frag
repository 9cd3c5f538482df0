#version 450 core
// Directional sun + sky ambient, solid foliage and translucent passes, distance
// fog that hides the world edge, and the cutting tool's tints.
in vec3 v_uvw;
in vec3 v_normal;
in vec3 v_wpos;
in float v_dist;
flat in uint v_tint;

uniform sampler2DArray u_atlas;
uniform int u_pass;          // 0 opaque, 1 cut-out, 2 translucent
flat in int v_coarse;        // 1: the chunk's coarse level (engine/mesh/mesh_lod.h)
uniform vec3 u_sun;          // normalised direction towards the sun
uniform vec3 u_fog_color;
uniform float u_fog_start;
uniform float u_fog_end;
uniform vec3 u_tints[8];
// Snowflake light (seed 000): sun and sky per voxel, read at the voxel in
// front of the face; above the world is open sky.
uniform bool u_light_on;
uniform sampler3D u_light;
uniform ivec3 u_light_size;
uniform ivec3 u_light_origin; // the window's first voxel (global)
uniform ivec3 u_light_slot;   // its texel (light_shading in gfx/light_tex.h)
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;
uniform float u_ambient;
uniform bool u_light_smooth;  // blend the elements around each point of a face
// Least light a face takes (0 for terrain). A falling body's faces read
// cells of open air the particles store nothing for (only cells beside
// surfaces hold light), which would draw it black; see gfx/body_draw.h.
uniform vec2 u_light_floor;

out vec4 o_color;

// the final colour: emitters, the lamp, brightness, fog to the sky (compose.glsl)
vec3 compose(vec3 albedo, vec3 lit, vec3 wpos, vec3 n, float fog);

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

// Sun, sky and whether voxel c (global) holds light at all. A byte is 0
// where nothing is stored (solid, free air, not baked), else 1 + 254 x
// the element's light (light_encode in light/light.h). Above the world and
// beyond its sides is open air, fully lit.
vec3 light_cell(ivec3 c)
{
    ivec3 w = c - u_light_origin;
    if (w.y >= u_light_size.y || any(lessThan(w.xz, ivec2(0))) || any(greaterThanEqual(w.xz, u_light_size.xz)))
        return vec3(1.0);
    ivec3 t = light_texel(w);
    if (!light_fresh(t)) return vec3(0.0);
    vec2 b = texelFetch(u_light, t, 0).rg * 255.0;
    return b.x + b.y > 0.5 ? vec3((b - 1.0) / 254.0, 1.0) : vec3(0.0);
}

// The light a face takes (sun, sky), from the elements it stands for and
// never from cells that hold none. p: the fragment on the face, pulled
// inside its quad (chunk.vert); n: its normal.
// - A fine face: the layer of air in front of it, filtered bilinearly over
//   the elements around p in that layer (smooth light: corners blend, a
//   wall's foot darkens gradually), solid cells left out.
// - A coarse face (mesh_lod.h) stands on a 2x2x2 cell grown solid if any
//   of its voxels is, up to a voxel off the real surface, sideways too:
//   it takes the mean of the elements among the voxels it covers, its
//   cell's top layer and the layer in front, 2x2 each.
vec2 surface_light(vec3 p, vec3 n, bool coarse)
{
    ivec3 ni = ivec3(round(n)); // n is interpolated: 0.99999 truncates to 0
    ivec3 ta = ivec3(1) - abs(ni); // the face's two axes
    vec3 acc = vec3(0.0);
    if (coarse) {
        ivec3 base = ivec3(floor(p * 0.5)) * 2 * ta + ivec3(floor(p + n * 0.5)) * abs(ni);
        ivec3 u = ta.x != 0 ? ivec3(1, 0, 0) : ivec3(0, 1, 0);
        ivec3 v = ta.z != 0 ? ivec3(0, 0, 1) : ivec3(0, 1, 0);
        for (int i = 0; i < 4; i++) {
            ivec3 c = base + u * (i & 1) + v * (i >> 1);
            acc += light_cell(c) + light_cell(c - ni);
        }
        return acc.z > 0.0 ? acc.xy / acc.z : vec2(0.0);
    }
    if (!u_light_smooth) return light_cell(ivec3(floor(p + n * 0.5))).xy;
    vec3 q = p + n * 0.5 - 0.5 * vec3(ta); // cell centres at integers on the face's axes
    ivec3 b = ivec3(floor(q));
    vec3 f = (q - vec3(b)) * vec3(ta);
    ivec3 u = ta.x != 0 ? ivec3(1, 0, 0) : ivec3(0, 1, 0);
    ivec3 v = ta.z != 0 ? ivec3(0, 0, 1) : ivec3(0, 1, 0);
    float fu = dot(f, vec3(u)), fv = dot(f, vec3(v));
    for (int i = 0; i < 4; i++) {
        vec3 l = light_cell(b + u * (i & 1) + v * (i >> 1));
        float w = ((i & 1) != 0 ? fu : 1.0 - fu) * ((i >> 1) != 0 ? fv : 1.0 - fv) * l.z;
        acc += vec3(l.xy * w, w);
    }
    return acc.z > 1e-4 ? acc.xy / acc.z : light_cell(ivec3(floor(p + n * 0.5))).xy;
}

void main()
{
    vec4 albedo = texture(u_atlas, v_uvw);
    // Foliage is drawn solid: a hole in a leaf tile shows the dark inside of
    // the crown (its transparent texels keep a leaf colour), never the sky
    // through a shell, and nothing is discarded, so early depth works.
    if (u_pass != 2) albedo.rgb *= mix(0.4, 1.0, albedo.a); // mip levels: partly holes, partly dark
    if (v_tint > 0u) {
        // keep the tile's detail, take the tool's colour (paper: coloured tunnels)
        float lum = dot(albedo.rgb, vec3(0.299, 0.587, 0.114));
        albedo.rgb = u_tints[min(v_tint, 7u)] * (0.45 + 0.9 * lum);
    }
    vec3 lit;
    if (u_light_on) {
        vec2 sl = max(surface_light(v_wpos, v_normal, v_coarse != 0), u_light_floor);
        // the particles give shadow and openness; the normal still says
        // which way a face turns, or every lit face would look the same
        float facing = 0.35 + 0.65 * max(dot(v_normal, u_sun), 0.0);
        float up = 0.75 + 0.25 * v_normal.y;
        lit = albedo.rgb * (u_ambient + sl.x * facing * u_sun_color + sl.y * up * u_sky_color);
    } else {
        float sun = max(dot(v_normal, u_sun), 0.0);
        float sky = 0.55 + 0.25 * v_normal.y;   // brighter facing up, darker facing down
        lit = albedo.rgb * (sky + 0.5 * sun);
    }
    float fog = smoothstep(u_fog_start, u_fog_end, v_dist);
    o_color = vec4(compose(albedo.rgb, lit, v_wpos, v_normal, fog), u_pass == 2 ? albedo.a : 1.0);
}
