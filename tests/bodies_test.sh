#!/usr/bin/env bash
# Voxel bodies through the real executable: a fill in mid-air
# falls and merges back with every voxel kept; a body cut in two in flight
# conserves its stone less the cut; a cut that disconnects
# nothing makes no body; physics.max_bodies leaves the rest as terrain;
# absurd settings are refused; a save with a body in flight keeps its
# voxels, through kill -9.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
small_view
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
kv() { grep "^$1=" "$tmp/out" | sed -n "${2:-1}p" | cut -d= -f2-; }
same() { # same NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected '$2', got '$3'"; fail=1; fi
}
small="set world.stream 0; set world.size_x 4; set world.size_y 4; set world.size_z 4; biome hills; set tool.size 4"

check "a fill in mid-air falls and merges back" 0 "$strata" --headless --exec \
    "$small; stats; fill stone 60 110 60; frames 1; stats; frames 600; stats"
s0=$(kv material.stone 1); n=$(kv fill_voxels); s1=$(kv material.stone 2); s2=$(kv material.stone 3)
same "the fill is a body the next frame" "1" "$(kv bodies 2)"
same "its voxels left the world" "$s0" "$s1"
same "the body holds them" "$n" "$(kv body_voxels 2)"
same "it came to rest and merged" "0" "$(kv bodies 3)"
same "stone conserved through fall and merge" "$((s0 + n))" "$s2"

# what fell is terrain again: the tool cuts it (where the first run saw it land)
check "where it lands" 0 "$strata" --headless --exec "$small; fill stone 60 110 60; frames 200; bodies"
pos=$(grep '^body\.' "$tmp/out" | sed -n 1p | sed 's/.* pos //')
set -- $pos
check "cut what fell and merged" 0 "$strata" --headless --exec \
    "$small; fill stone 60 110 60; frames 800; stats; set tool.size 6; cut ${1%.*} ${2%.*} ${3%.*}; stats"
a=$(kv material.stone 1) b=$(kv material.stone 2)
[ -n "$a" ] && [ -n "$b" ] && [ "$b" -lt "$a" ] && echo "ok   the cut took $((a - b)) of its stone" ||
    { echo "FAIL the cut took none of its stone ($a -> $b)"; fail=1; }

# a bar of stone in flight, cut through its middle: two bodies, the cut
# took exactly the stone it reports, and both pieces merge back
check "cut a body in flight in two" 0 "$strata" --headless --exec \
    "$small; set tool.size 8; set tool.shape \"y < 2 and z < 2\"; stats; fill stone 60 110 60; frames 3; stats;
     set tool.shape \"x >= 3 and x < 5\"; cut 60 107 57; stats; frames 600; stats"
s0=$(kv material.stone 1); n=$(kv fill_voxels); c=$(kv cut.stone)
same "the bar is one body in flight" "1 $n" "$(kv bodies 2) $(kv body_material.stone 1)"
same "the cut took body voxels only" "$c $c" "$(kv cut_voxels) $(kv cut_body_voxels)"
same "the cut took the middle (2 x 2 x 2)" "8" "$c"
same "two bodies after the cut" "2" "$(kv bodies 3)"
same "the world's stone untouched by the cut" "$(kv material.stone 2)" "$(kv material.stone 3)"
same "the pieces hold the rest" "$((n - c))" "$(kv body_material.stone 2)"
same "both merged" "0" "$(kv bodies 4)"
same "stone conserved less exactly the cut" "$((s0 + n - c))" "$(kv material.stone 4)"

check "a cut that disconnects nothing" 0 "$strata" --headless --exec "$small; cut 64 20 64; frames 2; stats"
same "makes no body" "0" "$(kv bodies)"

check "max_bodies 0: loose groups stay terrain" 0 "$strata" --headless --exec \
    "$small; set physics.max_bodies 0; fill stone 60 110 60; frames 2; stats"
same "no body past the cap" "0" "$(kv bodies)"
grep -q "stay terrain: physics.max_bodies" "$tmp/err" "$tmp/out" && echo "ok   the cap is logged" ||
    { echo "FAIL the cap is not logged"; fail=1; }

for bad in "physics.gravity nan" "physics.gravity inf" "physics.gravity 1e9" "physics.substeps 0" \
    "physics.substeps 1000" "physics.density.stone -1" "physics.density.oak_log nan" "physics.max_bodies -5"; do
    check "set $bad is refused" 1 "$strata" --headless --exec "set $bad"
done

# a save while a body falls settles it into the world first; the file
# then holds every voxel, even after kill -9
W=$tmp/w.strata
check "save with a body in flight" 0 "$strata" --headless --world "$W" --exec \
    "$small; stats; fill stone 60 110 60; frames 10; bodies; save; stats"
s0=$(kv material.stone 1); n=$(kv fill_voxels); s1=$(kv material.stone 2)
same "the body was in flight" "1" "$(kv bodies_awake 2)"
same "saving put it back" "$((s0 + n))" "$s1"
"$strata" --headless --world "$W" --exec "frames 100000" >/dev/null 2>&1 &
pid=$!
sleep 3
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
check "load after kill -9" 0 "$strata" --headless --world "$W" --exec "stats"
same "stone conserved through save, kill -9, load" "$((s0 + n))" "$(kv material.stone)"
exit $fail
