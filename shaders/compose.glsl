#version 450 core
// The final colour every terrain pass shares, linked into chunk.frag,
// smooth.frag, enhance.frag and plain.frag (and into sky.vert, for the sky's
// colour): the light of emitters and of the player's lamp added to the
// snowflake light a pass computed, the brightness lift of the darks, then
// fog towards the colour of the sky behind the fragment. docs/light.md
// ("Light from emitters") and docs/renderer.md ("Sky and fog").
uniform vec3 u_eye;          // the eye, relative to the render origin as world positions are
uniform vec3 u_fog_color;    // the flat fog of render.sky 0 (the shared uniform of each pass)
uniform bool u_sky_on;
uniform vec3 u_sky_zenith;
uniform vec3 u_sky_horizon;
uniform vec3 u_sky_sun;      // normalised direction towards the sun
uniform vec3 u_sky_sun_color;
// Block light (light/emit.h): one level a voxel, 0..15 as 0..15/255, in the
// world's column slots (global voxel v at texel v mod size), read at the
// voxel in front of the face, whose level is the light on that face.
uniform bool u_emit_on;
uniform sampler3D u_emit;
uniform ivec3 u_emit_size;
uniform ivec3 u_emit_shift;  // the render origin mod the size: relative + shift = global mod size
uniform ivec3 u_emit_lo;     // the window's first voxel, relative
uniform vec3 u_emit_color;
// The player's lamp: a spot at the eye along the view.
uniform bool u_lamp_on;
uniform vec3 u_lamp_dir;
uniform vec3 u_lamp_color;
uniform float u_lamp_range;
uniform float u_brightness;  // view.brightness: 0 leaves the light as it is

vec3 sky_color(vec3 dir)
{
    // flat at the horizon (no crease against the haze below it), rising fast
    float t = smoothstep(0.0, 0.6, dir.y);
    vec3 c = mix(u_sky_horizon, u_sky_zenith, t * (2.0 - t));
    // the glow round the sun, in the sky and in the fog alike
    float s = max(dot(dir, u_sky_sun), 0.0), s2 = s * s, s4 = s2 * s2;
    return c + u_sky_sun_color * (0.22 * s4 * s4 * s4);
}

float emit_at(vec3 p)
{
    ivec3 w = ivec3(floor(p)) - u_emit_lo;
    if (any(lessThan(w.xz, ivec2(0))) || any(greaterThanEqual(w, u_emit_size)) || w.y < 0) return 0.0;
    ivec3 t = w + u_emit_lo + u_emit_shift; // global mod size, plus less than a size
    t.xz = t.xz % u_emit_size.xz;
    t.xz += u_emit_size.xz * ivec2(lessThan(t.xz, ivec2(0)));
    return texelFetch(u_emit, t, 0).r * (255.0 / 15.0);
}

vec3 lamp_at(vec3 wpos, vec3 n)
{
    vec3 d = wpos - u_eye;
    float dist = length(d);
    if (dist >= u_lamp_range) return vec3(0.0);
    vec3 l = d / max(dist, 1e-3);
    float cone = smoothstep(0.78, 0.96, dot(l, u_lamp_dir));
    float fall = 1.0 - dist / u_lamp_range;
    return u_lamp_color * (cone * fall * fall * (0.45 + 0.55 * max(dot(n, -l), 0.0)));
}

// albedo: the surface's colour; lit: albedo times the pass's light; wpos,
// n: where the fragment is and which way it faces; fog: 0..1.
vec3 compose(vec3 albedo, vec3 lit, vec3 wpos, vec3 n, float fog)
{
    vec3 add = vec3(0.0);
    if (u_emit_on) {
        float e = emit_at(wpos + n * 0.5);
        add += u_emit_color * (e * e);
    }
    if (u_lamp_on) add += lamp_at(wpos, n);
    vec3 c = lit + albedo * add;
    if (u_brightness > 0.0) {
        // lifts the darks and leaves the lit alone, as a game's brightness
        // slider does: the light factor L gains b * 0.3 * (1 - L)^6
        vec3 L = clamp(c / max(albedo, vec3(0.004)), 0.0, 1.0);
        vec3 k = (1.0 - L) * (1.0 - L) * (1.0 - L);
        c += albedo * (u_brightness * 0.3) * k * k;
    }
    if (fog <= 0.0) return c; // most fragments: no sky colour to make
    vec3 fogc = u_sky_on ? sky_color(normalize(wpos - u_eye)) : u_fog_color;
    return mix(c, fogc, fog);
}
