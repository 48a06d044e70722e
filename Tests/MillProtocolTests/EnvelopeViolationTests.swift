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

/// Violations found before or while decoding the protobuf body.
@Suite("Envelope violations")
struct EnvelopeViolationTests {
    let readyFrames = MillCodec.encode(.ready(Samples.ready))

    @Test("missing frames")
    func missingFrames() {
        #expect(violation([])?.reason == .missingFrame)
        #expect(violation([MillWire.signature])?.reason == .missingFrame)
        let noBody = violation([MillWire.signature, Data([Command.heartbeat.rawValue])])
        #expect(noBody?.reason == .missingFrame)
        #expect(noBody?.command == .heartbeat)
    }

    @Test("wrong signature", arguments: ["PMILL2", "PMILL", "pmill1", "", "PMILL1\0", "HTTP/1.1"])
    func wrongSignature(_ signature: String) {
        var frames = readyFrames
        frames[0] = Data(signature.utf8)
        #expect(violation(frames)?.reason == .wrongSignature)
    }

    @Test("an empty delimiter frame (REQ/REP style) is a wrong signature")
    func delimiterFrame() {
        #expect(violation([Data()] + readyFrames)?.reason == .wrongSignature)
    }

    @Test("unknown command byte", arguments: [[0x00], [0x0B], [0xFF], [], [0x01, 0x01], [0x31]] as [[UInt8]])
    func unknownCommand(_ command: [UInt8]) {
        var frames = readyFrames
        frames[1] = Data(command)
        #expect(violation(frames)?.reason == .unknownCommand)
    }

    @Test("truncated body")
    func truncatedBody() {
        // Cut inside worker_id, whose length prefix promises more bytes than there are.
        var frames = readyFrames
        frames[2] = frames[2].prefix(5)
        let found = violation(frames)
        #expect(found?.reason == .truncatedBody)
        #expect(found?.command == .ready)

        // Cut inside a varint, SwiftProtobuf cannot tell short from bad: malformed.
        frames[2] = readyFrames[2].dropLast()
        #expect(violation(frames)?.reason == .malformedBody)
    }

    @Test(
        "malformed body",
        arguments: [
            [0x0F],  // field 1 with wire type 7, which does not exist
            [0x0A, 0x01, 0xFF],  // worker_id as a string that is not UTF-8
            [0x00, 0x00],  // field number 0
            [0x28, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],  // an 11-byte varint
        ] as [[UInt8]]
    )
    func malformedBody(_ body: [UInt8]) {
        #expect(violation(frames(Command.ready.rawValue, body: body))?.reason == .malformedBody)
    }

    @Test("a body of the wrong command is rejected by validation, not misread")
    func bodyOfAnotherCommand() {
        // A JOB body under the READY byte decodes (fields by number) but cannot be valid.
        var frames = MillCodec.encode(.job(Samples.job, blobs: []))
        frames[1] = Data([Command.ready.rawValue])
        #expect(violation(frames) != nil)
    }

    @Test("body over the limit")
    func bodyTooLarge() {
        let limits = Limits(maxFrames: 16, maxBodyBytes: 16, maxBlobBytes: 1 << 20)
        #expect(violation(readyFrames, limits: limits)?.reason == .frameTooLarge)
    }

    @Test("blob over the limit")
    func blobTooLarge() {
        let limits = Limits(maxFrames: 16, maxBodyBytes: 1 << 20, maxBlobBytes: 8)
        let frames = MillCodec.encode(.result(Samples.result, blobs: [Samples.thumbnailJPEG]))
        #expect(violation(frames, limits: limits)?.reason == .frameTooLarge)
    }

    @Test("too many frames")
    func tooManyFrames() {
        let frames = MillCodec.encode(.result(Samples.result, blobs: [Samples.thumbnailJPEG]))
        #expect(violation(frames + Array(repeating: Data(), count: 13))?.reason == .tooManyFrames)
        // Counted before anything else: even junk with too many frames is reported as such.
        #expect(violation(Array(repeating: Data([1]), count: 17))?.reason == .tooManyFrames)
    }

    @Test(
        "blob frames on a command that takes none",
        arguments: [Command.ready, .extend, .fail, .ack, .heartbeat, .disconnect, .jobs]
    )
    func blobsWhereNoneBelong(_ command: Command) throws {
        let message = try #require(Samples.all.first { $0.command == command })
        #expect(violation(MillCodec.encode(message) + [Data([1, 2, 3])])?.reason == .unexpectedBlob)
    }

    @Test("thumbnail blob index out of range")
    func blobIndexOutOfRange() {
        let found = violation(of: .result(Samples.result, blobs: []))
        #expect(found?.reason == .missingBlob)
        #expect(found?.field == "results[2].thumbnail.blob_index")
    }

    @Test("a blob no result refers to")
    func unreferencedBlob() {
        #expect(
            violation(of: .result(Samples.result, blobs: [Samples.thumbnailJPEG, Data([0])]))?.reason == .unexpectedBlob
        )
        #expect(violation(of: .result(Samples.resultWithFailure, blobs: [Data([0])]))?.reason == .unexpectedBlob)
    }

    @Test("file bytes short, long, or not announced")
    func fileBlobs() {
        var job = Samples.job
        job.fileInBlobs = true
        let bytes = Samples.fileBytes
        #expect(violation(of: .job(job, blobs: [bytes.dropLast()]))?.reason == .missingBlob)
        #expect(violation(of: .job(job, blobs: []))?.reason == .missingBlob)
        #expect(violation(of: .job(job, blobs: [bytes, Data([0])]))?.reason == .unexpectedBlob)
        #expect(violation(of: .job(Samples.job, blobs: [bytes]))?.reason == .unexpectedBlob)
    }

    @Test("a sidecar frame: missing, or over its 16 MiB (PROTOCOL.md, Sidecars)")
    func sidecarFrames() {
        var job = Samples.job
        job.fileInBlobs = true
        job.sidecarPath = "/photos/2024/IMG_0001.jpg.xmp"
        job.sidecarInBlobs = true
        let bytes = Samples.fileBytes
        #expect(violation(of: .job(job, blobs: [bytes, Data("<x:xmpmeta/>".utf8)])) == nil)
        #expect(violation(of: .job(job, blobs: [bytes, Data(count: 16 << 20)])) == nil)
        let large = violation(of: .job(job, blobs: [bytes, Data(count: (16 << 20) + 1)]))
        #expect(large?.reason == .frameTooLarge)
        #expect(large?.field == "sidecar_in_blobs")
        #expect(violation(of: .job(job, blobs: [bytes]))?.reason == .missingBlob)
        job.fileInBlobs = false
        #expect(violation(of: .job(job, blobs: [Data("<x:xmpmeta/>".utf8)]))?.reason == .invalidField)
    }

    @Test("every violation names its reason in its description")
    func description() throws {
        var frames = readyFrames
        frames[0] = Data("PMILL2".utf8)
        let found = try #require(violation(frames))
        #expect(found.description.contains("wrong-signature"))
        #expect(found.message.contains("504d494c4c32"))  // "PMILL2" in hex
    }
}
