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

/// JOBS and RESULTS (revision 3, PROTOCOL.md "Batches"): what `MillCodec.batched` builds
/// from single messages, how their blob frames are shared out, their limits, and the
/// validation of each entry.
@Suite("Batches")
struct BatchTests {
    /// `count` JOBs for files the worker reads, encoded as the coordinator does (its own
    /// fields, then the tail every job of the run shares).
    static func jobFrames(_ count: Int, pathBytes: Int = 24) -> [[Data]] {
        var shared = Photomill_V1_Job()
        shared.parameters = Samples.job.parameters
        shared.deadlines = Samples.job.deadlines
        let tail = MillCodec.jobTail(shared)
        return (1...count).map { index in
            var head = Samples.job
            head.clearParameters()
            head.deadlines = []
            // Ids of one width, so that every body has the same length.
            head.jobID = String(format: "j-%05d", index)
            head.leaseToken = String(format: "t-%05d", index)
            head.photoID = Int64(1_000 + index)
            let name = String(format: "/%05d.jpg", index)
            head.path = "/" + String(repeating: "p", count: max(1, pathBytes - name.count - 1)) + name
            return MillCodec.encodeJob(head, tail: tail, blobs: [])
        }
    }

    /// A RESULT of job `id`, with a thumbnail in a blob frame of its own when `thumbnail`
    /// is given (its `blob_index` 0, as a slot numbers it).
    static func resultFrames(_ id: String, thumbnail: Data? = nil) -> [Data] {
        var result = Photomill_V1_Result()
        result.jobID = id
        result.leaseToken = "t-" + id
        result.results = [Samples.result.results[0]]
        if thumbnail != nil { result.results.append(Samples.result.results[2]) }
        return MillCodec.encode(.result(result, blobs: thumbnail.map { [$0] } ?? []))
    }

    static func failFrames(_ id: String) -> [Data] {
        var fail = Samples.fail
        fail.jobID = id
        fail.leaseToken = "t-" + id
        return MillCodec.encode(.fail(fail))
    }

    @Test("JOBs go as one JOBS that decodes to the same jobs, in order; a lone JOB stays a JOB")
    func jobsRoundTrip() throws {
        let singles = Self.jobFrames(5)
        let batches = MillCodec.batched(singles)
        #expect(batches.map(\.count) == [5])
        let frames = try #require(batches.first?.frames)
        #expect(frames.count == 3 && frames[1] == Data([0x09]))
        // Field 1 (`jobs`), length-delimited: the tag byte is 1 << 3 | 2 = 0x0A, then the
        // first JOB body's length as a varint, then that body unchanged.
        let first = singles[0][2]
        #expect(frames[2].prefix(2) == Data([0x0A, UInt8(first.count)]))
        #expect(frames[2].dropFirst(2).prefix(first.count) == first)
        guard case .jobs(let batch) = try MillCodec.decode(frames) else {
            Issue.record("not a JOBS")
            return
        }
        let alone = try singles.map { single -> Photomill_V1_Job in
            guard case .job(let job, _) = try MillCodec.decode(single) else { throw CocoaError(.coderInvalidValue) }
            return job
        }
        #expect(batch.jobs == alone)

        let lone = MillCodec.batched(Array(singles.prefix(1)))
        #expect(lone.count == 1 && lone[0].count == 1 && lone[0].frames == singles[0])
        #expect(MillCodec.batched([]).isEmpty)
    }

    @Test("RESULTS: each result's thumbnails follow in its order, numbered from its own first frame; fails come apart")
    func resultsShareOutBlobs() throws {
        let x = Data("thumbnail of a".utf8)
        let y = Data("thumbnail of c".utf8)
        let messages = [
            Self.resultFrames("a", thumbnail: x), Self.failFrames("f"), Self.resultFrames("b"),
            Self.resultFrames("c", thumbnail: y),
        ]
        let batches = MillCodec.batched(messages)
        #expect(batches.map(\.count) == [4])
        let frames = try #require(batches.first?.frames)
        #expect(frames[1] == Data([0x0A]))
        #expect(Array(frames.dropFirst(3)) == [x, y])
        guard case .results(let batch, let blobs) = try MillCodec.decode(frames) else {
            Issue.record("not a RESULTS")
            return
        }
        #expect(batch.results.map(\.jobID) == ["a", "b", "c"])
        #expect(batch.fails.map(\.jobID) == ["f"])
        let slices = try #require(batch.blobsByResult(blobs))
        #expect(slices.map(Array.init) == [[x], [], [y]])
        #expect(batch.results[2].results[1].thumbnail.blobIndex == 0, "counted from the result's own first frame")
    }

