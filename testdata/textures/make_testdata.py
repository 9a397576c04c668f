#!/usr/bin/env python3
"""Writes the PNG, custom-format texture and height field files of testdata/textures.

Only the Python standard library is used (zlib for compression). Every PNG `x.png` meant as a
texture gets `x.rgb` beside it: the pixels a decoder must produce, in MuJoCo's custom texture
format (int32 width, int32 height, then width*height RGB bytes), written from the same pixel
values the PNG was made from. Run from this directory: python3 make_testdata.py
"""
import random
import struct
import zlib

RNG = random.Random(20221216)
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xffffffff)


def pack_samples(values, depth):
    if depth == 8:
        return bytes(values)
    if depth == 16:
        return b''.join(struct.pack('>H', v) for v in values)
    out, acc, n, per = bytearray(), 0, 0, 8 // depth
    for v in values:
        acc, n = (acc << depth) | v, n + 1
        if n == per:
            out.append(acc)
            acc, n = 0, 0
    if n:
        out.append(acc << (depth * (per - n)))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_lines(lines, bpp, filters):
    out, prev = bytearray(), bytes(len(lines[0]))
    for i, line in enumerate(lines):
        kind = filters[i % len(filters)]
        out.append(kind)
        for x, v in enumerate(line):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            pred = [0, a, b, (a + b) >> 1, paeth(a, b, c)][kind]
            out.append((v - pred) & 255)
        prev = line
    return bytes(out)


def png_bytes(samples, ctype, depth, palette=None, trns=None, interlace=False, filters=(0, 1, 2, 3, 4),
              level=6, strategy=zlib.Z_DEFAULT_STRATEGY, idat_size=None, text_between=False):
    """samples[row][col] is a tuple of channel values (a palette index for ctype 3)."""
    h, w = len(samples), len(samples[0])
    bpp = max(1, CHANNELS[ctype] * depth // 8)

    def line(row):
        return pack_samples([v for px in row for v in px], depth)

    if interlace:
        raw = b''
        for x0, y0, dx, dy in ADAM7:
            sub = [[samples[y][x] for x in range(x0, w, dx)] for y in range(y0, h, dy)]
            sub = [r for r in sub if r]
            if sub:
                raw += filter_lines([line(r) for r in sub], bpp, filters)
    else:
        raw = filter_lines([line(r) for r in samples], bpp, filters)
    comp = zlib.compressobj(level, zlib.DEFLATED, 15, 9, strategy)
    data = comp.compress(raw) + comp.flush()
    out = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, int(interlace)))
    out += chunk(b'tEXt', b'Comment\x00joco test image')
    if palette:
        out += chunk(b'PLTE', bytes(v for rgb in palette for v in rgb))
    if trns is not None:
        out += chunk(b'tRNS', trns)
    size = idat_size or len(data)
    for i in range(0, len(data), size):
        out += chunk(b'IDAT', data[i:i + size])
        if text_between and i + size < len(data):
            out += chunk(b'tEXt', b'Between\x00IDAT chunks')
    return out + chunk(b'IEND', b'')


def expected_rgb(samples, ctype, depth, palette=None):
    """The 8-bit RGB a decoder must produce: high byte of 16-bit samples, low-depth grey scaled to
    0-255, alpha dropped, palette indices past the palette's end black."""
    out = bytearray()
    for row in samples:
        for px in row:
            if ctype == 3:
                out += bytes(palette[px[0]]) if px[0] < len(palette) else b'\0\0\0'
                continue
            vals = [v >> 8 if depth == 16 else v for v in px]
            if ctype in (0, 4):
                g = vals[0] * 255 // ((1 << depth) - 1) if depth < 8 else vals[0]
                out += bytes([g, g, g])
            else:
                out += bytes(vals[:3])
    return out


def custom_texture(w, h, rgb):
    return struct.pack('<ii', w, h) + bytes(rgb)


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def texture_png(name, samples, ctype, depth, palette=None, **kw):
    write(f'png/{name}.png', png_bytes(samples, ctype, depth, palette=palette, **kw))
    write(f'png/{name}.rgb', custom_texture(len(samples[0]), len(samples), expected_rgb(samples, ctype, depth, palette)))


