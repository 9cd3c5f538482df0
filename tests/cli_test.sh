#!/usr/bin/env bash
# The scripting contract of the real executable: exit codes 0/1/2, stats
# keys, determinism of world_hash per seed, screenshots, bad input.
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh" # tmp, fail, check
small='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2'
kv() { grep "^$1=" "$tmp/out" | head -1 | cut -d= -f2; }
down='set world.size_y 4; tp 64 100 64; look 0 -89; set tool.reach 64'

# four parts, each its own ctest entry (cli_lib.sh: part)
if part 1; then

check "usage error: unknown flag" 2 "$strata" --bogus
check "usage error: bad width" 2 "$strata" --headless --width abc
check "usage error: missing --exec argument" 2 "$strata" --headless --exec
check "failing command exits 1" 1 "$strata" --headless --exec "$small; nosuchcommand"
grep -q "nosuchcommand" "$tmp/err" || { echo "FAIL failing command is named on stderr"; fail=1; }
check "bad cvar value exits 1" 1 "$strata" --headless --exec "set view.fov banana"
grep -q "view.fov" "$tmp/err" || { echo "FAIL bad value message names the cvar"; fail=1; }
check "unbalanced quote exits 1" 1 "$strata" --headless --exec 'echo "oops'

check "stats" 0 "$strata" --headless --exec "$small; stats"
for key in seed= biome= world_hash= solid_voxels= chunks= triangles= material.sand= material.salt_flat= material.fir_leaves= material.muskeg=; do
    grep -q "^$key" "$tmp/out" || { echo "FAIL stats lacks $key"; fail=1; }
done
h1=$(grep '^world_hash=' "$tmp/out")
"$strata" --headless --exec "$small; stats" >"$tmp/out2" 2>/dev/null
h2=$(grep '^world_hash=' "$tmp/out2")
[ -n "$h1" ] && [ "$h1" = "$h2" ] || { echo "FAIL same seed gives a different world_hash ($h1 vs $h2)"; fail=1; }
"$strata" --headless --exec "$small; set world.seed 777; stats" >"$tmp/out3" 2>/dev/null
h3=$(grep '^world_hash=' "$tmp/out3")
[ "$h1" != "$h3" ] || { echo "FAIL a different seed gives the same world_hash"; fail=1; }

# fps: none before any frame; `frames` measures what its frames take
check "stats before frames" 0 "$strata" --headless --exec "$small; stats"
grep -qx "fps=0.0" "$tmp/out" || { echo "FAIL fps before any frame: $(grep '^fps=' "$tmp/out")"; fail=1; }
check "stats after frames" 0 "$strata" --headless --exec "$small; frames 3; stats"
awk -F= '/^fps=/ { ok = $2 > 0 } END { exit !ok }' "$tmp/out" || { echo "FAIL frames leave fps at 0"; fail=1; }

check "get prints NAME=VALUE" 0 "$strata" --headless --exec "set view.fov 80; get view.fov"
grep -qx "view.fov=80" "$tmp/out" || { echo "FAIL get view.fov: $(cat "$tmp/out")"; fail=1; }

check "screenshot" 0 "$strata" --headless --width 320 --height 200 --exec "$small; tp 64 60 64; look 30 -20; screenshot $tmp/shot.png"
head -c 8 "$tmp/shot.png" | od -An -c | grep -q "P   N   G" || { echo "FAIL screenshot is not a PNG"; fail=1; }
check "screenshot to a bad path exits 1" 1 "$strata" --headless --exec "$small; screenshot /nonexistent/dir/x.png"

fi

