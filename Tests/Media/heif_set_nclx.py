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

"""Gives every image item of a HEIF file an `nclx` colour property (ISO/IEC 23008-12
`colr`, H.273 code points), as cameras write it: libheif 1.15's heif-enc takes
--colour_primaries and --transfer_characteristic but writes no `colr` box.

    heif_set_nclx.py IN OUT PRIMARIES TRANSFER MATRIX FULL_RANGE

Edits the boxes as the standard lays them out, independently of photomill: appends the
property to `ipco`, associates it with each image item in `ipma`, grows the enclosing
boxes, and moves every `iloc` offset that pointed past the `meta` box by the bytes added.
"""
import struct
import sys

from bmff import box, boxes


def read_uint(data, at, size):
    return int.from_bytes(data[at:at + size], "big") if size else 0


def main():
    source, target = sys.argv[1], sys.argv[2]
    primaries, transfer, matrix, full = (int(v) for v in sys.argv[3:7])
    data = bytearray(open(source, "rb").read())
    meta = next(b for b in boxes(data, 0, len(data)) if b[0] == "meta")
    meta_end = meta[1] + meta[3]
    children = {kind: (at, header, size) for kind, at, header, size in boxes(data, meta[1] + meta[2] + 4, meta_end)}
    image_items = []
    at, header, size = children["iinf"]
    version = data[at + header]
    entries_at = at + header + 4 + (2 if version == 0 else 4)
    for kind, infe, infe_header, infe_size in boxes(data, entries_at, at + size):
        infe_version = data[infe + infe_header]
        body = infe + infe_header + 4
        item = read_uint(data, body, 2 if infe_version == 2 else 4)
        item_type = bytes(data[body + (4 if infe_version == 2 else 6):][:4]).decode("latin-1")
        if item_type in ("hvc1", "av01", "grid", "iden", "iovl", "jpeg"):
            image_items.append(item)

    iprp_at, iprp_header, iprp_size = children["iprp"]
    parts = {kind: (at, header, size) for kind, at, header, size in boxes(data, iprp_at + iprp_header, iprp_at + iprp_size)}
    ipco_at, ipco_header, ipco_size = parts["ipco"]
    count = sum(1 for _ in boxes(data, ipco_at + ipco_header, ipco_at + ipco_size))
    colr = box("colr", b"nclx" + struct.pack(">HHHB", primaries, transfer, matrix, 0x80 if full else 0))
    ipco = box("ipco", bytes(data[ipco_at + ipco_header:ipco_at + ipco_size]) + colr)
    index = count + 1

    ipma_at, ipma_header, ipma_size = parts["ipma"]
    ipma = data[ipma_at + ipma_header:ipma_at + ipma_size]
    version, flags = ipma[0], int.from_bytes(ipma[1:4], "big")
    wide = flags & 1
    out = bytearray(ipma[:4] + ipma[4:8])
    at = 8
    for _ in range(int.from_bytes(ipma[4:8], "big")):
        id_size = 2 if version < 1 else 4
        item = read_uint(ipma, at, id_size)
        n = ipma[at + id_size]
        length = id_size + 1 + n * (2 if wide else 1)
        entry = bytearray(ipma[at:at + length])
        if item in image_items:
            entry[id_size] = n + 1
            entry += struct.pack(">H", index) if wide else bytes([index])
        out += entry
        at += length
    new_ipma = box("ipma", bytes(out))
    others = b"".join(bytes(data[a:a + s]) for k, (a, h, s) in sorted(parts.items(), key=lambda p: p[1][0])
                      if k not in ("ipco", "ipma"))
    iprp = box("iprp", ipco + new_ipma + others)

    meta_children = []
    for kind, (at, header, size) in sorted(children.items(), key=lambda c: c[1][0]):
        meta_children.append(iprp if kind == "iprp" else bytes(data[at:at + size]))
    new_meta_payload = bytes(data[meta[1] + meta[2]:meta[1] + meta[2] + 4]) + b"".join(meta_children)
    new_meta = box("meta", new_meta_payload)
    delta = len(new_meta) - meta[3]

    # Shift iloc offsets that point past the old meta box.
    iloc_index = [k for k, *_ in sorted(children.items(), key=lambda c: c[1][0])].index("iloc")
    iloc = bytearray(meta_children[iloc_index])
    body = 8
    version = iloc[body]
    sizes, sizes2 = iloc[body + 4], iloc[body + 5]
    offset_size, length_size, base_size = sizes >> 4, sizes & 15, sizes2 >> 4
    index_size = sizes2 & 15 if version in (1, 2) else 0
    at = body + 6
    count_size = 2 if version < 2 else 4
    items = read_uint(iloc, at, count_size)
    at += count_size

    def shift(position, size):
        value = read_uint(iloc, position, size)
        if size and value >= meta_end:
            iloc[position:position + size] = (value + delta).to_bytes(size, "big")

    for _ in range(items):
        at += 2 if version < 2 else 4
        method = 0
        if version in (1, 2):
            method = iloc[at + 1] & 15
            at += 2
        at += 2  # data_reference_index
        if method == 0:
            shift(at, base_size)
        at += base_size
        extents = read_uint(iloc, at, 2)
        at += 2
        for _ in range(extents):
            at += index_size
            if method == 0:
                shift(at, offset_size)
            at += offset_size + length_size
    meta_children[iloc_index] = bytes(iloc)
    new_meta = box("meta", bytes(data[meta[1] + meta[2]:meta[1] + meta[2] + 4]) + b"".join(meta_children))
    assert len(new_meta) - meta[3] == delta
    result = bytes(data[:meta[1]]) + new_meta + bytes(data[meta_end:])
    open(target, "wb").write(result)


if __name__ == "__main__":
    main()
