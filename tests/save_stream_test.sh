#!/usr/bin/env bash
# Saves of a streamed world (world.stream 1), through the real executable:
# cut at the origin, fly 5 km away, cut there, save, quit, reload, fly back:
# both cuts are there (probe hashes of the boxes around them); kill -9 after
# a save and after an autosave of chunks the window had left; one damaged
# chunk row, and one whose terrain fingerprint no longer matches, regenerate
# alone while the others load; a streamed and a finite world of one biome
# are different worlds; a finite save of the form before streaming loads.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
run() { local name=$1 want=$2; shift 2; check "$name" "$want" "$strata" --headless "$@"; }
copy() { # a world file with its WAL (the last commits may be only there)
    rm -f "$2" "$2-wal" "$2-shm"; cp "$1" "$2"; [ -f "$1-wal" ] && cp "$1-wal" "$2-wal"; return 0
}
nth() { grep "^$1=" "$tmp/out" | sed -n "$2p" | cut -d= -f2-; }
same() { # same WHAT A B
    if [ -z "$2" ] || [ "$2" != "$3" ]; then echo "FAIL $1: '$2' vs '$3'"; fail=1; else echo "ok   $1"; fi
}
differ() {
    if [ -z "$2" ] || [ "$2" = "$3" ]; then echo "FAIL $1: both '$2'"; fail=1; else echo "ok   $1"; fi
}
has() { # has WHAT PATTERN FILE
    if grep -q -- "$2" "$3"; then echo "ok   $1"; else echo "FAIL $1: no '$2' in:"; sed 's/^/  | /' "$3" | head; fail=1; fi
}

stream='set world.stream 1; biome hills'
near='probe -24 20 -24 24 100 24'          # the box around the cuts at the origin
far='probe 4976 20 4976 5024 100 5024'     # the box around the cut 5 km away
home='tp 0.5 90 0.5; stream wait 96'
away='tp 5000.5 90 5000.5; stream wait 96'
cuts='cut 0 60 0; tool.color 3; cut 12 55 6'

# the boxes as generated (no edits), for "the cut is there" and "it regenerated"
run "fresh streamed world" 0 --exec "$stream; stream wait 96; $near; $away; $far"
h_near0=$(nth probe_hash 1); h_far0=$(nth probe_hash 2)

# cut, fly away in steps (the origin's chunks leave the window and are kept
# by the stream), cut there, save
W=$tmp/w.strata
run "cut, fly 5 km, cut, save" 0 --world "$W" --exec "$stream; stream wait 96; $cuts; $near; tp 1000.5 90 1000.5; frames 2; tp 2500.5 90 2500.5; frames 2; $away; cut 5000 60 5000; $far; stream; save"
h_near=$(nth probe_hash 1); h_far=$(nth probe_hash 2)
differ "the cuts changed the origin" "$h_near0" "$h_near"
differ "the cut changed the far box" "$h_far0" "$h_far"
# with a file open they were saved as they left and dropped from memory
# (paged): only the far cut is left for 'save'
[ "$(grep '^stream_paged_chunks=' "$tmp/out" | tail -1 | cut -d= -f2)" -ge 3 ] 2>/dev/null || { echo "FAIL the origin's edits were not paged out to the file"; fail=1; }
[ "$(grep '^stream_stored_chunks=' "$tmp/out" | tail -1 | cut -d= -f2)" = 0 ] || { echo "FAIL the origin's edits stayed in memory"; fail=1; }
[ "$(nth saved_chunks 1)" -ge 1 ] 2>/dev/null || { echo "FAIL save wrote $(nth saved_chunks 1) chunks"; fail=1; }

run "reload, fly back" 0 --world "$W" --exec "stream wait 96; stats; $far; tp 2500.5 90 2500.5; frames 2; $home; $near"
same "the file reopens streamed, where the player stood" "5000.50 90.00 5000.50" "$(nth position 1)"
same "the far cut after reload" "$h_far" "$(nth probe_hash 1)"
same "the origin's cuts after flying back" "$h_near" "$(nth probe_hash 2)"
same "the probes saw generated columns" "1 1" "$(nth probe_ready 1) $(nth probe_ready 2)"
if grep -q "regenerates" "$tmp/err"; then echo "FAIL a sound file warned: $(cat "$tmp/err")"; fail=1; fi

# a save that came back, saved again unchanged, writes nothing twice
run "a save with nothing new" 0 --world "$W" --exec "save"
same "nothing unsaved after a load" "0" "$(nth saved_chunks 1)"
# the window's width is view.distance's: world.size_x/z are not its inputs
run "world.size_x changed" 0 --world "$W" --exec "set world.size_x 9; regen; $home; $near"
same "the origin's cuts with another world.size_x" "$h_near" "$(nth probe_hash 1)"

