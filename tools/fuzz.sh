#!/usr/bin/env bash
# fuzz.sh: builds the libFuzzer harnesses of tests/fuzz with clang (build-fuzz)
# and runs each for a bounded time from its seed corpus.
#   tools/fuzz.sh [SECONDS] [HARNESS...]   default 60 s each, every harness
# New inputs go to build-fuzz/corpus/NAME (not the repository); a finding
# stops with the crashing input in build-fuzz/findings/NAME and exit 1.
# Execution counts are printed per harness ("NAME: N execs in S s").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
out=$root/build-fuzz
CC=${FUZZ_CC:-clang} cmake -S "$root" -B "$out" -DSTRATA_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for f in "$root"/tests/fuzz/fuzz_*.c; do names+=("$(basename "$f" .c)"); done
fi
cmake --build "$out" -j"$(nproc 2>/dev/null || echo 2)" --target "${names[@]}" >/dev/null
status=0
for n in "${names[@]}"; do
    mkdir -p "$out/corpus/$n" "$out/findings/$n"
    log=$out/findings/$n.log
    t0=$(date +%s)
    # -rss_limit_mb: the save harness opens SQLite files; leaks show as growth.
    # -timeout=30: a loaded machine can starve a run for seconds (a 10 s limit
    # reported a 5 ms input as a hang)
    if ! (cd "$out/findings/$n" && ASAN_OPTIONS=detect_leaks=1 "$out/tests/fuzz/$n" -max_total_time="$secs" \
            -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 "$out/corpus/$n" "$root/tests/fuzz/corpus/$n" \
            >"$log" 2>&1); then
        echo "fuzz.sh: $n FOUND A PROBLEM (see $log and $out/findings/$n)"
        tail -30 "$log"
        status=1
    fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    echo "$n: $execs execs in $(($(date +%s) - t0)) s"
done
exit $status
