#!/usr/bin/env bash
# What the HUD's debug panel counts is what `stats` prints (the same
# render_stats): smooth mode meshed by the compute passes counts its
# triangles as the CPU path does (the same surface nets, the same count),
# read from the GPU once the passes are done, never zero.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
small="set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2; regen; set render.mode smooth"
check "smooth on the CPU" 0 "$strata" --headless --width 320 --height 180 --exec "$small; set render.gpu 0; frames 10; stats"
cpu=$(last triangles) cpu_vis=$(last triangles_visible)
check "smooth on the GPU" 0 "$strata" --headless --width 320 --height 180 --exec "$small; set render.gpu 1; frames 10; stats"
gpu=$(last triangles) gpu_vis=$(last triangles_visible)
atleast "the CPU path's triangles are counted" "$cpu_vis" 1000
same "the GPU path meshes as many triangles as the CPU path" "$cpu" "$gpu"
atleast "the GPU path's drawn triangles are counted ($gpu_vis)" "$gpu_vis" 1000
exit $fail
