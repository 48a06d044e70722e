#!/usr/bin/env python3
##===----------------------------------------------------------------------===##
#
# This source file is part of the photomill open source project
#
# Copyright (c) 2026 the photomill authors
# Licensed under Apache License v2.0
#
# See LICENSE for license information
#
# SPDX-License-Identifier: Apache-2.0
#
##===----------------------------------------------------------------------===##

"""Writes a synthetic camera RAW for scripts/bench-media.sh: an uncompressed 16-bit
RGGB DNG 1.4, byte for byte the layout of Sources/Samples/SyntheticDNG(+TIFF).swift
(the previews laid out as Adobe's DNG Converter lays them out: the first in IFD0, whose
SubIFDs are the raw image and then the other previews; the raw strip last; four flat
quadrants red/green/blue/white as the sensor saw them; a ColorMatrix1 that makes camera
RGB linear sRGB), so that the benchmark needs no test build.

Usage: bench-media-dng.py OUT.dng WIDTH HEIGHT [--orientation N] [--preview FILE]...

--preview embeds FILE as a preview, in the order given: a .jpg as a JPEG (its size read
from its SOF marker), a binary .ppm as uncompressed 8-bit RGB (as the Converter stores its
256-pixel thumbnail). Without any the DNG has no preview and a thumbnail needs a demosaic.
"""
import argparse
import struct
import sys


def ppm(data):
    """(width, height, pixels) of a binary PPM written by vips (P6, maxval 255)."""
    fields, at = [], 2
    while len(fields) < 3:
        while data[at:at + 1].isspace():
            at += 1
        if data[at:at + 1] == b"#":
            at = data.index(b"\n", at)
            continue
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(int(data[at:end]))
        at = end
    return fields[0], fields[1], data[at + 1:]


def jpeg_size(data):
    i = 2
    while i < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    raise SystemExit("preview: no SOF marker")


class Entry:
    def __init__(self, tag, typ, count, value):
        self.tag, self.typ, self.count, self.value = tag, typ, count, value


def byte(tag, values): return Entry(tag, 1, len(values), bytes(values))
def ascii_(tag, text):
    b = text.encode() + b"\0"
    return Entry(tag, 2, len(b), b)
def short(tag, values): return Entry(tag, 3, len(values), struct.pack("<%dH" % len(values), *values))
def long_(tag, values): return Entry(tag, 4, len(values), struct.pack("<%dI" % len(values), *values))
def rationals(tag, values): return Entry(tag, 5, len(values), b"".join(struct.pack("<II", a, b) for a, b in values))
def srationals(tag, values): return Entry(tag, 10, len(values), b"".join(struct.pack("<ii", a, b) for a, b in values))


def encoded_length(entries):
    return 2 + 12 * len(entries) + 4 + sum((len(e.value) + 1) & ~1 for e in entries if len(e.value) > 4)


