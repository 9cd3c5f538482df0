#!/usr/bin/env bash
# tools/paging_flight.sh STRATA [OUTDIR]: the measurement of paging in
# docs/streaming.md ("Paging edits"). Flies a streamed hills world 5 km
# east in steps of 100 voxels with 4 cuts at each step (every column they
# reach generated first), once without a world file and once with one;
# then reopens the file, flies back in the same steps and hashes the
# strip. Prints the store, paging and timing figures of each run, the two
# hashes (they must be equal) and the file's size.
set -eu
strata=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
export XDG_DATA_HOME="$out/data" XDG_CONFIG_HOME="$out/config"
fly="set world.stream 1; biome hills; stream wait 96"
for x in $(seq 0 100 5000); do
    fly="$fly; tp $x.5 90 0.5; stream wait 128; cut $x 60 0; cut $((x + 20)) 58 30; cut $((x + 40)) 58 -30"
    fly="$fly; cut $((x + 60)) 60 60; frames 3"
done
back="stream wait 64"
for x in $(seq 5000 -100 0); do back="$back; tp $x.5 90 0.5; stream wait 64; frames 2"; done
strip='hash 2500 0 2600'
# each figure's last value in a run's output (cuts print stats too)
figures() {
    for k in stream_stored_chunks stream_paged_chunks resident_bytes stream_page_saves stream_page_save_ms_max \
        stream_paged_in stream_page_in_ms stream_page_in_ms_max stream_page_in_main_ms_max stream_page_in_redone hash; do
        grep "^$k=" "$1" | tail -1
    done
}

"$strata" --headless --exec "$fly; frames 30; stream; $strip" >"$out/nofile.out"
echo "== no world file"; figures "$out/nofile.out"
rm -f "$out/w.strata" "$out/w.strata-wal" "$out/w.strata-shm"
"$strata" --headless --world "$out/w.strata" --exec "$fly; frames 30; sleep 0.5; frames 5; stream" >"$out/file.out"
echo "== with a world file"; figures "$out/file.out"
"$strata" --headless --world "$out/w.strata" --exec "$back; stream; $strip" >"$out/back.out"
echo "== reopened, flown back"; figures "$out/back.out"
echo "file_bytes=$(stat -c %s "$out/w.strata")"
