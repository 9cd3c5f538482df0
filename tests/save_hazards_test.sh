#!/usr/bin/env bash
# World files under hostile file systems: a hard link to a held world gives
# no second writer (the holder's saves survive); a world in a folder without
# write permission opens read-only and says why; a full disk is named as
# such at open, and a save on exit that fails on it exits non-zero, says so
# once and keeps the edits in a recovery file. The full disk is a small
# tmpfs, which needs mount (root); without it that part is skipped, said.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh" # tmp, fail, check, same, differ
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
holder= mnt=
trap '[ -n "$holder" ] && kill -9 "$holder" 2>/dev/null; [ -n "$mnt" ] && umount "$mnt"; rm -rf "$tmp"' EXIT
small='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2'
S="$strata --headless --width 96 --height 64"
export TMPDIR=$tmp # recovery files land here, not in /tmp
box='probe 20 20 20 100 40 100'

# ---- a hard link to a held world
W=$tmp/w.strata
start_holder holder $S --world "$W" --exec "$small; cut 64 30 64; save; echo HELD; sleep 120 $tmp/go.cfg; exec $tmp/go.cfg; $box; echo DONE; sleep 120"
ln "$W" "$tmp/link.strata"
check "a second game through a hard link cannot save" 1 $S --world "$tmp/link.strata" --exec "$small; cut 30 30 30; save"
has "it says the world is held through another name" err "in use by another strata through another name"
check "nor does its exit (the file it sees has no world yet: not loaded)" 1 $S --world "$tmp/link.strata" --exec "$small; cut 40 30 40; cut 90 30 90"
echo 'cut 90 30 90; save' >"$tmp/go.tmp" && mv "$tmp/go.tmp" "$tmp/go.cfg"
wait_for "$tmp/holder" DONE
held=$(grep '^probe_hash=' "$tmp/holder" | tail -1 | cut -d= -f2)
kill -9 "$holder"; wait "$holder" 2>/dev/null; holder=
check "the world opens after the holder" 0 $S --world "$W" --exec "$small; $box"
same "the holder's saved edits survive" "$held" "$(last probe_hash)"
check "and through the link" 0 $S --world "$tmp/link.strata" --exec "$small; $box"
same "the link shows the holder's edits" "$held" "$(last probe_hash)"

# ---- a world in a folder without write permission (the owner's bit: root is not stopped by it)
mkdir "$tmp/ro"
check "a world made in a folder" 0 $S --world "$tmp/ro/w.strata" --exec "$small; cut 64 30 64; save; $box"
saved=$(last probe_hash)
chmod 555 "$tmp/ro"
check "it opens read-only from a folder without write permission" 0 $S --world "$tmp/ro/w.strata" --exec "$small; $box"
has "the warning names the folder" err "in a folder without write permission"
same "and it holds the saved world" "$saved" "$(last probe_hash)"
check "save there is refused with the reason" 1 $S --world "$tmp/ro/w.strata" --exec "$small; cut 30 30 30; save"
has "save names the folder" err "in a folder without write permission"
[ -z "$(ls "$tmp/ro" | grep -v '^w.strata$')" ] || { echo "FAIL files were made in the folder: $(ls "$tmp/ro")"; fail=1; }
nobody=$(id -u nobody 2>/dev/null)
if [ "$(id -u)" = 0 ] && [ -n "$nobody" ] && command -v setpriv >/dev/null; then
    # a user the permission really stops, owning the file but not the folder
    chmod 755 "$tmp/ro" "$tmp"; chown "$nobody" "$tmp/ro/w.strata"
    check "as another user too" 0 setpriv --reuid="$nobody" --regid="$nobody" --clear-groups $S --world "$tmp/ro/w.strata" --exec "$small; $box"
    has "that user is told the folder" err "in a folder without write permission"
    same "and reads the saved world" "$saved" "$(last probe_hash)"
fi
chmod 755 "$tmp/ro"

# ---- a full disk
mnt=$tmp/small
mkdir "$mnt"
if ! mount -t tmpfs -o size=600k tmpfs "$mnt" 2>/dev/null; then
    mnt=
    echo "skip full disk: mount is not permitted here"
else
    F=$mnt/w.strata
    check "a world on the small disk" 0 $S --world "$F" --exec "$small; cut 64 30 64; save; $box"
    first=$(last probe_hash)
    start_holder player $S --world "$F" --exec "$small; cut 30 30 30; cut 90 30 90; $box; echo HELD; sleep 120 $tmp/full"
    edited=$(grep '^probe_hash=' "$tmp/player" | tail -1 | cut -d= -f2)
    dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null
    touch "$tmp/full"
    wait "$holder"; rc=$?; holder=
    [ "$rc" -ne 0 ] && echo "ok   a failed exit save exits non-zero" || { echo "FAIL a failed exit save exited 0"; fail=1; }
    n=$(grep -c "not saved on exit" "$tmp/player.err")
    same "the failure is said once" 1 "$n"
    grep -q "the disk is full" "$tmp/player.err" && echo "ok   it says the disk is full" ||
        { echo "FAIL no full disk in: $(cat "$tmp/player.err")"; fail=1; }
    rec=$(ls "$tmp"/w.strata.recovered-* 2>/dev/null | head -1)
    [ -n "$rec" ] && grep -qF "kept in $rec" "$tmp/player.err" && echo "ok   the edits went to $rec" ||
        { echo "FAIL no recovery file named: $(cat "$tmp/player.err")"; fail=1; }
    [ -z "$(ls "$mnt" | grep recovered)" ] || { echo "FAIL a broken recovery file was left on the full disk"; fail=1; }
    check "the recovery file opens" 0 $S --world "$rec" --exec "$small; $box"
    same "it holds the edits" "$edited" "$(last probe_hash)"
    check "the world on the full disk fails to open" 1 $S --world "$F" --exec "$small; $box"
    has "and says the disk is full" err "the disk is full"
    rm -f "$mnt/fill"
    check "with room again the world opens" 0 $S --world "$F" --exec "$small; $box"
    same "holding its last complete save" "$first" "$(last probe_hash)"
fi

echo "save_hazards: $([ $fail -eq 0 ] && echo passed || echo FAILED)"
exit $fail
