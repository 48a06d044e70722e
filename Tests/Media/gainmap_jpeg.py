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

"""Makes a JPEG with a gain map as Google's Ultra HDR and Apple's HDR JPEGs carry one: the
SDR base image first, then a second JPEG (the gain map) after it, announced by an MPF
segment (CIPA DC-007 Multi-Picture Format) and the `hdrgm` XMP namespace
(http://ns.adobe.com/hdr-gain-map/1.0/). Independent of photomill.

    gainmap_jpeg.py BASE.jpg GAINMAP.jpg OUT.jpg

The tests check it with exiftool (-b -MPImage2 gives GAINMAP back) before photomill sees it.
"""
import struct
import sys


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def main():
    base, gainmap = (open(p, "rb").read() for p in sys.argv[1:3])
    assert base[:2] == b"\xff\xd8" and gainmap[:2] == b"\xff\xd8"
    xmp = (b"http://ns.adobe.com/xap/1.0/\0"
           b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           b'<rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0"/>'
           b"</rdf:RDF></x:xmpmeta>")
    head = segment(0xE1, xmp)

    def mpf(base_length, mpf_offset):
        # Little-endian TIFF structure; offsets count from its first byte.
        entries_offset = 8 + 2 + 3 * 12 + 4
        ifd = struct.pack("<H", 3)
        ifd += struct.pack("<HHI4s", 0xB000, 7, 4, b"0100")
        ifd += struct.pack("<HHII", 0xB001, 4, 1, 2)
        ifd += struct.pack("<HHII", 0xB002, 7, 32, entries_offset)
        ifd += struct.pack("<I", 0)
        gain_offset = base_length - mpf_offset
        entries = struct.pack("<IIIHH", 0x20030000, base_length, 0, 0, 0)
        entries += struct.pack("<IIIHH", 0x00000000, len(gainmap), gain_offset, 0, 0)
        return segment(0xE2, b"MPF\0" + b"II*\0" + struct.pack("<I", 8) + ifd + entries)

    # The MPF segment's size does not depend on the offsets: lay out once, then fill in.
    placeholder = mpf(0, 0)
    mpf_offset = 2 + len(head) + 4 + 4  # after SOI, XMP, the APP2 header and "MPF\0"
    base_length = 2 + len(head) + len(placeholder) + len(base) - 2
    out = base[:2] + head + mpf(base_length, mpf_offset) + base[2:] + gainmap
    assert len(out) == base_length + len(gainmap)
    open(sys.argv[3], "wb").write(out)


if __name__ == "__main__":
    main()
