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

# Installs photomill as a systemd service on this host (run as root):
#   deploy/install.sh coordinator [DEB]     # the NAS: coordinator + its key pair
#   deploy/install.sh worker [N] [DEB]      # a worker host: N worker instances (default 1)
# With DEB (a photomill_….deb from scripts/package-deb.sh) it needs nothing but apt: the
# package brings the binary, the units, the environment file and the `photomill` user,
# and apt the libraries it depends on. Without one it must run from a checkout with a
# Swift toolchain: it builds the package first (scripts/package-deb.sh), then installs it.
# Then it makes this host's key pair and, on the coordinator, an empty allow-list, and
# says what to enable. It never overwrites an existing key, allow-list or environment file.
set -euo pipefail
usage="usage: $0 coordinator [photomill_….deb] | worker [N] [photomill_….deb]"
role="${1:-}"
shift || true
count=1
if [ "$role" = worker ] && [[ "${1:-}" =~ ^[0-9]+$ ]]; then count=$1; shift; fi
deb="${1:-}"
case "$role" in
  coordinator|worker) ;;
  *) echo "$usage" >&2; exit 64 ;;
esac
[ $# -le 1 ] || { echo "$usage" >&2; exit 64; }
[ "$count" -ge 1 ] || { echo "install.sh: N must be at least 1, not $count" >&2; exit 64; }
if [ -n "$deb" ]; then
  [[ "$deb" == *.deb ]] && [ -f "$deb" ] || { echo "install.sh: $deb: no such .deb file (build one with scripts/package-deb.sh)" >&2; exit 66; }
  deb=$(realpath "$deb")
fi
[ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root (it installs a package and writes /etc/photomill)" >&2; exit 77; }

if [ -z "$deb" ]; then
  cd "$(dirname "$0")/.."
  [ -x scripts/package-deb.sh ] || { echo "install.sh: no package given and no checkout to build one from" >&2; exit 66; }
  scripts/install-deps.sh
  deb=$(scripts/package-deb.sh | tail -1)
fi
# apt, not dpkg -i: it fetches what the package depends on. An environment file the
# operator changed is kept on upgrades (confold), without a question.
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=300 \
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$deb"

# Keys: the secret readable by the service user only.
make_keys() {
  local name="$1"
  if [ ! -e "/etc/photomill/$name.key" ]; then
    photomill keys generate --out "/etc/photomill/$name"
  fi
  chown photomill:photomill "/etc/photomill/$name.key"
  chmod 0600 "/etc/photomill/$name.key"
}

if [ "$role" = coordinator ]; then
  make_keys coordinator
  [ -e /etc/photomill/allowed-workers ] || printf '# photomill workers: one public key per line, then a label\n' \
      | install -m 0640 -o root -g photomill /dev/stdin /etc/photomill/allowed-workers
  echo "Edit /etc/photomill/photomill.env (PHOTOMILL_PHOTOS), add workers' .pub lines to"
  echo "/etc/photomill/allowed-workers, copy /etc/photomill/coordinator.pub to each worker host, then:"
  echo "  systemctl enable --now photomill-coordinator"
else
  make_keys worker
  echo "This worker's public key (append this line to the coordinator's /etc/photomill/allowed-workers):"
  cat /etc/photomill/worker.pub
  echo "Copy the coordinator's coordinator.pub to /etc/photomill/coordinator.pub, set PHOTOMILL_CONNECT"
  echo "in /etc/photomill/photomill.env, then:"
  seq 1 "$count" | sed 's/^/  systemctl enable --now photomill-worker@/'
fi
