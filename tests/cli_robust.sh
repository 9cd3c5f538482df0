#!/usr/bin/env bash
# What fuzzing and scripted runs found: settings that cannot
# break the game, config files read and written where --config says,
# commands before the world exists, hostile files, exit codes that tell the
# truth, memory that stays flat over many headless frames.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh" # tmp, fail, check
cd "$tmp" || exit 1
has() { # has NAME FILE PATTERN: a fixed string in out/err
    grep -qF -- "$3" "$tmp/$2" || { echo "FAIL $1: $2 lacks '$3'"; sed 's/^/  | /' "$tmp/$2" | head -10; fail=1; }
}
lacks() {
    ! grep -qF -- "$3" "$tmp/$2" || { echo "FAIL $1: $2 has '$3'"; fail=1; }
}
kv() { grep "^$1=" "$tmp/out" | tail -1 | cut -d= -f2; }
S="$strata --headless --width 96 --height 64"
small='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2'

# world size: each cvar in range, the combination refused at 'set' with the limit
check "world size combination refused" 1 $S --exec "set world.size_x 64; set world.size_z 64; stats"
has "world size message" err "at most 4096 chunks"
check "world size in the right order" 0 $S --exec "set world.size_y 1; set world.size_x 64; set world.size_z 64; get world.size_z"
has "world size accepted" out "world.size_z=64"
printf 'set world.size_x 64\nset world.size_z 64\n' > bad.cfg
check "a config with a bad combination" 1 $S --config bad.cfg --exec "set world.stream 0; stats"
has "bad config names file:line" err "bad.cfg:2:"
has "the game starts with the default for the refused cvar" out "world_size=2048x128x512"

# a config whose combination no world kind accepts (min above max): the
# game starts with default world parameters instead of exiting, and says so
printf 'set desert.min_cactus_height 7\nset desert.max_cactus_height 3\nset world.biome desert\n' > combo.cfg
check "a config with min above max" 1 $S --config combo.cfg --exec "$small; stats"
has "min above max reported" err "is above desert.max_cactus_height"
has "parameters reset" err "reset to their defaults"
has "the desert still starts" out "biome=desert"

# commands in a config file run before the world exists
printf 'stats\nframes 1\nscreenshot c.png\ntp 1 2 3\ncut\n' > early.cfg
check "world commands in a config" 1 $S --config early.cfg
has "stats says no world yet" err "stats: no world yet"
has "screenshot says no world yet" err "screenshot: no world yet"
[ ! -e c.png ] || { echo "FAIL a screenshot of nothing was written"; fail=1; }

# --config FILE: read and written in headless too; a new file is made
check "writeconfig to a new --config file" 0 $S --config new.cfg --exec "set view.fov 81; writeconfig"
grep -q 'set view.fov "81"' new.cfg || { echo "FAIL new.cfg lacks the fov"; fail=1; }
check "the --config file is read back" 0 $S --config new.cfg --exec "get view.fov"
has "fov read back" out "view.fov=81"
check "--config --exec is a usage error" 2 $strata --headless --config --exec "stats"
check "a --config directory is an error" 1 $S --config "$tmp"
HOME=$tmp/home XDG_CONFIG_HOME= $S --exec "set view.fov 90; quit" >/dev/null 2>&1
[ ! -e "$tmp/home/.config/strata/config.cfg" ] || { echo "FAIL headless wrote the user's config"; fail=1; }

# hostile files: devices and FIFOs are refused unread, binary files run no line
check "--config /dev/zero" 1 timeout 20 $S --config /dev/zero
has "device config named" err "/dev/zero: cannot read: not a regular file"
check "exec /dev/zero" 1 timeout 20 $S --exec "exec /dev/zero"
mkfifo "$tmp/fifo"
check "exec a FIFO ends at once" 1 timeout 20 $S --exec "exec $tmp/fifo"
has "FIFO message" err "not a regular file"
check "--config a FIFO ends at once" 1 timeout 20 $S --config "$tmp/fifo"
{ echo "echo FIRST_LINE_RAN"; printf "\x81"; head -c 4096 /dev/urandom; } >"$tmp/random.cfg"
check "a config of random bytes" 1 $S --config "$tmp/random.cfg" --exec "echo after"
! grep -q FIRST_LINE_RAN "$tmp/out" || { echo "FAIL a line of the random config ran"; fail=1; }
has "random config named with line and column" err "$tmp/random.cfg:2:"
check "--world '' is a usage error" 2 $S --world "" --exec "stats"
has "empty world named" err "--world needs a file name"
check "--config '' is a usage error" 2 $S --config "" --exec "stats"
check "exec a directory" 1 $S --exec "exec /tmp"
has "directory message" err "Is a directory"

# exit codes: any failure is non-zero
check "screenshot to a full disk" 1 $S --exec "$small; screenshot /dev/full"
check "bad lines in a config" 1 $S --config bad.cfg
check "quit ends the script" 0 $S --exec "echo before; quit; echo after"
has "before quit" out "before"; lacks "after quit" out "after"

# numbers: no float->int overflow, no inf position
check "tp far outside, then fill" 0 $S --exec "set world.stream 0; set world.size_x 2; set world.size_z 2; set world.size_y 1; tp 3e9 50 3e9; fill; stats"
has "tp clamps and says so" err "clamped to 64"
[ "$(kv position)" = "64.00 50.00 64.00" ] || { echo "FAIL tp clamp: position=$(kv position)"; fail=1; }
check "tp refuses what becomes inf" 1 $S --exec "tp 1e39 1e39 1e39"
check "set 1e-400 is zero" 0 $S --exec "set render.anisotropy 1e-400; get render.anisotropy"
has "1e-400" out "render.anisotropy=0"
check "help prints integer bounds" 0 $S --exec "help world.seed"
has "integer bounds" out "int in [-2147483647, 2147483647]"
check "internal materials are refused by fill" 1 $S --exec "$small; fill null"
check "structure_placeholder refused" 1 $S --exec "$small; fill structure_placeholder"
check "one space after failed:" 1 $S --exec "echo a; nosuch"
has "failed: one space" err "failed: nosuch"
check "empty tool shape refused" 1 $S --exec "set tool.shape x < 0"
has "empty shape message" err "shape is empty at size 8"
long=$(printf 'x < 2%.0s' 1; for i in $(seq 100); do printf ' + 0'; done)
check "a formula over 255 characters" 0 $S --exec "set tool.shape \"$long\"; tool.info"
check "tool.info postfix compiles back" 0 $S --exec "set tool.shape \"x < 0/0 or y < 2\"; tool.info"
post=$(kv tool_postfix)
check "the printed postfix is a valid tool.shape" 0 $S --exec "set tool.shape $post"
check "F5 in the formula world says why" 0 $S --exec "$small; set world.formula_size 32; biome formula; newseed"
has "no seed message" err "has no seed"

# memory stays flat over many headless frames (it grew ~0.4 MB a frame)
check "frames keep memory flat" 0 $strata --headless --width 320 --height 200 --exec "$small; frames 200; stats; frames 600; stats"
r1=$(grep '^rss_kib=' "$tmp/out" | head -1 | cut -d= -f2); r2=$(kv rss_kib)
[ -n "$r1" ] && [ "$r2" -lt $((r1 + 40000)) ] || { echo "FAIL memory grew from ${r1:-?} to ${r2:-?} KiB over 600 frames"; fail=1; }

echo "cli_robust: $([ $fail -eq 0 ] && echo passed || echo FAILED)"
exit $fail
