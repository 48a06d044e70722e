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

import ArgumentParser
import Exports
import Foundation
import PhotoProcessing
import PhotomillCore

extension Photomill {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Process files locally (no cluster) and print what was found.",
            discussion: """
                Files are processed in parallel on all cores. Exit status: 0 when every kind of \
                every file succeeded, 1 when some failed (the other files are still processed), \
                64 on usage errors.
                """
        )

        @OptionGroup var processing: ProcessingFlags

        @Option(
            help:
                "Write each thumbnail into this folder as MD5.jpg (or NAME.EXT.jpg without --kinds hash); never over a FILE."
        )
        var thumbnailDir: String?

        @Flag(help: "Print JSON Lines, one object per file.")
        var json = false

        @Argument(help: "Photo files.")
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one FILE") }
            if let thumbnailDir {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: thumbnailDir, isDirectory: &isDirectory),
                    isDirectory.boolValue
                else {
                    throw ValidationError("--thumbnail-dir \(thumbnailDir): no such folder (create it first)")
                }
            }
        }

        func run() throws {
            var failures = 0
            var failedThumbnailWrites = 0
            var destinations = ThumbnailDestinations(inputs: files)
            ProcessingPool.process(paths: files, kinds: processing.kinds, parameters: processing.parameters) { result in
                var thumbnailPath: String?
                if let thumbnailDir, let thumbnail = result.thumbnail {
                    // A content's thumbnail is named by its MD5 (copies share it); without a
                    // hash, by the file's whole name, so a.jpg and a.png keep one each.
                    let name = result.hashes?.md5 ?? URL(fileURLWithPath: result.path).lastPathComponent
                    let path = URL(fileURLWithPath: thumbnailDir).appendingPathComponent("\(name).jpg").path
                    do {
                        try destinations.claim(path, for: result.path, content: result.hashes?.md5)
                        try AtomicFile.write(Data(thumbnail.jpeg), to: URL(fileURLWithPath: path), onlyIfChanged: true)
                        thumbnailPath = path
                    } catch {
                        failedThumbnailWrites += 1
                        printError("photomill: cannot write thumbnail \(path): \(error)")
                    }
                }
                if !result.succeeded { failures += 1 }
                let report = InspectReport(result, thumbnailPath: thumbnailPath)
                print(json ? report.jsonLine() : report.text())
            }
            if failures > 0 || failedThumbnailWrites > 0 {
                if !json { printError("photomill: \(failures) of \(files.count) files had failures") }
                throw ExitCode.someFailed
            }
        }
    }
}

/// Where `inspect` writes thumbnails, checked so that an output never replaces an input
/// (a FILE, by device and inode, whatever its name or link) nor another file's thumbnail
/// written by the same command.
struct ThumbnailDestinations {
    private let inputs: Set<FileIdentity>
    /// Destination → the file whose thumbnail went there, and its content.
    private var claimed: [String: (source: String, content: String?)] = [:]

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    init(inputs: [String]) {
        self.inputs = Set(inputs.compactMap(FileIdentity.init))
    }

    mutating func claim(_ destination: String, for source: String, content: String?) throws(Refusal) {
        if let identity = FileIdentity(destination), inputs.contains(identity) {
            throw Refusal(description: "it is one of the files inspected; choose another --thumbnail-dir")
        }
        // The same file given twice, or two copies of one content (named by their MD5),
        // share a thumbnail; two different files never do.
        if let earlier = claimed[destination], earlier.source != source,
            earlier.content == nil || earlier.content != content
        {
            throw Refusal(description: "it would replace the thumbnail of \(earlier.source) written by this command")
        }
        claimed[destination] = (source, content)
    }
}

/// A file as the file system knows it: device and inode (stat, following links).
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init?(_ path: String) {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
