#!/usr/bin/env bash
# dev.sh: the two commands of the README quick start.
#   tools/dev.sh play [strata args...]  install what is missing, build, launch the game
#   tools/dev.sh test                   install what is missing, build, run every test
#                                       (a -Werror build: the default suite, then the
#                                       tests labelled long; again under ASan+UBSan,
#                                       then every libFuzzer harness briefly)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

packages=(build-essential cmake pkg-config libglfw3-dev libcglm-dev libstb-dev python3-glad libegl-dev
          libgl1-mesa-dri libegl-mesa0 glslang-tools libsqlite3-dev libzstd-dev libopenal-dev libcmocka-dev fonts-dejavu-core xvfb xauth
          clang libclang-rt-dev)

install_deps() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "dev.sh: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() { # build DIR [cmake args...]
    local dir=$1; shift
    cmake -S "$root" -B "$root/$dir" -DSTRATA_WERROR=ON "$@" >/dev/null
    cmake --build "$root/$dir" -j"$jobs"
}

suite() { # suite DIR [ctest args...]: run the tests, then name the ten slowest
    local dir=$1; shift
    local log="$root/$dir/ctest-times.log"
    local rc=0
    (cd "$root/$dir" && ctest --output-on-failure -j"$jobs" "$@") | tee "$log" || rc=$?
    echo "dev.sh: the ten slowest tests in $dir (seconds)"
    sed -nE 's/^.*Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 \1/p' "$log" | sort -rn | head -10 | sed 's/^/  /'
    return $rc
}

case "${1:-}" in
play)
    shift
    install_deps
    build build
    exec "$root/build/strata" "$@"
    ;;
test)
    install_deps
    build build
    suite build -LE long
    echo "dev.sh: the long tests (soaks, flights: label long)"
    suite build -L long
    echo "dev.sh: again under AddressSanitizer + UBSan"
    build build-asan -DSTRATA_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
    ASAN_OPTIONS=detect_leaks=1 suite build-asan
    echo "dev.sh: each fuzz harness briefly (tools/fuzz.sh SECONDS for longer runs)"
    "$root/tools/fuzz.sh" "${STRATA_FUZZ_SECONDS:-10}"
    ;;
*)
    echo "usage: tools/dev.sh play [strata args...] | tools/dev.sh test" >&2
    exit 2
    ;;
esac
