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

# Builds both probes (-O2, plus ASan builds) and runs every measurement; see README.md. Args go to measure.py.
exec python3 "$(dirname "$0")/measure.py" "$@"
