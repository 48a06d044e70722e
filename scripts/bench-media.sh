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

# Speed and memory of photomill on camera RAW, video and HEIC (issue 13, "It must show"),
# against the per-file shell pipelines a user would write, on the same files.
#
# Usage: scripts/bench-media.sh [--binary PATH] [--out DIR] [--runs N] [--only PARTS]
#   --binary  photomill to measure (default: builds and uses .build/release/photomill)
#   --out     folder for inputs, thumbnails and results (default: a new /tmp/bench-media.*);
#             inputs already made there are reused, so a second run over the same --out
#             measures again without regenerating
#   --runs    runs per figure (default 3; the median wall time is reported)
#   --only    comma-separated subset of raw,video,heic,memory (default: all)
# Environment: RAW_COPIES (40), DNG45_COUNT (12), VIDEO_COUNT (12), HEIC_COUNT (12).
#
# Everything is generated here, nothing is downloaded: copies of the corpus's
# canon_eos_6d.dng (1224x816; Adobe's layout: a 256x171 JPEG in IFD0, a 1024x683 one in
# SubIFD1); 45-megapixel DNGs (8192x5464, uncompressed, orientation 6) written by
# scripts/bench-media-dng.py in the layout of Sources/Samples/SyntheticDNG.swift, with a
# photo from `photomill samples` as previews: the DNG Converter's "full size" layout (a
# 256-px RGB thumbnail in IFD0, a 1024-px JPEG in SubIFD1, the full-size 9 MB JPEG in
# SubIFD2, as ../shared/corpus/formats/DNG.dng) and a layout whose only preview that
# reaches 256 px is the full-size JPEG (a 160-px thumbnail besides); 1080p H.264 5-s
# MP4/MOV (testsrc2, AAC audio, a keyframe a second as phones write); 12-megapixel HEICs
# from `photomill samples` photos, single-coded (heif-enc, with and without a 320-pixel
# embedded thumbnail) and as grids of 512-px tiles as iPhones write them (tiles by
# heif-enc, boxes by scripts/bench-media-heic-grid.py; with and without a 320-px
# thumbnail); a 100-megapixel HEIC (11552x8672), single-coded and as a grid of 23x17
# tiles of 512.
#
# Each speed figure: files per second over the same N files, median of --runs wall times,
# with user+sys CPU of the whole process tree, the CPU used by everything else on the
# machine during the run (from /proc/stat: > 0.2 s per s of wall means another job was
# competing) and the 1-minute load average at the start. Every run's thumbnails are
# checked: one per input, 256 pixels on the long side; a run that misses any is marked.
# Memory: peak RSS (/usr/bin/time -v, "Maximum resident set size") of
# `photomill inspect --kinds hash,metadata,thumbnail,ocr FILE`, the worker's processing in
# one process, max of --runs runs.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
bin="" out="" runs=3 only="raw,video,heic,memory"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -h|--help) sed -n '2,36p' "$0"; exit 0 ;;
    *) echo "bench-media.sh: unknown argument $1" >&2; exit 64 ;;
  esac
done
raw_copies=${RAW_COPIES:-40} dng45_count=${DNG45_COUNT:-12}
video_count=${VIDEO_COUNT:-12} heic_count=${HEIC_COUNT:-12}
corpus_dng=${CORPUS_DNG:-$repo/../shared/corpus/formats/canon_eos_6d.dng}
[ -f "$corpus_dng" ] || corpus_dng=/work/shared/corpus/formats/canon_eos_6d.dng

for tool in exiftool vips vipsthumbnail vipsheader ffmpeg heif-enc heif-info parallel python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench-media.sh: needs $tool (scripts/install-deps.sh)" >&2; exit 69; }
done
if [ -z "$bin" ]; then
  (cd "$repo" && swift build -c release --product photomill >/dev/null)
  bin=$repo/.build/release/photomill