if part 2; then
# seed 003: the cutting tool and the formula world, wired into the game
check "cut from the view" 0 "$strata" --headless --exec "$small; stats; tp 64 63 64; look 0 -89; set tool.reach 64; cut; stats"
cut=$(kv cut_voxels); tinted=$(grep '^tinted_faces=' "$tmp/out" | tail -1 | cut -d= -f2)
ha=$(grep '^world_hash=' "$tmp/out" | head -1); hb=$(grep '^world_hash=' "$tmp/out" | tail -1)
[ "${cut:-0}" -gt 100 ] || { echo "FAIL cut from the view removed ${cut:-nothing}"; fail=1; }
[ "${tinted:-0}" -gt 0 ] || { echo "FAIL a cut tinted no faces (tinted_faces=${tinted:-?})"; fail=1; }
[ "$ha" != "$hb" ] || { echo "FAIL a cut left world_hash unchanged"; fail=1; }
check "cut then fill at a point" 0 "$strata" --headless --exec "$small; cut 64 30 64; fill sandstone 64 30 64; stats; tool.info"
[ "$(kv cut_voxels)" = "$(kv fill_voxels)" ] || { echo "FAIL fill put back $(kv fill_voxels) of $(kv cut_voxels) voxels"; fail=1; }
[ "$(kv material.sandstone)" = "$(kv fill_voxels)" ] || { echo "FAIL sandstone count $(kv material.sandstone) != filled $(kv fill_voxels)"; fail=1; }
[ "$(kv tool_voxels)" -gt 200 ] || { echo "FAIL tool.info: tool_voxels=$(kv tool_voxels)"; fail=1; }
check "bad tool.shape exits 1" 1 "$strata" --headless --exec 'set tool.shape "sr < (r"'
grep -q "column 6" "$tmp/err" || { echo "FAIL bad tool.shape message lacks its column: $(cat "$tmp/err")"; fail=1; }
check "formula world" 0 "$strata" --headless --exec "$small; set world.formula_size 48; biome formula; stats"
[ "$(kv biome)" = formula ] && [ "$(kv solid_voxels)" -gt 20000 ] || { echo "FAIL formula world: biome=$(kv biome) solid=$(kv solid_voxels)"; fail=1; }
# the frame loop's held actions, on the simulated clock of 'frames'
"$strata" --headless --exec "$small; $down; cut; stats" >"$tmp/one" 2>/dev/null
check "held +cut tunnels" 0 "$strata" --headless --exec "$small; $down; +cut; frames 20; -cut; stats"
s1=$(grep '^solid_voxels=' "$tmp/one" | cut -d= -f2); s20=$(kv solid_voxels)
t1=$(grep '^tinted_faces=' "$tmp/one" | cut -d= -f2); t20=$(kv tinted_faces)
[ "$s20" -lt $((s1 - 500)) ] && [ "$t20" -gt "$t1" ] || { echo "FAIL held cut did not tunnel: solid $s1 -> $s20, tinted $t1 -> $t20"; fail=1; }
check "held +fill repeats" 0 "$strata" --headless --exec "$small; $down; set tool.material sandstone; +fill; frames 1; stats; frames 30; -fill; frames 30; stats"
f1=$(grep '^material.sandstone=' "$tmp/out" | head -1 | cut -d= -f2); f2=$(grep '^material.sandstone=' "$tmp/out" | tail -1 | cut -d= -f2)
[ "$f1" -gt 50 ] && [ "$f2" -gt "$f1" ] || { echo "FAIL held fill: sandstone $f1 after one frame, $f2 after 60"; fail=1; }
check "frames refuses a bad count" 1 "$strata" --headless --exec "frames -3"
check "tool ghost is drawn" 0 "$strata" --headless --width 200 --height 150 --exec "$small; $down; set tool.visible 0; screenshot $tmp/noghost.png; set tool.visible 1; screenshot $tmp/ghost.png"
! cmp -s "$tmp/noghost.png" "$tmp/ghost.png" || { echo "FAIL tool.visible makes no difference to the picture"; fail=1; }
check "another kind's parameter keeps the edits" 0 "$strata" --headless --exec "$small; cut 64 30 64; stats; set taiga.tree_line 0.2; set world.formula \"sr < r\"; stats"
[ "$(grep '^world_hash=' "$tmp/out" | head -1)" = "$(grep '^world_hash=' "$tmp/out" | tail -1)" ] || { echo "FAIL a taiga/formula cvar regenerated the hills world and lost the cut"; fail=1; }
check "world parameters regenerate" 0 "$strata" --headless --exec "$small; stats; set world.terrain_weight 5; stats"
[ "$(grep '^world_hash=' "$tmp/out" | head -1)" != "$(grep '^world_hash=' "$tmp/out" | tail -1)" ] || { echo "FAIL world.terrain_weight did not regenerate the world"; fail=1; }
# render modes: a table; an unknown one is refused, cycling keeps world and edits
check "unknown render.mode is refused" 1 "$strata" --headless --exec "set render.mode no_such_mode"
grep -q "one of: blocks" "$tmp/err" || { echo "FAIL render.mode refusal does not list the modes: $(cat "$tmp/err")"; fail=1; }
check "render.cycle keeps world and edits" 0 "$strata" --headless --width 160 --height 90 --exec "$small; cut 64 30 64; stats; render.cycle; render.cycle; set render.mode blocks; stats"
[ "$(grep '^world_hash=' "$tmp/out" | head -1)" = "$(grep '^world_hash=' "$tmp/out" | tail -1)" ] || { echo "FAIL switching render mode changed the world"; fail=1; }
[ "$(grep '^triangles_visible=' "$tmp/out" | head -1)" = "$(grep '^triangles_visible=' "$tmp/out" | tail -1)" ] || { echo "FAIL switching render mode back drew another picture"; fail=1; }

