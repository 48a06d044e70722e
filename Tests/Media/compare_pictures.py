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

"""Compares two pictures the way the thumbnail tests judge them, independently of
photomill: prints one JSON object with each picture's size, the mean of each channel
(0-255, 8-bit sRGB as Pillow decodes it), the largest difference of those means, the mean
absolute difference per sample (the second resized to the first's size), and the Hamming
distance of their perceptual hashes (the `imagehash` package's pHash, 64 bits).

    compare_pictures.py OURS REFERENCE
"""
import json
import sys

import imagehash
import numpy as np
from PIL import Image


def main():
    ours = Image.open(sys.argv[1]).convert("RGB")
    reference = Image.open(sys.argv[2]).convert("RGB")
    a = np.asarray(ours, dtype=np.float64)
    b = np.asarray(reference.resize(ours.size, Image.LANCZOS), dtype=np.float64)
    means = [a.reshape(-1, 3).mean(0), np.asarray(reference, dtype=np.float64).reshape(-1, 3).mean(0)]
    print(json.dumps({
        "size": list(ours.size),
        "referenceSize": list(reference.size),
        "means": [m.round(2).tolist() for m in means],
        "meanDifference": float(np.abs(means[0] - means[1]).max()),
        "pixelDifference": float(np.abs(a - b).mean()),
        "hashDistance": int(imagehash.phash(ours) - imagehash.phash(reference)),
        "spread": float(a.std()),
    }))


if __name__ == "__main__":
    main()
