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

# Formats the Swift sources with swift-format (the toolchain's `swift format`) and the
# settings in .swift-format (120 columns; close to swift-nio's and Hummingbird's), and
# gives every source file its licence header (scripts/license-headers.py).
#   scripts/format.sh           rewrites the files in place
#   scripts/format.sh --lint    changes nothing; exits non-zero when a file is not formatted
#                               or has no licence header (scripts/test.sh runs this first)
# Package.swift, Sources and Tests; generated code (Sources/MillProtocol/Generated) is left
# as protoc wrote it.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=format
case "${1:-}" in
  "") ;;
  --lint) mode=lint ;;
  *) echo "usage: scripts/format.sh [--lint]" >&2; exit 64 ;;
esac

if ! swift format --version >/dev/null 2>&1; then
  echo "scripts/format.sh: 'swift format' is not available: it comes with the Swift toolchain (5.10 or later)" >&2
  exit 69
fi

files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(
  git ls-files -z --cached --others --exclude-standard -- Package.swift 'Sources/*.swift' 'Tests/*.swift' \
    ':!:Sources/MillProtocol/Generated/*')

if [ "$mode" = lint ]; then
  status=0
  scripts/license-headers.py --check || status=1
  swift format lint --strict --parallel --configuration .swift-format "${files[@]}" || {
    echo "scripts/format.sh: the files above are not formatted: scripts/format.sh formats them" >&2
    status=1
  }
  exit $status
else
  swift format format --in-place --parallel --configuration .swift-format "${files[@]}"
  # Last: it may give this very script its header, which bash is still reading.
  scripts/license-headers.py
fi
