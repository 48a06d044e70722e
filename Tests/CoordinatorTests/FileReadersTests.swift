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

import Catalog
import Foundation
import PhotomillCore
import PhotomillTestSupport
import Testing

@testable import Coordinator

/// The coordinator's readers of files for workers fed bytes (docs/benchmarks.md, "Bytes at
/// line rate"): real files, real threads; what they hold is bounded by their budget.
@Suite("File readers")
struct FileReadersTests {
    /// `count` files of `size` bytes (each filled with its own byte), as the catalog would
    /// page them: path, size and mtime from stat(2).
    static func files(_ count: Int, size: Int, in directory: URL) throws -> [PendingJob] {
        try (0..<count).map { index in
            let url = directory.appendingPathComponent("f\(index).bin")
            try Data(repeating: UInt8(index), count: size).write(to: url)
            let stamp = try FileStamp.of(url.path)
            return PendingJob(
                photoId: Int64(index + 1),
                path: url.path,
                size: stamp.size,
                mtimeNs: stamp.mtimeNs,
                kinds: [.hash]
            )
        }
    }

    static func request(_ job: PendingJob) -> FileReaders.Request {
        FileReaders.Request(
            order: JobOrder(jobID: "j\(job.photoId)", token: "t\(job.photoId)", job: job, fileInBlobs: true),
            peer: Data("w#1".utf8)
        )
    }

    /// Reads handed back within `seconds`.
    static func collect(_ readers: FileReaders, atLeast count: Int, within seconds: Double) -> [FileReaders.Read] {
        var reads: [FileReaders.Read] = []
        _ = eventually(seconds: seconds) {
            reads += readers.collect()
            return reads.count >= count
        }
        return reads
    }

    /// Every read started, collected: a read the budget should have held back, had it
    /// started, is among them.
    static func settle(_ readers: FileReaders) -> [FileReaders.Read] {
        var reads: [FileReaders.Read] = []
        _ = eventually(seconds: 10) {
            reads += readers.collect()
            return readers.inFlight == 0
        }
        return reads
    }

    @Test("what is read and not handed on stays within the budget; each release lets the next read start")
    func budget() throws {
        let directory = try temporaryDirectory("readers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let megabyte = 1 << 20
        let jobs = try Self.files(10, size: megabyte, in: directory)
        // 3.5 MiB: three 1 MiB files fit, a fourth does not.
        let readers = try FileReaders(threads: 2, budget: Int64(3 * megabyte + megabyte / 2))
        defer { readers.stop() }
        for job in jobs { readers.submit(Self.request(job)) }

        var held = Self.collect(readers, atLeast: 3, within: 10)
        held += Self.settle(readers)
        #expect(held.count == 3, "three 1 MiB files in a 3.5 MiB budget")
        #expect(readers.backlog.bytes == Int64(3 * megabyte))
        #expect(readers.backlog.requests == 7)

        // Handing one on frees its share: exactly one more is read.
        var all = [held[0]]
        readers.release(held.removeFirst())
        held += Self.collect(readers, atLeast: 1, within: 10)
        held += Self.settle(readers)
        #expect(held.count == 3 && readers.backlog.bytes == Int64(3 * megabyte))

        // The rest, released as they come; every file arrives once, whole, in one frame.
        all += held
        for read in held { readers.release(read) }
        while all.count < 10 {
            let more = Self.collect(readers, atLeast: 1, within: 10)
            guard !more.isEmpty else { break }
            all += more
            for read in more { readers.release(read) }
        }
        #expect(all.map(\.request.order.job.photoId).sorted() == Array(1...10))
        for read in all {
            guard case .success(let payload) = read.payload else {
                Issue.record("\(read.request.order.job.path) not read")
                continue
            }
            let index = UInt8(read.request.order.job.photoId - 1)
            #expect(payload.frames.count == 1)
            #expect(payload.frames.first == Data(repeating: index, count: megabyte))
        }
        #expect(readers.backlog.bytes == 0 && readers.backlog.requests == 0)
    }

    @Test("a file over the budget is read once nothing else is held; a changed one holds nothing")
    func largeAndChanged() throws {
        let directory = try temporaryDirectory("readers")
        defer { try? FileManager.default.removeItem(at: directory) }
        var jobs = try Self.files(3, size: 64 << 10, in: directory)
        // The second file grew after the "scan": its stamp no longer matches.
        try Data(repeating: 9, count: 70 << 10).write(to: URL(fileURLWithPath: jobs[1].path))
        // The third is twice the budget.
        jobs[2] = try Self.files(
            1,
            size: 256 << 10,
            in: directory.appendingPathComponent("big", isDirectory: true).creatingDirectory()
        )[0]
        let readers = try FileReaders(threads: 2, budget: 128 << 10)
        defer { readers.stop() }
        readers.submit(Self.request(jobs[0]))
        readers.submit(Self.request(jobs[1]))
        let first = Self.collect(readers, atLeast: 2, within: 10)
        #expect(first.count == 2)
        let changed = try #require(first.first { $0.request.order.job.path == jobs[1].path })
        guard case .failure(.changed(let message)) = changed.payload else {
            Issue.record("not found changed: \(changed.payload)")
            return
        }
        #expect(message.contains(jobs[1].path) && message.contains("65536 → 71680"), "\(message)")
        #expect(changed.reserved == 0)
        #expect(readers.backlog.bytes == 64 << 10, "only the file read holds its share")

        readers.submit(Self.request(jobs[2]))
        #expect(Self.settle(readers).isEmpty, "the large one waits while another file is held")
        readers.release(try #require(first.first { $0.request.order.job.path == jobs[0].path }))
        let large = Self.collect(readers, atLeast: 1, within: 10)
        #expect(large.count == 1 && large.first?.reserved == 256 << 10)
        if case .success(let payload)? = large.first?.payload {
            #expect(payload.frames.reduce(0) { $0 + $1.count } == 256 << 10)
        }
    }
}

extension URL {
    fileprivate func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
