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

# Files per second for hash+metadata+thumbnail over 12-megapixel JPEGs: `photomill inspect`
# (release build, all cores) next to the per-file shell pipeline a user would write
# (md5sum + exiftool + vipsthumbnail, two files at a time) on the same files.
# Usage: scripts/bench-inspect.sh [COUNT]   (prints a small table; best of 3 runs each)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-24}
swift build -c release --product photomill >/dev/null
bin=$(swift build -c release --show-bin-path)/photomill
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" samples "$work/photos" --count "$count" --seed 12 --photo-size 4000x3000 >/dev/null
# Only the 12-megapixel photos (not the text pages or broken files).
mapfile -t files < <(cd "$work/photos" && ls IMG_*.jpg | sed "s|^|$work/photos/|")
n=${#files[@]}
mb=$(du -cm "${files[@]}" | tail -1 | cut -f1)
cores=$(nproc)

best() { # best wall time of 3 runs of "$@", in seconds
  local best=999999
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N)
    best=$(echo "$best $start $end" | awk '{t=$3-$2; print (t<$1)?t:$1}')
  done
  echo "$best"
}

mkdir -p "$work/thumbs"
t_pm=$(best "$bin" inspect --kinds hash,metadata,thumbnail --json "${files[@]}")
t_pm1=$(best taskset -c 0 "$bin" inspect --kinds hash,metadata,thumbnail --json "${files[@]}")
pipeline() {
  printf '%s\n' "${files[@]}" | xargs -P "$cores" -I{} sh -c \
    'md5sum "$1" && exiftool -j -n "$1" && vipsthumbnail "$1" -s 256 -o "$2/%s.jpg"' _ {} "$work/thumbs"
}
t_sh=$(best pipeline)

printf '%d photos of 4000x3000 (%d MB), %d cores\n' "$n" "$mb" "$cores"
printf '%-52s %8s %8s\n' "" "files/s" "MB/s"
awk -v n="$n" -v mb="$mb" -v a="$t_pm" -v b="$t_pm1" -v c="$t_sh" 'BEGIN {
  printf "%-52s %8.2f %8.1f\n", "photomill inspect (all cores)", n/a, mb/a;
  printf "%-52s %8.2f %8.1f\n", "photomill inspect (one core: per-photo CPU cost)", n/b, mb/b;
  printf "%-52s %8.2f %8.1f\n", "md5sum + exiftool + vipsthumbnail per file (xargs -P)", n/c, mb/c;
  printf "speed-up over the shell pipeline: %.1fx\n", c/a }'