# kill -9 right after 'save' returns: the save is there
K=$tmp/k.strata
"$strata" --headless --world "$K" --exec "$stream; stream wait 96; $cuts; $away; cut 5000 60 5000; save; echo SAVED; sleep 30" >"$tmp/kout" 2>/dev/null &
pid=$!
for _ in $(seq 1 300); do grep -q SAVED "$tmp/kout" 2>/dev/null && break; sleep 0.1; done
kill -9 $pid; wait $pid 2>/dev/null
run "load after kill -9" 0 --world "$K" --exec "stream wait 96; $far; $home; $near"
same "far cut after kill -9" "$h_far" "$(nth probe_hash 1)"
same "origin cuts after kill -9" "$h_near" "$(nth probe_hash 2)"

# an autosave takes the chunks the window left unsaved (in the stream's store)
A=$tmp/a.strata
"$strata" --headless --world "$A" --exec "$stream; set save.autosave 1; stream wait 96; $cuts; $away; frames 120; echo DONE; sleep 30" >"$tmp/kout" 2>/dev/null &
pid=$!
for _ in $(seq 1 300); do grep -q DONE "$tmp/kout" 2>/dev/null && break; sleep 0.1; done
sleep 0.5; kill -9 $pid; wait $pid 2>/dev/null
run "load an autosave after kill -9" 0 --world "$A" --exec "$home; $near"
same "origin cuts autosaved from the store" "$h_near" "$(nth probe_hash 1)"

# damaged rows lose only themselves
if python3 -c "import sqlite3" 2>/dev/null; then
    D=$tmp/d.strata
    copy "$W" "$D"
    rows=$(python3 - "$D" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT count(*) FROM stream_chunks").fetchone()[0])
# chunk 0,1,0 holds the first cut: its record becomes garbage
db.execute("UPDATE stream_chunks SET data = x'01004242424242' WHERE cx=0 AND cy=1 AND cz=0")
# chunk -1,1,-1 claims to lie on other terrain
db.execute("UPDATE stream_chunks SET gen_hash = gen_hash + 1 WHERE cx=-1 AND cy=1 AND cz=-1")
db.commit()
EOF
)
    [ "$rows" -ge 3 ] 2>/dev/null || { echo "FAIL expected 3+ rows, got '$rows'"; fail=1; }
    run "a file with damaged chunks loads" 0 --world "$D" --exec "$away; $far; $home; probe 0 32 0 31 63 31; probe -32 32 -32 -1 63 -1; $near"
    has "the damaged chunk is named" "save: chunk 0,1,0 of world 'hills' is damaged: it regenerates (" "$tmp/err"
    has "the mismatched chunk is named" "save: chunk -1,1,-1 of world 'hills' no longer matches its terrain: it regenerates (" "$tmp/err"
    same "the far cut survives damage elsewhere" "$h_far" "$(nth probe_hash 1)"
    hd_a=$(nth probe_hash 2); hd_b=$(nth probe_hash 3); hd_near=$(nth probe_hash 4)
    run "the same chunks, generated" 0 --exec "$stream; stream wait 96; probe 0 32 0 31 63 31; probe -32 32 -32 -1 63 -1"
    same "damaged chunk 0,1,0 regenerated" "$(nth probe_hash 1)" "$hd_a"
    same "mismatched chunk -1,1,-1 regenerated" "$(nth probe_hash 2)" "$hd_b"
    differ "the other origin chunks kept their cuts" "$h_near0" "$hd_near"
else
    echo "skip damaged rows (no python3 sqlite3)"
fi

# a streamed and a finite world of one biome are different worlds: the
# finite one does not get the streamed edits
small='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2'
run "finite hills, no file" 0 --exec "$small; biome hills; stats"
h_fin=$(nth world_hash 1)
F=$tmp/f.strata
copy "$W" "$F"
run "the file's streamed hills, played finite" 0 --world "$F" --exec "set world.stream 0; $small; regen; stats"
same "a finite world is not the streamed one" "$h_fin" "$(nth world_hash 1)"

# a finite world saved in the form before streaming (no world.stream line,
# or the line every finite save wrote for a while) loads with its edits
O=$tmp/o.strata
run "finite save" 0 --world "$O" --exec "$small; cut 64 50 64; tool.color 2; cut 70 45 60; stats; save"
h_o=$(nth world_hash 1)
# world.stream 1 in the settings: the slot, which does not name it, is finite
echo 'set world.stream 1' >"$tmp/streaming.cfg"
run "a finite save loads with world.stream 1 set" 0 --config "$tmp/streaming.cfg" --world "$O" --exec "stats"
same "finite world_hash" "$h_o" "$(nth world_hash 1)"
if grep -q "^stream_window=" "$tmp/out"; then echo "FAIL the finite slot streamed"; fail=1; fi
if python3 -c "import sqlite3" 2>/dev/null; then
    python3 - "$O" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
(inputs,) = db.execute("SELECT inputs FROM slots WHERE name='hills'").fetchone()
assert 'world.stream' not in inputs, inputs
db.execute("UPDATE slots SET inputs=? WHERE name='hills'", (inputs.replace('world.soil_depth "4"\n', 'world.soil_depth "4"\nworld.stream "0"\n'),))
db.commit()
EOF
    run "a finite save naming world.stream 0 loads" 0 --world "$O" --exec "stats"
    same "finite world_hash (world.stream \"0\" in its inputs)" "$h_o" "$(nth world_hash 1)"
fi

exit $fail
