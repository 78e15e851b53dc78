#!/usr/bin/python3
"""Draws the players' site's app icons (docs/web.md) as PNG files: a corner
of the board on the board's paper colour, a red stone, a blue stone and a
red wall, inside the middle 80 % (the safe zone of a maskable icon, which a
phone may cut to a circle). Standard library only (zlib), so that
tools/web/build.sh needs nothing more.

    tools/web/make_icons.py OUT_DIR      writes icon-192.png and icon-512.png
"""
import argparse
import os
import struct
import zlib

PAPER = (0xF6, 0xF1, 0xE6)
GRID = (0xB9, 0xAB, 0x8C)
RIM = (0x4A, 0x3F, 0x2A)
RED = (0xD5, 0x5E, 0x00)
BLUE = (0x00, 0x72, 0xB2)
INK = (0x22, 0x22, 0x22)


def shapes(size):
    """The icon as (test(x, y) -> bool, colour) layers, last on top, in
    pixel units of a `size` square."""
    u = size / 10  # the motif spans units 1..9 (the safe zone)
    cells = [1 + 8 * i / 3 for i in range(4)]  # a 3x3 corner of the board

    def near(value, lines, half):
        return any(abs(value - line) <= half for line in lines)

    def grid(x, y):
        inside = cells[0] * u <= x <= cells[3] * u and cells[0] * u <= y <= cells[3] * u
        return inside and (near(x / u, cells, 0.06) or near(y / u, cells, 0.06))

    def rim(x, y):
        inside = cells[0] * u - 0.15 * u <= x <= cells[3] * u + 0.15 * u and \
            cells[0] * u - 0.15 * u <= y <= cells[3] * u + 0.15 * u
        return inside and (x / u < cells[0] + 0.15 or y / u > cells[3] - 0.15 or
                           x / u > cells[3] - 0.15 or y / u < cells[0] + 0.15)

    def centre(col, row):
        return ((cells[col] + cells[col + 1]) / 2 * u, (cells[row] + cells[row + 1]) / 2 * u)

    def disc(col, row, radius):
        cx, cy = centre(col, row)
        return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= (radius * u) ** 2

    def square(col, row, half):
        cx, cy = centre(col, row)
        return lambda x, y: abs(x - cx) <= half * u and abs(y - cy) <= half * u

    def wall(x, y):  # the east side of the red stone's cell
        return abs(x / u - cells[1]) <= 0.22 and cells[1] - 0.1 <= y / u <= cells[2] + 0.1

    return [
        (grid, GRID), (rim, RIM),
        (disc(0, 1, 1.05), INK), (disc(0, 1, 0.95), RED), (wall, RED),
        (square(2, 2, 0.9), INK), (square(2, 2, 0.8), BLUE),
    ]


def render(size):
    """Rows of RGB bytes, each pixel sampled 2x2 for smoother edges."""
    layers = shapes(size)
    offsets = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
    rows = []
    for y in range(size):
        row = bytearray([0])  # PNG filter type: none
        for x in range(size):
            total = [0, 0, 0]
            for dx, dy in offsets:
                colour = PAPER
                for test, paint in layers:
                    if test(x + dx, y + dy):
                        colour = paint
                for i in range(3):
                    total[i] += colour[i]
            row += bytes(round(c / len(offsets)) for c in total)
        rows.append(bytes(row))
    return rows


def png(size):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
            chunk(b"IDAT", zlib.compress(b"".join(render(size)), 9)) + chunk(b"IEND", b""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="folder for icon-192.png and icon-512.png")
    args = parser.parse_args()
    for size in (192, 512):
        with open(os.path.join(args.out, f"icon-{size}.png"), "wb") as f:
            f.write(png(size))


if __name__ == "__main__":
    main()
