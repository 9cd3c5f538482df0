#version 450 core
// A mode's GPU cull (engine/gfx/gpu_cull.c): one invocation per draw
// command of a ring of the opaque pass. Each command draws one cell's
// geometry (blocks: its quads of one pass and face direction, or several
// when they lie back to back; smooth: its triangles, or a chunk's skirts);
// it is kept (instanceCount 1) unless its cell's box lies wholly outside
// the frustum or, from the second ring on, behind every depth tile its
// screen rectangle touches (the tiles: the farthest depth of each 8x8
// pixels of the nearer rings, as drawn, by occlusion_tiles.comp). The
// test is occlusion_box_hidden's (engine/gfx/occlusion.c), the CPU
// reference: the same corners, margins and depth bias. A culled command
// stays in its slot with instanceCount 0, so the draws keep the CPU's
// order, nearest first.
layout(local_size_x = 64) in;

struct Cmd {
    uint count;       // indices
    uint first_index; // in the index buffer
    int base_vertex;  // in the arena
    uint box;        // the cell's box
    uint inst;       // the chunk's origin, the instanced attribute; bit 31: the box's first command
};
layout(std430, binding = 0) readonly buffer Cmds { Cmd cmds[]; };
layout(std430, binding = 1) readonly buffer Boxes { vec4 boxes[]; }; // lo, hi (relative to the render origin)
layout(std430, binding = 2) writeonly buffer Draws { uint draws[]; }; // DrawElementsIndirectCommand
layout(std430, binding = 4) buffer Counts { uint counts[4]; };        // triangles, tested, hidden, outside
layout(std430, binding = 5) readonly buffer Tiles { float far_z[]; };

uniform mat4 u_viewproj;
uniform vec4 u_planes[6]; // inside where dot(n, p) + d >= 0
uniform uint u_first, u_n; // the ring's commands
uniform int u_test;        // 0 keep all, 1 the frustum, 2 the frustum and the tiles
uniform ivec2 u_size, u_tiles;

const float DEPTH_EPS = 1e-5; // occlusion.c
const int TILE = 8;           // OCCLUSION_TILE
const int MAX_TILES = 4096;   // a rectangle over more is kept (never wrong, only slower)

bool outside(vec3 lo, vec3 hi)
{
    for (int i = 0; i < 6; i++) {
        vec4 p = u_planes[i];
        vec3 c = mix(lo, hi, greaterThan(p.xyz, vec3(0.0)));
        if (dot(p.xyz, c) + p.w < 0.0) return true;
    }
    return false;
}

bool hidden(vec3 lo, vec3 hi)
{
    vec2 a = vec2(1e30), b = vec2(-1e30);
    float znear = 1e30;
    for (int c = 0; c < 8; c++) {
        vec3 p = vec3((c & 1) != 0 ? hi.x : lo.x, (c & 2) != 0 ? hi.y : lo.y, (c & 4) != 0 ? hi.z : lo.z);
        vec4 q = u_viewproj * vec4(p, 1.0);
        if (q.w <= 1e-4 || q.z < -q.w) return false; // reaches the eye
        vec2 s = (q.xy / q.w * 0.5 + 0.5) * vec2(u_size);
        a = min(a, s), b = max(b, s);
        znear = min(znear, q.z / q.w * 0.5 + 0.5);
    }
    if (b.x < 0.0 || b.y < 0.0 || a.x > float(u_size.x) || a.y > float(u_size.y)) return false;
    ivec2 p0 = max(ivec2(floor(a)) - 1, ivec2(0)), p1 = min(ivec2(ceil(b)) + 1, u_size - 1);
    ivec2 t0 = p0 / TILE, t1 = p1 / TILE;
    if ((t1.x - t0.x + 1) * (t1.y - t0.y + 1) > MAX_TILES) return false;
    float limit = znear - DEPTH_EPS;
    for (int ty = t0.y; ty <= t1.y; ty++)
        for (int tx = t0.x; tx <= t1.x; tx++)
            if (far_z[ty * u_tiles.x + tx] >= limit) return false;
    return true;
}

void main()
{
    uint k = gl_GlobalInvocationID.x;
    if (k >= u_n) return;
    Cmd c = cmds[u_first + k];
    bool first = (c.inst & 0x80000000u) != 0u;
    vec3 lo = boxes[2u * c.box].xyz, hi = boxes[2u * c.box + 1u].xyz;
    bool keep = true;
    if (u_test > 0 && outside(lo, hi)) {
        keep = false;
        if (first) atomicAdd(counts[3], 1u);
    } else if (u_test > 1) {
        if (first) atomicAdd(counts[1], 1u);
        if (hidden(lo, hi)) {
            keep = false;
            if (first) atomicAdd(counts[2], 1u);
        }
    }
    if (keep) atomicAdd(counts[0], c.count / 3u);
    uint o = 5u * (u_first + k);
    draws[o + 0u] = c.count;
    draws[o + 1u] = keep ? 1u : 0u;
    draws[o + 2u] = c.first_index;
    draws[o + 3u] = uint(c.base_vertex);
    draws[o + 4u] = c.inst & 0x7fffffffu;
}
