#version 450 core
// The sky's pixel: the colour made at the grid's corners (sky.vert) and the
// sun's disc at the light's sun, the one thing too small for the grid.
noperspective in vec3 v_ray;
noperspective in vec3 v_sky;

uniform float u_sun_cos;     // cosine of the disc's angular radius
uniform vec3 u_sky_sun;      // normalised direction towards the sun
uniform vec3 u_sky_sun_color;

out vec4 o_color;

void main()
{
    float s = dot(normalize(v_ray), u_sky_sun);
    o_color = vec4(mix(v_sky, u_sky_sun_color * 1.25, smoothstep(u_sun_cos - 0.00015, u_sun_cos + 0.00005, s)), 1.0);
}
