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
import Testing

@testable import PhotomillCore

/// Opening never blocks: a FIFO with no writer, a socket, a device and a folder are
/// refused at once, each named for what it is; a regular file reads back as `cmp` would.
@Suite struct RegularFileTests {
    @Test func whatIsNotARegularFileIsRefusedAtOnceAndNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regular-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("photo.jpg").path
        #expect(mkfifo(fifo, 0o644) == 0)
        // A unix socket bound in the folder (a socket file cannot be opened at all).
        let socketPath = folder.appendingPathComponent("socket.jpg").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)

        let started = Date()
        for (path, type) in [
            (fifo, FileOpenError.FileType.fifo), (socketPath, .socket), ("/dev/null", .characterDevice),
            (folder.path, .folder),
        ] {
            do {
                _ = try RegularFile(path: path)
                Issue.record("\(path) opened")
            } catch {
                #expect(error.code == .notRegular(type), "\(path): \(error)")
                #expect(error.description == "\(path): it is \(type.rawValue), not a regular file")
            }
        }
        #expect(Date().timeIntervalSince(started) < 5, "no open waited for a writer")

        do {
            _ = try RegularFile(path: folder.appendingPathComponent("gone.jpg").path)
            Issue.record("a missing file opened")
        } catch {
            #expect(error.isGone)
            #expect(error.cause == "No such file or directory")
        }
    }

    @Test func aRegularFileReadsWholeInPartsAndInPieces() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("regular-file-\(UUID().uuidString)")
            .path
        defer { unlink(path) }
        var random = SplitMix64(seed: 29)
        let bytes = (0..<300_001).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let file = try RegularFile(path: path)
        #expect(file.size == bytes.count)
        #expect(try file.read() == Data(bytes))
        #expect(try file.read(upTo: 10) == Data(bytes.prefix(10)))
        #expect(file.read(299_990..<300_001) == Array(bytes.suffix(11)))
        #expect(file.read(299_990..<300_002) == nil, "past the end")
        var pieces: [UInt8] = []
        try file.forEachPiece(of: 65_536) { pieces += $0 }
        #expect(pieces == bytes)
        // An empty file, and one that reports size 0 but holds bytes (/proc).
        #expect(try RegularFile.contents(of: "/proc/self/stat").count > 0)
    }
}