# seed 000: snowflake light, baked with the world, relit after each edit
check "light bake and relight" 0 "$strata" --headless --width 200 --height 150 --exec "$small; $down; light stats; set light.enable 0; screenshot $tmp/unlit.png; set light.enable 1; screenshot $tmp/lit.png; cut; frames 1; light stats"
[ "$(grep '^light_elements=' "$tmp/out" | head -1 | cut -d= -f2)" -gt 10000 ] || { echo "FAIL light: the bake lit no elements: $(cat "$tmp/out")"; fail=1; }
[ "$(grep '^light_last=' "$tmp/out" | tail -1 | cut -d= -f2)" = relight ] && [ "$(grep '^light_relights=' "$tmp/out" | tail -1 | cut -d= -f2)" = 1 ] || { echo "FAIL light: a cut was not relit"; fail=1; }
! cmp -s "$tmp/unlit.png" "$tmp/lit.png" || { echo "FAIL light.enable makes no difference to the picture"; fail=1; }
for b in desert taiga deciduous hills; do
    check "light: $b lit differs from unlit" 0 "$strata" --headless --width 160 --height 100 --exec "$small; biome $b; tp 64 80 64; look 30 -30; set light.enable 0; screenshot $tmp/u_$b.png; set light.enable 1; screenshot $tmp/l_$b.png"
    ! cmp -s "$tmp/u_$b.png" "$tmp/l_$b.png" || { echo "FAIL light: $b looks the same lit and unlit"; fail=1; }
done
check "light refuses a bake that would take too long" 1 "$strata" --headless --exec "set light.steps 128; set light.sun_particles 256"
grep -q "would take about" "$tmp/err" || { echo "FAIL light cost message: $(cat "$tmp/err")"; fail=1; }
fi

if part 3; then
# bad input: the largest view distance and the largest worlds still render, with no GL error
check "max view.distance and a 64x1x64 world render" 0 "$strata" --headless --width 160 --height 90 --exec "set world.stream 0; set world.size_y 1; set world.size_x 64; set world.size_z 64; set view.distance 2048; look 45 -20; screenshot $tmp/wide.png; stats"
[ -s "$tmp/wide.png" ] && [ "$(kv chunks_visible)" -gt 500 ] && ! grep -q "GL error" "$tmp/err" || { echo "FAIL the widest world at max view.distance: $(kv chunks_visible) chunks, $(cat "$tmp/err")"; fail=1; }
check "a 16x16x16 world from above at max view.distance" 0 "$strata" --headless --width 160 --height 90 --exec "set world.stream 0; set world.size_y 16; set world.size_x 16; set world.size_z 16; set view.distance 2048; set player.fly 1; tp 256 700 256; look 45 -60; screenshot $tmp/tall.png; stats"
[ -s "$tmp/tall.png" ] && [ "$(kv triangles_visible)" -gt 0 ] && ! grep -q "GL error" "$tmp/err" || { echo "FAIL the tallest world: $(kv triangles_visible) triangles, $(cat "$tmp/err")"; fail=1; }
# the default world streams around the player; a view distance whose window would not fit
# stream.memory_mb is refused with the estimate
check "the default world streams" 0 "$strata" --headless --exec "stream wait; stats"
grep -q '^stream_window=' "$tmp/out" && [ "$(kv stream_near_ready)" = 1.000 ] || { echo "FAIL the default world did not stream, or stream wait left the view unready"; fail=1; }
check "max view.distance on the streamed default is refused" 1 "$strata" --headless --exec "set view.distance 2048"
grep -q 'MiB of voxels, over stream.memory_mb' "$tmp/err" || { echo "FAIL view.distance refusal without the estimate: $(cat "$tmp/err")"; fail=1; }

