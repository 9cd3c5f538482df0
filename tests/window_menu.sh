#!/usr/bin/env bash
# The pause menu in a real window (under a virtual X server, with real key
# and mouse events from xdotool): `menu` shows it the very next frame and
# hides it the next; Esc opens it, a click on a row's ">" raises the field
# of view, the arrow keys and Enter change the render mode, and the menu's
# Quit leaves; both settings persist in the config the window writes.
# Run by tests/CMakeLists.txt as: xvfb-run ... window_menu.sh STRATA
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh"
region="python3 $(dirname "$0")/support/png_region.py"
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
small="set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2; regen"
W=640 H=400

# the panel's middle: the game there, then the dark panel, then the game again
# a window whose script fails stays open: every run is bounded
check "menu opens and closes a frame apart" 0 timeout 120 "$strata" --width $W --height $H --exec \
    "$small; frames 2; screenshot $tmp/before.png; menu; screenshot $tmp/open.png; menu list; menu layout;
     menu; screenshot $tmp/closed.png; quit"
cp "$tmp/out" "$tmp/layout"
dark() { $region "$1" $((W / 2 - 60)) $((H / 2 - 40)) $((W / 2 + 60)) $((H / 2 + 40)) | grep '^dark=' | cut -d= -f2; }
b=$(dark "$tmp/before.png") o=$(dark "$tmp/open.png") c=$(dark "$tmp/closed.png")
[ "${o:-0}" -gt 7000 ] && [ "${b:-9999}" -lt 1000 ] && [ "${c:-9999}" -lt 1000 ] &&
    echo "ok   the panel shows at once and goes at once (dark pixels: $b, $o, $c of 9600)" ||
    { echo "FAIL the panel's dark pixels: before ${b:-?}, open ${o:-?}, closed ${c:-?} of 9600"; fail=1; }

row_of() { grep "^menu\.[0-9]*=$1" "$tmp/layout" | sed 's/^menu\.\([0-9]*\)=.*/\1/'; }
fov=$(row_of "Field of view") mode=$(row_of "Render mode")
set -- $(grep "^menu\.more\.$fov=" "$tmp/layout" | cut -d= -f2)
if [ -z "$fov" ] || [ -z "$mode" ] || [ $# -ne 4 ]; then
    echo "FAIL no layout for the rows: fov '$fov' mode '$mode' box '$*'"; exit 1
fi
cx=$(( ${1%.*} + ${3%.*} / 2 )) cy=$(( ${2%.*} + ${4%.*} / 2 ))

rm -f "$tmp/config/strata/config.cfg"
timeout 120 "$strata" --width $W --height $H --exec "$small; frames 2; echo ready" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 600); do grep -q '^ready' "$tmp/out" 2>/dev/null && break; sleep 0.1; done
wid=$(xdotool search --sync --onlyvisible --name '^strata$' | head -1)
step() { xdotool "$@"; sleep 0.4; }
step windowfocus --sync "$wid"
step key Escape                                          # the menu opens, the pointer is free
step mousemove --window "$wid" $cx $cy click 1            # Field of view ">" : 70 -> 75
for _ in $(seq $((mode - fov))); do step key Down; done  # down to Render mode
step key Right                                           # blocks -> the next mode
step key Escape                                          # resume
step key Escape                                          # the menu again, on its first row
step key Up                                              # wraps to the last: Quit
step key Return
for _ in $(seq 1 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then
    echo "FAIL the menu's Quit did not end the game"; kill $pid; fail=1
fi
wait $pid; rc=$?
[ $rc -eq 0 ] && echo "ok   Quit in the menu leaves (exit 0)" || { echo "FAIL exit $rc"; sed 's/^/  | /' "$tmp/err" | head; fail=1; }
cfg="$tmp/config/strata/config.cfg"
grep -q '^set view.fov "75"' "$cfg" 2>/dev/null && echo "ok   the click raised view.fov to 75, persisted" ||
    { echo "FAIL view.fov in the config: $(grep 'view.fov' "$cfg" 2>/dev/null)"; fail=1; }
m=$(grep '^set render.mode ' "$cfg" 2>/dev/null)
[ -n "$m" ] && [ "$m" != 'set render.mode "blocks"' ] && echo "ok   the keys changed the render mode: $m" ||
    { echo "FAIL render.mode in the config: '$m'"; fail=1; }
exit $fail
