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

/// One inotify event (inotify(7)), its watch descriptor resolved to the folder it watches.
struct WatchEvent: Sendable, Hashable {
    /// The watched folder; empty for an event of the queue itself (`overflow`).
    var folder: String
    /// The entry of the folder the event is about; empty when it is about the folder itself.
    var name: String
    var mask: Mask
    /// Ties an `IN_MOVED_FROM` to its `IN_MOVED_TO` (one rename).
    var cookie: UInt32

    init(folder: String, name: String, mask: Mask, cookie: UInt32 = 0) {
        self.folder = folder
        self.name = name
        self.mask = mask
        self.cookie = cookie
    }

    var path: String { name.isEmpty ? folder : folder == "/" ? "/" + name : folder + "/" + name }

    /// The event bits photomill asks for and reads, with the kernel's values (<sys/inotify.h>).
    struct Mask: OptionSet, Sendable, Hashable {
        let rawValue: UInt32
        static let modify = Mask(rawValue: 0x0000_0002)
        static let attrib = Mask(rawValue: 0x0000_0004)
        static let closeWrite = Mask(rawValue: 0x0000_0008)
        static let movedFrom = Mask(rawValue: 0x0000_0040)
        static let movedTo = Mask(rawValue: 0x0000_0080)
        static let create = Mask(rawValue: 0x0000_0100)
        static let delete = Mask(rawValue: 0x0000_0200)
        static let deleteSelf = Mask(rawValue: 0x0000_0400)
        static let moveSelf = Mask(rawValue: 0x0000_0800)
        static let unmount = Mask(rawValue: 0x0000_2000)
        static let overflow = Mask(rawValue: 0x0000_4000)
        static let ignored = Mask(rawValue: 0x0000_8000)
        static let onlyDirectory = Mask(rawValue: 0x0100_0000)
        static let dontFollow = Mask(rawValue: 0x0200_0000)
        static let excludeUnlinked = Mask(rawValue: 0x0400_0000)
        static let isFolder = Mask(rawValue: 0x4000_0000)

        /// What a folder's watch asks for: every change of what it holds, and its own end.
        static let watched: Mask = [
            .modify, .attrib, .closeWrite, .movedFrom, .movedTo, .create, .delete,
            .deleteSelf, .moveSelf, .onlyDirectory, .dontFollow, .excludeUnlinked,
        ]
    }
}
