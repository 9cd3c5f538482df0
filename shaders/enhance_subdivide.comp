#version 450
// Recursive subdivision (seed 000, section 2) of one chunk, one invocation
// per voxel. Must match eval_subdivide in engine/gen/enhance.c bit for bit:
// level k keeps fragments -1 .. 2^k of the voxel on each axis, a fragment
// is on when its parent plus the parent's three face neighbours toward the
// fragment's octant count at least the threshold. With u_materials the rule
// is voxel_rule's: the source material's thresholds, and an empty voxel
// counts only neighbours of its source material's class.
layout(local_size_x = 64) in;

// materials of the chunk and a 2-voxel border, 36^3 bytes (4 per uint), x fastest, then z, then y
layout(std430, binding = 0) readonly buffer Voxels { uint vox[]; };
// per material byte: class | even << 8 | odd << 16 | percent << 24 (enhance_rule_table)
layout(std430, binding = 4) readonly buffer Rules { uint rule[]; };
// F*F rows per voxel (one uint each, bit fx), then a flag per voxel
layout(std430, binding = 2) writeonly buffer Rows { uint rows[]; };
layout(std430, binding = 3) writeonly buffer Flags { uint flags[]; };

uniform int u_levels;
uniform int u_base_y;    // chunk y * 32 - altitude
uniform ivec3 u_thr;     // low, even, odd
uniform bool u_materials;

const int PAD = 2;
const int IN = 36;

uint grid_a[183]; // 18^3 bits
uint grid_b[183];

uint mat_at(ivec3 p)
{
    int i = (p.x + PAD) + (p.z + PAD) * IN + (p.y + PAD) * IN * IN;
    return (vox[i >> 2] >> (8 * (i & 3))) & 255u;
}
bool occupied(ivec3 p) { return mat_at(p) != 0u; }

// source_material in engine/gen/enhance.c: the voxel's own, else the first
// solid face neighbour (below first), else the first solid in the window
uint source_material(ivec3 v)
{
    const ivec3 order[7] = ivec3[7](ivec3(0), ivec3(0, -1, 0), ivec3(-1, 0, 0), ivec3(1, 0, 0), ivec3(0, 0, -1),
                                    ivec3(0, 0, 1), ivec3(0, 1, 0));
    for (int k = 0; k < 7; k++) {
        uint m = mat_at(v + order[k]);
        if (m != 0u) return m;
    }
    for (int dy = -1; dy <= 1; dy++)
        for (int dz = -1; dz <= 1; dz++)
            for (int dx = -1; dx <= 1; dx++) {
                uint m = mat_at(v + ivec3(dx, dy, dz));
                if (m != 0u) return m;
            }
    return 4u; // MAT_STONE, as the CPU (never reached: the window is mixed)
}

uint get_a(int i) { return (grid_a[i >> 5] >> (i & 31)) & 1u; }
uint get_b(int i) { return (grid_b[i >> 5] >> (i & 31)) & 1u; }

void main()
{
    uint id = gl_GlobalInvocationID.x;
    if (id >= 32768u) return;
    ivec3 v = ivec3(int(id & 31u), int(id >> 10), int((id >> 5) & 31u));
    int solid = 0;
    for (int i = 0; i < 183; i++) { grid_a[i] = 0u; grid_b[i] = 0u; }
    for (int dy = -1; dy <= 1; dy++)
        for (int dz = -1; dz <= 1; dz++)
            for (int dx = -1; dx <= 1; dx++) {
                int i = (dx + 1) + (dz + 1) * 3 + (dy + 1) * 9;
                if (occupied(v + ivec3(dx, dy, dz))) {
                    grid_a[i >> 5] |= 1u << (i & 31);
                    solid++;
                }
            }
    if (solid == 0 || solid == 27) {
        flags[id] = 0u;
        return;
    }
    flags[id] = 1u;
    int band = clamp(u_base_y + v.y, -2, 1);
    ivec3 thr3 = u_thr;
    if (u_materials) {
        band = 1; // the material's pattern replaces the altitude rule
        uint src = source_material(v), r = rule[src];
        thr3 = ivec3(int((r >> 8) & 255u), int((r >> 8) & 255u), int((r >> 16) & 255u));
        if (mat_at(v) == 0u) {
            // an empty voxel grows only from neighbours of its class
            for (int i = 0; i < 183; i++) grid_a[i] = 0u;
            for (int dy = -1; dy <= 1; dy++)
                for (int dz = -1; dz <= 1; dz++)
                    for (int dx = -1; dx <= 1; dx++) {
                        uint m = mat_at(v + ivec3(dx, dy, dz));
                        int i = (dx + 1) + (dz + 1) * 3 + (dy + 1) * 9;
                        if (m != 0u && (rule[m] & 255u) == (r & 255u)) grid_a[i >> 5] |= 1u << (i & 31);
                    }
        }
    }
    int n = 3;
    bool in_a = true; // which grid holds the current level
    for (int k = 1; k <= u_levels; k++) {
        int m = (1 << k) + 2;
        for (int i = 0; i < (m * m * m + 31) / 32; i++) {
            if (in_a) grid_b[i] = 0u; else grid_a[i] = 0u;
        }
        for (int cy = -1; cy <= (1 << k); cy++) {
            int py = ((cy + 2) >> 1) - 1, dy = (cy - 2 * py) != 0 ? 1 : -1;
            bool below = band * (1 << k) + cy < 0;
            int thr = below ? thr3.x : ((cy & 1) != 0 ? thr3.z : thr3.y);
            for (int cz = -1; cz <= (1 << k); cz++) {
                int pz = ((cz + 2) >> 1) - 1, dz = (cz - 2 * pz) != 0 ? 1 : -1;
                for (int cx = -1; cx <= (1 << k); cx++) {
                    int px = ((cx + 2) >> 1) - 1, dx = (cx - 2 * px) != 0 ? 1 : -1;
                    int i0 = (px + 1) + (pz + 1) * n + (py + 1) * n * n;
                    int i1 = i0 + dx, i2 = i0 + dy * n * n, i3 = i0 + dz * n;
                    uint count = in_a ? get_a(i0) + get_a(i1) + get_a(i2) + get_a(i3)
                                      : get_b(i0) + get_b(i1) + get_b(i2) + get_b(i3);
                    if (int(count) >= thr) {
                        int o = (cx + 1) + (cz + 1) * m + (cy + 1) * m * m;
                        if (in_a) grid_b[o >> 5] |= 1u << (o & 31); else grid_a[o >> 5] |= 1u << (o & 31);
                    }
                }
            }
        }
        in_a = !in_a;
        n = m;
    }
    int f = 1 << u_levels;
    uint base = id * uint(f * f);
    for (int fy = 0; fy < f; fy++)
        for (int fz = 0; fz < f; fz++) {
            uint row = 0u;
            for (int fx = 0; fx < f; fx++) {
                int i = (fx + 1) + (fz + 1) * n + (fy + 1) * n * n;
                uint b = in_a ? get_a(i) : get_b(i);
                row |= b << fx;
            }
            rows[base + uint(fy * f + fz)] = row;
        }
}
