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

# Builds the Debian package of photomill, so that a host needs nothing but apt to run it
# (docs/deploy.md):
#   scripts/package-deb.sh [OUT_DIR]      # default: out/ (kept out of git)
#   scripts/package-deb.sh --build-only   # only the release build (scripts/test.sh runs it
#                                         # beside the suite; the package then builds nothing)
# - /usr/bin/photomill: the release binary with Swift's runtime, standard library and
#   Foundation linked in (--static-swift-stdlib), stripped;
# - Depends: what that binary links, from dpkg-shlibdeps, and the data tesseract reads
#   (English and the orientation model); adduser for postinst;
# - the systemd units and the environment file of deploy/ (this one a conffile), the
#   `photomill` user made in postinst (deploy/debian/), docs/deploy.md, a man page made
#   from the commands' own help (swift-argument-parser's generate-manual), a changelog
#   and the copyright of everything linked in.
# The version is the binary's own (`photomill --version`): 0.2.0 on a commit tagged
# v0.2.0, 0.2.0+gitYYYYMMDDhhmmss.COMMIT otherwise (ordered by commit time, so that
# `apt install` of a later build upgrades), .dirty after it for uncommitted changes.
# The last line printed is the package's path; everything else goes to stderr.
set -euo pipefail
umask 022
cd "$(dirname "$0")/.."
root=$PWD
build_only=false
if [ "${1:-}" = --build-only ]; then build_only=true; shift; fi
out=$(realpath -m "${1:-out}")
maintainer=${PHOTOMILL_MAINTAINER:-"photomill maintainers <photomill@example.org>"}
# Its own build folder: release objects with other flags than the debug build's, and
# than `swift run -c release photomill-bench`'s, so that none rebuilds another's.
scratch=$root/.build-deb
log() { echo "package-deb: $*" >&2; }

log "building the release binary in ${scratch#"$root/"} (swift build -c release --static-swift-stdlib)"
# Linker: no RUNPATH $ORIGIN (nothing of ours lies beside the binary); BIND_NOW, as
# Debian's hardening wants. (The pkg-config lines of tesseract and libvips link libcurl,
# libarchive, lcms2 and gio, whose symbols photomill never uses; --as-needed cannot drop
# them, SwiftPM puts those -l flags before any of ours. Their packages are in Depends:,
# and tesseract's and libvips' packages would bring them anyway.)
# --disable-build-manifest-caching: SwiftPM reuses its build plan when no file was added or
# removed, and then runs no prebuild command, so BuildCommit would leave an earlier build's
# commit in the binary (and so in the package's version).
build=(swift build -c release --static-swift-stdlib --disable-local-rpath --disable-build-manifest-caching
       --scratch-path "$scratch" -Xlinker -z -Xlinker now)
"${build[@]}" --product photomill >&2
"${build[@]}" --product generate-manual >&2
if $build_only; then exit 0; fi
binary=$scratch/release/photomill

# The version and commit as the binary reports them (VersionReport.swift).
report=$("$binary" --version)
number=$(sed -n '1s/^photomill \([0-9][0-9.]*\)$/\1/p' <<<"$report")
commit=$(sed -n '2s/^commit \([0-9a-f]\{40\}\).*/\1/p' <<<"$report")
[ -n "$number" ] || { log "cannot read the version from '$binary --version': $report"; exit 1; }
version=$number
date_r=$(date -R)
if [ -n "$commit" ]; then
  date_r=$(git show -s --format=%cD "$commit")
  if [ "$(git tag --points-at "$commit" | grep -Fx "v$number" || true)" = "" ]; then
    version+="+git$(TZ=UTC git show -s --date=format-local:%Y%m%d%H%M%S --format=%cd "$commit").${commit:0:12}"
  fi
  if grep -q '^commit .*uncommitted' <<<"$report"; then version+=".dirty"; fi
fi
arch=$(dpkg --print-architecture)
name=photomill_${version}_${arch}

