#version 450
// Direct resampling (seed 000, section 3) of one chunk, one invocation per
// voxel. Must match eval_resample in engine/gen/enhance.c bit for bit: the
// probe offsets and fragment centres are integers in 1/(2F * 256) of a
// voxel, so every probe lands in the same voxel as on the CPU.
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Occupancy { uint occ[]; };
layout(std430, binding = 1) readonly buffer Probes { int probe[]; }; // xyz triples
layout(std430, binding = 2) writeonly buffer Rows { uint rows[]; };
layout(std430, binding = 3) writeonly buffer Flags { uint flags[]; };

uniform int u_factor;
uniform int u_probes;
uniform int u_percent;
uniform int u_radius;

const int PAD = 2;
const int IN = 36;
const int SUBUNIT = 256;

bool occupied(ivec3 p)
{
    int i = (p.x + PAD) + (p.z + PAD) * IN + (p.y + PAD) * IN * IN;
    return ((occ[i >> 5] >> (i & 31)) & 1u) != 0u;
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
                    if (occupied(v + q)) hits++;
                }
                if (hits * 100 > u_percent * u_probes) row |= 1u << fx;
            }
            rows[base + uint(fy * f + fz)] = row;
        }
}
