#!/usr/bin/env bash
# Renders the detail-enhancement pictures of the README (seed 000): the same
# desert mesa as blocks, enhanced 4x by recursive subdivision (thresholds 1
# below enhance.altitude, 3 and 4 alternating above: the strata), and by
# direct resampling (64 probes, spread 1 voxel, 25%).
# Usage: tools/shot_enhance.sh [BUILD_DIR] [OUT_DIR]
set -eu
build=${1:-build}
out=${2:-docs/screenshots}
view="set tool.visible 0; biome desert; set player.fly 1; set enhance.radius 128; tp 330 85 250; look 120 -25"
run() { "$build/strata" --headless --width 960 --height 540 --exec "$view; $1" >/dev/null; }
run "screenshot $out/enhance_blocks.png"
run "set render.mode enhanced; screenshot $out/enhance_subdivide.png"
run "set enhance.operator resample; set render.mode enhanced; screenshot $out/enhance_resample.png"
echo "wrote $out/enhance_blocks.png $out/enhance_subdivide.png $out/enhance_resample.png"