# debian/photomill under a folder with debian/control: where dpkg-shlibdeps expects it.
work=$scratch/deb
stage=$work/debian/photomill
rm -rf "$work"
mkdir -p "$stage/DEBIAN"
printf 'Source: photomill\n\nPackage: photomill\nArchitecture: any\n' >"$work/debian/control"
install -D -m 0755 "$binary" "$stage/usr/bin/photomill"
# As dh_strip does: symbols and notes out, the build id kept (125 MB to 74 MB).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/photomill"
install -D -m 0644 -t "$stage/lib/systemd/system" deploy/photomill-coordinator.service deploy/photomill-worker@.service
install -D -m 0644 deploy/photomill.env "$stage/etc/photomill/photomill.env"
echo /etc/photomill/photomill.env >"$stage/DEBIAN/conffiles"
install -m 0755 deploy/debian/postinst deploy/debian/prerm deploy/debian/postrm "$stage/DEBIAN/"

doc=$stage/usr/share/doc/photomill
# Uncompressed: the units' Documentation= points at it.
install -D -m 0644 docs/deploy.md "$doc/deploy.md"
{
  cat deploy/debian/copyright
  printf '\n\nSwift %s (the toolchain at %s)\n\n' "$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([^ ]*\).*/\1/p')" \
    "$(dirname "$(dirname "$(dirname "$(realpath "$(command -v swift)")")")")"
  # Only the exception: the Apache-2.0 text before it is in common-licenses.
  sed -n '/Runtime Library Exception/,$p' "$(dirname "$(realpath "$(command -v swift)")")/../share/swift/LICENSE.txt"
  for package in "$scratch"/checkouts/*; do
    printf '\n\n%s %s\n\n' "$(basename "$package")" "$(git -C "$package" describe --tags 2>/dev/null || echo '(version unknown)')"
    for file in "$package"/LICENSE* "$package"/NOTICE*; do
      [ -f "$file" ] || continue
      if grep -q 'Apache License' "$file" && grep -q 'Version 2.0' "$file"; then
        echo "Apache-2.0 (/usr/share/common-licenses/Apache-2.0)"
        sed -n '/Runtime Library Exception/,$p' "$file"
      else
        cat "$file"
      fi
    done
  done
} >"$doc/copyright"
chmod 0644 "$doc/copyright"
printf '%s\n' "photomill ($version) unstable; urgency=medium" "" \
  "  * Built by scripts/package-deb.sh from commit" "    ${commit:-unknown}." "" \
  " -- $maintainer  $date_r" | gzip -9n >"$doc/changelog.gz"

manual=$work/manual
mkdir -p "$manual"
"$scratch/release/generate-manual" "$binary" --output-directory "$manual" \
  --date "$(date -d "$date_r" +%Y-%m-%d)" --authors "the photomill authors" >&2
install -d "$stage/usr/share/man/man1"
gzip -9n <"$manual/photomill.1" >"$stage/usr/share/man/man1/photomill.1.gz"
chmod 0644 "$stage/usr/share/man/man1/photomill.1.gz"

# Depends: the packages of the shared libraries the binary links, as dpkg-shlibdeps
# finds them.
depends=$(cd "$work" && dpkg-shlibdeps -O -e debian/photomill/usr/bin/photomill | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { log "dpkg-shlibdeps found no dependencies"; exit 1; }

cat >"$stage/DEBIAN/control" <<EOF
Package: photomill
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends, adduser, tesseract-ocr-eng, tesseract-ocr-osd
Recommends: fonts-dejavu-core
Section: graphics
Priority: optional
Description: photo-processing cluster: hashes, metadata, thumbnails, OCR
 photomill walks photo folders, keeps a SQLite catalog of every photo and
 sends the work over ZeroMQ to worker processes on this host and on others:
 MD5 and SHA-256 content hashes, EXIF and video metadata, JPEG thumbnails and
 OCR text, for still images, camera RAW files and videos.
 .
 This package holds the photomill command and the systemd units of a
 coordinator (photomill-coordinator.service) and of workers
 (photomill-worker@N.service), which run as the photomill user it creates.
 /usr/share/doc/photomill/deploy.md sets up a cluster of hosts.
EOF
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/md5sums"

mkdir -p "$out"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$out/$name.deb" >&2
log "$(du -h "$out/$name.deb" | cut -f1) ($(stat -c %s "$out/$name.deb") bytes), installed $(du -sh --exclude=DEBIAN "$stage" | cut -f1)"
echo "$out/$name.deb"
