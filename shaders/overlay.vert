#version 450 core
// Screen-space lines and rectangles (crosshair), positions in pixels.
layout(location = 0) in vec2 a_pos;
uniform vec2 u_screen;
void main()
{
    gl_Position = vec4(a_pos / u_screen * 2.0 - 1.0, 0.0, 1.0);
}
