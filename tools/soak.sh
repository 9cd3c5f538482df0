#!/usr/bin/env bash
# soak.sh: one long headless session under load — cuts and fills on and
# across chunk borders, biome switches, saves — then checks that memory
# stayed flat (resident size per cycle), that replaying the same script in
# a fresh process gives the identical world_hash, and that the saved file
# loads to that same world.
#   tools/soak.sh STRATA [CYCLES] [EDITS_PER_CYCLE] [MAX_GROWTH_KB]
# CI runs a bounded soak (tests/CMakeLists.txt); the default here is the
# long one: 200 cycles of 200 edits = 40,000 cuts and fills. SOAK_EXEC adds
# commands at the start (SOAK_EXEC="set render.mode smooth").
set -u
strata=$1
cycles=${2:-200}
edits=${3:-200}
max_growth=${4:-4096}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"

RANDOM=7 # the script is the same on every run
biomes=(hills desert taiga deciduous)
mats=(stone sand dirt)
{
    printf 'set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2; set tool.size 6\n' # a finite world: the same cells every cycle
    if [ -n "${SOAK_EXEC:-}" ]; then printf '%s\n' "$SOAK_EXEC"; fi
    for ((c = 0; c < cycles; c++)); do
        printf 'biome %s\n' "${biomes[c % 4]}"
        for ((i = 0; i < edits; i++)); do
            # centres on chunk borders (x, z = 32k +- 1), heights around the surface
            x=$((32 * (1 + RANDOM % 3) + RANDOM % 3 - 1)); z=$((32 * (1 + RANDOM % 3) + RANDOM % 3 - 1))
            y=$((20 + RANDOM % 40))
            if ((RANDOM % 3)); then printf 'cut %d %d %d\n' $x $y $z
            else printf 'fill %s %d %d %d\n' "${mats[RANDOM % 3]}" $x $y $z; fi
        done
        printf 'save\nstats\n'
    done
} >"$tmp/soak.cfg"

fail=0
run() { # run OUT WORLD: the script in one process
    # few malloc arenas: otherwise glibc adds arenas when the workers contend
    # (more on a loaded machine), and the resident size measures the load
    MALLOC_ARENA_MAX=2 "$strata" --headless --world "$2" --exec "exec $tmp/soak.cfg; stats" >"$1" 2>"$1.err"
    local rc=$?
    if [ -n "${SOAK_KEEP:-}" ]; then cp "$1" "$SOAK_KEEP"; fi
    return $rc
}
t0=$(date +%s)
run "$tmp/a" "$tmp/a.strata" || { echo "FAIL soak run exited $?"; tail -5 "$tmp/a.err"; fail=1; }
t1=$(date +%s)
grep '^rss_kib=' "$tmp/a" | cut -d= -f2 >"$tmp/rss"
n=$(wc -l <"$tmp/rss")
# The resident size climbs for the first ~50 cycles to a plateau (the
# allocator's and GL driver's high-water mark; the same with no saves at
# all), then stays flat: the second half of the run must not grow.
# base: the highest the first half reached, so a plateau reached late (a
# loaded machine) is not read as growth; a leak of a few KiB a cycle still is.
first=$(head -1 "$tmp/rss"); base=$(head -n "$(((n + 1) / 2))" "$tmp/rss" | sort -n | tail -1); last=$(tail -1 "$tmp/rss")
peak=$(sort -n "$tmp/rss" | tail -1)
echo "soak: $cycles cycles x $edits edits in $((t1 - t0)) s; rss_kib first $first, first-half peak $base, last $last, peak $peak"
if [ "$n" -lt 4 ] || [ $((last - base)) -gt "$max_growth" ]; then
    echo "FAIL memory grew by $((last - base)) KiB over the first half's peak (limit $max_growth)"; fail=1
fi
run "$tmp/b" "$tmp/b.strata" || { echo "FAIL replay exited $?"; fail=1; }
ha=$(grep '^world_hash=' "$tmp/a" | tail -1); hb=$(grep '^world_hash=' "$tmp/b" | tail -1)
[ -n "$ha" ] && [ "$ha" = "$hb" ] || { echo "FAIL replay world_hash $ha vs $hb"; fail=1; }
"$strata" --headless --world "$tmp/a.strata" --exec "stats" >"$tmp/c" 2>"$tmp/c.err" || { echo "FAIL load exited"; fail=1; }
hc=$(grep '^world_hash=' "$tmp/c" | tail -1)
[ "$ha" = "$hc" ] || { echo "FAIL the saved world loads as $hc, not $ha"; fail=1; }
[ $fail -eq 0 ] && echo "soak: ok ($ha, replayed and loaded)"
exit $fail
