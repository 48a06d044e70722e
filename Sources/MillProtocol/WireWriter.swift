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
import SwiftProtobuf

/// Protobuf's wire format written by hand, for what the coordinator encodes per job: a
/// JOB's own fields, and the entries of a JOBS or RESULTS. SwiftProtobuf's encoder
/// measures a message before it writes it and goes through its generic visitor for each
/// field; for a JOB that was 12,000 instructions, three times this (callgrind,
/// docs/benchmarks.md). The bytes are the ones SwiftProtobuf writes (fields in number
/// order, defaults left out), which Tests/MillProtocolTests checks.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var data: Data { Data(bytes) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A varint field (wire type 0), left out when zero.
    mutating func varint(_ field: UInt64, _ value: UInt64) {
        guard value != 0 else { return }
        varint(field << 3)
        varint(value)
    }

    /// A length-delimited field (wire type 2) of UTF-8 text, left out when empty.
    mutating func text(_ field: UInt64, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard !utf8.isEmpty else { return }
            varint(field << 3 | 2)
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A length-delimited field holding `data` as it is (an embedded message's encoding).
    mutating func entry(_ field: UInt64, _ data: Data) {
        varint(field << 3 | 2)
        varint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    /// A packed repeated varint field (wire type 2), left out when empty.
    mutating func packed(_ field: UInt64, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        varint(field << 3 | 2)
        varint(UInt64(values.reduce(0) { $0 + Self.varintSize($1) }))
        for value in values { varint(value) }
    }

    static func varintSize(_ value: UInt64) -> Int {
        var size = 1
        var value = value >> 7
        while value > 0 {
            size += 1
            value >>= 7
        }
        return size
    }
}

extension Photomill_V1_Job {
    /// This JOB's encoding, by hand when it holds only the fields a coordinator sets per
    /// job (not the deadlines and parameters of `MillCodec.jobTail`, nor unknown fields).
    var handEncoded: Data? {
        guard deadlines.isEmpty, !hasParameters, unknownFields.data.isEmpty else { return nil }
        var writer = WireWriter(
            capacity: 32 + jobID.utf8.count + path.utf8.count + leaseToken.utf8.count + sidecarPath.utf8.count
        )
        writer.text(1, jobID)
        writer.varint(2, UInt64(bitPattern: photoID))
        writer.text(3, path)
        writer.varint(4, fileSize)
        writer.varint(5, UInt64(bitPattern: fileMtimeNs))
        writer.packed(6, kinds.map { UInt64(bitPattern: Int64($0.rawValue)) })
        writer.text(7, leaseToken)
        writer.varint(10, fileInBlobs ? 1 : 0)
        writer.text(11, sidecarPath)
        writer.varint(12, sidecarInBlobs ? 1 : 0)
        writer.text(13, sidecarError)
        return writer.data
    }
}
