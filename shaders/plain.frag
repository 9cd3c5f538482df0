#version 450 core
// The bedrock floor beyond the world's edge, shaded as chunk.frag shades a
// top face (sky 0.8 plus half the sun), with the same distance fog.
in vec3 v_world;

uniform sampler2DArray u_atlas;
uniform float u_layer;
uniform vec3 u_sun;
uniform vec3 u_camera;
uniform vec3 u_fog_color;
uniform float u_fog_start;
uniform float u_fog_end;
uniform vec2 u_world_size;

out vec4 o_color;

void main()
{
    // inside the world's footprint the world's own bedrock layer is the floor
    if (v_world.x > 0.0 && v_world.z > 0.0 && v_world.x < u_world_size.x && v_world.z < u_world_size.y) discard;
    vec4 albedo = texture(u_atlas, vec3(v_world.x, v_world.z, u_layer));
    vec3 lit = albedo.rgb * (0.8 + 0.5 * max(u_sun.y, 0.0));
    float fog = smoothstep(u_fog_start, u_fog_end, distance(v_world, u_camera));
    o_color = vec4(mix(lit, u_fog_color, fog), 1.0);
}
