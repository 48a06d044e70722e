#!/usr/bin/env bash
# The long fuzz runs (docs/reliability.md), each for SECONDS (default 600):
#
# wire: mutated and random frame sets through MillCodec.decode, seed after seed. One input
#   per outcome it met is kept in .build/fuzz-found/ (copy the interesting ones to
#   Tests/MillProtocolTests/Regressions/). A crash names its seed on stderr: rerun it with
#     MILLPROTOCOL_FUZZ_SEED=SEED MILLPROTOCOL_FUZZ_SECONDS=1 MILLPROTOCOL_FUZZ_LOG=1 scripts/fuzz.sh 1 wire
#   and the last input printed is the culprit.
# media: seeded bit flips and truncations of every file in ../shared/corpus/formats,
#   formats2 and photos (or MEDIA_FOLDERS), each through its own `photomill inspect` with
#   every kind (scripts/fuzz-media.py): a result or a classified error within the 60-s
#   lease, or the variant is kept in .build/fuzz-found/media/ and named with its seed.
#
# Usage: scripts/fuzz.sh [SECONDS] [wire|media|all]   (default: all, SECONDS each)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-${MILLPROTOCOL_FUZZ_SECONDS:-600}}"
what="${2:-all}"
swift build --build-tests
if [ "$what" = all ] || [ "$what" = wire ]; then
  export MILLPROTOCOL_FUZZ_SECONDS="$seconds"
  export MILLPROTOCOL_FUZZ_KEEP="${MILLPROTOCOL_FUZZ_KEEP:-$PWD/.build/fuzz-found}"
  swift test --skip-build --filter LongFuzzTests
fi
if [ "$what" = all ] || [ "$what" = media ]; then
  corpus=../shared/corpus
  folders=${MEDIA_FOLDERS:-"$corpus/formats $corpus/formats2 $corpus/photos"}
  # shellcheck disable=SC2086
  scripts/fuzz-media.py --binary .build/debug/photomill --seconds "$seconds" --keep .build/fuzz-found/media $folders
fi