    @Test("batches stay within the limits: 4096 outcomes, 13 blob frames, 1 MiB of body, 1024 JOBs")
    func limits() throws {
        // 4096 outcomes a RESULTS (as many as an ACK settles).
        let fails = (0..<5_000).map { Self.failFrames("f\($0)") }
        #expect(MillCodec.batched(fails).map(\.count) == [4_096, 904])
        // A message has at most 16 frames: 3 fixed, so 13 thumbnails.
        let thumbnails = (0..<30).map { Self.resultFrames("r\($0)", thumbnail: Data([UInt8($0)])) }
        let withBlobs = MillCodec.batched(thumbnails)
        #expect(withBlobs.map(\.count) == [13, 13, 4])
        #expect(withBlobs.map { $0.frames.count } == [16, 16, 7])
        // 1024 JOBs at most (the most slots a worker has).
        #expect(MillCodec.batched(Self.jobFrames(1_500)).map(\.count) == [1_024, 476])
        // JOBs of 4000-byte paths: each entry is its body, its tag (1 byte) and its length
        // (2 bytes of varint below 16,384), and 1 MiB of them fit in a body.
        let long = Self.jobFrames(600, pathBytes: 4_000)
        let entry = long[0][2].count + 3
        #expect(long.allSatisfy { $0[2].count + 3 == entry })
        let perMessage = (1 << 20) / entry
        let batches = MillCodec.batched(long)
        #expect(
            batches.map(\.count) == Array(repeating: perMessage, count: 600 / perMessage)
                + [600 % perMessage].filter { $0 > 0 }
        )
        for batch in batches {
            #expect(batch.frames[2].count <= Limits.default.maxBodyBytes)
            #expect(violation(batch.frames) == nil)
        }
    }

    /// A JOBS spoiled in one way, and the field its violation must name.
    enum SpoiledJobs: String, CaseIterable, Sendable {
        case relativePath, fileInBlobs, noToken, repeatedID, empty, overLimit

        var field: String {
            switch self {
            case .relativePath: "jobs[1].path"
            case .fileInBlobs: "jobs[0].file_in_blobs"
            case .noToken: "jobs[1].lease_token"
            case .repeatedID: "jobs.job_id[1]"
            case .empty, .overLimit: "jobs"
            }
        }

        func apply(to jobs: inout [Photomill_V1_Job]) {
            switch self {
            case .relativePath: jobs[1].path = "relative/x.jpg"
            // A file's bytes need frames of their own: such a job travels alone, as JOB.
            case .fileInBlobs: jobs[0].fileInBlobs = true
            case .noToken: jobs[1].leaseToken = ""
            case .repeatedID: jobs[1].jobID = jobs[0].jobID
            case .empty: jobs = []
            case .overLimit:
                jobs = (0..<1_025).map { index in
                    var job = jobs[0]
                    job.jobID = "j\(index)"
                    return job
                }
            }
        }
    }

    @Test("each JOBS entry is validated as a JOB, and named in the violation", arguments: SpoiledJobs.allCases)
    func jobsEntries(_ spoiled: SpoiledJobs) {
        var batch = Samples.jobs
        spoiled.apply(to: &batch.jobs)
        let found = violation(of: .jobs(batch))
        #expect(found?.reason == .invalidField)
        #expect(found?.command == .jobs)
        #expect(found?.field == spoiled.field, "\(String(describing: found))")
    }

    @Test("each RESULTS entry is validated as a RESULT or FAIL, and named in the violation")
    func resultsEntries() {
        var badHash = Samples.results
        badHash.results[1].results.append(Samples.result.results[0])
        badHash.results[1].results[2].hashes.md5 = "not hex"
        #expect(
            violation(of: .results(badHash, blobs: [Samples.thumbnailJPEG]))?.field
                == "results[1].results[2].hashes.md5"
        )

        var badClass = Samples.results
        badClass.fails[0].errorClass = "Not A Class"
        #expect(violation(of: .results(badClass, blobs: [Samples.thumbnailJPEG]))?.field == "fails[0].error_class")

        var twice = Samples.results
        twice.fails[0].jobID = twice.results[0].jobID
        let repeated = violation(of: .results(twice, blobs: [Samples.thumbnailJPEG]))
        #expect(repeated?.reason == .invalidField && repeated?.field == "job_id[2]", "one outcome per job")

        var none = Samples.results
        none.results = []
        none.fails = []
        #expect(violation(of: .results(none, blobs: []))?.field == "results+fails")
        var many = Samples.results
        many.results = []
        many.fails = (0..<4_097).map { index in
            var fail = Samples.fail
            fail.jobID = "f\(index)"
            return fail
        }
        #expect(violation(of: .results(many, blobs: []))?.field == "results+fails")
    }

    @Test("a RESULTS whose results reference more thumbnails than follow, or fewer, is dropped")
    func resultsBlobCount() {
        #expect(violation(of: .results(Samples.results, blobs: []))?.reason == .missingBlob)
        #expect(
            violation(of: .results(Samples.results, blobs: [Samples.thumbnailJPEG, Data([1])]))?.reason
                == .unexpectedBlob
        )
        // The thumbnail's index is its result's own: 1 names a second frame that result does not have.
        var beyond = Samples.results
        beyond.results[0].results[2].thumbnail.blobIndex = 1
        #expect(violation(of: .results(beyond, blobs: [Samples.thumbnailJPEG]))?.reason == .missingBlob)
    }
}
