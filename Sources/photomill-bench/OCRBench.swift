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

/// OCR over the same pages: photomill with 2 local workers against the `tesseract`
/// command under GNU parallel (single-threaded, as is fastest on few cores), with the
/// character error rate of each against the text printed on the pages.
struct OCRBench {
    var photomill: String
    var set: PhotoSet
    var scratch: URL
    var cores: Int

    struct Figures {
        var photomill: Measured
        var photomillErrorRate: Double
        var tesseract: Measured
        var tesseractErrorRate: Double
    }

    func run() throws -> Figures {
        let catalogPath = scratch.appendingPathComponent("ocr.sqlite").path
        // With the hash (about a millisecond a page), so that the catalog's export records,
        // which are keyed by content, hold the text.
        let ours = try checked(
            Spawn.run([
                photomill, "run", set.directory.path, "--workers", String(cores), "--slots", "1",
                "--kinds", "hash,ocr", "--no-exports", "--catalog", catalogPath,
            ])
        )
        var recognised: [String: String] = [:]
        var after: Int64 = 0
        let catalog = try Catalog(path: catalogPath, mode: .readOnly)
        while true {
            let records = try catalog.exportRecords(afterPhoto: after)
            guard let last = records.last else { break }
            for record in records { recognised[record.path] = record.ocrText ?? "" }
            after = last.photoId
        }

        let output = scratch.appendingPathComponent("tesseract")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let list = scratch.appendingPathComponent("pages.txt")
        try set.files.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let theirs = try checked(
            Spawn.shell(
                "parallel --will-cite -j \(cores) -a '\(list.path)' 'tesseract {} \(output.path)/{/.} -l eng' >/dev/null",
                environment: ["OMP_THREAD_LIMIT": "1"]
            )
        )
        var tesseract: [String: String] = [:]
        for file in set.files {
            let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            tesseract[file] =
                (try? String(contentsOfFile: output.appendingPathComponent(name + ".txt").path, encoding: .utf8)) ?? ""
        }
        return Figures(
            photomill: ours,
            photomillErrorRate: errorRate(recognised),
            tesseract: theirs,
            tesseractErrorRate: errorRate(tesseract)
        )
    }

    /// Edits needed to turn the recognised text into the printed text, over the printed
    /// text's length, summed over all pages (whitespace runs count as one space).
    private func errorRate(_ recognised: [String: String]) -> Double {
        var edits = 0
        var length = 0
        for (file, expected) in set.expectedText {
            let truth = normalized(expected)
            let found = normalized(recognised[file] ?? "")
            edits += levenshtein(Array(found.unicodeScalars), Array(truth.unicodeScalars))
            length += truth.unicodeScalars.count
        }
        return length == 0 ? 0 : Double(edits) / Double(length)
    }

    private func normalized(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

func levenshtein<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
