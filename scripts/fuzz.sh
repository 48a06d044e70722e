#!/usr/bin/env bash
# The long fuzz run of the wire decoder (docs/reliability.md): mutated and random frame
# sets through MillCodec.decode for SECONDS (default 600), seed after seed. One input per
# outcome it met is kept in .build/fuzz-found/ (copy the interesting ones to
# Tests/MillProtocolTests/Regressions/). A crash names its seed on stderr: rerun it with
#   MILLPROTOCOL_FUZZ_SEED=SEED MILLPROTOCOL_FUZZ_SECONDS=1 MILLPROTOCOL_FUZZ_LOG=1 scripts/fuzz.sh
# and the last input printed is the culprit.
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
export MILLPROTOCOL_FUZZ_SECONDS="${1:-${MILLPROTOCOL_FUZZ_SECONDS:-600}}"
export MILLPROTOCOL_FUZZ_KEEP="${MILLPROTOCOL_FUZZ_KEEP:-$PWD/.build/fuzz-found}"
swift test --skip-build --filter LongFuzzTests
