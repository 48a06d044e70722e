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

# The Debian package, installed on this host for real (as root; scripts/test.sh runs it
# when CI runs as root):
#   1. scripts/package-deb.sh builds it; lintian must find no error;
#   2. the binary links no Swift runtime library, and every library it needs resolves;
#   3. `dpkg -i`; `systemd-analyze verify` of the installed units (no running systemd
#      needed); `photomill --version` names the package's version and this commit;
#   4. `photomill run` over ../shared/corpus/photos with the installed binary, as the
#      photomill user, into /var/lib/photomill: every photo done with the MD5 the corpus
#      manifest has, every broken file failed or skipped (skipped with a message without
#      the corpus);
#   5. `dpkg -r`, then `dpkg -P`: the binary and units go, and the user, the catalog and
#      the keys stay, byte for byte.
# It refuses a host where photomill is installed or /etc/photomill or /var/lib/photomill
# exist, and leaves the host as it found it (user, folders, package), also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
corpus=$(realpath -m ../shared/corpus)
step() { echo "check-deb: $*"; }
fail() { echo "check-deb: FAIL: $*" >&2; exit 1; }
elapsed() { echo "$(($(date +%s) - $1)) s"; }

[ "$(id -u)" -eq 0 ] || { echo "check-deb: run as root: it installs and removes the package" >&2; exit 77; }
if dpkg-query -W -f='${db:Status-Status}' photomill 2>/dev/null | grep -qv '^not-installed$'; then
  fail "photomill is installed on this host and the check would replace and remove it; dpkg -P photomill first, or run the check on another host"
fi
for path in /etc/photomill /var/lib/photomill; do
  [ ! -e "$path" ] || fail "$path exists (another installation's, or an interrupted check's); move it away first"
done
had_user=false
getent passwd photomill >/dev/null && had_user=true
work=$(mktemp -d)

# dpkg, waiting for the lock while another apt or dpkg runs on this host.
dpkg_() {
  local output
  for _ in $(seq 1 120); do
    if output=$(dpkg "$@" 2>&1); then echo "$output"; return 0; fi
    grep -q 'lock' <<<"$output" || { echo "$output" >&2; return 1; }
    sleep 5
  done
  echo "$output" >&2
  return 1
}

# Keeps the exit status of what failed (an EXIT trap's last command would set it).
cleanup() {
  local status=$?
  rm -rf "$work"
  if dpkg-query -W -f='${db:Status-Status}' photomill 2>/dev/null | grep -qv '^not-installed$'; then
    dpkg_ -P photomill >/dev/null || true
  fi
  rm -rf /etc/photomill /var/lib/photomill
  if ! $had_user && getent passwd photomill >/dev/null; then
    deluser --quiet --system photomill >/dev/null 2>&1 || userdel photomill || true
    if getent group photomill >/dev/null; then delgroup --quiet --system photomill >/dev/null 2>&1 || groupdel photomill || true; fi
  fi
  exit "$status"
}
trap cleanup EXIT

# 1. Build and lint.
start=$(date +%s)
deb=$(scripts/package-deb.sh | tail -1)
step "built $(basename "$deb"): $(stat -c %s "$deb") bytes, in $(elapsed "$start")"
version=$(dpkg-deb -f "$deb" Version)
lintian_output=$(lintian --info "$deb" 2>&1) || true
echo "$lintian_output" | sed 's/^/  lintian: /'
if grep -q '^E: ' <<<"$lintian_output"; then fail "lintian reports errors"; fi
step "lintian: no errors ($(grep -c '^W: ' <<<"$lintian_output" || true) warnings, listed above)"

# 2. What the packaged binary links.
dpkg-deb -x "$deb" "$work/unpacked"
links=$(ldd "$work/unpacked/usr/bin/photomill")
if grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime' <<<"$links"; then
  fail "the packaged binary links a Swift runtime library (above)"
fi
if grep 'not found' <<<"$links"; then fail "the packaged binary needs libraries this host lacks (above)"; fi
step "ldd: $(wc -l <<<"$links") libraries, none of Swift's, all found"

# 3. Install, verify the units, ask the installed binary its version.
dpkg_ -i "$deb" >/dev/null
[ "$(dpkg-query -W -f='${Version}' photomill)" = "$version" ] || fail "dpkg does not list photomill $version as installed"
getent passwd photomill >/dev/null || fail "postinst made no photomill user"
[ "$(stat -c '%U:%G %a' /var/lib/photomill)" = "photomill:photomill 700" ] || fail "/var/lib/photomill: $(stat -c '%U:%G %a' /var/lib/photomill)"
[ "$(stat -c '%U:%G %a' /etc/photomill)" = "root:photomill 750" ] || fail "/etc/photomill: $(stat -c '%U:%G %a' /etc/photomill)"
units=(/lib/systemd/system/photomill-coordinator.service /lib/systemd/system/photomill-worker@.service)
if ! verify=$(systemd-analyze verify "${units[@]}" 2>&1) || [ -n "$verify" ]; then
  echo "$verify" >&2
  fail "systemd-analyze verify of the installed units"
fi
step "installed $version; systemd-analyze verify: both units clean"
report=$(/usr/bin/photomill --version)
echo "$report" | sed 's/^/  /'
[ "$(sed -n 1p <<<"$report")" = "photomill ${version%%+*}" ] || fail "--version's first line is not 'photomill ${version%%+*}'"
if commit=$(git rev-parse --verify --quiet HEAD); then
  sed -n 2p <<<"$report" | grep -q "^commit $commit" || fail "--version does not name this checkout's commit $commit"
