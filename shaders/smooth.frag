#version 450 core
// Triplanar texturing (seed 004 section 5): the atlas tile of the material
// is projected along x, y and z and blended by the normal's dominant axes;
// coordinates are the world position's, so one tile spans one voxel as in
// blocks mode. Up-facing projections take the material's top tile, the
// others its side tile. Sun, sky, fog and cut tints as chunk.frag.
in vec3 v_world;
in vec3 v_normal;
in float v_dist;
in vec2 v_light; // sun, sky: from the light volume, per vertex
flat in uint v_mat;
in vec4 v_tint;

uniform sampler2DArray u_atlas;
uniform uvec4 u_tiles[32];   // per material: top, bottom, side tile
uniform vec3 u_sun;
uniform vec3 u_fog_color;
uniform float u_fog_start;
uniform float u_fog_end;
// A falling body's nets (gfx/body_draw): world -> the body's grid, so its
// textures turn with it instead of sliding over it as it tumbles
uniform bool u_on_body;
uniform mat4 u_grid;

// Snowflake light, as chunk.frag (the volume is read in the vertex shader)
uniform bool u_light_on;
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;
uniform float u_ambient;

out vec4 o_color;

// the final colour: emitters, the lamp, brightness, fog to the sky (compose.glsl)
vec3 compose(vec3 albedo, vec3 lit, vec3 wpos, vec3 n, float fog);

vec3 tile(float layer, vec2 uv)
{
    vec4 t = texture(u_atlas, vec3(uv, layer));
    return t.rgb * (0.55 + 0.45 * t.a); // cut-out holes (leaves) read as shade, not as holes
}

void main()
{
    vec3 n = normalize(v_normal);
    vec3 tp = v_world, tn = n; // where and which way the texture is projected
    if (u_on_body) {
        tp = (u_grid * vec4(v_world, 1.0)).xyz;
        tn = mat3(u_grid) * n;
    }
    // sharp weights: most fragments are near one axis and fetch once (the
    // paper's dominant-axis weighting; a software rasterizer pays per fetch)
    vec3 w = abs(tn);
    w *= w;
    w *= w;
    w *= w;
    w = max(w - 0.002, 0.0);
    w /= (w.x + w.y + w.z);
    uvec4 t = u_tiles[min(v_mat, 31u)];
    vec3 albedo = vec3(0.0);
    if (w.x > 0.0) albedo += w.x * tile(float(t.z), vec2(tp.z, -tp.y));
    if (w.y > 0.0) albedo += w.y * tile(float(tn.y >= 0.0 ? t.x : t.y), tp.xz);
    if (w.z > 0.0) albedo += w.z * tile(float(t.z), vec2(tp.x, -tp.y));
    if (v_tint.w > 0.01) {
        float lum = dot(albedo, vec3(0.299, 0.587, 0.114));
        albedo = mix(albedo, v_tint.rgb / v_tint.w * (0.45 + 0.9 * lum), v_tint.w);
    }
    vec3 lit;
    if (u_light_on) {
        vec2 sl = v_light;
        float facing = 0.35 + 0.65 * max(dot(n, u_sun), 0.0);
        float up = 0.75 + 0.25 * n.y;
        lit = albedo * (u_ambient + sl.x * facing * u_sun_color + sl.y * up * u_sky_color);
    } else {
        float sun = max(dot(n, u_sun), 0.0);
        float sky = 0.55 + 0.25 * n.y;
        lit = albedo * (sky + 0.5 * sun);
    }
    float fog = smoothstep(u_fog_start, u_fog_end, v_dist);
    o_color = vec4(compose(albedo, lit, v_world, n, fog), 1.0);
}
