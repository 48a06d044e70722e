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
import PhotomillCore

extension Photomill_V1_Job {
    func validate(_ check: FieldChecker, blobs: [Data]) throws(ProtocolViolation) {
        try check.id(jobID, "job_id")
        guard photoID > 0 else { throw check.violation("photo_id", "\(photoID) is not positive") }
        try check.path(path, "path")
        let kinds = try check.kinds(self.kinds, "kinds")
        try check.id(leaseToken, "lease_token")
        try validateDeadlines(check, kinds: kinds)
        guard hasParameters else { throw check.violation("parameters", "is missing") }
        try parameters.validate(check, ocr: kinds.contains { Kind($0)?.needsLanguage == true })
        try validateSidecar(check, kinds: kinds, blobs: blobs)
        try validateFileBlobs(check, blobs: sidecarInBlobs ? blobs.dropLast() : blobs[...])
    }

    /// A sidecar only with the metadata kind; its bytes, when sent, are the last frame and
    /// come only with the file's; its error only instead of its bytes.
    private func validateSidecar(
        _ check: FieldChecker,
        kinds: Set<Photomill_V1_Kind>,
        blobs: [Data]
    ) throws(ProtocolViolation) {
        guard !sidecarPath.isEmpty else {
            if sidecarInBlobs { throw check.violation("sidecar_in_blobs", "is true without a sidecar_path") }
            if !sidecarError.isEmpty { throw check.violation("sidecar_error", "is set without a sidecar_path") }
            return
        }
        try check.path(sidecarPath, "sidecar_path")
        guard kinds.contains(.metadata) else {
            throw check.violation("sidecar_path", "is set on a job without KIND_METADATA")
        }
        if !sidecarError.isEmpty {
            try check.text(sidecarError, "sidecar_error", bytes: FieldBounds.errorMessageBytes)
            if sidecarInBlobs { throw check.violation("sidecar_error", "is set but the sidecar's bytes follow too") }
        }
        guard sidecarInBlobs else { return }
        guard fileInBlobs else { throw check.violation("sidecar_in_blobs", "is true but file_in_blobs is false") }
        guard let last = blobs.last else {
            throw check.violation("sidecar_in_blobs", "is true but no blob frame follows", reason: .missingBlob)
        }
        guard FieldBounds.sidecarBytes.contains(UInt64(last.count)) else {
            throw check.violation(
                "sidecar_in_blobs",
                "the sidecar frame holds \(last.count) bytes, over \(FieldBounds.sidecarBytes.upperBound)",
                reason: .frameTooLarge
            )
        }
    }

    /// Exactly one deadline per kind of the job: a kind without one could never expire.
    private func validateDeadlines(_ check: FieldChecker, kinds: Set<Photomill_V1_Kind>) throws(ProtocolViolation) {
        var covered: Set<Photomill_V1_Kind> = []
        for (index, deadline) in deadlines.enumerated() {
            let field = "deadlines[\(index)]"
            try check.kind(deadline.kind, "\(field).kind")
            guard kinds.contains(deadline.kind) else {
                throw check.violation("\(field).kind", "\(deadline.kind.name) is not a kind of the job")
            }
            guard covered.insert(deadline.kind).inserted else {
                throw check.violation("\(field).kind", "\(deadline.kind.name) has two deadlines")
            }
            try check.range(deadline.deadlineMs, FieldBounds.deadlineMs, "\(field).deadline_ms")
        }
        if let missing = Photomill_V1_Kind.known.first(where: { kinds.contains($0) && !covered.contains($0) }) {
            throw check.violation("deadlines", "has no deadline for \(missing.name)")
        }
    }

    /// The blob frames (but the sidecar's) are the file, whole, or absent.
    private func validateFileBlobs(_ check: FieldChecker, blobs: ArraySlice<Data>) throws(ProtocolViolation) {
        let total = blobs.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        if !fileInBlobs {
            if !blobs.isEmpty {
                throw check.violation(
                    "file_in_blobs",
                    "is false but \(blobs.count) blob frame(s) follow",
                    reason: .unexpectedBlob
                )
            }
        } else if total < fileSize {
            throw check.violation(
                "file_size",
                "is \(fileSize) but the blob frames hold \(total) bytes",
                reason: .missingBlob
            )
        } else if total > fileSize {
            throw check.violation(
                "file_size",
                "is \(fileSize) but the blob frames hold \(total) bytes",
                reason: .unexpectedBlob
            )
        }
    }
}

extension Photomill_V1_ProcessingParameters {
    func validate(_ check: FieldChecker, ocr: Bool) throws(ProtocolViolation) {
        try check.range(thumbnailSize, FieldBounds.thumbnailSize, "parameters.thumbnail_size")
        try check.range(thumbnailQuality, FieldBounds.thumbnailQuality, "parameters.thumbnail_quality")
        try check.range(ocrMaxSide, FieldBounds.ocrMaxSide, "parameters.ocr_max_side")
        try check.range(pixelLimit, FieldBounds.pixelLimit, "parameters.pixel_limit")
        if ocrMinConfidence != 0 {
            try check.range(ocrMinConfidence, FieldBounds.ocrMinConfidence, "parameters.ocr_min_confidence")
        }
        // The language matters only to OCR, but a set value is checked all the same.
        if ocr || !ocrLanguage.isEmpty { try check.ocrLanguageSpec(ocrLanguage, "parameters.ocr_language") }
    }
}
