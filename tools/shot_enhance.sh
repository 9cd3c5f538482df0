#!/usr/bin/env bash
# Renders the detail-enhancement pictures of the README (seed 000): the same
# desert mesa as blocks, enhanced 4x by recursive subdivision with the
# paper's rule (thresholds 1 below enhance.altitude, 3 and 4 alternating
# above: the strata), and by direct resampling (64 probes, spread 1 voxel,
# 25%); then the material rules (enhance.materials) off and on:
# terraced sand with cacti below a mesa, and a taiga wood.
# Usage: tools/shot_enhance.sh [BUILD_DIR] [OUT_DIR]
set -eu
# the pictures are of the finite world (world.stream 0): the default streams, and its
# regions place features elsewhere
build=${1:-build}
out=${2:-docs/screenshots}
view="set tool.visible 0; biome desert; set player.fly 1; set enhance.radius 128; tp 330 85 250; look 120 -25"
run() { "$build/strata" --headless --width 960 --height 540 --exec "set world.stream 0; $view; $1" >/dev/null; }
run "screenshot $out/enhance_blocks.png"
run "set enhance.materials 0; set render.mode enhanced; screenshot $out/enhance_subdivide.png"
run "set enhance.materials 0; set enhance.operator resample; set render.mode enhanced; screenshot $out/enhance_resample.png"
sand="set tool.visible 0; biome desert; set player.fly 1; set enhance.radius 96; tp 336 50 296; look 150 -25"
wood="set tool.visible 0; biome taiga; set player.fly 1; set enhance.radius 96; look 30 0"
for m in 0 1; do
    "$build/strata" --headless --width 800 --height 450 --exec "set world.stream 0; $sand; set enhance.materials $m; set render.mode enhanced; screenshot $out/enhance_mat${m}_desert.png" >/dev/null
    "$build/strata" --headless --width 800 --height 450 --exec "set world.stream 0; $wood; set enhance.materials $m; set render.mode enhanced; screenshot $out/enhance_mat${m}_taiga.png" >/dev/null
done
echo "wrote $out/enhance_{blocks,subdivide,resample}.png $out/enhance_mat{0,1}_{desert,taiga}.png"
