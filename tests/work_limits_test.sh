#!/usr/bin/env bash
# Input that would hold the game for minutes is refused up front, with the
# figures: an OBJ of more faces than the voxelizer takes (with its memory
# estimate), a `grammar apply` over the work budget (with its estimate);
# inside the limits both still run. A saved position far outside the world
# is clamped as tp clamps it, and said.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh" # tmp, fail, check, has, last
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
S="$strata --headless --width 96 --height 64"
small='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2'
quick() { # quick WHAT SECONDS START: the step ended within SECONDS
    local took=$(($(date +%s) - $3))
    [ "$took" -le "$2" ] && echo "ok   $1 in ${took} s" || { echo "FAIL $1 took ${took} s (over $2)"; fail=1; }
}

# an OBJ just over the limit (a tetrahedron 250001 times): refused before it is parsed
python3 -c "
import sys
with open(sys.argv[1], 'w') as f:
    f.write('v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n')
    f.write('f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' * 250001)" "$tmp/huge.obj"
t0=$(date +%s)
check "an OBJ of 1000004 faces is refused" 1 $S --exec "$small; tp 64 40 64; import $tmp/huge.obj 32"
quick "the refusal" 20 "$t0"
has "it names the faces" err "1000004 faces"
has "and the memory it would take" err "GiB of memory"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' >"$tmp/tet.obj"
check "a small OBJ still imports" 0 $S --exec "$small; tp 64 40 64; look 0 -60; import $tmp/tet.obj 8"

# grammar apply at its largest settings: refused with the estimate
t0=$(date +%s)
check "grammar apply over the budget is refused" 1 $S --exec "$small; tp 64 40 64; look 0 -60; set caves.apply_size 256; grammar apply cave.grammar 64"
quick "the refusal" 20 "$t0"
has "it says the work and the estimate" err "over the budget of"
check "grammar apply inside the budget runs" 0 $S --exec "$small; tp 64 40 64; look 0 -60; grammar apply cave.grammar 2"
[ -n "$(last grammar_matches)" ] && echo "ok   it derived" || { echo "FAIL no grammar_matches"; fail=1; }

# a saved position of y = 1e9 (a damaged or hand-edited file)
W=$tmp/w.strata
check "a world saved" 0 $S --world "$W" --exec "$small; tp 30 40 30; save"
python3 -c "
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute(\"UPDATE slots SET state = replace(state, 'pos 30 40 30', 'pos 30 1000000000 30')\")
db.commit()" "$W"
check "it loads" 0 $S --world "$W" --exec "stats"
has "the position is said to be clamped" err "Y 1e+09 is outside the world: clamped"
y=$(last position | cut -d' ' -f2)
awk -v y="$y" 'BEGIN { exit !(y >= 0 && y <= 4096) }' && echo "ok   y is $y" || { echo "FAIL y is $y"; fail=1; }

echo "work_limits: $([ $fail -eq 0 ] && echo passed || echo FAILED)"
exit $fail
