#!/bin/sh
# doc_tables_test.sh: the tables docs/enhance.md and docs/voxelize.md show
# are what the tools that print them print now, so neither goes stale.
#   tests/doc_tables_test.sh enhance SOURCE_DIR STRATA
#   tests/doc_tables_test.sh voxelize SOURCE_DIR VOXELIZE_REPORT
set -u
what=${1:?usage: doc_tables_test.sh enhance|voxelize SOURCE_DIR PROGRAM}
src=${2:?usage: doc_tables_test.sh enhance|voxelize SOURCE_DIR PROGRAM}
prog=${3:?usage: doc_tables_test.sh enhance|voxelize SOURCE_DIR PROGRAM}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
case $what in
enhance)
    doc="$src/docs/enhance.md"; head='| biome | materials | surface voxels |'
    sh "$src/tools/enhance_table.sh" "$prog" > "$tmp/now" || exit 1
    regen="tools/enhance_table.sh build/strata" ;;
voxelize)
    doc="$src/docs/voxelize.md"; head='| mesh | intended voxels |'
    "$prog" 96 | grep '^|' > "$tmp/now" || exit 1
    regen="build/voxelize_report 96" ;;
*)
    echo "doc_tables_test: no table '$what' (enhance or voxelize)" >&2
    exit 2 ;;
esac
# the table in the doc: from its header row to the first line not a row
awk -v h="$head" 'index($0, h) == 1 { on = 1 } on && !/^\|/ { exit } on { print }' "$doc" > "$tmp/doc"
if [ ! -s "$tmp/doc" ]; then
    echo "doc_tables_test: no table starting '$head' in $doc" >&2
    exit 1
fi
if ! diff -u "$tmp/doc" "$tmp/now"; then
    echo "doc_tables_test: the table in ${doc#"$src"/} is stale (above: - the doc, + now); run $regen and paste it" >&2
    exit 1
fi
echo "doc_tables_test: the $what table matches what $regen prints"
