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

// the final colour: emitters, the lamp, brightness, fog to the sky (compose.glsl)
vec3 compose(vec3 albedo, vec3 lit, vec3 wpos, vec3 n, float fog);

void main()
{
    // inside the world's footprint the world's own bedrock layer is the floor
    if (v_world.x > 0.0 && v_world.z > 0.0 && v_world.x < u_world_size.x && v_world.z < u_world_size.y) discard;
    vec4 albedo = texture(u_atlas, vec3(v_world.x, v_world.z, u_layer));
    vec3 lit = albedo.rgb * (0.8 + 0.5 * max(u_sun.y, 0.0));
    // on the map, as the chunks are (flying high still shows the ground)
    float fog = smoothstep(u_fog_start, u_fog_end, distance(v_world.xz, u_camera.xz));
    o_color = vec4(compose(albedo.rgb, lit, v_world, vec3(0.0, 1.0, 0.0), fog), 1.0);
}
