#!/usr/bin/env bash
# Worlds that persist, through the real executable: save -> load equals
# (world_hash, tints, player), each biome keeps its edits, kill -9 right
# after save, names refused, foreign files moved aside, generator versions.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh" # tmp, fail
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
run() { # run NAME EXPECTED_RC ARGS... (output in $tmp/out, $tmp/err)
    local name=$1 want=$2; shift 2
    "$strata" --headless "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL $name: exit $rc, expected $want"; sed 's/^/  | /' "$tmp/err" | head -20; fail=1
    else
        echo "ok   $name"
    fi
}
kv() { grep "^$1=" "$tmp/out" | tail -1 | cut -d= -f2-; }
same() { # same WHAT A B
    if [ -z "$2" ] || [ "$2" != "$3" ]; then echo "FAIL $1: '$2' vs '$3'"; fail=1; else echo "ok   $1"; fi
}
small='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2'
W=$tmp/w.strata
cuts='tp 64 50 64; look 0 -60; tool.color 2; +cut; frames 12; -cut; tp 33 50 90; look 200 -30; fill; tool.color 4; cut'

run "edit and save" 0 --world "$W" --exec "$small; $cuts; tp 40.25 70.5 41.75; look 123.5 -17.25; stats; save"
h1=$(kv world_hash); t1=$(kv tinted_faces); p1=$(kv position); f1=$(kv facing)
[ "$(kv saved_chunks)" -gt 0 ] 2>/dev/null || { echo "FAIL save wrote no chunks"; fail=1; }
[ "$t1" -gt 0 ] 2>/dev/null || { echo "FAIL the cuts tinted nothing"; fail=1; }
run "load in a new process" 0 --world "$W" --exec "stats"
same "world_hash after load" "$h1" "$(kv world_hash)"
same "tints after load" "$t1" "$(kv tinted_faces)"
same "position after load" "$p1" "$(kv position)"
same "facing after load" "$f1" "$(kv facing)"
same "world size after load" "128x64x128" "$(kv world_size)"

# 'load' with no name goes back to the last save
run "load drops unsaved edits" 0 --world "$W" --exec "tp 64 50 64; look 0 -80; cut; load; stats"
same "world_hash after load (unsaved cut dropped)" "$h1" "$(kv world_hash)"

# each biome keeps its world and edits; the file remembers the last one played
run "biome switch keeps edits" 0 --world "$W" --exec "biome desert; tp 64 50 64; look 0 -70; cut; stats; biome hills; stats; biome desert; stats"
hd=$(grep '^world_hash=' "$tmp/out" | sed -n 1p); hh=$(grep '^world_hash=' "$tmp/out" | sed -n 2p); hd2=$(grep '^world_hash=' "$tmp/out" | sed -n 3p)
same "hills kept its edits across a switch" "world_hash=$h1" "$hh"
same "desert kept its cut across a switch" "$hd" "$hd2"
run "the file reopens in the last biome" 0 --world "$W" --exec "stats"
same "biome on reopen" "desert" "$(kv biome)"
same "desert world_hash on reopen" "$hd" "world_hash=$(kv world_hash)"

# a session through every biome, cut, fill, save, then load each back
# (the ASan build runs this script too: the game under ASan+UBSan)
S=$tmp/s.strata
sess="$small; set world.formula_size 48"
for b in hills desert taiga deciduous formula; do
    sess="$sess; biome $b; tp 64 60 64; look 30 -50; cut; fill sand 70 40 70; cut 32 40 32; tool.color 3; cut 33 41 63; stats"
done
run "session: every biome, cuts, fills, save" 0 --world "$S" --exec "$sess; save"
grep '^world_hash=' "$tmp/out" >"$tmp/sess1"
run "session: each biome loads back" 0 --world "$S" --exec "biome hills; stats; biome desert; stats; biome taiga; stats; biome deciduous; stats; biome formula; stats"
grep '^world_hash=' "$tmp/out" >"$tmp/sess2"
cmp -s "$tmp/sess1" "$tmp/sess2" && [ "$(wc -l <"$tmp/sess1")" -eq 5 ] && echo "ok   every biome's world_hash after load" ||
    { echo "FAIL biome hashes after load:"; paste "$tmp/sess1" "$tmp/sess2"; fail=1; }

# kill -9 right after 'save' returns: the save is there
K=$tmp/k.strata
"$strata" --headless --world "$K" --exec "$small; $cuts; stats; save; echo SAVED; sleep 30" >"$tmp/kout" 2>/dev/null &
pid=$!
for _ in $(seq 1 300); do grep -q SAVED "$tmp/kout" 2>/dev/null && break; sleep 0.1; done
kill -9 $pid; wait $pid 2>/dev/null
hk=$(grep '^world_hash=' "$tmp/kout" | tail -1 | cut -d= -f2)
run "load after kill -9" 0 --world "$K" --exec "stats"
same "world_hash after kill -9" "$hk" "$(kv world_hash)"

# autosave on the frame clock writes without a 'save'
A=$tmp/a.strata
run "autosave" 0 --world "$A" --exec "$small; set save.autosave 1; $cuts; stats; frames 200; echo DONE; sleep 30" &
pid=$!
for _ in $(seq 1 300); do grep -q DONE "$tmp/out" 2>/dev/null && break; sleep 0.1; done
sleep 0.5; kill -9 $pid; wait $pid 2>/dev/null
ha=$(kv world_hash)
run "load an autosave after kill -9" 0 --world "$A" --exec "stats"
same "world_hash of the autosave" "$ha" "$(kv world_hash)"

