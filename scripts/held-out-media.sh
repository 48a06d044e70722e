#!/usr/bin/env bash
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

# The held-out set of docs/processing.md ("metadata: chosen on one part, measured on another"):
# real camera, phone and test files that photomill was never tuned to, taken from the source
# distributions of Python packages on PyPI (their test data), pinned below. The rule, written
# before any figure was taken: every file of those folders, none left out; the comparison
# (scripts/metadata-agreement.py) then keeps those exiftool gives one of photomill's file types.
# Nothing is written inside the repository.
#
# Usage: scripts/held-out-media.sh [OUT]   (default /tmp/photomill-held-out; the files land in OUT/files)
# Then:  scripts/metadata-agreement.py --photomill .build/release/photomill OUT/files
set -euo pipefail
out=${1:-/tmp/photomill-held-out}
mkdir -p "$out/sdists" "$out/unpacked" "$out/files"
# package==version  folder-inside-the-sdist
packages=(
    "Pillow==10.4.0 Tests/images"
    "pillow-heif==1.8.1 tests/images"
    "piexif==1.1.3 tests/images"
    "pymediainfo==7.0.1 tests/data"
)
# pip prepares each source distribution's metadata: Pillow's needs setuptools' wheel command,
# pymediainfo's pdm-backend,
# and no build isolation (an isolated build would fetch its build dependencies first).
python3 -m pip install --quiet wheel pdm-backend
for entry in "${packages[@]}"; do
    read -r spec folder <<<"$entry"
    name=${spec%%==*}
    python3 -m pip download --quiet --no-binary :all: --no-deps --no-build-isolation -d "$out/sdists" "$spec"
    archive=$(ls "$out"/sdists/* | grep -i "/$(echo "$name" | tr '-' '_')-\|/$name-" | head -1)
    rm -rf "$out/unpacked/$name" && mkdir -p "$out/unpacked/$name"
    case "$archive" in
        *.zip) unzip -q -o "$archive" -d "$out/unpacked/$name" ;;
        *) tar xzf "$archive" -C "$out/unpacked/$name" ;;
    esac
    source=$(find "$out/unpacked/$name" -maxdepth 1 -mindepth 1 -type d | head -1)/$folder
    rm -rf "${out:?}/files/$name" && cp -r "$source" "$out/files/$name"
    echo "$spec: $(find "$out/files/$name" -type f | wc -l) files from $folder"
done
