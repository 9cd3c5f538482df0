#!/usr/bin/env bash
# The far rings and the save file: an edit made in one run, flown away
# from and saved, is in the far ring of the next run that loads the world
# far from it (the column never comes into the window: its summary is made
# on the workers from the file's chunks, stream_paged_in stays 0), still
# after regen and after a biome switch and back; a world without the edit
# draws the plain surface there.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
run() { local name=$1 want=$2; shift 2; check "$name" "$want" "$strata" --headless "$@"; }
top() { # top N: the Nth far_cell_top, whole voxels
    nth far_cell_top "$1" | cut -d. -f1
}
between() { # between WHAT VALUE LO HI
    if [ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] 2>/dev/null; then echo "ok   $1"; else echo "FAIL $1: '$2' not in $3..$4"; fail=1; fi
}

world='set view.distance 128; set view.far 4096; set world.stream 1; set player.fly 1; biome hills'
edit='tp 1200 100 1200; stream wait; set tool.size 32; set tool.shape 1; fill stone 1216 110 1216'
look='far at 1216 1216; far; stream'
W=$tmp/w.strata

# a block of stone up to y = 126; 2.2 km out the ring's cells are 128
# voxels, and the block raises the vertex there to its top
run "edit, fly 2.2 km away, quit" 0 --world "$W" --exec "$world; $edit; tp 3400 100 1200; stream wait; $look"
between "this run: the edit in the far ring" "$(top 1)" 126 128

run "reload far from the edit" 0 --world "$W" --exec "set view.distance 128; stream wait; $look"
between "reloaded: the edit in the far ring" "$(top 1)" 126 128
atleast "its summary came from the file" "$(last far_edited_columns_read)" 1
same "the stream never read the column" "0" "$(last stream_paged_in)"
atleast "its chunks stay paged" "$(last stream_paged_chunks)" 1

run "reload, regen, a biome switch and back" 0 --world "$W" --exec "set view.distance 128; stream wait; regen; stream wait; $look; biome desert; stream wait; biome hills; stream wait; $look"
between "after regen" "$(top 1)" 126 128
between "after a biome switch and back" "$(top 2)" 126 128

run "a world without the edit" 0 --exec "$world; tp 3400 100 1200; stream wait; $look"
plain=$(top 1)
if [ -n "$plain" ] && [ "$plain" -lt 110 ]; then echo "ok   unedited: the plain surface ($plain)"; else echo "FAIL unedited: '$plain'"; fail=1; fi
same "no summaries without edits" "0" "$(last far_edited_columns)"
exit $fail
