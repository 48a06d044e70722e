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

# Times the operator commands on a large catalog (docs/benchmarks.md).
#   scripts/bench-operations.sh [PHOTOMILL] [CATALOG]
# PHOTOMILL defaults to the release build; CATALOG (default /tmp/photomill-big.sqlite) is
# made by scripts/make-big-catalog.py when missing. retry runs on a copy, 5 times afresh.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/photomill}
catalog=${2:-/tmp/photomill-big.sqlite}
[ -f "$catalog" ] || scripts/make-big-catalog.py "$bin" "$catalog"

# Wall time of a command in milliseconds, its output discarded.
ms() { python3 - "$@" <<'PY'
import subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(f"{(time.perf_counter() - start) * 1000:.0f}")
PY
}

runs() { local out=(); for _ in 1 2 3 4 5; do out+=("$("$@")"); done; echo "${out[*]}"; }

echo "catalog: $catalog ($(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select count(*) from tasks').fetchone()[0], 'tasks,', c.execute(\"select count(*) from tasks where state='failed' and kind='ocr'\").fetchone()[0], 'failed ocr')" "$catalog"))"
echo "status --json (ms):        $(runs ms "$bin" status --json --catalog "$catalog")"
echo "failed --kind ocr (ms):    $(runs ms "$bin" failed --kind ocr --catalog "$catalog")"
echo "failed --kind ocr --json:  $(runs ms "$bin" failed --kind ocr --json --catalog "$catalog")"
echo "search invoice (ms):       $(runs ms "$bin" search invoice --catalog "$catalog")"
echo "duplicates (ms):           $(runs ms "$bin" duplicates --catalog "$catalog")"
copy=$(mktemp -d)/copy.sqlite
retries=()
for _ in 1 2 3 4 5; do
  cp "$catalog" "$copy"
  retries+=("$(ms "$bin" retry --kind ocr --catalog "$copy")")
done
echo "retry --kind ocr (ms):     ${retries[*]}   ($("$bin" retry --kind ocr --dry-run --catalog "$catalog"))"
rm -rf "$(dirname "$copy")"
