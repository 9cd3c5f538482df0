#!/usr/bin/env bash
# Renders the README's pictures of seed 002: docs/screenshots/import.png (a
# voxelized teapot, spout, handle and knob overlapping the body, stamped
# into the desert) and docs/screenshots/mesh_tunnel.png (tunnels cut
# through the formula world with a teapot- and a torus-shaped tool).
# Usage: tools/shot_voxelize.sh [BUILD_DIR] [OUT_DIR]
set -eu
# the pictures are of the finite world (world.stream 0): the default streams, and its
# regions place features elsewhere
build=${1:-build}
out=${2:-docs/screenshots}
meshes=$(mktemp -d)
trap 'rm -rf "$meshes"' EXIT
"$build/meshgen" "$meshes" >/dev/null
"$build/strata" --headless --width 960 --height 540 --exec "set world.stream 0; biome desert; set tool.visible 0; \
set voxelize.method winding; set tool.material stone; tp 128 90 128; look 0 -45; \
import $meshes/teapot_overlap.obj 64; tp 80 68 30; look 150 -12; screenshot $out/import.png" >/dev/null
cmds="biome formula; set voxelize.method winding; tool.mesh $meshes/teapot_overlap.obj 20; set tool.color 2"
for x in $(seq 190 4 300); do cmds="$cmds; cut $x 16 246"; done
cmds="$cmds; tool.mesh $meshes/torus.obj 16; set tool.color 3"
for x in $(seq 190 3 300); do cmds="$cmds; cut $x 16 270"; done
cmds="$cmds; set tool.visible 0; tp 178 17 258; look 90 -2; screenshot $out/mesh_tunnel.png"
"$build/strata" --headless --width 960 --height 540 --exec "set world.stream 0; $cmds" >/dev/null
echo "wrote $out/import.png $out/mesh_tunnel.png"
