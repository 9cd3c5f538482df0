#version 450 core
// The edit preview (engine/gfx/preview.h): a pixel is marked when the
// first voxel behind its surface point (read back from depth) that is not
// empty is in the set; marked pixels with an unmarked neighbour u_px away
// are the outline.
uniform sampler2D u_depth;      // the frame's depth
uniform usampler3D u_mask;      // texel (x, z, y) of voxel lo + (x, y, z)
uniform mat4 u_inv_viewproj;    // clip -> render-origin-relative world
uniform vec3 u_eye;             // relative to the render origin
uniform ivec3 u_lo;             // the set's first voxel, relative to the render origin
uniform ivec3 u_size;
uniform vec2 u_screen;
uniform vec4 u_fill;
uniform vec4 u_outline;
uniform float u_px;
uniform int u_soft;

out vec4 o_color;

// PREVIEW_EMPTY 0, PREVIEW_SOLID 1, PREVIEW_MARKED 2; outside the box: solid
uint voxel(vec3 p)
{
    ivec3 v = ivec3(floor(p)) - u_lo;
    if (any(lessThan(v, ivec3(0))) || any(greaterThanEqual(v, u_size))) return 1u;
    return texelFetch(u_mask, ivec3(v.x, v.z, v.y), 0).r;
}

bool marked(vec2 frag)
{
    ivec2 t = ivec2(floor(frag));
    if (any(lessThan(t, ivec2(0))) || any(greaterThanEqual(vec2(t), u_screen))) return false;
    float d = texelFetch(u_depth, t, 0).r;
    if (d >= 1.0) return false; // sky
    vec4 q = u_inv_viewproj * vec4((vec2(t) + 0.5) / u_screen * 2.0 - 1.0, d * 2.0 - 1.0, 1.0);
    vec3 p = q.xyz / q.w;
    vec3 dir = normalize(p - u_eye);
    // a hair behind the surface: inside the voxel whose face was drawn;
    // a rounded surface may lie up to a voxel in front of it
    int steps = u_soft != 0 ? 5 : 2;
    for (int k = 0; k < steps; k++) {
        uint m = voxel(p + (0.03 + 0.25 * float(k)) * dir);
        if (m != 0u) return m == 2u;
    }
    return false;
}

void main()
{
    vec2 f = gl_FragCoord.xy;
    if (!marked(f)) discard;
    bool edge = !marked(f + vec2(u_px, 0.0)) || !marked(f - vec2(u_px, 0.0)) || !marked(f + vec2(0.0, u_px)) ||
                !marked(f - vec2(0.0, u_px));
    o_color = edge ? u_outline : u_fill;
}
