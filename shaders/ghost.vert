#version 450 core
// The cutting tool's ghost (engine/gfx/ghost.h): quads in the tool's own
// grid, placed by u_mvp = viewproj * translate(pos) * rot * translate(-pivot).
layout(location = 0) in vec3 a_pos;  // tool grid, voxel units
layout(location = 1) in uint a_face; // -x +x -y +y -z +z; outline: two faces (mesh_shape.h)

uniform mat4 u_mvp;
uniform mat3 u_rot;  // the pose's rotation: turns local normals into world ones
uniform int u_lines; // 1: the outline
uniform vec3 u_eye;  // the eye in the tool's grid

out vec3 v_grid;        // for the voxel lines
flat out vec3 v_normal; // world space
flat out uint v_face;

const vec3 k_normals[6] = vec3[6](vec3(-1, 0, 0), vec3(1, 0, 0), vec3(0, -1, 0),
                                  vec3(0, 1, 0), vec3(0, 0, -1), vec3(0, 0, 1));

// A face the eye looks at: every point of its plane is on the eye's side.
bool seen(uint f, vec3 p)
{
    return f > 5u || dot(u_eye - p, k_normals[f]) > 0.0;
}

void main()
{
    uint face = min(a_face & 255u, 5u);
    v_grid = a_pos;
    v_normal = u_rot * k_normals[face];
    v_face = face;
    gl_Position = u_mvp * vec4(a_pos, 1.0);
    // An outline edge whose faces both turn away from the eye lies on the
    // tool's far side: it would only clutter the wire (and cost pixels).
    // Both ends agree (the planes hold the whole edge): moved outside the
    // clip volume, the line is clipped away.
    if (u_lines != 0 && !seen(a_face & 255u, a_pos) && !seen((a_face >> 8) & 255u, a_pos))
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
}
