#!/usr/bin/env bash
# stats' world_hash in a streamed world: the columns within view.distance
# of the player as the stream installs them, so one seed prints one hash on
# every run, whatever of the window's margin has arrived when stats runs
# (or whether it waited at all); a finite world hashes every voxel.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh" # tmp, fail, check, last, nth, same, differ
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
S="$strata --headless --width 96 --height 64"
seed11='set world.seed 11; regen'

check "first run" 0 $S --exec "$seed11; stream wait; stats"
w1=$(last world_hash)
check "second run" 0 $S --exec "$seed11; stream wait; stats"
same "one seed, one world_hash" "$w1" "$(last world_hash)"
check "without the wait, then after it" 0 $S --exec "$seed11; stats; stream wait; frames 5; stats"
same "world_hash before the wait" "$w1" "$(nth world_hash 1)"
same "world_hash once the margin came" "$w1" "$(nth world_hash 2)"
check "a cut" 0 $S --exec "$seed11; stream wait; cut 0 40 0; stats"
differ "a cut near the player changes it" "$w1" "$(last world_hash)"
check "another seed" 0 $S --exec "set world.seed 12; regen; stream wait; stats"
differ "another seed, another world_hash" "$w1" "$(last world_hash)"
small='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2; regen'
check "a finite world, twice" 0 $S --exec "$small; stats; frames 5; stats"
same "a finite world's hash is stable" "$(nth world_hash 1)" "$(nth world_hash 2)"

echo "world_hash: $([ $fail -eq 0 ] && echo passed || echo FAILED)"
exit $fail
