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

# The long fuzz runs (docs/reliability.md).
#
# scripts/fuzz.sh [SECONDS] — the wire decoder: mutated and random frame sets through
# MillCodec.decode for SECONDS (default 600), seed after seed. One input per outcome it met
# is kept in .build/fuzz-found/ (copy the interesting ones to
# Tests/MillProtocolTests/Regressions/). A crash names its seed on stderr: rerun it with
#   MILLPROTOCOL_FUZZ_SEED=SEED MILLPROTOCOL_FUZZ_SECONDS=1 MILLPROTOCOL_FUZZ_LOG=1 scripts/fuzz.sh
# and the last input printed is the culprit.
#
# scripts/fuzz.sh xmp [SECONDS] — the XMP reader: mutated sidecars (byte flips, cuts,
# repeats, inserted markup, entities, DOCTYPEs) through XMPReader.read for SECONDS (default
# 600); each is read with its values in range or refused with an XMPError. A crash names
# its seed on stderr: rerun with XMP_FUZZ_SEED=SEED scripts/fuzz.sh xmp 1.
#
# scripts/fuzz.sh media [SECONDS] — the media readers: seeded bit flips and truncations of
# every file in ../shared/corpus/formats, formats2 and photos (or MEDIA_FOLDERS), each
# through its own `photomill inspect` with every kind (scripts/fuzz-media.py) for SECONDS
# (default 600): a result or a classified error within the 60-s lease, or the variant is
# kept in .build/fuzz-found/media/ and named with its seed.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
if [[ "${1:-}" == "xmp" ]]; then
    export XMP_FUZZ_SECONDS="${2:-${XMP_FUZZ_SECONDS:-600}}"
    swift test --skip-build --filter 'XMPHostileTests/fuzzForAWhile'
    exit
fi
if [[ "${1:-}" == "media" ]]; then
    corpus=../shared/corpus
    folders=${MEDIA_FOLDERS:-"$corpus/formats $corpus/formats2 $corpus/photos"}
    # shellcheck disable=SC2086
    exec scripts/fuzz-media.py --binary .build/debug/photomill --seconds "${2:-600}" --keep .build/fuzz-found/media $folders
fi
export MILLPROTOCOL_FUZZ_SECONDS="${1:-${MILLPROTOCOL_FUZZ_SECONDS:-600}}"
export MILLPROTOCOL_FUZZ_KEEP="${MILLPROTOCOL_FUZZ_KEEP:-$PWD/.build/fuzz-found}"
swift test --skip-build --filter LongFuzzTests
