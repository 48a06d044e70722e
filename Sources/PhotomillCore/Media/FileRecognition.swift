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

/// What the scan makes of a file: media to process, an XMP sidecar that belongs to a
/// photo beside it, or something else (skipped, counted, never a failure).
public enum FileRecognition: Sendable, Hashable {
    case media(MediaFormat)
    case sidecar
    case other

    /// Reads the file's first bytes and tells what it is: 4 KiB, which settles every
    /// format but TIFF structures, whose first directory (and the Make it points to) may
    /// lie further in: for those, up to `MediaFormat.headLength`.
    /// Errors: the file cannot be opened or read, or is not a regular file.
    public static func of(path: String) throws(FileOpenError) -> FileRecognition {
        let file = try RegularFile(path: path)
        var head = try file.read(upTo: 4096)
        let tiff = head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
        if tiff && head.count == 4096 { head = try file.read(upTo: MediaFormat.headLength) }
        return of(head: Array(head), fileExtension: (path as NSString).pathExtension)
    }

    public static func of(head: [UInt8], fileExtension: String) -> FileRecognition {
        if let format = MediaFormat(sniffing: head, fileExtension: fileExtension) { return .media(format) }
        if fileExtension.lowercased() == "xmp" && isXMP(head) { return .sidecar }
        return .other
    }

    /// An XMP packet (`<?xpacket`, `<x:xmpmeta`, or bare RDF) near the start of the file.
    static func isXMP(_ head: [UInt8]) -> Bool {
        let view = ByteView(Array(head.prefix(4096)))
        return ["<?xpacket", "<x:xmpmeta", "<rdf:RDF"].contains { view.contains($0, within: 4096) }
    }
}
