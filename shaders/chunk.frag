#version 450 core
// Directional sun + sky ambient, solid foliage and translucent passes, distance
// fog that hides the world edge, and the cutting tool's tints.
in vec3 v_uvw;
in vec3 v_normal;
in vec3 v_wpos;
in float v_dist;
flat in uint v_tint;

uniform sampler2DArray u_atlas;
uniform int u_pass;
uniform int u_coarse;        // 1: the chunk's coarse level (engine/mesh/mesh_lod.h)          // 0 opaque, 1 cut-out, 2 translucent
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
// Least light a face takes (0 for terrain). A falling body's faces read
// cells of open air the particles store nothing for (only cells beside
// surfaces hold light), which would draw it black; see gfx/body_draw.h.
uniform vec2 u_light_floor;

out vec4 o_color;

// the final colour: emitters, the lamp, brightness, fog to the sky (compose.glsl)
vec3 compose(vec3 albedo, vec3 lit, vec3 wpos, vec3 n, float fog);

// The texel of window voxel w (clamped into the window): the volume keeps
// the world's toroidal slots, so add the window's first slot and wrap.
ivec3 light_texel(ivec3 w)
{
    ivec3 t = clamp(w, ivec3(0), u_light_size - 1) + u_light_slot;
    return t - u_light_size * ivec3(greaterThanEqual(t, u_light_size));
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
        // the voxel in front of the face; a tiny pull inwards keeps merged
        // quads' edges in the voxel they belong to
        ivec3 cell = ivec3(floor(v_wpos + v_normal * 0.5)) - u_light_origin;
        // above the world and beyond its sides is open air (the faces of
        // the world's edge look out there)
        bool open_air = cell.y >= u_light_size.y || any(lessThan(cell.xz, ivec2(0)))
                     || any(greaterThanEqual(cell.xz, u_light_size.xz));
        vec2 sl = open_air ? vec2(1.0) : texelFetch(u_light, light_texel(cell), 0).rg;
        sl = max(sl, u_light_floor);
        // A coarse chunk's face may stand a voxel above the real surface,
        // in air the particles never reached: the voxel just behind it is
        // then the lit one (and is dark solid when the surface is here).
        if (u_coarse != 0) {
            ivec3 behind = ivec3(floor(v_wpos - v_normal * 0.5)) - u_light_origin;
            sl = max(sl, texelFetch(u_light, light_texel(behind), 0).rg);
        }
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