def encode(entries, offset):
    entries = sorted(entries, key=lambda e: e.tag)
    out = bytearray(struct.pack("<H", len(entries)))
    values = bytearray()
    start = offset + 2 + 12 * len(entries) + 4
    for e in entries:
        out += struct.pack("<HHI", e.tag, e.typ, e.count)
        if len(e.value) <= 4:
            out += e.value + b"\0" * (4 - len(e.value))
        else:
            out += struct.pack("<I", start + len(values))
            values += e.value
            if len(values) % 2:
                values += b"\0"
    return bytes(out) + struct.pack("<I", 0) + bytes(values)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("width", type=int)
    p.add_argument("height", type=int)
    p.add_argument("--orientation", type=int, default=1)
    p.add_argument("--preview", action="append", default=[])
    a = p.parse_args()
    w, h = a.width, a.height
    if w < 64 or h < 64 or w % 2 or h % 2:
        raise SystemExit("even sides of at least 64 pixels")
    previews = []
    for path in a.preview:
        data = open(path, "rb").read()
        if data.startswith(b"P6"):
            pw, ph, pixels = ppm(data)
            previews.append((pw, ph, False, pixels[:pw * ph * 3]))
        else:
            pw, ph = jpeg_size(data)
            previews.append((pw, ph, True, data))
    raw_bytes = w * h * 2
    make, model = "Photomill", "Synthetic RGGB"
    xyz_to_srgb = [3.240479, -1.537150, -0.498535, -0.969256, 1.875992, 0.041556,
                   0.055648, -0.204043, 1.057311]
    dng = [ascii_(271, make), ascii_(272, model), short(274, [a.orientation]),
           byte(50706, [1, 4, 0, 0]), byte(50707, [1, 1, 0, 0]), ascii_(50708, f"{make} {model}"),
           srationals(50721, [(round(v * 1_000_000), 1_000_000) for v in xyz_to_srgb]),
           rationals(50728, [(1, 1)] * 3), short(50778, [21])]

    def raw_entries(strip):
        return [long_(254, [0]), long_(256, [w]), long_(257, [h]), short(258, [16]), short(259, [1]),
                short(262, [32803]), long_(273, [strip]), short(277, [1]), long_(278, [h]),
                long_(279, [raw_bytes]), short(284, [1]), short(33421, [2, 2]), byte(33422, [0, 1, 1, 2]),
                long_(50717, [65535])]

    def preview_entries(preview, offset):
        pw, ph, jpeg, data = preview
        return [long_(254, [1]), long_(256, [pw]), long_(257, [ph]), short(258, [8, 8, 8]),
                short(259, [7 if jpeg else 1]), short(262, [6 if jpeg else 2]), long_(273, [offset]),
                short(277, [3]), long_(278, [ph]), long_(279, [len(data)]), short(284, [1])]

    def directories(sub_ifds, data_at, strip):
        raw = raw_entries(strip)
        if not previews:
            return [raw + dng]
        stored = [preview_entries(p, at) for p, at in zip(previews, data_at)]
        return [stored[0] + dng + [long_(330, sub_ifds)], raw] + stored[1:]

    measured = directories([0] * len(previews), [0] * len(previews), 0)
    end = 8 + encoded_length(measured[0])
    sub_ifds = []
    for directory in measured[1:]:
        sub_ifds.append(end)
        end += encoded_length(directory)
    data_at = []
    for p in previews:
        data_at.append(end)
        end = (end + len(p[3]) + 1) & ~1
    strip = end
    final = directories(sub_ifds, data_at, strip)
    head = bytearray(b"II*\0" + struct.pack("<I", 8))
    head += encode(final[0], 8)
    for directory, at in zip(final[1:], sub_ifds):
        head += encode(directory, at)
    for p, at in zip(previews, data_at):
        head += b"\0" * (at - len(head)) + p[3]
    head += b"\0" * (strip - len(head))

    linear = {"tl": (0.80, 0.03, 0.03), "tr": (0.03, 0.80, 0.03),
              "bl": (0.03, 0.03, 0.80), "br": (0.85, 0.85, 0.85)}

    def row(parity, lower):
        left, right = (linear["bl"], linear["br"]) if lower else (linear["tl"], linear["tr"])
        out = bytearray()
        for half, colour in ((0, left), (1, right)):
            c = [round(v * 65535) for v in colour]
            pair = (c[0], c[1]) if parity == 0 else (c[1], c[2])
            out += struct.pack("<HH", *pair) * (w // 4)
        return bytes(out)

    # w/2 per half is even when w % 4 == 0; otherwise fall back to per-pixel rows.
    if w % 4:
        def row(parity, lower):  # noqa: F811
            left, right = (linear["bl"], linear["br"]) if lower else (linear["tl"], linear["tr"])
            out = bytearray()
            for x in range(w):
                colour = left if x < w // 2 else right
                ch = (0 if x % 2 == 0 else 1) if parity == 0 else (1 if x % 2 == 0 else 2)
                out += struct.pack("<H", round(colour[ch] * 65535))
            return bytes(out)
    rows = [row(p, lower) for lower in (False, True) for p in (0, 1)]
    with open(a.out, "wb") as f:
        f.write(head)
        for y0 in range(0, h, 64):
            f.write(b"".join(rows[(y % 2) + (2 if y >= h // 2 else 0)] for y in range(y0, min(h, y0 + 64))))


if __name__ == "__main__":
    sys.exit(main())
