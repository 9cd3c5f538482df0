#!/usr/bin/env bash
# layering.sh: the include rules of the module map (game/README.md), checked
# on every #include line of engine/ and game/, so the layers stay what the
# tree says they are.
#   tests/layering.sh SOURCE_DIR         check the tree; exit 1 on a broken rule
#   tests/layering.sh --self-test SOURCE_DIR
#                                         break each rule in a copy of the tree
#                                         and check that it is reported
# A quoted include is resolved as the compiler does (the including file's
# folder, then game/, then engine/), so "../app/app.h" and "app/app.h" are
# the same file to it. Rules:
#   engine/            includes only engine/ headers, never a game/ one
#   engine/ pure parts core/ voxel/ gen/ mesh/ physics/ light/ io/: no GL, no
#                      GLFW/EGL, no gfx/ or platform/ (testable without a context)
#   game/worldgen/     generation: worldgen/ itself and the engine's pure parts,
#                      plus ui/cvar.h (its settings) and platform/platform.h for
#                      platform_find_asset alone (cave grammars are asset files);
#                      never play/, app/, gfx/ or a GL header
#   game/play/         player and cutting tool: play/ itself, the engine's pure
#                      parts, ui/cvar.h and ui/cmd.h; never worldgen/, app/, gfx/ or GL
#   game/app/          the running game: anything above (it ties them together)
#   game/              holds main.c, README.md and those three folders only: a
#                      new folder needs its rule here first
set -uo pipefail

pure_engine="core voxel gen mesh physics light io"
gl_header='^(glad|GLFW|EGL|GL|GLES[0-9]*)/'
# What the pure game folders may include beyond the pure engine modules.
# Generation reads its settings as cvars and finds cave grammar files with
# platform_find_asset (a file lookup beside the executable, no window).
declare -A extra_headers=(
    [worldgen]="engine/ui/cvar.h engine/platform/platform.h"
    [play]="engine/ui/cvar.h engine/ui/cmd.h"
)

violations=0
report() { # FILE LINE MESSAGE
    echo "$1:$2: $3"
    violations=$((violations + 1))
}

