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

# Regenerates Sources/MillProtocol/Generated/photomill.pb.swift from protocols/photomill.proto,
# and the conformance suite's Python module Tests/Conformance/pyworker/photomill_pb2.py.
#
# The output is committed, so a normal build needs neither protoc nor the plugin; run this
# only after editing the .proto. The plugin must come from the same swift-protobuf release
# as the runtime library in Package.swift, or the generated code may not compile against it.
#
#   scripts/generate-protocol.sh            # regenerate
#   scripts/generate-protocol.sh --check    # fail if the committed file is out of date
#
# Environment:
#   SWIFT_PROTOBUF_VERSION  release of the plugin (default 1.39.0, as in Package.swift)
#   SWIFT_PROTOBUF_GIT      where to fetch it (default: the local mirror, else GitHub)
#   PHOTOMILL_TOOLS_CACHE   where the built plugin is kept between runs, outside the repo
#                           (default ${XDG_CACHE_HOME:-~/.cache}/photomill-tools)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${SWIFT_PROTOBUF_VERSION:-1.39.0}"
mirror=/opt/swift-packages/apple/swift-protobuf.git
if [[ -z "${SWIFT_PROTOBUF_GIT:-}" ]]; then
    if [[ -d "$mirror" ]]; then SWIFT_PROTOBUF_GIT="$mirror"
    else SWIFT_PROTOBUF_GIT=https://github.com/apple/swift-protobuf.git; fi
fi
cache="${PHOTOMILL_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/photomill-tools}/swift-protobuf-$version"
plugin="$cache/bin/protoc-gen-swift"
proto_dir="$root/protocols"
out_dir="$root/Sources/MillProtocol/Generated"
python_dir="$root/Tests/Conformance/pyworker"

log() { printf 'generate-protocol: %s\n' "$*" >&2; }

# protoc itself: Debian's is enough (proto3 `optional` needs 3.15 or later; bookworm has 3.21).
if ! command -v protoc >/dev/null; then
    log "installing protobuf-compiler (protoc)"
    sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq protobuf-compiler >/dev/null
fi

# The plugin: built once per version (two to ten minutes on two cores), then reused.
if [[ ! -x "$plugin" ]]; then
    log "building protoc-gen-swift $version in $cache (once; slow)"
    rm -rf "$cache/src"
    mkdir -p "$cache/bin"
    shallow=(--depth 1); [[ -d "$SWIFT_PROTOBUF_GIT" ]] && shallow=()   # local clones ignore --depth
    git -c advice.detachedHead=false clone --quiet "${shallow[@]}" --branch "$version" \
        "$SWIFT_PROTOBUF_GIT" "$cache/src"
    started=$SECONDS
    # Release mode: the plugin is run far more often than it is built.
    swift build --package-path "$cache/src" -c release --product protoc-gen-swift
    cp "$(swift build --package-path "$cache/src" -c release --show-bin-path)/protoc-gen-swift" "$plugin"
    log "built protoc-gen-swift in $((SECONDS - started)) s"
fi

# The Python worker of the conformance suite reads the same file (Debian's protoc writes
# code for Debian's python3-protobuf 3.21).
generate_python_into() {
    protoc --proto_path="$proto_dir" --python_out="$1" "$proto_dir/photomill.proto"
    # The licence header of every file of ours (lines 2-13 of this script), then a blank line.
    { sed -n '2,13p' "$root/scripts/generate-protocol.sh"; echo; cat "$1/photomill_pb2.py"; } > "$1/photomill_pb2.py.new"
    mv "$1/photomill_pb2.py.new" "$1/photomill_pb2.py"
}

generate_into() {
    generate_python_into "$1"
    protoc \
        --plugin=protoc-gen-swift="$plugin" \
        --proto_path="$proto_dir" \
        --swift_out="$1" \
        --swift_opt=Visibility=Public \
        --swift_opt=FileNaming=DropPath \
        "$proto_dir/photomill.proto"
}

if [[ "${1:-}" == "--check" ]]; then
    scratch="$(mktemp -d)"; trap 'rm -rf "$scratch"' EXIT
    generate_into "$scratch"
    if ! diff -u "$out_dir/photomill.pb.swift" "$scratch/photomill.pb.swift" \
        || ! diff -u "$python_dir/photomill_pb2.py" "$scratch/photomill_pb2.py"; then
        log "the generated code is out of date: run scripts/generate-protocol.sh"
        exit 1
    fi
    log "photomill.pb.swift and photomill_pb2.py are up to date"
else
    mkdir -p "$out_dir"
    generate_into "$out_dir"
    mv "$out_dir/photomill_pb2.py" "$python_dir/photomill_pb2.py"
    log "wrote ${out_dir#"$root/"}/photomill.pb.swift ($(protoc --version), protoc-gen-swift $version) and ${python_dir#"$root/"}/photomill_pb2.py"
fi
