#version 450 core
// Surface nets pass 4 of 4 (ComputeNormals): the normal of each vertex is
// the normalised gradient of the trilinear field at the vertex (as the CPU
// reference), smoother than face cross products on a voxel-derived field.
// w carries material + 256 * tint of the cell when a material grid is
// given (else 0), by mesh_smooth's rules in corner order 2 3 6 7 0 1 4 5:
// the material of the first inside corner, the tint of the first outside
// corner that has one (a cut paints the cells it carves).
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Field { float d[]; };
layout(std430, binding = 2) readonly buffer Verts { vec4 verts[]; };
layout(std430, binding = 3) writeonly buffer Normals { vec4 nrm[]; };
layout(std430, binding = 4) readonly buffer Lut { int lut[]; };
// one byte per sample, 4 per word: the materials, then the tints from the next word
layout(std430, binding = 7) readonly buffer Mats { uint mats[]; };
uniform ivec3 u_dims;
uniform bool u_has_mats;

const ivec2 k_edges[12] = ivec2[12](ivec2(0, 1), ivec2(2, 3), ivec2(4, 5), ivec2(6, 7),
                                    ivec2(0, 2), ivec2(1, 3), ivec2(4, 6), ivec2(5, 7),
                                    ivec2(0, 4), ivec2(1, 5), ivec2(2, 6), ivec2(3, 7));
const int k_top_first[8] = int[8](2, 3, 6, 7, 0, 1, 4, 5);

void main()
{
    uint cell = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 64u + gl_LocalInvocationID.x;
    ivec3 nc = u_dims - 1;
    if (cell >= uint(nc.x * nc.y * nc.z)) return;
    int v = lut[cell];
    if (v < 0) return;
    int x = int(cell) % nc.x, y = (int(cell) / nc.x) % nc.y, z = int(cell) / (nc.x * nc.y);
    int sxy = u_dims.x * u_dims.y, base = x + y * u_dims.x + z * sxy;
    int off[8] = int[8](0, 1, u_dims.x, u_dims.x + 1, sxy, sxy + 1, sxy + u_dims.x, sxy + u_dims.x + 1);
    float c[8];
    for (int i = 0; i < 8; i++) c[i] = d[base + off[i]];
    uint mask = 0u;
    for (int i = 0; i < 8; i++) mask |= uint(c[i] < 0.0) << i;
    vec3 f = verts[v].xyz - vec3(x, y, z);
    vec3 g;
    g.x = (1.0 - f.y) * (1.0 - f.z) * (c[1] - c[0]) + f.y * (1.0 - f.z) * (c[3] - c[2]) + (1.0 - f.y) * f.z * (c[5] - c[4]) + f.y * f.z * (c[7] - c[6]);
    g.y = (1.0 - f.x) * (1.0 - f.z) * (c[2] - c[0]) + f.x * (1.0 - f.z) * (c[3] - c[1]) + (1.0 - f.x) * f.z * (c[6] - c[4]) + f.x * f.z * (c[7] - c[5]);
    g.z = (1.0 - f.x) * (1.0 - f.y) * (c[4] - c[0]) + f.x * (1.0 - f.y) * (c[5] - c[1]) + (1.0 - f.x) * f.y * (c[6] - c[2]) + f.x * f.y * (c[7] - c[3]);
    if (!(dot(g, g) > 1e-24)) { // a flat saddle: the crossings' outward sides
        g = vec3(0.0);
        for (int i = 0; i < 12; i++) {
            int a = k_edges[i].x, b = k_edges[i].y;
            if (((mask >> a) & 1u) == ((mask >> b) & 1u)) continue;
            float s = ((mask >> a) & 1u) != 0u ? 1.0 : -1.0;
            if (i < 4) g.x += s;
            else if (i < 8) g.y += s;
            else g.z += s;
        }
        if (!(dot(g, g) > 0.0)) g = vec3(0.0, 1.0, 0.0);
    }
    uint m = 0u, t = 0u;
    if (u_has_mats) {
        uint tint_at = uint(u_dims.x * u_dims.y * u_dims.z + 3) >> 2;
        bool found = false;
        for (int k = 0; k < 8; k++) {
            int i = k_top_first[k];
            uint s = uint(base + off[i]);
            if (c[i] < 0.0 && !found) {
                m = (mats[s >> 2] >> ((s & 3u) * 8u)) & 255u;
                found = true;
            }
            if (c[i] >= 0.0 && t == 0u) t = (mats[tint_at + (s >> 2)] >> ((s & 3u) * 8u)) & 255u;
        }
    }
    nrm[v] = vec4(normalize(g), float(m + 256u * t));
}
