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

"""Puts real JPEG previews into a Sigma X3F whose image data was stripped (exiftool's test
file, ../shared/corpus/formats2/exiftool_SigmaDP2.x3f), laid out as Foveon's X3F format
description and exiftool (SigmaRaw.pm) read it, independently of photomill:

    x3f_fixture.py SOURCE.x3f OUT.x3f FULL.jpg SMALL.jpg

The file's last 4 bytes point to its section directory ("SECd", version, count, then
offset, length and type of each section). Each image section (IMAG/IMA2) starts "SECi",
version, image type (2: a picture for display), data format (18: JPEG), columns, rows,
row size, then the data. The first JPEG section gets FULL (the JpgFromRaw, which carries
the camera's EXIF), the last SMALL (the PreviewImage); the other sections (PROP, CAMF, the
raw data) are copied, and the directory written anew after them.
"""
import struct
import sys

from cr3_fixture import jpeg_size


def main():
    source, target, full_path, small_path = sys.argv[1:5]
    data = open(source, "rb").read()
    full, small = open(full_path, "rb").read(), open(small_path, "rb").read()
    directory = struct.unpack("<I", data[-4:])[0]
    assert data[directory:directory + 4] == b"SECd"
    version, count = struct.unpack("<II", data[directory + 4:directory + 12])
    entries = [struct.unpack("<II4s", data[directory + 12 + 12 * i:directory + 24 + 12 * i]) for i in range(count)]
    jpegs = [i for i, (offset, length, kind) in enumerate(entries)
             if kind in (b"IMAG", b"IMA2") and data[offset + 8:offset + 16] == struct.pack("<II", 2, 18)]
    replacements = {jpegs[0]: full, jpegs[-1]: small}
    first = min(offset for offset, _, _ in entries)
    out = bytearray(data[:first])
    new_entries = []
    for index, (offset, length, kind) in enumerate(entries):
        section = data[offset:offset + length]
        if index in replacements:
            jpeg = replacements[index]
            width, height = jpeg_size(jpeg)
            section = section[:16] + struct.pack("<III", width, height, 0) + jpeg
        new_entries.append((len(out), len(section), kind))
        out += section
        out += b"\0" * (-len(out) % 4)
    at = len(out)
    out += b"SECd" + struct.pack("<II", version, len(new_entries))
    for entry in new_entries:
        out += struct.pack("<II4s", *entry)
    out += struct.pack("<I", at)
    open(target, "wb").write(bytes(out))


if __name__ == "__main__":
    main()
