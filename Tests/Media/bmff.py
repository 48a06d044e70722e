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

"""ISO base media boxes (ISO/IEC 14496-12) for the fixture scripts beside this file."""
import struct


def boxes(data, start, end):
    """Each box in data[start:end]: (type as text, start, header length, size)."""
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        yield kind.decode("latin-1"), at, header, size
        at += size


def box(kind, payload):
    """A box of `kind` around `payload`, with a 32-bit size."""
    return struct.pack(">I4s", 8 + len(payload), kind.encode("latin-1")) + payload
