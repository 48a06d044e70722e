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

# What a re-scan costs (issue 14: the walk remembers every photo it finds and marks those
# it does not find missing at its end; a new file of a hashed photo's size whose photo
# left is hashed to find a move). docs/benchmarks.md.
#   scripts/bench-rescan.sh [PHOTOMILL] [FILES]
# PHOTOMILL defaults to the release build; FILES (default 50000) are tiny samples made
# distinct (bytes appended after the JPEG's end: sizes spread over ~8,000 values, as a
# library's do), 1,000 to a folder, in a fresh temporary folder. Wall times of `run`, each
# three times: over the unchanged tree (the scan alone: no work); after deleting 1/300 of
# the files (marked missing); after renaming 1/300 (each hashed once, found moved). Any
# photomill binary runs the first (an older one gives the before; the others then
# process the renamed files as new ones).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-.build/release/photomill}")
files=${2:-50000}
work=$(mktemp -d /tmp/photomill-rescan.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$bin" samples "$work/seed" --count 8 --photo-size 64x48 >/dev/null

# files DELETE_ROUND RENAME_ROUND: makes the tree, or deletes / renames every 300th file.
tree() { python3 - "$work" "$files" "$@" <<'PY'
import glob, os, sys
work, files, action, rnd = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
seeds = [open(p, "rb").read() for p in sorted(glob.glob(f"{work}/seed/IMG_*.jpg"))]
for i in range(files):
    path = f"{work}/photos/{i // 1000:04d}/IMG_{i:06d}.jpg"
    if action == "make":
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "wb").write(seeds[i % len(seeds)] + b"\0" * (i % 997) + str(i).encode())
    elif action == "delete" and i % 300 == rnd:
        os.remove(path)
    elif action == "rename" and i % 300 == 100 + rnd:
        os.rename(path, path[:-4] + "-renamed.jpg")
PY
}

# Wall seconds of `run`; its summary's first line in $work/out.
rescan() { python3 - "$bin" "$work" <<'PY'
import subprocess, sys, time
bin, work = sys.argv[1], sys.argv[2]
start = time.perf_counter()
out = subprocess.run([bin, "run", f"{work}/photos", "--workers", "2", "--kinds", "hash", "--no-exports",
                      "--catalog", f"{work}/catalog.sqlite"], capture_output=True, text=True).stdout
print(f"{time.perf_counter() - start:.2f}")
open(f"{work}/out", "w").write(out.splitlines()[0] if out else "")
PY
}

tree make 0
echo "photomill: $bin; $files files; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "first run, $files hashes (s): $(rescan)   ($(cat "$work/out"))"
times=(); for _ in 1 2 3; do times+=("$(rescan)"); done
echo "re-scan, unchanged (s): ${times[*]}   ($(cat "$work/out"))"
times=(); for round in 1 2 3; do tree delete "$round"; times+=("$(rescan)"); done
echo "re-scan after deleting 1/300 (s): ${times[*]}   (last: $(cat "$work/out"))"
times=(); for round in 1 2 3; do tree rename "$round"; times+=("$(rescan)"); done
echo "re-scan after renaming 1/300 (s): ${times[*]}   (last: $(cat "$work/out"))"
