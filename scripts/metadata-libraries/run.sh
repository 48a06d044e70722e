#!/usr/bin/env bash
# Builds both probes (-O2, plus ASan builds) and runs every measurement; see README.md. Args go to measure.py.
exec python3 "$(dirname "$0")/measure.py" "$@"
