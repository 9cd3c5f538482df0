#version 450
// Direct resampling (seed 000, section 3) of one chunk, one invocation per
// voxel. Must match eval_resample in engine/gen/enhance.c bit for bit: the
// probe offsets and fragment centres are integers in 1/(2F * 256) of a
// voxel, so every probe lands in the same voxel as on the CPU. With
// u_materials the rule is voxel_rule's: the source material's percentage,
// and an empty voxel counts only probes that land in its material's class.
layout(local_size_x = 64) in;

// materials, 36^3 bytes (4 per uint); rules per material byte (class | ... | percent << 24)
layout(std430, binding = 0) readonly buffer Voxels { uint vox[]; };
layout(std430, binding = 4) readonly buffer Rules { uint rule[]; };
layout(std430, binding = 1) readonly buffer Probes { int probe[]; }; // xyz triples
layout(std430, binding = 2) writeonly buffer Rows { uint rows[]; };
layout(std430, binding = 3) writeonly buffer Flags { uint flags[]; };

uniform int u_factor;
uniform int u_probes;
uniform int u_percent;
uniform int u_radius;
uniform bool u_materials;

const int PAD = 2;
const int IN = 36;
const int SUBUNIT = 256;

uint mat_at(ivec3 p)
{
    int i = (p.x + PAD) + (p.z + PAD) * IN + (p.y + PAD) * IN * IN;
    return (vox[i >> 2] >> (8 * (i & 3))) & 255u;
}
bool occupied(ivec3 p) { return mat_at(p) != 0u; }

// source_material in engine/gen/enhance.c (the window reaches u_radius)
uint source_material(ivec3 v, int r)
{
    const ivec3 order[7] = ivec3[7](ivec3(0), ivec3(0, -1, 0), ivec3(-1, 0, 0), ivec3(1, 0, 0), ivec3(0, 0, -1),
                                    ivec3(0, 0, 1), ivec3(0, 1, 0));
    for (int k = 0; k < 7; k++) {
        uint m = mat_at(v + order[k]);
        if (m != 0u) return m;
    }
    for (int dy = -r; dy <= r; dy++)
        for (int dz = -r; dz <= r; dz++)
            for (int dx = -r; dx <= r; dx++) {
                uint m = mat_at(v + ivec3(dx, dy, dz));
                if (m != 0u) return m;
            }
    return 4u; // MAT_STONE, as the CPU
}

int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

void main()
{
    uint id = gl_GlobalInvocationID.x;
    if (id >= 32768u) return;
    ivec3 v = ivec3(int(id & 31u), int(id >> 10), int((id >> 5) & 31u));
    int r = u_radius, solid = 0, n = 2 * r + 1;
    for (int dy = -r; dy <= r; dy++)
        for (int dz = -r; dz <= r; dz++)
            for (int dx = -r; dx <= r; dx++)
                if (occupied(v + ivec3(dx, dy, dz))) solid++;
    if (solid == 0 || solid == n * n * n) {
        flags[id] = 0u;
        return;
    }
    flags[id] = 1u;
    int percent = u_percent;
    bool any_class = true; // which solid voxels a probe counts
    uint cls = 0u;
    if (u_materials) {
        uint src = source_material(v, r);
        percent = int(rule[src] >> 24);
        any_class = mat_at(v) != 0u;
        cls = rule[src] & 255u;
    }
    int f = u_factor, den = 2 * f * SUBUNIT;
    uint base = id * uint(f * f);
    for (int fy = 0; fy < f; fy++)
        for (int fz = 0; fz < f; fz++) {
            uint row = 0u;
            for (int fx = 0; fx < f; fx++) {
                ivec3 c = (2 * ivec3(fx, fy, fz) + 1) * SUBUNIT;
                int hits = 0;
                for (int i = 0; i < u_probes; i++) {
                    ivec3 o = ivec3(probe[3 * i], probe[3 * i + 1], probe[3 * i + 2]);
                    ivec3 q = ivec3(floor_div(c.x + o.x, den), floor_div(c.y + o.y, den), floor_div(c.z + o.z, den));
                    uint m = mat_at(v + q);
                    if (m != 0u && (any_class || (rule[m] & 255u) == cls)) hits++;
                }
                if (hits * 100 > percent * u_probes) row |= 1u << fx;
            }
            rows[base + uint(fy * f + fz)] = row;
        }
}
