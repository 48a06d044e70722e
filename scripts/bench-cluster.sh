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

# Throughput of a coordinator and two workers over tcp loopback, in four set-ups:
# CURVE on or off (--insecure), and workers reading the files themselves (--root) or
# getting them as bytes (no --root). Same photos, fresh catalog each time, release build.
#   scripts/bench-cluster.sh PHOTO_DIR [KINDS] [SLOTS]
# Prints one line per set-up: photos, seconds from the workers' start to the last task
# settled, photos/s, MB/s of file bytes.
set -euo pipefail
photos="$(cd "$1" && pwd)"
kinds="${2:-hash,metadata}"
slots="${3:-1}"
bin="$(cd "$(dirname "$0")/.." && pwd)/.build/release/photomill"
[ -x "$bin" ] || { echo "bench-cluster: build first: swift build -c release --product photomill" >&2; exit 1; }
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin" keys generate --out "$work/c" >/dev/null
"$bin" keys generate --out "$work/w" >/dev/null
cp "$work/w.pub" "$work/allow"
count=$(find "$photos" -type f ! -name '*.json' | wc -l)
bytes=$(find "$photos" -type f ! -name '*.json' -printf '%s\n' | awk '{s+=$1} END {print s}')

settled() {
  python3 - "$1" <<'PY'
import sqlite3, sys
con = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True, timeout=10)
total, settled = con.execute("SELECT COUNT(*), SUM(state IN ('done','failed')) FROM tasks").fetchone()
print(1 if total and total == settled else 0)
PY
}

for security in insecure curve; do
  for access in paths bytes; do
    port=$((20000 + RANDOM % 20000))
    catalog="$work/$security-$access.sqlite"
    if [ "$security" = curve ]; then
      cflags=(--key "$work/c.key" --allow "$work/allow"); wflags=(--key "$work/w.key" --server-key "$work/c.pub")
    else
      cflags=(--insecure); wflags=(--insecure)
    fi
    roots=(); [ "$access" = paths ] && roots=(--root "$photos")
    "$bin" coordinator --bind "tcp://127.0.0.1:$port" "${cflags[@]}" --catalog "$catalog" --no-exports \
        --kinds "$kinds" --log-level error "$photos" &
    coordinator=$!
    # Wait until the scan has queued every photo, so only processing is timed.
    until [ -f "$catalog" ] && [ "$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM photos').fetchone()[0])" "$catalog" 2>/dev/null || echo 0)" -ge "$count" ]; do sleep 0.1; done
    start=$(date +%s.%N)
    "$bin" worker --connect "tcp://127.0.0.1:$port" "${wflags[@]}" "${roots[@]}" --slots "$slots" --log-level error & w1=$!
    "$bin" worker --connect "tcp://127.0.0.1:$port" "${wflags[@]}" "${roots[@]}" --slots "$slots" --log-level error & w2=$!
    until [ "$(settled "$catalog")" = 1 ]; do sleep 0.05; done
    end=$(date +%s.%N)
    kill -TERM $w1 $w2 $coordinator; wait $w1 $w2 $coordinator 2>/dev/null || true
    awk -v s="$security" -v a="$access" -v n="$count" -v b="$bytes" -v t0="$start" -v t1="$end" \
      'BEGIN { t = t1 - t0; printf "%-8s %-5s %5d photos %7.2f s %7.1f photos/s %7.1f MB/s\n", s, a, n, t, n / t, b / t / 1e6 }'
  done
done
