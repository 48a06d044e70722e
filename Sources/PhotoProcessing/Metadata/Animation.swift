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

import PhotomillCore

/// How many frames an animated GIF or WebP has and how long it plays, from its block and
/// chunk structure alone (no frame is decoded):
///
/// - GIF (the GIF89a specification): each image descriptor (0x2C) is a frame; the Graphic
///   Control Extension (0x21 0xF9) before it gives its delay in hundredths of a second.
/// - WebP (Google's WebP container specification): each `ANMF` chunk is a frame whose
///   24-bit little-endian duration is in milliseconds.
///
/// Nil for a still (one frame) and for any other format. exiftool reports the same sums
/// as Duration (and FrameCount).
struct Animation: Equatable {
    let frames: Int
    let duration: Double

    init?(_ bytes: UnsafeRawBufferPointer, format: MediaFormat) {
        let found: (frames: Int, duration: Double)?
        switch format {
        case .gif: found = Self.gif(bytes)
        case .webp: found = Self.webp(bytes)
        default: found = nil
        }
        guard let found, found.frames > 1 else { return nil }
        frames = found.frames
        duration = found.duration
    }

    private static func gif(_ bytes: UnsafeRawBufferPointer) -> (Int, Double)? {
        guard bytes.count >= 13 else { return nil }
        var at = 13
        if bytes[10] & 0x80 != 0 { at += 3 << (Int(bytes[10] & 7) + 1) }
        var frames = 0
        var hundredths = 0
        var delay = 0
        /// Skips a series of data sub-blocks (a length byte, then that many bytes, until 0).
        func skipSubBlocks() -> Bool {
            while at < bytes.count {
                let length = Int(bytes[at])
                at += 1
                if length == 0 { return true }
                at += length
            }
            return false
        }
        while at < bytes.count {
            switch bytes[at] {
            case 0x21:
                guard at + 1 < bytes.count else { return (frames, Double(hundredths) / 100) }
                if bytes[at + 1] == 0xF9, at + 5 < bytes.count, bytes[at + 2] >= 4 {
                    delay = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8
                }
                at += 2
                guard skipSubBlocks() else { return (frames, Double(hundredths) / 100) }
            case 0x2C:
                guard at + 10 <= bytes.count else { return (frames, Double(hundredths) / 100) }
                frames += 1
                hundredths += delay
                delay = 0
                let flags = bytes[at + 9]
                at += 10
                if flags & 0x80 != 0 { at += 3 << (Int(flags & 7) + 1) }
                at += 1  // LZW minimum code size
                guard skipSubBlocks() else { return (frames, Double(hundredths) / 100) }
            default:
                // The trailer (0x3B), or bytes that are no block: the end either way.
                return (frames, Double(hundredths) / 100)
            }
        }
        return (frames, Double(hundredths) / 100)
    }

    private static func webp(_ bytes: UnsafeRawBufferPointer) -> (Int, Double)? {
        guard bytes.count >= 12 else { return nil }
        var at = 12
        var frames = 0
        var milliseconds = 0
        while at + 8 <= bytes.count {
            let size =
                Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            if bytes[at..<(at + 4)].elementsEqual("ANMF".utf8), size >= 16, at + 8 + 15 <= bytes.count {
                frames += 1
                milliseconds += Int(bytes[at + 20]) | Int(bytes[at + 21]) << 8 | Int(bytes[at + 22]) << 16
            }
            at += 8 + size + size % 2
        }
        return (frames, Double(milliseconds) / 1000)
    }
}
