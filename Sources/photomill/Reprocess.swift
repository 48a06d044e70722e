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
import Foundation
import PhotomillCore

extension Photomill {
    struct Reprocess: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put done tasks back in the queue: those of an outdated recipe, or all.",
            discussion: """
                Every result records its recipe: the code version and the parameters that shape \
                it (thumbnail size and quality, OCR language and page size). --outdated requeues \
                the results whose recipe differs from the one the given processing flags make \
                (pass the flags the coordinator runs with). The old result stays until the new \
                one replaces it.
                """
        )

        @OptionGroup var catalog: CatalogFlags
        @OptionGroup var filters: TaskFilterFlags

        @Flag(help: "Only results whose recipe differs from the current configuration.")
        var outdated = false

        @Flag(help: "Every result.")
        var all = false

        @Option(help: "Longest side of thumbnails the coordinator uses.")
        var thumbnailSize: Int = ProcessingParameters().thumbnailSize

        @Option(help: "Tesseract language(s) the coordinator uses.")
        var ocrLanguage: String = ProcessingParameters().ocrLanguage

        @Flag(help: "Only say how many tasks would be requeued.")
        var dryRun = false

        @Flag(help: "Print one JSON object.")
        var json = false

        func validate() throws {
            guard outdated != all else { throw ValidationError("give exactly one of --outdated and --all") }
            guard (16...4096).contains(thumbnailSize) else {
                throw ValidationError("--thumbnail-size must be between 16 and 4096 pixels, not \(thumbnailSize)")
            }
            guard !ocrLanguage.isEmpty, ocrLanguage.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "_" })
            else {
                throw ValidationError("--ocr-language must look like 'eng' or 'eng+deu', not '\(ocrLanguage)'")
            }
        }

        func run() throws {
            var parameters = ProcessingParameters()
            parameters.thumbnailSize = thumbnailSize
            parameters.ocrLanguage = ocrLanguage
            let catalog = try catalog.open(.readWrite, mustExist: true)
            defer { catalog.close() }
            let counts = try catalog.reprocess(
                matching: filters.filter(),
                currentRecipes: outdated ? parameters.recipes : nil,
                dryRun: dryRun,
                now: WallClock.now()
            )
            say(
                RequeueReport(counts: counts, dryRun: dryRun).render(
                    json: json,
                    verb: dryRun ? "would requeue" : "requeued",
                    what: outdated ? "outdated results" : "results"
                )
            )
        }
    }
}
