#!/usr/bin/env bash
# Edits other than the tool's, in a streamed window 5 km from the origin:
# `grammar apply` derives in a box around where the view meets the ground
# (it was clipped to the origin's [0, size) and so refused there), `import`
# stamps a mesh there (its edited box was computed from [0, size)), and a
# grammar box over terrain that has not arrived yet is refused with a
# message instead of being overwritten when the columns come, and an
# import issued before any frame (right after `stream wait`) finds the
# ground instead of saying there is no world yet.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
run() { local name=$1 want=$2; shift 2; check "$name" "$want" "$strata" --headless "$@"; }
last() { grep "^$1=" "$tmp/out" | tail -1 | cut -d= -f2-; }
has() {
    if grep -q -- "$2" "$3"; then echo "ok   $1"; else echo "FAIL $1: no '$2' in:"; sed 's/^/  | /' "$3" | head; fail=1; fi
}
within() { # within WHAT VALUE LO HI
    if [ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then echo "ok   $1"; else echo "FAIL $1: '$2' not in $3..$4"; fail=1; fi
}
printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n' >"$tmp/cube.obj"
printf 'f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 4 8 7\nf 4 7 3\nf 1 5 8\nf 1 8 4\nf 2 3 7\nf 2 7 6\n' >>"$tmp/cube.obj"

far='set world.stream 1; set view.distance 96; biome desert; tp 5000.5 90 5000.5; stream wait; frames 2; look 0 -60'
run "grammar apply and import 5 km out" 0 --exec "$far; grammar apply cave.grammar 2; import $tmp/cube.obj 16; stats"
box=$(last grammar_box)
within "the grammar box is where the view met the ground (x)" "$(echo "$box" | cut -d' ' -f1)" 4940 5040
within "the grammar box is where the view met the ground (z)" "$(echo "$box" | cut -d' ' -f3)" 4900 5040
within "the grammar box is 32 wide" "$(( $(echo "$box" | cut -d' ' -f4) - $(echo "$box" | cut -d' ' -f1) ))" 32 32
has "the import stamped the whole cube" "^import_voxels=4096" "$tmp/out"
within "the import stood there" "$(last import_at | cut -d' ' -f1)" 4940 5040
[ "$(last material.sandstone)" -gt 0 ] 2>/dev/null || { echo "FAIL no sandstone stamped"; fail=1; }

# `import` as the first thing after `stream wait`: no frame has picked yet,
# so the tool's tree around the eye (bound on the first pick) is not there.
run "import right after stream wait" 0 --exec "set world.stream 1; set view.distance 96; biome desert; stream wait; look 0 -60; import $tmp/cube.obj 16; stats"
has "the import right after stream wait stamped the whole cube" "^import_voxels=4096" "$tmp/out"

run "grammar apply over terrain not there yet" 1 --exec "set world.stream 1; set view.distance 96; biome desert; stream wait; tp 90000.5 90 90000.5; frames 1; look 0 -60; grammar apply cave.grammar 2"
has "refused with why" "grammar apply: the terrain at .* has not arrived yet" "$tmp/err"
exit $fail
