#version 450 core
// One derivation step of a voxel grammar (seed 004): one group of rules
// (one window size) over the bounds. Must give the same bits as
// grammar_derive (engine/gen/grammar.c), whose windows run one after
// another (z, y, x ascending within a slab of window positions) and
// rewrite the grid in place. Three passes (u_pass):
//   0 bit planes: bit x of a row = a predicate holds at that voxel (once
//     per upload; the windows keep them up to date as they write)
//   1 live bits: windows whose rule might match the step's input grid,
//     32 window positions at a time from the planes (rule cells beyond
//     the planes are skipped, so a live bit only filters)
//   2 the windows, a lane (one of the CPU's slabs) per workgroup, in one of
//     two orders that give the same bits. A window is derived only when it
//     is live or a rewritten window overlapped it (its dirty bit): any
//     other still sees the input it was found dead on.
//     Walk: one invocation visits the live and dirty windows in the CPU's
//     order, a word of bits at a time (few live windows: most lanes); one
//     per window layer when layers never overlap.
//     Waves: windows that overlap are ordered by a wave number
//     t = c.x*tx + c.y*ty + c.z*tz (engine/gfx/grammar_gpu.c picks c so that
//     every window a later one overlaps has a smaller t); windows of one
//     wave touch disjoint voxels, so a workgroup derives one lane (a slab)
//     a wave at a time with a barrier between.
//   Lanes of one dispatch touch disjoint voxels.
layout(local_size_x = 64) in;

layout(std430, binding = 0) coherent buffer Grid { float d[]; };
// per rule: symbol cells [x, x + y), transform cells [z, z + w); its
// plane cells [live.x, live.x + live.y); its weight
struct Rule { ivec4 cells; ivec4 live; vec4 weight; };
layout(std430, binding = 1) readonly buffer Rules { Rule rules[]; };
// op | dx << 8 | dy << 16 | dz << 24, and the operator's value; IGN and NOP
// cells are left out; plane cells carry the plane in place of op
struct Cell { uint code; float v; };
layout(std430, binding = 2) readonly buffer Cells { Cell cells[]; };
layout(std430, binding = 3) buffer Count { uint matches; };
layout(std430, binding = 4) readonly buffer Preds { Cell preds[]; }; // one per plane
layout(std430, binding = 5) buffer Planes { uint planes[]; };      // [plane][z][y][word]
// per window row [tz][ty][word], bit = the window's x in the grid
layout(std430, binding = 6) buffer Live { uint live[]; };
layout(std430, binding = 7) coherent buffer Dirty { uint dirty[]; };

uniform int u_pass;
uniform ivec3 u_dim;     // grid nx, ny, nz
uniform int u_planes;
uniform int u_words;     // per plane or flag row: ceil(nx / 32) + 1 (a zero word to shift in)
uniform ivec3 u_lo;      // bounds' low corner
uniform ivec3 u_stride;
uniform ivec3 u_nw;      // window positions per axis
uniform ivec3 u_size;    // the group's window size
uniform ivec3 u_reach;   // window steps within which windows overlap: ceil(size / stride) - 1
uniform ivec2 u_rules;   // the group's rules [x, y)
uniform ivec3 u_coef;    // wave number per window step along x, y, z
uniform int u_solve;     // the first axis with a nonzero u_coef, -1 for none
uniform int u_waves;
uniform int u_depth;     // window layers per lane: GRAMMAR_SLAB
uniform int u_lane_step; // slabs between lanes (2: one phase's slabs)
uniform int u_phase;
uniform int u_order;     // 0: per lane, walk when it has fewer live windows than waves; 1 walk; 2 waves
uniform uvec2 u_hash;    // lo, hi of rng_mix64(rng_mix64(seed ^ iter << 32 ^ group) ^ 0x51ed270b27d5a3c1)

const int MAX_PLANES = 32; // grammar_gpu.c's

