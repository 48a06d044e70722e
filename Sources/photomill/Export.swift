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
import Catalog
import Exports
import Foundation
import PhotomillCore

extension Photomill {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild the exports from the catalog alone (docs/exports.md).",
            discussion: "Only files whose content changed are rewritten; every file is written atomically."
        )

        @OptionGroup var catalog: CatalogFlags

        @Argument(help: "Export folder (created if missing).")
        var directory: String

        @Flag(help: "Leave GPS coordinates out of the metadata plists.")
        var stripGPS = false

        @Option(
            help: ArgumentHelp(
                "Also write all recognised text into this one text file, photo by photo.",
                valueName: "FILE"
            )
        )
        var ocrText: String?

        func validate() throws {
            if let ocrText {
                let folder = URL(fileURLWithPath: ocrText).deletingLastPathComponent().standardizedFileURL.path
                let exportFolder = URL(fileURLWithPath: directory).standardizedFileURL.path
                var isDirectory: ObjCBool = false
                let exists =
                    FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
                guard exists || folder == exportFolder else {
                    throw ValidationError("--ocr-text \(ocrText): no folder \(folder) to write it in")
                }
                // Never over a file of someone else's (a photo, a document): only over an
                // earlier text export, which starts with "==> PATH <==".
                if let head = try? RegularFile.contents(of: ocrText, upTo: 4), !head.isEmpty, head != Data("==> ".utf8)
                {
                    throw ValidationError(
                        "--ocr-text \(ocrText) exists and is not a text export of photomill's; choose another name"
                    )
                }
            }
        }

        func run() throws {
            let catalog = try catalog.open(.readOnly)
            do {
                let exporter = try Exporter(catalog: catalog, root: URL(fileURLWithPath: directory), stripGPS: stripGPS)
                let summary = try exporter.exportAll()
                say(
                    "exported \(summary.photos) photos to \(exporter.root.path): \(summary.written) files written, \(summary.unchanged) unchanged"
                        + (summary.removed > 0
                            ? ", \(summary.removed) removed (of photos no longer in the catalog)" : "")
                )
                if let ocrText {
                    let pages = try writeText(catalog, to: URL(fileURLWithPath: ocrText))
                    say("recognised text of \(pages) photos: \(ocrText)")
                }
            } catch {
                throw fail("export", error, fallback: .cannotCreate)
            }
        }

        /// Every photo's text under a `==> PATH <==` line (as `head` prints several files).
        private func writeText(_ catalog: Catalog, to url: URL) throws -> Int {
            var text = Data()
            var count = 0
            var after: Int64 = 0
            while true {
                let page = try catalog.ocrTexts(afterPhoto: after, limit: 1000)
                guard let last = page.last else { break }
                for entry in page {
                    text.append(Data("==> \(entry.path) <==\n\(entry.text.trimmingCharacters(in: .newlines))\n\n".utf8))
                }
                count += page.count
                after = last.photoId
            }
            try AtomicFile.write(text, to: url, onlyIfChanged: true)
            return count
        }
    }
}
