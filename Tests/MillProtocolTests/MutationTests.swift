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
import PhotomillCore
import Testing

/// Decoding arbitrary bytes must never crash: it either yields a message that survives
/// re-encoding, or throws a violation with a known reason. Deterministic: each seed always
/// makes the same inputs. `MILLPROTOCOL_FUZZ_ITERATIONS` runs longer; with
/// `MILLPROTOCOL_FUZZ_LOG=1` every input is written to stderr before it is decoded, so the
/// last one printed before a crash can go into Regressions/.
@Suite("Mutations")
struct MutationTests {
    static let iterations =
        ProcessInfo.processInfo.environment["MILLPROTOCOL_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 1_500
    static let logInputs = ProcessInfo.processInfo.environment["MILLPROTOCOL_FUZZ_LOG"] == "1"

    @Test("mutated frames decode or are refused, never crash", arguments: [1, 2, 0x5EED] as [UInt64])
    func mutatedFrames(seed: UInt64) {
        // Tight limits too, so that the size checks fire among the others.
        let limits: [Limits] = [.default, Limits(maxFrames: 5, maxBodyBytes: 200, maxBlobBytes: 150)]
        var mutator = FrameMutator(seed: seed, corpus: Samples.all)
        var decoded = 0
        var reasons: [ProtocolViolation.Reason: Int] = [:]
        for iteration in 0..<Self.iterations {
            let frames = mutator.next()
            let limit = limits[iteration % limits.count]
            if Self.logInputs {
                FileHandle.standardError.write(Data("# seed \(seed) #\(iteration)\n\(FramesFile.format(frames))".utf8))
            }
            do {
                let message = try MillCodec.decode(frames, limits: limit)
                decoded += 1
                expectReencodes(message, limits: limit, input: frames, seed: seed, iteration: iteration)
            } catch {
                reasons[error.reason, default: 0] += 1
                #expect(ProtocolViolation.Reason.all.contains(error.reason), "seed \(seed) #\(iteration): \(error)")
            }
        }
        // The harness is only worth something if it reaches both outcomes and many reasons.
        #expect(decoded > 0, "no mutated input decoded")
        #expect(reasons.count >= 6, "only \(reasons.keys.map(\.rawValue).sorted()) were produced")
    }

    @Test("random frame sets are refused", arguments: [7, 8] as [UInt64])
    func randomFrames(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for iteration in 0..<Self.iterations {
            var frames = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                Data(
                    (0..<Int.random(in: 0...48, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                )
            }
            // Half get a true envelope, so that random bodies reach the protobuf decoder.
            if Bool.random(using: &random) {
                frames = [MillWire.signature, Data([UInt8.random(in: 1...10, using: &random)])] + frames
            }
            do {
                let message = try MillCodec.decode(frames)
                expectReencodes(message, limits: .default, input: frames, seed: seed, iteration: iteration)
            } catch {
                #expect(ProtocolViolation.Reason.all.contains(error.reason))
            }
        }
    }

    private func expectReencodes(_ message: MillMessage, limits: Limits, input: [Data], seed: UInt64, iteration: Int) {
        let context = Comment(rawValue: "seed \(seed) #\(iteration):\n\(FramesFile.format(input))")
        #expect(throws: Never.self, context) { try MillCodec.validate(message, limits: limits) }
        #expect((try? MillCodec.decode(MillCodec.encode(message), limits: limits)) == message, context)
    }
}
