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

"""Held-out agreement of photomill's perceptual hash with imagehash's phash (Pillow),
on corpus files of formats/ and formats2/ (never used in the similarity benchmark,
which is built from photos/ and `samples`). Reference pictures decoded by tools other
than libvips: Pillow (JPEG, PNG, WebP), djxl (JPEG XL), heif-convert (HEIC, HIF, AVIF);
EXIF orientation applied by Pillow (exif_transpose), except in HEIF files with irot/imir.

    scripts/similarity-heldout.py PHOTOMILL [CORPUS]   (CORPUS: ../shared/corpus)

Prints each file's two hashes and their distance, then how many agree within 2 and 4 bits.
"""
import json, os, subprocess, sys, tempfile
import imagehash
from PIL import Image, ImageOps
bin_ = sys.argv[1]
root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus")
if not os.path.isdir(os.path.join(root, "formats")):
    sys.exit(f"{root}: no corpus (formats/, formats2/) there: give its path")
files = [os.path.join(root, d, f) for d in ("formats", "formats2") for f in sorted(os.listdir(os.path.join(root, d)))]
tmp = tempfile.mkdtemp()
rows = []
for path in files:
    ext = path.rsplit(".", 1)[-1].lower()
    try:
        if ext in ("jpg", "png", "webp"):
            ref = Image.open(path)
        elif ext == "jxl":
            out = os.path.join(tmp, "x.png"); subprocess.run(["djxl", path, out], check=True, capture_output=True); ref = Image.open(out)
        elif ext in ("heic", "hif", "avif"):
            out = os.path.join(tmp, "x.png"); subprocess.run(["heif-convert", path, out], check=True, capture_output=True); ref = Image.open(out)
        else:
            continue
        # HEIF: where the file has irot/imir (exiftool: Rotation, Mirroring), they are the
        # display orientation, applied by heif-convert, and an Exif Orientation inside says the
        # same and must not be applied again; a file without them (iPhone 7) has only Exif's.
        transformed = ext in ("heic", "hif", "avif") and subprocess.run(
            ["exiftool", "-s3", "-Rotation", "-Mirroring", path], capture_output=True, text=True).stdout.strip()
        ref = ref if transformed else ImageOps.exif_transpose(ref)
        theirs = imagehash.phash(ref)
    except Exception as e:
        rows.append((path, None, None, f"no reference: {e}")); continue
    r = subprocess.run([bin_, "inspect", "--json", "--kinds", "similarity", path], capture_output=True, text=True)
    try:
        ours = json.loads(r.stdout)["perceptualHash"]
    except Exception:
        rows.append((path, None, str(theirs), "photomill: " + r.stderr.strip()[:100])); continue
    d = bin(int(ours, 16) ^ int(str(theirs), 16)).count("1")
    rows.append((path, ours, str(theirs), d))
for r in rows: print(os.path.relpath(r[0], root), r[1], r[2], r[3], sep="\t")
ds = [r[3] for r in rows if isinstance(r[3], int)]
print(f"{len(ds)} files compared; within 2 bits: {sum(d <= 2 for d in ds)}; within 4: {sum(d <= 4 for d in ds)}; max {max(ds)}")
