#!/usr/bin/env bash
# shots.sh: renders every picture in docs/screenshots from its recipe, with the
# game itself (headless EGL; the HUD picture in a window under Xvfb). Run it
# whenever the look changes, so the README shows the program as it is.
#   tools/shots.sh [BUILD_DIR] [OUT_DIR]
# Each picture's recipe stands here once; the README quotes the short ones.
set -eu
build=${1:-build}
out=${2:-docs/screenshots}
strata="$build/strata"
tools=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
shot() { # shot W H COMMANDS
    "$strata" --headless --width "$1" --height "$2" --exec "$3" >/dev/null
}

# the hero picture and the biomes, streamed
shot 1280 720 "tp 200 90 300; stream wait; look 60 -18; screenshot $out/hills.png"
for b in desert taiga deciduous; do
    shot 1280 720 "biome $b; tp 256 110 256; stream wait; look 30 -25; screenshot $out/$b.png"
done
shot 1280 720 "set world.stream 0; biome hills; tp 1.5 90 256; frames 60; look 200 -30; set tool.visible 0; screenshot $out/world_edge.png"
# a fir felled: before, falling, at rest
fell="set world.stream 0; biome taiga; set tool.visible 0; set render.crosshair 0; tp 212 60 228; frames 20; look 75 14"
shot 800 500 "$fell; screenshot $out/fell_before.png; set tool.size 3; set tool.shape 1; cut 226 59 225; frames 100; screenshot $out/fell_falling.png; frames 600; screenshot $out/fell_after.png"
# caves and overhangs (voxel grammars) in the desert
shot 1280 720 "set world.stream 0; biome desert; set tool.visible 0; tp 320 51 60; look -50 0; screenshot $out/cave_entrance.png; tp 210 52 280; look -172 16; screenshot $out/overhang.png"
shot 1280 720 "set world.stream 0; biome desert; set tool.visible 0; tp 142 56 312; look -35 -8; screenshot $out/alcoves.png; tp 146 52 303; look 5 2; screenshot $out/alcove_close.png; set caves.features_desert none; tp 142 56 312; look -35 -8; screenshot $out/alcoves_off.png"
# the 4 km horizon: the far rings beyond the near field
shot 1280 720 "set view.far 4096; set player.fly 1; biome desert; tp 256 150 256; stream wait; look 30 -8; set tool.visible 0; set render.crosshair 0; screenshot $out/horizon.png"
# far from the origin, streamed
shot 1280 720 "set world.stream 1; set view.distance 384; set player.fly 1; biome taiga; tp 10000000 120 10000300; frames 1; stream wait 384; frames 20; look 60 -20; set tool.visible 0; screenshot $out/stream_far.png"
# the pictures with longer recipes have their own tools
"$tools/shot_tunnels.sh" "$build" "$out/tunnels.png" >/dev/null
"$tools/shot_smooth.sh" "$build" "$out" >/dev/null
"$tools/shot_light.sh" "$build" "$out" >/dev/null
"$tools/shot_enhance.sh" "$build" "$out" >/dev/null
"$tools/shot_voxelize.sh" "$build" "$out" >/dev/null
# the HUD and console need a window
if command -v xvfb-run >/dev/null; then
    cfg=$(mktemp -d)
    XDG_CONFIG_HOME="$cfg" xvfb-run -a -s '-screen 0 1280x720x24' "$strata" --width 1280 --height 720 \
        --exec "set hud.debug 1; look 20 -8; set tool.color 3; toggleconsole; frames 30; tool.info; frames 1; screenshot $out/hud.png; quit" >/dev/null
    rm -rf "$cfg"
else
    echo "shots.sh: no xvfb-run, hud.png left as it is" >&2
fi
echo "shots.sh: wrote the pictures in $out"
