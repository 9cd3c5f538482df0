#!/usr/bin/env bash
# One game per world: while one strata holds a world file, a
# second one on the same file says who holds it, loads it read-only and
# never writes it (save, autosave, biome switches, load, exit); the holder's
# saves go on, the file ends holding exactly the holder's world, and the
# lock goes with the holder even on kill -9.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh" # tmp, fail, check
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
holder=
trap '[ -n "$holder" ] && kill -9 "$holder" 2>/dev/null; rm -rf "$tmp"' EXIT
hash_of() { grep '^world_hash=' "$1" | sed -n "${2}p" | cut -d= -f2; }
small='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2'
S="$strata --headless"
W=$tmp/w.strata

# the holder: edits and saves, then waits for a file of its next commands
start_holder holder $S --world "$W" --exec "$small; cut 64 30 64; save; stats; echo HELD; sleep 120 $tmp/go.cfg; exec $tmp/go.cfg; stats; echo DONE; sleep 120"
h1=$(hash_of "$tmp/holder" 1)

# a second game on the same file: it says who holds the world, loads it, writes nothing
check "second game: save is refused" 1 $S --world "$W" --exec "stats; cut 30 30 30; save"
has "names the file and the holder" err "$W is in use by another strata (pid $holder)"
has "save says why" err "save: $W is in use by another strata (pid $holder): nothing was saved"
same "second game loads the holder's world" "$h1" "$(hash_of "$tmp/out" 1)"
check "second game: autosave, biome switches and exit write nothing" 0 $S --world "$W" --exec \
    "set save.autosave 0.05; cut 40 30 40; frames 30; biome desert; cut 64 30 64; frames 10; biome hills; cut 20 30 20; frames 30"
has "exit says the edits are not saved" err "the edits of this session are not saved"
check "second game: load is the holder's last save" 0 $S --world "$W" --exec "cut 50 30 50; load; stats"
same "load in the second game" "$h1" "$(hash_of "$tmp/out" 1)"
check "second game: world new starts a file of its own" 0 $S --world "$W" --exec "$small; cut 50 30 50; world new other; save"
[ -s "$XDG_DATA_HOME/strata/worlds/other.strata" ] || { echo "FAIL world new made no file"; fail=1; }

# the holder goes on saving; then it is killed without a chance to let go
echo 'cut 90 30 90; save' >"$tmp/go.tmp" && mv "$tmp/go.tmp" "$tmp/go.cfg"
wait_for "$tmp/holder" DONE
h2=$(hash_of "$tmp/holder" 2)
kill -9 "$holder"
wait "$holder" 2>/dev/null
holder=

# the file holds the holder's world, nothing of the second game's, and the lock is free
check "after kill -9 the world opens for writing" 0 $S --world "$W" --exec "stats; cut 10 30 10; save"
same "the file holds exactly the holder's world" "$h2" "$(hash_of "$tmp/out" 1)"
! grep -q "in use" "$tmp/err" || { echo "FAIL the lock outlived kill -9: $(cat "$tmp/err")"; fail=1; }
if python3 -c "import sqlite3" 2>/dev/null; then
    slots=$(python3 -c "import sqlite3, sys; print(' '.join(r[0] for r in sqlite3.connect(sys.argv[1]).execute('SELECT name FROM slots ORDER BY name')))" "$W")
    same "only the holder's slot is in the file" "hills" "$slots"
fi

echo "save_lock: $([ $fail -eq 0 ] && echo passed || echo FAILED)"
exit $fail
