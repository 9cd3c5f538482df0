#!/usr/bin/env bash
# The windowed game shows an unusable world file on screen, not only on
# stderr: started on a file of random bytes, the first frame
# carries an error line (the console's error colour) among the recent
# messages at the top; started on a good world, it carries none.
# Run under a virtual X server (tests/CMakeLists.txt).
set -u
strata=$1
. "$(dirname "$0")/cli_lib.sh" # tmp, fail, check
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
small="set world.stream 0; set world.size_x 4; set world.size_z 4; set world.size_y 2; set tool.visible 0" # the ghost is drawn in red too

# pixels of the error colour (console_view_color(CONSOLE_ERROR), 255 105 100)
# in the top 16 rows of a PNG: the recent-messages line
error_pixels() {
    python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        bpp = {2: 3, 6: 4}[ctype]
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw, stride, prev, count = zlib.decompress(idat), w * bpp, bytearray(w * bpp), 0
for y in range(16):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pred = [0, a, b, (a + b) // 2,
                a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][f]
        line[i] = (line[i] + pred) & 255
    count += sum(1 for x in range(w) if line[x * bpp] > 200 and line[x * bpp + 1] < 150 and line[x * bpp + 2] < 150)
    prev = line
print(count)
PY
}

head -c 20000 /dev/urandom >"$tmp/bad.strata"
check "window on random bytes" 0 "$strata" --width 480 --height 240 --world "$tmp/bad.strata" --exec "$small; screenshot $tmp/bad.png; quit"
check "window on a good world" 0 "$strata" --width 480 --height 240 --world "$tmp/good.strata" --exec "$small; screenshot $tmp/good.png; quit"
bad=$(error_pixels "$tmp/bad.png"); good=$(error_pixels "$tmp/good.png")
[ "${bad:-0}" -gt 30 ] && [ "${good:-1}" -eq 0 ] && echo "ok   the unusable world is an error on screen ($bad pixels; $good on a good world)" ||
    { echo "FAIL error pixels at the top: ${bad:-?} on random bytes, ${good:-?} on a good world"; fail=1; }
exit $fail
