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
import SwiftProtobuf
import Testing

@Suite("Limits")
struct LimitsTests {
    @Test("a file is split into blob frames that a receiver accepts")
    func fileBlobs() throws {
        // 7 frames: three fixed, four blob frames, one of them kept for a sidecar.
        let limits = Limits(maxFrames: 7, maxBodyBytes: 1 << 20, maxBlobBytes: 128)
        #expect(limits.maxFileBytes == 3 * 128)
        let blobs = try #require(MillCodec.fileBlobs(Samples.fileBytes, limits: limits))
        #expect(blobs.map(\.count) == [128, 128, 44])
        var job = Samples.job
        job.fileInBlobs = true
        #expect(
            try MillCodec.decode(MillCodec.encode(.job(job, blobs: blobs)), limits: limits) == .job(job, blobs: blobs)
        )
        // The largest file and its sidecar fit one JOB.
        let largest = try #require(MillCodec.fileBlobs(Data(count: 3 * 128), limits: limits))
        job.fileSize = 3 * 128
        job.sidecarPath = "/photos/2024/IMG_0001.jpg.xmp"
        job.sidecarInBlobs = true
        let sidecar = Data("<x:xmpmeta/>".utf8)
        #expect(
            try MillCodec.decode(MillCodec.encode(.job(job, blobs: largest + [sidecar])), limits: limits)
                == .job(job, blobs: largest + [sidecar])
        )
        #expect(MillCodec.fileBlobs(Data(count: 3 * 128 + 1), limits: limits) == nil)
        #expect(MillCodec.fileBlobs(Data(), limits: limits) == [])
    }

    @Test("a body with every field at its bound fits the default body limit")
    func largestBodiesFit() throws {
        let longest = String(repeating: "x", count: FieldBounds.idBytes.upperBound)
        let ack = Photomill_V1_Ack.with {
            $0.committed = (0..<FieldBounds.ackEntries.upperBound).map {
                String(format: "%08d", $0) + longest.dropFirst(8)
            }
        }
        let ready = Photomill_V1_Ready.with {
            $0 = Samples.ready
            $0.pathRoots = (0..<FieldBounds.pathRoots.upperBound).map {
                "/" + String(format: "%04d", $0) + String(repeating: "p", count: FieldBounds.pathBytes.upperBound - 5)
            }
        }
        let text = String(repeating: "ü", count: FieldBounds.ocrTextBytes.upperBound / 2)
        let result = Photomill_V1_Result.with {
            $0 = Samples.result
            $0.results[3].ocr.text = text
        }
        for message in [MillMessage.ack(ack), .ready(ready), .result(result, blobs: [Samples.thumbnailJPEG])] {
            let body = MillCodec.encode(message)[2]
            #expect(body.count <= Limits.default.maxBodyBytes, "\(message.command) body is \(body.count) bytes")
            #expect(violation(of: message) == nil)
        }
    }

    @Test("MAXMSGSIZE covers the largest frame")
    func maxFrameBytes() {
        #expect(Limits.default.maxFrameBytes == 64 << 20)
        #expect(Limits.default.maxBlobs == 13)
    }

    @Test("validate applies the frame limits a receiver would")
    func validateUsesLimits() {
        let limits = Limits(maxFrames: 4, maxBodyBytes: 1 << 20, maxBlobBytes: 100)
        #expect(throws: ProtocolViolation.self) { try MillCodec.validate(Samples.jobWithFileBlobs, limits: limits) }
        #expect(throws: Never.self) { try MillCodec.validate(Samples.jobWithFileBlobs) }
    }
}
