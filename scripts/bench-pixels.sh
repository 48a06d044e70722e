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

# Thumbnail time per format on the paths issue 27 changed (docs/benchmarks.md, "Thumbnails
# of deep, HDR and RAW-container pictures"), for one or two photomill binaries (before and
# after): `photomill inspect --kinds thumbnail` over COPIES copies of each fixture, median
# wall time of RUNS runs, in milliseconds per file, with the 1-minute load average.
#
# Usage: scripts/bench-pixels.sh [--copies N] [--runs N] BINARY [BINARY...]
#
# Fixtures (made here, as the tests make them: Tests/Media/*.py, heif-enc, cjxl, ffmpeg):
# a 12-megapixel (4000x3000) picture from ffmpeg's testsrc2 as 10-bit HEIF with PQ nclx,
# 16-bit JPEG XL with PQ, 10-bit HEVC PQ MP4 (3 s); an 8-bit HEIC of the same (the path
# every phone photo takes, to show it did not get slower); a CR3 with 160, 1620 and 6000
# pixel previews (from ../shared/corpus/formats/CanonRaw.cr3, an EOS M50 LibRaw knows);
# an X3F with a 2640-pixel preview (from formats2's DP2 file, when formats2 is there).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
copies=8 runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --copies) copies=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { sed -n '2,16p' "$0"; exit 64; }
media=$repo/Tests/Media corpus=$repo/../shared/corpus
work=$(mktemp -d /tmp/bench-pixels.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

ffmpeg -v error -f lavfi -i testsrc2=size=4000x3000 -frames:v 1 source.png
python3 "$media/hdr_fixture.py" source.png pq.ppm --transfer pq
vips copy pq.ppm pq.png
heif-enc -b 10 -q 85 --matrix_coefficients 6 --colour_primaries 9 --transfer_characteristic 16 -o bare.heic pq.png >/dev/null
python3 "$media/heif_set_nclx.py" bare.heic pq-10bit.heic 9 16 6 1
heif-enc -q 85 -o sdr-8bit.heic source.png >/dev/null
cjxl pq.ppm pq-16bit.jxl -d 1 -x color_space=RGB_D65_202_Rel_PeQ >/dev/null 2>&1
ffmpeg -v error -loop 1 -i pq.ppm -t 3 -r 10 -vf "scale=1920:1080,scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p10le" \
  -c:v libx265 -x265-params log-level=error -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -tag:v hvc1 pq-hevc10.mp4
names=(pq-10bit.heic sdr-8bit.heic pq-16bit.jxl pq-hevc10.mp4)
if [ -f "$corpus/formats/CanonRaw.cr3" ]; then
  ffmpeg -v error -f lavfi -i testsrc2=size=6000x4000 -frames:v 1 full.png
  vips thumbnail full.png preview.jpg 1620 && vips thumbnail full.png thumb.jpg 160 && vips copy full.png full.jpg
  python3 "$media/cr3_fixture.py" "$corpus/formats/CanonRaw.cr3" m50.cr3 thumb.jpg preview.jpg full.jpg
  names+=(m50.cr3)
fi
if [ -f "$corpus/formats2/exiftool_SigmaDP2.x3f" ]; then
  ffmpeg -v error -f lavfi -i testsrc2=size=2640x1760 -frames:v 1 x3f.png
  vips copy x3f.png x3f-full.jpg && vips thumbnail x3f.png x3f-small.jpg[strip] 221
  python3 "$media/x3f_fixture.py" "$corpus/formats2/exiftool_SigmaDP2.x3f" dp2.x3f x3f-full.jpg x3f-small.jpg
  names+=(dp2.x3f)
fi
for name in "${names[@]}"; do
  mkdir -p "set-$name"
  for i in $(seq 1 "$copies"); do cp "$name" "set-$name/$i-$name"; done
done

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $copies files a run, median of $runs runs"
printf '%-16s' format
for bin in "$@"; do printf '%28s' "$(basename "$(dirname "$(dirname "$(dirname "$bin")")")")"; done
echo
for name in "${names[@]}"; do
  printf '%-16s' "$name"
  for bin in "$@"; do
    times=()
    result=""
    for _ in $(seq 1 "$runs"); do
      start=$(date +%s.%N)
      if OMP_THREAD_LIMIT=1 "$bin" inspect --json --kinds thumbnail "set-$name"/* >out.json 2>/dev/null; then result=ok; else result="$(grep -c errors out.json) failed"; fi
      end=$(date +%s.%N)
      times+=("$(echo "($end - $start) * 1000 / $copies" | bc -l)")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
    printf '%20.0f ms/file %s' "$median" "$([ "$result" = ok ] || echo "($result)")"
  done
  echo
done
