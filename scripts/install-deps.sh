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

# Installs the Debian 12 packages photomill builds, runs and tests with.
# The Swift toolchain (6.1 or newer) must already be on PATH: Debian does not package it.
set -euo pipefail

packages=(
  pkg-config
  libzmq3-dev            # messaging
  libexif-dev            # EXIF
  libxml2-dev            # XMP sidecars (libxml2's reader, PhotoProcessing/XMP)
  libvips-dev libvips-tools   # thumbnails, decoding; `vips` is used by tests to draw fixtures
  libtesseract-dev tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd   # OCR (+ orientation model)
  libsqlite3-dev         # catalog
  fonts-dejavu-core      # the fonts sample and test pages are rendered with
  libimage-exiftool-perl # the independent reference the tests compare metadata with
  time                   # /usr/bin/time -v for memory measurements
  parallel               # GNU parallel: the shell pipeline photomill-bench compares with
  iproute2               # `ip netns`: the multi-host test (MultiHostTests, as root)
  python3                # sqlite3 from Python: the tests' independent reader of the catalog, the bench's fixtures
  faketime               # libfaketime: the wall-clock step test (WallClockStepTests)
  libraw-dev             # camera RAW: embedded previews, demosaicing
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev   # video: FFmpeg's demuxers, decoders, scaler
  ffmpeg                 # the tests' video fixtures (QuickTime metadata, rotation) and the poster-frame baseline
  libheif-dev            # HEIF grids decoded tile by tile (libvips decodes them whole)
  libexiv2-dev           # exiv2: EXIF, maker notes and RAW containers (the metadata reader's library)
  libbrotli-dev          # Brotli: JPEG XL's compressed metadata boxes (brob), which exiv2 0.27 cannot open
  brotli                 # the brotli command: the tests' brob fixtures
  exiv2                  # the exiv2 command: a second reference beside exiftool in tests
  libjxl-tools           # cjxl/djxl: the tests' JPEG XL fixtures (16-bit, with Exif and xml boxes)
  libheif-examples       # heif-enc: the tests' HEIC fixtures (with and without irot)
  libraw-bin             # dcraw_emu, raw-identify, simple_dcraw: the RAW tests' independent references
  python3-zmq python3-protobuf   # the Python worker of the protocol conformance suite (Tests/Conformance)
  chromium               # the dashboard's browser tests (Tests/Browser), headless, driven by Playwright
  prometheus             # promtool: `promtool check metrics` on /metrics (Tests/Browser)
  dpkg-dev lintian       # the Debian package: dpkg-shlibdeps (and strip, by binutils) for it, lintian to check it
  systemd adduser        # the package check (scripts/check-deb.sh): systemd-analyze verify of the units; postinst's adduser
)

# Playwright for Python (PyPI), for the python3 on PATH, which the browser tests run; it
# drives Debian's chromium above (no browser is downloaded).
# imagehash (PyPI): the perceptual-hash reference the similarity tests and bench compare with.
python_packages() {
  python3 -c "import playwright.sync_api, imagehash" 2>/dev/null && return 0
  echo "install-deps: installing playwright and imagehash (PyPI) for $(command -v python3)"
  python3 -m pip install --quiet --disable-pip-version-check "playwright>=1.40" "imagehash>=4.3" \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "playwright>=1.40" "imagehash>=4.3"
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages present"
  python_packages
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
python_packages
