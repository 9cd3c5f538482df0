#version 450 core
// The far rings (gfx/far.h): a height field a few cells a side per ring.
// Each vertex carries its top and side tiles and its normal; its colour is
// made here, per vertex, from the tiles' mean colours (the atlas's last
// mip level, what the near chunks' faces read far away) and the light an
// open face of the near terrain takes (chunk.frag with the elements at
// full: sun and sky, no light volume this far out). A slope of voxels seen
// from afar is a staircase of top faces and risers, so the vertex mixes
// the top tile lit as a top face and the side tile lit as the risers, by
// the area of each that faces the eye: the far rings read as bright as the
// near terrain at the seam.
layout(location = 0) in vec3 a_pos;  // relative to the ring's first grid point
layout(location = 1) in uint a_info; // top tile | side tile << 8 | nx << 16 | nz << 24

uniform mat4 u_viewproj;
uniform vec3 u_origin;   // the ring's first grid point, relative to the render origin
uniform vec3 u_camera;
uniform vec3 u_sun;      // normalised, towards the sun
uniform sampler2DArray u_atlas;
uniform bool u_light_on;
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;
uniform float u_ambient;
uniform bool u_smooth;   // the smooth mode: its triplanar weights and the true normal, no staircase

out vec3 v_albedo;
out vec3 v_lit;
out vec3 v_wpos;
out vec3 v_normal;
out float v_dist;

vec3 tile_mean(uint tile)
{
    vec4 c = textureLod(u_atlas, vec3(0.5, 0.5, float(tile)), 16.0);
    return c.rgb * mix(0.4, 1.0, c.a); // foliage as chunk.frag draws it: its holes dark
}

// chunk.frag's light of a face of normal n whose elements are full
vec3 light_of(vec3 n)
{
    if (u_light_on) {
        float facing = 0.35 + 0.65 * max(dot(n, u_sun), 0.0);
        float up = 0.75 + 0.25 * n.y;
        return vec3(u_ambient) + facing * u_sun_color + up * u_sky_color;
    }
    float sun = max(dot(n, u_sun), 0.0);
    return vec3(0.55 + 0.25 * n.y + 0.5 * sun);
}

void main()
{
    vec3 wp = u_origin + a_pos;
    float nx = float(int(a_info << 8u) >> 24) / 127.0;
    float nz = float(int(a_info) >> 24) / 127.0;
    vec3 n = vec3(nx, sqrt(max(1.0 - nx * nx - nz * nz, 0.0)), nz);
    vec3 top = tile_mean(a_info & 255u), side = tile_mean((a_info >> 8) & 255u);
    if (u_smooth) {
        // smooth.frag's sharp triplanar weights, lit by the surface's normal
        vec3 w = abs(n);
        w *= w;
        w *= w;
        w *= w;
        w = max(w - 0.002, 0.0);
        w /= (w.x + w.y + w.z);
        v_albedo = w.y * top + (w.x + w.z) * side;
        v_lit = v_albedo * light_of(n);
    } else {
        vec3 v = normalize(wp - u_camera);
        // the staircase's faces per area of the slope, times how much of each
        // faces the eye: top faces n.y, risers facing x |n.x|, facing z |n.z|
        float sx = nx < 0.0 ? -1.0 : 1.0, sz = nz < 0.0 ? -1.0 : 1.0;
        float wt = n.y * max(-v.y, 0.0);
        float wx = abs(nx) * max(-sx * v.x, 0.0);
        float wz = abs(nz) * max(-sz * v.z, 0.0);
        float sum = wt + wx + wz;
        if (sum < 1e-4) {
            wt = 1.0;
            sum = 1.0;
        }
        v_albedo = (wt * top + (wx + wz) * side) / sum;
        v_lit = (wt * top * light_of(vec3(0.0, 1.0, 0.0)) + wx * side * light_of(vec3(sx, 0.0, 0.0)) +
                 wz * side * light_of(vec3(0.0, 0.0, sz))) / sum;
    }
    v_normal = n;
    v_wpos = wp;
    v_dist = distance(wp.xz, u_camera.xz); // horizontal, as every pass's fog
    gl_Position = u_viewproj * vec4(wp, 1.0);
}
