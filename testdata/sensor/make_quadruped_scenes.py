#!/usr/bin/env python3
"""Writes the assets of quadruped_hfield.xml and quadruped_mesh.xml (rangefinder speed and oracle
models): quadruped_terrain.png, a 201x201 8-bit grey height map of smooth hills with fine ripples,
and bumpy_rock.obj, a closed non-convex rock of 4,800 triangles. Only the Python standard library
is used. Run from this directory: python3 make_quadruped_scenes.py
"""
import math
import struct
import zlib


def chunk(kind, data):
    body = kind + data
    return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xffffffff)


def terrain_png(path, n):
    rows = []
    for r in range(n):
        line = bytearray([0])  # filter type 0 (none)
        for c in range(n):
            x, y = 20.0 * c / (n - 1) - 10, 20.0 * r / (n - 1) - 10
            h = 0.5 + 0.3 * math.sin(0.7 * x) * math.cos(0.5 * y) + 0.1 * math.sin(3.1 * x + 2.3 * y)
            h += 0.05 * math.sin(7.3 * x) * math.sin(6.1 * y)
            line.append(max(0, min(255, round(255 * h))))
        rows.append(bytes(line))
    ihdr = struct.pack('>IIBBBBB', n, n, 8, 0, 0, 0, 0)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) +
                chunk(b'IDAT', zlib.compress(b''.join(rows), 9)) + chunk(b'IEND', b''))


def rock_obj(path, nlat, nlon):
    verts = [(0.0, 0.0, 1.0)]
    for i in range(1, nlat):
        theta = math.pi * i / nlat
        for j in range(nlon):
            phi = 2 * math.pi * j / nlon
            r = 1 + 0.15 * math.sin(3 * theta) * math.cos(5 * phi) + 0.05 * math.sin(11 * phi + 4 * theta)
            verts.append((r * math.sin(theta) * math.cos(phi), r * math.sin(theta) * math.sin(phi),
                          r * math.cos(theta)))
    verts.append((0.0, 0.0, -1.0))
    last = len(verts) - 1

    def ring(i, j):  # vertex of latitude ring i (1..nlat-1), longitude j, 1-based for OBJ
        return 2 + (i - 1) * nlon + j % nlon

    faces = []
    for j in range(nlon):
        faces.append((1, ring(1, j), ring(1, j + 1)))
        faces.append((last + 1, ring(nlat - 1, j + 1), ring(nlat - 1, j)))
    for i in range(1, nlat - 1):
        for j in range(nlon):
            a, b, c, d = ring(i, j), ring(i, j + 1), ring(i + 1, j), ring(i + 1, j + 1)
            faces.append((a, c, d))
            faces.append((a, d, b))
    with open(path, 'w') as f:
        f.write('# bumpy rock, written by make_quadruped_scenes.py\n')
        for v in verts:
            f.write('v %.6f %.6f %.6f\n' % v)
        for t in faces:
            f.write('f %d %d %d\n' % t)


terrain_png('quadruped_terrain.png', 201)
rock_obj('bumpy_rock.obj', 41, 60)
