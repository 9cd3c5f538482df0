#!/usr/bin/env bash
# The menu pauses the game (headless, through the `menu` command Esc is
# bound to): it opens and closes within one frame; while it is open 300
# frames change neither the world's hash nor a body caught falling, nor the
# player; closed again, the body falls on. Its rows act on the cvars.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
small="set world.stream 0; set world.size_x 4; set world.size_y 4; set world.size_z 4; biome hills; set tool.size 4"
body() { grep '^body\.' "$tmp/out" | sed -n "$1p" | sed 's/.* pos //'; }

check "a body falls, the menu opens" 0 "$strata" --headless --exec \
    "$small; fill stone 60 110 60; frames 3; tp 20 100 20; frames 1; menu; frames 1; menu list; stats; bodies;
     frames 300; stats; bodies; menu; frames 1; menu list; frames 30; stats; bodies"
same "open the frame after 'menu'" 1 "$(nth menu_open 1)"
same "closed the frame after the second" 0 "$(nth menu_open 2)"
same "paused: the world's hash holds over 300 frames" "$(nth world_hash 1)" "$(nth world_hash 2)"
same "paused: the falling body stays put" "$(body 1)" "$(body 2)"
same "paused: the player stays put in the air" "$(nth position 1)" "$(nth position 2)"
differ "resumed: the body falls on" "$(body 2)" "$(body 3)"
differ "resumed: the player falls" "$(nth position 2)" "$(nth position 3)"

check "the rows" 0 "$strata" --headless --exec "menu; menu list"
fov_row=$(grep '^menu\.[0-9]*=Field of view' "$tmp/out" | sed 's/^menu\.\([0-9]*\)=.*/\1/')
check "the field of view row by its number" 0 "$strata" --headless --exec \
    "menu; menu select $fov_row; menu adjust 2; get view.fov; menu adjust -100; get view.fov"
same "two steps up: 70 + 2 x 5" 80 "$(nth view.fov 1)"
same "far down: the cvar's minimum" 20 "$(nth view.fov 2)"
check "acting on a closed menu is refused" 1 "$strata" --headless --exec "menu select 1"
grep -q "the menu is closed" "$tmp/err" && echo "ok   says why" || { echo "FAIL no reason: $(cat "$tmp/err")"; fail=1; }
check "a row that is not there is refused" 1 "$strata" --headless --exec "menu; menu select 99"
exit $fail
