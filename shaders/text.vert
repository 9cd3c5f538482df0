#version 450 core
// text: one instance per glyph or rectangle; the four strip vertices are the
// corners of the instance's screen box (pixels, origin top-left).
layout(location = 0) in ivec4 a_rect;  // x0 y0 x1 y1
layout(location = 1) in vec4 a_uv;     // u0 v0 u1 v1, normalised
layout(location = 2) in vec4 a_color;

uniform vec2 u_screen;

out vec2 v_uv;
out vec4 v_color;

void main()
{
    vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);
    vec2 p = mix(vec2(a_rect.xy), vec2(a_rect.zw), corner);
    v_uv = mix(a_uv.xy, a_uv.zw, corner);
    v_color = a_color;
    vec2 ndc = p / u_screen * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
