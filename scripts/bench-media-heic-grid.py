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

"""Assembles a grid HEIC for scripts/bench-media.sh from tiles heif-enc encoded, in the
layout of Sources/PhotoProcessing/HEIF/HEIFGridFile.swift (which the tests check with
exiftool, heif-info and libheif): a `grid` item as the primary image (its size, and the
first tile's colr and pixi), the tiles hidden hvc1 items referred to in order (dimg), an
optional EXIF item and thumbnail before the tiles' data. heif-enc 1.15 writes no grids.

Usage: bench-media-heic-grid.py OUT.heic WIDTH HEIGHT COLUMNS ROWS TILE.heic... \
           [--thumbnail THUMB.heic]
The tiles are one-image HEICs of equal size, row after row.
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Media"))
from bmff import boxes as bmff_boxes  # noqa: E402


def boxes(data, start, end):
    """Each whole box in data[start:end]: (type, start, payload start, end)."""
    for kind, at, header, size in bmff_boxes(data, start, end):
        if size < header or at + size > end:
            break
        yield kind, at, at + header, at + size


def image(path):
    """(properties [(box bytes, essential)], coded bytes) of a one-image HEIC's primary item."""
    data = open(path, "rb").read()
    meta = next(b for b in boxes(data, 0, len(data)) if b[0] == "meta")
    children = {b[0]: b for b in boxes(data, meta[2] + 4, meta[3])}
    pitm = children["pitm"]
    primary = struct.unpack(">H", data[pitm[2] + 4:pitm[2] + 6])[0]
    iprp = {b[0]: b for b in boxes(data, children["iprp"][2], children["iprp"][3])}
    ipco = [data[b[1]:b[3]] for b in boxes(data, iprp["ipco"][2], iprp["ipco"][3])]
    ipma = iprp["ipma"]
    version, flags = data[ipma[2]], struct.unpack(">I", data[ipma[2]:ipma[2] + 4])[0] & 0xFFFFFF
    at = ipma[2] + 8
    properties = None
    for _ in range(struct.unpack(">I", data[ipma[2] + 4:ipma[2] + 8])[0]):
        item = struct.unpack(">H" if version < 1 else ">I", data[at:at + (2 if version < 1 else 4)])[0]
        at += 2 if version < 1 else 4
        n = data[at]
        at += 1
        found = []
        for _ in range(n):
            if flags & 1:
                raw = struct.unpack(">H", data[at:at + 2])[0]
                at += 2
                index, essential = raw & 0x7FFF, bool(raw & 0x8000)
            else:
                index, essential = data[at] & 0x7F, bool(data[at] & 0x80)
                at += 1
            if index:
                found.append((ipco[index - 1], essential))
        if item == primary and properties is None:
            properties = found
    iloc = children["iloc"]
    at = iloc[2]
    version = data[at]
    offset_size, length_size = data[at + 4] >> 4, data[at + 4] & 15
    base_size, index_size = data[at + 5] >> 4, (data[at + 5] & 15) if version >= 1 else 0
    at += 6
    count = struct.unpack(">H", data[at:at + 2])[0] if version < 2 else struct.unpack(">I", data[at:at + 4])[0]
    at += 2 if version < 2 else 4

    def number(size):
        nonlocal at
        value = int.from_bytes(data[at:at + size], "big") if size else 0
        at += size
        return value
    for _ in range(count):
        item = number(2 if version < 2 else 4)
        method = number(2) & 15 if version >= 1 else 0
        number(2)
        base = number(base_size)
        coded = b""
        for _ in range(number(2)):
            number(index_size)
            offset, length = number(offset_size), number(length_size)
            coded += data[base + offset:base + offset + length]
        if item == primary:
            assert method == 0, f"{path}: item data in idat"
            return properties, coded
    raise SystemExit(f"{path}: no location for the primary item")


def box(kind, payload):
    return struct.pack(">I", len(payload) + 8) + kind.encode() + payload


def full_box(kind, payload, version=0, flags=0):
    return box(kind, bytes([version]) + flags.to_bytes(3, "big") + payload)


def heif(primary, items, references):
    """HEIFWriter.bytes(): items are (id, type, hidden, [(property box, essential)], data)."""
    def meta(data_start):
        hdlr = full_box("hdlr", b"\0" * 4 + b"pict" + b"\0" * 13)
        pitm = full_box("pitm", struct.pack(">H", primary))
        iinf = full_box("iinf", struct.pack(">H", len(items)) + b"".join(
            full_box("infe", struct.pack(">HH", i[0], 0) + i[1].encode() + b"\0", version=2, flags=1 if i[2] else 0)
            for i in items))
        entries, offset = b"", data_start
        for i in items:
            entries += struct.pack(">HHHII", i[0], 0, 1, offset, len(i[4]))
            offset += len(i[4])
        iloc = full_box("iloc", b"\x44\x00" + struct.pack(">H", len(items)) + entries)
        ipco, ipma = [], struct.pack(">I", len(items))
        for i in items:
            ipma += struct.pack(">HB", i[0], len(i[3]))
            for prop, essential in i[3]:
                if prop not in ipco:
                    ipco.append(prop)
                ipma += struct.pack(">H", (ipco.index(prop) + 1) | (0x8000 if essential else 0))
        iprp = box("iprp", box("ipco", b"".join(ipco)) + full_box("ipma", ipma, flags=1))
        iref = full_box("iref", b"".join(box(kind, struct.pack(">HH", source, len(to)) + b"".join(struct.pack(">H", t) for t in to))
                                         for kind, source, to in references)) if references else b""
        return full_box("meta", hdlr + pitm + iinf + iref + iprp + iloc)
    ftyp = box("ftyp", b"heic" + b"\0" * 4 + b"mif1heic")
    start = len(ftyp) + len(meta(0)) + 8
    return ftyp + meta(start) + box("mdat", b"".join(i[4] for i in items))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("width", type=int)
    p.add_argument("height", type=int)
    p.add_argument("columns", type=int)
    p.add_argument("rows", type=int)
    p.add_argument("tiles", nargs="+")
    p.add_argument("--thumbnail")
    a = p.parse_args()
    if len(a.tiles) != a.columns * a.rows:
        raise SystemExit(f"{len(a.tiles)} tiles for a {a.columns}x{a.rows} grid")
    items, grid_properties = [], []
    for index, path in enumerate(a.tiles):
        properties, coded = image(path)
        kind = lambda prop: prop[4:8].decode("latin-1")
        if index == 0:
            grid_properties = [q for q in properties if kind(q[0]) in ("colr", "pixi")]
        items.append((index + 2, "hvc1", True, [q for q in properties if kind(q[0]) in ("hvcC", "ispe")], coded))
    wide = a.width > 0xFFFF or a.height > 0xFFFF
    size = struct.pack(">II" if wide else ">HH", a.width, a.height)
    grid = (1, "grid", False, [(full_box("ispe", struct.pack(">II", a.width, a.height)), False)] + grid_properties,
            bytes([0, 1 if wide else 0, a.rows - 1, a.columns - 1]) + size)
    references = [("dimg", 1, [i[0] for i in items])]
    front = []
    if a.thumbnail:
        properties, coded = image(a.thumbnail)
        front.append((len(a.tiles) + 2, "hvc1", False, properties, coded))
        references.append(("thmb", len(a.tiles) + 2, [1]))
    with open(a.out, "wb") as f:
        f.write(heif(1, [grid] + front + items, references))


if __name__ == "__main__":
    main()
