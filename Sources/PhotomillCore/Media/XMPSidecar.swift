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

/// XMP sidecars: which file is whose. `NAME.EXT.xmp` belongs to `NAME.EXT` (darktable,
/// digiKam), `NAME.xmp` to every `NAME.*` beside it (Lightroom, Capture One); `.XMP` as
/// well. The scanner attaches them to their photos (an XMP file with no partner is a file
/// of its own, and skipped); `inspect` finds them beside the files it is given.
public enum XMPSidecar {
    /// The largest sidecar read: darktable's with a long history stay under a megabyte.
    public static let maxBytes = 16 << 20

    /// The names a sidecar of the photo `NAME.EXT` may have, in order of preference.
    public static func names(forPhotoNamed name: String) -> [String] {
        let stem = FileName.stem(name)
        return [name + ".xmp", name + ".XMP", stem + ".xmp", stem + ".XMP"]
    }

    /// The sidecar beside the photo at `path`, if there is one (a regular file).
    public static func find(besidePhotoAt path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        for name in names(forPhotoNamed: url.lastPathComponent) {
            let candidate = folder == "/" ? "/" + name : folder + "/" + name
            var info = stat()
            if PathBytes.withCString(candidate, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG {
                return candidate
            }
        }
        return nil
    }

    /// A sidecar's bytes as they are now: at most `maxBytes + 1`, so that one over the
    /// limit shows as such; `gone` when it no longer exists (the next scan notices).
    public enum Contents {
        case bytes(Data)
        case gone
        /// Why it cannot be read (the file system's reason).
        case unreadable(cause: String)
    }

    public static func read(at path: String) -> Contents {
        do {
            return .bytes(try RegularFile.contents(of: path, upTo: maxBytes + 1))
        } catch {
            return error.isGone ? .gone : .unreadable(cause: error.cause)
        }
    }

    /// Whether a file name ends in `.xmp`, in any case.
    public static func isXMPName(_ name: String) -> Bool {
        let suffix = FileName.pathExtension(name).utf8
        return suffix.count == 3 && suffix.elementsEqual("xmp".utf8) { $0 | 0x20 == $1 }
    }

    /// Which names of one folder's listing are sidecars, and whose.
    public struct Index {
        private let names: Set<String>
        /// Stems of the names that are not XMP.
        private let stems: Set<String>

        /// Whether the folder holds any XMP name: most hold none, and then no name is looked up.
        private let hasXMP: Bool

        public init(names: [String]) {
            hasXMP = names.contains(where: XMPSidecar.isXMPName)
            self.names = hasXMP ? Set(names) : []
            stems = hasXMP ? Set(names.filter { !XMPSidecar.isXMPName($0) }.map(FileName.stem)) : []
        }

        /// Whether `name` is the sidecar of some other file of the folder.
        public func isSidecar(_ name: String) -> Bool {
            guard hasXMP, XMPSidecar.isXMPName(name) else { return false }
            let base = FileName.stem(name)
            return (names.contains(base) && !XMPSidecar.isXMPName(base)) || stems.contains(base)
        }

        /// The sidecar of `name`, if one lies beside it: `NAME.EXT.xmp` before `NAME.xmp`.
        public func sidecar(of name: String) -> String? {
            guard hasXMP, !XMPSidecar.isXMPName(name) else { return nil }
            return XMPSidecar.names(forPhotoNamed: name).first { names.contains($0) }
        }
    }
}
