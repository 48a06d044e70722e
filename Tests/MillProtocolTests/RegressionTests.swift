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
import MillProtocol
import Testing

/// Inputs that once crashed or hung the decoder (Regressions/README.md) must now be
/// decoded or refused like any other.
@Suite("Regressions")
struct RegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Regressions"
    )

    static var inputs: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".frames") }.sorted()
    }

    @Test("each saved input is handled", arguments: inputs)
    func savedInput(_ name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        let frames = try #require(FramesFile.parse(text), "\(name) is not in the .frames format")
        do {
            let message = try MillCodec.decode(frames)
            #expect(try MillCodec.decode(MillCodec.encode(message)) == message)
        } catch {
            #expect(ProtocolViolation.Reason.all.contains(error.reason))
        }
    }

    @Test("the .frames format reads what it writes")
    func framesFormat() throws {
        for message in Samples.all {
            let frames = MillCodec.encode(message) + [Data()]
            #expect(FramesFile.parse("# comment\n" + FramesFile.format(frames)) == frames)
        }
        #expect(FramesFile.parse("zz\n") == nil)
        #expect(FramesFile.parse("abc\n") == nil)
    }
}