# seed 000: voxel detail enhancement, the enhanced render mode
check "enhance stats in enhanced mode" 0 "$strata" --headless --width 200 --height 150 --exec "$small; $down; screenshot $tmp/blocks.png; set render.mode enhanced; screenshot $tmp/enhanced.png; cut; enhance stats"
[ "$(kv enhance.fragments)" -gt 1000 ] && [ "$(kv enhance.skipped_voxels)" -gt 1000 ] && [ "$(kv enhance.cache_entries)" -gt 0 ] || { echo "FAIL enhance stats: $(cat "$tmp/out")"; fail=1; }
grep -q '^enhance.cache_hit_rate=0\.[0-9]*' "$tmp/out" || { echo "FAIL enhance stats has no hit rate"; fail=1; }
! cmp -s "$tmp/blocks.png" "$tmp/enhanced.png" || { echo "FAIL render.mode enhanced draws the same picture as blocks"; fail=1; }
check "enhance stats wants the enhanced mode" 1 "$strata" --headless --exec "$small; enhance stats"
check "enhance.levels out of range" 1 "$strata" --headless --exec "set enhance.levels 9"
grep -q "\[1, 4\]" "$tmp/err" || { echo "FAIL enhance.levels refusal has no range: $(cat "$tmp/err")"; fail=1; }
check "enhance memory limit" 1 "$strata" --headless --exec "set enhance.operator resample; set enhance.factor 16; set enhance.radius 512"
grep -q "MiB" "$tmp/err" || { echo "FAIL enhance memory refusal has no estimate: $(cat "$tmp/err")"; fail=1; }
# seed 004: surface nets on a field from a file, and the smooth render mode
perl -e 'for $z (0..16) { for $y (0..16) { for $x (0..16) { print pack("f<", sqrt(($x-8.2)**2+($y-7.9)**2+($z-8.1)**2) - 5.5) } } }' >"$tmp/sphere.f32"
check "surfnets on a sphere field" 0 "$strata" --headless --exec "surfnets $tmp/sphere.f32 16"
for key in cpu_vertices cpu_triangles gpu_vertices gpu_triangles cpu_ms gpu_ms; do
    grep -q "^$key=" "$tmp/out" || { echo "FAIL surfnets lacks $key="; fail=1; }
done
[ "$(kv cpu_vertices)" -gt 100 ] && [ "$(kv cpu_vertices)" = "$(kv gpu_vertices)" ] && [ "$(kv cpu_triangles)" = "$(kv gpu_triangles)" ] ||
    { echo "FAIL surfnets: cpu $(kv cpu_vertices)/$(kv cpu_triangles) vs gpu $(kv gpu_vertices)/$(kv gpu_triangles)"; fail=1; }
