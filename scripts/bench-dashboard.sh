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

# The dashboard's reads on a catalog of 1,000,000 tasks (issue 15; docs/benchmarks.md):
# a `photomill coordinator` with HTTP on over the catalog of scripts/make-big-catalog.py,
# and 50 requests of each path with curl, one at a time (median and max, in ms).
#   scripts/bench-dashboard.sh [PHOTOMILL] [CATALOG]
# PHOTOMILL defaults to the release build; CATALOG (default /tmp/photomill-big.sqlite) is
# made when missing. The coordinator scans an empty folder, so nothing else happens.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/photomill}
catalog=${2:-/tmp/photomill-big.sqlite}
[ -f "$catalog" ] || scripts/make-big-catalog.py "$bin" "$catalog"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/empty"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" coordinator --bind "ipc://$work/c.sock" --catalog "$catalog" --no-exports --http "127.0.0.1:$port" "$work/empty" \
  2>"$work/coordinator.log" &
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done

python3 - "$catalog" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print("catalog: %s, %d tasks (%d pending), %d attempts" % (sys.argv[1], c.execute("select count(*) from tasks").fetchone()[0],
      c.execute("select count(*) from tasks where state = 'pending'").fetchone()[0], c.execute("select count(*) from attempts").fetchone()[0]))
PY
for path in /metrics /api/v1/status "/api/v1/failed?limit=20&order=newest" /api/v1/workers /api/v1/throughput /; do
  for _ in $(seq 50); do curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port$path"; done | sort -n |
    awk -v path="$path" '{ t[NR] = $1 * 1000 } END { printf "%-40s median %6.1f ms  max %6.1f ms  (%d requests)\n", path, t[int((NR + 1) / 2)], t[NR], NR }'
done
echo "bytes of /metrics: $(curl -s "http://127.0.0.1:$port/metrics" | wc -c)"
