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
import PhotomillTestSupport
import Testing

/// The long fuzz run (scripts/fuzz.sh): with `MILLPROTOCOL_FUZZ_SECONDS=N`, mutated and
/// random frame sets are decoded for N seconds, seed after seed, each checked like in
/// `MutationTests`. The seed in progress is written to stderr before it starts, so a crash
/// names its seed (rerun it with `MILLPROTOCOL_FUZZ_SEED` and `MILLPROTOCOL_FUZZ_LOG=1` to
/// get the input). With `MILLPROTOCOL_FUZZ_KEEP=DIR`, the first input refused for each
/// reason, and the first of each command that decoded, are written there as `.frames`
/// files for `Regressions/`.
@Suite("Long fuzz run")
struct LongFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seconds = environment["MILLPROTOCOL_FUZZ_SECONDS"].flatMap(Double.init)

    @Test(.enabled(if: seconds != nil))
    func fuzzForAWhile() throws {
        let fuzzing = Stopwatch()
        let logInputs = Self.environment["MILLPROTOCOL_FUZZ_LOG"] == "1"
        let keep = Self.environment["MILLPROTOCOL_FUZZ_KEEP"].map { URL(fileURLWithPath: $0) }
        if let keep { try FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true) }
        let limits: [Limits] = [.default, Limits(maxFrames: 5, maxBodyBytes: 200, maxBlobBytes: 150)]
        var seed =
            Self.environment["MILLPROTOCOL_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64(Date().timeIntervalSince1970)
        var inputs = 0
        var decoded = 0
        var seeds = 0
        var kept: Set<String> = []
        var reasons: [ProtocolViolation.Reason: Int] = [:]
        while fuzzing.seconds < Self.seconds ?? 0 {
            FileHandle.standardError.write(Data("fuzz: seed \(seed)\n".utf8))
            var mutator = FrameMutator(seed: seed, corpus: Samples.all)
            for iteration in 0..<20_000 {
                let frames = mutator.next()
                let limit = limits[iteration % limits.count]
                if logInputs {
                    FileHandle.standardError.write(
                        Data("# seed \(seed) #\(iteration)\n\(FramesFile.format(frames))".utf8)
                    )
                }
                inputs += 1
                let name: String
                do {
                    let message = try MillCodec.decode(frames, limits: limit)
                    decoded += 1
                    let context = Comment(rawValue: "seed \(seed) #\(iteration):\n\(FramesFile.format(frames))")
                    #expect(throws: Never.self, context) { try MillCodec.validate(message, limits: limit) }
                    #expect((try? MillCodec.decode(MillCodec.encode(message), limits: limit)) == message, context)
                    name = "decoded-\(message.command)".lowercased()
                } catch {
                    reasons[error.reason, default: 0] += 1
                    #expect(ProtocolViolation.Reason.all.contains(error.reason), "seed \(seed) #\(iteration): \(error)")
                    name = "fuzz-\(error.reason.rawValue)"
                }
                // Kept inputs are replayed with the default limits: keep only those.
                if let keep, limit == .default, kept.insert(name).inserted {
                    let text = "# found by the long fuzz run, seed \(seed) #\(iteration)\n" + FramesFile.format(frames)
                    try text.write(to: keep.appendingPathComponent(name + ".frames"), atomically: true, encoding: .utf8)
                }
            }
            seed &+= 1
            seeds += 1
        }
        let summary = reasons.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
            .joined(separator: ", ")
        print(
            "fuzz: \(inputs) inputs from \(seeds) seeds in \(Int(Self.seconds ?? 0)) s; \(decoded) decoded; refused: \(summary)"
        )
        #expect(inputs > 0)
    }
}
