#!/usr/bin/env bash
# Installs what is needed and runs the whole test suite (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# One single-threaded tesseract per photo: see docs/processing.md.
export OMP_THREAD_LIMIT=1
swift build --build-tests
if [ ! -f ../shared/corpus/manifest.json ]; then
  echo "note: ../shared/corpus is absent; the corpus tests will be skipped"
fi
swift test --skip-build
# The Debian package, built in release mode, installed, run and removed for real: as
# root only (it installs a package and adds a user), otherwise skipped with a note.
if [ "$(id -u)" -eq 0 ]; then
  scripts/check-deb.sh
else
  echo "note: not root: the Debian package check (scripts/check-deb.sh) is skipped"
fi
