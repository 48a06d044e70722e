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
import PhotomillCore
import SwiftProtobuf
import Testing

@testable import MillProtocol

@Suite("Round trips")
struct RoundTripTests {
    @Test("every command decodes to what was encoded", arguments: Samples.all)
    func roundTrip(_ message: MillMessage) throws {
        let frames = MillCodec.encode(message)
        #expect(try MillCodec.decode(frames) == message)
        #expect(frames[0] == Data("PMILL1".utf8))
        #expect(frames[1] == Data([message.command.rawValue]))
        #expect(Array(frames.dropFirst(3)) == message.blobs)
    }

    @Test("a worker's outcomes become the RESULT entries written out by hand, and read back as themselves")
    func outcomesBecomeTheirEntries() throws {
        var blobs: [Data] = []
        let outcomes: [(Kind, TaskOutcome)] = [
            (
                .hash,
                .hash(
                    md5: "d41d8cd98f00b204e9800998ecf8427e",
                    sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                    fileSize: Int64(Samples.job.fileSize)
                )
            ),
            (.metadata, .metadata(PhotoMetadata(Samples.metadata))),
            (.thumbnail, .thumbnail(width: 256, height: 192, jpeg: Samples.thumbnailJPEG)),
            (.ocr, .ocr(text: "Grüße aus\nBerlin", confidence: 91.5, language: "eng+deu", rotation: 90)),
        ]
        var entries: [Photomill_V1_KindResult] = []
        for (index, (kind, outcome)) in outcomes.enumerated() {
            let recipe = Samples.result.results[index].recipe
            entries.append(Photomill_V1_KindResult(outcome, of: kind, recipe: recipe, seconds: 0, blobs: &blobs))
        }
        #expect(entries == Samples.result.results)
        #expect(blobs == [Samples.thumbnailJPEG])
        let frames = MillCodec.encode(.result(Samples.result, blobs: blobs))
        guard case .result(let decoded, let decodedBlobs) = try MillCodec.decode(frames) else {
            Issue.record("not a RESULT")
            return
        }
        for (entry, (kind, outcome)) in zip(decoded.results, outcomes) {
            #expect(TaskOutcome(entry, of: kind, blobs: decodedBlobs) == outcome)
        }
    }

    @Test("a similarity hash, a failure cut to its bound and the time spent cross as the worker said")
    func similarityFailureAndTime() throws {
        var blobs: [Data] = []
        let detail = try #require(DetailHash(bytes: (0..<32).map { UInt8($0 * 8) }))
        let similar = TaskOutcome.similarity(PerceptualHash(0x8F37_1C00_FE01_2233), detail: detail)
        let entry = Photomill_V1_KindResult(similar, of: .similarity, recipe: "r", seconds: 0.012_345_6, blobs: &blobs)
        #expect(entry.kind == .similarity)
        #expect(entry.similarity.perceptualHash == 0x8F37_1C00_FE01_2233)
        #expect(entry.similarity.detailHash == Data((0..<32).map { UInt8($0 * 8) }))
        #expect(entry.processingUs == 12_346)  // 12,345.6 µs, rounded
        #expect(TaskOutcome(entry, of: .similarity, blobs: []) == similar)

        // 3,000 "é" are 6,000 UTF-8 bytes; the bound is 4,096: 2,048 whole characters.
        let failed = TaskOutcome.failure(
            errorClass: .corrupt,
            message: String(repeating: "é", count: 3_000),
            retryable: false
        )
        let failure = Photomill_V1_KindResult(failed, of: .thumbnail, recipe: "", seconds: 0, blobs: &blobs)
        #expect(failure.failure.errorClass == "corrupt")
        #expect(failure.failure.message == String(repeating: "é", count: 2_048))
        #expect(!failure.failure.retryable)
        #expect(blobs.isEmpty)
    }

    @Test("a JOB encoded as its own fields and a shared tail decodes as the whole JOB")
    func jobWithTail() throws {
        var shared = Photomill_V1_Job()
        shared.parameters = Samples.job.parameters
        shared.deadlines = Samples.job.deadlines
        let tail = MillCodec.jobTail(shared)
        for inBlobs in [false, true] {
            var whole = Samples.job
            whole.fileInBlobs = inBlobs
            var head = whole
            head.clearParameters()
            head.deadlines = []
            let blobs = inBlobs ? [Samples.fileBytes] : []
            let frames = MillCodec.encodeJob(head, tail: tail, blobs: blobs)
            #expect(try MillCodec.decode(frames) == .job(whole, blobs: blobs))
            // Without file_in_blobs (the field after parameters) the bytes are even the
            // canonical encoding; with it, the fields come in another order.
            #expect((frames[2] == MillCodec.encode(.job(whole, blobs: blobs))[2]) == !inBlobs)
        }
    }

