#version 450 core
// One derivation step of a voxel grammar (seed 004): one group of rules
// (one window size) over the bounds, for one phase. Must give the same
// bits as grammar_derive (engine/gen/grammar.c), whose windows run one
// after another (z, y, x ascending within a slab of window positions) and
// rewrite the grid in place. Windows that overlap are ordered by a wave
// number t = c.x*tx + c.y*ty + c.z*tz (engine/gfx/grammar_gpu.c picks c so
// that every window a later one overlaps has a smaller t); windows of one
// wave touch disjoint voxels, so a workgroup derives one lane (a slab, or
// one window layer when layers never overlap) a wave at a time, with a
// barrier between waves. Lanes of one dispatch touch disjoint voxels.
layout(local_size_x = 64) in;

layout(std430, binding = 0) coherent buffer Grid { float d[]; };
// per rule: symbol cells [x, x + y), transform cells [z, z + w); its weight
struct Rule { ivec4 cells; vec4 weight; };
layout(std430, binding = 1) readonly buffer Rules { Rule rules[]; };
// op | dx << 8 | dy << 16 | dz << 24, and the operator's value; IGN and NOP
// cells are left out
struct Cell { uint code; float v; };
layout(std430, binding = 2) readonly buffer Cells { Cell cells[]; };
layout(std430, binding = 3) buffer Count { uint matches; };

uniform ivec3 u_dim;     // grid nx, ny, nz
uniform ivec3 u_lo;      // bounds' low corner
uniform ivec3 u_stride;
uniform ivec3 u_nw;      // window positions per axis
uniform ivec2 u_rules;   // the group's rules [x, y)
uniform ivec3 u_coef;    // wave number per window step along x, y, z
uniform int u_solve;     // the first axis with a nonzero u_coef, -1 for none
uniform int u_waves;
uniform int u_depth;     // window layers per lane: 1, or GRAMMAR_SLAB
uniform int u_lane_step; // slabs between lanes (2: one phase's slabs)
uniform int u_phase;
uniform uvec2 u_hash;    // lo, hi of rng_mix64(rng_mix64(seed ^ iter << 32 ^ group) ^ 0x51ed270b27d5a3c1)

// Symbol operators (host: grammar_gpu.c maps the engine's enum onto these)
const uint S_PRES = 1u, S_ABS = 2u, S_EQ = 3u, S_NEQ = 4u, S_LT = 5u, S_LEQ = 6u, S_GT = 7u, S_GEQ = 8u;
const uint X_SET = 1u, X_ADD = 2u;

int index_of(ivec3 p) { return p.x + u_dim.x * (p.y + u_dim.y * p.z); }
ivec3 offset_of(uint code) { return ivec3(int((code >> 8) & 255u), int((code >> 16) & 255u), int(code >> 24)); }

bool test_cell(uint op, float v, float x)
{
    switch (op) {
    case S_PRES: return x > 0.0;
    case S_ABS: return x == 0.0;
    case S_EQ: return x == v;
    case S_NEQ: return x != v;
    case S_LT: return x < v;
    case S_LEQ: return x <= v;
    case S_GT: return x > v;
    case S_GEQ: return x >= v;
    }
    return false;
}

bool rule_matches(int r, ivec3 base)
{
    ivec4 c = rules[r].cells;
    for (int i = c.x; i < c.x + c.y; i++) {
        Cell s = cells[i];
        if (!test_cell(s.code & 255u, s.v, d[index_of(base + offset_of(s.code))])) return false;
    }
    return true;
}

// 64-bit arithmetic as (lo, hi) for rng_mix64 and rng_hash3 (engine/core/rng.h)
uvec2 mul64(uvec2 a, uvec2 b)
{
    uint hi, lo;
    umulExtended(a.x, b.x, hi, lo);
    return uvec2(lo, hi + a.x * b.y + a.y * b.x);
}
uvec2 shr64(uvec2 a, int k) { return uvec2((a.x >> k) | (a.y << (32 - k)), a.y >> k); } // 0 < k < 32
uvec2 mix64(uvec2 z)
{
    z = mul64(z ^ shr64(z, 30), uvec2(0x1ce4e5b9u, 0xbf58476du));
    z = mul64(z ^ shr64(z, 27), uvec2(0x133111ebu, 0x94d049bbu));
    return z ^ shr64(z, 31);
}

