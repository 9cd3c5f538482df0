#version 450 core
// Surface nets pass 3 of 4 (ConstructIBuffer): one thread per cell looks at
// the three grid edges leaving its minimum corner; across each edge with a
// sign change it appends a quad through the vertices of the four cells
// around it (from the lookup table), wound so its front faces out of the
// solid, split 0-1-2 / 0-2-3 like the CPU reference.
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer Com { vec4 com[]; };
layout(std430, binding = 4) readonly buffer Lut { int lut[]; };
layout(std430, binding = 5) writeonly buffer Indices { uint idx[]; };
layout(std430, binding = 6) buffer Counters { uint index_count; uint instances; uint first_index; int base_vertex; uint base_instance; uint vertex_count; };
uniform ivec3 u_dims;
uniform ivec3 u_own_lo; // first sample an edge along each axis may start at (chunk face ownership)
uniform uint u_max_indices;

void emit(uint a, uint b, uint c, uint d, bool flip)
{
    uint i = atomicAdd(index_count, 6u);
    if (i + 6u > u_max_indices) return; // sized by the caller: never taken
    if (!flip) {
        idx[i] = a; idx[i + 1u] = b; idx[i + 2u] = c; idx[i + 3u] = a; idx[i + 4u] = c; idx[i + 5u] = d;
    } else {
        idx[i] = a; idx[i + 1u] = d; idx[i + 2u] = c; idx[i + 3u] = a; idx[i + 4u] = c; idx[i + 5u] = b;
    }
}

void main()
{
    uint cell = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 64u + gl_LocalInvocationID.x;
    ivec3 nc = u_dims - 1;
    if (cell >= uint(nc.x * nc.y * nc.z)) return;
    float w = com[cell].w;
    if (w < 0.0) return;
    uint mask = uint(w);
    int x = int(cell) % nc.x, y = (int(cell) / nc.x) % nc.y, z = int(cell) / (nc.x * nc.y);
    int ci = int(cell), sx = 1, sy = nc.x, sz = nc.x * nc.y;
    bool flip = (mask & 1u) == 0u; // minimum corner outside: the solid is on the far side
    if ((((mask ^ (mask >> 1)) & 1u) != 0u) && y > 0 && z > 0 && x >= u_own_lo.x)
        emit(uint(lut[ci - sy - sz]), uint(lut[ci - sz]), uint(lut[ci]), uint(lut[ci - sy]), flip);
    if ((((mask ^ (mask >> 2)) & 1u) != 0u) && x > 0 && z > 0 && y >= u_own_lo.y)
        emit(uint(lut[ci - sx - sz]), uint(lut[ci - sx]), uint(lut[ci]), uint(lut[ci - sz]), flip);
    if ((((mask ^ (mask >> 4)) & 1u) != 0u) && x > 0 && y > 0 && z >= u_own_lo.z)
        emit(uint(lut[ci - sx - sy]), uint(lut[ci - sy]), uint(lut[ci]), uint(lut[ci - sx]), flip);
}
