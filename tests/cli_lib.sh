# Shared by the CLI test scripts (sourced): a temporary directory and
# check NAME EXPECTED_RC CMD..., which runs CMD with stdout in $tmp/out and
# stderr in $tmp/err and sets fail=1 on an unexpected exit code.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check NAME EXPECTED_RC CMD...
    local name=$1 want=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL $name: exit $rc, expected $want"; sed 's/^/  | /' "$tmp/err" | head -20; fail=1
    else
        echo "ok   $name"
    fi
}

# Helpers of the scripts that read key=value output (newer scripts use these
# rather than their own copies): a key's last or nth value in $tmp/out, and
# checks that two values agree, differ, or one is at least a bound.
last() { grep "^$1=" "$tmp/out" | tail -1 | cut -d= -f2-; }
nth() { grep "^$1=" "$tmp/out" | sed -n "$2p" | cut -d= -f2-; }
same() {
    if [ -z "$2" ] || [ "$2" != "$3" ]; then echo "FAIL $1: '$2' vs '$3'"; fail=1; else echo "ok   $1"; fi
}
differ() {
    if [ -z "$2" ] || [ "$2" = "$3" ]; then echo "FAIL $1: both '$2'"; fail=1; else echo "ok   $1"; fi
}
atleast() { # atleast WHAT VALUE MIN
    if [ -n "$2" ] && [ "$2" -ge "$3" ] 2>/dev/null; then echo "ok   $1"; else echo "FAIL $1: '$2' < $3"; fail=1; fi
}
# kill9_after MARK OUT CMD...: runs CMD in the background with stdout in
# OUT, and kill -9s it once OUT holds the line MARK (or after 60 s).
kill9_after() {
    local mark=$1 out=$2; shift 2
    "$@" >"$out" 2>/dev/null &
    local pid=$!
    for _ in $(seq 1 600); do grep -q "^$mark\$" "$out" 2>/dev/null && break; sleep 0.1; done
    kill -9 $pid; wait $pid 2>/dev/null
}
# part N: true when this run covers part N of its script. ctest runs a slow
# script as several entries, each with STRATA_TEST_PART=N, so every entry
# fits the default suite's minute; with the variable unset every part runs.
part() { [ -z "${STRATA_TEST_PART:-}" ] || [ "$STRATA_TEST_PART" = "$1" ]; }
# has NAME FILE TEXT: a fixed string in $tmp/FILE (out, err, ...)
has() {
    grep -qF -- "$3" "$tmp/$2" || { echo "FAIL $1: $2 lacks '$3'"; sed 's/^/  | /' "$tmp/$2" | head -10; fail=1; }
}
# wait_for FILE TEXT: until FILE holds the line TEXT, up to 120 s (exits failing)
wait_for() {
    for _ in $(seq 1 1200); do grep -q "^$2\$" "$1" 2>/dev/null && return 0; sleep 0.1; done
    echo "FAIL waited in vain for $2 in $1"; cat "$1" "$1.err" 2>/dev/null | sed 's/^/  | /' | head; exit 1
}
# start_holder OUT CMD...: CMD in the background (stdout in $tmp/OUT, stderr
# in $tmp/OUT.err), its pid in $holder, once OUT holds the line HELD.
start_holder() {
    local out=$tmp/$1; shift
    "$@" >"$out" 2>"$out.err" &
    holder=$!
    wait_for "$out" HELD
}
# small_view: for a script that measures no picture. $strata becomes a
# wrapper that runs the game at 160x90, where a frame costs llvmpipe about a
# tenth of the default size's (600 frames of a small world: 11 s against
# 1.5 s); a later --width or --height still wins. The wrapper execs the
# game, so a pid the script takes is the game's.
small_view() {
    printf '#!/bin/sh\nexec "%s" --width 160 --height 90 "$@"\n' "$strata" >"$tmp/strata-small"
    chmod +x "$tmp/strata-small"
    strata=$tmp/strata-small
}
