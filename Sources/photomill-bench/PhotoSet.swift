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

/// The files a benchmark runs on: JPEGs of a folder the user gives, or photos that
/// `photomill samples` writes (12-megapixel JPEGs, and pages of text for OCR).
struct PhotoSet {
    var directory: URL
    var files: [String]
    /// The text printed on each page, for OCR accuracy; empty for a user's folder.
    var expectedText: [String: String] = [:]

    var megabytes: Double {
        Double(files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) })
            / 1e6
    }

    static func folder(_ path: String) throws -> PhotoSet {
        let url = URL(fileURLWithPath: path)
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        let files = names.filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
            .map { url.appendingPathComponent($0).path }
        guard !files.isEmpty else { throw BenchError("\(path): no JPEG files to measure") }
        return PhotoSet(directory: url, files: files)
    }

    /// `count` 4000×3000 JPEGs.
    static func photos(_ photomill: String, count: Int, in directory: URL) throws -> PhotoSet {
        let target = directory.appendingPathComponent("photos")
        try generate(photomill, ["--count", String(count), "--seed", "12", "--photo-size", "4000x3000"], into: target)
        let specs = try specifications(target)
        let files = specs.filter { $0["broken"] == nil }.compactMap { $0["file"] as? String }.map {
            target.appendingPathComponent($0).path
        }
        try keepOnly(files, in: target)
        return PhotoSet(directory: target, files: files)
    }

    /// The pages of printed text among `count` samples, with their text.
    static func pages(_ photomill: String, count: Int, in directory: URL) throws -> PhotoSet {
        let target = directory.appendingPathComponent("pages")
        try generate(photomill, ["--count", String(count), "--seed", "7"], into: target)
        var set = PhotoSet(directory: target, files: [])
        for spec in try specifications(target) {
            guard let text = spec["text"] as? String, let name = spec["file"] as? String else { continue }
            let path = target.appendingPathComponent(name).path
            set.files.append(path)
            set.expectedText[path] = text
        }
        try keepOnly(set.files, in: target)
        return set
    }

    /// Moves every other file out of the folder, so that `photomill run` and the shell
    /// tools see the same files.
    private static func keepOnly(_ files: [String], in folder: URL) throws {
        let others = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-others")
        try FileManager.default.createDirectory(at: others, withIntermediateDirectories: true)
        let kept = Set(files)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where !kept.contains(folder.appendingPathComponent(name).path) {
            try FileManager.default.moveItem(
                at: folder.appendingPathComponent(name),
                to: others.appendingPathComponent(name)
            )
        }
    }

    private static func generate(_ photomill: String, _ arguments: [String], into target: URL) throws {
        let result = try Spawn.run([photomill, "samples", target.path] + arguments)
        guard result.status == 0 else { throw BenchError("photomill samples failed (exit \(result.status))") }
    }

    private static func specifications(_ folder: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("samples.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["files"] as? [[String: Any]] ?? []
    }
}
