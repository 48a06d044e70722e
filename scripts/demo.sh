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

# Installs what is needed, generates a demo set of photos and processes it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product photomill
bin=$(swift build -c release --show-bin-path)/photomill
demo=${1:-demo}
"$bin" samples "$demo/photos" --count "${COUNT:-60}" --seed 7
set +e
"$bin" run "$demo/photos" --catalog "$demo/photomill.sqlite" --exports "$demo/exports"
status=$?
set -e
echo
"$bin" status --catalog "$demo/photomill.sqlite"
echo "demo: exports in $demo/exports; exit status $status (1 = some tasks failed, as the broken samples should)"
[ "$status" -le 1 ]
