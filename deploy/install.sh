#!/usr/bin/env bash
# Installs photomill as a systemd service on this host (run as root from a checkout):
#   deploy/install.sh coordinator      # the NAS: coordinator + its key pair
#   deploy/install.sh worker [N]       # a worker host: N worker instances (default 1)
# It builds the release binary, creates the `photomill` system user, /etc/photomill
# (keys, allow-list, environment file) and /var/lib/photomill, installs the units and
# enables them. It never overwrites an existing key, allow-list or environment file.
set -euo pipefail
role="${1:-}"
count="${2:-1}"
case "$role" in
  coordinator|worker) ;;
  *) echo "usage: $0 coordinator | worker [N]" >&2; exit 64 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root (it writes /etc, /usr/local and systemd units)" >&2; exit 77; }
cd "$(dirname "$0")/.."

scripts/install-deps.sh
swift build -c release --product photomill
install -m 0755 .build/release/photomill /usr/local/bin/photomill
install -d -m 0755 /usr/local/share/doc/photomill
install -m 0644 docs/deploy.md /usr/local/share/doc/photomill/deploy.md

id photomill >/dev/null 2>&1 || useradd --system --home-dir /var/lib/photomill --shell /usr/sbin/nologin photomill
install -d -m 0750 -o root -g photomill /etc/photomill
[ -e /etc/photomill/photomill.env ] || install -m 0640 -o root -g photomill deploy/photomill.env /etc/photomill/photomill.env

# Keys: the secret readable by the service user only.
make_keys() {
  local name="$1"
  if [ ! -e "/etc/photomill/$name.key" ]; then
    /usr/local/bin/photomill keys generate --out "/etc/photomill/$name"
  fi
  chown photomill:photomill "/etc/photomill/$name.key"
  chmod 0600 "/etc/photomill/$name.key"
}

install -m 0644 deploy/photomill-coordinator.service deploy/photomill-worker@.service /etc/systemd/system/
systemctl daemon-reload

if [ "$role" = coordinator ]; then
  install -d -m 0700 -o photomill -g photomill /var/lib/photomill
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
