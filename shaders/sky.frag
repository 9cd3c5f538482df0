#version 450 core
// The sky: compose.frag's gradient and glow in the pixel's direction, the
// sun's disc at the light's sun, and a few cheap clouds (a band of noise
// on a plane high above the eye, fading towards the horizon).
in vec2 v_ndc;

uniform mat4 u_inv_viewproj;
uniform float u_sun_cos;     // cosine of the disc's angular radius
uniform bool u_clouds;

out vec4 o_color;

vec3 sky_color(vec3 dir);
uniform vec3 u_eye;
uniform vec3 u_sky_sun;
uniform vec3 u_sky_sun_color;

float hash2(vec2 p)
{
    return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453);
}

float cloud_noise(vec2 p)
{
    vec2 i = floor(p), f = fract(p);
    f = f * f * (3.0 - 2.0 * f);
    return mix(mix(hash2(i), hash2(i + vec2(1, 0)), f.x), mix(hash2(i + vec2(0, 1)), hash2(i + vec2(1, 1)), f.x), f.y);
}

void main()
{
    vec4 far = u_inv_viewproj * vec4(v_ndc, 1.0, 1.0);
    vec3 dir = normalize(far.xyz / far.w - u_eye);
    vec3 c = sky_color(dir);
    float s = dot(dir, u_sky_sun);
    c = mix(c, u_sky_sun_color * 1.25, smoothstep(u_sun_cos - 0.00015, u_sun_cos + 0.00005, s));
    if (u_clouds && dir.y > 0.02) {
        // where the view ray meets a plane 400 voxels up (the eye's own
        // place left out: the clouds keep still as the player walks)
        vec2 q = dir.xz / dir.y * 0.004;
        float k = cloud_noise(q * 3.0) * 0.6 + cloud_noise(q * 7.0 + 3.1) * 0.3 + cloud_noise(q * 17.0 + 1.7) * 0.1;
        float cover = smoothstep(0.55, 0.8, k) * smoothstep(0.02, 0.25, dir.y);
        c = mix(c, vec3(0.96, 0.97, 1.0), cover * 0.8);
    }
    o_color = vec4(c, 1.0);
}