// grammar_tiebreak: which of n (<= 256) tied rules wins at window p
uint tiebreak(ivec3 p, uint n)
{
    uvec2 h = mix64(u_hash ^ uvec2(uint(p.x), 0u));
    h = mix64(h ^ uvec2(uint(p.y) << 1, uint(p.y) >> 31));
    h = mix64(h ^ uvec2(uint(p.z) << 2, uint(p.z) >> 30));
    uint r32 = (0xffffffffu % n + 1u) % n; // 2^32 mod n
    return ((h.y % n) * r32 + h.x % n) % n;
}

// Returns whether a rule rewrote window p.
bool derive_window(ivec3 p)
{
    int best = -1;
    float best_w = 0.0;
    uint ties = 0u;
    for (int r = u_rules.x; r < u_rules.y; r++) {
        if (!rule_matches(r, p)) continue;
        float w = rules[r].weight.x;
        if (best < 0 || w > best_w) {
            best = r;
            best_w = w;
            ties = 1u;
        } else if (w == best_w) {
            ties++;
        }
    }
    if (best < 0) return false;
    if (ties > 1u) { // the k-th of the matching rules of the best weight, in rule order
        uint k = tiebreak(p, ties);
        for (int r = u_rules.x; r < u_rules.y; r++) {
            if (rules[r].weight.x != best_w || !rule_matches(r, p)) continue;
            if (k == 0u) {
                best = r;
                break;
            }
            k--;
        }
    }
    ivec4 c = rules[best].cells;
    for (int i = c.z; i < c.z + c.w; i++) {
        Cell t = cells[i];
        int at = index_of(p + offset_of(t.code));
        precise float v = (t.code & 255u) == X_SET ? t.v : d[at] + t.v;
        d[at] = v;
    }
    return true;
}

void main()
{
    int z0 = (int(gl_WorkGroupID.x) * u_lane_step + u_phase) * u_depth;
    ivec3 n = ivec3(u_nw.x, u_nw.y, min(u_depth, u_nw.z - z0));
    // wave t's windows: for each b, the run of a whose solved s lies in range
    int s = u_solve, a = s == 0 ? 1 : 0, b = s == 2 ? 1 : 2, items, run = 1;
    if (s < 0) {
        items = n.x * n.y * n.z; // nothing overlaps: one wave
    } else {
        run = u_coef[a] > 0 ? min(n[a], (n[s] - 1) / u_coef[a] + 1) : n[a];
        items = n[b] * run;
    }
    uint found = 0u;
    for (int t = 0; t < u_waves; t++) {
        for (int k = int(gl_LocalInvocationID.x); k < items; k += 64) {
            ivec3 w;
            if (s < 0) {
                w = ivec3(k % n.x, (k / n.x) % n.y, k / (n.x * n.y));
            } else {
                w[b] = k / run;
                int rest = t - u_coef[b] * w[b], ca = u_coef[a], cs = u_coef[s];
                if (rest < 0) continue;
                if (ca > 0) { // then s is x and cs is 1
                    int first = rest < n[s] ? 0 : (rest - n[s] + ca) / ca;
                    w[a] = first + k % run;
                    if (w[a] >= n[a] || ca * w[a] > rest) continue;
                    w[s] = rest - ca * w[a];
                } else {
                    if (rest % cs != 0 || rest / cs >= n[s]) continue;
                    w[a] = k % run;
                    w[s] = rest / cs;
                }
            }
            if (derive_window(u_lo + (w + ivec3(0, 0, z0)) * u_stride)) found++;
        }
        memoryBarrierBuffer();
        barrier();
    }
    if (found > 0u) atomicAdd(matches, found);
}
