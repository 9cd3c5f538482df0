#!/usr/bin/env bash
# docs_check.sh: the docs, comments and tests describe the system as it is;
# what changed and when belongs in git history. Fails on the words of a
# work diary (a numbered session, the words of $diary below, an issue number or #N
# reference), on a README longer than 300 lines and on a docs/*.md longer
# than 400. "session" in its other meanings (a game session, an SQLite
# session) is fine: only "session" followed by a number is a diary's.
#   tests/docs_check.sh SOURCE_DIR              check the tree; exit 1 on a finding
#   tests/docs_check.sh --self-test SOURCE_DIR  plant each finding in a scratch
#                                               tree and check it is reported
set -uo pipefail

readme_max=300
doc_max=400
# ERE, matched case-insensitively. The words are spelled in pieces so that
# this file does not match itself.
s=sess; t=sitt; i=iss
diary="\\b${s}ions? [0-9]|\\b${t}ings?\\b|\\b${i}ues? #?[0-9]|(^|[[:space:](])#[0-9]+\\b"

check() {
    local root=$1 bad=0 f n
    local files=()
    while IFS= read -r -d '' f; do files+=("$f"); done < <(
        cd "$root" && find README.md CMakeLists.txt docs engine game shaders tests bench tools \
            -type f \( -name '*.md' -o -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.vert' \
            -o -name '*.frag' -o -name '*.comp' -o -name '*.glsl' -o -name '*.txt' -o -name '*.tsv' \
            -o -name '*.cfg' -o -name '*.grammar' \) \
            ! -path 'tests/docs_check.sh' ! -path 'tests/fuzz/corpus/*' -print0 2>/dev/null)
    if [ ${#files[@]} -eq 0 ]; then
        echo "docs_check: no files under $root" >&2
        return 1
    fi
    if (cd "$root" && grep -nIiE "$diary" "${files[@]}"); then
        echo "docs_check: the lines above read as a diary: say how the system is and why; history belongs in git" >&2
        bad=1
    fi
    if [ -f "$root/README.md" ]; then
        n=$(wc -l < "$root/README.md")
        if [ "$n" -gt "$readme_max" ]; then
            echo "docs_check: README.md:$n: $n lines, more than $readme_max" >&2
            bad=1
        fi
    fi
    for f in "$root"/docs/*.md; do
        [ -f "$f" ] || continue
        n=$(wc -l < "$f")
        if [ "$n" -gt "$doc_max" ]; then
            echo "docs_check: docs/${f##*/}:$n: $n lines, more than $doc_max" >&2
            bad=1
        fi
    done
    return $bad
}

self_test() {
    local src=$1 tmp fails=0 case
    tmp=$(mktemp -d) || return 1
    trap 'rm -rf "$tmp"' RETURN
    mkdir -p "$tmp/docs" "$tmp/engine" "$tmp/tests"
    printf '# strata\n\nA game session ends with a save; an SQLite session is not used.\n' > "$tmp/README.md"
    printf '# doc\n\nThe sessions of play are saved.\n' > "$tmp/docs/a.md"
    printf '/* what it does and why */\n' > "$tmp/engine/a.c"
    if ! check "$tmp" >/dev/null 2>&1; then
        echo "docs_check self-test: a clean tree was refused:" >&2
        check "$tmp" >&2
        fails=1
    fi
    for case in "docs/a.md:measured in ${s}ion 32" "engine/a.c:/* ${s}ions 3 and 4 found it */" \
                "tests/t.c:/* the second ${t}ing */" "docs/a.md:as ${i}ue 21 asks" "engine/a.c:// see #48" \
                "docs/a.md:(${i}ue #7)" "README.md:${t}ing D"; do
        cp -r "$tmp" "$tmp.case"
        printf '%s\n' "${case#*:}" >> "$tmp.case/${case%%:*}"
        if check "$tmp.case" >/dev/null 2>&1; then
            echo "docs_check self-test: not reported: '${case#*:}' in ${case%%:*}" >&2
            fails=1
        fi
        rm -rf "$tmp.case"
    done
    cp -r "$tmp" "$tmp.case"
    seq 1 $((readme_max + 1)) >> "$tmp.case/README.md"
    check "$tmp.case" >/dev/null 2>&1 && { echo "docs_check self-test: a long README passed" >&2; fails=1; }
    rm -rf "$tmp.case"; cp -r "$tmp" "$tmp.case"
    seq 1 $((doc_max + 1)) >> "$tmp.case/docs/a.md"
    check "$tmp.case" >/dev/null 2>&1 && { echo "docs_check self-test: a long docs/a.md passed" >&2; fails=1; }
    rm -rf "$tmp.case"
    [ $fails -eq 0 ] && echo "docs_check self-test: every finding reported, the clean tree passes"
    return $fails
}

if [ "${1:-}" = "--self-test" ]; then
    self_test "${2:?usage: docs_check.sh --self-test SOURCE_DIR}"
    exit $?
fi
check "${1:?usage: docs_check.sh SOURCE_DIR}" && echo "docs_check: no diary words, README and docs within their lengths"
