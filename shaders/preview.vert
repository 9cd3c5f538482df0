#version 450 core
// The edit preview's full-screen triangle (engine/gfx/preview.h); the
// scissor keeps it to the marked voxels' part of the screen.
void main()
{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}
