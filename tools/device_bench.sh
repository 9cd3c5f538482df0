#!/usr/bin/env bash
# Runs the benches that a GPU changes on a machine that has one, from a
# folder staged here (--stage), since that machine may have no compiler,
# packages or network: the two executables beside their shaders and
# assets, and the shared libraries they link that a bare machine lacks
# (its GL comes from its own driver through glvnd).
#
#   tools/device_bench.sh --stage DIR            # here: copy build/ into DIR
#   tools/device_bench.sh DIR OUTDIR [SECONDS]   # there: run, JSON lines in OUTDIR
#
# The flights come first (the streaming frame-time targets), then the
# generation rates, then the compute-shader benches beside their CPU
# references, then the standing frames and the blocks mode's two culling
# paths side by side; nothing new starts after SECONDS
# (default 500), so a limited lease still returns what finished.
set -u

if [ "${1:-}" = --stage ]; then
    dir=${2:?usage: device_bench.sh --stage DIR}
    rm -rf "$dir" && mkdir -p "$dir/lib" || exit 1
    cp build/strata build/strata-bench "$dir"/ && cp -r build/shaders build/assets "$dir"/ || exit 1
    # what the executables link, as ldd resolves it here, but the C library
    # (the other machine's own) and GL (its driver's, through glvnd)
    libs=$(ldd build/strata build/strata-bench | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
        grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libEGL|libGL[^/]*|libOpenGL|libGLdispatch)\.so' |
        sort -u) || exit 1
    for l in $libs; do cp -L "$l" "$dir/lib/" || exit 1; done
    du -sh "$dir"
    exit 0
fi

stage=$(cd "${1:?usage: device_bench.sh DIR OUTDIR [SECONDS]}" && pwd) || exit 1
out=${2:?usage: device_bench.sh DIR OUTDIR [SECONDS]}
budget=${3:-500}
mkdir -p "$out" || exit 1
export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export STRATA_EGL_PLATFORM=auto # and each process logs the display and GL it got

echo "== machine: $(nproc) cores"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1
if ! timeout 60 "$stage/strata" --headless --exec quit; then
    echo "== no headless GL: what EGL sees"
    ldconfig -p | grep -i -E "libEGL|nvidia" | head
    ls /usr/share/glvnd/egl_vendor.d /usr/local/nvidia/share/glvnd/egl_vendor.d 2>&1
    for p in surfaceless device default; do
        STRATA_EGL_PLATFORM=$p timeout 60 "$stage/strata" --headless --exec quit
    done
    exit 1
fi

step() { # step TIMEOUT FILTER: one strata-bench process, its JSON lines appended
    if [ "$SECONDS" -ge "$budget" ]; then
        echo "== skipped $2: past ${budget} s"
        return
    fi
    echo "== $2 (t=${SECONDS} s)"
    timeout "$1" "$stage/strata-bench" --filter "$2" --json 2>>"$out/stderr.log" | tee -a "$out/bench.jsonl"
    echo
}

for biome in hills desert taiga deciduous; do step 200 "stream.fly.$biome"; done
step 120 stream.generate
step 90 surfnets
step 90 enhance.
step 60 grammar.gpu.cave.64
step 60 grammar.reference.cave.64
step 60 voxelize
step 150 render.frame
step 120 render.gpucull # every mode's GPU cull against its read-back path, alternated
echo "== done at t=${SECONDS} s"
