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

/// Spoils valid frame sets the ways a broken or hostile peer might: bit flips, cuts,
/// splices, shuffled and invented frames, bodies of other commands, stray protobuf fields.
struct FrameMutator {
    var random: SplitMix64
    let corpus: [[Data]]

    init(seed: UInt64, corpus: [MillMessage]) {
        random = SplitMix64(seed: seed)
        self.corpus = corpus.map(MillCodec.encode)
    }

    /// One input: a corpus entry with one to three mutations, or now and then pure noise.
    mutating func next() -> [Data] {
        if Int.random(in: 0..<50, using: &random) == 0 { return noise() }
        var frames = corpus.randomElement(using: &random)!
        for _ in 0..<Int.random(in: 1...3, using: &random) { mutate(&frames) }
        return frames
    }

    private mutating func mutate(_ frames: inout [Data]) {
        guard !frames.isEmpty else {
            frames.append(bytes(upTo: 16))
            return
        }
        let index = Int.random(in: frames.indices, using: &random)
        // Bodies are where the parser works hardest; aim there three times in four (a
        // spoiled signature or command byte is refused at once and teaches little).
        let target = frames.count > 2 && Int.random(in: 0..<4, using: &random) > 0 ? 2 : index
        // 0…12 once each; 13… repeat the in-frame edits, so that reshuffling whole frames
        // (which mostly ends at the signature check) is the rarer case.
        switch Int.random(in: 0..<20, using: &random) {
        case 0: flipBit(&frames[target])
        case 1: setByte(&frames[target])
        case 2: frames[target] = frames[target].prefix(Int.random(in: 0...frames[target].count, using: &random))
        case 3: frames[target].append(bytes(upTo: 24))
        case 4: frames.remove(at: index)
        case 5: frames.insert(frames[index], at: index)
        case 6: frames.insert(bytes(upTo: 64), at: Int.random(in: 0...frames.count, using: &random))
        case 7: frames.swapAt(index, Int.random(in: frames.indices, using: &random))
        case 8: if frames.count > 1 { frames[1] = Data([UInt8.random(in: 0...9, using: &random)]) }
        case 9: insertBytes(&frames[target])
        case 10: if frames.count > 2 { frames[2] = corpus.randomElement(using: &random)![2] }
        case 11, 13, 14: if frames.count > 2 { frames[2].append(contentsOf: strayField()) }
        case 12: frames[target] = Data()
        case 15, 16: flipBit(&frames[target])
        case 17: setByte(&frames[target])
        case 18: insertBytes(&frames[target])
        default: frames[target] = frames[target].prefix(Int.random(in: 0...frames[target].count, using: &random))
        }
    }

    private mutating func flipBit(_ frame: inout Data) {
        guard !frame.isEmpty else { return }
        let at = frame.index(frame.startIndex, offsetBy: Int.random(in: 0..<frame.count, using: &random))
        frame[at] ^= 1 << UInt8.random(in: 0..<8, using: &random)
    }

    private mutating func setByte(_ frame: inout Data) {
        guard !frame.isEmpty else { return }
        let at = frame.index(frame.startIndex, offsetBy: Int.random(in: 0..<frame.count, using: &random))
        // Bytes that mean the most to a protobuf parser: varint continuation, lengths, tags.
        frame[at] = [0x00, 0x7F, 0x80, 0xFF, 0x0A, 0x12, UInt8.random(in: 0...255, using: &random)]
            .randomElement(using: &random)!
    }

    private mutating func insertBytes(_ frame: inout Data) {
        let at = frame.index(frame.startIndex, offsetBy: Int.random(in: 0...frame.count, using: &random))
        frame.insert(contentsOf: bytes(upTo: 8), at: at)
    }

    /// A well-formed protobuf field with a random number and wire type: known numbers with
    /// the wrong type, unknown numbers, absurd lengths.
    private mutating func strayField() -> [UInt8] {
        let number = UInt64.random(in: 1...40, using: &random)
        let wireType = UInt64.random(in: 0...5, using: &random)
        var field = varint(number << 3 | wireType)
        switch wireType {
        case 0: field += varint(random.next() >> UInt64.random(in: 0...63, using: &random))
        case 1: field += (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 2:
            let payload = [UInt8](bytes(upTo: 12))
            let claimed = Bool.random(using: &random) ? UInt64(payload.count) : random.next() >> 40
            field += varint(claimed) + payload
        case 5: field += (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) }
        default: break  // groups (3, 4) have no payload of their own
        }
        return field
    }

    private mutating func noise() -> [Data] {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in bytes(upTo: 40) }
    }

    private mutating func bytes(upTo count: Int) -> Data {
        Data((0..<Int.random(in: 0...count, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    private func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }
}