# named worlds under XDG_DATA_HOME
run "world new" 0 --exec "$small; world new alpha; $cuts; save; worlds"
grep -q "^world=alpha size_bytes=[0-9]* last_played=20" "$tmp/out" || { echo "FAIL worlds lists alpha: $(cat "$tmp/out")"; fail=1; }
[ -f "$XDG_DATA_HOME/strata/worlds/alpha.strata" ] || { echo "FAIL alpha.strata is where XDG says"; fail=1; }
hn=$(kv world_hash)
run "load NAME" 0 --exec "load alpha; stats"
same "load alpha world_hash" "$(grep '^world_hash=' "$tmp/out" | head -1 | cut -d= -f2)" "$(kv world_hash)"
run "world new refuses an existing name" 1 --exec "world new alpha"
for bad in ../evil a/b .hidden "" "x..y"; do
    run "name '$bad' refused" 1 --exec "world new '$bad'"
    grep -q "world name" "$tmp/err" || { echo "FAIL message for '$bad': $(cat "$tmp/err")"; fail=1; }
done
run "load of a missing world" 1 --exec "load nosuch"
run "save without a file says so" 1 --exec "save"
grep -q "no world file" "$tmp/err" || { echo "FAIL save without a file: $(cat "$tmp/err")"; fail=1; }

# a foreign file is moved aside, never overwritten; the game starts fresh,
# but the world asked for was not loaded: the run says so and exits 1
F=$tmp/f.strata
head -c 20000 /dev/urandom >"$F"; cp "$F" "$tmp/f.orig"
run "random file moved aside (--world fails)" 1 --world "$F" --exec "$small; stats; save"
grep -q "^error: world not loaded: $F is not a strata world.*moved aside" "$tmp/err" || { echo "FAIL message: $(cat "$tmp/err")"; fail=1; }
[ -n "$(kv saved)" ] || { echo "FAIL the new world in its place was not saved"; fail=1; }
aside=$(ls "$tmp"/f.strata.unusable-* 2>/dev/null | head -1)
cmp -s "$aside" "$tmp/f.orig" || { echo "FAIL the random file was not kept intact"; fail=1; }
# 'load' of an unusable file fails (path on stderr, no loaded=), the file kept aside
L=$tmp/l.strata
head -c 20000 /dev/urandom >"$L"; cp "$L" "$tmp/l.orig"
run "load of random bytes fails" 1 --world "$L" --exec "$small; load; stats"
grep -q "^error: load: $L holds no saved world" "$tmp/err" || { echo "FAIL load message: $(cat "$tmp/err")"; fail=1; }
! grep -q "^loaded=" "$tmp/out" || { echo "FAIL load of random bytes printed loaded="; fail=1; }
cmp -s "$(ls "$tmp"/l.strata.unusable-* | head -1)" "$tmp/l.orig" || { echo "FAIL the random file was not kept intact"; fail=1; }
head -c 20000 /dev/urandom >"$XDG_DATA_HOME/strata/worlds/junk.strata"
run "load NAME of random bytes fails" 1 --exec "$small; load junk; stats"
grep -q "^error: load: $XDG_DATA_HOME/strata/worlds/junk.strata is not a strata world.*moved aside to .*junk.strata.unusable-" "$tmp/err" || { echo "FAIL load NAME message: $(cat "$tmp/err")"; fail=1; }
! grep -q "^loaded=" "$tmp/out" || { echo "FAIL load NAME of random bytes printed loaded="; fail=1; }
: >"$tmp/z.strata"
run "zero-length file" 0 --world "$tmp/z.strata" --exec "$small; stats; save"
# a read-only world loads but is never written
chmod 444 "$W"; cp "$W" "$tmp/w.copy"
run "read-only world loads" 0 --world "$W" --exec "stats"
same "read-only world_hash" "$hd" "world_hash=$(kv world_hash)"
grep -q "read-only" "$tmp/err" || { echo "FAIL read-only is said"; fail=1; }
run "save to a read-only world fails" 1 --world "$W" --exec "save"
cmp -s "$W" "$tmp/w.copy" || { echo "FAIL the read-only world changed"; fail=1; }
chmod 644 "$W"

# a world made by another generator version is refused, and kept
if python3 -c "import sqlite3" 2>/dev/null; then
    python3 - "$W" <<'PY'
import re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
# whatever version wrote it (WORLDGEN_VERSION), another one
for rowid, inputs in db.execute("SELECT rowid, inputs FROM slots").fetchall():
    db.execute("UPDATE slots SET inputs = ? WHERE rowid = ?", (re.sub(r'^generator \d+', 'generator 999', inputs), rowid))
db.commit()
PY
    cp "$W" "$tmp/w.gen"
    run "other generator refused (and save says no file)" 1 --world "$W" --exec "stats; save"
    grep -q "generator 999" "$tmp/err" || { echo "FAIL generator message: $(cat "$tmp/err")"; fail=1; }
    python3 - "$W" <<'PY' || { echo "FAIL the refused world changed"; fail=1; }
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n = db.execute("SELECT count(*) FROM slots WHERE inputs LIKE 'generator 999%'").fetchone()[0]
sys.exit(0 if n == 2 else 1)
PY
fi
exit $fail
