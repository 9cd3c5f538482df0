#!/bin/sh
# Prints the statistics table of docs/enhance.md: the enhanced mode's
# surface voxels, fragments and cache on each biome's spawn view, with the
# paper's rule (materials 0) and the material rules (1), from `enhance stats`.
# The hit rate is 1 - entries / lookups, each entry missed once: the game's
# measured rate also counts two workers missing one window at the same
# moment, which varies from run to run.
# usage: tools/enhance_table.sh [STRATA]   (default build/strata)
strata=${1:-build/strata}
printf '| biome | materials | surface voxels | fragments | cache entries | lookups | hit rate |\n'
printf '|---|---|---|---|---|---|---|\n'
for b in hills desert taiga; do
    for m in 0 1; do
        out=$("$strata" --headless --width 1280 --height 720 --exec \
            "biome $b; stream wait; set enhance.materials $m; set render.mode enhanced; enhance stats" 2>/dev/null) || {
            echo "enhance_table: $strata failed on biome $b, materials $m" >&2
            exit 1
        }
        printf '%s\n' "$out" | awk -v b="$b" -v m="$m" -F= '
            function group(n,   s) { s = sprintf("%d", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
            { v[$1] = $2 }
            END {
                printf "| %s | %s | %s | %s | %s | %s | %.2f %% |\n", b, m,
                    group(v["enhance.surface_voxels"]), group(v["enhance.fragments"]),
                    group(v["enhance.cache_entries"]), group(v["enhance.cache_lookups"]),
                    100 * (1 - v["enhance.cache_entries"] / v["enhance.cache_lookups"])
            }'
    done
done
