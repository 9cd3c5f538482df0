#!/usr/bin/env bash
# Developer notices (which path a measurement chose and what it cost) stay
# off the play view: in the first 600 frames of every biome, and of smooth
# mode, the console's history (what the screen's message lines show) holds
# none, while the log (stderr) still has them; with developer 1 they are in
# the console too. Run under a virtual X server (tests/CMakeLists.txt):
# only a window has the console.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
# every log_dev line of the engine and the game
notices='occlusion culling reduces the depth|smooth mode meshes on the|grammars? derives? on the|: the window is [0-9]+x[0-9]+ columns'
play="frames 600; biome desert; frames 600; biome taiga; frames 600; biome deciduous; frames 600;
      set render.mode smooth; frames 60; set view.distance 160; frames 2"

check "four biomes and smooth mode, developer 0" 0 timeout 300 "$strata" --width 320 --height 200 --exec \
    "$play; condump $tmp/play.txt; quit"
n=$(grep -cE "$notices" "$tmp/play.txt")
logged=$(grep -cE "$notices" "$tmp/err")
[ "$n" -eq 0 ] && [ "$logged" -gt 0 ] && echo "ok   no developer notice on the play view ($logged in the log)" ||
    { echo "FAIL developer notices: $n on the play view, $logged in the log"; grep -E "$notices" "$tmp/play.txt" | head; fail=1; }
[ "$(wc -l <"$tmp/play.txt")" -lt 20 ] && echo "ok   the history is short ($(wc -l <"$tmp/play.txt") lines)" ||
    { echo "FAIL the console filled up:"; head -20 "$tmp/play.txt"; fail=1; }

rm -rf "$tmp/config" # the window wrote the first run's settings there on exit
check "developer 1" 0 timeout 300 "$strata" --width 320 --height 200 --exec \
    "set developer 1; frames 60; set render.mode smooth; frames 60; set view.distance 160; frames 2;
     condump $tmp/dev.txt; quit"
n=$(grep -cE "$notices" "$tmp/dev.txt")
[ "$n" -ge 2 ] && echo "ok   asked for, the notices are in the console ($n)" ||
    { echo "FAIL developer 1 shows $n notices:"; cat "$tmp/dev.txt"; fail=1; }
exit $fail
