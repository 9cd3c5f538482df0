#!/usr/bin/env bash
# Renders docs/screenshots/tunnels.png: seed 003's coloured tunnels. Four
# tunnels are cut through the formula world, each in another tool colour,
# with a wider shaft down its middle. Then the red tool is aimed at the
# object's side. Usage: tools/shot_tunnels.sh [BUILD_DIR] [OUT.png]
set -eu
# the pictures are of the finite world (world.stream 0): the default streams, and its
# regions place features elsewhere
build=${1:-build}
out=${2:-docs/screenshots/tunnels.png}
cmds="biome formula"
color=1
for z in 238 250 262 274; do # one tunnel per colour, rising gently along x
    cmds="$cmds; set tool.color $color"
    for x in $(seq 216 3 292); do cmds="$cmds; cut $x $((20 + (x - 216) / 8)) $z"; done
    color=$((color + 1))
done
cmds="$cmds; set tool.color 5; set tool.size 12"
for y in $(seq 70 -3 10); do cmds="$cmds; cut 256 $y 256"; done
cmds="$cmds; set tool.size 8; set tool.color 1; set tool.reach 24; tp 212 30 212; look 125 -12; screenshot $out"
"$build/strata" --headless --width 960 --height 540 --exec "set world.stream 0; $cmds" >/dev/null
echo "wrote $out"
