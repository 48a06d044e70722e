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
import Testing

@testable import PhotomillCore

/// Paths are bytes: the String form gives every byte string back, keeps different ones
/// apart, and leaves valid UTF-8 as it is (the expected values are written by hand).
@Suite struct PathBytesTests {
    @Test func validUTF8IsItselfAndOtherBytesAreEscapedOneByOne() {
        #expect(PathBytes.string(Array("/photos/café.jpg".utf8)) == "/photos/café.jpg")
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]  // "caf" + Latin-1 é
        let form = PathBytes.string(latin1)
        #expect(form.unicodeScalars.map(\.value) == [0x63, 0x61, 0x66, 0x10FFE9])
        #expect(PathBytes.bytes(form) == latin1)
        #expect(PathBytes.display(form) == "caf\\xE9")
        #expect(PathBytes.displayJSON("\"\(form)\"") == "\"caf\\\\xE9\"")
        // An overlong "/" (C0 AF) and a lone continuation byte are not UTF-8.
        #expect(PathBytes.display(PathBytes.string([0xC0, 0xAF, 0x80])) == "\\xC0\\xAF\\x80")
        // A real U+10FFE9 in a name is escaped byte by byte, so it cannot be taken for é.
        let real = Array("\u{10FFE9}".utf8)
        #expect(real == [0xF4, 0x8F, 0xBF, 0xA9])
        #expect(PathBytes.display(PathBytes.string(real)) == "\\xF4\\x8F\\xBF\\xA9")
        #expect(PathBytes.bytes(PathBytes.string(real)) == real)
    }

    @Test func everyByteStringComesBackAndDifferentOnesStayApart() {
        var random = SplitMix64(seed: 145)
        var forms: [String: [UInt8]] = [:]
        for _ in 0..<5_000 {
            let length = Int(random.next() % 12)
            // Mostly bytes near UTF-8's edges: ASCII, continuation bytes, leads, F4 8F.
            let alphabet: [UInt8] = [
                0x2F, 0x61, 0x80, 0x8F, 0xBF, 0xC0, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xED, 0xA0, 0xF0, 0xF4, 0xFF, 0x00,
            ]
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let form = PathBytes.string(bytes)
            #expect(PathBytes.bytes(form) == bytes)
            if let other = forms[form] { #expect(other == bytes, "two byte strings, one form") }
            forms[form] = bytes
        }
    }
}
