#!/usr/bin/env bash
# `hash X Z R`, `stats`' chunk counts and `stream.workers`, through the real
# executable: a region hashes the same resident or not, after different
# flights, on 1 worker or all of them; a cut changes it, and the cut region
# hashes the same while the window is away (its edits are in the store) and
# after flying back; evictions are counted; bad input is refused with the
# argument named.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
run() { local name=$1 want=$2; shift 2; check "$name" "$want" "$strata" --headless "$@"; }
nth() { grep "^$1=" "$tmp/out" | sed -n "$2p" | cut -d= -f2-; }
last() { grep "^$1=" "$tmp/out" | tail -1 | cut -d= -f2-; }
same() {
    if [ -z "$2" ] || [ "$2" != "$3" ]; then echo "FAIL $1: '$2' vs '$3'"; fail=1; else echo "ok   $1"; fi
}
differ() {
    if [ -z "$2" ] || [ "$2" = "$3" ]; then echo "FAIL $1: both '$2'"; fail=1; else echo "ok   $1"; fi
}
has() {
    if grep -q -- "$2" "$3"; then echo "ok   $1"; else echo "FAIL $1: no '$2' in:"; sed 's/^/  | /' "$3" | head; fail=1; fi
}

stream='set world.stream 1; set view.distance 96; biome taiga'
region='hash 3000 -2000 80'

# the far region hashed from the origin (generated, not resident), then there
run "far region from home, then there" 0 --exec "$stream; stream wait; $region; tp 3000.5 90 -1999.5; stream wait; $region; stats"
h_away=$(nth hash 1)
same "generated and resident hash alike" "$h_away" "$(nth hash 2)"
[ "$(nth hash_generated 1)" -gt 0 ] 2>/dev/null || { echo "FAIL the first hash generated nothing"; fail=1; }
same "the second hash generated nothing" "0" "$(nth hash_generated 2)"
# (`stream wait` prints the stream's lines too: the last ones are `stats`')
[ "$(last chunks_evicted)" -gt 0 ] 2>/dev/null || { echo "FAIL the move evicted no chunks: $(last chunks_evicted)"; fail=1; }
[ "$(last chunks_resident)" -gt 0 ] 2>/dev/null || { echo "FAIL chunks_resident=$(last chunks_resident)"; fail=1; }
[ "$(last resident_bytes)" -gt 1000000 ] 2>/dev/null || { echo "FAIL resident_bytes=$(last resident_bytes)"; fail=1; }
has "chunks_generating is printed" "^chunks_generating=" "$tmp/out"

# a teleport beyond the window: the player is held, the HUD's bar says so
# (stream_near_ready is its fraction), until the ground comes
run "held after a teleport" 0 --exec "$stream; stream wait; tp 9000.5 100 9000.5; frames 1; stream; stream wait 96; stream"
same "held over a column not there" "1" "$(nth stream_held 2)"
if awk -v f="$(nth stream_near_ready 2)" 'BEGIN { exit !(f < 1) }'; then echo "ok   the bar shows"; else echo "FAIL stream_near_ready=$(nth stream_near_ready 2)"; fail=1; fi
same "no longer held" "0 1.000" "$(last stream_held) $(last stream_near_ready)"

# another path there, one worker
run "another path, one worker" 0 --exec "set stream.workers 1; $stream; tp 1200.5 90 -700.5; frames 3; tp 3040.5 90 -2050.5; stream wait; $region"
same "path and worker count do not matter" "$h_away" "$(nth hash 1)"

# a cut changes its region; the window leaves (the edits go to the store) and comes back
run "cut, away, back" 0 --exec "$stream; tp 3000.5 90 -1999.5; stream wait; cut 3000 50 -2000; $region; tp 0.5 90 0.5; stream wait; stats; $region; tp 3000.5 90 -1999.5; stream wait; $region"
h_cut=$(nth hash 1)
differ "the cut changed the region" "$h_away" "$h_cut"
# the second `stream wait`, at home: the cut's chunks are in the store
[ "$(nth stream_stored_chunks 2)" -gt 0 ] 2>/dev/null || { echo "FAIL the cut was not in the store"; fail=1; }
same "the cut region from afar (store)" "$h_cut" "$(nth hash 2)"
same "the cut region after flying back" "$h_cut" "$(nth hash 3)"

# a finite world hashes its own columns
run "finite world" 0 --exec "set world.stream 0; biome hills; hash 100 100 40; hash 100 100 40; stats"
same "a finite hash is stable" "$(nth hash 1)" "$(nth hash 2)"
same "finite: nothing generating" "0" "$(last chunks_generating)"
same "finite: nothing evicted" "0" "$(last chunks_evicted)"
same "finite: every chunk resident" "$(last chunks)" "$(last chunks_resident)"

# the formula world stays the finite object seed 003 defines, streaming on or not
run "formula world, world.stream 1" 0 --exec "set world.stream 1; biome formula; stats"
same "formula: finite, every chunk resident" "$(last chunks)" "$(last chunks_resident)"
if grep -q "^stream_window=" "$tmp/out"; then echo "FAIL the formula world streamed"; fail=1; else echo "ok   the formula world did not stream"; fi

# bad input: refused with the argument named (a script stops at a failed command)
run "hash without a radius" 1 --exec "hash 1 2"
has "usage" "usage: hash X Z RADIUS" "$tmp/err"
run "hash x" 1 --exec "hash x 0 10"
has "X named" "hash: X 'x' is not a whole number" "$tmp/err"
run "negative radius" 1 --exec "hash 0 0 -5"
has "negative radius named" "hash: RADIUS '-5'" "$tmp/err"
run "huge radius" 1 --exec "hash 0 0 99999"
has "huge radius named" "hash: RADIUS '99999'" "$tmp/err"
run "too many workers" 1 --exec "set stream.workers 100"
has "workers limit named" "stream.workers" "$tmp/err"
exit $fail
