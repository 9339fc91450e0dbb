#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Print how many distinct pixel colours a PNG has (8-bit RGB or RGBA,
not interlaced): a blank screenshot has one. Only the standard library."""
import struct
import sys
import zlib


def rows(data, width, bpp):
    stride = width * bpp
    prev = bytearray(stride)
    i = 0
    while i < len(data):
        kind, line = data[i], bytearray(data[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        yield line
        prev = line


def main(path):
    blob = open(path, 'rb').read()
    if blob[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('not a PNG')
    pos, idat = 8, b''
    while pos < len(blob):
        n, kind = struct.unpack('>I4s', blob[pos:pos + 8])
        body = blob[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            width, height, depth, ctype, _, _, lace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or lace:
        sys.exit('unsupported PNG: depth %d, colour type %d' % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    colours = set()
    for line in rows(zlib.decompress(idat), width, bpp):
        for x in range(0, len(line), bpp * 7):
            colours.add(bytes(line[x:x + 3]))
    print(len(colours))


main(sys.argv[1])
