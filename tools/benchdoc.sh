#!/bin/sh
# Writes docs/benchmarks.md from the benchmark data of docs/bench/: every
# *.jsonl there is one run of `strata-bench --json` on one machine, its
# first line a stamp (machine, GL renderer, date, commit, conditions);
# about.tsv says what each bench measures and its target, peers.tsv holds
# the published figures we compare with. Every figure on the page comes
# from those files, so the page is regenerated, never edited.
# usage: tools/benchdoc.sh [DATA_DIR [OUT]]   (defaults docs/bench, stdout)
set -eu
dir=${1:-docs/bench}
out=${2:-}
set -- "$dir"/*.jsonl
if [ ! -e "$1" ]; then
    echo "benchdoc: no data files (*.jsonl) in $dir" >&2
    exit 1
fi
for f in "$dir/about.tsv" "$dir/peers.tsv"; do
    if [ ! -r "$f" ]; then
        echo "benchdoc: cannot read $f" >&2
        exit 1
    fi
done
gen() {
awk -v about="$dir/about.tsv" -v peers="$dir/peers.tsv" '
# One flat JSON object a line: string and number values only, as
# strata-bench prints them. Fills K[1..n], V[1..n] and STR[1..n] (1: the
# value was a string, printed as it is); returns n, or -1.
function parse(s,   n, k, c, v) {
    n = 0
    sub(/^[ \t]*\{[ \t]*/, "", s)
    while (s !~ /^\}[ \t]*$/) {
        if (s !~ /^"/) return -1
        match(s, /^"[^"]*"[ \t]*:[ \t]*/)
        if (RSTART == 0) return -1
        k = substr(s, 2, RLENGTH - 1); sub(/"[ \t]*:[ \t]*$/, "", k)
        s = substr(s, RLENGTH + 1)
        if (s ~ /^"/) {
            v = ""; s = substr(s, 2); STR[n + 1] = 1
            while (s != "" && substr(s, 1, 1) != "\"") {
                c = substr(s, 1, 1)
                if (c == "\\") { s = substr(s, 2); c = substr(s, 1, 1) }
                v = v c; s = substr(s, 2)
            }
            if (s == "") return -1
            s = substr(s, 2)
        } else {
            STR[n + 1] = 0
            match(s, /^[-+0-9.eE]+/)
            if (RSTART == 0) return -1
            v = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
        }
        K[++n] = k; V[n] = v
        sub(/^[ \t]*,?[ \t]*/, "", s)
    }
    return n
}
function fail(msg) { printf "benchdoc: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
function ms(x) {
    if (x == "") return ""
    x += 0
    if (x >= 100) return sprintf("%.0f", x)
    if (x >= 10) return sprintf("%.1f", x)
    if (x >= 1) return sprintf("%.2f", x)
    if (x >= 0.1) return sprintf("%.3f", x)
    return sprintf("%.4f", x)
}
function num(x) { return (x ~ /^-?[0-9]+$/ || x + 0 >= 1000 || x + 0 <= -1000) ? sprintf("%d", x + 0) : sprintf("%.4g", x + 0) }
function flush_file(   i, j, k, b, g, lastg) {
    if (!nb) return
    # rows in name order whatever order a file has, so every page reads alike
    for (i = 1; i <= nb; i++) {
        for (j = i - 1; j >= 1 && B[ORD[j]] > B[i]; j--) ORD[j + 1] = ORD[j]
        ORD[j + 1] = i
    }
    printf "\n## %s\n\n", title
    printf "- machine: %s\n- GL: %s\n- date: %s\n- commit: `%s`\n", st["machine"], st["gl"], st["date"], st["commit"]
    if (st["conditions"] != "") printf "- conditions: %s\n", st["conditions"]
    printf "- data: `%s`\n", FILEOF
    lastg = ""
    for (k = 1; k <= nb; k++) {
        i = ORD[k]; b = B[i]; g = b; sub(/\..*/, "", g)
        if (g != lastg) {
            printf "\n### %s\n\n| bench | median ms | min ms | max ms | runs | what it measures | target | other fields |\n|---|---:|---:|---:|---:|---|---|---|\n", g
            lastg = g
        }
        printf "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", b, ms(MED[i]), ms(MIN[i]), ms(MAX[i]), RUNS[i], WHAT[b], TARGET[b], NOTES[i]
    }
    frames()
    for (i = 1; i <= nb; i++) if (MED[i] != "") OURS[B[i]] = OURS[B[i]] (OURS[B[i]] == "" ? "" : ", ") ms(MED[i]) " ms (" SHORT ")"
    delete NOTE_V
    nb = 0
}
# The frame benches as the targets state them: ratios to render.frame.hills
# in the same file, wall and process CPU time, with the triangles drawn.
function frames(   i, k, n, h, hc, tri, c) {
    h = hc = ""; n = 0
    for (i = 1; i <= nb; i++) if (B[i] ~ /^render\.frame\./ && MED[i] != "") n++
    if (n < 2) return
    for (i = 1; i <= nb; i++) if (B[i] == "render.frame.hills") { h = MED[i]; hc = NOTE_V[i, "cpu_ms"] }
    if (h == "" || h + 0 <= 0) return
    printf "\n### Frames against `render.frame.hills`\n\n| view | triangles | ms | × hills | × hills (CPU) |\n|---|---:|---:|---:|---:|\n"
    for (k = 1; k <= nb; k++) {
        i = ORD[k]
        if (B[i] !~ /^render\.frame\./ || MED[i] == "") continue
        tri = NOTE_V[i, "triangles"]; c = NOTE_V[i, "cpu_ms"]
        printf "| %s | %s | %s | %.2f× | %s |\n", substr(B[i], 14), tri == "" ? "" : num(tri), ms(MED[i]), MED[i] / h,
            (c != "" && hc + 0 > 0) ? sprintf("%.2f×", c / hc) : ""
    }
}
BEGIN {
    FS = "\t"
    while ((getline line < about) > 0) {
        if (line ~ /^#/ || line == "") continue
        split(line, a, "\t"); WHAT[a[1]] = a[2]; TARGET[a[1]] = a[3]
    }
    close(about)
}
FNR == 1 {
    flush_file()
    n = parse($0)
    if (n < 0) fail("not a JSON object")
    delete st
    for (i = 1; i <= n; i++) st[K[i]] = V[i]
    if (!("stamp" in st)) fail("the first line must be the stamp: {\"stamp\": TITLE, \"machine\": ..., \"gl\": ..., \"date\": ..., \"commit\": ...}")
    split("machine gl date commit", req, " ")
    for (i = 1; i in req; i++) if (!(req[i] in st)) fail("the stamp has no \"" req[i] "\"")
    title = st["stamp"]; FILEOF = FILENAME; sub(/.*\//, "docs/bench/", FILEOF)
    SHORT = FILENAME; sub(/.*\//, "", SHORT); sub(/\.jsonl$/, "", SHORT)
    next
}
/^[ \t]*$/ { next }
{
    n = parse($0)
    if (n < 0) fail("not a JSON object")
    nb++; MED[nb] = MIN[nb] = MAX[nb] = RUNS[nb] = NOTES[nb] = ""; B[nb] = ""
    for (i = 1; i <= n; i++) {
        if (K[i] == "bench") B[nb] = V[i]
        else if (K[i] == "median_ms") MED[nb] = V[i]
        else if (K[i] == "min_ms") MIN[nb] = V[i]
        else if (K[i] == "max_ms") MAX[nb] = V[i]
        else if (K[i] == "runs") RUNS[nb] = V[i]
        else { NOTES[nb] = NOTES[nb] (NOTES[nb] == "" ? "" : ", ") K[i] "=" (STR[i] ? V[i] : num(V[i])); NOTE_V[nb, K[i]] = V[i] }
    }
    if (B[nb] == "") fail("a line without \"bench\"")
}
END {
    if (bad) exit 1
    flush_file()
    printf "\n## Published figures beside ours\n\n| what | their figure | ours | source |\n|---|---|---|---|\n"
    while ((getline line < peers) > 0) {
        if (line ~ /^#/ || line == "") continue
        split(line, a, "\t")
        printf "| %s | %s | `%s`: %s | %s |\n", a[1], a[2], a[3], OURS[a[3]] == "" ? "not run" : OURS[a[3]], a[4]
    }
}' "$@"
}
header() {
    cat <<'HDR'
# Benchmarks

Every benchmark figure of the project, written by `tools/benchdoc.sh` from
the data in `docs/bench/` (do not edit this page: edit the data and run
`tools/benchdoc.sh docs/bench docs/benchmarks.md`; the `benchdoc` test fails
when the page and the data differ). Each data file is the output of
`strata-bench --json` on one machine, stamped with the machine, its GL
renderer, the date and the commit it ran at. Timings vary 40 % between
machines and with the load: compare figures within one file, as ratios or
counts; the targets say which.

Run them with `build/strata-bench` (a table), `--json` (one object a
line), `--filter SUBSTR`, `--runs N`, `--list`. A new data file:

```sh
tools/benchstamp.sh "TITLE" "CONDITIONS" > docs/bench/NAME.jsonl
nice -n 5 build/strata-bench --json >> docs/bench/NAME.jsonl
tools/benchdoc.sh docs/bench docs/benchmarks.md
```

On a GPU machine, `tools/device_bench.sh DIR OUT` writes `OUT/bench.jsonl`;
put the stamp (`tools/benchstamp.sh` run there, or written by hand) before
its lines in `docs/bench/NAME.jsonl`.

`median ms` is over the runs; the other fields are what the bench counts
beside its time (triangles, voxels, ratios within the run, ...).
HDR
}
if [ -n "$out" ]; then
    tmp="$out.tmp.$$"
    { header; gen "$@"; } > "$tmp" || { rm -f "$tmp"; exit 1; }
    mv "$tmp" "$out"
else
    header
    gen "$@"
fi
