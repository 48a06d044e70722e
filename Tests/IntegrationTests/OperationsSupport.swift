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
import PhotomillTestSupport

/// One generated set processed once by `photomill run` (16 samples, a copy of one photo,
/// so there is a duplicate, and the broken samples, so there are failures), shared by
/// the operator command tests. Tests that change the catalog work on a copy.
final class ProcessedSet: Sendable {
    let directory: URL
    let photos: URL
    let catalog: URL
    let exports: URL
    private let samplesJSON: Data

    static let shared: Result<ProcessedSet, any Error> = Result { try ProcessedSet() }

    private init() throws {
        directory = try temporaryDirectory()
        photos = directory.appendingPathComponent("photos")
        catalog = directory.appendingPathComponent("catalog.sqlite")
        exports = directory.appendingPathComponent("exports")
        let written = try PhotomillBinary.run(["samples", photos.path, "--count", "16", "--seed", "11"])
        guard written.status == 0 else { throw SetupError("samples: \(written.stderr)") }
        try FileManager.default.copyItem(
            at: photos.appendingPathComponent("IMG_0001.jpg"),
            to: photos.appendingPathComponent("copy-of-0001.jpg")
        )
        let run = try PhotomillBinary.run([
            "run", photos.path, "--workers", "2", "--catalog", catalog.path, "--exports", exports.path,
        ])
        // 16 samples and a copy, less the text and empty files named .jpg, which the scan
        // fails by name; samples.json is skipped.
        guard run.status == 1, run.stdout.contains("15 new"), run.stdout.contains("skipped: 1 file") else {
            throw SetupError("run: \(run.status) \(run.stdout) \(run.stderr)")
        }
        samplesJSON = try Data(contentsOf: photos.appendingPathComponent("samples.json"))
    }

    /// samples.json's entries for the files that are photos: what each holds,
    /// independently of photomill's reading of it (the text and empty files named .jpg are
    /// not: the scan fails them by name, `scanFailed`).
    var specs: [[String: Any]] { all.filter { $0["scanFails"] == nil } }

    /// The files named .jpg that are not media: rows whose every task the scan failed.
    var scanFailed: [[String: Any]] { all.filter { $0["scanFails"] != nil } }

    private var all: [[String: Any]] {
        ((try? JSONSerialization.jsonObject(with: samplesJSON)) as? [String: Any])?["files"] as? [[String: Any]] ?? []
    }

    /// A copy of the catalog in a folder of its own.
    func catalogCopy() throws -> URL {
        let folder = try temporaryDirectory()
        let copy = folder.appendingPathComponent("catalog.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: catalog.path + suffix) {
            try FileManager.default.copyItem(atPath: catalog.path + suffix, toPath: copy.path + suffix)
        }
        return copy
    }

    func path(_ file: String) -> String { photos.appendingPathComponent(file).path }

    struct SetupError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Great-circle distance, written out here independently of the code under test.
func haversineKm(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
    let r = Double.pi / 180
    let h = pow(sin((b.0 - a.0) * r / 2), 2) + cos(a.0 * r) * cos(b.0 * r) * pow(sin((b.1 - a.1) * r / 2), 2)
    return 2 * 6371.0088 * asin(sqrt(h))
}
