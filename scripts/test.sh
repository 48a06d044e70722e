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
# The tests' Python (numpy, imagehash's scipy) compares a few pictures a call: OpenBLAS's
# thread pool, started on import, costs more CPU than it saves there (0.55 s of a picture
# comparison's 1.0 s).
export OPENBLAS_NUM_THREADS=1

# The Debian package is checked as root only (it installs a package and adds a user).
# Its release build (a third of the run's CPU on 2 cores) goes on beside the debug build
# and the suite at the lowest CPU and I/O priority: it takes the cycles they leave idle
# and yields whenever they want a core. The check itself (lintian, dpkg, a run of the
# installed binary as its own user) follows it, beside the suite, which touches neither
# the package nor its user.
deb_check=""
deb_log=$(mktemp)
stop_deb_check() { [ -z "$deb_check" ] || kill -- "-$deb_check" 2>/dev/null || true; rm -f "$deb_log"; }
trap stop_deb_check EXIT
if [ "$(id -u)" -eq 0 ]; then
  set -m   # its own process group, so that a failure here stops all of it
  { nice -n 19 ionice -c 3 scripts/package-deb.sh --build-only && scripts/check-deb.sh; } >"$deb_log" 2>&1 &
  deb_check=$!
  set +m
fi

# The plan made again each time, so that BuildCommit's prebuild command runs: the binary
# names the commit checked out (VersionTests), not the last one whose build added a file.
swift build --build-tests --disable-build-manifest-caching
if [ ! -f ../shared/corpus/manifest.json ]; then
  echo "note: ../shared/corpus is absent; the corpus tests will be skipped"
fi
swift test --skip-build

if [ -n "$deb_check" ]; then
  status=0
  wait "$deb_check" || status=$?
  deb_check=""
  cat "$deb_log"
  if [ "$status" -ne 0 ]; then
    echo "test.sh: the Debian package's build or check failed (above)" >&2
    exit 1
  fi
else
  echo "note: not root: the Debian package check (scripts/check-deb.sh) is skipped"
fi
