#!/bin/bash
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

# What the similarity kind costs beside the thumbnail (issue 28): the worker's own time for
# each kind of each photo (its laps, `photomill_processing_seconds`, read from /metrics),
# over a folder, with `--kinds thumbnail` and `--kinds thumbnail,similarity` in turns. The
# laps time each step inside one process, so they are steadier than a whole process's CPU
# (which moved by ±8 % between two runs of one build on a quiet 2-core box).
#
#   scripts/bench-similarity-cost.sh [--photomill .build/release/photomill] [--rounds 3] FOLDER
#
# FOLDER: photos, e.g. `photomill samples DIR --count 90 --photo-size 4000x3000`.
set -euo pipefail
photomill=.build/release/photomill
rounds=3
while [ $# -gt 1 ]; do
    case $1 in
    --photomill) photomill=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "unknown option $1 (see the comment at the top of $0)" >&2; exit 64 ;;
    esac
done
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: $0 [--photomill BIN] [--rounds N] FOLDER" >&2; exit 64; }
folder=$1
# A file changed within the settle window (2 s) is recorded later, when it has settled: the
# runs below would end before it. Start once every file is older than that.
while [ -n "$(find "$folder" -newermt '-3 seconds' -print -quit)" ]; do sleep 1; done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One `run --watch` over the folder; prints "kind seconds-per-photo" for each kind timed.
laps() {
    local kinds=$1 log=$scratch/log catalog=$scratch/$RANDOM.sqlite
    "$photomill" run "$folder" --watch --workers 1 --slots 1 --kinds "$kinds" --no-exports \
        --catalog "$catalog" --http 127.0.0.1:0 >"$log" 2>&1 &
    local pid=$! url=""
    for _ in $(seq 600); do
        url=$(sed -n 's|.*dashboard at \(http://[^ ]*/\).*|\1|p' "$log" | head -1)
        [ -n "$url" ] && break
        sleep 0.5
    done
    [ -n "$url" ] || { echo "no dashboard address in $log" >&2; cat "$log" >&2; exit 1; }
    # Done when tasks were queued and none is pending or leased any more (the catalog says so).
    for _ in $(seq 3600); do
        left=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT COUNT(*) = 0 OR SUM(state IN ('pending','leased')) > 0 FROM tasks\").fetchone()[0])" "$catalog" 2>/dev/null || echo 1)
        [ "$left" = 0 ] && break
        sleep 0.5
    done
    curl -s "${url}metrics" | python3 -c '
import re, sys
values = {}
for line in sys.stdin:
    m = re.match(r"photomill_processing_seconds_(sum|count)\{kind=\"(\w+)\"\} (\S+)", line)
    if m: values[(m.group(2), m.group(1))] = float(m.group(3))
for kind in ("thumbnail", "similarity"):
    if values.get((kind, "count")): print(kind, values[(kind, "sum")] / values[(kind, "count")])
'
    kill -INT $pid
    wait $pid || true
}

for round in $(seq "$rounds"); do
    alone=$(laps thumbnail | awk '$1 == "thumbnail" {print $2}')
    both=$(laps thumbnail,similarity)
    thumbnail=$(echo "$both" | awk '$1 == "thumbnail" {print $2}')
    similarity=$(echo "$both" | awk '$1 == "similarity" {print $2}')
    awk -v r="$round" -v a="$alone" -v t="$thumbnail" -v s="$similarity" 'BEGIN {
        printf "round %d: thumbnail alone %.2f ms; with similarity: thumbnail %.2f ms + similarity %.2f ms (%+.1f %% of the thumbnail alone)\n",
            r, a * 1000, t * 1000, s * 1000, 100 * s / a }'
done
