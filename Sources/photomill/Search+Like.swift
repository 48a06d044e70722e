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
import PhotoProcessing
import PhotomillCore

// `search --like FILE`: the file's perceptual hash, made here as `inspect` makes it, looked
// up in the catalog's index of hashes.
extension Photomill.Search {
    func validateLike() throws {
        guard let like else { throw ValidationError("--distance goes with --like FILE") }
        guard text.isEmpty, camera == nil, from == nil, to == nil, near == nil, mediaType == nil, keyword == nil,
            rating == nil
        else {
            throw ValidationError("--like FILE stands alone: it cannot be combined with TEXT or other filters")
        }
        try Photomill.Similar.checkDistance(distance ?? Catalog.defaultSimilarDistance)
        guard !like.isEmpty else { throw ValidationError("--like needs a file") }
    }

    func runLike(_ file: String) throws {
        var info = stat()
        guard PathBytes.withCString(file, { stat($0, &info) }) == 0 else {
            printError("photomill: --like \(PathBytes.display(file)): \(String(cString: strerror(errno)))")
            throw ExitCode.noInput
        }
        let catalog = try self.catalog.open(.readOnly)
        var parameters = ProcessingParameters()
        // The hash depends on the size of the picture it is made from: the catalog's.
        if let side = try catalog.similarityRecipe().flatMap(Recipe.init)?.parameters["side"].flatMap(Int.init) {
            parameters.thumbnailSize = side
        }
        let result = PhotoProcessor(parameters: parameters).process(path: file, kinds: [.similarity])
        guard let hash = result.perceptualHash else {
            let cause = result.errors[.similarity]?.message ?? "\(file): no perceptual hash"
            printError("photomill: \(PathBytes.display(cause))")
            throw ExitCode.someFailed
        }
        let photos = try catalog.photos(
            like: hash,
            detail: result.detailHash,
            within: distance ?? Catalog.defaultSimilarDistance
        )
        var out = LineBuffer()
        defer { out.flush() }
        let lines = JSONLines()
        for photo in photos {
            out.append(json ? lines.line(photo) : Photomill.Similar.line(photo))
        }
        if !json {
            out.append(
                "\(photos.count) photos like \(file) (hash \(hash.hex), distance \(distance ?? Catalog.defaultSimilarDistance))"
            )
        }
    }
}
