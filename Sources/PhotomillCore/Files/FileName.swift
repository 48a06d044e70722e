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

/// A file name's extension and stem, as Foundation's `NSString.pathExtension` and
/// `deletingPathExtension` read a name without slashes — the text after the last dot,
/// unless that dot starts the name (`.hidden`); a dot that ends it (`photo.`) has no
/// extension after it but goes with it from the stem — without their NSString bridge,
/// which cost more than the lstat(2) of each file in a scan's walk.
public enum FileName {
    /// "JPG" for "IMG_0001.JPG"; "" for "README", ".hidden" and "photo.".
    public static func pathExtension(_ name: String) -> Substring {
        guard let dot = extensionDot(name) else { return "" }
        return name[name.index(after: dot)...]
    }

    /// "IMG_0001" for "IMG_0001.JPG" and for "IMG_0001."; the name itself when no dot
    /// but a leading one is in it.
    public static func stem(_ name: String) -> String {
        guard let dot = lastDot(name) else { return name }
        return String(name[..<dot])
    }

    private static func extensionDot(_ name: String) -> String.Index? {
        guard let dot = lastDot(name), name.index(after: dot) != name.endIndex else { return nil }
        return dot
    }

    /// ("..", the parent, is a name of its own, as Foundation has it.)
    private static func lastDot(_ name: String) -> String.Index? {
        guard name != "..", let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return dot
    }
}
