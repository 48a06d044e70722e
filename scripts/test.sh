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

# Installs what is needed and runs the whole test suite (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The sources' form first (seconds): swift-format's lint and the licence headers.
scripts/format.sh --lint
# One single-threaded tesseract per photo: see docs/processing.md.
export OMP_THREAD_LIMIT=1

# The Debian package is checked as root only (it installs a package and adds a user).
# Its release build (a quarter of the run on 2 cores) goes on beside the debug build and
# the suite at the lowest CPU and I/O priority: it takes the cycles they leave idle
# (processes waiting on each other, the settle windows, single-threaded link steps) and
# yields whenever they want a core, and the suite is the busy machine it must pass on.
deb_build=""
deb_log=$(mktemp)
stop_deb_build() { [ -z "$deb_build" ] || kill -- "-$deb_build" 2>/dev/null || true; rm -f "$deb_log"; }
trap stop_deb_build EXIT
if [ "$(id -u)" -eq 0 ]; then
  set -m   # its own process group, so that a failure here stops the whole build
  nice -n 19 ionice -c 3 scripts/package-deb.sh --build-only >"$deb_log" 2>&1 &
  deb_build=$!
  set +m
fi

swift build --build-tests
if [ ! -f ../shared/corpus/manifest.json ]; then
  echo "note: ../shared/corpus is absent; the corpus tests will be skipped"
fi
swift test --skip-build

if [ -n "$deb_build" ]; then
  if ! wait "$deb_build"; then
    deb_build=""
    cat "$deb_log" >&2
    echo "test.sh: the package's release build failed (above)" >&2
    exit 1
  fi
  deb_build=""
  # Builds nothing more: the release binary is up to date.
  scripts/check-deb.sh
else
  echo "note: not root: the Debian package check (scripts/check-deb.sh) is skipped"
fi
