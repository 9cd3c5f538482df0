#version 450
// voxelize_parity: seed 002's ray parity on the GPU, one invocation per grid
// line along one lattice direction (engine/gen/voxelize.h, voxelize_plan).
// Exactly the CPU's integer predicates: coordinates are fixed-point
// integers held in doubles, and every product and sum below stays an
// integer under 2^53 (the host refuses meshes reaching far outside the
// grid), so no rounding ever happens and the GPU equals the CPU bit for bit.
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Tris { double tri[]; };      // 9 per triangle
layout(std430, binding = 1) readonly buffer Lines { ivec4 lines[]; };    // x y z bin
layout(std430, binding = 2) readonly buffer CellStart { int cell_start[]; };
layout(std430, binding = 3) readonly buffer CellTris { int cell_tris[]; };
layout(std430, binding = 4) buffer Votes { uint votes[]; };

uniform ivec3 u_dir;
uniform ivec3 u_grid;
uniform int u_lines;
uniform int u_fix; // fixed-point units per voxel

dvec3 corner(int t, int c)
{
    int b = 9 * t + 3 * c;
    return dvec3(tri[b], tri[b + 1], tri[b + 2]);
}

int sgn(double v) { return v > 0.0 ? 1 : (v < 0.0 ? -1 : 0); }

// voxelize.c edge_side: which side of edge a->b the line through p along d
// passes, a tie settled by moving p by eps x + eps^2 y + eps^3 z
int edge_side(dvec3 a, dvec3 b, dvec3 p, dvec3 d)
{
    int s = sgn(dot(cross(a - p, b - p), d));
    if (s != 0) return s;
    dvec3 t = cross(d, b - a); // det[e_k, d, b - a] = t[k]
    return t.x != 0.0 ? sgn(t.x) : (t.y != 0.0 ? sgn(t.y) : sgn(t.z));
}

void main()
{
    int l = int(gl_GlobalInvocationID.x);
    if (l >= u_lines) return;
    ivec4 line = lines[l];
    int cell = line.w;
    if (cell < 0 || cell_start[cell] == cell_start[cell + 1]) return;
    ivec3 s = line.xyz;
    int len = 0;
    for (ivec3 v = s; all(greaterThanEqual(v, ivec3(0))) && all(lessThan(v, u_grid)); v += u_dir) len++;
    dvec3 d = dvec3(u_dir);
    dvec3 p0 = (dvec3(s) * 2.0 + 1.0) * double(u_fix / 2);
    uint flip[9]; // one bit per voxel of the line, 257 at most
    for (int i = 0; i < 9; i++) flip[i] = 0u;
    bool any = false;
    for (int c = cell_start[cell]; c < cell_start[cell + 1]; c++) {
        int t = cell_tris[c];
        dvec3 a = corner(t, 0), b = corner(t, 1), cc = corner(t, 2);
        dvec3 n = cross(b - a, cc - a);
        double nd = dot(n, d);
        if (nd == 0.0) continue;
        int s0 = edge_side(a, b, p0, d), s1 = edge_side(b, cc, p0, d), s2 = edge_side(cc, a, p0, d);
        if (s0 != s1 || s1 != s2) continue;
        double num = dot(n, a - p0), den = nd * double(u_fix);
        // a centre exactly on the plane: the same perturbation decides
        int tie = n.x != 0.0 ? -sgn(n.x) : (n.y != 0.0 ? -sgn(n.y) : -sgn(n.z));
        bool tie_ahead = tie == sgn(den);
        if (den < 0.0) { num = -num; den = -den; }
        if (tie_ahead ? num < 0.0 : num <= 0.0) continue;
        // voxels 0..k-1 lie behind the hit: k, the least with k den > num
        // (tie ahead) or k den >= num
        int k;
        if (tie_ahead ? double(len) * den <= num : double(len) * den < num) k = len;
        else {
            k = int(clamp(floor(num / den), 0.0, double(len)));
            if (tie_ahead) {
                while (k > 0 && double(k - 1) * den > num) k--;
                while (double(k) * den <= num) k++;
            } else {
                while (k > 0 && double(k - 1) * den >= num) k--;
                while (double(k) * den < num) k++;
            }
        }
        flip[k >> 5] ^= 1u << (k & 31);
        any = true;
    }
    if (!any) return;
    uint par = 0u;
    ivec3 v = s + u_dir * (len - 1);
    for (int k = len - 1; k >= 0; k--, v -= u_dir) {
        par ^= (flip[(k + 1) >> 5] >> ((k + 1) & 31)) & 1u;
        votes[v.x + u_grid.x * (v.z + u_grid.z * v.y)] += par;
    }
}
