#!/usr/bin/env bash
# Installs what is needed, generates a demo set of photos and processes it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product photomill
bin=$(swift build -c release --show-bin-path)/photomill
demo=${1:-demo}
"$bin" samples "$demo/photos" --count "${COUNT:-60}" --seed 7
mkdir -p "$demo/thumbs"
set +e
"$bin" inspect --thumbnail-dir "$demo/thumbs" "$demo"/photos/*.*
status=$?
set -e
echo
echo "demo: thumbnails in $demo/thumbs; exit status $status (1 = some files failed, as the broken samples should)"
[ "$status" -le 1 ]