check "surfnets: missing file" 1 "$strata" --headless --exec "surfnets $tmp/nope.f32 16"
check "surfnets: size does not match N" 1 "$strata" --headless --exec "surfnets $tmp/sphere.f32 15"
grep -q "expected exactly" "$tmp/err" || { echo "FAIL surfnets size message: $(cat "$tmp/err")"; fail=1; }
check "surfnets: N over the limit" 1 "$strata" --headless --exec "surfnets $tmp/sphere.f32 100000"
perl -e 'print pack("f<", 1.0) x 100; print pack("L<", 0x7fc00000); print pack("f<", 1.0) x (17*17*17 - 101)' >"$tmp/nan.f32"
check "surfnets: NaN in the field" 1 "$strata" --headless --exec "surfnets $tmp/nan.f32 16"
grep -q "sample 100 (x=15 y=5 z=0" "$tmp/err" || { echo "FAIL surfnets NaN message: $(cat "$tmp/err")"; fail=1; }
check "smooth mode keeps world and player" 0 "$strata" --headless --width 160 --height 120 --exec "$small; tp 64 70 64; look 30 -30; stats; screenshot $tmp/b.png; set render.mode smooth; stats; screenshot $tmp/s.png; cut 64 40 64; stats; render.cycle; get render.mode"
[ "$(grep '^world_hash=' "$tmp/out" | sed -n 1p)" = "$(grep '^world_hash=' "$tmp/out" | sed -n 2p)" ] || { echo "FAIL switching to smooth changed the world"; fail=1; }
grep -qx "render.mode=blocks" "$tmp/out" || { echo "FAIL render.cycle did not go from smooth back to blocks"; fail=1; }
! cmp -s "$tmp/b.png" "$tmp/s.png" || { echo "FAIL smooth mode draws the same picture as blocks"; fail=1; }
# a context without compute shaders (STRATA_GL_NO_COMPUTE=1 hides them): smooth mode meshes on the
# CPU even with render.gpu 1 (forced) or 2, says so once across re-meshes and mode switches, and
# draws exactly what render.gpu 0 draws; surfnets prints the cpu_ lines, says CPU only, exits 0
nc="$small; tp 64 70 64; look 30 -30; set render.mode smooth; set render.gpu G1; stats; set render.mode blocks; set render.mode smooth; cut 64 40 64; frames 2; stats; screenshot $tmp/ncP1.png; set render.gpu G2; frames 2; set render.mode blocks; set render.mode smooth; frames 2; stats; screenshot $tmp/ncP2.png"
"$strata" --headless --width 160 --height 120 --exec "$(echo "$nc" | sed 's/G[12]/0/g; s/ncP/ref/g')" >/dev/null 2>&1
check "no compute: smooth mode falls back to the CPU" 0 env STRATA_GL_NO_COMPUTE=1 "$strata" --headless --width 160 --height 120 --exec "$(echo "$nc" | sed 's/G1/1/; s/G2/2/; s/ncP/nc/g'); surfnets $tmp/sphere.f32 16"
[ "$(grep -c 'surface nets on the GPU are unavailable' "$tmp/err")" = 1 ] || { echo "FAIL no compute: the fallback is not said exactly once: $(cat "$tmp/err")"; fail=1; }
[ "$(grep '^triangles_visible=' "$tmp/out" | cut -d= -f2 | awk '$1 > 1000' | wc -l)" = 3 ] || { echo "FAIL no compute: smooth mode drew no nets: $(grep '^triangles_visible=' "$tmp/out" | tr '\n' ' ')"; fail=1; }
cmp -s "$tmp/ref1.png" "$tmp/nc1.png" && cmp -s "$tmp/ref2.png" "$tmp/nc2.png" || { echo "FAIL no compute: the fallback draws another picture than render.gpu 0"; fail=1; }
[ "$(kv cpu_vertices)" -gt 100 ] && ! grep -v '^gpu_waits=' "$tmp/out" | grep -q '^gpu_' && grep -q 'surfnets: .*CPU only' "$tmp/err" || { echo "FAIL no compute: surfnets output: $(cat "$tmp/out" "$tmp/err")"; fail=1; }
fi

