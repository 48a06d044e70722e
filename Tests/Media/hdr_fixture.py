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

"""Makes an HDR picture from an SDR one, from BT.2100's formulas alone (not photomill's
code): the tests' independent source of PQ and HLG pixels.

    hdr_fixture.py SOURCE OUTPUT.ppm --transfer pq|hlg|sdr [--primaries bt2020|p3|bt709]
                   [--highlight]

SOURCE (any 8-bit sRGB picture Pillow reads) is decoded with the sRGB curve, converted to
the target primaries, and placed at BT.2408's reference white (SDR white = 203 cd/m²):
PQ codes that light with ST 2084's inverse EOTF; HLG takes it back through BT.2100's
inverse OOTF (1,000 cd/m² display, system gamma 1.2) and codes it with the OETF; "sdr"
keeps the sRGB curve (wide-gamut SDR). --highlight adds a band at the top whose light is
four times SDR white (812 cd/m²), which a tone mapper must bring back below white.
Written as a 16-bit binary PPM (P6, maxval 65535), which cjxl, ffmpeg and vips read.
"""
import argparse

import numpy as np
from PIL import Image

REFERENCE_WHITE = 203.0
HLG_PEAK = 1000.0
SYSTEM_GAMMA = 1.2

PRIMARIES = {
    "bt709": [(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)],
    "bt2020": [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)],
    "p3": [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)],
}
D65 = (0.3127, 0.3290)


def rgb_to_xyz(primaries):
    columns = np.array([[x / y, 1.0, (1 - x - y) / y] for x, y in primaries]).T
    white = np.array([D65[0] / D65[1], 1.0, (1 - D65[0] - D65[1]) / D65[1]])
    return columns * np.linalg.solve(columns, white)


def srgb_decode(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def srgb_encode(v):
    return np.where(v <= 0.0031308, 12.92 * v, 1.055 * np.power(np.maximum(v, 0), 1 / 2.4) - 0.055)


def pq_encode(nits):
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    y = np.power(np.clip(nits / 10000.0, 0, 1), m1)
    return np.power((c1 + c2 * y) / (1 + c3 * y), m2)


def hlg_encode(nits):
    # Inverse OOTF (BT.2100 table 5, note 5e), then the OETF.
    luminance = np.maximum(nits @ np.array([0.2627, 0.6780, 0.0593]), 1e-9)[..., None]
    scene = (nits / HLG_PEAK) * np.power(luminance / HLG_PEAK, (1 - SYSTEM_GAMMA) / SYSTEM_GAMMA)
    scene = np.clip(scene, 0, 1)
    a = 0.17883277
    b, c = 1 - 4 * a, 0.5 - a * np.log(4 * a)
    return np.where(scene <= 1 / 12, np.sqrt(3 * scene), a * np.log(np.maximum(12 * scene - b, 1e-9)) + c)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("output")
    parser.add_argument("--transfer", choices=["pq", "hlg", "sdr"], required=True)
    parser.add_argument("--primaries", choices=sorted(PRIMARIES), default="bt2020")
    parser.add_argument("--highlight", action="store_true")
    args = parser.parse_args()

    sdr = np.asarray(Image.open(args.source).convert("RGB"), dtype=np.float64) / 255
    linear709 = srgb_decode(sdr)
    matrix = np.linalg.solve(rgb_to_xyz(PRIMARIES[args.primaries]), rgb_to_xyz(PRIMARIES["bt709"]))
    linear = linear709 @ matrix.T
    if args.highlight:
        linear[: max(1, linear.shape[0] // 8)] *= 4
    if args.transfer == "pq":
        coded = pq_encode(linear * REFERENCE_WHITE)
    elif args.transfer == "hlg":
        coded = hlg_encode(linear * REFERENCE_WHITE)
    else:
        coded = srgb_encode(np.clip(linear, 0, 1))
    samples = np.round(np.clip(coded, 0, 1) * 65535).astype(">u2")
    height, width = samples.shape[:2]
    with open(args.output, "wb") as out:
        out.write(b"P6\n%d %d\n65535\n" % (width, height))
        out.write(samples.tobytes())


if __name__ == "__main__":
    main()
