#!/usr/bin/env bash
# Renders the snowflake-lighting pictures of the README (seed 000, 4.4):
#   light_mesa.png   a desert mesa and the shadow it casts towards the viewer
#   light_taiga.png  the taiga floor shaded under its firs
#   light_cave.png   inside a tunnel cut into a mesa, looking out: near darkness
# Usage: tools/shot_light.sh [BUILD_DIR] [OUT_DIR]
set -eu
# the pictures are of the finite world (world.stream 0): the default streams, and its
# regions place features elsewhere
build=${1:-build}
out=${2:-docs/screenshots}
run() { "$build/strata" --headless --width 960 --height 540 --exec "set world.stream 0; set tool.visible 0; $1" >/dev/null; }
run "biome desert; tp 300 95 240; look 120 -30; screenshot $out/light_mesa.png"
run "biome taiga; set light.sun_pitch 40; tp 212 60 228; look 75 -10; screenshot $out/light_taiga.png"
cmds="biome desert"
for x in $(seq 360 2 392); do cmds="$cmds; cut $x 57 272"; done # a tunnel into the mesa's west side
cmds="$cmds; set tool.size 14; cut 394 58 272; cut 398 58 272"    # and a chamber at its end
run "$cmds; tp 399 54 272; look 270 -2; screenshot $out/light_cave.png"
echo "wrote $out/light_mesa.png $out/light_taiga.png $out/light_cave.png"
