#!/usr/bin/env python3
"""Counts pixels of a PNG region for the windowed tests' measurements.

usage: png_region.py FILE X0 Y0 X1 Y1  (pixels, top-left origin, X1 Y1 excluded)
prints key=value lines: pixels, dark (every channel < 60), mean_r/g/b.
Reads 8-bit RGB or RGBA PNGs (what `screenshot` writes) with the standard
library only."""
import struct
import sys
import zlib


def rows(path):
    data = open(path, 'rb').read()
    at, idat, width, bpp = 8, [], 0, 3
    while at < len(data):
        size, kind = struct.unpack('>I4s', data[at:at + 8])
        body = data[at + 8:at + 8 + size]
        if kind == b'IHDR':
            width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit(f'{path}: only 8-bit RGB or RGBA')
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat.append(body)
        at += 12 + size
    raw, stride = zlib.decompress(b''.join(idat)), width * bpp
    above = bytearray(stride)
    for y in range(len(raw) // (stride + 1)):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = above[i], above[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        above = line
        yield [tuple(line[x * bpp:x * bpp + 3]) for x in range(width)]


def main():
    path, x0, y0, x1, y1 = sys.argv[1], *map(int, sys.argv[2:6])
    n = dark = 0
    total = [0, 0, 0]
    for y, line in enumerate(rows(path)):
        if y0 <= y < y1:
            for r, g, b in line[x0:x1]:
                n += 1
                dark += r < 60 and g < 60 and b < 60
                total[0] += r
                total[1] += g
                total[2] += b
    print(f'pixels={n}')
    print(f'dark={dark}')
    for k, c in zip('rgb', total):
        print(f'mean_{k}={c // max(n, 1)}')


main()
