#!/usr/bin/env bash
# A player saved in flight is in flight after a load, in a new process:
# player.fly comes back with the position, and frames after the load do
# not drop the player. A walking player's load keeps walking.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
small='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2'
W=$tmp/w.strata
check "save in flight" 0 "$strata" --headless --world "$W" --exec "$small; set player.fly 1; tp 64.5 60.5 64.5; frames 5; stats; save"
p1=$(last position)
check "load" 0 "$strata" --headless --world "$W" --exec "get player.fly; frames 60; stats"
same "player.fly restored" 1 "$(last player.fly)"
same "position kept in flight over 60 frames after the load" "$p1" "$(last position)"
check "save walking" 0 "$strata" --headless --world "$W" --exec "set player.fly 0; save"
check "load walking" 0 "$strata" --headless --world "$W" --exec "get player.fly"
same "walking restored" 0 "$(last player.fly)"
exit $fail