// Symbol operators (host: grammar_gpu.c maps the engine's enum onto these)
const uint S_PRES = 1u, S_ABS = 2u, S_EQ = 3u, S_NEQ = 4u, S_LT = 5u, S_LEQ = 6u, S_GT = 7u, S_GEQ = 8u;
const uint X_SET = 1u, X_ADD = 2u;

int index_of(ivec3 p) { return p.x + u_dim.x * (p.y + u_dim.y * p.z); }
int plane_word(int plane, ivec3 p) { return ((plane * u_dim.z + p.z) * u_dim.y + p.y) * u_words + (p.x >> 5); }
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
        // the planes follow every write, so they stay the grid's for the next step
        ivec3 q = p + offset_of(t.code);
        uint bit = 1u << (q.x & 31);
        for (int pl = 0; pl < u_planes; pl++) {
            if (test_cell(preds[pl].code, preds[pl].v, v)) atomicOr(planes[plane_word(pl, q)], bit);
            else atomicAnd(planes[plane_word(pl, q)], ~bit);
        }
    }
    return true;
}

// The windows that overlap window w (at p): their input has changed.
void mark_dirty(ivec3 w, ivec3 p)
{
    int x0 = max(p.x - u_size.x + 1, 0), x1 = min(p.x + u_size.x - 1, u_dim.x - 1);
    for (int tz = max(w.z - u_reach.z, 0); tz <= min(w.z + u_reach.z, u_nw.z - 1); tz++)
        for (int ty = max(w.y - u_reach.y, 0); ty <= min(w.y + u_reach.y, u_nw.y - 1); ty++) {
            int row = (tz * u_nw.y + ty) * u_words;
            for (int q = x0 >> 5; q <= x1 >> 5; q++) {
                int lo = max(x0 - q * 32, 0), hi = min(x1 - q * 32, 31);
                uint bits = (hi - lo == 31) ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1u) << lo;
                atomicOr(dirty[row + q], bits);
            }
        }
}

// One word of every plane: the 32 voxels read once, then one loop per
// operator so each is a plain comparison (as the CPU's pack_bits).
#define PACK(cond) for (int k = 0; k < n; k++) bits |= uint(cond) << k; break
void planes_pass()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= u_words * u_dim.y) return;
    ivec3 p = ivec3((i % u_words) * 32, i / u_words, int(gl_WorkGroupID.y));
    int base = index_of(p), n = clamp(u_dim.x - p.x, 0, 32);
    float x[32];
    for (int k = 0; k < n; k++) x[k] = d[base + k];
    for (int pl = 0; pl < u_planes; pl++) {
        uint bits = 0u;
        float v = preds[pl].v;
        switch (preds[pl].code) {
        case S_PRES: PACK(x[k] > 0.0);
        case S_ABS: PACK(x[k] == 0.0);
        case S_EQ: PACK(x[k] == v);
        case S_NEQ: PACK(x[k] != v);
        case S_LT: PACK(x[k] < v);
        case S_LEQ: PACK(x[k] <= v);
        case S_GT: PACK(x[k] > v);
        case S_GEQ: PACK(x[k] >= v);
        }
        planes[plane_word(pl, p)] = bits;
    }
}
#undef PACK

// 32 bits of a plane's row from bit `at` on
uint row_bits(uint plane, int y, int z, int at)
{
    int row = ((int(plane) * u_dim.z + z) * u_dim.y + y) * u_words, q = at >> 5, sh = at & 31;
    uint w = planes[row + q];
    return sh == 0 ? w : (w >> sh) | (planes[row + q + 1] << (32 - sh));
}

