#version 450 core
// The cutting tool's ghost (engine/gfx/ghost.h): quads in the tool's own
// grid, placed by u_mvp = viewproj * translate(pos) * rot * translate(-pivot).
layout(location = 0) in vec3 a_pos;  // tool grid, voxel units
layout(location = 1) in uint a_face; // -x +x -y +y -z +z

uniform mat4 u_mvp;
uniform mat3 u_rot;  // the pose's rotation: turns local normals into world ones

out vec3 v_grid;        // for the voxel lines
flat out vec3 v_normal; // world space
flat out uint v_face;

const vec3 k_normals[6] = vec3[6](vec3(-1, 0, 0), vec3(1, 0, 0), vec3(0, -1, 0),
                                  vec3(0, 1, 0), vec3(0, 0, -1), vec3(0, 0, 1));

void main()
{
    uint face = min(a_face, 5u);
    v_grid = a_pos;
    v_normal = u_rot * k_normals[face];
    v_face = face;
    gl_Position = u_mvp * vec4(a_pos, 1.0);
}
