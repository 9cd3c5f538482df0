#version 450 core
// The sky as a grid of quads over the screen at the far plane, drawn where
// nothing else was (depth test LEQUAL against the cleared depth). The
// gradient, the sun's glow and the clouds are smooth at a grid cell's scale,
// so they are made per corner (compose.glsl's sky_color, linked into this
// stage too) and interpolated: a pixel of sky costs a software rasterizer
// almost nothing. The far plane's points are affine in the screen's, so the
// view ray interpolates exactly, for the disc.
uniform mat4 u_inv_viewproj;
uniform vec3 u_eye;
uniform ivec2 u_cells;
uniform bool u_clouds;

noperspective out vec3 v_ray;
noperspective out vec3 v_sky;

vec3 sky_color(vec3 dir);

float hash2(vec2 p)
{
    vec3 q = fract(vec3(p.xyx) * 0.1031);
    q += dot(q, q.yzx + 33.33);
    return fract((q.x + q.y) * q.z);
}

float value_noise(vec2 p)
{
    vec2 i = floor(p), f = fract(p);
    f = f * f * (3.0 - 2.0 * f);
    return mix(mix(hash2(i), hash2(i + vec2(1, 0)), f.x), mix(hash2(i + vec2(0, 1)), hash2(i + vec2(1, 1)), f.x), f.y);
}

const ivec2 k_corner[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(1, 1), ivec2(0, 0), ivec2(1, 1), ivec2(0, 1));

void main()
{
    int cell = gl_VertexID / 6;
    ivec2 c = ivec2(cell % u_cells.x, cell / u_cells.x) + k_corner[gl_VertexID % 6];
    vec2 p = vec2(c) / vec2(u_cells) * 2.0 - 1.0;
    vec4 far = u_inv_viewproj * vec4(p, 1.0, 1.0);
    v_ray = far.xyz / far.w - u_eye;
    vec3 dir = normalize(v_ray);
    vec3 col = sky_color(dir);
    if (u_clouds && dir.y > 0.02) {
        // soft clouds where the ray meets a plane high above, thinning
        // towards the horizon; fixed in the world, not to the eye
        vec2 q = dir.xz / dir.y * 1.2;
        float k = value_noise(q) * 0.65 + value_noise(q * 2.3 + 3.1) * 0.35;
        float cover = smoothstep(0.55, 0.8, k) * smoothstep(0.02, 0.25, dir.y);
        col = mix(col, vec3(0.96, 0.97, 1.0), cover * 0.8);
    }
    v_sky = col;
    gl_Position = vec4(p, 1.0, 1.0);
}
