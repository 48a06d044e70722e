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

# Peak RSS of a worker processing every kind of every file in the corpus folders given
# (default: ../shared/corpus/photos, formats, formats2): `photomill run --workers 1
# --slots 2` (one worker process, two photos at a time, as on the 2-core reference
# machine), the worker's own high-water mark (VmHWM in /proc/PID/status, read every
# 0.2 s while it runs; the kernel keeps the maximum), and /usr/bin/time -v's maximum over
# `run` and its children. Copies of the folders are processed, so the corpus is untouched.
#
# Usage: scripts/worker-rss.sh [--binary PATH] [FOLDER...]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$repo/.build/release/photomill
if [ "${1:-}" = --binary ]; then bin=$2; shift 2; fi
[ $# -gt 0 ] || set -- "$repo/../shared/corpus/photos" "$repo/../shared/corpus/formats" "$repo/../shared/corpus/formats2"
work=$(mktemp -d /tmp/worker-rss.XXXXXX)
trap 'rm -rf "$work"' EXIT
for folder in "$@"; do cp -r "$folder" "$work/$(basename "$folder")"; chmod -R u+w "$work/$(basename "$folder")"; done
folders=()
for folder in "$@"; do folders+=("$work/$(basename "$folder")"); done

OMP_THREAD_LIMIT=1 /usr/bin/time -v -o "$work/time.txt" "$bin" run --workers 1 --slots 2 --catalog "$work/catalog.sqlite" \
  --no-exports "${folders[@]}" >"$work/run.log" 2>&1 &
timer=$!
peak=0
while kill -0 "$timer" 2>/dev/null; do
  for run in $(pgrep -P "$timer" || true); do
    for worker in $(pgrep -P "$run" || true); do
      hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$worker/status" 2>/dev/null || echo 0)
      [ "${hwm:-0}" -gt "$peak" ] && peak=$hwm
    done
  done
  sleep 0.2
done
wait "$timer" || true
tail -3 "$work/run.log"
echo "worker peak RSS (VmHWM): $((peak / 1024)) MB"
echo "run and its children, /usr/bin/time -v: $(awk -F': ' '/Maximum resident/ {print int($2 / 1024)}' "$work/time.txt") MB, $(awk -F': ' '/Elapsed/ {print $2}' "$work/time.txt") wall"