fi

# 4. A run with the installed binary, as the service user, into its state folder. The
# corpus holds 45 photos and 5 broken files (its manifest says which); the run exits 1
# for the broken ones it fails. The catalog is read with Python's sqlite3 and checked
# against the manifest.
if [ -f "$corpus/manifest.json" ]; then
  start=$(date +%s)
  photos=$corpus/photos
  # A corpus the service user cannot read (a checkout under /root): a readable copy.
  if ! runuser -u photomill -- test -r "$photos/$(ls "$photos" | head -1)"; then
    photos=$work/photos
    mkdir "$photos"
    cp -p "$corpus"/photos/* "$photos/"
    chmod a+x "$work"
    chmod -R a+rX "$photos"
  fi
  status=0
  # From /, as systemd starts a service: the checkout may be a folder the user cannot
  # enter, and then `run` cannot start its workers.
  (cd / && runuser -u photomill -- env OMP_THREAD_LIMIT=1 /usr/bin/photomill run \
    --catalog /var/lib/photomill/photomill.sqlite --exports /var/lib/photomill/exports "$photos") \
    >/dev/null 2>"$work/run.log" || status=$?
  [ "$status" -le 1 ] || { cat "$work/run.log" >&2; fail "photomill run exited $status"; }
  python3 - "$corpus/manifest.json" "$photos" /var/lib/photomill/photomill.sqlite "$status" >"$work/summary" <<'PY' || fail "the catalog of the run (above)"
import json, os, sqlite3, sys
manifest_path, photos_dir, catalog, status = sys.argv[1:]
manifest = json.load(open(manifest_path))
files = {os.path.join(photos_dir, os.path.basename(f["path"])): f for f in manifest["files"]}
db = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True)
photos = dict(db.execute("SELECT path, md5 FROM photos"))
skipped = {row[0] for row in db.execute("SELECT path FROM skipped_files")}
states = {}
for path, kind, state in db.execute("SELECT p.path, t.kind, t.state FROM tasks t JOIN photos p ON p.id = t.photoId"):
    states.setdefault(path, {})[kind] = state
# Every kind the run gave a task (all of photomill's by default): each good photo has them all done.
kinds = sorted({kind for by_kind in states.values() for kind in by_kind})
problems = [] if {"hash", "metadata", "thumbnail", "ocr"} <= set(kinds) else [f"the run's kinds: {kinds}"]
for path, f in files.items():
    if f["kind"] == "photo":
        if photos.get(path) != f["md5"]:
            problems.append(f"{path}: MD5 {photos.get(path)}, the manifest says {f['md5']}")
        if states.get(path) != dict.fromkeys(kinds, "done"):
            problems.append(f"{path}: tasks {states.get(path)}")
    elif path in photos:
        # A broken file taken for media: hashed (any bytes hash), its pixels refused; or one
        # named as media that is empty or not media: every task failed at the scan, by name
        # (docs/catalog.md, "Named as media, but not").
        classes = {row[0] for row in db.execute(
            "SELECT t.errorClass FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = ?", (path,))}
        failed_at_scan = set(states[path].values()) == {"failed"} and classes <= {"empty", "not-an-image"}
        hashed_refused = states[path].get("thumbnail") == "failed" and photos[path] == f["md5"]
        if not (failed_at_scan or hashed_refused):
            problems.append(f"{path}: broken, yet tasks {states[path]}, classes {classes} and MD5 {photos[path]}")
    elif path not in skipped:
        problems.append(f"{path}: neither in photos nor skipped")
if set(photos) | skipped != set(files):
    problems.append(f"not in the manifest: {sorted((set(photos) | skipped) - set(files))}")
failed = sum(state == "failed" for kinds in states.values() for state in kinds.values())
if (failed > 0) != (status == "1"):
    problems.append(f"run exited {status} with {failed} failed tasks")
if problems:
    sys.exit("\n".join(problems))
print(f"{len(photos)} photos and {len(skipped)} files skipped; {failed} tasks failed, all the broken files'")
PY
  step "photomill run over $photos in $(elapsed "$start"): $(cat "$work/summary"); every MD5 as the manifest says"
else
  step "skipped the run: $corpus is absent (a fresh clone)"
  install -d -m 0700 -o photomill -g photomill /var/lib/photomill/exports
  echo "a catalog stand-in" | runuser -u photomill -- tee /var/lib/photomill/photomill.sqlite >/dev/null
fi
/usr/bin/photomill keys generate --out /etc/photomill/coordinator >/dev/null
chown photomill:photomill /etc/photomill/coordinator.key
kept() { find /var/lib/photomill /etc/photomill/coordinator.key /etc/photomill/coordinator.pub -type f -print0 | sort -z | xargs -0 sha256sum; }
before=$(kept)

# 5. Remove, then purge: the operator's data stays.
for action in -r -P; do
  dpkg_ "$action" photomill >/dev/null
  [ ! -e /usr/bin/photomill ] && [ ! -e "${units[0]}" ] && [ ! -e "${units[1]}" ] || fail "dpkg $action left the binary or a unit"
  getent passwd photomill >/dev/null || fail "dpkg $action removed the photomill user"
  [ "$(kept)" = "$before" ] || fail "dpkg $action changed the catalog, exports or keys"
done
[ ! -e /etc/photomill/photomill.env ] || fail "dpkg -P left the conffile /etc/photomill/photomill.env"
step "dpkg -r and dpkg -P: binary and units gone; user, catalog ($(wc -l <<<"$before") files with the keys) unchanged"
step "passed"
