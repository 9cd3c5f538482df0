#version 450 core
// The far rings (gfx/far.h): a ring leaves out, fragment by fragment, what
// is drawn nearer (the square of the ring inside it, the columns the near
// field drew), then fogs to the sky as every terrain pass does.
in vec3 v_albedo;
in vec3 v_lit;
in vec3 v_wpos;
in vec3 v_normal;
in float v_dist;

uniform bool u_hole_on;
uniform vec4 u_hole;         // x0, z0, x1, z1 of the ring inside, relative to the render origin
uniform bool u_mask_on;
uniform sampler2D u_mask;    // R8 texel of byte 1 (reads 1/255) where the near field drew the column, else 0
uniform ivec2 u_mask_origin; // the mask's first column's first voxel, relative to the render origin
uniform ivec2 u_mask_size;
uniform float u_fog_start;
uniform float u_fog_end;

out vec4 o_color;

vec3 compose(vec3 albedo, vec3 lit, vec3 wpos, vec3 n, float fog);

void main()
{
    if (u_hole_on && all(greaterThan(v_wpos.xz, u_hole.xy)) && all(lessThan(v_wpos.xz, u_hole.zw))) discard;
    if (u_mask_on) {
        ivec2 c = ivec2(floor((v_wpos.xz - vec2(u_mask_origin)) / 32.0));
        if (all(greaterThanEqual(c, ivec2(0))) && all(lessThan(c, u_mask_size)) && texelFetch(u_mask, c, 0).r > 0.0)
            discard;
    }
    float fog = smoothstep(u_fog_start, u_fog_end, v_dist);
    o_color = vec4(compose(v_albedo, v_lit, v_wpos, v_normal, fog), 1.0);
}
