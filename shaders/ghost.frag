#version 450 core
// Flat colour, shaded by a fixed light in world space so the faces of the
// tool differ and it reads as a solid as it turns, plus faint lines on the
// voxel grid (what a cut removes is voxels). u_alpha scales the alpha per
// pass: front faces, far side, and the buried part.
in vec3 v_grid;
flat in vec3 v_normal;
flat in uint v_face;

uniform vec4 u_color;
uniform float u_alpha;
uniform int u_lines;     // 1: drawing the outline (lines): flat lit colour

out vec4 o_color;

const vec3 k_light = vec3(0.3, 1.0, 0.6) / 1.2042;

// 1 on a voxel boundary, fading over about a pixel; 0 once the lines would
// be denser than a few pixels apart (they would only shimmer).
float grid_line(float c)
{
    float w = fwidth(c);
    float d = abs(fract(c + 0.5) - 0.5);
    float line = 1.0 - smoothstep(0.5 * w, 1.5 * w, d);
    return line * (1.0 - smoothstep(0.08, 0.25, w));
}

void main()
{
    // half-Lambert: faces turned away from the light still differ from each other
    float l = 0.5 + 0.5 * dot(normalize(v_normal), k_light);
    vec3 rgb = u_color.rgb * (0.45 + 0.55 * l);
    if (u_lines != 0) {
        o_color = vec4(mix(rgb, vec3(1.0), 0.25), clamp(u_color.a * u_alpha, 0.0, 1.0));
        return;
    }
    uint axis = v_face / 2u;
    vec2 inplane = axis == 0u ? v_grid.yz : axis == 1u ? v_grid.zx : v_grid.xy;
    float line = max(grid_line(inplane.x), grid_line(inplane.y));
    rgb = mix(rgb, vec3(1.0), 0.35 * line);
    o_color = vec4(rgb, clamp(u_color.a * u_alpha * (1.0 + 0.5 * line), 0.0, 1.0));
}
