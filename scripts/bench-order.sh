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

# The order of work (issue 15; docs/architecture.md "The order of work"): a full
# `photomill run` over a generated library with one build and another, and for each the
# time until every photo is searchable by camera and date (all metadata tasks finished,
# read from the catalog with sqlite3 every 0.1 s) and the photos per second of the run.
#   scripts/bench-order.sh BEFORE_PHOTOMILL AFTER_PHOTOMILL [COUNT] [WORKERS]
# Each binary runs twice, alternately, over the same photos into a fresh catalog;
# exports off. COUNT samples of `photomill samples` (default 120: about one page of
# text in seven, a few broken files), WORKERS local workers (default 2).
set -euo pipefail
before=$1 after=$2 count=${3:-120} workers=${4:-2}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$after" samples "$work/photos" --count "$count" --seed 21 >/dev/null
echo "library: $(find "$work/photos" -type f ! -name '*.json' | wc -l) files, $(du -sm "$work/photos" | cut -f1) MB; $workers workers"

measure() {   # NAME BINARY
  python3 - "$1" "$2" "$work" "$workers" <<'PY'
import os, sqlite3, subprocess, sys, time
name, binary, work, workers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
catalog = os.path.join(work, name + ".sqlite")
for suffix in ("", "-wal", "-shm"):
    if os.path.exists(catalog + suffix): os.remove(catalog + suffix)
start = time.perf_counter()
run = subprocess.Popen([binary, "run", os.path.join(work, "photos"), "--workers", workers, "--catalog", catalog, "--no-exports"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
samples = []                      # (seconds, metadata tasks finished, metadata tasks)
while run.poll() is None:
    try:
        con = sqlite3.connect("file:%s?mode=ro" % catalog, uri=True, timeout=1)
        finished, total = con.execute("SELECT SUM(state IN ('done', 'failed')), COUNT(*) FROM tasks WHERE kind = 'metadata'").fetchone()
        con.close()
        samples.append((time.perf_counter() - start, finished or 0, total))
    except sqlite3.Error:
        pass
    time.sleep(0.1)
elapsed = time.perf_counter() - start
con = sqlite3.connect(catalog)
photos = con.execute("SELECT COUNT(*) FROM photos").fetchone()[0]
total = con.execute("SELECT COUNT(*) FROM tasks WHERE kind = 'metadata'").fetchone()[0]
searchable = next((t for t, finished, seen in samples if seen == total and finished == total), elapsed)
print("%-7s %4d photos  run %6.1f s  %5.2f photos/s  every photo searchable by camera and date after %6.1f s (%3.0f %% of the run)"
      % (name, photos, elapsed, photos / elapsed, searchable, searchable / elapsed * 100))
PY
}
for round in 1 2; do
  measure before "$before"
  measure after "$after"
done
