#version 450 core
// Occlusion culling's depth tiles (engine/gfx/occlusion_gpu.c): the
// farthest depth of each 8x8-pixel tile of the frame drawn so far, one
// invocation a tile. The CPU reference is occlusion_tiles_build, which
// reduces the same image read back pixel by pixel; this reduces it where
// it lies, so the read-back is the tiles (1/64 of the pixels), not the
// image. Tiles run row by row from the bottom, as glReadPixels gives the
// image; the last column and row of tiles may be narrower.
layout(local_size_x = 8, local_size_y = 8) in;
// unit 15 and binding 7: no render mode's, so the frame's stay bound
layout(binding = 15) uniform sampler2D u_depth; // window z in .r, compare mode off
layout(std430, binding = 7) writeonly buffer Tiles { float far_z[]; };
uniform ivec2 u_size;  // pixels
uniform ivec2 u_tiles; // tiles

const int TILE = 8; // OCCLUSION_TILE

void main()
{
    ivec2 t = ivec2(gl_GlobalInvocationID.xy);
    if (t.x >= u_tiles.x || t.y >= u_tiles.y) return;
    ivec2 p0 = t * TILE, p1 = min(p0 + TILE, u_size);
    float m = 0.0;
    for (int y = p0.y; y < p1.y; y++)
        for (int x = p0.x; x < p1.x; x++) m = max(m, texelFetch(u_depth, ivec2(x, y), 0).r);
    far_z[t.y * u_tiles.x + t.x] = m;
}