if part 4; then
# seed 002: meshes voxelized, overlapped, imported and made the tool's shape
cube='v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n'
faces='f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n'
printf "$cube$faces" >"$tmp/cube.obj"
printf "${cube//v 1/v 1.5}" | sed 's/^v 0 /v 0.5 /' >"$tmp/cube2.obj"; printf "$faces" >>"$tmp/cube2.obj"
check "voxelize a cube" 0 "$strata" --headless --exec "voxelize $tmp/cube.obj 32"
[ "$(kv inside_voxels)" = 32768 ] && [ "$(kv volume)" = 1 ] || { echo "FAIL voxelize cube: $(cat "$tmp/out")"; fail=1; }
check "overlap of half-overlapping cubes" 0 "$strata" --headless --exec "set voxelize.method winding; overlap $tmp/cube.obj $tmp/cube2.obj 64"
awk -v v="$(kv volume)" 'BEGIN { exit !(v > 0.47 && v < 0.53) }' || { echo "FAIL overlap volume $(kv volume), expected ~0.5"; fail=1; }
printf 'v 0 0 0\nv 1 0 0\nv 0 1 zero\nf 1 2 3\n' >"$tmp/bad.obj"
check "malformed OBJ exits 1" 1 "$strata" --headless --exec "voxelize $tmp/bad.obj 16"
grep -q "bad.obj:3: 'zero' is not a number" "$tmp/err" || { echo "FAIL malformed OBJ message: $(cat "$tmp/err")"; fail=1; }
printf "$cube"'f 1 2 9\n' >"$tmp/range.obj"
check "out-of-range index exits 1" 1 "$strata" --headless --exec "voxelize $tmp/range.obj 16"
grep -q "range.obj:9: vertex index 9 out of range" "$tmp/err" || { echo "FAIL index message: $(cat "$tmp/err")"; fail=1; }
printf 'v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n' >"$tmp/flat.obj"
check "flat mesh refused" 1 "$strata" --headless --exec "voxelize $tmp/flat.obj 16"
grep -q "degenerate bounding box" "$tmp/err" || { echo "FAIL flat mesh message: $(cat "$tmp/err")"; fail=1; }
printf "$cube" >"$tmp/nofaces.obj"
check "mesh without faces refused" 1 "$strata" --headless --exec "voxelize $tmp/nofaces.obj 16"
check "resolution over the limit refused" 1 "$strata" --headless --exec "voxelize $tmp/cube.obj 100000"
grep -q "the limit" "$tmp/err" || { echo "FAIL resolution message: $(cat "$tmp/err")"; fail=1; }
# import: stamps tool.material where the view meets ground; a failed import changes nothing
printf 'stats\nimport %s 16\nstats\nimport %s 16\nstats\n' "$tmp/bad.obj" "$tmp/cube.obj" >"$tmp/import.cfg"
"$strata" --headless --exec "$small; set world.size_y 4; tp 64 70 64; look 0 -60; set tool.material sandstone; exec $tmp/import.cfg" >"$tmp/out" 2>"$tmp/err"
w1=$(grep '^world_hash=' "$tmp/out" | sed -n 1p); w2=$(grep '^world_hash=' "$tmp/out" | sed -n 2p); w3=$(grep '^world_hash=' "$tmp/out" | sed -n 3p)
[ -n "$w1" ] && [ "$w1" = "$w2" ] || { echo "FAIL a failed import changed the world ($w1 / $w2)"; fail=1; }
[ "$(kv import_voxels)" = 4096 ] && [ "$w3" != "$w2" ] || { echo "FAIL import stamped $(kv import_voxels) voxels ($w2 -> $w3)"; fail=1; }
[ "$(grep '^material.sandstone=' "$tmp/out" | tail -1 | cut -d= -f2)" -ge 4096 ] || { echo "FAIL import did not use tool.material"; fail=1; }
check "tool.mesh cuts with the mesh's shape" 0 "$strata" --headless --exec "$small; tool.mesh $tmp/cube.obj 6; tool.info; cut 64 30 64"
[ "$(kv tool_voxels)" = 216 ] && [ "$(kv cut_voxels)" -gt 150 ] || { echo "FAIL tool.mesh: tool_voxels=$(kv tool_voxels) cut_voxels=$(kv cut_voxels)"; fail=1; }
check "tool.mesh with a bad file keeps the tool" 1 "$strata" --headless --exec "$small; tool.mesh $tmp/bad.obj 6"
# seed 004: voxel grammars; a bad grammar is refused with file:line:col and changes no voxel
check "grammar info" 0 "$strata" --headless --exec "grammar info cave.grammar"
[ "$(kv rules)" = 4 ] && grep -q '^rule.widen=size 4 4 1' "$tmp/out" || { echo "FAIL grammar info: $(head -5 "$tmp/out")"; fail=1; }
# above a mesa's edge, looking down: walls for the overhang rules (WORLDGEN_VERSION 2's desert)
gdesert='set world.stream 0; set world.size_x 4; set world.size_z 4; biome desert; tp 59 75 89; look 0 -89'
check "grammar apply edits around the view" 0 "$strata" --headless --exec "$gdesert; stats; grammar apply overhang.grammar 3; stats"
[ "$(kv changed_voxels)" -gt 0 ] && [ "$(grep '^world_hash=' "$tmp/out" | head -1)" != "$(grep '^world_hash=' "$tmp/out" | tail -1)" ] || { echo "FAIL grammar apply changed nothing: $(grep -E 'changed|matches' "$tmp/out")"; fail=1; }
# the compute-shader derivation gives the CPU's voxels; without compute shaders (or with
# render.gpu 0) grammar apply derives on the CPU, even when render.gpu 1 forces the GPU
gap="$gdesert; set render.gpu G; grammar apply overhang.grammar 3; stats"
check "grammar apply on the CPU (render.gpu 0)" 0 "$strata" --headless --exec "$(echo "$gap" | sed 's/gpu G/gpu 0/')"
cpu_hash=$(kv world_hash); [ "$(kv grammar_path)" = cpu ] || { echo "FAIL render.gpu 0: grammar_path=$(kv grammar_path)"; fail=1; }
check "grammar apply on the GPU (render.gpu 1)" 0 "$strata" --headless --exec "$(echo "$gap" | sed 's/gpu G/gpu 1/')"
[ "$(kv grammar_path)" = gpu ] && [ "$(kv world_hash)" = "$cpu_hash" ] || { echo "FAIL render.gpu 1: grammar_path=$(kv grammar_path), world_hash $(kv world_hash) vs the CPU's $cpu_hash"; fail=1; }
check "no compute: grammar apply falls back to the CPU" 0 env STRATA_GL_NO_COMPUTE=1 "$strata" --headless --exec "$(echo "$gap" | sed 's/gpu G/gpu 1/')"
[ "$(kv grammar_path)" = cpu ] && [ "$(kv world_hash)" = "$cpu_hash" ] && grep -q 'grammars derive on the CPU: the GPU derivation is unavailable' "$tmp/err" || { echo "FAIL no compute: grammar apply: $(kv grammar_path) $(kv world_hash) $(cat "$tmp/err")"; fail=1; }
# the caves pass of a world generated on the GL thread derives on the GPU when render.gpu says
# so, and the world has the same bits as the CPU's (the desert's alcoves stay on the CPU)
check "caves pass on the CPU (render.gpu 0)" 0 "$strata" --headless --exec "set render.gpu 0; $gdesert; grammar stats; stats"
pass_hash=$(kv world_hash); [ "$(kv grammar_gpu_boxes)" = 0 ] || { echo "FAIL render.gpu 0: the caves pass used the GPU"; fail=1; }
check "caves pass on the GPU (render.gpu 1)" 0 "$strata" --headless --exec "set render.gpu 1; $gdesert; grammar stats; stats"
[ "$(kv grammar_gpu_boxes)" -gt 0 ] && [ "$(kv world_hash)" = "$pass_hash" ] || { echo "FAIL caves pass on the GPU: $(kv grammar_gpu_boxes) boxes, world_hash $(kv world_hash) vs the CPU's $pass_hash"; fail=1; }
printf 'rule a\nsize 2 1 1\nsymbol\n GEQ 0.5 XX\n' >"$tmp/bad.grammar"
check "a bad grammar is refused" 1 "$strata" --headless --exec "$gdesert; grammar apply $tmp/bad.grammar"
grep -q "bad.grammar:4:10: unknown symbol operator 'XX'" "$tmp/err" || { echo "FAIL bad grammar message: $(cat "$tmp/err")"; fail=1; }
printf 'stats\ngrammar apply %s\nstats\n' "$tmp/bad.grammar" >"$tmp/bad.cfg"
check "a bad grammar changes no voxel (exec runs on after the failure)" 1 "$strata" --headless --exec "$gdesert; exec $tmp/bad.cfg"
[ "$(grep -c '^world_hash=' "$tmp/out")" = 2 ] && [ "$(grep '^world_hash=' "$tmp/out" | head -1)" = "$(grep '^world_hash=' "$tmp/out" | tail -1)" ] || { echo "FAIL a refused grammar changed the world"; fail=1; }
check "caves.grammar refuses a bad file" 1 "$strata" --headless --exec "set caves.grammar $tmp/bad.grammar"
# rules in abstract terms: a ruleset with materials and slopes applies live; a slope outside 0..90 is refused where it stands
check "grammar apply with materials and slopes" 0 "$strata" --headless --exec "$gdesert; grammar apply alcove.grammar 2"
grep -q '^grammar_matches=' "$tmp/out" || { echo "FAIL grammar apply alcove.grammar: $(head -3 "$tmp/out")"; fail=1; }
printf 'rule a\nsize 1 1 1\nsymbol\n SLOPE 0 91\ntransform\n NOP\nend\n' >"$tmp/slope.grammar"
check "caves.features_desert refuses a slope past 90" 1 "$strata" --headless --exec "set caves.features_desert $tmp/slope.grammar"
grep -q "slope.grammar:4:10: slope 91 is outside 0..90" "$tmp/err" || { echo "FAIL bad slope message: $(cat "$tmp/err")"; fail=1; }

