#!/bin/sh
# Prints the stamp line that opens a data file of docs/bench/ (see
# tools/benchdoc.sh): the machine (CPU model, cores, memory, OS), the GL
# renderer strata gets headless, the date, the commit and the load.
# usage: tools/benchstamp.sh TITLE [CONDITIONS] [STRATA]   (default build/strata)
set -eu
if [ $# -lt 1 ]; then
    echo "usage: tools/benchstamp.sh TITLE [CONDITIONS] [STRATA]" >&2
    exit 2
fi
title=$1
cond=${2:-}
strata=${3:-build/strata}
esc() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
cores=$(grep -c '^processor' /proc/cpuinfo)
mem=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
os=$(. /etc/os-release 2>/dev/null && printf '%s' "${PRETTY_NAME:-}")
gl=$(STRATA_EGL_PLATFORM=auto "$strata" --headless --width 64 --height 64 --exec quit 2>&1 |
     sed -n 's/^.*headless GL on EGL //p' | head -n 1)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
load=$(cut -d ' ' -f 1-3 /proc/loadavg)
[ -n "$cond" ] && cond="$cond; "
printf '{"stamp": "%s", "machine": "%s, %s cores, %s, %s", "gl": "%s", "date": "%s", "commit": "%s", "conditions": "%sload average %s at the start"}\n' \
    "$(esc "$title")" "$(esc "$cpu")" "$cores" "$mem" "$(esc "$os")" "$(esc "${gl:-unknown}")" \
    "$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$(esc "$cond")" "$load"