void live_pass()
{
    int i = int(gl_GlobalInvocationID.x), words = u_words - 1;
    if (i >= words * u_nw.y) return;
    int word = i % words, ty = i / words, tz = int(gl_WorkGroupID.y);
    int y = u_lo.y + ty * u_stride.y, z = u_lo.z + tz * u_stride.z, last = u_lo.x + (u_nw.x - 1) * u_stride.x;
    uint valid = 0u;
    for (int k = 0; k < 32; k++) {
        int x = word * 32 + k;
        if (x >= u_lo.x && x <= last && (x - u_lo.x) % u_stride.x == 0) valid |= 1u << k;
    }
    uint any = 0u;
    for (int r = u_rules.x; r < u_rules.y && valid != 0u; r++) {
        uint m = valid;
        ivec4 lv = rules[r].live;
        for (int c = lv.x; c < lv.x + lv.y && m != 0u; c++) {
            Cell pc = cells[c];
            ivec3 o = offset_of(pc.code);
            m &= row_bits(pc.code & 255u, y + o.y, z + o.z, word * 32 + o.x);
        }
        any |= m;
    }
    live[(tz * u_nw.y + ty) * u_words + word] = any;
}

// Whether window w (at p) is to be derived: live or dirty.
bool wanted(ivec3 w, ivec3 p)
{
    int f = (w.z * u_nw.y + w.y) * u_words + (p.x >> 5);
    return ((live[f] | dirty[f]) & (1u << (p.x & 31))) != 0u;
}

uint waves(int z0, ivec3 n)
{
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
            w.z += z0;
            ivec3 p = u_lo + w * u_stride;
            if (!wanted(w, p)) continue; // it sees what it was found dead on
            if (derive_window(p)) {
                found++;
                mark_dirty(w, p);
            }
        }
        memoryBarrierBuffer();
        barrier();
    }
    return found;
}

uint walk(int z0, ivec3 n)
{
    uint found = 0u;
    int last = u_lo.x + (n.x - 1) * u_stride.x;
    for (int tz = z0; tz < z0 + n.z; tz++)
        for (int ty = 0; ty < n.y; ty++) {
            int row = (tz * u_nw.y + ty) * u_words;
            ivec3 p = u_lo + ivec3(0, ty, tz) * u_stride;
            for (int q = u_lo.x >> 5; q <= last >> 5; q++) {
                uint bits = live[row + q] | dirty[row + q];
                while (bits != 0u) {
                    int b = findLSB(bits);
                    uint done = b == 31 ? 0xffffffffu : (2u << b) - 1u;
                    bits &= ~done;
                    p.x = q * 32 + b;
                    if (p.x < u_lo.x || p.x > last || (p.x - u_lo.x) % u_stride.x != 0) continue; // not a window
                    if (derive_window(p)) {
                        found++;
                        mark_dirty(ivec3((p.x - u_lo.x) / u_stride.x, ty, tz), p);
                        bits = (live[row + q] | dirty[row + q]) & ~done; // it may have dirtied the rest of the word
                    }
                }
            }
        }
    return found;
}

shared uint s_live;

void windows_pass()
{
    int z0 = (int(gl_WorkGroupID.x) * u_lane_step + u_phase) * u_depth;
    ivec3 n = ivec3(u_nw.x, u_nw.y, min(u_depth, u_nw.z - z0));
    if (gl_LocalInvocationID.x == 0u) s_live = 0u;
    barrier();
    int words = n.z * u_nw.y * u_words, base = z0 * u_nw.y * u_words;
    uint count = 0u;
    for (int i = int(gl_LocalInvocationID.x); i < words; i += 64) count += uint(bitCount(live[base + i]));
    atomicAdd(s_live, count);
    barrier();
    bool walking = u_order == 1 || (u_order == 0 && s_live < uint(u_waves));
    uint found = 0u;
    int lid = int(gl_LocalInvocationID.x);
    if (!walking) found = waves(z0, n);
    else if (u_reach.z == 0 && lid < n.z) found = walk(z0 + lid, ivec3(n.xy, 1)); // layers never overlap: one each
    else if (u_reach.z > 0 && lid == 0) found = walk(z0, n);
    if (found > 0u) atomicAdd(matches, found);
}

void main()
{
    if (u_pass == 0) planes_pass();
    else if (u_pass == 1) live_pass();
    else windows_pass();
}