    @Test("a JOB's fields written by hand are the bytes SwiftProtobuf writes, whatever their values")
    func handEncodedJob() throws {
        var random = SplitMix64(seed: 0x10B)
        let texts = [
            "", "a", "/photos/2024/IMG_0001.jpg", "/Fotos/Grüße/😀 ü.heic", String(repeating: "p", count: 4_096),
            String(repeating: "é", count: 200),
        ]
        let numbers: [Int64] = [0, 1, 127, 128, 16_383, 16_384, Int64(Int32.max), .max, -1, .min]
        for _ in 0..<500 {
            var job = Photomill_V1_Job()
            job.jobID = random.pick(texts)
            job.photoID = random.pick(numbers)
            job.path = random.pick(texts)
            job.fileSize = UInt64(bitPattern: random.pick(numbers))
            job.fileMtimeNs = random.pick(numbers)
            job.kinds = (0..<random.int(in: 0...4)).map { _ in
                random.pick([.hash, .metadata, .thumbnail, .ocr, .unspecified, .UNRECOGNIZED(-5), .UNRECOGNIZED(300)])
            }
            job.leaseToken = random.pick(texts)
            job.fileInBlobs = random.chance(0.5)
            job.sidecarPath = random.pick(texts)
            job.sidecarInBlobs = random.chance(0.5)
            job.sidecarError = random.pick(texts)
            let hand = try #require(job.handEncoded)
            #expect(hand == (try job.serializedBytes() as Data), "\(job)")
        }
        // With fields it does not write by hand, it steps aside.
        #expect(Samples.job.handEncoded == nil)
    }

    @Test("the command bytes are the ones PROTOCOL.md lists")
    func commandBytes() {
        #expect(Command.allCases.map(\.rawValue) == Array(0x01...0x0A))
        #expect(
            Command.allCases.map(\.description) == [
                "READY", "JOB", "EXTEND", "RESULT", "FAIL", "ACK", "HEARTBEAT", "DISCONNECT",
                "JOBS", "RESULTS",
            ]
        )
    }

    @Test("blobs arrive in order and keep their bytes")
    func blobs() throws {
        guard case .job(let job, let blobs) = try MillCodec.decode(MillCodec.encode(Samples.jobWithFileBlobs)) else {
            Issue.record("not a JOB")
            return
        }
        #expect(job.fileInBlobs)
        #expect(blobs.reduce(Data(), +) == Samples.fileBytes)
    }

    @Test("frames that are slices of a larger buffer decode the same")
    func slicedFrames() throws {
        // A socket layer may hand out frames that share one receive buffer.
        let frames = MillCodec.encode(.result(Samples.result, blobs: [Samples.thumbnailJPEG]))
        let sliced = frames.map { frame in (Data([0xAA, 0xBB]) + frame + Data([0xCC])).dropFirst(2).dropLast() }
        #expect(try MillCodec.decode(sliced) == .result(Samples.result, blobs: [Samples.thumbnailJPEG]))
    }

    @Test("an absent optional field is not its zero value")
    func presence() throws {
        var metadata = Photomill_V1_Metadata()
        metadata.gpsLatitude = 0
        metadata.gpsLongitude = 0
        let result = Photomill_V1_Result.with {
            $0.jobID = "j"
            $0.leaseToken = "t"
            $0.results = [
                .with {
                    $0.kind = .metadata
                    $0.recipe = "r"
                    $0.metadata = metadata
                }
            ]
        }
        guard case .result(let decoded, _) = try MillCodec.decode(MillCodec.encode(.result(result, blobs: []))) else {
            Issue.record("not a RESULT")
            return
        }
        let back = decoded.results[0].metadata
        #expect(back.hasGpsLatitude && back.gpsLatitude == 0)
        #expect(!back.hasIso && !back.hasDateTaken && !back.hasOrientation)
    }

    @Test("fields from a newer revision are skipped, not kept")
    func unknownFieldsIgnored() throws {
        // Field 100, varint 7, and field 101, a length-delimited "new": what a newer
        // worker's READY might add.
        var body: Data = try Samples.ready.serializedBytes()
        body.append(contentsOf: [0xA0, 0x06, 0x07, 0xAA, 0x06, 0x03, 0x6E, 0x65, 0x77])
        let decoded = try MillCodec.decode([MillWire.signature, Data([Command.ready.rawValue]), body])
        #expect(decoded == .ready(Samples.ready))
        #expect(MillCodec.encode(decoded)[2] == (try Samples.ready.serializedBytes() as Data))
    }

    @Test("kind names match PhotomillCore's")
    func kindNames() {
        #expect(Photomill_V1_Kind.known.map(\.name) == ["hash", "metadata", "thumbnail", "ocr", "similarity"])
        #expect(Kind(rawValue: "ocr").map(Photomill_V1_Kind.init) == .ocr)
        #expect(Kind(rawValue: "unspecified") == nil)
        #expect(Kind(Photomill_V1_Kind.unspecified) == nil)
        #expect(Photomill_V1_Kind.UNRECOGNIZED(9).name == "kind(9)")
        // Each descriptor's wire value is photomill.proto's KIND_<NAME>, and comes back.
        for kind in Kind.allCases {
            #expect("\(Photomill_V1_Kind(kind))" == kind.rawValue)
            #expect(Kind(Photomill_V1_Kind(kind)) == kind)
        }
    }
}
