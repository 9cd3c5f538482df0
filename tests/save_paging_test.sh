#!/usr/bin/env bash
# Paging a streamed world's edits (edits and saves), through the
# real executable: a cut at the origin, flown away from with a world file
# open, is saved and dropped from memory (stream_stored_chunks 0, the rows
# in the file) and comes back when the player does (the `hash` of the
# region equals a run where the player never left); it survives quit and
# reload, a biome switch and back, view.distance changes and regen while
# paged out, and a kill -9 right after it was paged out. Without a file the
# store keeps it in memory as before. A flight with cuts every kilometre
# keeps the store bounded.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
run() { local name=$1 want=$2; shift 2; check "$name" "$want" "$strata" --headless "$@"; }
after() { # after MARK KEY: KEY's first value after the line MARK (echo MARK)
    sed -n "/^$1\$/,\$p" "$tmp/out" | grep "^$2=" | head -1 | cut -d= -f2-
}

stream='set world.stream 1; biome hills; stream wait 96'
cuts='cut 0 60 0; tool.color 3; cut 12 55 6'
region='hash 0 0 40'
# away in steps (the window moves, the origin's columns leave), then time
# for the save of what left and its commit, so the chunks are paged out
away='tp 1000.5 90 0.5; frames 2; tp 2500.5 90 0.5; frames 2; tp 5000.5 90 0.5; stream wait 64; frames 5; sleep 0.5; frames 5'
home='tp 0.5 90 0.5; stream wait 96'

run "the region, cut, the player never leaving" 0 --exec "$stream; $region; $cuts; $region"
h_gen=$(nth hash 1); h_cut=$(nth hash 2)
differ "the cuts change the region" "$h_gen" "$h_cut"

# no file: the store keeps the edits in memory, as before
run "flown away with no file" 0 --exec "$stream; $cuts; $away; stream; $region"
atleast "no file: the edits stay in the store" "$(last stream_stored_chunks)" 2
same "no file: nothing paged" "0" "$(last stream_paged_chunks)"
same "no file: the region from afar" "$h_cut" "$(last hash)"

W=$tmp/w.strata
run "cut, fly away with a file" 0 --world "$W" --exec "$stream; $cuts; $away; echo AWAY; stream; $region; $home; stream; $region"
atleast "the origin's chunks were paged out" "$(after AWAY stream_paged_chunks)" 2
same "and are not in memory" "0" "$(after AWAY stream_stored_chunks)"
atleast "stats says chunks_paged" "$(after AWAY chunks_paged)" 2
same "the region from afar reads them from the file" "$h_cut" "$(nth hash 1)"
same "flown back, the cut is there" "$h_cut" "$(nth hash 2)"
same "read back: nothing paged" "0" "$(last stream_paged_chunks)"
atleast "read back through the pager" "$(last stream_paged_in)" 1
if grep -q "regenerates" "$tmp/err"; then echo "FAIL a sound file warned: $(cat "$tmp/err")"; fail=1; fi
if python3 -c "import sqlite3" 2>/dev/null; then
    rows=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM stream_chunks WHERE cx BETWEEN -1 AND 0 AND cz BETWEEN -1 AND 0').fetchone()[0])" "$W")
    atleast "the origin's chunks are rows of the file" "$rows" 2
fi

run "quit, reload, fly home" 0 --world "$W" --exec "$away; echo AWAY; stream; $home; $region"
atleast "reloaded far away: the origin's chunks are paged, not read" "$(after AWAY stream_paged_chunks)" 2
same "reloaded: the cut is there" "$h_cut" "$(last hash)"

# while the origin is paged out: another biome's slot and back, a bigger
# and a smaller window, regen; each biome keeps its own edits
run "biome switch, view.distance, regen while paged out" 0 --world "$W" --exec "$away; biome desert; tp 5000.5 90 0.5; stream wait 64; cut 5000 40 0; probe 4990 20 -10 5010 60 10; biome hills; stream wait 64; set view.distance 160; frames 2; set view.distance 96; frames 2; regen; stream wait 64; $home; $region; biome desert; tp 5000.5 90 0.5; stream wait 64; probe 4990 20 -10 5010 60 10"
same "the cut after a biome switch, two windows and regen" "$h_cut" "$(nth hash 1)"
same "the desert kept its own cut in its slot" "$(nth probe_hash 1)" "$(nth probe_hash 2)"

# kill -9 right after the chunks were paged out
K=$tmp/k.strata
kill9_after PAGED "$tmp/kout" "$strata" --headless --world "$K" --exec "$stream; $cuts; $away; stream; echo PAGED; sleep 30"
atleast "paged out before the kill" "$(grep '^stream_paged_chunks=' "$tmp/kout" | tail -1 | cut -d= -f2)" 2
run "load after kill -9" 0 --world "$K" --exec "$home; $region"
same "the paged cut after kill -9" "$h_cut" "$(last hash)"

# a flight with a cut every kilometre: the store holds only what is not yet
# written; everything else is paged
fly="$stream"
for x in 0 1000 2000 3000 4000 5000 6000; do
    fly="$fly; tp $x.5 90 0.5; stream wait 64; cut $x 60 0; cut $((x + 40)) 58 30; frames 3"
done
M=$tmp/m.strata
run "a flight with cuts every kilometre" 0 --world "$M" --exec "$fly; tp 7000.5 90 0.5; stream wait 64; frames 5; sleep 0.5; frames 5; stream"
atleast "the flight's cuts are paged" "$(last stream_paged_chunks)" 10
stored=$(last stream_stored_chunks)
if [ -n "$stored" ] && [ "$stored" -le 8 ]; then echo "ok   the store stays bounded ($stored)"; else echo "FAIL the store holds '$stored'"; fail=1; fi
exit $fail
