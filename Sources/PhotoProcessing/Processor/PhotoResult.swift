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

/// Everything computed for one photo; each kind succeeded (its value is set) or failed
/// (an entry in `errors`), independently of the others.
public struct PhotoResult: Sendable {
    public let path: String
    public var fileSize: Int?
    public var hashes: ContentHashes?
    public var metadata: PhotoMetadata?
    public var thumbnail: Thumbnail?
    public var text: RecognizedText?
    public var perceptualHash: PerceptualHash?
    /// The similarity kind's second hash, with `perceptualHash`.
    public var detailHash: DetailHash?
    public var errors: [Kind: ProcessingError] = [:]
    /// Seconds spent on each kind (its share of a decode another kind also uses goes to
    /// the first that needs it), for the RESULT's `processing_us`.
    public var seconds: [Kind: Double] = [:]

    public init(path: String) { self.path = path }

    public var succeeded: Bool { errors.isEmpty }

    /// What this says about `kind`, as a worker reports it: its failure, else its value;
    /// nil when it was not asked for.
    public func outcome(for kind: Kind) -> TaskOutcome? {
        if let error = errors[kind] {
            let errorClass = error.errorClass
            return .failure(errorClass: errorClass, message: error.message, retryable: errorClass.isRetryable)
        }
        switch kind {
        case .hash:
            return hashes.map { .hash(md5: $0.md5, sha256: $0.sha256, fileSize: Int64(fileSize ?? 0)) }
        case .metadata:
            return metadata.map { .metadata($0) }
        case .thumbnail:
            return thumbnail.map { .thumbnail(width: $0.width, height: $0.height, jpeg: Data($0.jpeg)) }
        case .ocr:
            return text.map {
                .ocr(text: $0.text, confidence: $0.confidence, language: $0.language, rotation: $0.rotation)
            }
        case .similarity:
            return perceptualHash.map { .similarity($0, detail: detailHash) }
        }
    }
}