def noise_image(w, h, ctype, depth, smooth=False):
    top = (1 << depth) - 1
    rows = []
    for r in range(h):
        row = []
        for c in range(w):
            if smooth:  # compressible: gradients with a little noise
                px = tuple(min(top, (r * 7 + c * 3 + k * 50) * top // 700 + RNG.randint(0, top // 64)) for k in range(CHANNELS[ctype]))
            else:
                px = tuple(RNG.randint(0, top) for _ in range(CHANNELS[ctype]))
            row.append(px)
        rows.append(row)
    return rows


def main():
    import os
    os.makedirs('png', exist_ok=True)
    os.makedirs('hf', exist_ok=True)
    os.makedirs('faces', exist_ok=True)
    # every colour type and bit depth
    for ctype, depths in [(0, (1, 2, 4, 8, 16)), (2, (8, 16)), (4, (8, 16)), (6, (8, 16))]:
        for depth in depths:
            texture_png(f'c{ctype}_d{depth}', noise_image(13, 7, ctype, depth), ctype, depth)
    for depth in (1, 2, 4, 8):
        n = 1 << depth
        palette = [(RNG.randint(0, 255), RNG.randint(0, 255), RNG.randint(0, 255)) for _ in range(min(n, 200) - (depth == 2))]
        samples = [[(RNG.randint(0, n - 1),) for c in range(11)] for r in range(6)]  # some indices past a short palette
        trns = bytes(RNG.randint(0, 255) for _ in range(len(palette) // 2)) if depth == 8 else None
        texture_png(f'c3_d{depth}', samples, 3, depth, palette=palette, trns=trns)
    # Adam7, including images so small that some passes are empty
    for name, (w, h), ctype, depth in [('adam7_rgb8', (13, 11), 2, 8), ('adam7_grey1', (5, 3), 0, 1),
                                       ('adam7_pal4_1x1', (1, 1), 3, 4), ('adam7_rgba16', (3, 2), 6, 16),
                                       ('adam7_grey8', (9, 9), 0, 8), ('adam7_ga8', (2, 7), 4, 8)]:
        palette = [(10, 20, 30), (40, 50, 60)] if ctype == 3 else None
        samples = [[(RNG.randint(0, 1),) for _ in range(w)] for _ in range(h)] if ctype == 3 else noise_image(w, h, ctype, depth)
        texture_png(name, samples, ctype, depth, palette=palette, interlace=True)
    # one filter type per image, and the three kinds of DEFLATE block
    for f in range(5):
        texture_png(f'filter{f}', noise_image(13, 7, 2, 8, smooth=True), 2, 8, filters=(f,))
    texture_png('deflate_stored', noise_image(9, 5, 6, 8), 6, 8, level=0)
    texture_png('deflate_fixed', noise_image(9, 5, 2, 8, smooth=True), 2, 8, strategy=zlib.Z_FIXED)
    texture_png('deflate_dynamic', noise_image(16, 16, 2, 8, smooth=True), 2, 8, level=9)
    texture_png('idat_split', noise_image(11, 9, 2, 8, smooth=True), 2, 8, idat_size=7, text_between=True)
    # big enough for several DEFLATE blocks, long matches and (stored) blocks of 65535 bytes
    big = noise_image(200, 150, 2, 8, smooth=True)
    texture_png('big_dynamic', big, 2, 8)
    texture_png('big_stored', big, 2, 8, level=0)

    # cube and skybox sources: one square image, a 3 x 4 grid of 4 x 4 cells, six face files
    texture_png('cube_single', noise_image(8, 8, 2, 8), 2, 8)
    grid = [[(16 * (r // 4) + (c // 4), 16 * (r % 4) + (c % 4), 200) for c in range(16)] for r in range(12)]
    texture_png('cube_grid', grid, 2, 8)
    for i, face in enumerate(['right', 'left', 'up', 'down', 'front', 'back']):
        pixels = [[(40 * i, 16 * r + c, 255 - 40 * i) for c in range(4)] for r in range(4)]
        if face == 'down':  # one face in the custom format
            write(f'faces/{face}.rgb', custom_texture(4, 4, [v for row in pixels for px in row for v in px]))
        else:
            write(f'faces/{face}.png', png_bytes([[px for px in row] for row in pixels], 2, 8))
    write('faces/odd.png', png_bytes(noise_image(3, 3, 2, 8), 2, 8))
    write('png/custom_5x3.rgb', custom_texture(5, 3, [RNG.randint(0, 255) for _ in range(45)]))

    # height fields from PNGs (grey, colour: the red channel counts, 16-bit, palette) ...
    write('hf/grey8.png', png_bytes(noise_image(9, 6, 0, 8), 0, 8))
    write('hf/rgb8.png', png_bytes(noise_image(7, 5, 2, 8), 2, 8))
    write('hf/grey16.png', png_bytes(noise_image(6, 4, 0, 16), 0, 16))
    write('hf/pal4.png', png_bytes([[(RNG.randint(0, 15),) for _ in range(5)] for _ in range(5)], 3, 4,
                                   palette=[(RNG.randint(0, 255), 0, 0) for _ in range(16)]))
    write('hf/flat.png', png_bytes([[(77,)] * 4] * 3, 0, 8))
    # ... and from MuJoCo's binary format (int32 nrow, int32 ncol, float32 data)
    def hfield_bin(name, nrow, ncol, values):
        write(f'hf/{name}.bin', struct.pack('<ii', nrow, ncol) + struct.pack(f'<{nrow * ncol}f', *values))
    hfield_bin('random', 5, 8, [RNG.uniform(-3, 7) for _ in range(40)])
    hfield_bin('beyond_1e10', 2, 3, [2e10, 3e10, 5e10, 4e10, 2.5e10, 6e10])  # above MuJoCo's initial minimum
    hfield_bin('negative', 3, 2, [-5e10, -4e10, -3e10, -2e10, -1.5e10, -2.5e10])
    hfield_bin('tiny_range', 2, 2, [1e-20, 2e-20, 3e-20, 1.5e-20])  # range below 1e-15: not divided
    hfield_bin('constant', 2, 3, [4.5] * 6)
    write('png/mixed_case.PnG', png_bytes(noise_image(3, 2, 2, 8), 2, 8))  # a PNG whatever the case


if __name__ == '__main__':
    main()
