#!/usr/bin/env bash
# Every picture the README shows exists and has a recipe that renders it
# (tools/shots.sh or a tools/shot_*.sh it runs), so re-rendering them all
# after a change of look is one command.
set -u
src=$1
fail=0
recipes=$(cat "$src/tools/shots.sh" "$src"/tools/shot_*.sh)
for png in $(grep -o 'docs/screenshots/[a-z0-9_]*\.png' "$src/README.md" | sort -u); do
    name=$(basename "$png" .png)
    [ -s "$src/$png" ] || { echo "FAIL $png is shown by the README but missing"; fail=1; continue; }
    # a recipe names the file, directly or through a loop variable (NAME.png, $b.png, mat${m}_...)
    if grep -qE "(/|\\\$out/)$name\.png" <<<"$recipes"; then
        echo "ok   $png"
    elif grep -qE 'for b in [a-z ]*\b'"$name"'\b' <<<"$recipes"; then
        echo "ok   $png (a loop over biomes)"
    elif [[ $name =~ ^enhance_mat[01]_ ]] && grep -q 'enhance_mat\${m}_' <<<"$recipes"; then
        echo "ok   $png (a loop over enhance.materials)"
    else
        echo "FAIL $png has no recipe in tools/shots.sh or tools/shot_*.sh"; fail=1
    fi
done
exit $fail
