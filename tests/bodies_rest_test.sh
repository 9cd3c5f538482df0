#!/usr/bin/env bash
# Voxel bodies come to rest through the real executable: a 280-voxel stone
# ball filled in mid-air over the finite hills lands, stops rolling, sleeps
# and is terrain again within 600 frames (10 s: one physics step of 1/60 s
# a frame), with every voxel of it kept.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"

check "a stone ball over the hills" 0 "$strata" --headless --width 320 --height 180 --exec \
    "set world.stream 0; biome hills; stats; tp 256 120 256; fill stone 256 110 256; frames 1; bodies; frames 599; bodies; stats"
n=$(last fill_voxels) # `stats` prints bodies= too: the first is the one before the fill
same "the ball is 280 voxels" 280 "$n"
same "it falls as a body" 1 "$(nth bodies 2)"
same "within 600 frames it sleeps and merges" 0 "$(nth bodies 3)"
s0=$(nth material.stone 1) s1=$(nth material.stone 2)
[ -n "$s0" ] && [ -n "$s1" ] && same "its stone is terrain again" "$((s0 + n))" "$s1" || { echo "FAIL no stone counts"; fail=1; }
exit $fail