# resolve FILE INCLUDE: sets target to the root-relative path the compiler
# would open, or "" (no subshell per include: the self-test checks 19 trees)
resolve() {
    local file=$1 inc=$2 base
    local bases=("${file%/*}")
    case $file in
        engine/*) bases+=(engine game) ;; # game/: to name the breach (the build would not find it)
        *) bases+=(game engine) ;;
    esac
    target=
    for base in "${bases[@]}"; do
        if [ -f "$base/$inc" ]; then
            target=$base/$inc
            case $target in */../*|*/./*) target=$(realpath -m --relative-to=. "$target") ;; esac
            return
        fi
    done
}

is_pure_engine() { # PATH: an engine/ header of a module that never touches GL
    local m
    for m in $pure_engine; do
        case $1 in engine/$m/*) return 0 ;; esac
    done
    return 1
}

# check FILE RULE: every include of FILE against RULE (engine, pure, worldgen,
# play, app)
check() {
    local file=$1 rule=$2 n line kind inc target
    local re='^[[:space:]]*#[[:space:]]*include[[:space:]]*([<"])([^>"]+)'
    while IFS=: read -r n line; do
        [[ $line =~ $re ]] || continue
        kind=${BASH_REMATCH[1]}
        inc=${BASH_REMATCH[2]}
        if [ "$kind" = "<" ]; then
            if [[ $inc =~ $gl_header ]] && [ "$rule" != engine ] && [ "$rule" != app ]; then
                report "$file" "$n" "<$inc>: a GL/window header in $rule code"
            fi
            continue
        fi
        resolve "$file" "$inc"
        if [ -z "$target" ]; then
            report "$file" "$n" "\"$inc\": no such header where the build looks"
            continue
        fi
        case $rule in
        engine)
            case $target in
                engine/*) ;;
                *) report "$file" "$n" "\"$inc\" is $target: engine/ never includes outside engine/" ;;
            esac ;;
        pure)
            case $target in
                engine/*) is_pure_engine "$target" ||
                    report "$file" "$n" "\"$inc\" is $target: a pure-CPU engine module includes no gfx/, platform/ or ui/" ;;
                *) report "$file" "$n" "\"$inc\" is $target: engine/ never includes outside engine/" ;;
            esac ;;
        worldgen|play) # pure game folders: themselves, the pure engine, a few headers
            case $target in
                game/$rule/*) ;;
                engine/*) is_pure_engine "$target" || [[ " ${extra_headers[$rule]} " == *" $target "* ]] ||
                    report "$file" "$n" "\"$inc\" is $target: game/$rule/ is pure (no gfx/, no window; of ui/ and platform/ only ${extra_headers[$rule]})" ;;
                *) report "$file" "$n" "\"$inc\" is $target: game/$rule/ includes no other game/ folder" ;;
            esac ;;
        app)
            case $target in
                engine/*|game/worldgen/*|game/play/*|game/app/*) ;;
                *) report "$file" "$n" "\"$inc\" is $target: game/app/ includes the engine and game/ folders only" ;;
            esac ;;
        esac
    done < <(grep -n 'include' "$file")
}

check_tree() { # ROOT: prints the broken rules, returns how many
    violations=0
    cd "$1" || return 100
    local f m checked=0
    for f in $(find engine game -name '*.[ch]' | sort); do
        case $f in
            engine/*)
                m=${f#engine/}; m=${m%%/*}
                if [[ " $pure_engine " == *" $m "* ]]; then check "$f" pure; else check "$f" engine; fi ;;
            game/worldgen/*) check "$f" worldgen ;;
            game/play/*) check "$f" play ;;
            game/app/*|game/main.c) check "$f" app ;;
            *) report "$f" 1 "a game/ file outside worldgen/, play/ and app/ (add its folder to game/README.md and this test)" ;;
        esac
        checked=$((checked + 1))
    done
    # The headers generation may include beyond the pure modules must stay
    # free of GL themselves, or the rule above would leak through them.
    for f in ${extra_headers[worldgen]} ${extra_headers[play]}; do
        [ -f "$f" ] && check "$f" pure
    done
    # platform.h also opens the window: generation may use its asset lookup only.
    while IFS=: read -r f n rest; do
        report "$f" "$n" "${rest//[[:space:]]/}: game/worldgen/ may call platform_find_asset only"
    done < <(grep -rnoE 'platform_[a-z_]+\(' game/worldgen | grep -v ':platform_find_asset($')
    for f in game/*; do
        case $f in
            game/main.c|game/README.md|game/worldgen|game/play|game/app) ;;
            *) report "$f" 1 "game/ holds main.c, README.md, worldgen/, play/ and app/ only" ;;
        esac
    done
    echo "layering: $checked files, $violations broken rules"
    [ $violations -eq 0 ]
}

if [ "${1:-}" = "--self-test" ]; then
    src=$(cd "$2" && pwd)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    status=0
    # breach NAME FILE LINE-TO-ADD: a copy of the tree with one bad line must fail
    breach() {
        rm -rf "$tmp/t"
        mkdir -p "$tmp/t"
        cp -r "$src/engine" "$src/game" "$tmp/t/"
        if [ -n "$2" ]; then
            printf '%s\n' "$3" >>"$tmp/t/$2"
        else
            mkdir -p "$tmp/t/game/$3"
            : >"$tmp/t/game/$3/stray.c"
        fi
        if (check_tree "$tmp/t" >"$tmp/out"); then
            echo "layering self-test: NOT CAUGHT: $1"
            status=1
        else
            echo "layering self-test: caught $1: $(head -1 "$tmp/out")"
        fi
    }
    if ! (check_tree "$src" >"$tmp/out"); then
        cat "$tmp/out"
        echo "layering self-test: the tree itself breaks a rule"
        exit 1
    fi
    breach "engine -> game" engine/voxel/world.c '#include "worldgen/worldgen.h"'
    breach "engine -> game by a relative path" engine/gfx/renderer.c '#include "../../game/app/app.h"'
    breach "pure engine -> gfx" engine/mesh/mesh_blocks.c '#include "gfx/renderer.h"'
    breach "pure engine -> GL" engine/core/log.c '#include <glad/gl.h>'
    breach "worldgen -> app" game/worldgen/caves.c '#include "app/app_world.h"'
    breach "worldgen -> app by a relative path" game/worldgen/terrain.c '#include "../app/component.h"'
    breach "worldgen -> play" game/worldgen/biomes.c '#include "play/player.h"'
    breach "worldgen -> gfx" game/worldgen/worldgen.h '#include "gfx/camera.h"'
    breach "worldgen -> GL" game/worldgen/biome_common.c '#include <glad/gl.h>'
    breach "worldgen -> GLFW" game/worldgen/formula_world.c '#include <GLFW/glfw3.h>'
    breach "worldgen -> the window" game/worldgen/caves.c 'static void f(void) { platform_swap(0); }'
    breach "worldgen -> console" game/worldgen/terrain.c '#include "ui/console.h"'
    breach "play -> app" game/play/tool.c '#include "app/app_internal.h"'
    breach "play -> worldgen" game/play/player.h '#include "worldgen/terrain.h"'
    breach "play -> GL" game/play/player.c '#include <glad/gl.h>'
    breach "a GL header behind ui/cvar.h" engine/ui/cvar.h '#include <GLFW/glfw3.h>'
    breach "a header nobody has" game/app/app.c '#include "no_such.h"'
    breach "a new game/ folder without a rule" "" misc
    exit $status
fi

check_tree "${1:?usage: layering.sh SOURCE_DIR | --self-test SOURCE_DIR}"
[ $? -eq 0 ]
