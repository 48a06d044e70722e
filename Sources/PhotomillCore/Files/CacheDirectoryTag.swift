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

/// A `CACHEDIR.TAG` (https://bford.info/cachedir/): the exports write one in their folder,
/// since the catalog rebuilds them, and the scan skips every folder that holds one, so a
/// library never ingests its own exports (nor another tool's caches); backup tools that
/// honour the tag (`tar --exclude-caches`, borg, restic) may skip them too.
public enum CacheDirectoryTag {
    public static let name = "CACHEDIR.TAG"
    static let signature = "Signature: 8a477f597d28d172789f06886806bc55"

    public static let contents = """
        \(signature)
        # This file is a cache directory tag created by photomill: the files here are
        # photomill's exports, rebuilt from its catalog by `photomill export`. photomill's
        # scan skips this folder. For information about cache directory tags, see
        # https://bford.info/cachedir/

        """

    /// Whether `directory` holds a tag that starts with the signature, as the spec requires.
    public static func isValid(in directory: String) -> Bool {
        let head = try? RegularFile.contents(of: directory + "/" + name, upTo: signature.utf8.count)
        return head == Data(signature.utf8)
    }
}
