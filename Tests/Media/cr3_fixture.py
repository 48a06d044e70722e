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

"""Puts real JPEG previews into a CR3 whose previews were stripped (exiftool's test file,
../shared/corpus/formats/CanonRaw.cr3), laid out as Laurent Clévy's description of the
format (github.com/lclevy/canon_cr3) and exiftool read them, independently of photomill:

    cr3_fixture.py SOURCE.cr3 OUT.cr3 THUMBNAIL.jpg PREVIEW.jpg FULL.jpg

- THUMBNAIL into the THMB box of the Canon uuid box in moov (width and height at 4 and 6
  of its payload, the JPEG's length at 8, the JPEG at 16);
- PREVIEW into the PRVW box of the top-level uuid box eaf42b5e-1c98-4b88-b9fb-b7dc406e4d16
  (after 8 bytes, a PRVW box: width and height at 6 and 8 of its payload, length at 12,
  the JPEG at 16);
- FULL as the one sample of the track whose CRAW sample entry holds a JPEG box, appended
  to mdat, its size in stsz and its offset in co64.

Every other track's co64 offsets, and the CTBO table of top-level offsets, follow the
boxes that grew. The tests check the result with exiftool (-b -ThumbnailImage,
-PreviewImage, -JpgFromRaw give back these three files).
"""
import struct
import sys

from bmff import boxes

CANON = bytes.fromhex("85c0b687820f11e08111f4ce462b6a48")
PREVIEW = bytes.fromhex("eaf42b5e1c984b88b9fbb7dc406e4d16")
CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"dinf"}


class Box:
    def __init__(self, kind, prefix=b"", payload=b"", children=None):
        self.kind, self.prefix, self.payload, self.children = kind, prefix, payload, children

    def body(self):
        return self.prefix + (b"".join(c.bytes() for c in self.children) if self.children is not None else self.payload)

    def bytes(self):
        body = self.body()
        return struct.pack(">I4s", 8 + len(body), self.kind) + body

    def find(self, kind):
        return [c for c in self.children or [] if c.kind == kind]


def parse(data, start, end):
    parsed = []
    for kind, at, header, size in boxes(data, start, end):
        kind, body = kind.encode("latin-1"), data[at + header:at + size]
        if kind in CONTAINERS:
            parsed.append(Box(kind, children=parse(body, 0, len(body))))
        elif kind == b"uuid" and body[:16] == CANON:
            parsed.append(Box(kind, prefix=body[:16], children=parse(body, 16, len(body))))
        else:
            parsed.append(Box(kind, payload=body))
        parsed[-1].start, parsed[-1].header = at, header
    return parsed


def jpeg_size(jpeg):
    at = 2
    while at < len(jpeg):
        marker, length = jpeg[at + 1], struct.unpack(">H", jpeg[at + 2:at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", jpeg[at + 5:at + 9])
            return width, height
        at += 2 + length
    raise ValueError("no frame header")


def track_table(track):
    return track.find(b"mdia")[0].find(b"minf")[0].find(b"stbl")[0]


def is_jpeg_track(track):
    stsd = track_table(track).find(b"stsd")[0].payload
    entry_size, entry_kind = struct.unpack(">I4s", stsd[8:16])
    return entry_kind == b"CRAW" and b"JPEG" in stsd[16 + 78:8 + entry_size]


def main():
    source, target, thumb_path, preview_path, full_path = sys.argv[1:6]
    data = open(source, "rb").read()
    thumb, preview, full = (open(p, "rb").read() for p in (thumb_path, preview_path, full_path))
    top = parse(data, 0, len(data))
    moov = next(b for b in top if b.kind == b"moov")
    mdat = next(b for b in top if b.kind == b"mdat")
    assert top[-1] is mdat, "mdat must be the last box"
    canon = next(b for b in moov.children if b.kind == b"uuid")

    thmb = canon.find(b"THMB")[0]
    width, height = jpeg_size(thumb)
    thmb.payload = thmb.payload[:4] + struct.pack(">HHI", width, height, len(thumb)) + thmb.payload[12:16] + thumb
    thmb.payload += b"\0" * (-len(thmb.payload) % 4)

    prvw_box = next(b for b in top if b.kind == b"uuid" and b.payload[:16] == PREVIEW)
    width, height = jpeg_size(preview)
    inner = prvw_box.payload[16 + 8 + 8:16 + 8 + 8 + 16]
    inner = inner[:6] + struct.pack(">HH", width, height) + inner[10:12] + struct.pack(">I", len(preview))
    prvw = struct.pack(">I4s", 8 + len(inner) + len(preview), b"PRVW") + inner + preview
    prvw_box.payload = prvw_box.payload[:16 + 8] + prvw

    tracks = moov.find(b"trak")
    old_mdat_body = mdat.start + mdat.header
    # Lay out once with the final moov size (co64 widths do not change).
    layout = [b.bytes() if b is not mdat else None for b in top]
    new_mdat_body = sum(len(part) for part in layout[:-1]) + 16
    shift = new_mdat_body - old_mdat_body
    for track in tracks:
        table = track_table(track)
        co64 = table.find(b"co64")[0]
        count = struct.unpack(">I", co64.payload[4:8])[0]
        offsets = [struct.unpack(">Q", co64.payload[8 + 8 * i:16 + 8 * i])[0] for i in range(count)]
        if is_jpeg_track(track):
            offsets = [new_mdat_body + len(mdat.payload)]
            stsz = table.find(b"stsz")[0]
            stsz.payload = stsz.payload[:4] + struct.pack(">II", len(full), 1)
        else:
            offsets = [o + shift for o in offsets]
        co64.payload = co64.payload[:4] + struct.pack(">I", len(offsets)) + b"".join(struct.pack(">Q", o) for o in offsets)

    moov_bytes = moov.bytes()
    parts, at, positions = [], 0, {}
    for box in top:
        part = box.bytes() if box is not mdat else None
        if box is mdat:
            body = mdat.payload + full
            part = struct.pack(">I4sQ", 1, b"mdat", 16 + len(body)) + body
        positions[id(box)] = (at, len(part))
        parts.append(part)
        at += len(part)
    assert positions[id(mdat)][0] + 16 == new_mdat_body and len(moov_bytes) == len(parts[top.index(moov)])

    # CTBO: index 1 the XMP uuid box, 2 the preview uuid box, 3 mdat (offset, size).
    ctbo = canon.find(b"CTBO")
    if ctbo:
        xmp = next((b for b in top if b.kind == b"uuid" and b is not prvw_box and b is not moov), None)
        places = {1: xmp, 2: prvw_box, 3: mdat}
        body = bytearray(ctbo[0].payload)
        for i in range(struct.unpack(">I", body[:4])[0]):
            index = struct.unpack(">I", body[4 + 20 * i:8 + 20 * i])[0]
            if places.get(index) is not None:
                body[8 + 20 * i:24 + 20 * i] = struct.pack(">QQ", *positions[id(places[index])])
        ctbo[0].payload = bytes(body)
        parts[top.index(moov)] = moov.bytes()
    open(target, "wb").write(b"".join(parts))


if __name__ == "__main__":
    main()
