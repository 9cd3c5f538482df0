#!/usr/bin/env bash
# Renders the smooth-mode pictures of the README: the same desert view in
# blocks and smooth mode, and a tunnel cut down into the hills, in smooth
# mode. Usage: tools/shot_smooth.sh [BUILD_DIR] [OUT_DIR]
set -eu
# the pictures are of the finite world (world.stream 0): the default streams, and its
# regions place features elsewhere
build=${1:-build}
out=${2:-docs/screenshots}
view="biome desert; tp 256 82 256; look 30 -20; set tool.visible 0"
"$build/strata" --headless --width 640 --height 400 --exec "set world.stream 0; $view; screenshot $out/smooth_blocks.png; set render.mode smooth; screenshot $out/smooth_smooth.png" >/dev/null
# a round tunnel: spherical cuts descending from the surface (y ~ 65 here)
# along +z, seen from behind its mouth
cmds="set tool.visible 0; set tool.size 11; set tool.color 4; set render.mode smooth"
for k in $(seq 0 24); do cmds="$cmds; cut 256 $((66 - k)) $((200 + 3 * k))"; done
cmds="$cmds; tp 256 74 186; look 180 -24; screenshot $out/smooth_tunnel.png"
"$build/strata" --headless --width 960 --height 540 --exec "set world.stream 0; $cmds" >/dev/null
echo "wrote $out/smooth_blocks.png $out/smooth_smooth.png $out/smooth_tunnel.png"