# headless GL's EGL display: Mesa's surfaceless platform first, then an EGL
# device (for an EGL without surfaceless: Mesa offers both), then the default
# display; STRATA_EGL_PLATFORM picks one and says what it got
shot='set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2; tp 64 60 64; look 30 -20'
egl_shot() { # egl_shot PLATFORM FILE: 0 drawn and reported, 1 no such display on this machine, 2 failed
    env STRATA_EGL_PLATFORM="$1" "$strata" --headless --width 160 --height 100 --exec "$shot; screenshot $2" >"$tmp/out" 2>"$tmp/err" &&
        grep -q "^headless GL on EGL $1: " "$tmp/err" && return 0
    grep -q "no EGL display for headless GL on platform $1" "$tmp/err" && return 1
    echo "FAIL EGL $1: $(cat "$tmp/err")"; fail=1; return 2
}
egl_shot surfaceless "$tmp/egl_s.png"; s_rc=$?
egl_shot device "$tmp/egl_d.png"; d_rc=$?
[ $s_rc -eq 1 ] && echo "skip EGL surfaceless: none on this machine"
[ $d_rc -eq 1 ] && echo "skip EGL device: none on this machine"
[ $s_rc -eq 0 ] && [ $d_rc -eq 0 ] && echo "ok   EGL surfaceless and device, each reported"
if [ $s_rc -eq 0 ] && [ $d_rc -eq 0 ] && ! cmp -s "$tmp/egl_s.png" "$tmp/egl_d.png"; then
    echo "FAIL the device display renders another picture than surfaceless"; fail=1
fi
check "EGL unset: no report" 0 env -u STRATA_EGL_PLATFORM "$strata" --headless --width 160 --height 100 --exec "$shot"
! grep -q "headless GL on EGL" "$tmp/err" || { echo "FAIL the platform is reported unasked: $(cat "$tmp/err")"; fail=1; }
check "a bad STRATA_EGL_PLATFORM is refused" 1 env STRATA_EGL_PLATFORM=vulkan "$strata" --headless --exec quit
grep -q "STRATA_EGL_PLATFORM 'vulkan' is not auto, surfaceless, device or default" "$tmp/err" || { echo "FAIL bad platform message: $(cat "$tmp/err")"; fail=1; }

fi

echo "cli_test: $([ $fail -eq 0 ] && echo passed || echo FAILED)"
exit $fail
