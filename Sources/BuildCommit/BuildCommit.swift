//===----------------------------------------------------------------------===//
//
// This source file is part of the photomill open source project
//
// Copyright (c) 2026 the photomill authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` (the git commit the build comes from) into the build folder
/// before every build of the target that uses it: `photomill --version` and the worker's
/// READY name the commit. A build-tool plugin rather than a committed or generated file
/// in the tree: the checkout stays clean, and a plain `swift build` from a clean clone
/// gets it right with nothing run beforehand. A prebuild command, because only those run
/// on every build (a build command runs when its declared inputs change, and the files
/// that say which commit is checked out vary with packed refs and worktrees); it rewrites
/// the file only when its text changes, so an unchanged commit recompiles nothing. But
/// SwiftPM reuses its build plan when no file was added or removed (build manifest
/// caching), and a reused plan runs no prebuild command: a build after a commit that added
/// no file keeps the earlier commit. `scripts/test.sh` and `scripts/package-deb.sh` build
/// with `--disable-build-manifest-caching`; so should any build whose commit matters.
/// Outside a git checkout (a source tarball) the commit is unknown: `BuildInfo.commit` is nil.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo")
        return [
            .prebuildCommand(
                displayName: "Reading the git commit of \(context.package.directoryURL.path)",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", Self.script, "build-commit", context.package.directoryURL.path, output.path],
                outputFilesDirectory: output
            )
        ]
    }

    /// $1: the package folder, $2: the folder to write BuildInfo.swift in. Uncommitted
    /// changes to tracked files make the build `dirty`; untracked files do not (as
    /// `git describe --dirty`). GIT_OPTIONAL_LOCKS=0: `git status` must not write the
    /// index while a user runs git in the same tree.
    static let script = #"""
        set -eu
        commit=$(git -C "$1" rev-parse --verify --quiet HEAD 2>/dev/null) || commit=
        dirty=false
        if [ -n "$commit" ]; then
          changes=$(GIT_OPTIONAL_LOCKS=0 git -C "$1" status --porcelain --untracked-files=no 2>/dev/null) || changes=
          [ -z "$changes" ] || dirty=true
          commit="\"$commit\""
        else
          commit=nil
        fi
        text="// Written before each build by the BuildCommit plugin (Sources/BuildCommit); not in git.
        enum BuildInfo {
            /// The full hex id of the commit built, or nil outside a git checkout.
            static let commit: String? = $commit
            /// Whether tracked files differed from that commit.
            static let dirty = $dirty
        }"
        mkdir -p "$2"
        file="$2/BuildInfo.swift"
        if [ ! -f "$file" ] || [ "$(cat "$file")" != "$text" ]; then printf '%s\n' "$text" > "$file"; fi
        """#
}
