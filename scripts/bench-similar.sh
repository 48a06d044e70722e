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

# `similar` and `search --like` at library scale (issue 28; docs/benchmarks.md, "Similar
# photos"): a catalog of 1,000,000 photos with perceptual hashes (scripts/make-big-catalog.py
# --similarity: random hashes, a near-duplicate every 20th photo, an exact copy every 50th),
# a query photo whose hash is planted three times (2, 4 and 6 bits away), then RUNS runs of
# each command, with their wall time and peak RSS (GNU time).
#   scripts/bench-similar.sh [PHOTOMILL] [CATALOG] [RUNS]
# PHOTOMILL defaults to the release build; CATALOG (default /tmp/photomill-similar.sqlite,
# about 1.5 GB) is made when missing (10–20 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/photomill}
catalog=${2:-/tmp/photomill-similar.sqlite}
runs=${3:-5}
[ -f "$catalog" ] || scripts/make-big-catalog.py "$bin" "$catalog" --photos 1000000 --similarity
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin" samples "$work/query" --count 2 --seed 28 >/dev/null
query="$work/query/IMG_0001.jpg"
hashes=$("$bin" inspect --json --kinds similarity "$query" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["perceptualHash"], d["detailHash"])')
python3 - "$catalog" $hashes <<'PY'
import sqlite3, sys
catalog, value, detail = sys.argv[1], int(sys.argv[2], 16), bytes.fromhex(sys.argv[3])
c = sqlite3.connect(catalog)
signed = lambda v: v - (1 << 64) if v >= 1 << 63 else v
# Photos 11, 12 and 13 look like the query: 2, 4 and 6 bits away, with its detail hash
# (else the detail hash, random in the catalog, would veto them).
for photo, flips in ((11, 0b11), (12, 0b1111 << 20), (13, 0b111111 << 40)):
    c.execute("UPDATE similarity SET hash = ?, detail = ? WHERE photoId = ?", (signed(value ^ flips), detail, photo))
c.commit()
print("catalog: %s, %d photos, %d hashes" % (catalog, c.execute("select count(*) from photos").fetchone()[0],
      c.execute("select count(*) from similarity").fetchone()[0]))
PY
measure() {
  local label=$1; shift
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out"
    cat "$work/time"
  done >"$work/times"
  # The output's lines are counted once the runs are over, not as the pipeline starts.
  sort -n "$work/times" | awk -v label="$label" -v lines="$(wc -l <"$work/out")" \
    '{ t[NR] = $1; if ($2 > m) m = $2 } END { printf "%-28s median %6.2f s  max %6.2f s  peak RSS %4.0f MB  (%d runs, %d lines out)\n", label, t[int((NR + 1) / 2)], t[NR], m / 1024, NR, lines }'
}
measure "similar --json" "$bin" similar --catalog "$catalog" --json
measure "similar --distance 4" "$bin" similar --catalog "$catalog" --distance 4 --json
measure "search --like (query file)" "$bin" search --catalog "$catalog" --like "$query" --json
"$bin" search --catalog "$catalog" --like "$query" | tail -4
