#version 450 core
// Surface nets pass 2 of 4 (ConstructVBuffer): every cell with a centre of
// mass appends it to the vertex buffer through an atomic counter and
// writes the vertex's index into the cell lookup table (-1: none).
// w carries the cell number, so results can be compared with the CPU's.
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer Com { vec4 com[]; };
layout(std430, binding = 2) writeonly buffer Verts { vec4 verts[]; };
layout(std430, binding = 4) writeonly buffer Lut { int lut[]; };
// the indirect draw command (count, instances, first, base vertex, base
// instance) followed by the vertex counter: drawn without a readback
layout(std430, binding = 6) buffer Counters { uint index_count; uint instances; uint first_index; int base_vertex; uint base_instance; uint vertex_count; };
uniform ivec3 u_dims;
uniform uint u_max_vertices;

void main()
{
    uint cell = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 64u + gl_LocalInvocationID.x;
    ivec3 nc = u_dims - 1;
    if (cell >= uint(nc.x * nc.y * nc.z)) return;
    vec4 c = com[cell];
    if (c.w < 0.0) {
        lut[cell] = -1;
        return;
    }
    uint v = atomicAdd(vertex_count, 1u);
    if (v >= u_max_vertices) { // sized by the caller from the active cell count: never taken
        lut[cell] = -1;
        return;
    }
    verts[v] = vec4(c.xyz, uintBitsToFloat(cell));
    lut[cell] = int(v);
}