fi
bin=$(readlink -f "$bin")
[ -n "$out" ] || out=$(mktemp -d /tmp/bench-media.XXXXXX)
mkdir -p "$out"
out=$(readlink -f "$out")
in=$out/inputs work=$out/work
mkdir -p "$in" "$work"
results=$out/results.tsv summary=$out/summary.txt log=$out/log.txt
[ -f "$results" ] || printf 'part\tset\tcontender\tfiles\trun\twall_s\tuser_s\tsys_s\tother_cpu_s\tload1\tthumbs_ok\texit\n' >"$results"
helper=$repo/scripts/bench-media-dng.py grid_helper=$repo/scripts/bench-media-heic-grid.py
wants() { [[ ",$only," == *",$1,"* ]]; }
say() { echo "$*" | tee -a "$summary"; }
note() { echo "[$(date +%H:%M:%S)] $*" >&2; }

say "bench-media $(date -Iseconds) on $(hostname), $(nproc) cores; binary $bin"
say "git $(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo '?'); out $out"

# ---------------------------------------------------------------- inputs
# copies SRC DIR COUNT NAME EXT: COUNT copies of SRC (cp, so each is its own file).
copies() {
  local src=$1 dir=$2 count=$3 name=$4 ext=$5 i
  [ -f "$dir/.done" ] && return 0
  mkdir -p "$dir"
  for i in $(seq -w 1 "$count"); do cp "$src" "$dir/${name}_$i.$ext"; done
  touch "$dir/.done"
}

make_raw() {
  copies "$corpus_dng" "$in/raw-6d" "$raw_copies" 6d dng
  local src=$in/src45
  mkdir -p "$src"
  if [ ! -f "$src/full-only.dng" ]; then
    note "making 45-MP DNGs"
    "$bin" samples "$src/samples" --count 2 --seed 45 --photo-size 8192x5464 >/dev/null
    # The previews as a camera stores them: unrotated, no EXIF of their own.
    exiftool -q -all= -o "$src/photo.jpg" "$src/samples/IMG_0001.jpg"
    vips thumbnail "$src/photo.jpg" "$src/medium.jpg[Q=90,strip]" 1024
    vips thumbnail "$src/photo.jpg" "$src/thumb.ppm" 256
    vips thumbnail "$src/photo.jpg" "$src/small.ppm" 160
    python3 "$helper" "$src/no-preview.dng" 8192 5464 --orientation 6
    python3 "$helper" "$src/adobe.dng" 8192 5464 --orientation 6 \
      --preview "$src/thumb.ppm" --preview "$src/medium.jpg" --preview "$src/photo.jpg"
    python3 "$helper" "$src/full-only.dng" 8192 5464 --orientation 6 --preview "$src/small.ppm" --preview "$src/photo.jpg"
  fi
  copies "$src/adobe.dng" "$in/raw-45mp-adobe" "$dng45_count" dng45a dng
  copies "$src/full-only.dng" "$in/raw-45mp-full" "$dng45_count" dng45f dng
}

