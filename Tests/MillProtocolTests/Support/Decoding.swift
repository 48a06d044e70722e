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

/// The violation decoding these frames throws, or nil when they decode.
func violation(_ frames: [Data], limits: Limits = .default) -> ProtocolViolation? {
    do {
        _ = try MillCodec.decode(frames, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// The violation a message would meet at a receiver, or nil when it is valid.
func violation(of message: MillMessage, limits: Limits = .default) -> ProtocolViolation? {
    violation(MillCodec.encode(message), limits: limits)
}

/// Frames of a command byte and a raw body, for bodies no Swift message would produce.
func frames(_ command: UInt8, body: [UInt8], blobs: [Data] = []) -> [Data] {
    [MillWire.signature, Data([command]), Data(body)] + blobs
}
