#version 450 core
// Surface nets pass 1 of 4 (seed 004, ComputeCOM): one thread per cell.
// A cell whose eight corners differ in sign gets the centre of mass of its
// edge crossings (linear interpolation along each crossing edge), summed
// in the same edge order as the CPU reference (engine/mesh/surfnets.c) so
// the two agree to rounding; w holds the corner sign mask, -1 = no vertex.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Field { float d[]; };
layout(std430, binding = 1) writeonly buffer Com { vec4 com[]; };
uniform ivec3 u_dims; // samples per axis

const ivec2 k_edges[12] = ivec2[12](ivec2(0, 1), ivec2(2, 3), ivec2(4, 5), ivec2(6, 7),
                                    ivec2(0, 2), ivec2(1, 3), ivec2(4, 6), ivec2(5, 7),
                                    ivec2(0, 4), ivec2(1, 5), ivec2(2, 6), ivec2(3, 7));

void main()
{
    uint cell = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 64u + gl_LocalInvocationID.x;
    ivec3 nc = u_dims - 1;
    if (cell >= uint(nc.x * nc.y * nc.z)) return;
    int x = int(cell) % nc.x, y = (int(cell) / nc.x) % nc.y, z = int(cell) / (nc.x * nc.y);
    int sxy = u_dims.x * u_dims.y, base = x + y * u_dims.x + z * sxy;
    float c[8];
    c[0] = d[base]; c[1] = d[base + 1]; c[2] = d[base + u_dims.x]; c[3] = d[base + u_dims.x + 1];
    c[4] = d[base + sxy]; c[5] = d[base + sxy + 1]; c[6] = d[base + sxy + u_dims.x]; c[7] = d[base + sxy + u_dims.x + 1];
    uint mask = 0u;
    for (int i = 0; i < 8; i++) mask |= uint(c[i] < 0.0) << i;
    if (mask == 0u || mask == 255u) {
        com[cell] = vec4(0.0, 0.0, 0.0, -1.0);
        return;
    }
    vec3 s = vec3(0.0);
    int n = 0;
    for (int i = 0; i < 12; i++) {
        int a = k_edges[i].x, b = k_edges[i].y;
        if (((mask >> a) & 1u) == ((mask >> b) & 1u)) continue;
        precise float t = c[a] / (c[a] - c[b]);
        vec3 p = vec3(float(a & 1), float((a >> 1) & 1), float((a >> 2) & 1));
        if (i < 4) p.x += t;
        else if (i < 8) p.y += t;
        else p.z += t;
        s += p;
        n++;
    }
    float inv = 1.0 / float(n);
    com[cell] = vec4(vec3(x, y, z) + s * inv, float(mask));
}
