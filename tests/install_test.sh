#!/usr/bin/env bash
# Installing like a real program: `cmake --install` into a fresh prefix puts
# the game, the benchmark, shaders, assets, a desktop entry, an icon and the
# man page in place, and the installed game runs headless from a directory
# that has nothing of the build in it.
set -u
cmake=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { echo "FAIL cmake --install"; cat "$tmp/install.log"; exit 1; }
for f in bin/strata bin/strata-bench share/strata/shaders/chunk.vert share/strata/shaders/text.frag \
         share/strata/assets/atlas.png share/applications/strata.desktop \
         share/icons/hicolor/128x128/apps/strata.png share/man/man6/strata.6; do
    [ -s "$prefix/$f" ] || { echo "FAIL not installed: $f"; fail=1; }
done
head -c 8 "$prefix/share/icons/hicolor/128x128/apps/strata.png" | od -An -c | grep -q "P   N   G" || { echo "FAIL the icon is not a PNG"; fail=1; }
grep -q '^Exec=strata' "$prefix/share/applications/strata.desktop" || { echo "FAIL desktop entry lacks Exec"; fail=1; }
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$prefix/share/applications/strata.desktop" || fail=1
fi

# the installed game, from an empty directory elsewhere
mkdir -p "$tmp/elsewhere" && cd "$tmp/elsewhere" || exit 1
"$prefix/bin/strata" --headless --width 96 --height 64 \
    --exec "set world.size_x 2; set world.size_z 2; set world.size_y 2; stats; screenshot shot.png" >out 2>err
rc=$?
[ $rc -eq 0 ] || { echo "FAIL the installed strata exits $rc"; sed 's/^/  | /' err | head; fail=1; }
grep -q '^world_hash=' out || { echo "FAIL the installed strata printed no stats"; fail=1; }
[ -s shot.png ] || { echo "FAIL the installed strata wrote no screenshot"; fail=1; }

# the man page lists every command and cvar of this build
man=$prefix/share/man/man6/strata.6
"$prefix/bin/strata" --headless --width 16 --height 16 --exec "cmdlist; cvarlist" >names 2>/dev/null
while IFS= read -r line; do
    name=${line%%=*}
    roffname=${name//-/\\-}
    grep -qF "\\fB$roffname\\fR" "$man" || { echo "FAIL the man page lacks '$name'"; fail=1; }
done <names
[ "$(wc -l <names)" -gt 40 ] || { echo "FAIL cmdlist/cvarlist printed too little"; fail=1; }
if command -v groff >/dev/null; then
    warn=$(groff -man -z -ww "$man" 2>&1)
    [ -z "$warn" ] || { echo "FAIL groff warns about the man page: $warn"; fail=1; }
fi
echo "install_test: $([ $fail -eq 0 ] && echo passed || echo FAILED)"
exit $fail
