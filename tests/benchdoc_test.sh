#!/bin/sh
# benchdoc_test.sh: docs/benchmarks.md is what tools/benchdoc.sh writes from
# docs/bench/, so no figure on it is edited by hand; and the generator
# refuses a data file it cannot read with the file and line.
#   tests/benchdoc_test.sh SOURCE_DIR BUILD_DIR
set -u
src=${1:?usage: benchdoc_test.sh SOURCE_DIR BUILD_DIR}
bin=${2:?usage: benchdoc_test.sh SOURCE_DIR BUILD_DIR}
fails=0
out="$bin/benchmarks.md"
if ! sh "$src/tools/benchdoc.sh" "$src/docs/bench" "$out"; then
    echo "benchdoc_test: the generator failed on docs/bench" >&2
    exit 1
fi
if ! diff -u "$src/docs/benchmarks.md" "$out"; then
    echo "benchdoc_test: docs/benchmarks.md differs from what docs/bench/ gives (above);" \
         "run tools/benchdoc.sh docs/bench docs/benchmarks.md" >&2
    fails=1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$src/docs/bench/about.tsv" "$src/docs/bench/peers.tsv" "$tmp/"
# refuses DATA (one data file's text) naming the file and LINE
refuses() {
    printf '%s' "$1" > "$tmp/bad.jsonl"
    if err=$(sh "$src/tools/benchdoc.sh" "$tmp" 2>&1 >/dev/null); then
        echo "benchdoc_test: $3 was accepted" >&2
        fails=1
    elif ! printf '%s' "$err" | grep -q "bad.jsonl:$2:"; then
        echo "benchdoc_test: the refusal of $3 does not name bad.jsonl:$2: $err" >&2
        fails=1
    fi
}
refuses '{"bench": "x", "median_ms": 1}
' 1 "a data file without its stamp"
refuses '{"stamp": "t", "machine": "m", "gl": "g", "date": "d", "commit": "c"}
{"bench": "x", "median_ms": }
' 2 "a broken JSON line"
refuses '{"stamp": "t", "machine": "m", "date": "d", "commit": "c"}
' 1 "a stamp without its GL renderer"
[ $fails -eq 0 ] && echo "benchdoc_test: docs/benchmarks.md matches its data"
exit $fails
