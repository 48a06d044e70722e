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

extension Photomill_V1_Result {
    func validate(_ check: FieldChecker, blobs: [Data]) throws(ProtocolViolation) {
        try check.id(jobID, "job_id")
        try check.id(leaseToken, "lease_token")
        guard !results.isEmpty else { throw check.violation("results", "is empty") }
        var kinds: Set<Photomill_V1_Kind> = []
        var referenced: Set<Int> = []
        for (index, result) in results.enumerated() {
            func field() -> String { "results[\(index)]" }
            try check.kind(result.kind, "\(field()).kind")
            guard kinds.insert(result.kind).inserted else {
                throw check.violation("\(field()).kind", "\(result.kind.name) has two results")
            }
            if let blob = try result.validate(check, field(), blobCount: blobs.count) {
                guard referenced.insert(blob).inserted else {
                    throw check.violation(field(), "blob \(blob) is referenced twice")
                }
            }
        }
        // A blob nobody refers to is bytes the coordinator would buffer for nothing.
        if let stray = blobs.indices.first(where: { !referenced.contains($0) }) {
            throw check.violation("results", "blob frame \(stray) is referenced by no result", reason: .unexpectedBlob)
        }
    }
}

extension Photomill_V1_KindResult {
    /// Returns the index of the blob frame this result refers to, if any.
    func validate(
        _ check: FieldChecker,
        _ field: @autoclosure () -> String,
        blobCount: Int
    ) throws(ProtocolViolation) -> Int? {
        guard let outcome else { throw check.violation("\(field()).outcome", "is unset") }
        if case .failure(let failure) = outcome {
            // A failure may come before any recipe applied (the file could not be read).
            if !recipe.isEmpty { try check.text(recipe, "\(field()).recipe", bytes: FieldBounds.recipeBytes) }
            try failure.validate(check, "\(field()).failure")
            return nil
        }
        try check.text(recipe, "\(field()).recipe", bytes: FieldBounds.recipeBytes)
        switch (kind, outcome) {
        case (.hash, .hashes(let hashes)):
            try hashes.validate(check, "\(field()).hashes")
        case (.metadata, .metadata(let metadata)):
            try metadata.validate(check, "\(field()).metadata")
        case (.thumbnail, .thumbnail(let thumbnail)):
            return try thumbnail.validate(check, "\(field()).thumbnail", blobCount: blobCount)
        case (.ocr, .ocr(let ocr)):
            try ocr.validate(check, "\(field()).ocr")
        case (.similarity, .similarity):
            break  // every 64-bit value is a hash
        default:
            throw check.violation("\(field()).outcome", "is not a payload of kind \(kind.name)")
        }
        return nil
    }
}

extension Photomill_V1_Failure {
    func validate(_ check: FieldChecker, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        try check.slug(errorClass, "\(field()).error_class", bytes: FieldBounds.errorClassBytes)
        try check.text(message, "\(field()).message", bytes: FieldBounds.errorMessageBytes)
    }
}

extension Photomill_V1_Hashes {
    func validate(_ check: FieldChecker, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        try Self.hex(md5, digits: 32, check, "\(field()).md5")
        try Self.hex(sha256, digits: 64, check, "\(field()).sha256")
    }

    /// Lowercase only: the MD5 is a file name in the exports and a key in the catalog, so
    /// one digest must have one spelling.
    private static func hex(
        _ value: String,
        digits: Int,
        _ check: FieldChecker,
        _ field: @autoclosure () -> String
    ) throws(ProtocolViolation) {
        let isHex = value.allUTF8 {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
        }
        guard value.utf8.count == digits, isHex else {
            throw check.violation(field(), "\(check.quote(value)) is not \(digits) lowercase hex digits")
        }
    }
}

extension Photomill_V1_Thumbnail {
    func validate(
        _ check: FieldChecker,
        _ field: @autoclosure () -> String,
        blobCount: Int
    ) throws(ProtocolViolation) -> Int {
        try check.range(width, FieldBounds.thumbnailSide, "\(field()).width")
        try check.range(height, FieldBounds.thumbnailSide, "\(field()).height")
        guard blobIndex < blobCount else {
            throw check.violation(
                "\(field()).blob_index",
                "\(blobIndex) but \(blobCount) blob frame(s) follow",
                reason: .missingBlob
            )
        }
        return Int(blobIndex)
    }
}

extension Photomill_V1_Ocr {
    func validate(_ check: FieldChecker, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        try check.text(text, "\(field()).text", bytes: FieldBounds.ocrTextBytes)
        try check.finite(confidence, FieldBounds.ocrConfidence, "\(field()).confidence")
        try check.ocrLanguageSpec(language, "\(field()).language")
        guard FieldBounds.ocrRotations.contains(rotation) else {
            throw check.violation("\(field()).rotation", "\(rotation) is not 0, 90, 180 or 270")
        }
    }
}