make_video() {
  local dir=$in/video i ext
  [ -f "$dir/.done" ] && return 0
  note "making $video_count videos"
  mkdir -p "$dir"
  for i in $(seq -w 1 "$video_count"); do
    if (( 10#$i % 2 )); then ext=mp4; else ext=mov; fi
    ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=5" \
      -f lavfi -i "sine=frequency=$((300 + 10#$i * 20)):duration=5" \
      -vf "hue=h=$((10#$i * 29))" -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p \
      -c:a aac -b:a 96k -shortest "$dir/clip_$i.$ext"
  done
  touch "$dir/.done"
}

make_heic() {
  local src=$in/src-heic i distinct=$(( (heic_count + 1) / 2 ))
  [ -f "$in/heic/.done" ] && [ -f "$in/heic-thumb/.done" ] && return 0
  note "making $distinct distinct 12-MP HEICs (x2 variants)"
  mkdir -p "$src" "$in/heic" "$in/heic-thumb"
  "$bin" samples "$src/samples" --count $((distinct * 2 + 2)) --seed 12 --photo-size 4032x3024 >/dev/null
  mapfile -t photos < <(ls "$src"/samples/IMG_*.jpg | head -n "$distinct")
  for i in "${!photos[@]}"; do
    heif-enc -q 50 -p preset=medium -o "$src/p$i.heic" "${photos[$i]}" >/dev/null
    heif-enc -q 50 -p preset=medium -t 320 -o "$src/t$i.heic" "${photos[$i]}" >/dev/null
  done
  cycle "$in/heic" "$src/p%d.heic"
  cycle "$in/heic-thumb" "$src/t%d.heic"
}

# cycle DIR PATTERN: HEIC_COUNT files DIR/IMG_NN.heic, copies of the distinct pictures
# PATTERN names (%d: their number) in turn.
cycle() {
  local dir=$1 pattern=$2 j distinct=$(( (heic_count + 1) / 2 ))
  for j in $(seq 0 $((heic_count - 1))); do
    # shellcheck disable=SC2059
    cp "$(printf "$pattern" $((j % distinct)))" "$dir/IMG_$(printf %02d "$j").heic"
  done
  touch "$dir/.done"
}

# grid_heic OUT IMAGE WIDTH HEIGHT TILEDIR [THUMB.heic] [HEIF-ENC OPTIONS...]: IMAGE cut
# into 512-px tiles (the edges repeated past the picture, as encoders pad), each encoded
# by heif-enc, assembled into a grid HEIC by scripts/bench-media-heic-grid.py.
grid_heic() {
  local out=$1 image=$2 width=$3 height=$4 dir=$5 thumb=$6; shift 6
  local columns=$(( (width + 511) / 512 )) rows=$(( (height + 511) / 512 )) r c tiles=()
  rm -rf "$dir"; mkdir -p "$dir"
  vips embed "$image" "$dir/pad.v" 0 0 $((columns * 512)) $((rows * 512)) --extend copy
  vips dzsave "$dir/pad.v" "$dir/t" --layout google --tile-size 512 --overlap 0 --depth one --suffix .png
  rm -f "$dir/pad.v"
  ls "$dir"/t/0/*/*.png | parallel --will-cite -j2 heif-enc "$@" -o {.}.heic {} ">/dev/null"
  for r in $(seq 0 $((rows - 1))); do
    for c in $(seq 0 $((columns - 1))); do tiles+=("$dir/t/0/$r/$c.heic"); done
  done
  python3 "$grid_helper" "$out" "$width" "$height" "$columns" "$rows" "${tiles[@]}" ${thumb:+--thumbnail "$thumb"}
  rm -rf "$dir"
}

make_heic_grid() {
  local src=$in/src-heic i distinct=$(( (heic_count + 1) / 2 ))
  [ -f "$in/heic-grid/.done" ] && [ -f "$in/heic-grid-thumb/.done" ] && return 0
  make_heic
  note "making $distinct distinct 12-MP grid HEICs (x2 variants, 48 tiles each)"
  mkdir -p "$in/heic-grid" "$in/heic-grid-thumb"
  mapfile -t photos < <(ls "$src"/samples/IMG_*.jpg | head -n "$distinct")
  for i in "${!photos[@]}"; do
    vips thumbnail "${photos[$i]}" "$src/small$i.jpg" 320
    heif-enc -q 50 -p preset=medium -o "$src/small$i.heic" "$src/small$i.jpg" >/dev/null
    grid_heic "$src/g$i.heic" "${photos[$i]}" 4032 3024 "$src/tiles" "" -q 50 -p preset=medium
    grid_heic "$src/gt$i.heic" "${photos[$i]}" 4032 3024 "$src/tiles" "$src/small$i.heic" -q 50 -p preset=medium
  done
  cycle "$in/heic-grid" "$src/g%d.heic"
  cycle "$in/heic-grid-thumb" "$src/gt%d.heic"
}

make_big_heic() {
  local src=$in/src-big
  [ -f "$src/big-grid.heic" ] && return 0
  note "making the 100-MP HEIC (about 30 s per variant with heif-enc's ultrafast preset)"
  mkdir -p "$src"
  # A smooth picture (Perlin noise) encodes in seconds; decoding memory depends on the
  # pixel count, not the content.
  vips perlin "$src/p.v" 11552 8672 --cell-size 512 --uchar
  vips bandjoin "$src/p.v $src/p.v $src/p.v" "$src/p3.v"
  vips jpegsave "$src/p3.v" "$src/big.jpg" --Q 90 --strip
  rm -f "$src/p.v" "$src/p3.v"
  heif-enc -q 50 -p preset=ultrafast -o "$src/big.heic" "$src/big.jpg" >/dev/null
  heif-enc -q 50 -p preset=ultrafast -t 512 -o "$src/big-thumb.heic" "$src/big.jpg" >/dev/null
  note "making the 100-MP grid HEIC (391 tiles)"
  grid_heic "$src/big-grid.heic" "$src/big.jpg" 11552 8672 "$src/tiles" "" -q 50 -p preset=ultrafast
}

# ---------------------------------------------------------------- measuring
cpu_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9; exit}' /proc/stat; }  # jiffies (USER_HZ)

# check_thumbs DIR FILES...: "ok/total", ok = a DIR/STEM.jpg with 256 on its long side.
check_thumbs() {
  local dir=$1; shift
  local ok=0 f stem dims w h
  for f in "$@"; do
    stem=$(basename "${f%.*}")
    [ -s "$dir/$stem.jpg" ] || continue
    dims=$(vipsheader -f width "$dir/$stem.jpg" 2>/dev/null) || continue
    w=$dims; h=$(vipsheader -f height "$dir/$stem.jpg")
    if (( (w > h ? w : h) == 256 )); then ok=$((ok + 1)); fi
  done
  echo "$ok/$#"
}

# Shapes of the thumbnails (WxH: count), to see orientation differences between contenders.
shapes() { (cd "$1" && for f in *.jpg; do vipsheader -f width "$f" | tr '\n' x; vipsheader -f height "$f"; done) | sort | uniq -c | awk '{printf "%s%s×%s", (NR>1?", ":""), $2, $1}'; }

# measure PART SET CONTENDER THUMBDIR FILESVAR -- CMD...: runs CMD --runs times into a
# fresh THUMBDIR; prints the median line and leaves RATE (files/s) in $rate.
measure() {
  local part=$1 set=$2 who=$3 dir=$4 filesvar=$5; shift 6
  local -n files_ref=$filesvar
  local n=${#files_ref[@]} r walls=() line
  for r in $(seq 1 "$runs"); do
    rm -rf "$dir" "$work/tmp"; mkdir -p "$dir" "$work/tmp"
    sync
    local load busy0 busy1 status=0 tf=$work/time.txt
    load=$(cut -d' ' -f1 /proc/loadavg)
    busy0=$(cpu_busy)
    /usr/bin/time -f "%e %U %S" -o "$tf" "$@" >>"$log" 2>&1 || status=$?
    busy1=$(cpu_busy)
    read -r wall user sys <"$tf" || true
    # (time writes "Command exited with non-zero status N" first when it fails)
    [ "$status" = 0 ] || read -r wall user sys < <(tail -1 "$tf")
    local other ok
    other=$(awk -v a="$busy0" -v b="$busy1" -v u="$user" -v s="$sys" -v hz="$(getconf CLK_TCK)" 'BEGIN{o=(b-a)/hz-u-s; printf "%.2f", (o<0?0:o)}')
    ok=$(check_thumbs "$dir" "${files_ref[@]}")
    printf '%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$part" "$set" "$who" "$n" "$r" \
      "$wall" "$user" "$sys" "$other" "$load" "$ok" "$status" >>"$results"
    walls+=("$wall")
    printf '    run %d: %6.2f s wall, cpu %6.2f s, others %5.2f s, load %s, thumbs %s, exit %s\n' \
      "$r" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" "$other" "$load" "$ok" "$status" | tee -a "$summary"
  done
  local median
  median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  rate=$(awk -v n="$n" -v t="$median" 'BEGIN{printf "%.2f", n/t}')
  say "  $(printf '%-58s %3d files  median %7.2f s  %8.2f files/s' "$who" "$n" "$median" "$rate")   thumbnails: $(shapes "$dir")"
}

# compare PART SET FILESVAR SHELLCMD: photomill inspect against the shell pipeline.
compare() {
  local part=$1 set=$2 filesvar=$3 shellcmd=$4
  local -n fr=$filesvar
  say ""
  say "== $part: $set ($(du -ch "${fr[@]}" | tail -1 | cut -f1))"
  measure "$part" "$set" "photomill inspect --kinds thumbnail" "$work/pm" "$filesvar" -- \
    "$bin" inspect --kinds thumbnail --thumbnail-dir "$work/pm" "${fr[@]}"
  local pm=$rate
  measure "$part" "$set" "parallel -j2 (shell pipeline)" "$work/sh" "$filesvar" -- \
    parallel --will-cite -j2 "$shellcmd" ::: "${fr[@]}"
  local sh=$rate
  say "  photomill / shell: $(awk -v a="$pm" -v b="$sh" 'BEGIN{printf "%.2f", a/b}')x"
  pm_rate=$pm
}

# also PART SET FILESVAR LABEL SHELLCMD: another shell pipeline on the set `compare` just
# measured, against the same photomill figure.
also() {
  local part=$1 set=$2 filesvar=$3 label=$4 shellcmd=$5
  local -n fa=$filesvar
  measure "$part" "$set" "parallel -j2 ($label)" "$work/sh" "$filesvar" -- \
    parallel --will-cite -j2 "$shellcmd" ::: "${fa[@]}"
  say "  photomill / $label: $(awk -v a="$pm_rate" -v b="$rate" 'BEGIN{printf "%.2f", a/b}')x"
}

list() { local -n arr=$1; mapfile -t arr < <(ls "$2"/*.* 2>/dev/null | sort); }

# ---------------------------------------------------------------- parts
if wants raw; then
  make_raw
  say ""; say "# 1. RAW thumbnails. Shell: exiftool -b -PreviewImage {} | vipsthumbnail stdin -s 256"
  say "#    photomill decodes the smallest preview whose longest side reaches 256; exiftool's"
  say "#    PreviewImage is the one it names so (SubIFD1's in these DNGs)."
  raw_cmd="exiftool -b -PreviewImage {} | vipsthumbnail stdin -s 256 -o $work/sh/{/.}.jpg"
  same_cmd="exiftool -b -ThumbnailTIFF {} | vipsthumbnail stdin -s 256 -o $work/sh/{/.}.jpg"
  list f6d "$in/raw-6d"
  compare raw "canon_eos_6d.dng x$raw_copies (photomill: IFD0's 256x171 JPEG; shell: SubIFD1's 1024x683 JPEG)" f6d "$raw_cmd"
  list f45a "$in/raw-45mp-adobe"
  compare raw "45-MP DNG, DNG Converter layout x$dng45_count (photomill: IFD0's 256x171 RGB; shell: SubIFD1's 1024x683 JPEG)" f45a "$raw_cmd"
  also raw "45-MP DNG, DNG Converter layout x$dng45_count, shell on the same 256x171 RGB thumbnail" f45a \
    "exiftool -b -ThumbnailTIFF, same preview" "$same_cmd"
  list f45f "$in/raw-45mp-full"
  compare raw "45-MP DNG, 160-px thumbnail + full-size JPEG x$dng45_count (both: the 8192x5464 9 MB JPEG)" f45f "$raw_cmd"
fi

if wants video; then
  make_video
  say ""; say "# 2. Video poster frames. Shell: ffmpeg -ss 1 -frames:v 1 + vipsthumbnail -s 256"
  list fv "$in/video"
  compare video "1080p30 H.264 5 s MP4/MOV (keyframe every 30 frames) x$video_count" fv \
    "ffmpeg -v error -ss 1 -i {} -frames:v 1 -f image2 $work/tmp/{/.}.png && vipsthumbnail $work/tmp/{/.}.png -s 256 -o $work/sh/{/.}.jpg"
fi

if wants heic; then
  make_heic
  say ""; say "# 3. HEIC. Shell: vipsthumbnail {} -s 256"
  list fh "$in/heic";        compare heic "12-MP HEIC (4032x3024), no embedded thumbnail x$heic_count" fh "vipsthumbnail {} -s 256 -o $work/sh/{/.}.jpg"
  list fht "$in/heic-thumb"; compare heic "12-MP HEIC (4032x3024), 320-px embedded thumbnail x$heic_count" fht "vipsthumbnail {} -s 256 -o $work/sh/{/.}.jpg"
  make_heic_grid
  list fg "$in/heic-grid";        compare heic "12-MP grid HEIC (8x6 tiles of 512), no embedded thumbnail x$heic_count" fg "vipsthumbnail {} -s 256 -o $work/sh/{/.}.jpg"
  list fgt "$in/heic-grid-thumb"; compare heic "12-MP grid HEIC (8x6 tiles of 512), 320-px embedded thumbnail x$heic_count" fgt "vipsthumbnail {} -s 256 -o $work/sh/{/.}.jpg"
fi

if wants memory; then
  make_raw
  make_big_heic
  say ""; say "# 4. Peak RSS of photomill inspect --kinds hash,metadata,thumbnail,ocr FILE (max of $runs runs)"
  rss() { # LABEL CMD...: max and all peak RSS in MB
    local label=$1; shift
    local r all=() status
    for r in $(seq 1 "$runs"); do
      local load; load=$(cut -d' ' -f1 /proc/loadavg)
      status=0
      /usr/bin/time -v -o "$work/rss.txt" "$@" >"$work/rss-out.txt" 2>&1 || status=$?
      local kb wall
      kb=$(awk -F': ' '/Maximum resident set size/{print $2}' "$work/rss.txt")
      wall=$(awk -F': ' '/Elapsed \(wall clock\)/{print $2}' "$work/rss.txt")
      all+=("$((kb / 1024))")
      printf '%s\tmemory\t%s\t1\t%d\tpeak_rss_mb=%d\twall=%s\t\t\t%s\t\t%s\n' "memory" "$label" "$r" "$((kb / 1024))" "$wall" "$load" "$status" >>"$results"
      [ "$status" = 0 ] || { echo "--- $label exit $status" >>"$log"; cat "$work/rss-out.txt" >>"$log"; }
    done
    local max; max=$(printf '%s\n' "${all[@]}" | sort -n | tail -1)
    say "  $(printf '%-64s %5d MB  (runs: %s MB; wall %s; load %s; exit %s)' "$label" "$max" "${all[*]}" "$wall" "$load" "$status")"
    { grep -E 'thumbnail|error|fail' "$work/rss-out.txt" || true; } | head -3 | sed 's/^/      /' | tee -a "$summary"
  }
  k=hash,metadata,thumbnail,ocr
  big=$in/src-big
  rss "100-MP grid HEIC 11552x8672, 23x17 tiles of 512" "$bin" inspect --kinds "$k" "$big/big-grid.heic"
  rss "100-MP HEIC 11552x8672, one coded image" "$bin" inspect --kinds "$k" "$big/big.heic"
  rss "100-MP HEIC, one coded image, 512-px embedded thumbnail" "$bin" inspect --kinds "$k" "$big/big-thumb.heic"
  rss "45-MP DNG 8192x5464, DNG Converter layout (256 RGB, 1024, full size)" "$bin" inspect --kinds "$k" "$in/src45/adobe.dng"
  rss "45-MP DNG 8192x5464, 160-px thumbnail + full-size preview" "$bin" inspect --kinds "$k" "$in/src45/full-only.dng"
  rss "45-MP DNG 8192x5464, no preview (half-size demosaic)" "$bin" inspect --kinds "$k" "$in/src45/no-preview.dng"
  say "  by kind (a worker's OCR is a job of its own), and the tools alone, for comparison:"
  for kinds in thumbnail ocr; do
    rss "--kinds $kinds: 100-MP grid HEIC" "$bin" inspect --kinds "$kinds" "$big/big-grid.heic"
  done
  rss "vipsthumbnail -s 256: 100-MP grid HEIC" vipsthumbnail "$big/big-grid.heic" -s 256 -o "$work/tmp-%s.jpg"
  rss "vips copy (libheif decodes the grid whole): 100-MP grid HEIC" vips copy "$big/big-grid.heic" "$work/tmp-big.v"
  rm -f "$work/tmp-big.v"
  for kinds in thumbnail ocr; do
    rss "--kinds $kinds: 100-MP HEIC, one coded image" "$bin" inspect --kinds "$kinds" "$big/big.heic"
  done
  rss "vipsthumbnail -s 256: 100-MP HEIC, one coded image" vipsthumbnail "$big/big.heic" -s 256 -o "$work/tmp-%s.jpg"
  rss "--kinds ocr: 45-MP DNG, DNG Converter layout" "$bin" inspect --kinds ocr "$in/src45/adobe.dng"
  rss "--kinds thumbnail: 45-MP DNG, no preview" "$bin" inspect --kinds thumbnail "$in/src45/no-preview.dng"
  rss "--kinds ocr: 45-MP DNG, no preview" "$bin" inspect --kinds ocr "$in/src45/no-preview.dng"
fi

say ""
say "results: $results (every run); summary: $summary (appended per invocation); tool output: $log"
